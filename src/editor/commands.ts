// Every command of the extension, in one table. The ids are contributed in package.json.

import * as vscode from "vscode";
import { convertToTypeScript, copyAsTritonPython } from "./convert-commands";
import { debugProgram } from "./debug/provider";
import { isTritonPythonDocument, kernelDocumentFor } from "./kernel-document";
import { pythonCompiler } from "./compiler";
import { pythonLibrary, readWithModules } from "./python-modules";
import type { PythonRunCommandResult, PythonRuns } from "./python-run";
import { ResultsPanel, type PanelState } from "./results-panel";
import type { RunCommandResult, RunController } from "./run-controller";
import type { RequestPaths } from "./runner";
import { formatListing, wgslFor } from "./wgsl";
import { addKernelLabTypes, type AddTypesResult } from "./workspace-types";
import { version } from "../../package.json";
import { openExercise, showHint, showSolution } from "./exercises/commands";
import type { ExerciseProgress } from "./exercises/progress";
import { openVectorAdd, removeMasks, runVectorAdd, showQuickFixes } from "./walkthrough";

export interface CommandServices {
  extensionUri: vscode.Uri;
  log: vscode.LogOutputChannel;
  runs: RunController;
  pythonRuns: PythonRuns;
  paths: RequestPaths;
  exercises: ExerciseProgress;
}

export type CommandId =
  | "kernelLab.runKernel"
  | "kernelLab.runPythonFile"
  | "kernelLab.sweepKernel"
  | "kernelLab.retuneKernel"
  | "kernelLab.showWgsl"
  | "kernelLab.showResults"
  | "kernelLab.cancelRun"
  | "kernelLab.debugProgram"
  | "kernelLab.addTypes"
  | "kernelLab.openExercise"
  | "kernelLab.showHint"
  | "kernelLab.showSolution"
  | "kernelLab.tour.openVectorAdd"
  | "kernelLab.tour.run"
  | "kernelLab.tour.removeMasks"
  | "kernelLab.tour.showFix"
  | "kernelLab.tour.sweep"
  | "kernelLab.convertToTypeScript"
  | "kernelLab.copyAsTritonPython";

/** Handlers return what happened, so integration tests can read it from `executeCommand`. */
export function commandTable(services: CommandServices): Record<CommandId, (...args: unknown[]) => unknown> {
  const { extensionUri, log, runs, pythonRuns, paths, exercises } = services;
  return {
    "kernelLab.runPythonFile": (uri?: unknown): Promise<PythonRunCommandResult> => pythonRuns.run(uri),
    "kernelLab.runKernel": (uri?: unknown, run?: unknown, size?: unknown): Promise<RunCommandResult> => runs.run("run", uri, run, size),
    "kernelLab.sweepKernel": (uri?: unknown, run?: unknown): Promise<RunCommandResult> => runs.run("sweep", uri, run),
    "kernelLab.retuneKernel": (uri?: unknown, run?: unknown, size?: unknown): Promise<RunCommandResult> => runs.run("retune", uri, run, size),
    "kernelLab.showWgsl": (uri?: unknown, kernel?: unknown) => showWgsl(uri, log, extensionUri, typeof kernel === "string" ? kernel : undefined),
    "kernelLab.convertToTypeScript": (uri?: unknown) => convertToTypeScript(uri, log),
    "kernelLab.copyAsTritonPython": (uri?: unknown) => copyAsTritonPython(uri),
    "kernelLab.showResults": (): PanelState => {
      ResultsPanel.show(extensionUri, log, (line, column) => runs.revealInLastFile(line, column));
      return ResultsPanel.state();
    },
    "kernelLab.cancelRun": () => {
      runs.cancel();
      pythonRuns.cancel();
    },
    "kernelLab.debugProgram": (uri?: unknown, run?: unknown): Promise<boolean> => debugProgram(uri, run, paths),
    "kernelLab.addTypes": (uri?: unknown): Promise<AddTypesResult | undefined> => addKernelLabTypes(extensionUri, version, uri),
    "kernelLab.openExercise": (exercise?: unknown) => openExercise(exercise, exercises, log),
    "kernelLab.showHint": (exercise?: unknown) => showHint(exercise, exercises),
    "kernelLab.showSolution": (exercise?: unknown, options?: unknown) => showSolution(exercise, exercises, options),
    // The walkthrough's buttons (walkthrough.ts).
    "kernelLab.tour.openVectorAdd": () => openVectorAdd(),
    "kernelLab.tour.run": () => runVectorAdd("run"),
    "kernelLab.tour.removeMasks": () => removeMasks(),
    "kernelLab.tour.showFix": () => showQuickFixes(),
    "kernelLab.tour.sweep": () => runVectorAdd("sweep"),
  };
}

/** Opens the generated WGSL of the file's kernels beside it; returns the text shown. */
async function showWgsl(uri: unknown, log: vscode.LogOutputChannel, extensionUri: vscode.Uri, kernel?: string): Promise<{ text: string } | undefined> {
  const document = (await kernelDocumentFor(uri)) ?? (await pythonDocumentFor(uri));
  if (!document) {
    void vscode.window.showErrorMessage("Kernel Lab: open a *.kernel.ts file, or a Python file with a @triton.jit kernel, to see its WGSL.");
    return undefined;
  }
  let text: string;
  try {
    const python = document.uri.path.endsWith(".py");
    // A Python file's kernels compile with the modules they import, as its diagnostics do (python-modules.ts).
    const all = python ? pythonCompiler().pythonWgsl((await readWithModules(document, pythonLibrary(extensionUri))).file) : wgslFor(document.fileName, document.getText());
    const listing = kernel === undefined ? all : { entries: all.entries.filter((e) => e.kernel === kernel), failed: all.failed.filter((k) => k === kernel) };
    if (listing.entries.length === 0) {
      void vscode.window.showErrorMessage(
        listing.failed.length > 0
          ? `Kernel Lab: ${listing.failed.join(", ")} does not compile; fix the errors in the Problems panel first.`
          : `Kernel Lab: this file declares no ${document.uri.path.endsWith(".py") ? "@triton.jit kernel" : "kernel(...)"}${kernel ? ` named ${kernel}` : ""}.`,
      );
      return undefined;
    }
    text = formatListing(listing);
  } catch (error) {
    log.error("Show WGSL failed:", error instanceof Error ? (error.stack ?? error.message) : String(error));
    void vscode.window.showErrorMessage(`Kernel Lab could not generate the WGSL: ${String(error)}`);
    return undefined;
  }
  const languages = await vscode.languages.getLanguages();
  const wgslDocument = await vscode.workspace.openTextDocument({ language: languages.includes("wgsl") ? "wgsl" : "plaintext", content: text });
  await vscode.window.showTextDocument(wgslDocument, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  return { text };
}

/** A Python file with a @triton.jit kernel: the one given, else the active editor's. */
async function pythonDocumentFor(uri: unknown): Promise<vscode.TextDocument | undefined> {
  const document = uri instanceof vscode.Uri ? (uri.path.endsWith(".py") ? await vscode.workspace.openTextDocument(uri) : undefined) : vscode.window.activeTextEditor?.document;
  return document && isTritonPythonDocument(document) ? document : undefined;
}

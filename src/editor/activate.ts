// The extension's activation, shared by its two entries: the desktop's (extension.ts, Node) and
// the browser's (web/extension.ts, VS Code for the Web). Everything is wired the same way on both;
// what differs — what runs a kernel file's runs, how the debug adapter starts, how requests name
// files — comes in as an `EditorPlatform`. Nothing heavy happens here (the compiler loads when a
// kernel document is first seen, the GPU only in a run's process or worker).

import * as vscode from "vscode";
import { RunCodeLensProvider } from "./codelens";
import { PythonCodeLensProvider } from "./codelens-python";
import { PythonRuns } from "./python-run";
import { commandTable } from "./commands";
import { registerKernelDebugger } from "./debug/provider";
import { KernelDiagnostics } from "./diagnostics";
import { pythonLibrary } from "./python-modules";
import { KernelHover } from "./hover-provider";
import { FIX_APPLIED_COMMAND, KernelQuickFixes } from "./quick-fixes";
import { KernelInlayHints } from "./inlay-hints";
import { KERNEL_FILE_GLOB } from "./kernel-document";
import { KernelTests, type KernelTestsProbe } from "./kernel-tests";
import { KernelTypesCache } from "./kernel-types-cache";
import { ResultsPanel } from "./results-panel";
import { RunController } from "./run-controller";
import type { RequestPaths, Runner } from "./runner";
import { offerTypesOnce } from "./types-offer";
import { KernelLabTypesActions } from "./workspace-types";
import { announceSolved, SOLUTION_SCHEME, SolutionDocuments } from "./exercises/commands";
import { ExerciseProgress, watchingReports, type ExercisesProbe } from "./exercises/progress";
import { EXERCISES_VIEW, ExercisesTree } from "./exercises/tree";

/** "desktop": runs in child processes, on Dawn; "browser": runs in Web Workers, on the browser's WebGPU. */
export type PlatformName = "desktop" | "browser";

export interface EditorPlatform {
  runner: Runner;
  paths: RequestPaths;
  debugAdapter: vscode.DebugAdapterDescriptorFactory;
}

export interface KernelLabApi {
  /** Milliseconds `activate` took (bench/RESULTS.md). */
  activationMs: number;
  /** Which entry activated (integration tests check the web one runs in the browser). */
  platform: PlatformName;
  /** What the Testing view holds and was told (integration tests read it); absent if activation failed. */
  tests?: KernelTestsProbe;
  /** Which exercises are solved and how many hints are shown (integration tests read it). */
  exercises?: ExercisesProbe;
}

export function activateKernelLab(
  context: vscode.ExtensionContext,
  platformName: PlatformName,
  makePlatform: (log: vscode.LogOutputChannel) => EditorPlatform,
): KernelLabApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel("Kernel Lab", { log: true });
  context.subscriptions.push(log);
  let tests: KernelTests | undefined;
  let progress: ExerciseProgress | undefined;
  try {
    const platform = makePlatform(log);
    const { paths, debugAdapter } = platform;
    const exercises = (progress = new ExerciseProgress(context.workspaceState));
    // Every completed run, however started, may solve an exercise (its report names it).
    const runner = watchingReports(platform.runner, (report) => void exercises.record(report).then((solved) => announceSolved(solved, exercises)));
    const runs = new RunController(context.extensionUri, log, runner, paths, context.storageUri);
    tests = new KernelTests(runner, paths, log);
    const kernelFiles = { language: "typescript", pattern: KERNEL_FILE_GLOB };
    // Python files: each provider leaves alone those without a @triton.jit function.
    const pythonFiles = { language: "python" };
    const pythonRuns = new PythonRuns(context.extensionUri, log, runner, paths, runs);
    const exercisesTree = new ExercisesTree(exercises);
    const types = new KernelTypesCache(log);
    const diagnostics = new KernelDiagnostics(log, pythonLibrary(context.extensionUri));
    context.subscriptions.push(
      diagnostics,
      vscode.languages.registerCodeActionsProvider(kernelFiles, new KernelQuickFixes(diagnostics), KernelQuickFixes.metadata),
      vscode.commands.registerCommand(FIX_APPLIED_COMMAND, (code: unknown) => log.info(`quick fix applied (${String(code)})`)),
      runs,
      tests,
      vscode.languages.registerCodeLensProvider(kernelFiles, new RunCodeLensProvider(log)),
      vscode.languages.registerInlayHintsProvider(kernelFiles, new KernelInlayHints(types)),
      vscode.languages.registerHoverProvider(kernelFiles, new KernelHover(types)),
      pythonRuns,
      vscode.languages.registerCodeLensProvider(pythonFiles, new PythonCodeLensProvider(log)),
      vscode.languages.registerInlayHintsProvider(pythonFiles, new KernelInlayHints(types)),
      vscode.languages.registerHoverProvider(pythonFiles, new KernelHover(types)),
      vscode.languages.registerCodeActionsProvider(kernelFiles, new KernelLabTypesActions(), { providedCodeActionKinds: KernelLabTypesActions.kinds }),
      offerTypesOnce(context.workspaceState, log),
      vscode.workspace.onDidCloseTextDocument((document) => types.forget(document)),
      { dispose: () => ResultsPanel.disposeCurrent() },
      ...registerKernelDebugger(debugAdapter, paths),
      exercises,
      exercisesTree,
      vscode.window.createTreeView(EXERCISES_VIEW, { treeDataProvider: exercisesTree }),
      vscode.workspace.registerTextDocumentContentProvider(SOLUTION_SCHEME, new SolutionDocuments()),
    );
    const commands = commandTable({ extensionUri: context.extensionUri, log, runs, pythonRuns, paths, exercises });
    for (const [id, handler] of Object.entries(commands)) {
      context.subscriptions.push(vscode.commands.registerCommand(id, handler));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("activation failed:", error instanceof Error ? (error.stack ?? message) : message);
    void vscode.window.showErrorMessage(`Kernel Lab could not start: ${message}`, "Show Log").then((c) => c && log.show());
  }
  const activationMs = performance.now() - started;
  log.info(`activated (${platformName}) in ${activationMs.toFixed(1)} ms (workspace ${vscode.workspace.isTrusted ? "trusted" : "not trusted: runs are disabled"})`);
  return { activationMs, platform: platformName, ...(tests ? { tests: tests.probe } : {}), ...(progress ? { exercises: progress.probe } : {}) };
}

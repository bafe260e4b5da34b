// The VS Code extension's entry point. It only wires things up: nothing heavy happens here (the
// compiler loads when a kernel document is first seen, the GPU only in a run's child process).

import * as vscode from "vscode";
import { RunCodeLensProvider } from "./codelens";
import { commandTable } from "./commands";
import { registerKernelDebugger } from "./debug/provider";
import { KernelDiagnostics } from "./diagnostics";
import { KernelHover } from "./hover";
import { KernelInlayHints } from "./inlay-hints";
import { KERNEL_FILE_GLOB } from "./kernel-document";
import { KernelTests, type KernelTestsProbe } from "./kernel-tests";
import { KernelTypesCache } from "./kernel-types";
import { ResultsPanel } from "./results-panel";
import { RunController } from "./run-controller";

export interface KernelLabApi {
  /** Milliseconds `activate` took (bench/RESULTS.md). */
  activationMs: number;
  /** What the Testing view holds and was told (integration tests read it); absent if activation failed. */
  tests?: KernelTestsProbe;
}

export function activate(context: vscode.ExtensionContext): KernelLabApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel("Kernel Lab", { log: true });
  context.subscriptions.push(log);
  let tests: KernelTests | undefined;
  try {
    const runs = new RunController(context.extensionUri, log, context.storageUri);
    tests = new KernelTests(context.extensionUri, log);
    const kernelFiles = { language: "typescript", pattern: KERNEL_FILE_GLOB };
    const types = new KernelTypesCache(log);
    context.subscriptions.push(
      new KernelDiagnostics(log),
      runs,
      tests,
      vscode.languages.registerCodeLensProvider(kernelFiles, new RunCodeLensProvider(log)),
      vscode.languages.registerInlayHintsProvider(kernelFiles, new KernelInlayHints(types)),
      vscode.languages.registerHoverProvider(kernelFiles, new KernelHover(types)),
      vscode.workspace.onDidCloseTextDocument((document) => types.forget(document)),
      { dispose: () => ResultsPanel.disposeCurrent() },
      ...registerKernelDebugger(context.extensionUri),
    );
    const commands = commandTable({ extensionUri: context.extensionUri, log, runs });
    for (const [id, handler] of Object.entries(commands)) {
      context.subscriptions.push(vscode.commands.registerCommand(id, handler));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error("activation failed:", error instanceof Error ? (error.stack ?? message) : message);
    void vscode.window.showErrorMessage(`Kernel Lab could not start: ${message}`, "Show Log").then((c) => c && log.show());
  }
  const activationMs = performance.now() - started;
  log.info(`activated in ${activationMs.toFixed(1)} ms (workspace ${vscode.workspace.isTrusted ? "trusted" : "not trusted: runs are disabled"})`);
  return { activationMs, ...(tests ? { tests: tests.probe } : {}) };
}

export function deactivate(): void {
  // Everything is on context.subscriptions.
}

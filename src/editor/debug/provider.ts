// The `kernel-lab` debugger in VS Code: its adapter (session.ts) is started as the platform says
// (a Node process of its own on the desktop, dist/debug-adapter.js; inline in the browser's
// extension host), launch configurations are completed from the active kernel file, and
// `Debug program…` (a CodeLens above each defineRun) asks for a program id.
// Debugging runs the file's TypeScript (its args), so it needs a trusted workspace, as Run does.

import * as vscode from "vscode";
import { isKernelDocument, isKernelUri } from "../kernel-document";
import type { RequestPaths } from "../runner";

export const DEBUG_TYPE = "kernel-lab";

export function registerKernelDebugger(adapter: vscode.DebugAdapterDescriptorFactory, paths: RequestPaths): vscode.Disposable[] {
  return [
    vscode.debug.registerDebugAdapterDescriptorFactory(DEBUG_TYPE, adapter),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, {
      resolveDebugConfiguration: (folder, config) => resolveDebugConfiguration(folder, config, paths),
    }),
  ];
}

/** F5 without a launch.json debugs the active kernel file's first run, program (0, 0, 0). */
function resolveDebugConfiguration(
  _folder: vscode.WorkspaceFolder | undefined,
  config: vscode.DebugConfiguration,
  paths: RequestPaths,
): vscode.DebugConfiguration | undefined {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage("Kernel Lab: debugging a kernel runs its file's TypeScript (its args), so it needs a trusted workspace.");
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (!config.type && !config.request && !config.name) {
    if (!editor || !isKernelDocument(editor.document)) return config;
    Object.assign(config, { type: DEBUG_TYPE, request: "launch", name: "Debug kernel program", program: "${file}", programId: [0, 0, 0] });
  }
  if (!config.program) {
    if (!editor || !isKernelDocument(editor.document)) {
      void vscode.window.showErrorMessage("Kernel Lab: set \"program\" in the launch configuration to a *.kernel.ts file (or open one).");
      return undefined;
    }
    config.program = paths.pathOf(editor.document.uri);
  }
  return config;
}

/** `Debug program…`: asks for a program id, then debugs that program of the run at its first size. */
export async function debugProgram(uri: unknown, run: unknown, paths: RequestPaths): Promise<boolean> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage("Kernel Lab: debugging a kernel runs its file's TypeScript (its args), so it needs a trusted workspace.");
    return false;
  }
  const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  if (!file || !isKernelUri(file)) {
    void vscode.window.showErrorMessage("Kernel Lab: open a *.kernel.ts file to debug one of its programs.");
    return false;
  }
  const runName = typeof run === "string" ? run : undefined;
  const answer = await vscode.window.showInputBox({
    title: `Debug a program of ${runName ?? "the first run"}`,
    prompt: "The program id to run in the CPU interpreter: x, or x, y, z (the run's first size)",
    value: "0, 0, 0",
    validateInput: (text) => (programIdOf(text) ? undefined : "one to three non-negative integers, e.g. 3 or 3, 0, 0"),
  });
  const programId = answer === undefined ? undefined : programIdOf(answer);
  if (!programId) return false;
  const folder = vscode.workspace.getWorkspaceFolder(file);
  return vscode.debug.startDebugging(folder, {
    type: DEBUG_TYPE,
    request: "launch",
    name: `Debug program (${programId.join(", ")})${runName ? ` of ${runName}` : ""}`,
    program: paths.pathOf(file),
    ...(runName ? { run: runName } : {}),
    programId,
  });
}

function programIdOf(text: string): number[] | undefined {
  const parts = text.split(/[\s,()[\]]+/).filter((p) => p !== "");
  if (parts.length < 1 || parts.length > 3 || !parts.every((p) => /^\d+$/.test(p))) return undefined;
  const id = parts.map(Number);
  while (id.length < 3) id.push(0);
  return id;
}

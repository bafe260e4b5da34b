// The `kernel-lab` debugger in VS Code: its adapter (session.ts) is started as the platform says
// (a Node process of its own on the desktop, dist/debug-adapter.js; inline in the browser's
// extension host), launch configurations are completed from the active kernel file, and
// `Debug program…` (a CodeLens above each defineRun, and above each `@triton.jit` kernel a Python
// file launches) asks for a program id.
// Debugging runs the file's code (a kernel file's args, a Python file's script up to the launch),
// so it needs a trusted workspace, as Run does.

import * as vscode from "vscode";
import { isKernelDocument, isKernelUri, isTritonPythonDocument } from "../kernel-document";
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

const UNTRUSTED = "Kernel Lab: debugging a kernel runs its file's code (a kernel file's args, a Python file's script up to the launch), so it needs a trusted workspace.";

/** A kernel file, or a Python file with `@triton.jit` kernels. */
function debuggable(document: vscode.TextDocument): boolean {
  return isKernelDocument(document) || isTritonPythonDocument(document);
}

/** F5 without a launch.json debugs the active kernel file's first run (a Python file's first launched kernel), program (0, 0, 0). */
function resolveDebugConfiguration(
  _folder: vscode.WorkspaceFolder | undefined,
  config: vscode.DebugConfiguration,
  paths: RequestPaths,
): vscode.DebugConfiguration | undefined {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(UNTRUSTED);
    return undefined;
  }
  const editor = vscode.window.activeTextEditor;
  if (!config.type && !config.request && !config.name) {
    if (!editor || !debuggable(editor.document)) return config;
    Object.assign(config, { type: DEBUG_TYPE, request: "launch", name: "Debug kernel program", program: "${file}", programId: [0, 0, 0] });
  }
  if (!config.program) {
    if (!editor || !debuggable(editor.document)) {
      void vscode.window.showErrorMessage("Kernel Lab: set \"program\" in the launch configuration to a *.kernel.ts file or a .py file with @triton.jit kernels (or open one).");
      return undefined;
    }
    config.program = paths.pathOf(editor.document.uri);
  }
  return config;
}

/**
 * `Debug program…`: asks for a program id, then debugs that program of the run at its first size,
 * or of a Python kernel's first launch (`run` is then the kernel's name).
 */
export async function debugProgram(uri: unknown, run: unknown, paths: RequestPaths): Promise<boolean> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(UNTRUSTED);
    return false;
  }
  const file = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
  const python = file?.path.endsWith(".py") ?? false;
  if (!file || !(isKernelUri(file) || python)) {
    void vscode.window.showErrorMessage("Kernel Lab: open a *.kernel.ts file, or a .py file with @triton.jit kernels, to debug one of its programs.");
    return false;
  }
  const runName = typeof run === "string" ? run : undefined;
  const answer = await vscode.window.showInputBox({
    title: python ? `Debug a program of ${runName ?? "the first kernel launched"}` : `Debug a program of ${runName ?? "the first run"}`,
    prompt: python
      ? "The program id to run in the CPU interpreter: x, or x, y, z (of the kernel's first launch: the script runs up to it)"
      : "The program id to run in the CPU interpreter: x, or x, y, z (the run's first size)",
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
    ...(runName ? (python ? { kernel: runName } : { run: runName }) : {}),
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

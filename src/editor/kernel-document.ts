// Which documents are kernel files: TypeScript modules named `*.kernel.ts` (docs/LANGUAGE.md §1).

import * as vscode from "vscode";

export const KERNEL_FILE_GLOB = "**/*.kernel.ts";

export function isKernelDocument(document: vscode.TextDocument): boolean {
  return isKernelUri(document.uri) && document.uri.scheme !== "git";
}

export function isKernelUri(uri: vscode.Uri): boolean {
  return uri.path.endsWith(".kernel.ts");
}

/** The kernel file a command is about: the one it was given, else the active editor's. */
export async function kernelDocumentFor(uri: unknown): Promise<vscode.TextDocument | undefined> {
  if (uri instanceof vscode.Uri) {
    return isKernelUri(uri) ? vscode.workspace.openTextDocument(uri) : undefined;
  }
  const active = vscode.window.activeTextEditor?.document;
  return active && isKernelDocument(active) ? active : undefined;
}

/** A Python file holding a `@triton.jit` function: a kernel file in Triton's own spelling. */
export function isTritonPythonDocument(document: vscode.TextDocument): boolean {
  return document.uri.path.endsWith(".py") && document.uri.scheme !== "git" && /@\s*(?:triton\.)?jit\b/.test(document.getText());
}

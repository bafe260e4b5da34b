// The two directions of "Triton in Python" (docs/LANGUAGE.md §2.2): "Convert to TypeScript kernel"
// writes a `.py` file's kernels as `NAME.kernel.ts` beside it and opens it; "Copy as Triton Python"
// puts a `.kernel.ts` file's kernels, as `@triton.jit` Python, on the clipboard.

import * as vscode from "vscode";
import { exists } from "./file-exists";
import { pythonCompiler } from "./compiler";

function documentFor(uri: unknown, ending: RegExp): Thenable<vscode.TextDocument | undefined> | vscode.TextDocument | undefined {
  if (uri instanceof vscode.Uri) return ending.test(uri.path) ? vscode.workspace.openTextDocument(uri) : undefined;
  const active = vscode.window.activeTextEditor?.document;
  return active && ending.test(active.uri.path) ? active : undefined;
}

/** Returns the URI written, or undefined when there was no Python file to convert. */
export async function convertToTypeScript(uri: unknown, log: vscode.LogOutputChannel): Promise<string | undefined> {
  const document = await documentFor(uri, /\.py$/);
  if (!document) {
    void vscode.window.showWarningMessage("Kernel Lab: Convert to TypeScript kernel works on a Python file with @triton.jit kernels.");
    return undefined;
  }
  const converted = pythonCompiler().pythonFileToTypeScript(document.fileName, document.getText());
  const target = document.uri.with({ path: document.uri.path.replace(/\.py$/, ".kernel.ts") });
  if (await exists(target)) {
    const answer = await vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(target)} exists. Replace it?`, { modal: true }, "Replace");
    if (answer !== "Replace") return undefined;
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(converted.text));
  log.info(`converted ${vscode.workspace.asRelativePath(document.uri)} → ${vscode.workspace.asRelativePath(target)}`);
  if (converted.diagnostics.some((d) => d.severity === "error")) {
    void vscode.window.showWarningMessage("Kernel Lab: some Python had no TypeScript equivalent (see the file's diagnostics); it is written as 0 in the kernel file.");
  }
  await vscode.window.showTextDocument(target);
  return target.toString();
}

/** Returns the Python copied, or undefined when there was no kernel file. */
export async function copyAsTritonPython(uri: unknown): Promise<string | undefined> {
  const document = await documentFor(uri, /\.kernel\.ts$/);
  if (!document) {
    void vscode.window.showWarningMessage("Kernel Lab: Copy as Triton Python works on a .kernel.ts file.");
    return undefined;
  }
  const python = pythonCompiler().kernelFileToPython(document.fileName, document.getText());
  await vscode.env.clipboard.writeText(python.text);
  const left = python.problems.map((p) => `${p.kernel} (${p.message})`).join("; ");
  void vscode.window.showInformationMessage(left ? `Copied as Triton Python, without: ${left}` : "Copied the kernels as Triton Python (@triton.jit).");
  return python.text;
}

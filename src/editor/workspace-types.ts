// "Kernel Lab: Add Kernel Lab's Types to This Folder": where TypeScript's service can't reach our
// TS server plugin (VS Code for the Web: TypeScript and Kernel Lab run in different extension
// hosts), `import … from "kernel-lab"` is "Cannot find module" (TS2307). The command writes the
// types into the kernel file's TypeScript project as `kernel-lab.d.ts` (ambient-types.ts), plus a
// tsconfig.json where the file has none, and is offered as a quick fix on that TS2307 (and, once
// per workspace, as a notification: types-offer.ts). Nothing the user wrote is replaced: an
// existing tsconfig is left alone, and a `kernel-lab.d.ts` is rewritten only if Kernel Lab wrote it.

import * as vscode from "vscode";
import { exists } from "./file-exists";
import { ambientTypes, MINIMAL_TSCONFIG, TYPES_FILE, WRITTEN_BY } from "./ambient-types";
import { isKernelDocument, kernelDocumentFor } from "./kernel-document";

export const ADD_TYPES_COMMAND = "kernelLab.addTypes";

export interface AddTypesResult {
  /** The files written (Uri strings); empty when the user's own files stood in the way. */
  written: string[];
  /** Where the types went: the folder of the file's tsconfig.json, else the file's own folder. */
  folder: string;
}

/** The nearest folder from the file's up to its workspace folder that has a tsconfig.json, if any. */
async function projectFolder(file: vscode.Uri): Promise<vscode.Uri | undefined> {
  const top = vscode.workspace.getWorkspaceFolder(file)?.uri;
  let folder = vscode.Uri.joinPath(file, "..");
  for (;;) {
    if (await exists(vscode.Uri.joinPath(folder, "tsconfig.json"))) return folder;
    if (!top || folder.path === top.path || folder.path === "/" || !folder.path.startsWith(top.path)) return undefined;
    folder = vscode.Uri.joinPath(folder, "..");
  }
}

export async function addKernelLabTypes(extensionUri: vscode.Uri, version: string, uri?: unknown): Promise<AddTypesResult | undefined> {
  const document = await kernelDocumentFor(uri);
  if (!document) {
    void vscode.window.showErrorMessage("Kernel Lab: open a *.kernel.ts file to add Kernel Lab's types to its folder.");
    return undefined;
  }
  const project = await projectFolder(document.uri);
  const folder = project ?? vscode.Uri.joinPath(document.uri, "..");
  const written: string[] = [];
  const typesUri = vscode.Uri.joinPath(folder, TYPES_FILE);
  if (await exists(typesUri)) {
    const current = new TextDecoder().decode(await vscode.workspace.fs.readFile(typesUri));
    if (!current.startsWith(WRITTEN_BY)) {
      void vscode.window.showWarningMessage(`Kernel Lab: ${vscode.workspace.asRelativePath(typesUri)} exists and is not Kernel Lab's; it was left as it is.`);
      return { written, folder: folder.toString() };
    }
  }
  const declarations = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, "types", "kernel-lab.d.ts")));
  await vscode.workspace.fs.writeFile(typesUri, new TextEncoder().encode(ambientTypes(declarations, version)));
  written.push(typesUri.toString());
  if (!project) {
    const tsconfig = vscode.Uri.joinPath(folder, "tsconfig.json");
    await vscode.workspace.fs.writeFile(tsconfig, new TextEncoder().encode(MINIMAL_TSCONFIG));
    written.push(tsconfig.toString());
  }
  // TypeScript's server keeps a file it opened without a tsconfig.json in an inferred project,
  // even when one appears (tsserver 5.8: neither its watchers nor `reloadProjects` move the file;
  // reopening it does): restart it, so the error goes now, as the user expects.
  await vscode.commands.executeCommand("typescript.restartTsServer").then(undefined, () => undefined);
  const names = written.map((w) => vscode.workspace.asRelativePath(vscode.Uri.parse(w))).join(" and ");
  void vscode.window.showInformationMessage(`Kernel Lab wrote ${names}: TypeScript now knows the types of "kernel-lab" here.`);
  return { written, folder: folder.toString() };
}

/** TypeScript's "Cannot find module 'kernel-lab'" in a kernel file. */
export function isMissingKernelLab(d: vscode.Diagnostic): boolean {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return (code === 2307 || code === "2307") && d.message.includes("'kernel-lab'");
}

/** The quick fix on TS2307 for "kernel-lab". */
export class KernelLabTypesActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (!isKernelDocument(document)) return [];
    const missing = context.diagnostics.filter(isMissingKernelLab);
    if (missing.length === 0) return [];
    const action = new vscode.CodeAction("Add Kernel Lab's types to this folder (kernel-lab.d.ts)", vscode.CodeActionKind.QuickFix);
    action.diagnostics = missing;
    action.isPreferred = true;
    action.command = { command: ADD_TYPES_COMMAND, title: action.title, arguments: [document.uri] };
    return [action];
  }
}

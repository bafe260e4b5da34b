// A first kernel opens without red: where TypeScript can't reach Kernel Lab's TS server plugin (VS
// Code for the Web: TypeScript and Kernel Lab run in different extension hosts), both imports of
// a kernel file show "Cannot find module 'kernel-lab'", and a new user has to find the quick fix on
// each. The first time TypeScript says so in this workspace, a notification offers the fix with one
// button, "Add Types" (workspace-types.ts does the writing). Once per workspace: a user who closes
// it still has the quick fix.

import * as vscode from "vscode";
import { isKernelUri } from "./kernel-document";
import { ADD_TYPES_COMMAND, isMissingKernelLab } from "./workspace-types";

/** workspaceState key: the offer was made in this workspace. */
const OFFERED = "kernelLab.typesOffered";
export const ADD_TYPES_BUTTON = "Add Types";

/** Watches TypeScript's diagnostics until a kernel file lacks the types, then offers them once. */
export function offerTypesOnce(state: vscode.Memento, log: vscode.LogOutputChannel): vscode.Disposable {
  if (state.get<boolean>(OFFERED)) return { dispose: () => undefined };
  const watch = vscode.languages.onDidChangeDiagnostics(({ uris }) => {
    const file = uris.find((uri) => isKernelUri(uri) && uri.scheme !== "git" && vscode.languages.getDiagnostics(uri).some(isMissingKernelLab));
    if (!file || state.get<boolean>(OFFERED)) return;
    watch.dispose();
    void state.update(OFFERED, true);
    const where = vscode.workspace.asRelativePath(file);
    log.info(`TypeScript can't find 'kernel-lab' in ${where}: offering to add the types`);
    void vscode.window
      .showInformationMessage(
        `TypeScript can't find the module 'kernel-lab' for ${where}, so it marks the imports red. Kernel Lab can add its types to this folder (kernel-lab.d.ts).`,
        ADD_TYPES_BUTTON,
      )
      .then((choice) => (choice === ADD_TYPES_BUTTON ? vscode.commands.executeCommand(ADD_TYPES_COMMAND, file) : undefined));
  });
  return watch;
}

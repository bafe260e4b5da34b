// Whether a file or folder exists, asked through the workspace's file system (the disk on the
// desktop, the remote or virtual file system in VS Code for the Web).

import * as vscode from "vscode";

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

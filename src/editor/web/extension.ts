// The web extension's entry point (package.json `browser`), for VS Code for the Web (vscode.dev,
// github.dev, or any web host that runs extensions in its browser worker): the same activation as
// the desktop's (../activate.ts), with runs and debug recordings in Web Workers on the browser's
// WebGPU (web-workers.ts), the debug adapter inline in the extension host, and files named by
// their Uri's path (the workspace is not on this machine's disk).

import * as vscode from "vscode";
import { activateKernelLab, type KernelLabApi } from "../activate";
import { KernelDebugSession } from "../debug/session";
import type { RequestPaths } from "../runner";
import { samePath } from "../same-file";
import { WebWorkers } from "./web-workers";

export function activate(context: vscode.ExtensionContext): KernelLabApi {
  return activateKernelLab(context, "browser", (log) => {
    const workers = new WebWorkers(context.extensionUri, context.globalStorageUri, workspacePaths, log);
    return {
      runner: workers,
      paths: workspacePaths,
      debugAdapter: {
        createDebugAdapterDescriptor: () => new vscode.DebugAdapterInlineImplementation(new KernelDebugSession(workers.debugHost)),
      },
    };
  });
}

export function deactivate(): void {
  // Everything is on context.subscriptions.
}

/** A path names a file of the workspace folder it lies in (or of the first one): same scheme and authority. */
const workspacePaths: RequestPaths = {
  pathOf: (uri) => uri.path,
  uriOf: (path) => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const folder = folders.find((f) => path === f.uri.path || path.startsWith(`${f.uri.path.replace(/\/$/, "")}/`)) ?? folders[0];
    return folder ? folder.uri.with({ path }) : vscode.Uri.file(path);
  },
  // Uri paths: always "/", case-sensitive.
  samePath: (a, b, folder) => samePath(a, b, "browser", folder),
};

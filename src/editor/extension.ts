// The desktop extension's entry point (package.json `main`): runs go to a child Node process that
// owns Dawn (kernel-runner.ts, dist/worker.js), the debug adapter is a Node process of its own
// (dist/debug-adapter.js), and requests name files by their paths on disk. The browser's entry is
// web/extension.ts; both activate through activate.ts.

import * as vscode from "vscode";
import { activateKernelLab, type KernelLabApi } from "./activate";
import { KernelRunner } from "./kernel-runner";
import { samePath } from "./same-file";

export type { KernelLabApi } from "./activate";

export function activate(context: vscode.ExtensionContext): KernelLabApi {
  const dist = (file: string) => vscode.Uri.joinPath(context.extensionUri, "dist", file).fsPath;
  return activateKernelLab(context, "desktop", (log) => ({
    runner: new KernelRunner(dist("worker.js"), log),
    paths: {
      pathOf: (uri) => uri.fsPath,
      uriOf: (path) => vscode.Uri.file(path),
      samePath: (a, b, folder) => samePath(a, b, process.platform, folder),
    },
    debugAdapter: {
      // Inside VS Code execPath may be Electron: ELECTRON_RUN_AS_NODE makes it a plain Node.
      createDebugAdapterDescriptor: () => new vscode.DebugAdapterExecutable(process.execPath, [dist("debug-adapter.js")], { env: { ELECTRON_RUN_AS_NODE: "1" } }),
    },
  }));
}

export function deactivate(): void {
  // Everything is on context.subscriptions.
}

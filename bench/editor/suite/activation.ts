// One activation sample, in a window that was just opened on the repository (which has
// *.kernel.ts files, so `workspaceContains` activates the extension while the window starts).
// Wall-clock times are Date.now() epochs, comparable with the launcher's on the same machine.
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../src/editor/extension";
import { extensionId, writeResult } from "./common";

export async function run(): Promise<void> {
  const suiteStartedAt = Date.now();
  const extension = vscode.extensions.getExtension<KernelLabApi>(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded`);
  const activeWhenSuiteStarted = extension.isActive;
  const api = await extension.activate();
  // The extension host's own performance marks (epoch ms): where it started loading the
  // extension's code, and where it called activate().
  const marks = (globalThis as { MonacoPerformanceMarks?: { getMarks(): { name: string; startTime: number }[] } }).MonacoPerformanceMarks?.getMarks() ?? [];
  const mark = (name: string) => marks.find((m) => m.name === name)?.startTime;
  writeResult("activation", {
    extHostStartedAt: performance.timeOrigin,
    extHostReadyAt: mark("code/extHost/ready"),
    willLoadCodeAt: mark(`code/extHost/willLoadExtensionCode/${extensionId}`),
    willActivateAt: mark(`code/extHost/willActivateExtension/${extensionId}`),
    suiteStartedAt,
    activeWhenSuiteStarted,
    activationMs: api.activationMs,
  });
}

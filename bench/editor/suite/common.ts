// Shared by the benchmark's extension-host modules (each one is an `extensionTestsPath`: VS Code
// calls its `run()` once the window is up). They read bench settings from, and leave their
// measurements in, out/bench/editor/ (this file is bundled into out/bench/editor/suite/).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import * as vscode from "vscode";

export const benchOut = resolve(__dirname, "..");
export const repoRoot = resolve(benchOut, "../../..");

const manifest = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { publisher: string; name: string };
export const extensionId = `${manifest.publisher}.${manifest.name}`;

export function readConfig<T>(): T {
  return JSON.parse(readFileSync(join(benchOut, "config.json"), "utf8")) as T;
}

export function writeResult(name: string, value: unknown): void {
  mkdirSync(join(benchOut, "results"), { recursive: true });
  writeFileSync(join(benchOut, "results", `${name}.json`), JSON.stringify(value, null, 2));
}

export function kernelLabDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "kernel-lab");
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Polls `probe` every millisecond (a timer, not a busy loop: the checker runs on this thread)
 * until it holds; returns performance.now() at that moment. `onDidChangeDiagnostics` is no use
 * for timing: the extension host debounces it by 50 ms.
 */
export async function until(what: string, probe: () => boolean, timeoutMs = 10_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (probe()) return performance.now();
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(1);
  }
}

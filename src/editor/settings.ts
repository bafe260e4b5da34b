// The extension's settings (declared under `contributes.configuration` in package.json), read
// fresh at each use so a change applies to the next run without a reload.

import * as vscode from "vscode";

export type Backend = "gpu" | "cpu";

export interface RunSettings {
  timeoutSeconds: number;
  repetitions: number;
  backend: Backend;
  /** Whether a run of a file that uses f16 asks Dawn for the toggles that unlock it (harness RunOptions.dawnToggles). */
  dawnToggles: "auto" | "off";
}

export function readRunSettings(scope?: vscode.Uri): RunSettings {
  const config = vscode.workspace.getConfiguration("kernelLab", scope);
  const timeoutSeconds = config.get<number>("timeoutSeconds", 120);
  const repetitions = config.get<number>("repetitions", 100);
  const backend = config.get<string>("backend", "gpu");
  return {
    timeoutSeconds: Number.isFinite(timeoutSeconds) && timeoutSeconds > 0 ? timeoutSeconds : 120,
    repetitions: Number.isInteger(repetitions) && repetitions > 0 ? repetitions : 100,
    backend: backend === "cpu" ? "cpu" : "gpu",
    dawnToggles: config.get<string>("dawnToggles", "auto") === "off" ? "off" : "auto",
  };
}

/** How much of a Python file's do_bench / perf_report runs (`kernel-lab run --bench`); "default": full on a GPU, quick on a software adapter. */
export type PythonBench = "default" | "off" | "quick" | "full";

export function readPythonBench(scope?: vscode.Uri): PythonBench {
  const value = vscode.workspace.getConfiguration("kernelLab", scope).get<string>("pythonBenchmarks", "default");
  return value === "off" || value === "quick" || value === "full" ? value : "default";
}

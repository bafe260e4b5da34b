// docs/LANGUAGE.md §4.1's report of running a Python file (`kernel-lab run FILE.py --json`).

import type { LocatedDiagnostic } from "../../diagnostics/position";
import type { AdapterReport, AutotuneReport } from "../report";
import type { BenchMode } from "./protocol";
import type { CopyCounts } from "./resident";

export interface PythonLaunchReport {
  kernel: string;
  grid: [number, number, number];
  constexprs: Record<string, number | boolean | string | null>;
  /** The checked launch's wall-clock time (upload, the instrumented launch, read back; or the interpreter's run with --cpu): not a benchmark, do_bench is. */
  ms: number;
  /** After docs/LANGUAGE.md §4.1's keys: the line of the `kernel[grid](…)` call. */
  line: number;
}

export interface PythonCheckReport {
  line: number;
  kind: "assert_close" | "allclose";
  passed: boolean;
  maxAbsDiff: number | null;
}

/** A perf_report's plot (`.run(show_plots=True)`): the first column is x, each other column a line. */
export interface PythonPlot {
  title: string;
  columns: string[];
  rows: number[][];
  xlabel: string;
  ylabel: string;
  xLog: boolean;
  yLog: boolean;
}

/** One tuning: the kernel, the line of the launch that tuned it, the key's values, and the table a .kernel.ts run's autotune has. */
export interface PythonAutotuneReport extends AutotuneReport {
  kernel: string;
  line: number;
  key: string;
}

export interface PythonFileReport {
  file: string;
  adapter: AdapterReport | null;
  diagnostics: LocatedDiagnostic[];
  launches: PythonLaunchReport[];
  /** Launches left out of `launches` (after the first MAX_LISTED). */
  launchesNotListed?: number;
  checks: PythonCheckReport[];
  /** @triton.autotune's tunings with --tune-codegen (python/autotune.ts), one per kernel and key; absent when none ran. */
  autotune?: PythonAutotuneReport[];
  stdout: string;
  /** How much of do_bench / perf_report ran, and why. */
  bench: { mode: BenchMode; chosen: "flag" | "gpu" | "software-adapter" | "cpu" };
  /** perf_report's plots, in the order shown. */
  plots: PythonPlot[];
  /** The script's exception, as Python prints it (its frames in the script only). */
  traceback?: string;
  /** The exception's type and the script's line of its last frame (null: none in the script), where the editor marks it. */
  exception?: { type: string; line: number | null };
  /**
   * Pyodide's start as this run waited for it: `warm` (and startKind "reused") when the process's
   * Python thread was already running; else "snapshot" when restored from the cache folder's memory
   * snapshot (snapshot-node.ts), "cold" when started from scratch (the first time, or the browser).
   */
  pyodide: { startMs: number; warm: boolean; startKind: "reused" | "cold" | "snapshot" };
  /**
   * What crossed between the CPU and the GPU (tensors' elements: uploads before launches, read-backs
   * when the script reads what a launch wrote; not the instrumented launch's own check buffers).
   * Absent when the run ended before the script started.
   */
  gpuCopies?: CopyCounts;
}

/** Launches listed one by one (a benchmark's loop launches thousands). */
export const MAX_LISTED = 200;

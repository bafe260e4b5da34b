// What a file's run is asked to do and what its runs share: the options of `kernel-lab run` (and of
// the editor's worker request, protocol.ts) and the session one file's runs are run in. Types
// only, in a module of their own, so the files of a run can all name them without importing each
// other.

import type { ParsedFile } from "../compile";
import type { LocatedDiagnostic } from "../diagnostics/position";
import type { Device } from "./run/open-device";
import type { KernelPrograms } from "./run/programs";
import type { Progress } from "./progress";
import type { AdapterReport, RunReport } from "./report";

export type { Progress };

export interface RunOptions {
  /** Only the run of this name. */
  run?: string;
  /** One size instead of the run's first. */
  size?: number;
  /** Every size of each run. */
  sweep?: boolean;
  /** Interpret on the CPU instead of launching on the GPU. */
  cpu?: boolean;
  /** Most timed repetitions per measurement (default 100); 0 checks without timing (a run with `configs` runs its first). */
  reps?: number;
  /** Limit for one size of one run, GPU work included (default 120 s). */
  timeoutMs?: number;
  /** With `cpu`: element operations a launch may take before the interpreter calls it endless (default 5e8). */
  maxSteps?: number;
  /** Constexpr values replacing the run's own and each config's (`--constexpr`; single-kernel runs). */
  constexprs?: Record<string, number>;
  /** Also trace this program's accesses into each run's `accessMap` (`--program`). */
  program?: readonly [number, number, number];
  /** Also trace up to 64 programs' accesses into each run's `accessMaps` (the editor's results panel draws them). */
  accessMaps?: boolean;
  /** Tune runs with `configs` afresh instead of taking the cached choice (`--retune`). */
  retune?: boolean;
  /**
   * Let the autotuner also try the code generator's knobs each kernel uses (`--tune-codegen`), in
   * every run on the GPU whose definition does not say otherwise (`tuneCodegen`), configs or not.
   */
  tuneCodegen?: boolean;
  /**
   * "auto" (the default): where the file's kernels use f16, open the GPU with the Dawn toggles that
   * unlock it (runtime/dawn-toggles.ts); "off": ask for none (KERNEL_LAB_DAWN_FLAGS still applies).
   * The editor's `kernelLab.dawnToggles`.
   */
  dawnToggles?: "auto" | "off";
  onProgress?: (progress: Progress) => void;
  /** A run's outputs were compared with its reference; it is timed next (`timing` is still null on the GPU). */
  onRunChecked?: (run: RunReport, adapter: AdapterReport | null) => void;
  /** A run is complete, as it appears in the report's `runs`. */
  onRunDone?: (run: RunReport) => void;
}

/** What the runs of one file share. */
export interface FileSession {
  /** The file as the report names it. */
  file: string;
  text: string;
  parsed: ParsedFile;
  /** Every kernel value the file made, in creation order. */
  kernels: readonly { name: string; ordinal: number }[];
  device: Device;
  programs: KernelPrograms;
  opts: RunOptions;
  progress: (p: Progress) => void;
  onChecked: (run: RunReport) => void;
  /** A size is complete: into the report's `runs` (on the GPU, with how close it came to the GPU's peaks). */
  finished: (run: RunReport) => Promise<void>;
  /** Into the report's `diagnostics`. */
  diagnose: (diagnostics: LocatedDiagnostic[]) => void;
}

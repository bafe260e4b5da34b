// The result of running a file: exactly the JSON of docs/LANGUAGE.md §4 (`kernel-lab run --json`), which the
// editor also receives from the worker. Non-finite numbers (a NaN output) serialise as null.

import type { LocatedDiagnostic } from "../diagnostics/position";
import type { KnobSetting } from "../ir/knobs";
import type { MismatchMap } from "./run/mismatch-map";
import type { SpeedOfLightReport } from "./timing/speed-of-light";
import type { AccessMapReport, AccessMapsReport, ExerciseAccessReport } from "./debug/access-map";
import type { BytesReport, BytesSummary } from "./debug/bytes";

export interface AdapterReport {
  vendor: string;
  device: string;
  backend: string;
  description: string;
  /** What Kernel Lab changed in how the adapter was opened, said once: the Dawn toggles it asked for because the file uses f16. */
  note?: string;
}

export interface MismatchReport {
  output: string;
  index: number;
  got: number;
  expected: number;
  /** The program id that stored the element ([x, y, z]), or null if no program stored it; absent when unknown. */
  program?: [number, number, number] | null;
  /** The element's flat index in that program's block. */
  lane?: number | null;
  /** 1-based line and column of the tl.store that wrote it (or, with `atomic`, of the tl.atomic* that updates the output). */
  source?: { line: number; column: number } | null;
  /** True when no store wrote the element and atomics update its output: `program` and `lane` are null, for atomics have no single writer. */
  atomic?: true;
}

export type { MismatchMap } from "./run/mismatch-map";

export interface TimingReport {
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Samples timed; each is the mean of `launchesPerSample` back-to-back launches (absent: 1). */
  reps: number;
  launchesPerSample?: number;
  /** GPU timestamps; wall clock per submit where the adapter has none; the interpreter's wall clock with --cpu. */
  source: "timestamp-query" | "wall-clock" | "cpu-wall-clock";
  /** After docs/LANGUAGE.md §4's keys: present when the GPU's timestamps come in steps of 1 µs or more (a browser coarsening them), the step in ms. */
  resolutionMs?: number;
}

export interface BaselineReport {
  /** E.g. "builtins.add". */
  name: string;
  medianMs: number;
  /** Baseline median / kernel median: above 1 the kernel is faster. */
  speedup: number;
  /** Present, and false, when the baseline's output does not match the run's reference. */
  matchesReference?: false;
}

export interface RunReport {
  name: string;
  kernel: string;
  size: number;
  constexprs: Record<string, number>;
  grid: [number, number, number];
  correct: boolean;
  maxAbsDiff: number;
  maxRelDiff: number;
  mismatches: number;
  firstMismatch: MismatchReport | null;
  /** For an output the run declares 2-D (`shapes`) with mismatches: counts of wrong elements per region. */
  mismatchMap?: MismatchMap;
  timing: TimingReport | null;
  gbps: number | null;
  gflops: number | null;
  baseline: BaselineReport | null;
  /** Present when the run has `configs`: what the autotuner tried and which it picked (not with --cpu). */
  autotune?: AutotuneReport;
  /**
   * Present when the run has `launches`: each launch in order, timed on its own. The run's own
   * `kernel`, `constexprs` and `grid` are then the first launch's, and its `timing` (and GB/s,
   * GFLOP/s) the whole sequence's.
   */
  launches?: LaunchReport[];
  /**
   * Present when the kernel calls tl.devicePrint: its lines (`pid (x, y, z) idx (i) prefix: value`),
   * sorted by program, then call, then element, from the correctness launch only.
   */
  prints?: string[];
  /** Lines that did not fit the GPU's print buffer (2047 lines); absent when none were dropped. */
  printsDropped?: number;
  /** On the GPU: the fraction of this GPU's measured peaks the run reached, and a verdict (speed-of-light.ts). */
  speedOfLight?: SpeedOfLightReport;
  /** With `--program`: what that program's loads, stores and atomics touch (access-map.ts). */
  accessMap?: AccessMapReport;
  /** With the `accessMaps` option (the editor's results panel): the maps of up to 64 of the grid's programs (analyse-launch.ts programAccessMaps). */
  accessMaps?: AccessMapsReport;
  /** On the GPU, when timed: where the bytes go (bytes.ts), beside `speedOfLight`. */
  bytes?: BytesReport;
  /** The Kernel Lab exercise whose hidden reference checked the run (`reference: exerciseReference("puzzle-01")`). */
  exercise?: string;
  /** With `exercise`: the run's accesses beside the course's solution's, and the first program whose differ (debug/exercise-access.ts). */
  exerciseAccess?: ExerciseAccessReport;
}

/** One launch of a run with several. */
export interface LaunchReport {
  kernel: string;
  grid: [number, number, number];
  constexprs: Record<string, number>;
  /** This launch alone; null until timed (and with --cpu, its interpreter's wall clock). */
  timing: TimingReport | null;
}

/** One alternative set of constexprs the autotuner tried. */
export interface AutotuneCandidate {
  /** The full set (the run's `constexprs` with this config merged over them). */
  constexprs: Record<string, number>;
  /** Null when it was not timed: it did not compile or did not match the reference. */
  medianMs: number | null;
  gbps: number | null;
  gflops: number | null;
  correct: boolean;
  /** Why it was not timed or not picked: a compile error, a mismatch. */
  note?: string;
  /** Where its bytes go (bytes.ts `summarise`): absent when not traced (a cached choice, a compile error). */
  bytes?: BytesSummary;
  /** With code-generation knobs tuned (`tuneCodegen`): the knobs' values it was compiled with (ir/knobs.ts). */
  codegen?: KnobSetting;
}

export interface AutotuneReport {
  /** The fastest correct candidate's constexprs; the run's own numbers are this one's. */
  picked: Record<string, number>;
  /** True when the choice came from the on-disk cache: only the picked one ran this time. */
  cached: boolean;
  candidates: AutotuneCandidate[];
  /** With code-generation knobs tuned: the picked candidate's knobs, which the run was compiled with. */
  codegen?: KnobSetting;
  /** With code-generation knobs tuned: settings not timed because their WGSL was byte-identical to an earlier candidate's. */
  identical?: number;
}

export interface FileReport {
  file: string;
  /** Null when no adapter was found (see diagnostics). */
  adapter: AdapterReport | null;
  diagnostics: LocatedDiagnostic[];
  runs: RunReport[];
}

/** How a whole `run` went, most severe first; the command line maps it to its exit code. */
export type Outcome = "compile-error" | "no-adapter" | "failure" | "mismatch" | "ok";

/** docs/LANGUAGE.md §4's exit codes. */
export const EXIT_CODES: Record<Outcome, number> = {
  ok: 0,
  mismatch: 1,
  "compile-error": 2,
  "no-adapter": 3,
  failure: 4,
};

// Messages between the extension and the results webview, shared by both sides (the webview's
// script is bundled from src/editor/webview/). Each side validates what it receives: a webview
// is a separate page, and a message is only data until it has been checked.

import type { AdapterReport, Outcome, RunReport } from "../harness/report";
import { isKnobSetting } from "../ir/knobs";
import type { PythonCheckReport, PythonLaunchReport, PythonPlot } from "../harness/python/report";
import type { PythonOutcome } from "../harness/python/session";

/** A diagnostic of the run, as the panel lists it (1-based, like the command line). */
export interface DiagnosticView {
  line: number;
  column: number;
  severity: "error" | "warning" | "info";
  code: string;
  message: string;
}

export interface WgslView {
  kernel: string;
  constexprs: Record<string, number>;
  text: string;
}

/** Everything the panel shows about one finished `run` or `sweep` of a file. */
export interface ResultsView {
  /** The file as the user knows it (workspace-relative). */
  file: string;
  mode: "run" | "sweep" | "retune";
  backend: "gpu" | "cpu";
  outcome: Outcome;
  /** ISO time the run finished. */
  finishedAt: string;
  adapter: AdapterReport | null;
  diagnostics: DiagnosticView[];
  runs: RunReport[];
  wgsl: WgslView[];
  /** Says for which target the WGSL was generated. */
  wgslNote: string;
  /** Earlier results of each run and size on this device (harness/timing/history.ts), when kept. */
  history?: RunHistoryView[];
}

/** One run and size: its earlier results, newest last, and the change since the last timed one. */
export interface RunHistoryView {
  run: string;
  size: number;
  /** "1.80× faster than the last run (14:02)"; null with no earlier timed result. */
  change: string | null;
  speedup: number | null;
  earlier: { at: string; medianMs: number | null; correct: boolean }[];
}

/** Everything the panel shows about one run of a Python file (`kernel-lab run FILE.py --json`'s report). */
export interface PythonResultsView {
  file: string;
  backend: "gpu" | "cpu";
  outcome: PythonOutcome;
  finishedAt: string;
  adapter: AdapterReport | null;
  /** Launch diagnostics (KL3101 …) and the traceback's line (KL3124), in the file. */
  diagnostics: DiagnosticView[];
  launches: PythonLaunchReport[];
  launchesNotListed: number;
  checks: PythonCheckReport[];
  /** What the script printed. */
  stdout: string;
  plots: PythonPlot[];
  traceback: string | null;
  /** The exception's `Type: message` line, when the script raised. */
  raised: string | null;
  /** How much of do_bench / perf_report ran, said as the command line says it. */
  bench: string;
  /** "Python started in 4.1 s" or "Python reused". */
  python: string;
}

export type ToWebview =
  | { type: "running"; title: string; detail: string }
  | { type: "results"; view: ResultsView }
  | { type: "python-results"; view: PythonResultsView }
  | { type: "failed"; title: string; message: string };

export type FromWebview =
  | { type: "ready" }
  /** The panel drew a message: what it shows, so tests and logs can confirm it. */
  | {
      type: "rendered";
      messageType: ToWebview["type"];
      runs: number;
      verdicts: ("match" | "mismatch")[];
      chart: boolean;
      /** The history lines drawn ("1.80× faster than the last run (14:02)"), one per run that has them. */
      history?: string[];
      /** Each run's speed-of-light verdict, where its report has one, and how many rooflines were drawn. */
      speedOfLight?: string[];
      rooflines?: number;
      /** Access maps drawn (runs whose report has `accessMaps`). */
      accessMaps?: number;
      /** A Python run: launches listed, lines of printed output, plots drawn, and whether a traceback is shown. */
      python?: { launches: number; printedLines: number; plots: number; traceback: boolean };
    }
  /** The user clicked a diagnostic or a run: reveal that place of the file. */
  | { type: "reveal"; line: number; column: number };

// ---------------------------------------------------------------------------------------------
// Validation. Small structural checks, enough that a malformed message is refused, not drawn.

type Check = (x: unknown) => boolean;

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isString: Check = (x) => typeof x === "string";
const isNumber: Check = (x) => typeof x === "number";
const isBoolean: Check = (x) => typeof x === "boolean";
const nullable = (check: Check): Check => (x) => x === null || check(x);
const arrayOf = (check: Check): Check => (x) => Array.isArray(x) && x.every(check);
const oneOf = (...values: readonly unknown[]): Check => (x) => values.includes(x);
const recordOf = (check: Check): Check => (x) => isObject(x) && Object.values(x).every(check);
const shape = (fields: Record<string, Check>): Check => (x) =>
  isObject(x) && Object.entries(fields).every(([key, check]) => check(x[key]));

const isAdapter = shape({ vendor: isString, device: isString, backend: isString, description: isString, note: (x) => x === undefined || isString(x) });
const optionalFirst = (check: Check): Check => (x) => x === undefined || check(x);
const isMismatch = shape({
  output: isString,
  index: isNumber,
  got: nullable(isNumber),
  expected: nullable(isNumber),
  program: optionalFirst(nullable(arrayOf(isNumber))),
  lane: optionalFirst(nullable(isNumber)),
  source: optionalFirst(nullable(shape({ line: isNumber, column: isNumber }))),
});
const isMismatchMap = shape({ output: isString, shape: arrayOf(isNumber), cell: arrayOf(isNumber), counts: arrayOf(arrayOf(isNumber)) });
const isTiming = shape({
  medianMs: isNumber,
  minMs: isNumber,
  maxMs: isNumber,
  reps: isNumber,
  source: oneOf("timestamp-query", "wall-clock", "cpu-wall-clock"),
  resolutionMs: optionalFirst(isNumber),
});
const isBaseline = shape({ name: isString, medianMs: isNumber, speedup: isNumber });
const optional = (check: Check): Check => (x) => x === undefined || check(x);
const isCandidate = shape({
  constexprs: recordOf(isNumber),
  medianMs: nullable(isNumber),
  gbps: nullable(isNumber),
  gflops: nullable(isNumber),
  correct: isBoolean,
  note: optional(isString),
  codegen: optional(isKnobSetting),
});
const isAutotune = shape({ picked: recordOf(isNumber), cached: isBoolean, candidates: arrayOf(isCandidate), codegen: optional(isKnobSetting), identical: optional(isNumber) });
const VERDICTS = ["memory-bound", "compute-bound", "launch-bound", "unknown"] as const;
/** Peaks must be positive: they are the roofline's axes (log scales). */
const isPositive: Check = (x) => typeof x === "number" && x > 0 && Number.isFinite(x);
const isSpeedOfLight = shape({
  peaks: shape({
    memoryGBps: isPositive,
    computeGflops: isPositive,
    launchMs: isNumber,
    timing: oneOf("timestamp-query", "wall-clock"),
    measuredAt: isString,
    source: oneOf("measured", "cached"),
  }),
  memoryFraction: nullable(isNumber),
  computeFraction: nullable(isNumber),
  verdict: oneOf(...VERDICTS),
  message: isString,
});
const isRuns = arrayOf((x) => Array.isArray(x) && x.length === 2 && x.every(isNumber));
const isAccessMap = shape({
  program: arrayOf(isNumber),
  buffers: arrayOf(shape({ param: isString, length: isNumber, shape: arrayOf(isNumber), matrix: isBoolean })),
  layers: arrayOf(shape({ kind: oneOf("load", "store", "atomic"), param: isString, line: isNumber, column: isNumber, lanes: isNumber, active: isNumber, touched: isRuns, masked: isRuns })),
});
const isAccessMaps = shape({ programs: isNumber, maps: arrayOf(isAccessMap) });
const isExerciseAccess = shape({
  compared: isNumber,
  programs: isNumber,
  differs: optional(shape({ program: arrayOf(isNumber), what: isString, yours: isAccessMap, reference: isAccessMap })),
});
/** Non-finite numbers arrive as null (JSON), hence nullable diffs. */
const isRun = shape({
  name: isString,
  kernel: isString,
  size: isNumber,
  constexprs: recordOf(isNumber),
  grid: arrayOf(isNumber),
  correct: isBoolean,
  maxAbsDiff: nullable(isNumber),
  maxRelDiff: nullable(isNumber),
  mismatches: isNumber,
  firstMismatch: nullable(isMismatch),
  mismatchMap: optional(isMismatchMap),
  timing: nullable(isTiming),
  gbps: nullable(isNumber),
  gflops: nullable(isNumber),
  baseline: nullable(isBaseline),
  autotune: optional(isAutotune),
  prints: optional(arrayOf(isString)),
  printsDropped: optional(isNumber),
  speedOfLight: optional(isSpeedOfLight),
  exercise: optional(isString),
  accessMaps: optional(isAccessMaps),
  exerciseAccess: optional(isExerciseAccess),
});
const isDiagnostic = shape({
  line: isNumber,
  column: isNumber,
  severity: oneOf("error", "warning", "info"),
  code: isString,
  message: isString,
});
const isWgsl = shape({ kernel: isString, constexprs: recordOf(isNumber), text: isString });
const isHistory = shape({
  run: isString,
  size: isNumber,
  change: nullable(isString),
  speedup: nullable(isNumber),
  earlier: arrayOf(shape({ at: isString, medianMs: nullable(isNumber), correct: isBoolean })),
});
const isResultsView = shape({
  file: isString,
  mode: oneOf("run", "sweep", "retune"),
  backend: oneOf("gpu", "cpu"),
  outcome: oneOf("compile-error", "no-adapter", "failure", "mismatch", "ok"),
  finishedAt: isString,
  adapter: nullable(isAdapter),
  diagnostics: arrayOf(isDiagnostic),
  runs: arrayOf(isRun),
  wgsl: arrayOf(isWgsl),
  wgslNote: isString,
  history: optional(arrayOf(isHistory)),
});

const isPythonResultsView = shape({
  file: isString,
  backend: oneOf("gpu", "cpu"),
  outcome: oneOf("ok", "raised", "compile-error", "no-adapter", "failure"),
  finishedAt: isString,
  adapter: nullable(isAdapter),
  diagnostics: arrayOf(isDiagnostic),
  launches: arrayOf(shape({ kernel: isString, grid: arrayOf(isNumber), constexprs: recordOf((x) => x === null || ["number", "string", "boolean"].includes(typeof x)), ms: isNumber, line: isNumber })),
  launchesNotListed: isNumber,
  checks: arrayOf(shape({ line: isNumber, kind: oneOf("assert_close", "allclose"), passed: isBoolean, maxAbsDiff: nullable(isNumber) })),
  stdout: isString,
  plots: arrayOf(shape({ title: isString, columns: arrayOf(isString), rows: arrayOf(arrayOf(nullable(isNumber))), xlabel: isString, ylabel: isString, xLog: isBoolean, yLog: isBoolean })),
  traceback: nullable(isString),
  raised: nullable(isString),
  bench: isString,
  python: isString,
});

const toWebviewChecks: { [T in ToWebview["type"]]: Check } = {
  running: shape({ title: isString, detail: isString }),
  results: shape({ view: isResultsView }),
  "python-results": shape({ view: isPythonResultsView }),
  failed: shape({ title: isString, message: isString }),
};

const fromWebviewChecks: { [T in FromWebview["type"]]: Check } = {
  ready: () => true,
  rendered: shape({
    messageType: oneOf("running", "results", "python-results", "failed"),
    runs: isNumber,
    verdicts: arrayOf(oneOf("match", "mismatch")),
    chart: isBoolean,
    history: optional(arrayOf(isString)),
    speedOfLight: optional(arrayOf(oneOf(...VERDICTS))),
    rooflines: optional(isNumber),
    accessMaps: optional(isNumber),
    python: optional(shape({ launches: isNumber, printedLines: isNumber, plots: isNumber, traceback: isBoolean })),
  }),
  reveal: shape({ line: isNumber, column: isNumber }),
};

function hasType<T extends string>(x: unknown, checks: Record<T, Check>): x is { type: T } {
  return isObject(x) && typeof x.type === "string" && Object.prototype.hasOwnProperty.call(checks, x.type);
}

export function parseToWebview(x: unknown): ToWebview | undefined {
  return hasType(x, toWebviewChecks) && toWebviewChecks[x.type](x) ? (x as ToWebview) : undefined;
}

export function parseFromWebview(x: unknown): FromWebview | undefined {
  return hasType(x, fromWebviewChecks) && fromWebviewChecks[x.type](x) ? (x as FromWebview) : undefined;
}

// Messages between the editor (parent) and the harness worker (child process, dist/worker.js).
// The parent sends one request; the child answers with progress messages, then exactly one
// result or error, and exits.

import type { FileReport, Outcome } from "../report";
import type { BenchMode } from "../python/protocol";
import type { PythonFileReport } from "../python/report";
import type { PythonOutcome } from "../python/session";
import type { Progress } from "../progress";
import type { RunOptions } from "../session";

export type { Progress };

/** The harness's run options that travel as data (the callbacks become progress messages). */
export type RequestOptions = Omit<RunOptions, "onProgress" | "onRunChecked" | "onRunDone">;

export interface RunRequest extends RequestOptions {
  type: "run";
  /** Absolute path of the kernel file. */
  file: string;
  /** The file's text, when it is not on disk: a Python exercise's run (python/exercise.ts). */
  text?: string;
}

/** Run a Python file whole (`kernel-lab run FILE.py`), every launch checked. */
export interface PythonRunRequest {
  type: "run-python";
  /** Absolute path of the `.py` file. */
  file: string;
  /** Launches run on the interpreter. */
  cpu: boolean;
  /** How much of do_bench / perf_report runs; default as on the command line. */
  bench?: BenchMode;
  timeoutMs?: number;
}

export type WorkerRequest = RunRequest | PythonRunRequest;

export interface ProgressMessage extends Progress {
  type: "progress";
}

export interface ResultMessage {
  type: "result";
  report: FileReport;
  outcome: Outcome;
  /** The exit code `kernel-lab run` would give. */
  exitCode: number;
}

export interface PythonResultMessage {
  type: "python-result";
  report: PythonFileReport;
  outcome: PythonOutcome;
  exitCode: number;
}

/** What a Python script printed, as it printed it. */
export interface OutputMessage {
  type: "output";
  stream: "stdout" | "stderr";
  text: string;
}

/** The worker itself failed (bad request, crash); diagnostics of the file come as a result instead. */
export interface ErrorMessage {
  type: "error";
  message: string;
  code: string;
}

export type WorkerMessage = ProgressMessage | ResultMessage | PythonResultMessage | OutputMessage | ErrorMessage;

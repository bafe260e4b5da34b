// Messages between the editor (parent) and the harness worker (child process, dist/worker.js).
// The parent sends one request; the child answers with progress messages, then exactly one
// result or error, and exits.

import type { FileReport, Outcome } from "./report";
import type { Progress } from "./progress";
import type { RunOptions } from "./session";

export type { Progress };

/** The harness's run options that travel as data (the callbacks become progress messages). */
export type RequestOptions = Omit<RunOptions, "onProgress" | "onRunChecked" | "onRunDone">;

export interface RunRequest extends RequestOptions {
  type: "run";
  /** Absolute path of the kernel file. */
  file: string;
}

export type WorkerRequest = RunRequest;

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

/** The worker itself failed (bad request, crash); diagnostics of the file come as a result instead. */
export interface ErrorMessage {
  type: "error";
  message: string;
  code: string;
}

export type WorkerMessage = ProgressMessage | ResultMessage | ErrorMessage;

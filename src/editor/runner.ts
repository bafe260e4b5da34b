// What runs a kernel file's runs for the editor, on either side: a child Node process on the
// desktop (kernel-runner.ts), a Web Worker in the browser (web/web-worker-runner.ts). Either way
// the file's own TypeScript runs outside the extension host, one request per process or worker.

import type * as vscode from "vscode";
import type { Progress, PythonRunRequest, RunRequest } from "../harness/workers/protocol";
import type { FileReport, Outcome } from "../harness/report";
import type { PythonFileReport } from "../harness/python/report";
import type { PythonOutcome } from "../harness/python/session";

export type RunOutcome =
  /** `folder`: the worker's working folder, which the report's file paths are relative to (as the CLI shows them). */
  | { kind: "completed"; report: FileReport; outcome: Outcome; exitCode: number; folder: string }
  | { kind: "worker-error"; message: string; code: string }
  | { kind: "timed-out"; seconds: number }
  | { kind: "cancelled" }
  | { kind: "crashed"; exitCode: number | null; signal: string | null; stderr: string };

/** How a Python file's run ended: its report, or the same failures as a kernel file's run. */
export type PythonRunOutcome =
  | { kind: "completed"; report: PythonFileReport; outcome: PythonOutcome; exitCode: number; folder: string }
  | Exclude<RunOutcome, { kind: "completed" }>;

export interface RunOptions {
  /** The folder display paths are relative to (the workspace folder), named as `pathOf` names files. */
  cwd: string;
  timeoutSeconds: number;
  onProgress: (progress: Progress) => void;
  token: vscode.CancellationToken;
}

export interface PythonRunOptions extends RunOptions {
  /** What the script prints, as it prints it. */
  onOutput: (stream: "stdout" | "stderr", text: string) => void;
}

export interface Runner {
  run(request: RunRequest, options: RunOptions): Promise<RunOutcome>;
  /** Runs a Python file whole, in the same kind of process or worker as a kernel file's runs. */
  runPython(request: PythonRunRequest, options: PythonRunOptions): Promise<PythonRunOutcome>;
}

/**
 * How requests (runs, debug launches) name files: by their path on disk on the desktop; in the
 * browser, where the workspace is `vscode-remote://…` or `vscode-vfs://…`, by the Uri's path,
 * read back through `vscode.workspace.fs`.
 */
export interface RequestPaths {
  pathOf(uri: vscode.Uri): string;
  /** The file an absolute path of a request or report names: `pathOf`'s inverse. */
  uriOf(path: string): vscode.Uri;
  /** Whether two such paths name one file (a relative one resolved against `folder`). */
  samePath(a: string, b: string, folder?: string): boolean;
}

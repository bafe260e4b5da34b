// Runs a kernel file in a child Node process (dist/worker.js) that owns the GPU, so a crashing
// driver or a hung kernel never takes the editor down. One child per request: it gets a
// `RunRequest` over Node IPC, answers with progress, then one result or error, and exits.
// Cancellation and the timeout kill it; a child that dies without answering is reported as
// crashed, and the next run starts a fresh one.

import { fork, type ChildProcess } from "node:child_process";
import * as os from "node:os";
import type * as vscode from "vscode";
import type { PythonRunRequest, RunRequest, WorkerMessage, WorkerRequest } from "../harness/workers/protocol";
import { assertNever } from "../ir/never";
import type { PythonRunOptions, PythonRunOutcome, RunOptions, RunOutcome, Runner } from "./runner";
import { workerEnv } from "./worker-env";

export type { RunOptions, RunOutcome } from "./runner";

/** The worker gets this long past the timeout to report its own timeout before it is killed. */
const GRACE_MS = 2000;
/** A child that has answered but not exited after this long is killed. */
const EXIT_WAIT_MS = 3000;
const STDERR_TAIL_CHARS = 4000;

export class KernelRunner implements Runner {
  constructor(
    private readonly workerPath: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  run(request: RunRequest, options: RunOptions): Promise<RunOutcome> {
    return this.child<RunOutcome>({ ...request, timeoutMs: options.timeoutSeconds * 1000 }, options, (message) =>
      message.type === "result" ? { kind: "completed", report: message.report, outcome: message.outcome, exitCode: message.exitCode, folder: options.cwd } : undefined,
    );
  }

  runPython(request: PythonRunRequest, options: PythonRunOptions): Promise<PythonRunOutcome> {
    return this.child<PythonRunOutcome>({ ...request, timeoutMs: options.timeoutSeconds * 1000 }, options, (message) => {
      if (message.type === "output") options.onOutput(message.stream, message.text);
      return message.type === "python-result" ? { kind: "completed", report: message.report, outcome: message.outcome, exitCode: message.exitCode, folder: options.cwd } : undefined;
    });
  }

  /** One child for one request; `completed` turns the child's result message into the outcome (undefined: not the result yet). */
  private child<T extends RunOutcome | PythonRunOutcome>(request: WorkerRequest, options: RunOptions, completed: (message: WorkerMessage) => T | undefined): Promise<T> {
    type Ended = T | Exclude<RunOutcome, { kind: "completed" }>;
    return new Promise<T>((resolve) => {
      let settled = false;
      let stderr = "";
      let child: ChildProcess;
      try {
        child = fork(this.workerPath, [], {
          cwd: options.cwd,
          // Not the extension host's flags (--inspect…); inside VS Code, execPath may be Electron.
          execArgv: [],
          env: workerEnv(process.platform, process.env, os.tmpdir()),
          stdio: ["ignore", "pipe", "pipe", "ipc"],
          serialization: "json",
        });
      } catch (error) {
        resolve({ kind: "crashed", exitCode: null, signal: null, stderr: `could not start the worker: ${String(error)}` } as T);
        return;
      }
      this.log.info(`worker ${child.pid} started: ${JSON.stringify(request)}`);

      const finish = (outcome: Ended) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancellation.dispose();
        if (outcome.kind === "completed" || outcome.kind === "worker-error") {
          // It answered; let it exit by itself, but not forever.
          const exitTimer = setTimeout(() => kill(child), EXIT_WAIT_MS);
          child.once("exit", () => clearTimeout(exitTimer));
        } else {
          kill(child);
        }
        resolve(outcome as T);
      };

      const timeoutMs = options.timeoutSeconds * 1000;
      const timer = setTimeout(() => {
        this.log.warn(`worker ${child.pid}: no result after ${options.timeoutSeconds} s, killing it`);
        finish({ kind: "timed-out", seconds: options.timeoutSeconds });
      }, timeoutMs + GRACE_MS);
      const cancellation = options.token.onCancellationRequested(() => {
        this.log.info(`worker ${child.pid}: cancelled`);
        finish({ kind: "cancelled" });
      });

      child.stdout?.setEncoding("utf8").on("data", (chunk: string) => this.log.trace(`[worker] ${chunk.trimEnd()}`));
      child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
        this.log.info(`[worker stderr] ${chunk.trimEnd()}`);
      });
      child.on("message", (raw: unknown) => {
        const message = parseWorkerMessage(raw);
        if (!message) {
          this.log.warn(`worker ${child.pid}: ignored a malformed message: ${JSON.stringify(raw)?.slice(0, 200)}`);
          return;
        }
        const done = completed(message);
        if (done) {
          finish(done);
          return;
        }
        switch (message.type) {
          case "progress":
            this.log.debug(`[${message.phase}] ${message.message}`);
            options.onProgress(message);
            return;
          case "result":
          case "python-result":
          case "output":
            return;
          case "error":
            this.log.error(`worker ${child.pid} failed (${message.code}): ${message.message}`);
            finish({ kind: "worker-error", message: message.message, code: message.code });
            return;
          default:
            assertNever(message, "message");
        }
      });
      child.on("error", (error) => {
        this.log.error(`worker ${child.pid ?? "(not started)"}: ${error.message}`);
        finish({ kind: "crashed", exitCode: null, signal: null, stderr: `${stderr}\n${error.message}`.trim() });
      });
      child.on("exit", (exitCode, signal) => {
        this.log.info(`worker ${child.pid} exited (code ${exitCode}, signal ${signal})`);
        // Its last IPC message may still be on its way; 'exit' can overtake it.
        setTimeout(() => finish({ kind: "crashed", exitCode, signal, stderr }), 200);
      });

      child.send(request, (error) => {
        if (error) finish({ kind: "crashed", exitCode: null, signal: null, stderr: `could not send the request: ${error.message}` });
      });
    });
  }
}

function kill(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

function parseWorkerMessage(raw: unknown): WorkerMessage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const m = raw as Record<string, unknown>;
  switch (m.type) {
    case "progress":
      return typeof m.phase === "string" && typeof m.message === "string" ? (raw as WorkerMessage) : undefined;
    case "result":
    case "python-result":
      return typeof m.report === "object" && m.report !== null && typeof m.outcome === "string" && typeof m.exitCode === "number"
        ? (raw as WorkerMessage)
        : undefined;
    case "output":
      return (m.stream === "stdout" || m.stream === "stderr") && typeof m.text === "string" ? (raw as WorkerMessage) : undefined;
    case "error":
      return typeof m.message === "string" ? ({ type: "error", message: m.message, code: String(m.code ?? "") } as WorkerMessage) : undefined;
    default:
      return undefined;
  }
}


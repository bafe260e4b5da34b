// The editor's child process (dist/worker.js): GPU work runs here so a driver crash or a hung
// kernel never takes VS Code down. Reads one request over IPC, sends progress, then one result or
// error, and exits.

// First: loads TypeScript from V8's code cache before the compiler's modules require it.
import { saveTypescriptCache } from "../load/typescript-cache";
import { EXIT_CODES } from "../report";
import type { WorkerMessage, WorkerRequest } from "./protocol";
import { runFileWithOutcome } from "../run/run";
import { PYTHON_EXIT_CODES, runPythonFile } from "../python/session";
import { startPythonThread } from "../python/thread-node";

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function handle(request: WorkerRequest): Promise<void> {
  if (request?.type === "run-python" && typeof request.file === "string") {
    // The Python thread starts here (a fresh process per run): the editor's run pays Pyodide's start.
    const { report, outcome } = await runPythonFile(
      request.file,
      {
        cpu: request.cpu,
        ...(request.bench ? { bench: request.bench } : {}),
        ...(request.timeoutMs !== undefined ? { timeoutMs: request.timeoutMs } : {}),
        onStdout: (text) => void send({ type: "output", stream: "stdout", text }),
        onStderr: (text) => void send({ type: "output", stream: "stderr", text }),
      },
      startPythonThread,
    );
    await send({ type: "python-result", report: JSON.parse(JSON.stringify(report)), outcome, exitCode: PYTHON_EXIT_CODES[outcome] });
    return;
  }
  if (request?.type !== "run" || typeof request.file !== "string") {
    await send({ type: "error", message: `Unknown request: ${JSON.stringify(request)}`, code: "KL9301" });
    return;
  }
  const { type, file, text, ...options } = request;
  const { report, outcome } = await runFileWithOutcome(file, { ...options, onProgress: (p) => void send({ type: "progress", ...p }) }, text);
  // JSON round trip: NaN and Infinity become null exactly as in `kernel-lab run --json`.
  await send({ type: "result", report: JSON.parse(JSON.stringify(report)), outcome, exitCode: EXIT_CODES[outcome] });
}

if (!process.send) {
  process.stderr.write("dist/worker.js is started by the Kernel Lab extension over IPC; use bin/kernel-lab.js on the command line.\n");
  process.exit(4);
}

process.once("message", (request: WorkerRequest) => {
  handle(request).then(
    () => {
      saveTypescriptCache();
      process.exit(0);
    },
    async (err: unknown) => {
      await send({ type: "error", message: err instanceof Error ? err.message : String(err), code: "KL9300" });
      process.exit(1);
    },
  );
});

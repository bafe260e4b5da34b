// The browser's counterpart of kernel-runner.ts: each run, and each debug launch's recording, is
// one Web Worker running dist/web/worker.js (harness/workers/web-worker.ts), so the file's own TypeScript
// never runs in the extension host. The worker has no file system: it asks for each file it reads
// and this side answers through `vscode.workspace.fs` (the workspace is `vscode-remote://…` or
// `vscode-vfs://…` here). The autotuner's cache travels with each request and comes back with
// the result, kept in the extension's global storage. A worker is terminated once it has answered,
// timed out or been cancelled; an `error` event is a crash. Python files are the exception: one
// worker is kept for them, so Pyodide starts once (seconds) and each later Run or Debug program…
// of a .py file reuses it; it is terminated only when a run times out, is cancelled or crashes
// (the next one starts a new worker).
//
// VS Code's web worker host wraps `new Worker(url)` in an `importScripts` bootstrap and refuses
// its own URIs, so the worker is started from a blob URL of the bundle's text, as a classic worker
// (docs/ENVIRONMENT.md §6).

import * as vscode from "vscode";
import type { DebugLaunch, ProgramTrace } from "../../harness/debug/debug-run";
import type { PythonRunRequest, RunRequest } from "../../harness/workers/protocol";
import type { FromWebWorker, ToWebWorker, WebWorkerContext } from "../../harness/workers/web-protocol";
import type { DebugHost } from "../debug/session";
import { readRunSettings } from "../settings";
import { PYODIDE_FILES, type PyodideFiles } from "../../harness/python/web-python";
import type { PythonRunOptions, PythonRunOutcome, RequestPaths, RunOptions, RunOutcome, Runner } from "../runner";

/** The worker gets this long past the timeout to report its own timeout before it is terminated. */
const GRACE_MS = 2000;
/** Where the worker sees the cache folder (its KERNEL_LAB_CACHE_DIR); the files live in global storage. */
const WORKER_CACHE_DIR = "/kernel-lab-cache";

/** The Web Worker API of the browser's extension host (the extension is compiled without the DOM's types). */
interface WebWorker {
  postMessage(message: ToWebWorker): void;
  terminate(): void;
  onmessage: ((event: { data: FromWebWorker }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
}
interface BrowserGlobals {
  Worker: new (url: string, options?: { name?: string }) => WebWorker;
  Blob: new (parts: Uint8Array[], options: { type: string }) => unknown;
  URL: { createObjectURL(blob: unknown): string };
}
const browser = globalThis as unknown as BrowserGlobals;

/** How one worker's request ends. */
/** Ends a request; `healthy: false` (the worker failed, e.g. Python did not start) terminates a kept worker instead of keeping it. */
type Ending<T> = (result: T, healthy?: boolean) => void;

export class WebWorkers implements Runner {
  private workerUrl: Promise<string> | undefined;
  private toldNoWebGpu = false;
  private pythonFilesRead: Promise<{ pyodide: PyodideFiles; lib: Record<string, string> }> | undefined;
  /** The worker whose Pyodide is started, while no run is using it (a run takes it, and gives it back when it ends well). */
  private pythonWorker: WebWorker | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    /** The autotuner's cache files (`context.globalStorageUri`). */
    private readonly cacheFolder: vscode.Uri,
    private readonly paths: RequestPaths,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  run(request: RunRequest, options: RunOptions): Promise<RunOutcome> {
    const timeoutMs = options.timeoutSeconds * 1000;
    return this.withWorker<RunOutcome>(
      `run ${JSON.stringify(request)}`,
      (context) => ({ type: "run", request: { ...request, timeoutMs }, context }),
      options.cwd,
      (message, end) => {
        switch (message.type) {
          case "progress":
            options.onProgress(message);
            return;
          case "no-webgpu":
            this.sayNoWebGpu(message.reason);
            return;
          case "result":
            // Kept before the run ends, so the next run sees the autotuner's choice.
            void this.storeCache(message.cacheFiles).then(() =>
              end({ kind: "completed", report: message.report, outcome: message.outcome, exitCode: message.exitCode, folder: options.cwd }),
            );
            return;
          case "error":
            this.log.error(`worker failed (${message.code}): ${message.message}`);
            end({ kind: "worker-error", message: message.message, code: message.code });
            return;
          default:
            this.log.warn(`worker: unexpected message ${message.type}`);
        }
      },
      {
        crashed: (text) => ({ kind: "crashed", exitCode: null, signal: null, stderr: text }),
        timeout: { ms: timeoutMs + GRACE_MS, outcome: { kind: "timed-out", seconds: options.timeoutSeconds } },
        token: options.token,
        cancelled: { kind: "cancelled" },
      },
    );
  }

  runPython(request: PythonRunRequest, options: PythonRunOptions): Promise<PythonRunOutcome> {
    const timeoutMs = options.timeoutSeconds * 1000;
    return this.pythonFiles().then(
      ({ pyodide, lib }) =>
        this.withWorker<PythonRunOutcome>(
          `run-python ${request.file}`,
          (context, warm) => ({ type: "run-python", request: { ...request, timeoutMs }, context, ...(warm ? {} : { pyodide, lib }) }),
          options.cwd,
          (message, end) => {
            switch (message.type) {
              case "output":
                options.onOutput(message.stream, message.text);
                return;
              case "no-webgpu":
                this.sayNoWebGpu(message.reason);
                return;
              case "python-result":
                end({ kind: "completed", report: message.report, outcome: message.outcome, exitCode: message.exitCode, folder: options.cwd });
                return;
              case "error":
                this.log.error(`Python worker failed (${message.code}): ${message.message}`);
                // Not kept: a worker whose Pyodide failed to start would get the next request without Pyodide's files.
                end({ kind: "worker-error", message: message.message, code: message.code }, false);
                return;
              default:
                return;
            }
          },
          {
            crashed: (text) => ({ kind: "crashed", exitCode: null, signal: null, stderr: text }),
            timeout: { ms: timeoutMs + GRACE_MS, outcome: { kind: "timed-out", seconds: options.timeoutSeconds } },
            token: options.token,
            cancelled: { kind: "cancelled" },
            pool: this.pythonPool,
          },
        ),
      (error: unknown): PythonRunOutcome => ({ kind: "crashed", exitCode: null, signal: null, stderr: `could not read Kernel Lab's Python files: ${String(error)}` }),
    );
  }

  /** The Python worker, taken by one request at a time. */
  private readonly pythonPool = {
    take: (): WebWorker | undefined => {
      const worker = this.pythonWorker;
      this.pythonWorker = undefined;
      return worker;
    },
    // Kept unless another request's worker was given back meanwhile (two at once: the second had a worker of its own).
    giveBack: (worker: WebWorker): void => {
      if (this.pythonWorker) worker.terminate();
      else this.pythonWorker = worker;
    },
  };

  /** Pyodide's files (dist/pyodide/) and Kernel Lab's Python modules (dist/python-lib/), read once: each run's worker gets them. */
  private pythonFiles(): Promise<{ pyodide: PyodideFiles; lib: Record<string, string> }> {
    const files = (this.pythonFilesRead ??= (async () => {
      const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
      const read = (uri: vscode.Uri) => vscode.workspace.fs.readFile(uri);
      const pyodide = Object.fromEntries(
        await Promise.all(PYODIDE_FILES.map(async (name) => [name, await read(vscode.Uri.joinPath(dist, "pyodide", name))] as const)),
      ) as PyodideFiles;
      const lib: Record<string, string> = {};
      const walk = async (folder: vscode.Uri, under: string): Promise<void> => {
        for (const [name, type] of await vscode.workspace.fs.readDirectory(folder)) {
          const uri = vscode.Uri.joinPath(folder, name);
          if (type === vscode.FileType.Directory) await walk(uri, `${under}${name}/`);
          else if (name.endsWith(".py") || under.endsWith(".dist-info/")) lib[`${under}${name}`] = new TextDecoder().decode(await read(uri));
        }
      };
      await walk(vscode.Uri.joinPath(dist, "python-lib"), "");
      return { pyodide, lib };
    })());
    files.catch(() => (this.pythonFilesRead = undefined));
    return files;
  }

  /** The debug adapter's recording, in a worker (session.ts runs inline in the extension host). */
  readonly debugHost: DebugHost = {
    record: (launch, print) => this.record(launch, print),
    // VS Code may hand a breakpoint's source over as a URI string rather than a path.
    isFile: (sourcePath, file) => (/^[a-z][\w+.-]*:\/\//i.test(sourcePath) ? vscode.Uri.parse(sourcePath).path : sourcePath) === file,
  };

  private async record(launch: DebugLaunch, print: (text: string, category: "stdout" | "stderr") => void): Promise<ProgramTrace | { launchError: string }> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const cwd = folder ? this.paths.pathOf(folder) : "/";
    // A Python file's script runs up to the launch debugged in the Python worker, on its Pyodide
    // when a Run started it (else it starts there now, from Python's files, and is kept for the next).
    const isPython = launch.file.endsWith(".py");
    const python = isPython ? await this.pythonFiles() : undefined;
    const seconds = readRunSettings(folder).timeoutSeconds;
    return this.withWorker<ProgramTrace | { launchError: string } | Error>(
      `debug ${JSON.stringify(launch)}`,
      (context, warm) => ({ type: "debug", launch, context, ...(python && !warm ? { python } : {}) }),
      cwd,
      (message, end) => {
        switch (message.type) {
          case "trace":
            end(message.trace);
            return;
          case "debug-error":
            end({ launchError: message.message });
            return;
          case "console":
            print(message.text, message.category);
            return;
          case "error":
            end(new Error(message.message), false);
            return;
          default:
            this.log.warn(`debug worker: unexpected message ${message.type}`);
        }
      },
      {
        crashed: (text) => new Error(`the debug worker crashed: ${text}`),
        // A script that never reaches its launch (or a trace that never ends) must not hold the Python worker: stopped as a run would be.
        timeout: {
          ms: seconds * 1000 + GRACE_MS,
          outcome: new Error(`the program did not reach its launch within ${seconds} s (kernelLab.timeoutSeconds); its worker was stopped`),
        },
        ...(isPython ? { pool: this.pythonPool } : {}),
      },
    ).then((result) => {
      if (result instanceof Error) throw result;
      return result;
    });
  }

  /**
   * Starts a worker with the request `message` makes (given the worker's context), answers its
   * reads, passes its other messages to `onMessage`, and terminates it once `end` is called (or it
   * crashes, times out or is cancelled).
   */
  private async withWorker<T>(
    what: string,
    message: (context: WebWorkerContext, warm: boolean) => ToWebWorker,
    cwd: string,
    onMessage: (message: FromWebWorker, end: Ending<T>) => void,
    endings: {
      crashed: (text: string) => T;
      timeout?: { ms: number; outcome: T };
      token?: vscode.CancellationToken;
      cancelled?: T;
      /** A worker kept between requests: `take` gives the kept one (if any), `giveBack` keeps it after a request that ended well. */
      pool?: { take(): WebWorker | undefined; giveBack(worker: WebWorker): void };
    },
  ): Promise<T> {
    let worker: WebWorker;
    let request: ToWebWorker;
    const kept = endings.pool?.take();
    try {
      const [url, cacheFiles] = await Promise.all([this.workerScript(), this.readCache()]);
      request = message({ cwd, env: { KERNEL_LAB_CACHE_DIR: WORKER_CACHE_DIR }, cacheFiles }, kept !== undefined);
      worker = kept ?? new browser.Worker(url, { name: "kernel-lab" });
    } catch (error) {
      kept?.terminate();
      return endings.crashed(`could not start the worker: ${String(error)}`);
    }
    this.log.info(`worker ${kept ? "reused" : "started"}: ${what}`);
    return new Promise<T>((resolve) => {
      let settled = false;
      /** `healthy`: the worker answered (a kept worker may serve the next request); else it is terminated. */
      const finish = (result: T, healthy: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancellation?.dispose();
        worker.onmessage = null;
        worker.onerror = null;
        if (healthy && endings.pool) endings.pool.giveBack(worker);
        else worker.terminate();
        resolve(result);
      };
      const end = (result: T, healthy = true) => finish(result, healthy);
      const timer = endings.timeout
        ? setTimeout(() => {
            this.log.warn(`worker: no answer after ${endings.timeout!.ms} ms, terminating it`);
            finish(endings.timeout!.outcome, false);
          }, endings.timeout.ms)
        : undefined;
      const cancellation =
        endings.token && endings.cancelled !== undefined
          ? endings.token.onCancellationRequested(() => {
              this.log.info("worker: cancelled");
              finish(endings.cancelled!, false);
            })
          : undefined;
      worker.onmessage = ({ data }) => {
        switch (data.type) {
          case "read":
            void this.answerRead(worker, data.id, data.file);
            return;
          case "is-folder":
            void this.answerIsFolder(worker, data.id, data.file);
            return;
          case "console":
            this.log.info(`[worker ${data.category}] ${data.text.trimEnd()}`);
            break;
          case "progress":
            this.log.debug(`[${data.phase}] ${data.message}`);
            break;
        }
        onMessage(data, end);
      };
      worker.onerror = (event) => {
        event.preventDefault();
        this.log.error(`worker crashed: ${event.message ?? "(no message)"}`);
        finish(endings.crashed(event.message ?? "the worker failed without a message"), false);
      };
      worker.postMessage(request);
    });
  }

  private async answerRead(worker: WebWorker, id: number, file: string): Promise<void> {
    try {
      const bytes = await vscode.workspace.fs.readFile(this.paths.uriOf(file));
      worker.postMessage({ type: "file", id, text: new TextDecoder().decode(bytes) });
    } catch (error) {
      worker.postMessage({ type: "file", id, error: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Whether a path is a folder (a Python namespace package beside the script): false where it isn't there. */
  private async answerIsFolder(worker: WebWorker, id: number, file: string): Promise<void> {
    let folder = false;
    try {
      folder = ((await vscode.workspace.fs.stat(this.paths.uriOf(file))).type & vscode.FileType.Directory) !== 0;
    } catch {
      // Not there: not a folder.
    }
    worker.postMessage({ type: "folder", id, folder });
  }

  /** A blob URL of dist/web/worker.js, read once. */
  private workerScript(): Promise<string> {
    const url = (this.workerUrl ??= (async () => {
      const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.extensionUri, "dist", "web", "worker.js"));
      return browser.URL.createObjectURL(new browser.Blob([bytes], { type: "text/javascript" }));
    })());
    url.catch(() => (this.workerUrl = undefined));
    return url;
  }

  /** The cache files the worker sees in WORKER_CACHE_DIR: each `*.json` of the cache folder. */
  private async readCache(): Promise<[string, string][]> {
    let entries: [string, vscode.FileType][];
    try {
      entries = await vscode.workspace.fs.readDirectory(this.cacheFolder);
    } catch {
      return []; // nothing cached yet
    }
    const names = entries.filter(([name, type]) => type === vscode.FileType.File && name.endsWith(".json")).map(([name]) => name);
    return Promise.all(
      names.map(async (name): Promise<[string, string]> => [
        `${WORKER_CACHE_DIR}/${name}`,
        new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(this.cacheFolder, name))),
      ]),
    );
  }

  /** Writes back the cache files a run changed; a cache that can't be written is logged, not fatal. */
  private async storeCache(files: [string, string][]): Promise<void> {
    const before = new Map(await this.readCache());
    try {
      for (const [file, text] of files) {
        if (!file.startsWith(`${WORKER_CACHE_DIR}/`) || before.get(file) === text) continue;
        await vscode.workspace.fs.createDirectory(this.cacheFolder);
        await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(this.cacheFolder, file.slice(WORKER_CACHE_DIR.length + 1)), new TextEncoder().encode(text));
      }
    } catch (error) {
      this.log.warn(`could not keep the autotuner's cache in ${this.cacheFolder.toString(true)}: ${String(error)}`);
    }
  }

  /** Said once a session: runs go to the interpreter. */
  private sayNoWebGpu(reason: string): void {
    this.log.warn(`no WebGPU: ${reason}; running on the CPU interpreter`);
    if (this.toldNoWebGpu) return;
    this.toldNoWebGpu = true;
    void vscode.window.showWarningMessage(
      `Kernel Lab: ${reason}, so kernels run on the CPU interpreter (not timed like a GPU). A browser with WebGPU (Chrome, Edge) runs them on the GPU.`,
    );
  }
}

/// <reference types="@webgpu/types" />
// The browser's side of the seam (host.ts), for the web extension's worker: the browser's own
// WebGPU (`navigator.gpu`), kernel files read by the editor on request (a worker has no file
// system), and cache files kept in memory, handed over by the editor with each request and
// handed back with its answer (harness/workers/web-worker.ts). Dawn's flags mean nothing here: Chrome's
// WebGPU is Dawn, but its toggles are the browser's.

import type { AsyncLocal, Host } from "./host";

/** What the worker's surroundings provide; set by `configureBrowserHost`. */
export interface BrowserHostConfig {
  /** Reads a kernel file or a file it imports (the editor answers through a message). */
  readText(file: string): Promise<string>;
  /** Whether a path is a folder (a Python namespace package beside a script; the editor answers through a message). */
  isFolder(path: string): Promise<boolean>;
  /** The folder display paths are relative to (the workspace folder's path). */
  cwd: string;
  /** Environment variables the editor passes (KERNEL_LAB_DEBUG …). */
  env: Record<string, string>;
  /** Cache files by path; written ones are kept here and read back by the editor. */
  cacheFiles: Map<string, string>;
  /** Lines for the user outside the report. */
  warn(line: string): void;
}

let config: BrowserHostConfig = {
  readText: (file) => Promise.reject(new Error(`no file source for ${file}`)),
  isFolder: async () => false,
  cwd: "/",
  env: {},
  cacheFiles: new Map(),
  warn: (line) => console.warn(line),
};

export function configureBrowserHost(next: Partial<BrowserHostConfig>): void {
  config = { ...config, ...next };
}

/** The browser has no async context; this stand-in says only whether some `run` is still unfinished. */
class OpenRuns<T> implements AsyncLocal<T> {
  private open: T[] = [];
  run<R>(value: T, body: () => R): R {
    this.open.push(value);
    const close = () => void this.open.splice(this.open.indexOf(value), 1);
    let result: R;
    try {
      result = body();
    } catch (err) {
      close();
      throw err;
    }
    if (result instanceof Promise) return result.finally(close) as R;
    close();
    return result;
  }
  getStore(): T | undefined {
    return this.open.at(-1);
  }
}

interface BrowserGlobal {
  navigator?: { gpu?: GPU };
}

export const host: Host = {
  platform: "browser",
  takesDawnFlags: false,
  gpu: () => (globalThis as BrowserGlobal).navigator?.gpu,
  requestAdapter: (gpu, options) => gpu.requestAdapter(options),
  env: (name) => config.env[name],
  // The editor's few variables (KERNEL_LAB_DEBUG …) are Kernel Lab's, not the script's: a browser has no environment.
  scriptEnvironment: () => ({}),
  warn: (line) => config.warn(line),
  cwd: () => config.cwd,
  homedir: () => "",
  readText: (file) => config.readText(file),
  isFolder: (path) => config.isFolder(path),
  listFolder: async () => [],
  readCacheText: (file) => config.cacheFiles.get(file),
  writeCacheText: (file, text) => void config.cacheFiles.set(file, text),
  compileModule: (code, file) =>
    // The sourceURL names the file in stack traces and the browser's debugger.
    new Function("exports", "require", "module", "__filename", "__dirname", `${code}\n//# sourceURL=${encodeURI(file)}`) as (...args: unknown[]) => void,
  requireFrom: (file, id) => {
    throw new Error(`'${id}' cannot be imported in the browser: a kernel file there may import only "kernel-lab" and files next to it (./…), not packages (imported from ${file})`);
  },
  asyncLocal: <T>() => new OpenRuns<T>(),
  yieldWhile: (pending) => pending,
};

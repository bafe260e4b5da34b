/// <reference types="@webgpu/types" />
// The one fork between Node and the browser: everything the runtime and the harness need from
// their surroundings. Node (the CLI, the editor's child process, tests) gets `host-node.ts`: Dawn
// through the `webgpu` package, files on disk, the environment. The browser build (the web
// extension's worker) resolves `./host-node` to `./host-browser.ts` instead (scripts/build.mjs):
// `navigator.gpu`, files handed over by the editor, caches kept in memory. Nothing else in
// runtime/ or harness/ may touch a Node API (test/unit/host-seam.test.ts checks).

export interface Host {
  /** `process.platform` in Node ("linux", "darwin", "win32", …); "browser" in a browser. */
  readonly platform: string;
  /** Whether `gpu()` honours Dawn's instance flags (toggles): Node's Dawn does, a browser's WebGPU doesn't. */
  readonly takesDawnFlags: boolean;
  /** The WebGPU entry point: Dawn's instance made with these flags, or the browser's `navigator.gpu`; undefined when there is none. */
  gpu(dawnFlags: readonly string[]): GPU | undefined;
  /** `gpu.requestAdapter`, with Dawn's start-up notices kept off the terminal (runtime/notices.ts). */
  requestAdapter(gpu: GPU, options: GPURequestAdapterOptions): Promise<GPUAdapter | null>;
  /** An environment variable (undefined in a browser unless the editor passed it). */
  env(name: string): string | undefined;
  /**
   * The variables a Python script's `os.environ` gets, as `python FILE.py` would see them: Node's whole process
   * environment (`FOO=1 kernel-lab run x.py`); none in a browser, which has no environment.
   */
  scriptEnvironment(): Record<string, string>;
  /** A line for the user outside the report (stderr in Node, the console in a browser). */
  warn(line: string): void;
  /** The folder display paths are relative to. */
  cwd(): string;
  /** A kernel file or a file it imports (in a browser, read by the editor). */
  readText(file: string): Promise<string>;
  /** Whether `path` is a folder (a namespace package beside a Python script: a folder without __init__.py); false in a browser. */
  isFolder(path: string): Promise<boolean>;
  /**
   * A folder's entries (a Python package's data files beside its modules: gemlite's configs/*.json); empty
   * where it can't be listed (a browser).
   */
  listFolder(path: string): Promise<FolderEntry[]>;
  /** A cache file's text; undefined when it does not exist. Other failures throw. */
  readCacheText(file: string): string | undefined;
  /** Replaces a cache file whole (its folder made), so a reader never sees half of it. */
  writeCacheText(file: string, text: string): void;
  /** The user's home folder (where caches go by default); "" in a browser. */
  homedir(): string;
  /** Compiles a CommonJS module's code, wrapped as `function (exports, require, module, __filename, __dirname)`. */
  compileModule(code: string, file: string): (...args: unknown[]) => void;
  /** A module a kernel file imports by a bare name other than `kernel-lab` (Node's resolution from the file). */
  requireFrom(file: string, id: string): unknown;
  /** Async-context storage (Node's AsyncLocalStorage; in a browser, a stand-in that knows only whether any call is inside). */
  asyncLocal<T>(): AsyncLocal<T>;
  /**
   * `pending`, settled as it settles, with this thread mostly asleep meanwhile. dawn.node processes
   * its events from a setImmediate loop while any of its promises is pending: a core spent polling,
   * which a software adapter (lavapipe), whose threads do the GPU's work, needs for itself. Node
   * sleeps 0.2 ms in each turn of that loop; a browser's WebGPU does not poll, so `pending` as is.
   */
  yieldWhile<T>(pending: Promise<T>): Promise<T>;
}

export interface FolderEntry {
  name: string;
  folder: boolean;
  /** A file's size in bytes (0 for a folder). */
  bytes: number;
}

export interface AsyncLocal<T> {
  run<R>(value: T, body: () => R): R;
  getStore(): T | undefined;
}

// The browser build swaps this module for ./host-browser (scripts/build.mjs).
export { host } from "./host-node";

/// <reference types="@webgpu/types" />
// Node's side of the seam (host.ts): Dawn through the `webgpu` package, files on disk, the
// process's environment. The instance Dawn's `create()` returns must stay reachable for as long
// as any adapter or device from it lives (docs/ENVIRONMENT.md §2): runtime/gpu.ts holds it.

import { AsyncLocalStorage } from "node:async_hooks";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as vm from "node:vm";
import { loadDawn } from "./dawn";
import type { AsyncLocal, Host } from "./host";
import { quietDawn } from "./notices";
import { writeFileWhole } from "./write-file-node";

export const host: Host = {
  platform: process.platform,
  takesDawnFlags: true,
  gpu: (flags) => loadDawn().create([...flags]),
  // Dawn enumerates the adapters inside this call, synchronously, and prints two limit notices
  // on stderr while it does (notices.ts).
  requestAdapter: (gpu, options) => quietDawn(() => gpu.requestAdapter(options)),
  env: (name) => process.env[name],
  scriptEnvironment: () => Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  warn: (line) => void process.stderr.write(`${line}\n`),
  cwd: () => process.cwd(),
  homedir: () => os.homedir(),
  readText: async (file) => readFileSync(file, "utf8"),
  isFolder: async (folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory() ?? false,
  listFolder: async (folder) => {
    try {
      return readdirSync(folder, { withFileTypes: true }).flatMap((e) => {
        const stat = statSync(nodePath.join(folder, e.name), { throwIfNoEntry: false });
        return stat ? [{ name: e.name, folder: stat.isDirectory(), bytes: stat.isDirectory() ? 0 : stat.size }] : [];
      });
    } catch {
      return [];
    }
  },
  readCacheText(file) {
    try {
      return readFileSync(file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw err;
    }
  },
  writeCacheText: (file, text) => writeFileWhole(file, text),
  compileModule: (code, file) =>
    vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file }) as (...args: unknown[]) => void,
  requireFrom: (file, id) => createRequire(file)(id),
  asyncLocal: <T>(): AsyncLocal<T> => new AsyncLocalStorage<T>(),
  yieldWhile<T>(pending: Promise<T>): Promise<T> {
    waiting++;
    if (!napping) {
      napping = true;
      setImmediate(nap);
    }
    return pending.finally(() => void waiting--);
  },
};

/**
 * How many yieldWhile promises are pending; while any is, each turn of the event loop sleeps NAP_MS.
 * One chain of naps at most: a second one started while the first is still queued (waiting back to
 * 1 before the first saw 0) would double the sleep per turn, and so on with every wait.
 */
let waiting = 0;
let napping = false;
let naps = 0;
const NAP_MS = 0.2;
const napCell = new Int32Array(new SharedArrayBuffer(4));

/** For tests: the pending waits, whether the chain of naps is running, and how many naps it has taken. */
export function napState(): { waiting: number; napping: boolean; naps: number } {
  return { waiting, napping, naps };
}

function nap(): void {
  if (waiting === 0) {
    napping = false;
    return;
  }
  naps++;
  Atomics.wait(napCell, 0, 0, NAP_MS);
  setImmediate(nap);
}

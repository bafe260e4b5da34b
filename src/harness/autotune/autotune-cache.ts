// The autotuner's choices on disk, so a run tunes once per kernel, adapter, size and compiler build:
// `autotune.json` in the cache folder of cache-location.ts (`$KERNEL_LAB_CACHE_DIR`, else the
// platform's: XDG's on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows). A damaged file is a warning on stderr and an empty cache, never a
// failed run; writes go to a temporary file renamed over the old one, so a reader never sees half
// (runtime/host-node.ts). In a browser the file lives in the worker's memory, and the editor keeps
// it between runs (runtime/host-browser.ts).

import * as path from "node:path";
import { hash64 } from "../../runtime/hash";
import { host } from "../../runtime/host";
import { cacheDir } from "../cache-location";
import type { AdapterReport } from "../report";
import { isKnobSetting, type KnobSetting } from "../../ir/knobs";
import type { KnobRequest } from "./knob-candidates";
import { COMPILER_BUILD } from "./compiler-build";

const VERSION = 1;

/** What is remembered of one tuning: the choice and every candidate's median. */
export interface CachedChoice {
  run: string;
  kernel: string;
  size: number;
  adapter: string;
  picked: Record<string, number>;
  /** With code-generation knobs tuned: the picked candidate's knobs (ir/knobs.ts), re-used with it. */
  codegen?: KnobSetting;
  /** With code-generation knobs tuned: settings not timed because another candidate had their WGSL. */
  identical?: number;
  candidates: { constexprs: Record<string, number>; medianMs: number | null; correct: boolean; note?: string; codegen?: KnobSetting }[];
  /** ISO date of the tuning. */
  date: string;
  /** The compiler that generated the code timed (compiler-build.ts); absent in choices cached before it was recorded. */
  build?: string;
}

interface CacheFile {
  version: number;
  entries: Record<string, CachedChoice>;
}

export interface TuningKey {
  /** The kernel function's source text. */
  kernelText: string;
  run: string;
  /** Every candidate's full constexprs: a changed list of configs is tuned afresh. */
  candidates: readonly Record<string, number>[];
  adapter: AdapterReport;
  size: number;
  /** With code-generation knobs tuned: which (a run tuned without them, or with others, is tuned afresh). */
  knobs?: KnobRequest;
}

export function cacheFile(): string {
  return path.join(cacheDir(), "autotune.json");
}

/** A hash of the kernel's text, the run's name and its candidates, the adapter and the size (and the knobs tuned, where some are). */
export function tuningKey(key: TuningKey): string {
  const { vendor, device, description } = key.adapter;
  const parts = [key.kernelText, key.run, JSON.stringify(key.candidates), vendor, device, description, String(key.size)];
  // Only with knobs: the keys of runs tuned without them stay what they were.
  if (key.knobs) parts.push(`knobs:${key.knobs === true ? "all" : [...key.knobs].sort().join(",")}`);
  return hash64(parts.join("\u0000"));
}

const warned = new Set<string>();

function warn(message: string): void {
  say(`kernel-lab: warning: ${message}`);
}

/** Not a fault: what the run does and why. */
function note(message: string): void {
  say(`kernel-lab: ${message}`);
}

function say(line: string): void {
  // Once per process and file: a sweep reads the cache for every size.
  if (warned.has(line)) return;
  warned.add(line);
  host.warn(line);
}

function readCache(file: string): CacheFile {
  let text: string | undefined;
  try {
    text = host.readCacheText(file);
  } catch (err) {
    warn(`cannot read the autotune cache ${file} (${(err as Error).message}); tuning afresh.`);
  }
  if (text === undefined) return { version: VERSION, entries: {} };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!isCacheFile(parsed)) throw new Error(`not a version ${VERSION} autotune cache`);
    return parsed;
  } catch (err) {
    warn(`ignoring the autotune cache ${file}: ${(err as Error).message}. It will be rewritten.`);
    return { version: VERSION, entries: {} };
  }
}

function isCacheFile(x: unknown): x is CacheFile {
  if (typeof x !== "object" || x === null) return false;
  const f = x as Partial<CacheFile>;
  return f.version === VERSION && typeof f.entries === "object" && f.entries !== null && !Array.isArray(f.entries);
}

function isChoice(x: unknown): x is CachedChoice {
  if (typeof x !== "object" || x === null) return false;
  const c = x as Partial<CachedChoice>;
  const isConstexprs = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((n) => Number.isInteger(n));
  return (
    isConstexprs(c.picked) &&
    (c.codegen === undefined || isKnobSetting(c.codegen)) &&
    Array.isArray(c.candidates) &&
    c.candidates.every((k) => isConstexprs(k?.constexprs) && (k.medianMs === null || typeof k.medianMs === "number") && typeof k.correct === "boolean" && (k.codegen === undefined || isKnobSetting(k.codegen))) &&
    (c.identical === undefined || Number.isInteger(c.identical)) &&
    typeof c.date === "string" &&
    (c.build === undefined || typeof c.build === "string")
  );
}

/**
 * The cached choice for a key, or undefined: no entry, a damaged one, or one another compiler build
 * tuned (its code, so its speeds, may differ from this build's; the new tuning replaces it).
 */
export function lookupChoice(key: string, file: string = cacheFile(), build: string = COMPILER_BUILD): CachedChoice | undefined {
  const entry = readCache(file).entries[key];
  if (entry === undefined) return undefined;
  if (!isChoice(entry)) {
    warn(`ignoring a damaged entry of the autotune cache ${file}; tuning afresh.`);
    return undefined;
  }
  if (entry.build !== build) {
    // Once per process: after an update, every tuned run and size of a sweep meets one.
    note(`autotune cache from another Kernel Lab build (${entry.build ?? "an earlier version"}; this is ${build}): tuning again.`);
    return undefined;
  }
  return entry;
}

/** Records a choice, with the compiler build that made it: re-reads the file (another run may have written since), then replaces it whole. */
export function storeChoice(key: string, choice: CachedChoice, file: string = cacheFile(), build: string = COMPILER_BUILD): void {
  const cache = readCache(file);
  cache.entries[key] = { ...choice, build };
  try {
    host.writeCacheText(file, `${JSON.stringify(cache, null, 1)}\n`);
  } catch (err) {
    warn(`cannot write the autotune cache ${file} (${(err as Error).message}); the choice is not remembered.`);
  }
}

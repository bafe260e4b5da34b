// What this GPU can reach, measured once per adapter and remembered next to the autotuner's
// choices (`peaks.json` in the cache folder): memory bandwidth (a large vec4 copy), the f32 FMA
// rate (builtins/peaks.ts), and the GPU time of one launch that does almost nothing. Each probe
// grows until one launch takes about half a millisecond, so a fast GPU is measured on work large
// enough to fill it and a software one (lavapipe) is done in about a second.

import * as path from "node:path";
import { BUILTINS } from "../../builtins";
import { FLOPS_PER_INVOCATION, FMA_PROBE, FMA_WORKGROUP_SIZE } from "../../builtins/peaks";
import { createEmptyBuffer, timeLaunches, type Gpu, type KernelProgram, type LaunchArgs } from "../../runtime";
import { host } from "../../runtime/host";
import { adapterLabel, cacheDir, type AdapterIdentity } from "../cache-location";

export interface Peaks {
  /** Bytes a copy reads and writes per second: GB/s. */
  memoryGBps: number;
  /** f32 fused multiply-adds, two operations each: GFLOP/s. */
  computeGflops: number;
  /** One launch of a kernel that does almost nothing, as the GPU's timestamps (or the wall clock) see it. */
  launchMs: number;
  timing: "timestamp-query" | "wall-clock";
  /** ISO time of the measurement. */
  measuredAt: string;
}

const VERSION = 1;
/** A probe grows until one launch takes this long. */
const TARGET_MS = 0.5;
/** The copy's range: from well past a large cache (the H200's L2 is 50 MB) to 256 MiB. */
const MIN_COPY_BYTES = 64 * 2 ** 20;
const MAX_COPY_BYTES = 256 * 2 ** 20;

interface PeaksFile {
  version: number;
  entries: Record<string, Peaks>;
}

export function peaksFile(): string {
  return path.join(cacheDir(), "peaks.json");
}

/** The adapter's peaks from the cache, else measured now (and cached). */
export async function peaksFor(gpu: Gpu, adapter: AdapterIdentity, measure: (gpu: Gpu) => Promise<Peaks> = measurePeaks): Promise<{ peaks: Peaks; cached: boolean }> {
  const file = peaksFile();
  const key = adapterLabel(adapter);
  const known = readPeaks(file);
  const entry = known.entries[key];
  if (entry && isPeaks(entry)) return { peaks: entry, cached: true };
  const peaks = await measure(gpu);
  known.entries[key] = peaks;
  try {
    host.writeCacheText(file, `${JSON.stringify(known, null, 1)}\n`);
  } catch (err) {
    host.warn(`kernel-lab: warning: cannot write ${file} (${(err as Error).message}); this GPU's peaks will be measured again next time.`);
  }
  return { peaks, cached: false };
}

function readPeaks(file: string): PeaksFile {
  try {
    const text = host.readCacheText(file);
    const parsed = text === undefined ? undefined : (JSON.parse(text) as PeaksFile);
    if (parsed && parsed.version === VERSION && typeof parsed.entries === "object" && parsed.entries !== null) return parsed;
  } catch {
    // A damaged file is measured afresh and rewritten.
  }
  return { version: VERSION, entries: {} };
}

function isPeaks(x: unknown): x is Peaks {
  const p = x as Partial<Peaks>;
  return [p.memoryGBps, p.computeGflops, p.launchMs].every((v) => typeof v === "number" && Number.isFinite(v) && v > 0) && typeof p.measuredAt === "string";
}

export async function measurePeaks(gpu: Gpu): Promise<Peaks> {
  const copy = BUILTINS["builtins.copy"];
  const maxBytes = Math.min(MAX_COPY_BYTES, gpu.limits.maxStorageBufferBindingSize, gpu.limits.maxBufferSize);

  // The launch first, so its warm-up brings the clocks up for the others.
  const small = await buffersFor(gpu, 4);
  const launch = await timeOne(gpu, copy.program(4), copy.grid(4), { buffers: small, scalars: { n: 4 } }, 300);
  destroy(small);

  // At least 64 MiB, past any cache (a CPU's, for a software adapter, too), then larger while fast.
  let memoryGBps = 0;
  for (let n = Math.min(MIN_COPY_BYTES, maxBytes) / 4; n * 4 <= maxBytes; n *= 4) {
    const buffers = await buffersFor(gpu, n);
    const ms = await timeOne(gpu, copy.program(n), copy.grid(n), { buffers, scalars: { n } }, 50);
    destroy(buffers);
    memoryGBps = Math.max(memoryGBps, (2 * 4 * n) / (ms * 1e6));
    if (ms >= TARGET_MS) break;
  }

  let computeGflops = 0;
  for (let workgroups = 16; workgroups <= 2 ** 16; workgroups *= 4) {
    const n = workgroups * FMA_WORKGROUP_SIZE;
    const out = await createEmptyBuffer(gpu, "f32", n, "peak.fma out");
    const ms = await timeOne(gpu, FMA_PROBE, [workgroups, 1, 1], { buffers: { out }, scalars: { m: 0.999, c: 1e-3 } }, 50);
    out.destroy();
    computeGflops = Math.max(computeGflops, (n * FLOPS_PER_INVOCATION) / (ms * 1e6));
    if (ms >= TARGET_MS) break;
  }

  return { memoryGBps, computeGflops, launchMs: launch, timing: gpu.hasTimestamps ? "timestamp-query" : "wall-clock", measuredAt: new Date().toISOString() };
}

async function buffersFor(gpu: Gpu, n: number): Promise<Record<string, GPUBuffer>> {
  return { a: await createEmptyBuffer(gpu, "f32", n, "peak.copy a"), out: await createEmptyBuffer(gpu, "f32", n, "peak.copy out") };
}

function destroy(buffers: Record<string, GPUBuffer>): void {
  for (const b of Object.values(buffers)) b.destroy();
}

async function timeOne(gpu: Gpu, program: KernelProgram, grid: readonly number[], args: LaunchArgs, warmupMs: number): Promise<number> {
  const timing = await timeLaunches(gpu, program, grid, [args], { warmupMs, minReps: 5, maxReps: 30, budgetMs: 150 });
  return timing.medianMs;
}

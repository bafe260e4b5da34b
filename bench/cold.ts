// Time per launch with the L2 cache flushed before every launch, as Triton's do_bench does (it
// zeroes a 256 MB buffer between repetitions). The suite's own timing (runtime/timing.ts) runs
// launches back to back, where a shared output buffer may still be in the L2 from the launch
// before; for kernels of ~10 µs that flatters them by ~8% (bench/NOTES.md §8). Timestamps cost
// ~5 µs per stamped pass on the H200, so each launch can't be stamped alone; instead
//   [launch, clear, launch, clear, …, launch]   and   [empty pass, clear, …, empty pass]
// are timed between their first and last pass, and the difference divided by the launches.
// A run of several launches (layer-norm backward's two, bench/sequence.ts) takes a launch's place.

import { BufferUsage, MapMode, type Gpu } from "../src/runtime/gpu";
import { checkGrid, encodeDispatch, prepareLaunch, type LaunchArgs, type LaunchStep, type PreparedLaunch } from "../src/runtime/launch";
import { getPipeline, type KernelProgram } from "../src/runtime/pipelines";
import { beginGroupPass } from "../src/runtime/timing";

/** A launch, an empty compute pass, or (null) a clear of the flush buffer. */
type Item = PreparedLaunch | "empty" | null;

/**
 * The GPU ms of each of `samples` runs of `items`, from the first pass's beginning to the last
 * pass's end, sorted; each run preceded by a clear of `flush` when there is one.
 */
export async function sampleSequence(gpu: Gpu, items: Item[], flush: GPUBuffer | null, samples: number): Promise<number[]> {
  const device = gpu.device;
  const querySet = device.createQuerySet({ type: "timestamp", count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const passes = items.filter((x) => x !== null).length;
  const times: number[] = [];
  try {
    for (let s = 0; s < samples; s++) {
      const encoder = device.createCommandEncoder();
      if (flush) encoder.clearBuffer(flush);
      let seen = 0;
      for (const item of items) {
        if (item === null) {
          if (flush) encoder.clearBuffer(flush);
          continue;
        }
        seen++;
        const pass = beginGroupPass(encoder, "cold", querySet, 0, seen === 1, seen === passes);
        if (item !== "empty") encodeDispatch(pass, item);
        pass.end();
      }
      encoder.resolveQuerySet(querySet, 0, 2, resolved, 0);
      encoder.copyBufferToBuffer(resolved, 0, readback, 0, 16);
      device.queue.submit([encoder.finish()]);
      await readback.mapAsync(MapMode.READ);
      const ns = new BigInt64Array(readback.getMappedRange().slice(0));
      readback.unmap();
      times.push(Number(ns[1] - ns[0]) / 1e6);
    }
  } finally {
    querySet.destroy();
    resolved.destroy();
    readback.destroy();
  }
  return times.sort((a, b) => a - b);
}

/** The median of `sampleSequence`. */
export async function timeSequence(gpu: Gpu, items: Item[], flush: GPUBuffer | null, samples: number): Promise<number> {
  const times = await sampleSequence(gpu, items, flush, samples);
  return times[times.length >> 1];
}

/** Every step of every copy of a sequence, prepared for encoding (uniform buffers to destroy after). */
export async function prepareCopies(gpu: Gpu, copies: readonly LaunchStep[][]): Promise<PreparedLaunch[][]> {
  const compiled = await Promise.all(copies[0].map((s) => getPipeline(gpu, s.program)));
  const max = gpu.limits.maxComputeWorkgroupsPerDimension;
  return copies.map((steps) => steps.map((s, i) => prepareLaunch(gpu, compiled[i], checkGrid(s.program.abi.kernel, s.grid, max), s.args)));
}

export function destroyCopies(prepared: PreparedLaunch[][]): void {
  for (const p of prepared.flat()) p.uniforms.destroy();
}

/**
 * Samples of a cold measurement and the size of the buffer cleared between launches. `suite.ts
 * --quick` (a smoke test on lavapipe, where each clear of 256 MB is tens of ms of CPU and a
 * measurement clears 480 times: minutes for bench-smoke's four) takes 3 samples and 16 MB.
 */
export const COLD = { samples: 30, flushBytes: 256 << 20 };

/**
 * GPU ms per run of a sequence of launches with a cold L2 before each run: 8 runs over the
 * rotated copies, each a pass per launch, minus as many empty passes and clears.
 */
export async function coldSequenceMs(gpu: Gpu, copies: readonly LaunchStep[][], samples = COLD.samples): Promise<number> {
  const prepared = await prepareCopies(gpu, copies);
  const flush = gpu.device.createBuffer({ size: COLD.flushBytes, usage: BufferUsage.COPY_DST | BufferUsage.STORAGE });
  const g = 8;
  try {
    const between = (make: (i: number) => Item[]): Item[] => Array.from({ length: g }, (_, i) => [...(i > 0 ? [null] : []), ...make(i)]).flat();
    const launches = await timeSequence(gpu, between((i) => prepared[i % prepared.length]), flush, samples);
    const empty = await timeSequence(gpu, between(() => prepared[0].map(() => "empty" as const)), flush, samples);
    return (launches - empty) / g;
  } finally {
    flush.destroy();
    destroyCopies(prepared);
  }
}

/** GPU ms per launch of `program` with a cold L2 before each (8 launches over the rotated sets). */
export async function coldLaunchMs(gpu: Gpu, program: KernelProgram, grid: [number, number, number], sets: LaunchArgs[], samples = COLD.samples): Promise<number> {
  return coldSequenceMs(gpu, sets.map((args) => [{ program, grid, args }]), samples);
}

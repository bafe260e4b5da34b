// Time per launch with the L2 cache flushed before every launch, as Triton's do_bench does (it
// zeroes a 256 MB buffer between repetitions). The suite's own timing (runtime/timing.ts) runs
// launches back to back, where a shared output buffer may still be in the L2 from the launch
// before; for kernels of ~10 µs that flatters them by ~8% (bench/NOTES.md §8). Timestamps cost
// ~5 µs per stamped pass on the H200, so each launch can't be stamped alone; instead
//   [launch, clear, launch, clear, …, launch]   and   [empty pass, clear, …, empty pass]
// are timed between their first and last pass, and the difference divided by the launches.

import { BufferUsage, MapMode, type Gpu } from "../src/runtime/gpu";
import { encodeDispatch, prepareLaunch, type LaunchArgs, type PreparedLaunch } from "../src/runtime/launch";
import { getPipeline, type KernelProgram } from "../src/runtime/pipelines";
import { beginGroupPass } from "../src/runtime/timing";

/** A launch, an empty compute pass, or (null) a clear of the flush buffer. */
type Item = PreparedLaunch | "empty" | null;

/**
 * Median over `samples` of the GPU ms from the first pass's beginning to the last pass's end of
 * `items`, each sample preceded by a flush.
 */
export async function timeSequence(gpu: Gpu, items: Item[], flush: GPUBuffer, samples: number): Promise<number> {
  const device = gpu.device;
  const querySet = device.createQuerySet({ type: "timestamp", count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const passes = items.filter((x) => x !== null).length;
  const times: number[] = [];
  try {
    for (let s = 0; s < samples; s++) {
      const encoder = device.createCommandEncoder();
      encoder.clearBuffer(flush);
      let seen = 0;
      for (const item of items) {
        if (item === null) {
          encoder.clearBuffer(flush);
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
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

/** GPU ms per launch of `program` with a cold L2 before each (8 launches over the rotated sets). */
export async function coldLaunchMs(gpu: Gpu, program: KernelProgram, grid: [number, number, number], sets: LaunchArgs[], samples = 30): Promise<number> {
  const compiled = await getPipeline(gpu, program);
  const prepared = sets.map((a) => prepareLaunch(gpu, compiled, grid, a));
  const flush = gpu.device.createBuffer({ size: 256 << 20, usage: BufferUsage.COPY_DST | BufferUsage.STORAGE });
  const g = 8;
  try {
    const between = (make: (i: number) => Item): Item[] => Array.from({ length: 2 * g - 1 }, (_, i) => (i % 2 ? null : make(i / 2)));
    const launches = await timeSequence(gpu, between((i) => prepared[i % prepared.length]), flush, samples);
    const empty = await timeSequence(gpu, between(() => "empty"), flush, samples);
    return (launches - empty) / g;
  } finally {
    flush.destroy();
    for (const p of prepared) p.uniforms.destroy();
  }
}

// Times a run's launches as a whole (docs/CONVENTIONS.md §10): every launch of the sequence is recorded into
// one compute pass, as runtime/launch.ts's `recordLaunches` does, and a sample is that pass
// between two GPU timestamps. Warm-up first, samples in batches of one submit, inputs rotated over
// the copies. Without `timestamp-query`, a sample is the wall clock of one `LaunchSequence.run()`.

import { checkGrid, encodeDispatch, prepareLaunch, type PreparedLaunch } from "../../runtime/launch";
import { beginGroupPass, stampedMs, submitAndReadStamps, TimestampStep } from "../../runtime/timing";
import { getPipeline, recordLaunches, type Gpu, type LaunchStep } from "../../runtime";
import { BufferUsage } from "../../runtime/gpu";
import type { TimingReport } from "../report";

export interface SequenceTimingOptions {
  maxReps: number;
  minReps: number;
  /** Warm-up wall clock (default 200 ms) and the budget after which no new batch starts once minReps are done (default 500 ms). */
  warmupMs?: number;
  budgetMs?: number;
  /** Every sample (ms per run of the sequence), for quantiles (triton.testing.do_bench). */
  onSamples?: (ms: readonly number[]) => void;
}

const MAX_BATCH = 50;

/** `copies`: the same sequence of steps on each copy of the buffers. */
export async function timeSequence(gpu: Gpu, copies: readonly LaunchStep[][], label: string, opts: SequenceTimingOptions): Promise<TimingReport> {
  const sequences = await Promise.all(copies.map((steps, c) => recordLaunches(gpu, steps, `${label} #${c}`)));
  try {
    // Warm up: at least three runs, then until the clocks are up (runtime/timing.ts says why).
    const started = performance.now();
    let perRun = Infinity;
    for (let i = 0; i < 3 || performance.now() - started < (opts.warmupMs ?? 200); i++) {
      const t = performance.now();
      await sequences[i % sequences.length].run();
      perRun = Math.min(perRun, performance.now() - t);
    }
    if (!gpu.hasTimestamps) {
      const times = await samples(opts, 1, async (rep) => {
        const t = performance.now();
        await sequences[rep % sequences.length].run();
        return [performance.now() - t];
      });
      opts.onSamples?.(times);
      return summarise(times, "wall-clock");
    }
    const step = new TimestampStep();
    const times = await timestamped(gpu, copies, label, perRun, opts, step);
    opts.onSamples?.(times);
    return summarise(times, "timestamp-query", step.resolutionMs());
  } finally {
    for (const s of sequences) s.destroy();
  }
}

async function samples(opts: SequenceTimingOptions, batchSize: number, batch: (rep: number, n: number) => Promise<number[]>): Promise<number[]> {
  const times: number[] = [];
  const started = performance.now();
  const budgetMs = opts.budgetMs ?? 500;
  while (times.length < opts.maxReps && (times.length < opts.minReps || performance.now() - started < budgetMs)) {
    times.push(...(await batch(times.length, Math.min(batchSize, opts.maxReps - times.length))));
  }
  return times;
}

/** Samples of one pass each (every launch of a copy, in order) between a pair of timestamps. */
async function timestamped(
  gpu: Gpu,
  copies: readonly LaunchStep[][],
  label: string,
  perRunMs: number,
  opts: SequenceTimingOptions,
  step: TimestampStep,
): Promise<number[]> {
  const device = gpu.device;
  const prepared: PreparedLaunch[][] = [];
  const batchSize = Math.max(1, Math.min(MAX_BATCH, Math.floor(50 / Math.max(perRunMs, 1e-3))));
  const querySet = device.createQuerySet({ label, type: "timestamp", count: 2 * batchSize });
  const resolved = device.createBuffer({ label, size: 16 * batchSize, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const readback = device.createBuffer({ label, size: 16 * batchSize, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  try {
    const kernels = await Promise.all(copies[0].map((s) => getPipeline(gpu, s.program)));
    await gpu.scoped(label, () => {
      for (const steps of copies) {
        prepared.push(steps.map((s, i) => prepareLaunch(gpu, kernels[i], checkGrid(s.program.abi.kernel, s.grid, gpu.limits.maxComputeWorkgroupsPerDimension), s.args)));
      }
    });
    return await samples(opts, batchSize, async (rep, n) => {
      const ns = await gpu.scoped(label, async () => {
        const encoder = device.createCommandEncoder({ label });
        for (let i = 0; i < n; i++) {
          const pass = beginGroupPass(encoder, label, querySet, 2 * i, true, true);
          for (const step of prepared[(rep + i) % prepared.length]) encodeDispatch(pass, step);
          pass.end();
        }
        return submitAndReadStamps(gpu, encoder, { querySet, resolved, readback }, n);
      });
      step.add(ns, n);
      return stampedMs(ns, n);
    });
  } finally {
    for (const p of prepared.flat()) p.uniforms.destroy();
    querySet.destroy();
    resolved.destroy();
    readback.destroy();
  }
}

function summarise(times: number[], source: TimingReport["source"], resolutionMs?: number): TimingReport {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { medianMs, minMs: sorted[0], maxMs: sorted[sorted.length - 1], reps: sorted.length, source, ...(resolutionMs !== undefined ? { resolutionMs } : {}) };
}

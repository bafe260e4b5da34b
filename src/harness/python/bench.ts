// triton.testing.do_bench on the GPU: the launches one call of the benchmarked function makes are
// recorded (compiled; a GPU tensor bound as its resident buffer, as Triton's launches bind theirs,
// any other tensor copied to a buffer of its own), then the whole sequence is
// timed with GPU timestamps as the harness times a run's launches (time-sequence.ts): warm-up
// first, many samples, quantiles from the samples.

import type { LaunchableKernel } from "../../compile";
import { createStorageBuffer, type Gpu, type LaunchStep, type StorageArray } from "../../runtime";
import { timeSequence } from "../timing/time-sequence";
import type { TensorArg } from "./program";
import type { CopyCounts, ResidentBuffers } from "./resident";

export interface BenchResult {
  /** Per call of the benchmarked function: every launch it made, in one pass. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
  quantilesMs: number[] | null;
  reps: number;
  source: "timestamp-query" | "wall-clock";
  launches: number;
}

export class BenchRecorder {
  private steps: LaunchStep[] | undefined;
  private buffers: GPUBuffer[] = [];

  constructor(
    private readonly gpu: Gpu | undefined,
    private readonly resident: ResidentBuffers,
    private readonly copies: CopyCounts,
  ) {}

  start(): void {
    this.release();
    this.resident.startRecording();
    this.steps = [];
  }

  async record(gpu: Gpu, program: LaunchableKernel, grid: [number, number, number], tensors: Map<string, TensorArg>, scalars: Record<string, number>): Promise<void> {
    if (!this.steps) throw new Error("a launch was recorded outside do_bench");
    const args = { buffers: {} as Record<string, GPUBuffer>, scalars };
    for (const [name, arg] of tensors) {
      const label = `do_bench.${program.name}.${name}`;
      if (arg.storage !== undefined) {
        args.buffers[name] = await this.resident.bind(gpu, arg.storage, arg.data, arg.upload ?? true, label);
        continue;
      }
      const buffer = await createStorageBuffer(gpu, (arg.data as StorageArray).slice() as StorageArray, label);
      this.copies.toGpu++;
      this.copies.toGpuBytes += arg.data.byteLength;
      this.buffers.push(buffer);
      args.buffers[name] = buffer;
    }
    this.steps.push({ program: program.quiet ?? program, grid, args });
  }

  /** Null when the function launched nothing on the GPU (Python then times it by the wall clock). */
  async stop(opts: { reps: number; warmupMs: number; quantiles: number[] | null }): Promise<BenchResult | null> {
    const steps = this.steps ?? [];
    this.steps = undefined;
    try {
      if (!this.gpu || steps.length === 0) return null;
      let samples: readonly number[] = [];
      const timing = await timeSequence(this.gpu, [steps], "do_bench", {
        maxReps: Math.max(1, opts.reps),
        minReps: Math.min(10, Math.max(1, opts.reps)),
        warmupMs: opts.warmupMs,
        onSamples: (ms) => (samples = ms),
      });
      const sorted = [...samples].sort((a, b) => a - b);
      return {
        medianMs: timing.medianMs,
        minMs: timing.minMs,
        maxMs: timing.maxMs,
        meanMs: sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length),
        quantilesMs: opts.quantiles ? opts.quantiles.map((q) => quantile(sorted, q)) : null,
        reps: timing.reps,
        source: timing.source === "cpu-wall-clock" ? "wall-clock" : timing.source,
        launches: steps.length,
      };
    } finally {
      this.release();
    }
  }

  private release(): void {
    for (const b of this.buffers) b.destroy();
    this.buffers = [];
    this.resident.stopRecording();
  }
}

/** Linear interpolation between the two nearest samples (numpy's and torch.quantile's default), as Triton's do_bench. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = q * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

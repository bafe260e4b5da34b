// How close a run came to what this GPU can do (its measured peaks, peaks.ts): the fraction of
// memory bandwidth and of the f32 FMA rate it reached, and a one-line verdict, as Nsight
// Compute's "speed of light" puts it. The roofline decides which roof applies: a kernel whose
// FLOPs per byte are below the ridge (peak FLOP/s ÷ peak bytes/s) is bound by memory, above it by
// arithmetic; a kernel within 2× of one launch's time is bound by the launch whatever it does.

import type { Peaks } from "./peaks";

export type Verdict = "memory-bound" | "compute-bound" | "launch-bound" | "unknown";

export interface SpeedOfLightReport {
  peaks: Peaks & { source: "measured" | "cached" };
  /** GB/s ÷ the peak; null without `bytes`. */
  memoryFraction: number | null;
  /** GFLOP/s ÷ the f32 FMA peak; null without `flops`. */
  computeFraction: number | null;
  verdict: Verdict;
  /** One line for the user: "memory-bound: 3.10 TB/s is 79% of this GPU's measured 3.92 TB/s". */
  message: string;
}

/** A run is launch-bound when its time is within this factor of one launch's. */
export const LAUNCH_BOUND_FACTOR = 2;

export function assessSpeed(
  run: { timing: { medianMs: number } | null; gbps: number | null; gflops: number | null },
  peaks: Peaks,
  source: "measured" | "cached",
): SpeedOfLightReport | null {
  if (!run.timing) return null;
  const memoryFraction = run.gbps === null ? null : run.gbps / peaks.memoryGBps;
  const computeFraction = run.gflops === null ? null : run.gflops / peaks.computeGflops;
  const base = { peaks: { ...peaks, source }, memoryFraction, computeFraction };
  const ms = run.timing.medianMs;
  if (ms < LAUNCH_BOUND_FACTOR * peaks.launchMs) {
    return {
      ...base,
      verdict: "launch-bound",
      message: `launch-bound: the kernel's ${duration(ms)} is within ${LAUNCH_BOUND_FACTOR}× of one launch (${duration(peaks.launchMs)} on this GPU); give each launch more work (a larger size, or several steps in one kernel)`,
    };
  }
  const memory =
    run.gbps !== null && memoryFraction !== null
      ? `${bandwidth(run.gbps)} is ${percent(memoryFraction)} of this GPU's measured ${bandwidth(peaks.memoryGBps)}${memoryFraction > 1.05 ? " (above it: the data fits in the GPU's caches)" : ""}`
      : undefined;
  const compute =
    run.gflops !== null && computeFraction !== null
      ? `${rate(run.gflops)} is ${percent(computeFraction)} of this GPU's measured f32 FMA rate, ${rate(peaks.computeGflops)}${computeFraction > 1.05 ? " (above it: f16 arithmetic or tensor cores)" : ""}`
      : undefined;
  if (!memory && !compute) {
    return { ...base, verdict: "unknown", message: "add `bytes` (the bytes a launch reads and writes) and, for arithmetic, `flops` to the run to see how close it comes to this GPU's limits" };
  }
  // With both counts the roofline decides; with one, that one's roof is the only one known.
  const memoryBound = memory && compute ? run.gflops! / run.gbps! < peaks.computeGflops / peaks.memoryGBps : Boolean(memory);
  const [verdict, first, second]: [Verdict, string, string | undefined] = memoryBound ? ["memory-bound", memory!, compute] : ["compute-bound", compute!, memory];
  return { ...base, verdict, message: `${verdict}: ${first}${second ? `; ${second}` : ""}` };
}

function percent(fraction: number): string {
  return `${Math.round(fraction * 100)}%`;
}

/** GB/s below 1000, TB/s from there. */
export function bandwidth(gbps: number): string {
  return gbps >= 1000 ? `${(gbps / 1000).toFixed(2)} TB/s` : `${gbps.toPrecision(3)} GB/s`;
}

function rate(gflops: number): string {
  return gflops >= 1000 ? `${(gflops / 1000).toFixed(2)} TFLOP/s` : `${gflops.toPrecision(3)} GFLOP/s`;
}

function duration(ms: number): string {
  return ms < 1 ? `${(ms * 1000).toPrecision(3)} µs` : `${ms.toPrecision(3)} ms`;
}

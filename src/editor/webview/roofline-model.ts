// The roofline's geometry, apart from drawing it (roofline.ts), so it can be tested on Node: the
// two roofs from the adapter's measured peaks, and where each run lies. On log-log axes of
// arithmetic intensity (FLOP per byte) against GFLOP/s, the memory roof is the line
// y = peak GB/s × intensity and the compute roof the level y = peak GFLOP/s; they meet at the
// ridge. A run with both counts is a point (intensity = GFLOP/s ÷ GB/s, since both rates share
// its time). A run with only `bytes` has no intensity, yet its bandwidth puts it on a line
// parallel to the memory roof (y = its GB/s × intensity): that line is drawn. A run with only
// `flops` is a level line at its GFLOP/s. A run with neither is not drawn.

import type { RunReport } from "../../harness/report";

export interface Point {
  x: number;
  y: number;
}

export interface RooflinePeaks {
  memoryGBps: number;
  computeGflops: number;
}

export interface RooflineModel {
  peaks: RooflinePeaks;
  /** Intensity where the roofs meet: peak GFLOP/s ÷ peak GB/s. */
  ridge: number;
  x: { min: number; max: number };
  y: { min: number; max: number };
  memoryRoof: [Point, Point];
  computeRoof: [Point, Point];
  /** Runs with both counts, in the order given (a sweep by size): one point each. */
  points: (Point & { size: number })[];
  /** Runs with only `bytes`: the line of their bandwidth, under the memory roof. */
  bandwidthLines: { size: number; gbps: number; line: [Point, Point] }[];
  /** Runs with only `flops`: the level of their rate, under the compute roof. */
  computeLevels: { size: number; gflops: number; line: [Point, Point] }[];
}

type Measured = Pick<RunReport, "size" | "gbps" | "gflops">;

/** The roofline of `runs` on an adapter with `peaks`; undefined when no run has a count to place. */
export function rooflineModel(runs: readonly Measured[], peaks: RooflinePeaks): RooflineModel | undefined {
  const usable = (v: number | null): v is number => v !== null && Number.isFinite(v) && v > 0;
  if (!usable(peaks.memoryGBps) || !usable(peaks.computeGflops)) return undefined;
  const ridge = peaks.computeGflops / peaks.memoryGBps;
  const both = runs.filter((r) => usable(r.gbps) && usable(r.gflops));
  const bytesOnly = runs.filter((r) => usable(r.gbps) && !usable(r.gflops));
  const flopsOnly = runs.filter((r) => !usable(r.gbps) && usable(r.gflops));
  if (both.length + bytesOnly.length + flopsOnly.length === 0) return undefined;

  const points = both.map((r) => ({ x: r.gflops! / r.gbps!, y: r.gflops!, size: r.size }));
  // Whole decades around the ridge and every point, one more on each side.
  const xs = [ridge, ...points.map((p) => p.x)];
  const x = { min: decadeBelow(Math.min(...xs) / 10), max: decadeAbove(Math.max(...xs) * 10) };
  const memoryRoof: [Point, Point] = [{ x: x.min, y: peaks.memoryGBps * x.min }, { x: ridge, y: peaks.computeGflops }];
  const computeRoof: [Point, Point] = [{ x: ridge, y: peaks.computeGflops }, { x: x.max, y: peaks.computeGflops }];
  // A bandwidth line ends where it would cross the compute roof (a run can't be above it).
  const bandwidthLines = bytesOnly.map((r) => {
    const end = Math.min(x.max, peaks.computeGflops / r.gbps!);
    return { size: r.size, gbps: r.gbps!, line: [{ x: x.min, y: r.gbps! * x.min }, { x: end, y: r.gbps! * end }] as [Point, Point] };
  });
  // A level starts where it leaves the memory roof (below that intensity it couldn't reach it).
  const computeLevels = flopsOnly.map((r) => {
    const start = Math.max(x.min, r.gflops! / peaks.memoryGBps);
    return { size: r.size, gflops: r.gflops!, line: [{ x: start, y: r.gflops! }, { x: x.max, y: r.gflops! }] as [Point, Point] };
  });
  const ys = [memoryRoof[0].y, peaks.computeGflops, ...points.map((p) => p.y), ...bandwidthLines.map((b) => b.line[0].y), ...computeLevels.map((c) => c.gflops)];
  const y = { min: decadeBelow(Math.min(...ys)), max: decadeAbove(Math.max(...ys) * 2) };
  return { peaks, ridge, x, y, memoryRoof, computeRoof, points, bandwidthLines, computeLevels };
}

function decadeBelow(v: number): number {
  return 10 ** Math.floor(Math.log10(v));
}

function decadeAbove(v: number): number {
  return 10 ** Math.ceil(Math.log10(v));
}

// Timing launches with GPU timestamps (docs/CONVENTIONS.md §10): warm-up first, then samples in batches of
// compute passes, many per submit so the submit and readback cost is not timed. A sample is a
// group of consecutive launches (one pass each) with a timestamp at the first's beginning and
// the last's end, divided by the group's size: on the H200 a timestamp pair costs ~5 µs of GPU
// time per pass (a 1024-element add: 7.2 µs stamped alone, 2.2 µs per launch in a group;
// bench/NOTES.md §8), which would hide what short kernels do. Groups are as long as ~0.1 ms of
// launches, so kernels longer than that are stamped one by one. Inputs rotate over `argSets` so
// caches don't flatter. Adapters without `timestamp-query` fall back to wall-clock time per
// submitted launch.

import { GpuError } from "./errors";
import { BufferUsage, MapMode, type Gpu } from "./gpu";
import { checkGrid, encodeDispatch, prepareLaunch, type LaunchArgs, type PreparedLaunch } from "./launch";
import { getPipeline, type KernelProgram } from "./pipelines";

export interface TimingOptions {
  /** Untimed launches first (pipeline warm, caches, clocks); default 5. */
  warmup?: number;
  /**
   * Keep warming up until this much wall-clock time has passed; default 200 ms. A GPU that sat
   * idle (while the CPU checked the previous result) runs at idle clocks: on the H200 a vector add
   * timed right after 1 s of idle reached 1.8 TB/s, and 4.2 TB/s after 300 ms of launches.
   */
  warmupMs?: number;
  /** Repetitions timed at least, whatever the budget; default 10. */
  minReps?: number;
  /** Repetitions timed at most; default 100. */
  maxReps?: number;
  /** Wall-clock time after which no new batch starts once minReps are done; default 500 ms. */
  budgetMs?: number;
  /** Launches between a sample's two timestamps; default: as many as take ~0.1 ms (at most 16). */
  launchesPerSample?: number;
}

export interface Timing {
  /** Per launch: median, fastest and slowest sample. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Samples timed. */
  reps: number;
  source: "timestamp-query" | "wall-clock";
  /** Launches per sample (a group between two timestamps; 1 with wall-clock timing). */
  launchesPerSample: number;
  /**
   * Present when the GPU's timestamps come in steps of 1 µs or more: the step, in ms. Browsers
   * may coarsen timestamp-query against timing attacks (Chrome: to 100 µs unless its WebGPU
   * developer features are on); a median then means little below a few steps.
   */
  resolutionMs?: number;
}

/** Samples per command buffer; the query set holds two timestamps per sample. */
const MAX_BATCH = 50;
/** A sample's launches take about this long (GPU time), at most MAX_GROUP of them. */
const GROUP_MS = 0.1;
const MAX_GROUP = 16;

export async function timeLaunches(
  gpu: Gpu,
  program: KernelProgram,
  grid: readonly number[],
  argSets: LaunchArgs[],
  opts: TimingOptions = {},
): Promise<Timing> {
  const kernel = program.abi.kernel;
  if (argSets.length === 0) throw new GpuError("bad-launch", `Timing '${kernel}' needs at least one set of arguments.`, kernel);
  const warmup = Math.max(1, opts.warmup ?? 5);
  const warmupMs = opts.warmupMs ?? 200;
  const minReps = Math.max(1, opts.minReps ?? 10);
  const maxReps = Math.max(minReps, opts.maxReps ?? 100);
  const budgetMs = opts.budgetMs ?? 500;

  const full = checkGrid(kernel, grid, gpu.limits.maxComputeWorkgroupsPerDimension);
  const compiled = await getPipeline(gpu, program);
  const prepared: PreparedLaunch[] = [];
  try {
    await gpu.scoped(kernel, () => {
      for (const args of serialised(program, argSets)) prepared.push(prepareLaunch(gpu, compiled, full, args));
    });
    const limits = { minReps, maxReps, budgetMs, launchesPerSample: opts.launchesPerSample };
    const warmMs = await warmUp(gpu, kernel, prepared, warmup, warmupMs);
    if (!gpu.hasTimestamps) {
      const times = await takeSamples(limits, 1, async (rep) => [await runUntimed(gpu, kernel, [prepared[rep % prepared.length]], 1)]);
      return summarise(times, "wall-clock", 1);
    }
    const { times, group, step } = await timeWithTimestamps(gpu, kernel, prepared, warmMs, limits);
    return summarise(times, "timestamp-query", group, step.resolutionMs());
  } finally {
    for (const p of prepared) p.uniforms.destroy();
  }
}

/**
 * Input sets rotate, but every launch writes the first set's written buffers. Launches on
 * disjoint buffers have no hazard between them, so Dawn lets them overlap, and a pass's begin
 * timestamp is then taken while the previous launch is still running (seen on the H200: a vector
 * add timed at 1.5 TB/s with two rotating sets, 3.7 TB/s with one). A shared written buffer makes
 * each launch wait for the one before, so every timestamp pair brackets one launch alone.
 */
function serialised(program: KernelProgram, argSets: LaunchArgs[]): LaunchArgs[] {
  const written = program.abi.buffers.filter((b) => b.access === "read_write").map((b) => b.name);
  const shared = Object.fromEntries(written.map((name) => [name, argSets[0].buffers[name]]));
  return argSets.map((args) => ({ scalars: args.scalars, buffers: { ...args.buffers, ...shared } }));
}

interface RepLimits {
  minReps: number;
  maxReps: number;
  budgetMs: number;
  launchesPerSample?: number;
}

/** Runs `count` launches in one submit and returns the wall-clock ms until they finished. */
async function runUntimed(gpu: Gpu, kernel: string, prepared: PreparedLaunch[], count: number): Promise<number> {
  return gpu.scoped(kernel, async () => {
    const start = performance.now();
    const encoder = gpu.device.createCommandEncoder({ label: `${kernel} warm-up` });
    for (let i = 0; i < count; i++) {
      const pass = encoder.beginComputePass({ label: kernel });
      encodeDispatch(pass, prepared[i % prepared.length]);
      pass.end();
    }
    gpu.device.queue.submit([encoder.finish()]);
    await gpu.idle(gpu.device.queue.onSubmittedWorkDone());
    return performance.now() - start;
  });
}

/**
 * At least `count` launches, then more until `ms` of wall-clock time has passed (submits of up to
 * ~50 ms each). Returns the wall-clock ms per launch of the last submit.
 */
async function warmUp(gpu: Gpu, kernel: string, prepared: PreparedLaunch[], count: number, ms: number): Promise<number> {
  const started = performance.now();
  let perLaunch = (await runUntimed(gpu, kernel, prepared, count)) / count;
  while (performance.now() - started < ms) {
    const n = Math.max(1, Math.min(10_000, Math.floor(50 / Math.max(perLaunch, 1e-3))));
    perLaunch = (await runUntimed(gpu, kernel, prepared, n)) / n;
  }
  return perLaunch;
}

/**
 * The one rep loop: samples in batches of at most `batchSize` until `maxReps`, or until
 * `minReps` are done and the budget has passed. `batch(rep, n)` takes samples rep … rep + n − 1.
 */
async function takeSamples(limits: RepLimits, batchSize: number, batch: (rep: number, n: number) => Promise<number[]>): Promise<number[]> {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < limits.maxReps && (times.length < limits.minReps || performance.now() - started < limits.budgetMs)) {
    times.push(...(await batch(times.length, Math.min(batchSize, limits.maxReps - times.length))));
  }
  return times;
}

/** Timestamp samples, after the warm-up that measured `warmMs` of wall clock per launch. */
async function timeWithTimestamps(
  gpu: Gpu,
  kernel: string,
  prepared: PreparedLaunch[],
  warmMs: number,
  limits: RepLimits,
): Promise<{ times: number[]; group: number; step: TimestampStep }> {
  const device = gpu.device;
  const group = Math.max(1, limits.launchesPerSample ?? Math.min(MAX_GROUP, Math.ceil(GROUP_MS / Math.max(warmMs, 1e-4))));
  // Size batches so one takes about a fifth of the budget (5–100 ms), as the warm-up suggests.
  const targetBatchMs = Math.min(100, Math.max(5, limits.budgetMs / 5));
  const batchSize = Math.max(1, Math.min(MAX_BATCH, Math.floor(targetBatchMs / Math.max(warmMs * group, 1e-3))));

  const label = `${kernel} timestamps`;
  const querySet = device.createQuerySet({ label, type: "timestamp", count: 2 * batchSize });
  const resolved = device.createBuffer({ label, size: 16 * batchSize, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const readback = device.createBuffer({ label, size: 16 * batchSize, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const step = new TimestampStep();
  try {
    const times = await takeSamples(limits, batchSize, async (rep, n) => {
      const ns = await gpu.scoped(kernel, async () => {
        const encoder = device.createCommandEncoder({ label });
        for (let i = 0; i < n; i++) {
          for (let g = 0; g < group; g++) {
            const pass = beginGroupPass(encoder, kernel, querySet, 2 * i, g === 0, g === group - 1);
            encodeDispatch(pass, prepared[((rep + i) * group + g) % prepared.length]);
            pass.end();
          }
        }
        return submitAndReadStamps(gpu, encoder, { querySet, resolved, readback }, n);
      });
      step.add(ns, n);
      return stampedMs(ns, n).map((ms) => ms / group);
    });
    return { times, group, step };
  } finally {
    querySet.destroy();
    resolved.destroy();
    readback.destroy();
  }
}

/**
 * A compute pass of a group timed between two timestamps (at `index` and `index + 1`): the
 * group's first pass writes the beginning one, its last the end one, the others none.
 */
/** Where the timestamps of `n` passes go: the query set, its resolve buffer and a MAP_READ copy. */
export interface StampBuffers {
  querySet: GPUQuerySet;
  resolved: GPUBuffer;
  readback: GPUBuffer;
}

/** Resolves the first `n` timestamp pairs, submits the encoder and reads them back (nanoseconds). */
export async function submitAndReadStamps(gpu: Gpu, encoder: GPUCommandEncoder, stamps: StampBuffers, n: number): Promise<BigInt64Array> {
  const device = gpu.device;
  encoder.resolveQuerySet(stamps.querySet, 0, 2 * n, stamps.resolved, 0);
  encoder.copyBufferToBuffer(stamps.resolved, 0, stamps.readback, 0, 16 * n);
  device.queue.submit([encoder.finish()]);
  await gpu.idle(stamps.readback.mapAsync(MapMode.READ, 0, 16 * n));
  const ns = new BigInt64Array(stamps.readback.getMappedRange(0, 16 * n).slice(0));
  stamps.readback.unmap();
  return ns;
}

/**
 * The step of the GPU's timestamps: the greatest common divisor of every raw timestamp read (ns).
 * A precise clock's timestamps share no divisor above a few ns; coarsened ones are all multiples
 * of their quantum.
 */
export class TimestampStep {
  private ns = 0n;

  /** Takes in the first `n` (begin, end) pairs. */
  add(stamps: BigInt64Array, n: number): void {
    for (let i = 0; i < 2 * n; i++) this.ns = gcd(this.ns, stamps[i] < 0n ? -stamps[i] : stamps[i]);
  }

  /** The step in ms when it is 1 µs or more, else undefined (precise enough to say nothing). */
  resolutionMs(): number | undefined {
    return this.ns >= 1000n ? Number(this.ns) / 1e6 : undefined;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** Milliseconds between each of the first `n` (begin, end) timestamp pairs. */
export function stampedMs(ns: BigInt64Array, n: number): number[] {
  return Array.from({ length: n }, (_, i) => Number(ns[2 * i + 1] - ns[2 * i]) / 1e6);
}

export function beginGroupPass(encoder: GPUCommandEncoder, label: string, querySet: GPUQuerySet, index: number, first: boolean, last: boolean): GPUComputePassEncoder {
  const stamps = { ...(first ? { beginningOfPassWriteIndex: index } : {}), ...(last ? { endOfPassWriteIndex: index + 1 } : {}) };
  return encoder.beginComputePass({ label, ...(first || last ? { timestampWrites: { querySet, ...stamps } } : {}) });
}

function summarise(times: number[], source: Timing["source"], launchesPerSample: number, resolutionMs?: number): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const medianMs = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  // docs/LANGUAGE.md §4's keys first, in its order.
  return {
    medianMs,
    minMs: sorted[0],
    maxMs: sorted[sorted.length - 1],
    reps: sorted.length,
    source,
    launchesPerSample,
    ...(resolutionMs !== undefined ? { resolutionMs } : {}),
  };
}

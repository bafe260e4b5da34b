// Cases of several launches in order (layer-norm backward: dx with partial dW/db, then their
// sum), checked and timed as a whole, as Triton's tutorial times its backward. For each variant:
// every launch compiled with its own constexprs, the outputs poisoned, the sequence run once and
// checked against the float64 reference; then samples of GROUP runs back to back between two
// timestamps (as runtime/timing.ts groups single launches: a timestamp pair costs ~5 µs on the
// H200), a pass per launch, inputs rotated. Every copy writes the first copy's buffers, so each
// run waits for the one before (runtime/timing.ts's `serialised` says why). The fastest variant
// is timed again with the L2 flushed before each run (cold.ts).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor, type KernelSource } from "../src/compile";
import { launchSequence, type Gpu, type LaunchArgs, type LaunchStep } from "../src/runtime";
import type { KernelProgram } from "../src/runtime/pipelines";
import { checkOutputs, measurementLine, poison, release, rotations, upload, type Args, type Check, type Measurement } from "./case";
import { coldSequenceMs, destroyCopies, prepareCopies, sampleSequence } from "./cold";

type Constexprs = Record<string, number>;

export interface SequenceLaunch {
  kernel: string;
  grid: (c: Constexprs) => number[];
  /** Each parameter of the kernel: the name of the case's buffer bound to it, or a scalar. */
  bind: (variant: Constexprs[]) => Record<string, string | number>;
}

export interface SequenceCase {
  /** Matches torch_bench.py's names. */
  name: string;
  example: string;
  shape: string;
  launches: SequenceLaunch[];
  /** A variant: the constexprs of every launch, in order. */
  variants: Constexprs[][];
  /** Every buffer of the case (fresh random inputs at each call). */
  args: () => Args;
  outputs: string[];
  check: (args: Args) => Check[];
  bytes: number;
}

/** Runs of the sequence between a sample's two timestamps. */
const GROUP = 8;
/**
 * Samples taken of each variant, and the first variant's warm-up. `suite.ts --quick` (a smoke test
 * on lavapipe, whose figures mean nothing) takes 5 samples after 200 ms: layer-norm backward's six
 * variants were 2880 launches, most of bench-smoke's time.
 */
export const WARM = { samples: 30, firstWarmupMs: 1500 };

function variantLabel(variant: Constexprs[]): string {
  return variant.map((c) => Object.entries(c).map(([k, v]) => `${k}=${v}`).join(" ")).join(" → ");
}

/** Each launch's program for `variant`, or undefined (the diagnostics printed) when one does not compile. */
function compileVariant(gpu: Gpu, c: SequenceCase, kernels: KernelSource[], variant: Constexprs[]): KernelProgram[] | undefined {
  const programs: KernelProgram[] = [];
  for (const [i, launch] of c.launches.entries()) {
    const scalars = Object.fromEntries(Object.entries(launch.bind(variant)).filter(([, v]) => typeof v === "number"));
    const compiled = compileKernel(kernels[i], variant[i], gpu.target, specializationFor(kernels[i], scalars));
    if (!compiled.kernel) {
      console.error(`${c.name} ${variantLabel(variant)}: ${compiled.diagnostics.map((d) => d.message).join("; ")}`);
      return undefined;
    }
    programs.push(compiled.kernel);
  }
  return programs;
}

/**
 * The sequence's steps on `set`, every buffer some launch writes taken from `shared` (the first
 * set), in the launches that read it too: a later launch reads what an earlier one wrote.
 */
function stepsOn(c: SequenceCase, programs: KernelProgram[], variant: Constexprs[], set: LaunchArgs, shared: LaunchArgs): LaunchStep[] {
  const bindings = c.launches.map((launch) => Object.entries(launch.bind(variant)));
  const written = new Set<string | number>();
  bindings.forEach((bound, i) => {
    const params = new Set(programs[i].abi.buffers.filter((b) => b.access === "read_write").map((b) => b.name));
    for (const [param, value] of bound) if (params.has(param)) written.add(value);
  });
  return c.launches.map((launch, i) => {
    const args: LaunchArgs = { buffers: {}, scalars: {} };
    for (const [param, value] of bindings[i]) {
      if (typeof value === "number") args.scalars[param] = value;
      else args.buffers[param] = (written.has(value) ? shared : set).buffers[value];
    }
    return { program: programs[i], grid: launch.grid(variant[i]), args };
  });
}

/** Per run of the sequence: median, fastest and slowest of WARM.samples samples of GROUP runs each. */
async function warmTiming(gpu: Gpu, copies: LaunchStep[][], warmupMs: number): Promise<{ medianMs: number; minMs: number; maxMs: number; reps: number }> {
  const prepared = await prepareCopies(gpu, copies);
  try {
    const items = Array.from({ length: GROUP }, (_, g) => prepared[g % prepared.length]).flat();
    const started = performance.now();
    do await sampleSequence(gpu, items, null, 5);
    while (performance.now() - started < warmupMs);
    const times = (await sampleSequence(gpu, items, null, WARM.samples)).map((ms) => ms / GROUP);
    return { medianMs: times[times.length >> 1], minMs: times[0], maxMs: times[times.length - 1], reps: times.length };
  } finally {
    destroyCopies(prepared);
  }
}

export async function runSequenceCase(gpu: Gpu, root: string, c: SequenceCase, results: Measurement[]): Promise<void> {
  const text = readFileSync(join(root, "examples", `${c.example}.kernel.ts`), "utf8");
  const parsed = parseKernelFile(`${c.example}.kernel.ts`, text);
  const kernels = c.launches.map((l) => parsed.kernels.find((k) => k.name === l.kernel) as KernelSource);
  const hostArgs = c.args();
  const checks = c.check(hostArgs);
  const sets = [await upload(gpu, hostArgs)];
  for (let i = 1; i < rotations(c.bytes); i++) sets.push(await upload(gpu, c.args()));
  let best: { m: Measurement; copies: LaunchStep[][] } | undefined;
  // The CPU reference left the GPU idle for seconds before the first variant: bring its clocks up.
  let warmupMs = WARM.firstWarmupMs;
  try {
    for (const variant of c.variants) {
      const programs = compileVariant(gpu, c, kernels, variant);
      if (!programs) continue;
      try {
        const copies = sets.map((set) => stepsOn(c, programs, variant, set, sets[0]));
        await poison(gpu, sets[0], hostArgs, c.outputs);
        await launchSequence(gpu, copies[0]);
        const { correct, rel, maxAbs } = await checkOutputs(gpu, sets[0], hostArgs, checks);
        const t = await warmTiming(gpu, copies, warmupMs);
        warmupMs = 200;
        const m: Measurement = {
          case: c.name, shape: c.shape, variant: variantLabel(variant), correct, relError: rel, maxAbsDiff: maxAbs,
          ...t, workgroupSize: programs[0].abi.workgroupSize, gbps: c.bytes / (t.medianMs * 1e6),
        };
        results.push(m);
        console.log(measurementLine(m));
        if (correct && (!best || m.medianMs < best.m.medianMs)) best = { m, copies };
      } catch (error) {
        console.error(`${c.name} ${variantLabel(variant)}: ${(error as Error).message}`);
      }
    }
    if (best) {
      best.m.coldMs = await coldSequenceMs(gpu, best.copies);
      best.m.coldGbps = c.bytes / (best.m.coldMs * 1e6);
      console.log(`${c.name.padEnd(22)} ${`${best.m.variant}, L2 flushed before each run`.padEnd(48)} ${best.m.coldMs.toFixed(4)} ms  ${best.m.coldGbps.toFixed(1)} GB/s`);
    }
  } finally {
    release(sets);
  }
}

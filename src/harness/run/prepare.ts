// Everything about one size known before a kernel runs, in one form for both kinds of run: a run
// of one kernel is a sequence of one launch. The run's arrays (fresh from its `args`, f16 values
// rounded as the kernel will see them), the reference computed on them, outputs the kernel never
// reads poisoned, and per launch its program, grid, arguments and which of the run's arrays each
// pointer parameter is. The executors (executor.ts) run it; run-size.ts compares and times.

import type { CompiledKernel } from "../../compile";
import type { PointeeDtype } from "../../ir/ir";
import { poison, type HostArray } from "../../language";
import { computeReference, copyArgs, evaluateCount, evaluateGrid, makeArgs, type CheckedRun, type KernelArgs, type RunLimits } from "./args";
import { compareOutputs, defaultTolerance, type Comparison } from "./compare";
import { pointerParams, poisonUnreadOutputs, roundToF16 } from "./gpu-args";
import { bindLaunch, makeRunArgs, runArgDtypes, type CheckedLaunchRun } from "./launches";
import { evaluateShapes, type Shape2d } from "./shapes";
import type { RunReport } from "../report";
import { trace } from "../trace";

/** A launch's program and its variants (programs.ts). */
export interface LaunchProgram {
  program: CompiledKernel;
  /** The program specialised for this launch's scalar arguments (compile.ts specializationFor), if it differs. */
  specialize?: (scalars: Record<string, unknown>) => CompiledKernel | undefined;
  /** The instrumented variant for the correctness launch, specialised likewise (a run of one launch). */
  instrumented?: (scalars: Record<string, unknown>) => CompiledKernel | undefined;
}

export interface PreparedLaunch extends LaunchProgram {
  grid: [number, number, number];
  /** The kernel's arguments by parameter name: the run's arrays and numbers. */
  args: KernelArgs;
  /** Pointer parameter → the run's array it is. */
  bound: Map<string, string>;
}

export interface PreparedSize {
  run: string;
  size: number;
  /** In order; one for a run of one kernel. */
  launches: PreparedLaunch[];
  /** Every array and number of the run, shared by its launches. */
  runArgs: KernelArgs;
  /** Each of the run's arrays that a launch binds to a pointer: its dtype. */
  dtypes: Map<string, PointeeDtype>;
  outputs: string[];
  expected: Record<string, ArrayLike<number>>;
  bytes: number | null;
  flops: number | null;
  /** Outputs (and inputs) the run declares 2-D (`shapes`). */
  shapes: Map<string, Shape2d>;
  /** The report's fields known before the run: name, kernel, size, constexprs, grid, and `launches` for a sequence. */
  base: Omit<RunReport, keyof Comparison>;
  compare: (got: Map<string, ArrayLike<number>>) => Comparison;
}

/**
 * The arrays and reference that several preparations of one size share (the autotuner's
 * candidates, as with Triton's autotuner), by the layout of their `args` (array lengths, scalar
 * values): a config whose `args` differ (an output padded to the block) gets its own.
 */
export type SharedInputs = Map<string, { args: KernelArgs; expected: Record<string, ArrayLike<number>> }>;

/** A run of one kernel: its own `args(size)` are the kernel's arguments (those of an earlier preparation in `shared` where their layout is the same). */
export function prepareOneLaunch(run: CheckedRun, launch: LaunchProgram, size: number, limits: RunLimits | undefined, shared?: SharedInputs): PreparedSize {
  const { program } = launch;
  const grid = evaluateGrid(run, size, limits);
  const pointers = pointerParams(program.params);
  const dtypes = new Map(pointers.map((p) => [p.name, p.dtype] as const));
  const { args, expected } = inputsOf(run, program, size, limits, dtypes, shared);
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);
  poisonUnreadOutputs(program.facts.loaded, run.outputs, args);
  const shapes = evaluateShapes(run, size, args);
  const base = { name: run.name, kernel: program.name, size, constexprs: { ...run.constexprs }, grid, timing: null, gbps: null, gflops: null, baseline: null };
  const bound = new Map(pointers.map((p) => [p.name, p.name] as const));
  return { run: run.name, size, launches: [{ ...launch, grid, args, bound }], runArgs: args, dtypes, outputs: run.outputs, expected, bytes, flops, shapes, base, compare: comparer(run, dtypes, expected, shapes) };
}

/** A run with `launches`: its `args(size)` hold every array, each launch binds its parameters to them. */
export function prepareLaunches(run: CheckedLaunchRun, programs: readonly LaunchProgram[], size: number, limits: RunLimits | undefined): PreparedSize {
  const runArgs = makeRunArgs(run, size);
  const bound = programs.map(({ program: p }, i) => bindLaunch(run, i, { name: p.name, params: p.params }, runArgs, size, limits));
  const dtypes = runArgDtypes(run, bound, programs.map((p) => p.program));
  for (const [name, dtype] of dtypes) if (dtype === "f16" || dtype === "bf16") roundToF16(runArgs[name] as HostArray, dtype);
  const expected = computeReference(run, runArgs, size);
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);
  // An output starts as poison unless the first launch that binds it reads it (then it is an input too).
  for (const o of run.outputs) {
    const first = bound.findIndex((l) => [...l.bound.values()].includes(o));
    const read = programs[first].program.facts.loaded;
    if ([...bound[first].bound].some(([param, runArg]) => runArg === o && read.has(param))) continue;
    poison(runArgs[o] as HostArray);
  }
  const launches = programs.map((p, i) => ({ ...p, ...bound[i] }));
  const first = programs[0].program;
  const base = {
    name: run.name, kernel: first.name, size, constexprs: { ...run.launches[0].constexprs }, grid: bound[0].grid,
    timing: null, gbps: null, gflops: null, baseline: null,
    launches: programs.map(({ program: p }, i) => ({ kernel: p.name, grid: bound[i].grid, constexprs: { ...run.launches[i].constexprs }, timing: null })),
  };
  const shapes = new Map<string, Shape2d>();
  return { run: run.name, size, launches, runArgs, dtypes, outputs: run.outputs, expected, bytes, flops, shapes, base, compare: comparer(run, dtypes, expected, shapes) };
}

/** The run's arrays, f16 data rounded to half precision as the kernel will see it, and the reference computed on them. */
function inputsOf(run: CheckedRun, program: CompiledKernel, size: number, limits: RunLimits | undefined, dtypes: Map<string, PointeeDtype>, shared: SharedInputs | undefined) {
  const args = makeArgs(run, { name: program.name, params: program.params }, size, limits);
  const layout = shared && JSON.stringify(Object.entries(args).map(([k, v]) => [k, typeof v === "number" ? v : `${v.constructor.name}(${v.length})`]));
  const known = layout === undefined ? undefined : shared?.get(layout);
  // Each preparation gets its own copy: its outputs are poisoned as its own program reads them.
  if (known) return { args: copyArgs(known.args), expected: known.expected };
  for (const [name, dtype] of dtypes) if (dtype === "f16" || dtype === "bf16") roundToF16(args[name] as HostArray, dtype);
  const expected = computeReference(run, args, size);
  trace("reference computed");
  if (layout !== undefined) shared?.set(layout, { args: copyArgs(args), expected });
  return { args, expected };
}

function comparer(run: Pick<CheckedRun, "outputs" | "tolerance">, dtypes: Map<string, PointeeDtype>, expected: Record<string, ArrayLike<number>>, shapes: Map<string, Shape2d>) {
  return (got: Map<string, ArrayLike<number>>): Comparison =>
    compareOutputs(
      run.outputs.map((o) => {
        const dtype = dtypes.get(o) as PointeeDtype;
        return { name: o, got: got.get(o) as ArrayLike<number>, expected: expected[o], tolerance: { ...defaultTolerance(dtype), ...run.tolerance }, shape: shapes.get(o) };
      }),
    );
}

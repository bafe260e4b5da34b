// Every size of a run with several launches (launches.ts): fresh run args, the reference, poisoned
// outputs; then the interpreter running each launch in order (--cpu), or each launch's corner
// check, the whole sequence in one submit, read back and compare once; then the sequence timed as
// a whole (time-sequence.ts) and each launch on its own.

import type { CompiledKernel } from "../../compile";
import { interpret } from "../../interpreter/interpret";
import type { NumDtype } from "../../ir/ir";
import { poison, type HostArray } from "../../language";
import { createStorageBuffer, launchSequence, readBuffer, timeLaunches, type Gpu, type LaunchArgs, type LaunchStep, type StorageArray } from "../../runtime";
import { computeReference, copyArgs, evaluateCount, runLimits, type KernelArgs } from "./args";
import { timingCopies } from "./buffers";
import { compareOutputs, defaultTolerance } from "./compare";
import { checkCornersOnCpu } from "./corners";
import { fromStorage, paramsLoadedFrom, roundToF16, toStorage } from "./gpu-args";
import { bindLaunch, checkLaunchRunDefinition, makeRunArgs, runArgDtypes, type BoundLaunch, type CheckedLaunchRun, type RunArgs } from "./launches";
import type { LoadedRun } from "../load/load";
import type { FileSession } from "../session";
import { warnFor } from "./to-diagnostics";
import { LineMap } from "../../diagnostics/position";
import { RaceRecorder } from "../debug/races";
import { CpuPrints, gpuPrintBuffer, printsOf, readGpuPrints, sequencePrints, type PrintedLines } from "../debug/prints";
import type { LaunchReport, RunReport, TimingReport } from "../report";
import { lengthsOf, orderedReport, warnRun, type SizeContext } from "./run-size";
import { DEFAULT_TIMEOUT_MS, withTimeout } from "./timeout";
import { sizesToRun } from "./size-constexprs";
import { timeSequence } from "../timing/time-sequence";

/** "compile-error" when a launch's program did not compile; other failures are thrown. */
export async function runLaunchesEverySize(loaded: LoadedRun, s: FileSession, only?: number[]): Promise<"ran" | "compile-error"> {
  const run = checkLaunchRunDefinition(loaded, s.kernels, s.parsed);
  const sizes = only ?? sizesToRun(run.sizes, s.opts);
  const programs: CompiledKernel[] = [];
  for (const launch of run.launches) {
    const { program, diagnostics } = s.programs.forRun(launch.kernel, launch.constexprs, loaded.name);
    s.diagnose(diagnostics);
    if (!program) return "compile-error";
    programs.push(program);
  }
  for (const size of sizes) {
    const ctxs = run.launches.map((l): SizeContext => ({ gpu: s.device.gpu, reps: s.opts.reps, maxSteps: s.opts.maxSteps, progress: s.progress, onChecked: s.onChecked, specialize: s.programs.specializer(l.kernel, l.constexprs), lines: new LineMap(s.text), warn: warnFor(s) }));
    await s.finished(await withTimeout(runLaunchesSize(run, programs, size, ctxs), s.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, run.name, size));
  }
  return "ran";
}

interface PreparedLaunches {
  size: number;
  runArgs: RunArgs;
  launches: BoundLaunch[];
  /** Each of the run's args bound to a pointer: its dtype. */
  dtypes: Map<string, NumDtype>;
  expected: Record<string, ArrayLike<number>>;
  bytes: number | null;
  flops: number | null;
  base: Omit<RunReport, "correct" | "maxAbsDiff" | "maxRelDiff" | "mismatches" | "firstMismatch">;
  compare: (got: Map<string, ArrayLike<number>>) => ReturnType<typeof compareOutputs>;
}

async function runLaunchesSize(run: CheckedLaunchRun, programs: CompiledKernel[], size: number, ctxs: SizeContext[]): Promise<RunReport> {
  const gpu = ctxs[0].gpu;
  const prepared = prepareLaunches(run, programs, size, gpu);
  if (!gpu) return interpretLaunches(run, programs, prepared, ctxs[0]);
  // A launch that binds none of an earlier launch's buffers is checked at once, on the run's arrays.
  programs.forEach((program, i) => {
    if (!readsEarlierLaunch(prepared.launches, i)) checkCornersOnCpu(program, prepared.launches[i].grid, prepared.launches[i].args, pointerDtypes(prepared, i));
  });
  return launchAll(gpu, run, programs, prepared, ctxs);
}

/** Pointer parameter → dtype, for launch `i`. */
function pointerDtypes(prepared: PreparedLaunches, i: number): Map<string, NumDtype> {
  return new Map([...prepared.launches[i].bound].map(([param, runArg]) => [param, prepared.dtypes.get(runArg) as NumDtype] as const));
}

/**
 * Whether launch `i` binds a buffer an earlier launch binds: what it reads there (and so the
 * addresses it computes from it, as argmax's `mid_index[argmax(mid_value)]`) is what the earlier
 * launches leave, which the run's initial (poisoned) arrays don't show.
 */
function readsEarlierLaunch(launches: readonly BoundLaunch[], i: number): boolean {
  const earlier = new Set(launches.slice(0, i).flatMap((l) => [...l.bound.values()]));
  return [...launches[i].bound.values()].some((runArg) => earlier.has(runArg));
}

/**
 * The correctness launch: the sequence in one submit, except that before a launch that reads an
 * earlier launch's buffers, the launches before it run, its buffers are read back, and its corner
 * programs are interpreted on them (an out-of-bounds access is reported at its tl.load/tl.store).
 */
async function launchChecked(gpu: Gpu, programs: CompiledKernel[], prepared: PreparedLaunches, steps: LaunchStep[]): Promise<void> {
  let pending: LaunchStep[] = [];
  for (const [i, step] of steps.entries()) {
    const launch = prepared.launches[i];
    if (i > 0 && readsEarlierLaunch(prepared.launches, i)) {
      if (pending.length > 0) await launchSequence(gpu, pending);
      pending = [];
      const dtypes = pointerDtypes(prepared, i);
      const args: KernelArgs = { ...launch.args };
      for (const [param, dtype] of dtypes) {
        const length = (prepared.runArgs[launch.bound.get(param) as string] as HostArray).length;
        args[param] = fromStorage(await readBuffer(gpu, step.args.buffers[param], dtype, length), dtype) as HostArray;
      }
      checkCornersOnCpu(programs[i], launch.grid, args, dtypes);
    }
    pending.push(step);
  }
  if (pending.length > 0) await launchSequence(gpu, pending);
}

function prepareLaunches(run: CheckedLaunchRun, programs: CompiledKernel[], size: number, gpu: Gpu | undefined): PreparedLaunches {
  const limits = gpu && runLimits(gpu.limits);
  const runArgs = makeRunArgs(run, size);
  const launches = programs.map((p, i) => bindLaunch(run, i, { name: p.name, params: p.params }, runArgs, size, limits));
  const dtypes = runArgDtypes(run, launches, programs);
  for (const [name, dtype] of dtypes) if (dtype === "f16") roundToF16(runArgs[name] as HostArray);
  const expected = computeReference(run, runArgs as KernelArgs, size);
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);
  // An output starts as poison unless the first launch that binds it reads it (then it is an input too).
  for (const o of run.outputs) {
    const first = launches.findIndex((l) => [...l.bound.values()].includes(o));
    const read = paramsLoadedFrom(programs[first].ir);
    if ([...launches[first].bound].some(([param, runArg]) => runArg === o && read.has(param))) continue;
    poison(runArgs[o] as HostArray);
  }
  const launchReports: LaunchReport[] = programs.map((p, i) => ({ kernel: p.name, grid: launches[i].grid, constexprs: { ...run.launches[i].constexprs }, timing: null }));
  const base = {
    name: run.name, kernel: programs[0].name, size, constexprs: { ...run.launches[0].constexprs }, grid: launches[0].grid,
    timing: null, gbps: null, gflops: null, baseline: null, launches: launchReports,
  };
  const compare = (got: Map<string, ArrayLike<number>>) =>
    compareOutputs(run.outputs.map((o) => {
      const dtype = dtypes.get(o) as NumDtype;
      return { name: o, got: got.get(o) as ArrayLike<number>, expected: expected[o], tolerance: { ...defaultTolerance(dtype), ...run.tolerance } };
    }));
  return { size, runArgs, launches, dtypes, expected, bytes, flops, base, compare };
}

function interpretLaunches(run: CheckedLaunchRun, programs: CompiledKernel[], prepared: PreparedLaunches, ctx: SizeContext): RunReport {
  const { size, runArgs, dtypes, launches } = prepared;
  // The run's arrays as the interpreter holds them, shared by every launch.
  const storage = new Map([...dtypes].map(([name, dtype]) => [name, toStorage(runArgs[name] as HostArray, dtype)] as const));
  let total = 0;
  const prints = programs.map((p) => new CpuPrints(p));
  const launchReports = prepared.base.launches?.map((report, i) => {
    ctx.progress({ phase: "launch", run: run.name, size, message: `Interpreting ${programs[i].name} on the CPU (launch ${i + 1} of ${programs.length}, size ${size})` });
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [param, value] of Object.entries(launches[i].args)) {
      const runArg = launches[i].bound.get(param);
      cpuArgs[param] = runArg === undefined ? (typeof value === "number" ? value : toStorage(value, "f32")) : (storage.get(runArg) as StorageArray);
    }
    const races = new RaceRecorder(programs[i].ir, launches[i].grid, lengthsOf(cpuArgs), ctx.lines ?? new LineMap(""));
    const started = performance.now();
    interpret(programs[i].ir, launches[i].grid, cpuArgs, { onDebugRecord: prints[i].onDebugRecord, maxSteps: ctx.maxSteps, ...(races.checks ? { onAccess: races.onAccess } : {}) });
    const ms = performance.now() - started;
    for (const w of races.warnings()) warnRun(ctx, run.name, w);
    total += ms;
    return { ...report, timing: cpuTiming(ms) };
  });
  const got = new Map(run.outputs.map((o) => [o, fromStorage(storage.get(o) as StorageArray, dtypes.get(o) as NumDtype)] as const));
  const printed = printsOf(sequencePrints(prints.map((p) => p.lines())));
  const result = orderedReport({ ...prepared.base, ...prepared.compare(got), timing: cpuTiming(total), launches: launchReports, ...printed });
  ctx.onChecked(result);
  return result;
}

function cpuTiming(ms: number): TimingReport {
  return { medianMs: ms, minMs: ms, maxMs: ms, reps: 1, source: "cpu-wall-clock" };
}

async function launchAll(gpu: Gpu, run: CheckedLaunchRun, programs: CompiledKernel[], prepared: PreparedLaunches, ctxs: SizeContext[]): Promise<RunReport> {
  const { size, runArgs, launches } = prepared;
  const progress = ctxs[0].progress;
  const made: GPUBuffer[] = [];
  // Integer scalars equal to 1 compile as constants, per launch, as a single launch's do.
  const kernelPrograms = programs.map((p, i) => {
    const specialized = ctxs[i].specialize?.(launches[i].args);
    return specialized ? { abi: specialized.abi, wgsl: specialized.wgsl } : { abi: p.abi, wgsl: p.wgsl };
  });
  const upload = async (values: RunArgs, suffix: string): Promise<LaunchStep[]> => {
    const buffers = new Map<string, GPUBuffer>();
    for (const [name, dtype] of prepared.dtypes) {
      const buffer = await createStorageBuffer(gpu, toStorage(values[name] as HostArray, dtype), `${run.name}.${name}${suffix}`);
      made.push(buffer);
      buffers.set(name, buffer);
    }
    return launches.map((l, i) => {
      const args: LaunchArgs = { buffers: {}, scalars: {} };
      for (const [param, value] of Object.entries(l.args)) {
        const runArg = l.bound.get(param);
        if (runArg !== undefined) args.buffers[param] = buffers.get(runArg) as GPUBuffer;
        else args.scalars[param] = value as number;
      }
      if (suffix === "") args.debug = gpuPrintBuffer(gpu, kernelPrograms[i].abi.debug, `${run.name}.${i}`, made);
      return { program: kernelPrograms[i], grid: l.grid, args };
    });
  };
  try {
    progress({ phase: "launch", run: run.name, size, message: `Launching ${programs.map((p) => p.name).join(", ")} (size ${size})` });
    const first = await upload(runArgs, "");
    await launchChecked(gpu, programs, prepared, first);
    const printed = printsOf(sequencePrints(await Promise.all(first.map((step, i) => readLaunchPrints(gpu, programs[i].name, step)))));
    const got = new Map<string, ArrayLike<number>>();
    for (const o of run.outputs) {
      const dtype = prepared.dtypes.get(o) as NumDtype;
      got.set(o, fromStorage(await readBuffer(gpu, bufferOf(first, launches, o), dtype, (runArgs[o] as HostArray).length), dtype));
    }
    progress({ phase: "compare", run: run.name, size, message: "Comparing with the reference" });
    const comparison = { ...prepared.compare(got), ...printed };
    const checked = orderedReport({ ...prepared.base, ...comparison });
    ctxs[0].onChecked(checked);
    // --reps 0: checked, not timed.
    if (ctxs[0].reps === 0) return checked;

    progress({ phase: "time", run: run.name, size, message: `Timing ${run.name}'s ${programs.length} launches` });
    const copies = [first];
    for (let c = 1; c < timingCopies(runArgs as KernelArgs); c++) copies.push(await upload(copyArgs(runArgs as KernelArgs), `#${c}`));
    const timingOpts = { maxReps: ctxs[0].reps ?? 100, minReps: Math.min(10, ctxs[0].reps ?? 10) };
    // Timed compiled without tl.devicePrint/tl.deviceAssert, as a single launch is.
    const quiet = copies.map((steps) => steps.map((step, i) => ({ ...step, program: quietProgram(programs[i], ctxs[i], launches[i].args) ?? step.program })));
    const timing = await timeSequence(gpu, quiet, run.name, timingOpts);
    const launchReports: LaunchReport[] = [];
    for (const [i, report] of (prepared.base.launches ?? []).entries()) {
      const t = await timeLaunches(gpu, quiet[0][i].program, launches[i].grid, copies.map((steps) => steps[i].args), timingOpts);
      launchReports.push({ ...report, timing: t });
    }
    const medianS = timing.medianMs / 1e3;
    const { bytes, flops } = prepared;
    return orderedReport({
      ...prepared.base,
      ...comparison,
      timing,
      gbps: bytes === null || medianS <= 0 ? null : bytes / medianS / 1e9,
      gflops: flops === null || medianS <= 0 ? null : flops / medianS / 1e9,
      launches: launchReports,
    });
  } finally {
    for (const b of made) b.destroy();
  }
}

/** The buffer of the run's arg `name` in the first launch that binds it. */
function bufferOf(steps: LaunchStep[], launches: BoundLaunch[], name: string): GPUBuffer {
  const i = launches.findIndex((l) => [...l.bound.values()].includes(name));
  const param = [...launches[i].bound].find(([, runArg]) => runArg === name)?.[0] as string;
  return steps[i].args.buffers[param];
}

/** The records of one launch of a sequence, when its kernel prints or asserts. */
async function readLaunchPrints(gpu: Gpu, kernel: string, step: LaunchStep): Promise<PrintedLines | undefined> {
  const debug = step.program.abi.debug;
  return debug && step.args.debug ? readGpuPrints(gpu, kernel, debug, step.args.debug) : undefined;
}

/** A launch's program compiled without its prints and assertions, if it has any. */
function quietProgram(program: CompiledKernel, ctx: SizeContext, args: Record<string, unknown>): CompiledKernel["quiet"] {
  return (ctx.specialize?.(args) ?? program).quiet;
}

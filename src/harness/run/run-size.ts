// One size of one run: grid, fresh arguments, reference, poisoned outputs; then either the
// interpreter (--cpu) or the correctness launch (the instrumented variant, instrumented-launch.ts;
// the corner check where the device can't bind its buffers), read back, compare, time and baseline.

import type { CompiledKernel } from "../../compile";
import { LineMap } from "../../diagnostics/position";
import type { Diagnostic } from "../../diagnostics/diagnostic";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { NumDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import { launch, timeLaunches, type Gpu, type LaunchArgs, type StorageArray } from "../../runtime";
import { computeReference, copyArgs, evaluateCount, evaluateGrid, makeArgs, runLimits, type CheckedRun, type KernelArgs } from "./args";
import { timeBaseline } from "../timing/baseline";
import { readOutputs, timingCopies, uploadArgs } from "./buffers";
import { compareOutputs, defaultTolerance, type Comparison } from "./compare";
import { checkCornersOnCpu } from "./corners";
import { CpuPrints, gpuPrintBuffer, printsOf, readGpuPrints } from "../debug/prints";
import { fitsDevice, instrumentedLaunch, type RaceExplainer } from "./instrumented-launch";
import { launchBytes, programAccessMap, programAccessMaps, type LaunchToTrace } from "../debug/analyse-launch";
import { compareWithSolution } from "../debug/exercise-access";
import { exerciseIdOf } from "../../language";
import { hazardWarning, raceError, RaceRecorder, type LoadHazard, type Race } from "../debug/races";
import { recordStores, withSource, type StoreProvenance } from "../debug/provenance";
import { evaluateShapes } from "./shapes";
import { fromStorage, pointerParams, poisonUnreadOutputs, roundToF16, toStorage } from "./gpu-args";
import type { Progress } from "../progress";
import type { RunReport, TimingReport } from "../report";
import { trace } from "../trace";

export interface SizeContext {
  /** Undefined with --cpu. */
  gpu: Gpu | undefined;
  /** Most timed repetitions (`--reps`); 0: check only, no timing. */
  reps: number | undefined;
  /** The interpreter's step budget (`--max-steps`). */
  maxSteps?: number;
  progress: (p: Progress) => void;
  onChecked: (run: RunReport) => void;
  /** The program specialised for this launch's scalar arguments (compile.ts specializationFor), if it differs. */
  specialize?: (scalars: Record<string, unknown>) => CompiledKernel | undefined;
  /** The instrumented variant for the correctness launch (programs.ts), specialised likewise. */
  instrumented?: (scalars: Record<string, unknown>) => CompiledKernel | undefined;
  /** The file's lines: where a mismatch's tl.store is. */
  lines?: LineMap;
  /** The program whose accesses go into the report's `accessMap` (`--program`). */
  program?: readonly [number, number, number];
  /** Trace a bounded set of programs into the report's `accessMaps` (the results panel). */
  accessMaps?: boolean;
  /** A warning about this size (KL3105), into the report's diagnostics. */
  warn?: (diagnostic: Diagnostic) => void;
}

/** Everything about one size known before the kernel runs. */
interface PreparedSize {
  size: number;
  grid: [number, number, number];
  args: KernelArgs;
  expected: Record<string, ArrayLike<number>>;
  bytes: number | null;
  flops: number | null;
  dtypes: Map<string, NumDtype>;
  shapes: Map<string, [number, number]>;
  base: Omit<RunReport, keyof Comparison>;
  compare: (got: Map<string, ArrayLike<number>>) => Comparison;
}

/** The comparison, its first mismatch with who stored it where the provenance is known. */
async function compareWithSource(prepared: PreparedSize, got: Map<string, ArrayLike<number>>, ctx: SizeContext, provenance?: () => Promise<StoreProvenance>): Promise<Comparison> {
  const comparison = prepared.compare(got);
  if (comparison.correct || !provenance || !ctx.lines) return comparison;
  return { ...comparison, firstMismatch: withSource(comparison.firstMismatch, await provenance(), ctx.lines) };
}

export async function runOneSize(run: CheckedRun, program: CompiledKernel, size: number, ctx: SizeContext): Promise<RunReport> {
  const prepared = prepareSize(run, program, size, ctx.gpu);
  // Traced before the run: the run writes its outputs (and an in-place kernel its inputs).
  const launch: LaunchToTrace = { ir: program.ir, grid: prepared.grid, args: copyArgs(prepared.args), dtypes: prepared.dtypes, lines: ctx.lines ?? new LineMap(""), shapes: prepared.shapes };
  const report = ctx.gpu ? await launchSize(ctx.gpu, run, program, prepared, ctx) : await interpretSize(run, program, prepared, ctx);
  if (ctx.program) {
    const map = programAccessMap(launch, ctx.program);
    if (map) report.accessMap = map;
  }
  if (ctx.accessMaps) {
    trace("tracing the access maps");
    const maps = programAccessMaps(launch);
    if (maps) report.accessMaps = maps;
  }
  // An exercise's run: its accesses beside the course's solution's, program by program.
  const exercise = exerciseIdOf(run.reference);
  if (exercise) {
    trace("comparing accesses with the exercise's solution");
    const compared = compareWithSolution(launch, exercise, program.name, run.constexprs);
    if (compared) report.exerciseAccess = compared;
  }
  if (ctx.gpu && report.timing) {
    trace("tracing the bytes");
    const bytes = launchBytes(launch);
    if (bytes) report.bytes = bytes;
  }
  return report;
}

function prepareSize(run: CheckedRun, program: CompiledKernel, size: number, gpu: Gpu | undefined): PreparedSize {
  const limits = gpu && runLimits(gpu.limits);
  const grid = evaluateGrid(run, size, limits);
  const args = makeArgs(run, { name: program.name, params: program.params }, size, limits);
  // f16 data is rounded to half precision on the way to the kernel; the reference sees the same values.
  for (const p of pointerParams(program.params)) {
    if (p.dtype === "f16") roundToF16(args[p.name] as HostArray);
  }
  const expected = computeReference(run, args, size);
  trace("reference computed");
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);
  poisonUnreadOutputs(program.ir, run.outputs, args);

  const dtypes = new Map(pointerParams(program.params).map((p) => [p.name, p.dtype] as const));
  const shapes = evaluateShapes(run, size, args);
  const base = { name: run.name, kernel: program.name, size, constexprs: { ...run.constexprs }, grid, timing: null, gbps: null, gflops: null, baseline: null };
  const compare = (got: Map<string, ArrayLike<number>>) =>
    compareOutputs(
      run.outputs.map((o) => {
        const dtype = dtypes.get(o) as NumDtype;
        return { name: o, got: got.get(o) as ArrayLike<number>, expected: expected[o], tolerance: { ...defaultTolerance(dtype), ...run.tolerance }, shape: shapes.get(o) };
      }),
    );
  return { size, grid, args, expected, bytes, flops, dtypes, shapes, base, compare };
}

async function interpretSize(run: CheckedRun, program: CompiledKernel, prepared: PreparedSize, ctx: SizeContext): Promise<RunReport> {
  const { size, grid, args, dtypes } = prepared;
  ctx.progress({ phase: "launch", run: run.name, size, message: `Interpreting ${program.name} on the CPU (size ${size})` });
  const cpuArgs: Record<string, StorageArray | number> = {};
  for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as NumDtype);
  const prints = new CpuPrints(program);
  const stores = recordStores(grid, Object.fromEntries(run.outputs.map((o) => [o, (args[o] as HostArray).length])), program.ir);
  const races = new RaceRecorder(program.ir, grid, lengthsOf(cpuArgs), ctx.lines ?? new LineMap(""));
  const started = performance.now();
  interpret(program.ir, grid, cpuArgs, { onDebugRecord: prints.onDebugRecord, onStore: stores.onStore, maxSteps: ctx.maxSteps, ...(races.checks ? { onAccess: races.onAccess } : {}) });
  const ms = performance.now() - started;
  for (const w of races.warnings()) warnRun(ctx, run.name, w);
  const got = new Map(run.outputs.map((o) => [o, fromStorage(cpuArgs[o] as StorageArray, dtypes.get(o) as NumDtype)] as const));
  ctx.progress({ phase: "compare", run: run.name, size, message: "Comparing with the reference" });
  const timing: TimingReport = { medianMs: ms, minMs: ms, maxMs: ms, reps: 1, source: "cpu-wall-clock" };
  const comparison = await compareWithSource(prepared, got, ctx, async () => stores.provenance);
  const result = orderedReport({ ...prepared.base, ...comparison, timing, ...printsOf(prints.lines()) });
  ctx.onChecked(result);
  return result;
}

async function launchSize(gpu: Gpu, run: CheckedRun, program: CompiledKernel, prepared: PreparedSize, ctx: SizeContext): Promise<RunReport> {
  const { size, grid, args } = prepared;
  const progress = ctx.progress;
  // Integer scalars equal to 1 (unit strides) compile as constants on the GPU, as in Triton.
  const specialized = ctx.specialize?.(args);
  const kernelProgram = specialized ? { abi: specialized.abi, wgsl: specialized.wgsl } : { abi: program.abi, wgsl: program.wgsl };
  const allBuffers: GPUBuffer[] = [];
  try {
    progress({ phase: "launch", run: run.name, size, message: `Launching ${program.name} (size ${size}, grid [${grid.join(", ")}])` });
    const first = await uploadArgs(gpu, program, args, "", allBuffers);
    first.debug = gpuPrintBuffer(gpu, kernelProgram.abi.debug, program.name, allBuffers);
    const provenance = await correctnessLaunch(gpu, program, kernelProgram, prepared, first, ctx, allBuffers);
    trace("launched");
    const printed = first.debug && kernelProgram.abi.debug && (await readGpuPrints(gpu, program.name, kernelProgram.abi.debug, first.debug));
    const got = await readOutputs(gpu, first, run.outputs, prepared.dtypes, args);
    trace("read back");
    progress({ phase: "compare", run: run.name, size, message: "Comparing with the reference" });
    const comparison = { ...(await compareWithSource(prepared, got, ctx, provenance)), ...printsOf(printed || undefined) };
    const checked = orderedReport({ ...prepared.base, ...comparison });
    ctx.onChecked(checked);
    // --reps 0: checked, not timed (the timed variant is never compiled).
    if (ctx.reps === 0) return checked;

    progress({ phase: "time", run: run.name, size, message: `Timing ${program.name}` });
    const argSets = [first];
    for (let c = 1; c < timingCopies(args); c++) argSets.push(await uploadArgs(gpu, program, copyArgs(args), `#${c}`, allBuffers));
    const timingOpts = { maxReps: ctx.reps ?? 100, minReps: Math.min(10, ctx.reps ?? 10) };
    // A kernel that prints is timed compiled without its prints and assertions.
    const timing = await timeLaunches(gpu, (specialized ?? program).quiet ?? kernelProgram, grid, argSets, timingOpts);
    const medianS = timing.medianMs / 1e3;
    const { bytes, flops } = prepared;
    const report: RunReport = orderedReport({
      ...prepared.base,
      ...comparison,
      timing,
      gbps: bytes === null || medianS <= 0 ? null : bytes / medianS / 1e9,
      gflops: flops === null || medianS <= 0 ? null : flops / medianS / 1e9,
    });
    if (run.baseline) {
      progress({ phase: "baseline", run: run.name, size, message: `Timing ${run.baseline}` });
      report.baseline = await timeBaseline(gpu, run, program, argSets, args, prepared.expected, timing.medianMs, timingOpts);
    }
    return report;
  } finally {
    for (const b of allBuffers) b.destroy();
  }
}

/** The instrumented variant where the device can bind it (it checks every program), else the corner check and the plain program. */
async function correctnessLaunch(gpu: Gpu, program: CompiledKernel, plain: { abi: CompiledKernel["abi"]; wgsl: string }, prepared: PreparedSize, set: LaunchArgs, ctx: SizeContext, made: GPUBuffer[]): Promise<(() => Promise<StoreProvenance>) | undefined> {
  const instrumented = ctx.instrumented?.(prepared.args);
  if (instrumented && fitsDevice(gpu, instrumented)) {
    const result = await instrumentedLaunch(gpu, instrumented, prepared.grid, set, prepared.args, made, raceExplainer(program, prepared, ctx));
    for (const w of result.warnings) warnRun(ctx, prepared.base.name, w);
    return result.provenance;
  }
  checkCornersOnCpu(program, prepared.grid, prepared.args, prepared.dtypes);
  await launch(gpu, plain, prepared.grid, set);
  return undefined;
}

/** The interpreter on just the two programs the GPU caught racing, from the launch's inputs: their values, in the --cpu wording. */
function raceExplainer(program: CompiledKernel, prepared: PreparedSize, ctx: SizeContext): RaceExplainer {
  const lines = ctx.lines ?? new LineMap("");
  const rerun = (programs: ProgramId[]): RaceRecorder => {
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [k, v] of Object.entries(copyArgs(prepared.args))) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, prepared.dtypes.get(k) as NumDtype);
    const races = new RaceRecorder(program.ir, prepared.grid, lengthsOf(cpuArgs), lines);
    try {
      interpret(program.ir, prepared.grid, cpuArgs, { programs, onAccess: races.onAccess, maxSteps: ctx.maxSteps });
    } catch (err) {
      // Only the race itself is the answer; anything else (the two programs alone loop forever, say) leaves the GPU's account.
      if (err instanceof InterpreterError && err.kind === "race") throw err;
    }
    return races;
  };
  return {
    race(gpu: Race): never {
      rerun([gpu.first.program, gpu.second.program]);
      throw raceError(program.name, gpu, lines);
    },
    hazard(gpu: LoadHazard): Diagnostic[] {
      const found = rerun([gpu.store.program, gpu.load.program]).warnings();
      return found.length > 0 ? found : [hazardWarning(program.name, gpu, lines, program.ir.span)];
    },
  };
}

/** The keys in docs/LANGUAGE.md §4's order, so the JSON reads like the spec; a run with several launches adds `launches`. */
export function orderedReport(r: RunReport): RunReport {
  return {
    name: r.name, kernel: r.kernel, size: r.size, constexprs: r.constexprs, grid: r.grid,
    correct: r.correct, maxAbsDiff: r.maxAbsDiff, maxRelDiff: r.maxRelDiff, mismatches: r.mismatches, firstMismatch: r.firstMismatch,
    ...(r.mismatchMap ? { mismatchMap: r.mismatchMap } : {}),
    timing: r.timing, gbps: r.gbps, gflops: r.gflops, baseline: r.baseline,
    ...(r.launches ? { launches: r.launches } : {}),
    ...(r.prints ? { prints: r.prints, ...(r.printsDropped ? { printsDropped: r.printsDropped } : {}) } : {}),
  };
}


/** A run's warning, named as its errors are ("Run 'name': …"). */
export function warnRun(ctx: SizeContext, run: string, w: Diagnostic): void {
  ctx.warn?.({ ...w, message: `Run '${run}': ${w.message}` });
}

/** Each pointer argument's element count. */
export function lengthsOf(args: Record<string, unknown>): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const [name, value] of Object.entries(args)) if (typeof value === "object" && value !== null && "length" in value) lengths.set(name, (value as ArrayLike<number>).length);
  return lengths;
}

// The engine behind `kernel-lab run`: for each run of a file and each size — grid, fresh
// arguments, reference, poisoned outputs, compile, launch (or interpret with --cpu), read back,
// compare, time, baseline — collected into SPEC §4's FileReport. Nothing here throws at the user:
// every failure becomes a located diagnostic, and the Outcome says which exit code it means.

import { readFileSync } from "node:fs";
import * as path from "node:path";
import { BUILTINS } from "../builtins";
import { DEFAULT_TARGET, type Target } from "../ir/target";
import { compileKernel, parseKernelFile, specializationFor, type CompiledKernel, type KernelSource, type ParsedFile } from "../compile";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { locate, type LocatedDiagnostic } from "../diagnostics/position";
import { interpret, InterpreterError } from "../interpreter/interpret";
import type { NumDtype } from "../ir/ir";
import { isKernelHandle, INT_POISON, type HostArray } from "../language";
import {
  acquireGpu,
  createStorageBuffer,
  GpuError,
  launch,
  NoAdapterError,
  readBuffer,
  timeLaunches,
  type Gpu,
  type LaunchArgs,
} from "../runtime";
import { checkRunDefinition, computeReference, copyArgs, evaluateCount, evaluateGrid, makeArgs, runLimits, type CheckedRun, type KernelArgs } from "./args";
import { RunCodes, RunDefinitionError } from "./codes";
import { compareOutputs, defaultTolerance, type OutputToCompare } from "./compare";
import { fromStorage, paramsLoadedFrom, pointerParams, roundToF16, toStorage } from "./gpu-args";
import { displayPath, loadKernelFile, located, type LoadedRun } from "./load";
import { tune, type CandidateProgram, type TuneContext } from "./autotune";
import type { Progress } from "./protocol";
import { trace } from "./trace";
import type { AdapterReport, BaselineReport, FileReport, Outcome, RunReport, TimingReport } from "./report";

export interface RunOptions {
  /** Only the run of this name. */
  run?: string;
  /** One size instead of the run's first. */
  size?: number;
  /** Every size of each run. */
  sweep?: boolean;
  /** Interpret on the CPU instead of launching on the GPU. */
  cpu?: boolean;
  /** Most timed repetitions per measurement (default 100). */
  reps?: number;
  /** Limit for one size of one run, GPU work included (default 120 s). */
  timeoutMs?: number;
  /** Tune runs with `configs` afresh instead of taking the cached choice (`--retune`). */
  retune?: boolean;
  onProgress?: (progress: Progress) => void;
  /** A run's outputs were compared with its reference; it is timed next (`timing` is still null on the GPU). */
  onRunChecked?: (run: RunReport, adapter: AdapterReport | null) => void;
  /** A run is complete, as it appears in the report's `runs`. */
  onRunDone?: (run: RunReport) => void;
}

export interface FileResult {
  report: FileReport;
  outcome: Outcome;
}

export const CPU_ADAPTER: AdapterReport = {
  vendor: "kernel-lab",
  device: "cpu-interpreter",
  backend: "cpu",
  description: "Kernel Lab's IR interpreter (--cpu)",
};

/** SPEC §4's report of running a file. */
export async function runFile(file: string, opts: RunOptions = {}): Promise<FileReport> {
  return (await runFileWithOutcome(file, opts)).report;
}

export async function runFileWithOutcome(fileArg: string, opts: RunOptions = {}): Promise<FileResult> {
  const absolute = path.resolve(fileArg);
  const file = displayPath(absolute);
  const report: FileReport = { file, adapter: null, diagnostics: [], runs: [] };
  const progress = (p: Progress) => {
    trace(p.message);
    opts.onProgress?.(p);
  };
  const done = (outcome: Outcome): FileResult => ({ report, outcome });
  const finished = (run: RunReport) => {
    report.runs.push(run);
    opts.onRunDone?.(run);
  };
  const onChecked = (run: RunReport) => opts.onRunChecked?.(run, report.adapter);

  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (err) {
    report.diagnostics.push(located(file, RunCodes.bundleFailed, `Cannot read the file: ${(err as Error).message}`));
    return done("failure");
  }

  progress({ phase: "load", message: `Loading ${file}` });
  const parsed = parseKernelFile(file, text);
  trace("parsed");
  const parseErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  if (parseErrors.length > 0) {
    report.diagnostics.push(...locate(file, text, parsed.diagnostics));
    return done("compile-error");
  }

  // esbuild bundles the file in its own process while this one opens the GPU (Dawn's start-up is
  // synchronous work). A GPU failure is reported only once the file is known to be well-formed.
  const bundled = loadKernelFile(absolute);
  let gpuReady: Promise<Gpu> | undefined;
  if (!opts.cpu) {
    progress({ phase: "adapter", message: "Opening the GPU" });
    gpuReady = acquireGpu();
    gpuReady.catch(() => {}); // awaited below
    trace("GPU requested");
  }
  const loaded = await bundled;
  trace("bundled and loaded");
  if (loaded.diagnostics.length > 0) {
    report.diagnostics.push(...loaded.diagnostics);
    return done("failure");
  }
  const at = runLocator(file, text);
  if (loaded.runs.length === 0) {
    report.diagnostics.push(located(file, RunCodes.noRuns, "The file exports no run. Export one: `export const myRun = defineRun({ kernel, sizes, grid, args, outputs, reference })`."));
    return done("failure");
  }
  const names = new Map<string, LoadedRun>();
  for (const run of loaded.runs) {
    const other = names.get(run.name);
    if (other) {
      report.diagnostics.push(at(run, RunCodes.duplicateRun, `Runs '${other.exportName}' and '${run.exportName}' are both named '${run.name}'; give them different names.`));
      return done("failure");
    }
    names.set(run.name, run);
  }
  let runs = loaded.runs;
  if (opts.run !== undefined) {
    runs = runs.filter((r) => r.name === opts.run || r.exportName === opts.run);
    if (runs.length === 0) {
      report.diagnostics.push(located(file, RunCodes.unknownRun, `No run named '${opts.run}' in this file; its runs are: ${loaded.runs.map((r) => r.name).join(", ")}.`));
      return done("failure");
    }
  }
  if (opts.size !== undefined && !(Number.isInteger(opts.size) && opts.size > 0)) {
    report.diagnostics.push(located(file, RunCodes.badSizeOption, `--size must be a positive integer, got ${opts.size}.`));
    return done("failure");
  }

  let gpu: Gpu | undefined;
  let target: Target = DEFAULT_TARGET;
  if (!gpuReady) {
    report.adapter = CPU_ADAPTER;
    // The interpreter has every feature; f16 kernels run on the CPU whatever the GPU offers.
    target = { ...DEFAULT_TARGET, shaderF16: true };
  } else {
    try {
      gpu = await gpuReady;
    } catch (err) {
      report.diagnostics.push(located(file, codeOf(err, "KL4001"), messageOf(err)));
      return done(err instanceof NoAdapterError ? "no-adapter" : "failure");
    }
    trace("GPU ready");
    target = gpu.target;
    const { vendor, device, backend, description } = gpu.adapter;
    report.adapter = { vendor, device, backend, description };
  }

  let compileFailed = false;
  let failed = false;
  const compiled = new Map<string, CompiledKernel>();
  /** Specialised variants (compile.ts specializationFor), compiled once per process. */
  const specializer = (kernel: KernelSource, constexprs: Record<string, number>) => (scalars: Record<string, unknown>) => {
    const specialization = specializationFor(kernel, scalars);
    if (!specialization.ones) return undefined;
    const key = `${kernel.name}:${JSON.stringify(constexprs)}:ones=${specialization.ones.join(",")}`;
    if (!compiled.has(key)) {
      const result = compileKernel(kernel, constexprs, target, specialization);
      if (!result.kernel) return undefined;
      compiled.set(key, result.kernel);
    }
    return compiled.get(key);
  };
  const candidates = new Map<string, CandidateProgram>();
  /** A candidate of the autotuner, compiled once per process; its errors are its own, not the file's. */
  const compileCandidate = (kernel: KernelSource, constexprs: Record<string, number>): CandidateProgram => {
    const key = `${kernel.name}:${JSON.stringify(constexprs)}`;
    let entry = candidates.get(key);
    if (!entry) {
      progress({ phase: "compile", message: `Compiling ${kernel.name} (${Object.entries(constexprs).map(([k, v]) => `${k}=${v}`).join(", ")})` });
      const result = compileKernel(kernel, constexprs, target);
      const ok = result.kernel && !result.diagnostics.some((d) => d.severity === "error");
      entry = ok ? { program: result.kernel as CompiledKernel } : { diagnostics: locate(file, text, result.diagnostics) };
      candidates.set(key, entry);
    }
    return entry;
  };
  /** Tunes one size, then runs the picked constexprs as any run; undefined when no candidate compiles. */
  const tuneAndRun = async (run: CheckedRun, size: number, tuning: TuneContext): Promise<RunReport | undefined> => {
    const tuned = await tune(run, size, tuning);
    const chosen = tuned.picked && tuning.compile(tuned.picked);
    if (!tuned.picked || !chosen || !("program" in chosen)) {
      report.diagnostics.push(...tuned.diagnostics);
      return undefined;
    }
    const result = await runOneSize({ ...run, constexprs: tuned.picked }, chosen.program, size, { gpu, opts, progress, onChecked, specialize: specializer(tuning.source, tuned.picked) });
    result.autotune = tuned.report;
    return result;
  };
  for (const run of runs) {
    try {
      const kernel = resolveKernel(run, loaded.kernels, parsed);
      const defined = checkRunDefinition(run, kernel, new Set(Object.keys(BUILTINS)));
      const sizes = opts.size !== undefined ? [opts.size] : opts.sweep ? defined.sizes : [defined.sizes[0]];
      if (defined.configs && gpu && report.adapter) {
        const tuning: TuneContext = {
          gpu,
          adapter: report.adapter,
          kernelName: kernel.name,
          kernelText: text.slice(kernel.span.start, kernel.span.end),
          compile: (constexprs) => compileCandidate(kernel, constexprs),
          source: kernel,
          retune: opts.retune ?? false,
          reps: opts.reps,
          progress,
        };
        for (const size of sizes) {
          const one = tuneAndRun(defined, size, tuning);
          const result = await withTimeout(one, opts.timeoutMs ?? 120_000, defined.name, size);
          if (!result) {
            compileFailed = true;
            break;
          }
          finished(result);
        }
        continue;
      }
      // Without a GPU to time on (--cpu), a run with configs runs its first one.
      const checked = defined.configs ? { ...defined, constexprs: defined.configs[0] } : defined;
      const key = `${kernel.name}:${JSON.stringify(checked.constexprs)}`;
      let program = compiled.get(key);
      if (!program) {
        progress({ phase: "compile", run: run.name, message: `Compiling ${kernel.name}` });
        const result = compileKernel(kernel, checked.constexprs, target);
        trace("compiled");
        const errors = result.diagnostics.filter((d) => d.severity === "error");
        report.diagnostics.push(...locate(file, text, result.diagnostics));
        if (!result.kernel || errors.length > 0) {
          compileFailed = true;
          continue;
        }
        program = result.kernel;
        compiled.set(key, program);
      }
      for (const size of sizes) {
        const one = runOneSize(checked, program, size, { gpu, opts, progress, onChecked, specialize: specializer(kernel, checked.constexprs) });
        finished(await withTimeout(one, opts.timeoutMs ?? 120_000, checked.name, size));
      }
    } catch (err) {
      failed = true;
      report.diagnostics.push(diagnosticOf(err, run, file, text, at));
    }
  }
  if (compileFailed) return done("compile-error");
  if (failed) return done("failure");
  return done(report.runs.every((r) => r.correct) ? "ok" : "mismatch");
}

/** The kernel a run names: by name among the kernels the compiler found, else by creation order. */
function resolveKernel(run: LoadedRun, made: readonly { name: string; ordinal: number }[], parsed: ParsedFile): KernelSource {
  const handle = run.definition.kernel;
  if (!isKernelHandle(handle)) {
    throw new RunDefinitionError(RunCodes.notAKernel, `Run '${run.name}', \`kernel\`: must be a value made by kernel(...) in this file; got ${describe(handle)}.`, run.name);
  }
  const byName = parsed.kernels.find((k) => k.name === handle.name);
  const byOrder = made.length === parsed.kernels.length ? parsed.kernels[made.findIndex((k) => k === handle)] : undefined;
  const kernel = (handle.name ? byName : undefined) ?? byOrder;
  if (!kernel) {
    throw new RunDefinitionError(
      RunCodes.kernelNotInFile,
      `Run '${run.name}', \`kernel\`: kernel '${handle.name || "(anonymous)"}' is not defined in this file (found: ${parsed.kernels.map((k) => k.name).join(", ") || "none"}). Define the kernel with kernel(...) in the file that runs it.`,
      run.name,
    );
  }
  return kernel;
}

interface SizeContext {
  gpu: Gpu | undefined;
  opts: RunOptions;
  progress: (p: Progress) => void;
  onChecked: (run: RunReport) => void;
  /** The program specialised for this launch's scalar arguments (compile.ts specializationFor), if it differs. */
  specialize?: (scalars: Record<string, unknown>) => CompiledKernel | undefined;
}

async function runOneSize(run: CheckedRun, program: CompiledKernel, size: number, ctx: SizeContext): Promise<RunReport> {
  const { gpu, opts, progress } = ctx;
  const kernel = { name: program.name, params: program.params };
  const limits = gpu && runLimits(gpu.limits);
  const grid = evaluateGrid(run, size, limits);
  const args = makeArgs(run, kernel, size, limits);
  // f16 data is rounded to half precision on the way to the kernel; the reference sees the same values.
  for (const p of pointerParams(program.params)) {
    if (p.dtype === "f16") roundToF16(args[p.name] as HostArray);
  }
  const expected = computeReference(run, args, size);
  trace("reference computed");
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);

  // Outputs the kernel never reads start as poison, so an element it never writes is caught.
  const read = paramsLoadedFrom(program.ir);
  for (const o of run.outputs) {
    if (!read.has(o)) poisonArray(args[o] as HostArray);
  }

  const dtypes = new Map(pointerParams(program.params).map((p) => [p.name, p.dtype] as const));
  const base: Omit<RunReport, "correct" | "maxAbsDiff" | "maxRelDiff" | "mismatches" | "firstMismatch"> = {
    name: run.name,
    kernel: program.name,
    size,
    constexprs: { ...run.constexprs },
    grid,
    timing: null,
    gbps: null,
    gflops: null,
    baseline: null,
  };
  const compare = (got: Map<string, ArrayLike<number>>) =>
    compareOutputs(
      run.outputs.map((o): OutputToCompare => {
        const dtype = dtypes.get(o) as NumDtype;
        return { name: o, got: got.get(o) as ArrayLike<number>, expected: expected[o], tolerance: { ...defaultTolerance(dtype), ...run.tolerance } };
      }),
    );

  if (!gpu) {
    progress({ phase: "launch", run: run.name, size, message: `Interpreting ${program.name} on the CPU (size ${size})` });
    const cpuArgs: Record<string, HostArray | Uint16Array | number> = {};
    for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as NumDtype);
    const started = performance.now();
    interpret(program.ir, grid, cpuArgs);
    const ms = performance.now() - started;
    const got = new Map(run.outputs.map((o) => [o, fromStorage(cpuArgs[o] as HostArray, dtypes.get(o) as NumDtype)] as const));
    progress({ phase: "compare", run: run.name, size, message: "Comparing with the reference" });
    const timing: TimingReport = { medianMs: ms, minMs: ms, maxMs: ms, reps: 1, source: "cpu-wall-clock" };
    const result = ordered({ ...base, ...compare(got), timing });
    ctx.onChecked(result);
    return result;
  }

  checkCornersOnCpu(program, grid, args, dtypes);

  // Integer scalars equal to 1 (unit strides) compile as constants on the GPU, as in Triton.
  const specialized = gpu ? ctx.specialize?.(args) : undefined;
  const kernelProgram = specialized ? { abi: specialized.abi, wgsl: specialized.wgsl } : { abi: program.abi, wgsl: program.wgsl };
  const allBuffers: GPUBuffer[] = [];
  try {
    const upload = async (values: KernelArgs, copy: number): Promise<LaunchArgs> => {
      const buffers: Record<string, GPUBuffer> = {};
      const scalars: Record<string, number> = {};
      for (const p of program.params) {
        const v = values[p.name];
        if (p.kind === "pointer") {
          const buffer = await createStorageBuffer(gpu, toStorage(v as HostArray, p.dtype), `${program.name}.${p.name}${copy ? `#${copy}` : ""}`);
          allBuffers.push(buffer);
          buffers[p.name] = buffer;
        } else if (p.kind === "scalar") {
          scalars[p.name] = v as number;
        }
      }
      return { buffers, scalars };
    };

    progress({ phase: "launch", run: run.name, size, message: `Launching ${program.name} (size ${size}, grid [${grid.join(", ")}])` });
    const first = await upload(args, 0);
    await launch(gpu, kernelProgram, grid, first);
    trace("launched");
    const got = new Map<string, ArrayLike<number>>();
    for (const o of run.outputs) {
      const dtype = dtypes.get(o) as NumDtype;
      const raw = await readBuffer(gpu, first.buffers[o], dtype, (args[o] as HostArray).length);
      got.set(o, fromStorage(raw, dtype));
    }
    trace("read back");
    progress({ phase: "compare", run: run.name, size, message: "Comparing with the reference" });
    const comparison = compare(got);
    ctx.onChecked(ordered({ ...base, ...comparison }));

    // Rotate over several copies of the inputs so a small problem is not timed from a warm cache.
    progress({ phase: "time", run: run.name, size, message: `Timing ${program.name}` });
    const argBytes = Object.values(args).reduce<number>((n, v) => n + (typeof v === "number" ? 0 : v.byteLength), 0);
    const copies = Math.max(1, Math.min(4, Math.floor((256 * 2 ** 20) / Math.max(1, argBytes))));
    const argSets = [first];
    for (let c = 1; c < copies; c++) argSets.push(await upload(copyArgs(args), c));
    const timingOpts = { maxReps: opts.reps ?? 100, minReps: Math.min(10, opts.reps ?? 10) };
    const timing = await timeLaunches(gpu, kernelProgram, grid, argSets, timingOpts);
    const medianS = timing.medianMs / 1e3;
    const report: RunReport = ordered({
      ...base,
      ...comparison,
      timing,
      gbps: bytes === null || medianS <= 0 ? null : bytes / medianS / 1e9,
      gflops: flops === null || medianS <= 0 ? null : flops / medianS / 1e9,
    });

    if (run.baseline) {
      progress({ phase: "baseline", run: run.name, size, message: `Timing ${run.baseline}` });
      report.baseline = await timeBaseline(gpu, run, program, argSets, args, expected, timing.medianMs, timingOpts);
    }
    return report;
  } finally {
    for (const b of allBuffers) b.destroy();
  }
}

/**
 * Times the run's baseline on the same buffers: its inputs are the run's pointer inputs in
 * parameter order, its output the run's first output. Checks the baseline against the reference too.
 */
async function timeBaseline(
  gpu: Gpu,
  run: CheckedRun,
  program: CompiledKernel,
  argSets: LaunchArgs[],
  args: KernelArgs,
  expected: Record<string, ArrayLike<number>>,
  kernelMedianMs: number,
  timingOpts: { maxReps: number; minReps: number },
): Promise<BaselineReport> {
  const name = run.baseline as string;
  const builtin = BUILTINS[name];
  const output = run.outputs[0];
  const inputs = pointerParams(program.params).filter((p) => !run.outputs.includes(p.name));
  const bad = (why: string) => new RunDefinitionError(RunCodes.badBaseline, `Run '${run.name}', \`baseline\`: ${why}`, run.name);
  if (inputs.length < builtin.arity) {
    throw bad(`${name} takes ${builtin.arity} input array(s), but the kernel has ${inputs.length} pointer input(s) besides its outputs.`);
  }
  const used = [...inputs.slice(0, builtin.arity).map((p) => p.name), output];
  for (const p of used) {
    if (!(args[p] instanceof Float32Array) || pointerParams(program.params).find((q) => q.name === p)?.dtype !== "f32") {
      throw bad(`${name} works on f32 arrays, but '${p}' is not one.`);
    }
  }
  const n = (args[output] as HostArray).length;
  for (const p of used) {
    if ((args[p] as HostArray).length < n) throw bad(`'${p}' has fewer elements than the output '${output}' (${n}).`);
  }
  const bind = (set: LaunchArgs): LaunchArgs => ({
    buffers: { a: set.buffers[used[0]], ...(builtin.arity === 2 ? { b: set.buffers[used[1]] } : {}), out: set.buffers[output] },
    scalars: { n },
  });
  const baselineProgram = builtin.program(n);
  const grid = builtin.grid(n);
  // The kernel's timing has just kept the GPU busy, so its clocks are up: the baseline needs its
  // few warm-up launches (pipeline, caches) but not the 200 ms that brings an idle GPU up to speed.
  const timing = await timeLaunches(gpu, baselineProgram, grid, argSets.map(bind), { ...timingOpts, warmupMs: 0 });

  // Whether the baseline computes what the reference expects (a mismatch means the comparison is apples to oranges).
  await launch(gpu, baselineProgram, grid, bind(argSets[0]));
  const got = await readBuffer(gpu, argSets[0].buffers[output], "f32", n);
  const check = compareOutputs([{ name: output, got, expected: expected[output], tolerance: { ...defaultTolerance("f32"), ...run.tolerance } }]);
  return {
    name,
    medianMs: timing.medianMs,
    speedup: timing.medianMs / kernelMedianMs,
    ...(check.correct ? {} : { matchesReference: false }),
  };
}

/** The keys in SPEC §4's order, so the JSON reads like the spec. */
function ordered(r: RunReport): RunReport {
  return {
    name: r.name, kernel: r.kernel, size: r.size, constexprs: r.constexprs, grid: r.grid,
    correct: r.correct, maxAbsDiff: r.maxAbsDiff, maxRelDiff: r.maxRelDiff, mismatches: r.mismatches, firstMismatch: r.firstMismatch,
    timing: r.timing, gbps: r.gbps, gflops: r.gflops, baseline: r.baseline,
  };
}

function poisonArray(a: HostArray): void {
  a.fill(a instanceof Float32Array ? NaN : INT_POISON);
}

function withTimeout<T>(work: Promise<T>, ms: number, run: string, size: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RunDefinitionError(RunCodes.timeout, `Run '${run}' (size ${size}) did not finish within ${ms / 1000} s. Use a smaller size, or check the kernel's loops.`, run)),
      ms,
    );
    timer.unref();
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** Diagnostics about a run point at its `export const NAME` (or its defineRun call). */
function runLocator(file: string, text: string) {
  return (run: LoadedRun, code: string, message: string): LocatedDiagnostic => {
    const escaped = run.exportName.replace(/[$]/g, "\\$");
    const match = new RegExp(`export\\s+(?:const|let|var)\\s+(${escaped})\\b`).exec(text);
    const start = match ? match.index + match[0].length - run.exportName.length : Math.max(0, text.indexOf("defineRun"));
    const span = { start, end: start + (match ? run.exportName.length : "defineRun".length) };
    const d: Diagnostic = { code: code as Diagnostic["code"], severity: "error", message, span };
    return locate(file, text, [d])[0];
  };
}

/**
 * The GPU clamps out-of-bounds accesses silently (robust buffer access), so an unmasked tail or an
 * array shorter than the kernel reads would pass there. The interpreter doesn't: running the
 * corner programs of the grid on the CPU first reports such an access at its tl.load/tl.store.
 * A corner program too long to interpret quickly is skipped (the step limit), not reported.
 */
function checkCornersOnCpu(program: CompiledKernel, grid: [number, number, number], args: KernelArgs, dtypes: Map<string, NumDtype>): void {
  const [gx, gy, gz] = grid;
  const corners: [number, number, number][] = [[0, 0, 0], [gx - 1, 0, 0], [0, gy - 1, 0], [gx - 1, gy - 1, gz - 1]];
  const unique = corners.filter((c, i) => corners.findIndex((d) => d.join() === c.join()) === i);
  const cpuArgs: Record<string, HostArray | Uint16Array | number> = {};
  for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as NumDtype).slice();
  try {
    interpret(program.ir, grid, cpuArgs, { programs: unique, maxSteps: 2e7 });
  } catch (err) {
    if (err instanceof InterpreterError && err.kind === "out-of-bounds") throw err;
  }
}

function diagnosticOf(err: unknown, run: LoadedRun, file: string, text: string, at: ReturnType<typeof runLocator>): LocatedDiagnostic {
  if (process.env.KERNEL_LAB_DEBUG && err instanceof Error) console.error(err.stack);
  if (err instanceof RunDefinitionError) return at(run, err.code, err.message);
  if (err instanceof InterpreterError) {
    return locate(file, text, [{ ...err.toDiagnostic(), message: `Run '${run.name}': ${err.message}` }])[0];
  }
  if (err instanceof GpuError) return at(run, err.code, `Run '${run.name}': ${err.message}`);
  return at(run, codeOf(err, "KL9300"), `Run '${run.name}': internal error: ${messageOf(err)}. This is a bug in Kernel Lab; run with --debug for details.`);
}

function codeOf(err: unknown, fallback: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^KL\d+$/.test(code) ? code : fallback;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function describe(x: unknown): string {
  return x === undefined ? "undefined" : x === null ? "null" : typeof x === "object" ? "an object" : typeof x;
}


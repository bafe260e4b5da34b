// @triton.autotune with `--tune-codegen`: each config crossed with the code generator's knobs its
// kernel uses at that config (the same settings the .kernel.ts autotuner tries:
// autotune/knob-candidates.ts), on copies of the launch's tensors, so tuning never changes the
// script's own tensors (`restore_value` is thus honoured; `reset_to_zero`'s tensors are zeroed in
// the copies, so the reference and each candidate's checked run start from zeros as Triton's timed
// runs do; the timed repetitions then add into their copies, of which only the time is kept). Per
// config the reference is the launch the script makes without the flag: the default knobs, run
// checked (bounds-checked variant) by the device's executor. Every setting's program, as it will
// be launched (specialised for the launch's scalars), runs on fresh copies and is compared with
// that reference before it is timed; settings that emit the same WGSL are one candidate. The
// fastest correct one is picked and kept in the autotune cache (autotune-cache.ts) per kernel,
// configs, key values, adapter and compiler build: a later run launches it without tuning. The
// table goes into the report (`autotune`), as a run's does.

import { kernelKnobs } from "../../compile";
import { f16FromBits } from "../../ir/f16";
import { formatKnobs, isKnobSetting, type KnobSetting } from "../../ir/knobs";
import type { CodegenOptions, Target } from "../../ir/target";
import { createStorageBuffer, GpuError, launch, readBuffer, type Gpu, type KernelProgram, type StorageArray } from "../../runtime";
import { lookupChoice, storeChoice, tuningKey } from "../autotune/autotune-cache";
import { knobSettings } from "../autotune/knob-candidates";
import { sameConstexprs } from "../autotune/autotune";
import { adapterLabel } from "../cache-location";
import { compareOutputs, EXACT } from "../run/compare";
import type { AdapterReport, AutotuneCandidate } from "../report";
import type { Executor } from "../run/executor";
import { timeSequence } from "../timing/time-sequence";
import type { BoundArgs, Program } from "./program";
import type { AutotuneRequest, BenchMode, LaunchRequest, TensorStorage } from "./protocol";
import type { PythonAutotuneReport, PythonFileReport } from "./report";
import { elementDtype, type ResidentBuffers } from "./resident";

/** What the tuner needs of the run's launcher (launch.ts). */
export interface TuneAccess {
  gpu: Gpu;
  executor: Executor;
  adapter: AdapterReport;
  target: Target;
  codegen: CodegenOptions;
  retune: boolean;
  bench: BenchMode;
  /** The script's text: an edited script is tuned afresh. */
  scriptText: string;
  resident: ResidentBuffers;
  report: PythonFileReport;
  bind: (request: LaunchRequest) => BoundArgs | { error: string };
  compile: (request: LaunchRequest, bound: BoundArgs, variant: "plain" | "specialised" | "instrumented", codegen?: KnobSetting) => Program | string;
}

/** The picked config (its index in the request) and knobs. */
export interface TuneChoice {
  index: number;
  codegen: KnobSetting;
}

/** A config's constexprs and options as numbers, the table's columns; undefined where one is not a number (such a tuning is not cached). */
function numbersOf(request: LaunchRequest): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  for (const a of request.args) {
    if (a.kind !== "constexpr") continue;
    if (typeof a.value !== "number") return undefined;
    out[a.name] = a.value;
  }
  return { ...out, ...request.options };
}

/**
 * The tuning's key in the on-disk cache: the kernel, the key's values as Python writes them and, as
 * Triton keys its autotuner, every tensor argument's dtype (a float16 tensor that is not one of the
 * `key` arguments would otherwise launch a pick compiled and checked for float32), with the configs,
 * the script's text and the adapter.
 */
export function autotuneCacheKey(request: AutotuneRequest, columns: readonly Record<string, number>[], scriptText: string, adapter: AdapterReport): string {
  const dtypes = (request.configs[0]?.args ?? []).flatMap((a) => (a.kind === "tensor" ? [`${a.name}:${a.dtype}`] : []));
  return tuningKey({ kernelText: scriptText, run: `${request.kernel} key=${request.key} dtypes=${dtypes.join(",")}`, candidates: columns, adapter, size: 0, knobs: true });
}

/** Quick benchmarks (a software adapter's default) time each candidate for a quarter as long. */
function timing(bench: BenchMode, first: boolean): { maxReps: number; minReps: number; budgetMs: number; warmupMs: number } {
  return bench === "quick" ? { maxReps: 20, minReps: 3, budgetMs: 50, warmupMs: first ? 50 : 20 } : { maxReps: 50, minReps: 5, budgetMs: 200, warmupMs: first ? 200 : 100 };
}

export async function tuneLaunch(request: AutotuneRequest, access: TuneAccess): Promise<TuneChoice | null> {
  const configs = request.configs;
  const columns = configs.map((c, i) => numbersOf(c) ?? { config: i });
  const cacheable = configs.every((c) => numbersOf(c) !== undefined);
  const key = autotuneCacheKey(request, columns, access.scriptText, access.adapter);
  const entry = (fields: Omit<PythonAutotuneReport, "kernel" | "line" | "key">): PythonAutotuneReport => ({ kernel: request.kernel, line: request.callLine, key: request.key, ...fields });

  const cached = cacheable && !access.retune ? lookupChoice(key) : undefined;
  const cachedIndex = cached ? columns.findIndex((c) => sameConstexprs(c, cached.picked)) : -1;
  if (cached && cachedIndex >= 0 && isKnobSetting(cached.codegen)) {
    const candidates = cached.candidates.map((c): AutotuneCandidate => ({ constexprs: c.constexprs, medianMs: c.medianMs, gbps: null, gflops: null, correct: c.correct, ...(c.note ? { note: c.note } : {}), ...(c.codegen ? { codegen: c.codegen } : {}) }));
    (access.report.autotune ??= []).push(entry({ picked: cached.picked, cached: true, candidates, codegen: cached.codegen, ...(cached.identical !== undefined ? { identical: cached.identical } : {}) }));
    return { index: cachedIndex, codegen: cached.codegen };
  }

  const candidates: AutotuneCandidate[] = [];
  const tried: TuneChoice[] = [];
  let identical = 0;
  let timed = 0;
  let inputs: Map<string, TensorStorage> | undefined;
  for (const [index, config] of configs.entries()) {
    const constexprs = columns[index];
    const note = (codegen: KnobSetting, why: string) => candidates.push({ constexprs, medianMs: null, gbps: null, gflops: null, correct: false, note: why, codegen });
    const bound = access.bind(config);
    if ("error" in bound) return null;
    const plain = access.compile(config, bound, "plain");
    if (typeof plain === "string") {
      note({}, `does not compile: ${plain.split("\n")[0]}`);
      continue;
    }
    // Every config takes the same tensors: their elements are read (from the GPU where newer) once.
    inputs ??= zeroed(await currentInputs(access, bound), request.resetToZero ?? []);
    let reference: Map<string, ArrayLike<number>>;
    try {
      reference = await checkedLaunch(access, config, bound, inputs, plain);
    } catch (err) {
      note({}, `the checked launch failed: ${(err as Error).message}`);
      continue;
    }
    const numbers = Object.fromEntries(Object.entries(bound.constexprs).filter((e): e is [string, number] => typeof e[1] === "number"));
    const choices = plain.source ? kernelKnobs(plain.source, numbers, plain.kernel, access.target, access.codegen) : [];
    const emitted = new Set<string>();
    for (const codegen of knobSettings(choices, true)) {
      const compiled = access.compile(config, bound, "specialised", codegen);
      if (typeof compiled === "string") {
        note(codegen, `does not compile: ${compiled.split("\n")[0]}`);
        continue;
      }
      const program = compiled.kernel.quiet ?? compiled.kernel;
      if (emitted.has(program.wgsl)) {
        identical++;
        continue;
      }
      emitted.add(program.wgsl);
      try {
        const outcome = await checkThenTime(access, program, config, bound, inputs, reference, timed === 0);
        if (outcome.medianMs !== null) timed++;
        candidates.push({ constexprs, gbps: null, gflops: null, ...outcome, codegen });
        tried.push({ index, codegen });
      } catch (err) {
        if (!(err instanceof GpuError)) throw err;
        note(codegen, `GPU error: ${err.message}`);
      }
    }
  }

  const fastest = candidates.filter((c) => c.correct && c.medianMs !== null).sort((a, b) => (a.medianMs as number) - (b.medianMs as number))[0];
  // No correct candidate: the first config with the default knobs, whose launch then reports what is wrong as any launch does.
  const choice: TuneChoice = fastest ? tried.find((t) => sameConstexprs(columns[t.index], fastest.constexprs) && formatKnobs(t.codegen) === formatKnobs(fastest.codegen ?? {}))! : { index: 0, codegen: {} };
  const picked = columns[choice.index];
  (access.report.autotune ??= []).push(entry({ picked, cached: false, candidates, codegen: choice.codegen, identical }));
  if (fastest && cacheable) {
    storeChoice(key, {
      run: request.kernel, kernel: request.kernel, size: 0, adapter: adapterLabel(access.adapter), picked, codegen: choice.codegen, identical,
      candidates: candidates.map(({ constexprs, medianMs, correct, note, codegen }) => ({ constexprs, medianMs, correct, ...(note ? { note } : {}), ...(codegen ? { codegen } : {}) })),
      date: new Date().toISOString(),
    });
  }
  return choice;
}

/** Each tensor argument's elements now: a GPU tensor's buffer read back where it holds the newer ones. */
async function currentInputs(access: TuneAccess, bound: BoundArgs): Promise<Map<string, TensorStorage>> {
  const inputs = new Map<string, TensorStorage>();
  for (const [name, arg] of bound.tensors) {
    if (arg.storage !== undefined && arg.upload === false) {
      const copy = arg.data.slice() as TensorStorage;
      await access.resident.download(access.gpu, arg.storage, copy);
      inputs.set(name, copy);
    } else {
      inputs.set(name, arg.data.slice() as TensorStorage);
    }
  }
  return inputs;
}

/** reset_to_zero's tensors zeroed in the copies (as Triton zeroes them before each timed run), so the reference and every candidate start from zeros. */
function zeroed(inputs: Map<string, TensorStorage>, names: readonly string[]): Map<string, TensorStorage> {
  for (const name of names) inputs.get(name)?.fill(0);
  return inputs;
}

/** The reference: the launch as the script makes it without --tune-codegen (default knobs, bounds-checked), on copies. */
async function checkedLaunch(access: TuneAccess, config: LaunchRequest, bound: BoundArgs, inputs: Map<string, TensorStorage>, plain: Program): Promise<Map<string, ArrayLike<number>>> {
  const arrays = new Map([...inputs].map(([name, data]) => [name, { data: data.slice() as StorageArray }] as const));
  const variant = (which: "specialised" | "instrumented") => {
    const compiled = access.compile(config, bound, which);
    return typeof compiled === "string" ? undefined : compiled.kernel;
  };
  await access.executor.launchInPlace({ program: plain.kernel, variant, grid: config.grid, scalars: bound.scalars, arrays }, access.resident);
  return new Map([...arrays].map(([name, a]) => [name, a.data]));
}

/** A candidate on fresh copies: its outputs compared with the reference, then (where they match) timed on the same buffers. */
async function checkThenTime(
  access: TuneAccess, program: KernelProgram, config: LaunchRequest, bound: BoundArgs, inputs: Map<string, TensorStorage>, reference: Map<string, ArrayLike<number>>, first: boolean,
): Promise<Pick<AutotuneCandidate, "medianMs" | "correct" | "note">> {
  const { gpu } = access;
  const buffers: Record<string, GPUBuffer> = {};
  try {
    for (const [name, data] of inputs) buffers[name] = await createStorageBuffer(gpu, data.slice() as StorageArray, `autotune.${config.kernel}.${name}`);
    const args = { buffers, scalars: bound.scalars };
    await launch(gpu, program, config.grid, args);
    for (const [name, data] of inputs) {
      const got = await readBuffer(gpu, buffers[name], elementDtype(data), data.length);
      const differs = firstDifference(got, reference.get(name)!, elementDtype(data));
      if (differs !== undefined) return { medianMs: null, correct: false, note: `does not match the default knobs' checked launch: ${name}[${differs.index}] = ${differs.got}, expected ${differs.want}` };
    }
    const measured = await timeSequence(gpu, [[{ program, grid: config.grid, args }]], `autotune ${config.kernel}`, timing(access.bench, first));
    return { medianMs: measured.source === "cpu-wall-clock" ? null : measured.medianMs, correct: true };
  } finally {
    for (const b of Object.values(buffers)) b.destroy();
  }
}

/** The first element outside the tolerance (f16 and bf16 compared as their values; f32 loosely, integers exactly), or undefined. */
export function firstDifference(got: ArrayLike<number>, want: ArrayLike<number>, dtype: "f32" | "f16" | "i32" | string): { index: number; got: number; want: number } | undefined {
  const tolerance = dtype === "f16" ? { rtol: 1e-3, atol: 1e-3 } : dtype === "f32" ? { rtol: 1e-4, atol: 1e-5 } : EXACT;
  const values = (x: ArrayLike<number>) => (dtype === "f16" ? Float64Array.from(x, f16FromBits) : x);
  const { firstMismatch } = compareOutputs([{ name: "", got: values(got), expected: values(want), tolerance }]);
  return firstMismatch ? { index: firstMismatch.index, got: firstMismatch.got, want: firstMismatch.expected } : undefined;
}

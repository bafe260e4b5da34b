// Every size of one run: the kernel it names (or each launch's), its definition checked, then per
// size either the autotuner (a run with `configs`, on the GPU: each candidate through run-size.ts
// too) and the picked constexprs, or the run's program(s); each size then goes through
// run-size.ts on the device's executor.

import { BUILTINS } from "../../builtins";
import type { CompiledKernel, KernelSource } from "../../compile";
import { checkRunDefinition, checkSharedFields, type CheckedRun } from "./args";
import { tune, type TuneContext } from "../autotune/autotune";
import type { KnobRequest } from "../autotune/knob-candidates";
import type { KnobSetting } from "../../ir/knobs";
import { checkLaunchRunDefinition, hasLaunches } from "./launches";
import { prepareLaunches, prepareOneLaunch, type LaunchProgram, type PreparedSize } from "./prepare";
import type { LoadedRun } from "../load/load";
import type { RunReport } from "../report";
import type { FileSession } from "../session";
import type { SizeContext } from "./executor";
import { runOneSize } from "./run-size";
import { LineMap } from "../../diagnostics/position";
import { warnFor } from "./to-diagnostics";
import { resolveKernel } from "./resolve-runs";
import { withConstexprOverrides } from "./constexpr-overrides";
import { atSize, hasSizeConstexprs, sizesToRun } from "./size-constexprs";
import { DEFAULT_TIMEOUT_MS, withTimeout } from "./timeout";

/** "compile-error" when the run's program (or every candidate) did not compile; other failures are thrown. */
export async function runEverySize(given: LoadedRun, s: FileSession): Promise<"ran" | "compile-error"> {
  if (!hasSizeConstexprs(given)) return runSizes(given, s);
  // Constexprs that are a function of the size: the run evaluated for each size, then run as any;
  // a size whose set was compiled before takes that program (KernelPrograms).
  const { sizes } = checkSharedFields(given.name, given.definition as unknown as Record<string, unknown>);
  for (const size of sizesToRun(sizes, s.opts)) {
    if ((await runSizes(atSize(given, size), s, [size])) === "compile-error") return "compile-error";
  }
  return "ran";
}

/** The run's sizes (or `only`), its constexprs values. */
async function runSizes(given: LoadedRun, s: FileSession, only?: number[]): Promise<"ran" | "compile-error"> {
  if (hasLaunches(given)) return runLaunches(given, s, only);
  const loaded = s.opts.constexprs ? withConstexprOverrides(given, s.opts.constexprs) : given;
  const kernel = resolveKernel(loaded, s.kernels, s.parsed);
  const defined = checkRunDefinition(loaded, kernel, new Set(Object.keys(BUILTINS)));
  const sizes = only ?? sizesToRun(defined.sizes, s.opts);
  const knobs = knobRequest(defined, s);
  if ((defined.configs || knobs) && s.device.gpu && s.opts.reps !== 0) return tuneEverySize(defined, kernel, sizes, s, knobs);
  // Without a GPU to time on (--cpu), or nothing to time (--reps 0), a run with configs runs its first one.
  const checked = defined.configs ? { ...defined, constexprs: defined.configs[0] } : defined;
  const { program, diagnostics } = s.programs.forRun(kernel, checked.constexprs, loaded.name);
  s.diagnose(diagnostics);
  if (!program) return "compile-error";
  const launch = launchProgram(s, kernel, checked.constexprs, program);
  for (const size of sizes) {
    await s.finished(await withTimeout(runSize(s, () => prepareOneLaunch(checked, launch, size, s.device.executor.limits), checked), s.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, checked.name, size));
  }
  return "ran";
}

/** A run with `launches`: every launch's program, then each size as a sequence. */
async function runLaunches(loaded: LoadedRun, s: FileSession, only?: number[]): Promise<"ran" | "compile-error"> {
  const run = checkLaunchRunDefinition(loaded, s.kernels, s.parsed);
  const sizes = only ?? sizesToRun(run.sizes, s.opts);
  const launches: LaunchProgram[] = [];
  for (const launch of run.launches) {
    const { program, diagnostics } = s.programs.forRun(launch.kernel, launch.constexprs, loaded.name);
    s.diagnose(diagnostics);
    if (!program) return "compile-error";
    // The instrumented variant checks a run of one launch; a sequence is checked by its corner programs.
    launches.push({ program, specialize: s.programs.specializer(launch.kernel, launch.constexprs) });
  }
  for (const size of sizes) {
    await s.finished(await withTimeout(runSize(s, () => prepareLaunches(run, launches, size, s.device.executor.limits)), s.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, run.name, size));
  }
  return "ran";
}

/** Which code-generation knobs the autotuner tries for a run: its `tuneCodegen`, else all with `--tune-codegen`; undefined for none. */
function knobRequest(run: CheckedRun, s: FileSession): KnobRequest | undefined {
  if (run.tuneCodegen === false) return undefined;
  return run.tuneCodegen ?? (s.opts.tuneCodegen ? true : undefined);
}

async function tuneEverySize(run: CheckedRun, kernel: KernelSource, sizes: number[], s: FileSession, knobs?: KnobRequest): Promise<"ran" | "compile-error"> {
  const tuning: TuneContext = {
    executor: s.device.executor,
    adapter: s.device.adapter,
    kernelName: kernel.name,
    kernelText: s.text.slice(kernel.span.start, kernel.span.end),
    compile: (constexprs, codegen) => s.programs.candidate(kernel, constexprs, codegen),
    specialize: (constexprs, args, codegen) => s.programs.specializer(kernel, constexprs, codegen)(args),
    ...(knobs ? { knobs: { request: knobs, of: (constexprs: Record<string, number>, program: CompiledKernel) => s.programs.knobsOf(kernel, constexprs, program) } } : {}),
    source: kernel,
    retune: s.opts.retune ?? false,
    reps: s.opts.reps,
    progress: s.progress,
  };
  for (const size of sizes) {
    const result = await withTimeout(tuneAndRun(run, size, tuning, s), s.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, run.name, size);
    if (!result) return "compile-error";
    await s.finished(result);
  }
  return "ran";
}

/** Tunes one size, then runs the picked constexprs as any run; undefined when no candidate compiles. */
async function tuneAndRun(run: CheckedRun, size: number, tuning: TuneContext, s: FileSession): Promise<RunReport | undefined> {
  const tuned = await tune(run, size, tuning);
  const chosen = tuned.picked && tuning.compile(tuned.picked, tuned.codegen);
  if (!tuned.picked || !chosen || !("program" in chosen)) {
    s.diagnose(tuned.diagnostics);
    return undefined;
  }
  const picked = { ...run, constexprs: tuned.picked };
  const launch = launchProgram(s, tuning.source, tuned.picked, chosen.program, tuned.codegen);
  const result = await runSize(s, () => prepareOneLaunch(picked, launch, size, s.device.executor.limits), picked);
  result.autotune = tuned.report;
  return result;
}

/** A kernel's program for a set of constexprs (and the autotuner's knobs), with its specialised and instrumented variants. */
function launchProgram(s: FileSession, kernel: KernelSource, constexprs: Record<string, number>, program: CompiledKernel, codegen?: KnobSetting): LaunchProgram {
  return { program, specialize: s.programs.specializer(kernel, constexprs, codegen), instrumented: s.programs.instrumented(kernel, constexprs, codegen) };
}

/** One size, prepared inside the size's time limit (an endless `args` or `reference` is a timeout too). */
async function runSize(s: FileSession, prepare: () => PreparedSize, run?: CheckedRun): Promise<RunReport> {
  const ctx: SizeContext = {
    reps: s.opts.reps, maxSteps: s.opts.maxSteps, progress: s.progress, onChecked: s.onChecked,
    lines: new LineMap(s.text),
    warn: warnFor(s),
    ...(s.opts.program ? { program: s.opts.program } : {}),
    ...(s.opts.accessMaps ? { accessMaps: true } : {}),
    ...(s.opts.accessMaps ? { accessMaps: true } : {}),
  };
  return runOneSize(prepare(), s.device.executor, ctx, run);
}

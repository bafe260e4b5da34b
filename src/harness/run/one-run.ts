// Every size of one run: the kernel it names, its definition checked, then per size either the
// autotuner (a run with `configs`, on the GPU) and the picked constexprs, or the run's one program.

import { BUILTINS } from "../../builtins";
import type { KernelSource, ParsedFile } from "../../compile";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import type { Gpu } from "../../runtime";
import { checkRunDefinition, checkSharedFields, type CheckedRun } from "./args";
import { tune, type TuneContext } from "../autotune/autotune";
import { hasLaunches } from "./launches";
import { runLaunchesEverySize } from "./run-launches";
import type { LoadedRun } from "../load/load";
import type { Device } from "./open-device";
import type { KernelPrograms } from "./programs";
import type { RunReport } from "../report";
import type { FileSession } from "../session";
import { runOneSize, type SizeContext } from "./run-size";
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
  if (hasLaunches(given)) return runLaunchesEverySize(given, s, only);
  const loaded = s.opts.constexprs ? withConstexprOverrides(given, s.opts.constexprs) : given;
  const kernel = resolveKernel(loaded, s.kernels, s.parsed);
  const defined = checkRunDefinition(loaded, kernel, new Set(Object.keys(BUILTINS)));
  const sizes = only ?? sizesToRun(defined.sizes, s.opts);
  if (defined.configs && s.device.gpu && s.opts.reps !== 0) return tuneEverySize(defined, kernel, sizes, s.device.gpu, s);
  // Without a GPU to time on (--cpu), or nothing to time (--reps 0), a run with configs runs its first one.
  const checked = defined.configs ? { ...defined, constexprs: defined.configs[0] } : defined;
  const { program, diagnostics } = s.programs.forRun(kernel, checked.constexprs, loaded.name);
  s.diagnose(diagnostics);
  if (!program) return "compile-error";
  for (const size of sizes) {
    const one = runOneSize(checked, program, size, sizeContext(s, kernel, checked.constexprs));
    await s.finished(await withTimeout(one, s.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, checked.name, size));
  }
  return "ran";
}

async function tuneEverySize(run: CheckedRun, kernel: KernelSource, sizes: number[], gpu: Gpu, s: FileSession): Promise<"ran" | "compile-error"> {
  const tuning: TuneContext = {
    gpu,
    adapter: s.device.adapter,
    kernelName: kernel.name,
    kernelText: s.text.slice(kernel.span.start, kernel.span.end),
    compile: (constexprs) => s.programs.candidate(kernel, constexprs),
    specialize: (constexprs, args) => s.programs.specializer(kernel, constexprs)(args),
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
  const chosen = tuned.picked && tuning.compile(tuned.picked);
  if (!tuned.picked || !chosen || !("program" in chosen)) {
    s.diagnose(tuned.diagnostics);
    return undefined;
  }
  const result = await runOneSize({ ...run, constexprs: tuned.picked }, chosen.program, size, sizeContext(s, tuning.source, tuned.picked));
  result.autotune = tuned.report;
  return result;
}

function sizeContext(s: FileSession, kernel: KernelSource, constexprs: Record<string, number>): SizeContext {
  return {
    gpu: s.device.gpu, reps: s.opts.reps, maxSteps: s.opts.maxSteps, progress: s.progress, onChecked: s.onChecked,
    specialize: s.programs.specializer(kernel, constexprs),
    instrumented: s.programs.instrumented(kernel, constexprs),
    lines: new LineMap(s.text),
    warn: warnFor(s),
    ...(s.opts.program ? { program: s.opts.program } : {}),
    ...(s.opts.accessMaps ? { accessMaps: true } : {}),
  };
}

// One size of one run, whichever its kind (one kernel, or a sequence of launches) and wherever it
// runs (executor.ts): prepared (prepare.ts), run once checked, compared with the reference (the
// first mismatch with who stored it, where known), reported as checked; then, on the GPU, timed
// and the baseline; then what the trace of its accesses shows (the access map, the bytes).

import { LineMap } from "../../diagnostics/position";
import { launchBytes, programAccessMap, programAccessMaps, type LaunchToTrace } from "../debug/analyse-launch";
import { compareWithSolution } from "../debug/exercise-access";
import { exerciseIdOf } from "../../language";
import { printsOf } from "../debug/prints";
import { withSource } from "../debug/provenance";
import type { RunReport } from "../report";
import { trace } from "../trace";
import { copyArgs, type CheckedRun } from "./args";
import type { Comparison } from "./compare";
import type { CheckedSize, Executor, SizeContext } from "./executor";
import type { PreparedSize } from "./prepare";
import { CPU_RUN_CODES } from "../../diagnostics/codes";

/** `run`: a run of one kernel (for its baseline); undefined for a sequence. */
export async function runOneSize(prepared: PreparedSize, executor: Executor, ctx: SizeContext, run?: CheckedRun): Promise<RunReport> {
  // Traced before the run: the run writes its outputs (and an in-place kernel its inputs).
  const only = prepared.launches.length === 1 ? prepared.launches[0] : undefined;
  const toTrace: LaunchToTrace | undefined = only && { ir: only.program.ir, grid: only.grid, args: copyArgs(only.args), dtypes: prepared.dtypes, lines: ctx.lines, shapes: prepared.shapes };
  const execution = executor.start(prepared, ctx);
  let report: RunReport;
  let timed = false;
  try {
    const checked = await execution.check();
    ctx.progress({ phase: "compare", run: prepared.run, size: prepared.size, message: "Comparing with the reference" });
    const comparison = { ...(await compareWithSource(prepared, checked, ctx)), ...printsOf(checked.printed) };
    const cpu = checked.cpuTiming;
    report = orderedReport({ ...prepared.base, ...comparison, ...(cpu ? { timing: cpu.total } : {}), ...launchTimings(prepared, cpu?.launches) });
    ctx.onChecked(report);
    // --reps 0: checked, not timed (the timed variant is never compiled); a tuner's candidate only when correct.
    if (execution.time && ctx.reps !== 0 && (!ctx.candidate || comparison.correct)) {
      const timingOpts = ctx.candidate?.timing ?? { maxReps: ctx.reps ?? 100, minReps: Math.min(10, ctx.reps ?? 10) };
      const { timing, launches, got } = await execution.time(timingOpts);
      const medianS = timing.medianMs / 1e3;
      const { bytes, flops } = prepared;
      report = orderedReport({
        ...prepared.base,
        ...timedComparison(prepared, comparison, got, ctx),
        timing,
        gbps: bytes === null || medianS <= 0 ? null : bytes / medianS / 1e9,
        gflops: flops === null || medianS <= 0 ? null : flops / medianS / 1e9,
        ...launchTimings(prepared, launches),
      });
      timed = true;
      if (run?.baseline && execution.baseline) report.baseline = await execution.baseline(run, timing.medianMs, timingOpts);
    }
  } finally {
    execution.release();
  }
  if (toTrace && ctx.program) {
    const map = programAccessMap(toTrace, ctx.program);
    if (map) report.accessMap = map;
  }
  if (toTrace && ctx.accessMaps) {
    trace("tracing the access maps");
    const maps = programAccessMaps(toTrace);
    if (maps) report.accessMaps = maps;
  }
  // An exercise's run: its accesses beside the course's solution's, program by program.
  const exercise = run && exerciseIdOf(run.reference);
  if (toTrace && only && exercise) {
    trace("comparing accesses with the exercise's solution");
    const compared = compareWithSolution(toTrace, exercise, only.program.name, prepared.base.constexprs);
    if (compared) report.exerciseAccess = compared;
  }
  if (toTrace && (ctx.candidate ? ctx.candidate.traceBytes : timed)) {
    trace("tracing the bytes");
    const bytes = launchBytes(toTrace);
    if (bytes) report.bytes = bytes;
  }
  return report;
}

/** The comparison, its first mismatch with who stored it where the provenance is known. */
async function compareWithSource(prepared: PreparedSize, checked: CheckedSize, ctx: SizeContext): Promise<Comparison> {
  const comparison = prepared.compare(checked.got);
  if (comparison.correct || !checked.provenance) return comparison;
  return { ...comparison, firstMismatch: withSource(comparison.firstMismatch, await checked.provenance(), ctx.lines) };
}

/**
 * The comparison a timed run reports: the check's, unless the programs timed (launched once on fresh
 * inputs where they are not the programs checked: gpu-executor.ts timedOutputs) mismatch where the
 * check matched; then theirs, with KL3106 at the kernel saying so — the time is of a program whose
 * outputs are wrong, a bug in Kernel Lab's code generation unless programs of the launch race.
 */
function timedComparison(prepared: PreparedSize, checked: Comparison & ReturnType<typeof printsOf>, got: Map<string, ArrayLike<number>> | undefined, ctx: SizeContext): Comparison & ReturnType<typeof printsOf> {
  if (!got || !checked.correct) return checked;
  const timed = prepared.compare(got);
  if (timed.correct) return checked;
  const first = timed.firstMismatch;
  const at = first ? ` (first: ${first.output}[${first.index}] = ${first.got}, expected ${first.expected})` : "";
  const kernels = prepared.launches.map((l) => l.program);
  ctx.warn?.({
    code: CPU_RUN_CODES["timed-differs"].code,
    severity: "error",
    message: `Run '${prepared.run}', size ${prepared.size}: the checked program matched the reference, but the program Kernel Lab times (${kernels.length === 1 ? "specialised for the launch, without the bounds checks" : "each launch without its prints"}) gave ${timed.mismatches} mismatched element${timed.mismatches === 1 ? "" : "s"}${at}, so the run is reported as not matching. This is a bug in Kernel Lab's code generation unless programs of the launch race (KL3104, KL3105); please report it with this kernel.`,
    span: kernels[0].ir.span,
  });
  return { ...checked, ...timed };
}

/** A sequence's `launches`, each with its own timing where it has one. */
function launchTimings(prepared: PreparedSize, timings: RunReport["timing"][] | undefined): Pick<RunReport, "launches"> {
  const launches = prepared.base.launches;
  if (!launches) return {};
  return { launches: timings ? launches.map((l, i) => ({ ...l, timing: timings[i] })) : launches };
}

/** The keys in docs/LANGUAGE.md §4's order, so the JSON reads like the spec; a run with several launches adds `launches`. */
function orderedReport(r: RunReport): RunReport {
  return {
    name: r.name, kernel: r.kernel, size: r.size, constexprs: r.constexprs, grid: r.grid,
    correct: r.correct, maxAbsDiff: r.maxAbsDiff, maxRelDiff: r.maxRelDiff, mismatches: r.mismatches, firstMismatch: r.firstMismatch,
    ...(r.mismatchMap ? { mismatchMap: r.mismatchMap } : {}),
    timing: r.timing, gbps: r.gbps, gflops: r.gflops, baseline: r.baseline,
    ...(r.launches ? { launches: r.launches } : {}),
    ...(r.prints ? { prints: r.prints, ...(r.printsDropped ? { printsDropped: r.printsDropped } : {}) } : {}),
  };
}

// The autotuner: for one run with `configs` and one size, compile every candidate set of
// constexprs, check each against the reference, time the correct ones briefly, and pick the
// fastest — or take the choice remembered on disk for this kernel, adapter and size. Each
// candidate goes through the path of any run's size (prepare.ts, then run-size.ts on the
// executor), as a candidate (executor.ts SizeContext.candidate), its inputs and reference shared
// with the others; the run's own numbers then come from the picked set, through the same path.

import type { KernelSource } from "../../compile";
import type { CompiledKernel } from "../../compile";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import { GpuError } from "../../runtime";
import { evaluateCount, type CheckedRun } from "../run/args";
import { lookupChoice, storeChoice, tuningKey, type CachedChoice } from "./autotune-cache";
import { adapterLabel } from "../cache-location";
import { RunDefinitionError } from "../codes";
import type { Progress } from "../progress";
import type { AdapterReport, AutotuneCandidate, AutotuneReport, RunReport } from "../report";
import { host } from "../../runtime/host";
import { LineMap } from "../../diagnostics/position";
import { summarise } from "../debug/bytes";
import type { CandidateProgram } from "../run/programs";
import type { Executor, SizeContext, TimingOptions } from "../run/executor";
import { prepareOneLaunch, type SharedInputs } from "../run/prepare";
import { runOneSize } from "../run/run-size";
import { formatKnobs, isKnobSetting, type KnobChoice, type KnobSetting } from "../../ir/knobs";
import { descend, knobSettings, type KnobRequest, type TuneCandidate } from "./knob-candidates";

export type { CandidateProgram };

export interface TuneContext {
  /** Where candidates run and are timed: the GPU's (a run with configs is tuned only where it can time). */
  executor: Executor;
  adapter: AdapterReport;
  kernelName: string;
  /** The kernel function's source text, for the cache key. */
  kernelText: string;
  /** A candidate compiled, with the code generator's knobs set as `codegen` says (none: the defaults). */
  compile: (constexprs: Record<string, number>, codegen?: KnobSetting) => CandidateProgram;
  /**
   * A compiled candidate specialised for the size's scalar arguments (compile.ts
   * specializationFor), as the run itself will launch it; undefined where the plain one serves.
   * Timing the plain program instead would rank configs by code the run never runs (the f16
   * matmul at 4096³: 67 against 139 TFLOP/s at one shape, bench/NOTES.md §20).
   */
  specialize?: (constexprs: Record<string, number>, scalars: Record<string, unknown>, codegen?: KnobSetting) => CompiledKernel | undefined;
  /**
   * With code-generation knobs tuned (a run's `tuneCodegen`, `--tune-codegen`): which, and the
   * knobs a config's compiled kernel uses on this adapter (compile.ts tunableKnobs).
   */
  knobs?: { request: KnobRequest; of: (constexprs: Record<string, number>, program: CompiledKernel) => KnobChoice[] };
  /** The kernel being tuned (for specialising the picked program to the launch's scalars). */
  source: KernelSource;
  /** Ignore the cache (`--retune`); the new choice is still written. */
  retune: boolean;
  /** The run's `--reps`; candidates get fewer. */
  reps: number | undefined;
  progress: (p: Progress) => void;
}

export interface TuneResult {
  /** The picked candidate's constexprs; when none compiled, undefined and `diagnostics` say why. */
  picked?: Record<string, number>;
  /** With knobs tuned: the picked candidate's knobs, to compile the run's program with. */
  codegen?: KnobSetting;
  report: AutotuneReport;
  /** The first candidate's compile errors, when no candidate compiled. */
  diagnostics: LocatedDiagnostic[];
}

/**
 * Per candidate: about 100 ms of warm-up (200 ms for the first, from idle clocks) and 200 ms of
 * timed launches — enough for a stable median on a kernel of a few ms, and a tuning that stays
 * under a couple of seconds for a handful of configs.
 */
function candidateTiming(reps: number | undefined, first: boolean): TimingOptions {
  const max = Math.min(reps ?? 100, 50);
  return { maxReps: max, minReps: Math.min(5, max), budgetMs: 200, warmupMs: first ? 200 : 100 };
}

export async function tune(run: CheckedRun, size: number, ctx: TuneContext): Promise<TuneResult> {
  const configs = run.configs ?? [run.constexprs];
  const key = tuningKey({ kernelText: ctx.kernelText, run: run.name, candidates: configs, adapter: ctx.adapter, size, ...(ctx.knobs ? { knobs: ctx.knobs.request } : {}) });
  const rates = rateOf(run, size);

  if (!ctx.retune) {
    const cached = lookupChoice(key);
    const picked = cached && configs.find((c) => sameConstexprs(c, cached.picked));
    // With knobs tuned, a choice is re-used with the knobs it was timed with.
    const codegen = ctx.knobs ? cached?.codegen : undefined;
    const usable = !ctx.knobs || isKnobSetting(codegen);
    if (cached && picked && usable && "program" in ctx.compile(picked, codegen)) {
      const candidates = cached.candidates.map((c): AutotuneCandidate => ({ ...c, ...rates(c.medianMs) }));
      debug(`${run.name}, size ${size}: cached choice from ${cached.date}${codegen ? ` (${formatKnobs(codegen) || "default knobs"})` : ""}, no candidate timed`);
      const knobs = codegen ? { codegen, ...(cached.identical !== undefined ? { identical: cached.identical } : {}) } : {};
      return { picked, ...(codegen ? { codegen } : {}), report: { picked, cached: true, candidates: candidates.map(orderedCandidate), ...knobs }, diagnostics: [] };
    }
  }

  const tried = candidatesOf(configs, ctx);
  /** WGSL already timed (knob settings that emit the same code are one candidate), and how many were skipped so. */
  const emitted = new Set<string>();
  let identical = 0;
  /** Where the bytes go depends on the constexprs only, not on the knobs: traced once per config. */
  const tracedBytes = new Map<string, AutotuneCandidate["bytes"]>();
  const candidates: AutotuneCandidate[] = [];
  let firstErrors: LocatedDiagnostic[] | undefined;
  const inputs: SharedInputs = new Map();
  let timed = 0;
  /** Which candidates launched (correct or not); which compiled but failed on the GPU. */
  const ran: boolean[] = [];
  const compiledOnly: TuneCandidate[] = [];
  let definitionError: RunDefinitionError | undefined;
  /** Compiles, checks and times one candidate (the `i`th tried), into `candidates`. */
  const timeCandidate = async (i: number, candidate: TuneCandidate, of: string): Promise<void> => {
    const { constexprs, codegen } = candidate;
    const label = [Object.entries(constexprs).map(([k, v]) => `${k}=${v}`).join(", "), codegen && formatKnobs(codegen)].filter(Boolean).join(", ");
    const entry = (fields: Partial<AutotuneCandidate>): AutotuneCandidate =>
      orderedCandidate({ constexprs, medianMs: null, gbps: null, gflops: null, correct: false, ...(codegen ? { codegen } : {}), ...fields });
    ctx.progress({ phase: "tune", run: run.name, size, message: `Tuning ${run.name}: candidate ${i + 1} of ${of} (${label})` });
    const compiled = ctx.compile(constexprs, codegen);
    if (!("program" in compiled)) {
      firstErrors ??= compiled.diagnostics;
      const d = compiled.diagnostics.find((x) => x.severity === "error") ?? compiled.diagnostics[0];
      candidates.push(entry({ note: d ? `does not compile: ${d.code} at ${d.line}:${d.column}: ${d.message}` : "does not compile" }));
      return;
    }
    const candidateRun: CheckedRun = { ...run, constexprs };
    try {
      // A grid or arguments this device cannot take (too many programs for a small block) rule
      // out this config only; a definition error common to all of them fails the run below.
      const specialize = (scalars: Record<string, unknown>) => ctx.specialize?.(constexprs, scalars, codegen);
      const prepared = prepareOneLaunch(candidateRun, { program: compiled.program, specialize }, size, ctx.executor.limits, inputs);
      if (codegen) {
        const program = specialize(prepared.launches[0].args) ?? compiled.program;
        const wgsl = (program.quiet ?? program).wgsl;
        if (emitted.has(wgsl)) {
          identical++;
          return;
        }
        emitted.add(wgsl);
      }
      const bytesKey = JSON.stringify(constexprs);
      const traceBytes = !tracedBytes.has(bytesKey);
      const report = await runOneSize(prepared, ctx.executor, candidateContext(ctx, timed === 0, traceBytes));
      ran[i] = true;
      const outcome = outcomeOf(report);
      if (outcome.medianMs !== null) timed++;
      if (traceBytes) tracedBytes.set(bytesKey, report.bytes ? summarise(report.bytes) : undefined);
      const bytes = tracedBytes.get(bytesKey);
      candidates.push(entry({ ...outcome, ...rates(outcome.medianMs), ...(bytes ? { bytes } : {}) }));
    } catch (err) {
      if (err instanceof RunDefinitionError) {
        definitionError ??= err;
        candidates.push(entry({ note: err.message }));
      } else if (err instanceof GpuError) {
        compiledOnly.push(candidate);
        candidates.push(entry({ note: `GPU error: ${err.message}` }));
      } else {
        throw err;
      }
    }
  };
  for (const [i, candidate] of tried.entries()) await timeCandidate(i, candidate, String(tried.length));
  // Past a full crossing, from the fastest to any faster candidate one knob away (knob-candidates.ts).
  if (ctx.knobs) {
    const knobs = ctx.knobs;
    const choicesOf = (constexprs: Record<string, number>) => {
      const compiled = ctx.compile(constexprs);
      return "program" in compiled ? knobs.of(constexprs, compiled.program) : undefined;
    };
    await descend(tried, () => fastestOf(candidates), choicesOf, knobs.request, (c, total) => {
      tried.push(c);
      return timeCandidate(tried.length - 1, c, total);
    });
  }

  debug(`${run.name}, size ${size}: timed ${timed} of ${tried.length - identical} candidates${identical ? ` (${identical} more gave the same WGSL as another)` : ""}`);
  const fastest = fastestOf(candidates);
  // With no correct candidate the run still goes ahead with the first that launched (else the
  // first that compiled), so its mismatch or GPU error is reported like any other run's.
  const chosen: TuneCandidate | undefined = fastest ?? tried.find((_, i) => ran[i]) ?? compiledOnly[0];
  const picked = chosen?.constexprs;
  if (!picked && definitionError) throw definitionError;
  if (fastest) storeChoice(key, { ...choiceToCache(run, size, ctx, fastest, candidates), ...(ctx.knobs ? { identical } : {}) });
  const knobs = ctx.knobs ? { codegen: chosen?.codegen ?? {}, identical } : {};
  return {
    picked,
    ...(ctx.knobs && chosen ? { codegen: chosen.codegen ?? {} } : {}),
    report: { picked: picked ?? configs[0], cached: false, candidates, ...knobs },
    diagnostics: picked ? [] : (firstErrors ?? []),
  };
}

/** The fastest correct candidate timed, or undefined. */
function fastestOf(candidates: readonly AutotuneCandidate[]): AutotuneCandidate | undefined {
  return candidates
    .filter((c) => c.correct && c.medianMs !== null)
    .sort((a, b) => (a.medianMs as number) - (b.medianMs as number))[0];
}

/**
 * Each config, or with knobs tuned each config crossed with the knobs its kernel uses
 * (knob-candidates.ts); a config that does not compile is one candidate, to report its errors.
 */
function candidatesOf(configs: readonly Record<string, number>[], ctx: TuneContext): TuneCandidate[] {
  const knobs = ctx.knobs;
  if (!knobs) return configs.map((constexprs) => ({ constexprs }));
  return configs.flatMap((constexprs) => {
    const compiled = ctx.compile(constexprs);
    if (!("program" in compiled)) return [{ constexprs, codegen: {} }];
    return knobSettings(knobs.of(constexprs, compiled.program), knobs.request).map((codegen) => ({ constexprs, codegen }));
  });
}

/** A candidate's size, told as one: its own progress and report stay the tuner's. */
function candidateContext(ctx: TuneContext, first: boolean, traceBytes: boolean): SizeContext {
  return { reps: ctx.reps, progress: () => {}, onChecked: () => {}, lines: new LineMap(""), candidate: { timing: candidateTiming(ctx.reps, first), traceBytes } };
}

/** What the table says of a candidate that ran: its median where it matched and was timed on the device, else why not. */
function outcomeOf(report: RunReport): Pick<AutotuneCandidate, "medianMs" | "correct" | "note"> {
  if (!report.correct) {
    const m = report.firstMismatch;
    const where = m ? `${m.output}[${m.index}] = ${short(m.got)}, expected ${short(m.expected)}; ` : "";
    return { medianMs: null, correct: false, note: `does not match the reference: ${where}${report.mismatches} element${report.mismatches === 1 ? "" : "s"} differ` };
  }
  const timing = report.timing && report.timing.source !== "cpu-wall-clock" ? report.timing : null;
  return { medianMs: timing?.medianMs ?? null, correct: true };
}

/** What the cache remembers of a tuning: the pick and every candidate's time. */
function choiceToCache(run: CheckedRun, size: number, ctx: TuneContext, picked: TuneCandidate, candidates: AutotuneCandidate[]): CachedChoice {
  return {
    run: run.name,
    kernel: ctx.kernelName,
    size,
    adapter: adapterLabel(ctx.adapter),
    picked: picked.constexprs,
    ...(picked.codegen ? { codegen: picked.codegen } : {}),
    candidates: candidates.map(({ constexprs, medianMs, correct, note, codegen }) => ({ constexprs, medianMs, correct, ...(note ? { note } : {}), ...(codegen ? { codegen } : {}) })),
    date: new Date().toISOString(),
  };
}

/** GB/s and GFLOP/s of a median, where the run declares bytes or flops. */
function rateOf(run: CheckedRun, size: number): (medianMs: number | null) => { gbps: number | null; gflops: number | null } {
  const bytes = evaluateCount(run, "bytes", size);
  const flops = evaluateCount(run, "flops", size);
  return (medianMs) => {
    const s = medianMs === null || medianMs <= 0 ? null : medianMs / 1e3;
    return { gbps: bytes === null || s === null ? null : bytes / s / 1e9, gflops: flops === null || s === null ? null : flops / s / 1e9 };
  };
}

function orderedCandidate(c: AutotuneCandidate): AutotuneCandidate {
  return {
    constexprs: c.constexprs, medianMs: c.medianMs, gbps: c.gbps, gflops: c.gflops, correct: c.correct,
    ...(c.note !== undefined ? { note: c.note } : {}),
    ...(c.bytes !== undefined ? { bytes: c.bytes } : {}),
    ...(c.codegen !== undefined ? { codegen: c.codegen } : {}),
  };
}

/** With --debug, what the tuner did: tests and curious users can see whether it timed anything. */
function debug(message: string): void {
  if (host.env("KERNEL_LAB_DEBUG")) host.warn(`kernel-lab: autotune: ${message}`);
}

function short(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x);
}

export function sameConstexprs(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

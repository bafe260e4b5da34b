// The engine behind `kernel-lab run`: read and parse the file, load it while the GPU opens,
// pick the runs, then run every size of each (one-run.ts, run-size.ts) into docs/LANGUAGE.md §4's
// FileReport. Nothing here throws at the user: every failure becomes a located diagnostic
// (to-diagnostics.ts), and the Outcome says which exit code it means.

import * as path from "node:path";
import { halfPrecisionNeeds, parseKernelFile } from "../../compile";
import { distinctLocated, locate, type LocatedDiagnostic } from "../../diagnostics/position";
import { NO_NEEDS } from "../../ir/target";
import { displayPath, loadKernelFile, readKernelText } from "../load/load";
import { runEverySize } from "./one-run";
import { openDevice, requestGpu } from "./open-device";
import { KernelPrograms } from "./programs";
import type { FileSession, Progress, RunOptions } from "../session";
import type { AdapterReport, FileReport, Outcome, RunReport } from "../report";
import { selectRuns } from "./resolve-runs";
import { exerciseIdOf } from "../../language";
import { diagnosticOf, runLocator } from "./to-diagnostics";
import { measurePeaks, peaksFor, type Peaks } from "../timing/peaks";
import { assessSpeed } from "../timing/speed-of-light";
import { trace } from "../trace";
import type { Gpu } from "../../runtime";
import { host } from "../../runtime/host";

export { CPU_ADAPTER } from "./open-device";
export type { RunOptions };

/** The GPU's peaks, measured once per process (and cached on disk per adapter); undefined if they can't be measured. */
let peaksOfProcess: Promise<{ peaks: Peaks; cached: boolean } | undefined> | undefined;

function gpuPeaks(gpu: Gpu, adapter: AdapterReport, progress: (p: Progress) => void): Promise<{ peaks: Peaks; cached: boolean } | undefined> {
  peaksOfProcess ??= peaksFor(gpu, adapter, (g) => {
    progress({ phase: "time", message: "Measuring this GPU's peaks (once per GPU: bandwidth, FMA rate, launch cost)" });
    return measurePeaks(g);
  }).catch((err: unknown) => {
    host.warn(`kernel-lab: warning: could not measure this GPU's peaks (${err instanceof Error ? err.message : String(err)}); runs are reported without their speed of light.`);
    return undefined;
  });
  return peaksOfProcess;
}

export interface FileResult {
  report: FileReport;
  outcome: Outcome;
}

/** docs/LANGUAGE.md §4's report of running a file. */
export async function runFile(file: string, opts: RunOptions = {}, text?: string): Promise<FileReport> {
  return (await runFileWithOutcome(file, opts, text)).report;
}

/** `text`: the file's contents where the caller has already read them (they are then not read again). */
export async function runFileWithOutcome(fileArg: string, opts: RunOptions = {}, text?: string): Promise<FileResult> {
  const absolute = path.resolve(fileArg);
  const file = displayPath(absolute);
  const report: FileReport = { file, adapter: null, diagnostics: [], runs: [] };
  const diagnose = (diagnostics: LocatedDiagnostic[]) => void report.diagnostics.push(...diagnostics);
  const done = (outcome: Outcome, diagnostics: LocatedDiagnostic[] = []): FileResult => {
    diagnose(diagnostics);
    // As `kernel-lab check` lists them: each once (runs and specialisations compile a kernel again), in file order.
    report.diagnostics = distinctLocated(report.diagnostics);
    return { report, outcome };
  };
  const progress = (p: Progress) => {
    trace(p.message);
    opts.onProgress?.(p);
  };

  const source = text ?? (await readKernelText(absolute, file));
  if (typeof source !== "string") return done("failure", [source]);
  progress({ phase: "load", message: `Loading ${file}` });
  const parsed = parseKernelFile(file, source);
  trace("parsed");
  if (parsed.diagnostics.some((d) => d.severity === "error")) return done("compile-error", locate(file, source, parsed.diagnostics));

  // The GPU opens (Dawn's enumeration is synchronous work) while the file's imports are read.
  const needs = opts.dawnToggles === "off" ? NO_NEEDS : halfPrecisionNeeds(parsed);
  const gpuReady = opts.cpu ? undefined : requestGpu(progress, needs);
  const loaded = await loadKernelFile(absolute, source);
  trace("loaded");
  if (loaded.diagnostics.length > 0) return done("failure", loaded.diagnostics);
  const at = runLocator(file, source);
  const selected = selectRuns(loaded.runs, opts, file, at);
  if ("diagnostic" in selected) return done("failure", [selected.diagnostic]);
  const device = await openDevice(gpuReady, file, needs);
  if ("diagnostic" in device) return done(device.outcome, [device.diagnostic]);
  report.adapter = device.adapter;
  // Runs checked against an exercise's hidden reference say which (the editor marks it solved).
  const exercises = new Map(selected.runs.flatMap((r) => {
    const id = exerciseIdOf(r.definition.reference);
    return id ? [[r.name, id] as const] : [];
  }));

  const session: FileSession = {
    file,
    text: source,
    parsed,
    kernels: loaded.kernels,
    device,
    programs: new KernelPrograms(file, source, device.target, progress),
    opts,
    progress,
    onChecked: (run) => opts.onRunChecked?.(run, report.adapter),
    finished: async (run) => {
      const peaks = device.gpu && run.timing ? await gpuPeaks(device.gpu, device.adapter, progress) : undefined;
      const assessed = peaks && assessSpeed(run, peaks.peaks, peaks.cached ? "cached" : "measured");
      if (assessed) run.speedOfLight = assessed;
      // `bytes`, `accessMap` and `accessMaps` (run-size.ts) go after the speed of light, which they explain.
      for (const key of ["bytes", "accessMap", "accessMaps"] as const) {
        const value = run[key];
        if (value === undefined) continue;
        delete run[key];
        Object.assign(run, { [key]: value });
      }
      const exercise = exercises.get(run.name);
      if (exercise) run.exercise = exercise;
      // Its comparison with the exercise's solution (run-size.ts) after it.
      const compared = run.exerciseAccess;
      if (compared) {
        delete run.exerciseAccess;
        run.exerciseAccess = compared;
      }
      report.runs.push(run);
      opts.onRunDone?.(run);
    },
    diagnose,
  };
  let compileFailed = false;
  let failed = false;
  for (const run of selected.runs) {
    try {
      if ((await runEverySize(run, session)) === "compile-error") compileFailed = true;
    } catch (err) {
      failed = true;
      diagnose([diagnosticOf(err, run, file, source, at)]);
    }
  }
  if (compileFailed) return done("compile-error");
  if (failed) return done("failure");
  return done(report.runs.every((r) => r.correct) ? "ok" : "mismatch");
}

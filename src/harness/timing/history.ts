// A run's results over time: every run appends one line of JSON per result to a history file
// (the editor keeps one per workspace; the command line takes `--history FILE`), so a learner can
// see what each edit did ("1.8× faster than the last run, at 14:02"). Two saved `--json` reports
// can be compared the same way (`kernel-lab compare OLD.json NEW.json`). The file itself is read and
// written by its owner: the command line (cli/history.ts) or the editor (through VS Code's file system).

import type { FileReport, RunReport } from "../report";

/** One result, as one line of the history file. */
export interface HistoryEntry {
  /** ISO time the run finished. */
  at: string;
  file: string;
  /** The adapter's device ("nvidia-h200", "cpu-interpreter"): timings compare only on one device. */
  device: string;
  run: string;
  size: number;
  constexprs: Record<string, number>;
  correct: boolean;
  maxAbsDiff: number;
  medianMs: number | null;
  gbps: number | null;
  gflops: number | null;
}

export function historyEntries(report: FileReport, at: Date = new Date()): HistoryEntry[] {
  const device = report.adapter?.device ?? "none";
  return report.runs.map((r) => ({
    at: at.toISOString(),
    file: report.file,
    device,
    run: r.name,
    size: r.size,
    constexprs: r.constexprs,
    correct: r.correct,
    maxAbsDiff: r.maxAbsDiff,
    medianMs: r.timing?.medianMs ?? null,
    gbps: r.gbps,
    gflops: r.gflops,
  }));
}

/** The history file's lines for these entries (each ends in a newline). */
export function historyLines(entries: readonly HistoryEntry[]): string {
  return entries.map((e) => JSON.stringify(e) + "\n").join("");
}

/** The entries of a history file's text, oldest first; a damaged line is skipped. */
export function parseHistory(text: string): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as HistoryEntry;
      if (typeof e.run === "string" && typeof e.size === "number" && typeof e.at === "string") entries.push(e);
    } catch {
      // a line cut short by a crash: the others still count
    }
  }
  return entries;
}

/** The earlier results of the same run, size and device as `entry`, oldest first (`entry` itself excluded). */
export function earlierResults(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
  return history.filter((e) => e !== entry && e.file === entry.file && e.run === entry.run && e.size === entry.size && e.device === entry.device && e.at < entry.at);
}

export interface Change {
  /** Earlier median / this median: above 1 this run is faster. */
  speedup: number;
  /** How many runs back the compared one is (1: the last one). */
  runsAgo: number;
  at: string;
  /** Correctness changed: "fixed" (was wrong, now matches) or "broken". */
  correctness?: "fixed" | "broken";
}

/** The change from the last earlier result that was timed (or the last one, for correctness). */
export function changeSince(earlier: readonly HistoryEntry[], now: HistoryEntry): Change | undefined {
  for (let i = earlier.length - 1; i >= 0; i--) {
    const before = earlier[i];
    if (before.medianMs === null || now.medianMs === null || now.medianMs <= 0) continue;
    const correctness = before.correct === now.correct ? undefined : now.correct ? "fixed" : "broken";
    return { speedup: before.medianMs / now.medianMs, runsAgo: earlier.length - i, at: before.at, ...(correctness ? { correctness } : {}) };
  }
  return undefined;
}

/** "1.80× faster than the last run (14:02)", "1.25× slower than 3 runs ago (09:41)", "as fast as …". */
export function describeChange(change: Change, timeZone?: string): string {
  const when = new Date(change.at).toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", ...(timeZone ? { timeZone } : {}) });
  const ago = change.runsAgo === 1 ? "the last run" : `${change.runsAgo} runs ago`;
  const s = change.speedup;
  const speed = Math.abs(s - 1) < 0.02 ? "as fast as" : s > 1 ? `${s.toFixed(2)}× faster than` : `${(1 / s).toFixed(2)}× slower than`;
  const fixed = change.correctness === "fixed" ? "; now matches its reference" : change.correctness === "broken" ? "; no longer matches its reference" : "";
  return `${speed} ${ago} (${when})${fixed}`;
}

/** One row of comparing two reports: a run and size found in both. */
export interface ComparedRun {
  run: string;
  size: number;
  before: RunReport;
  after: RunReport;
  /** Before's median / after's: above 1 the second report is faster; null when either is untimed. */
  speedup: number | null;
}

/** Runs present in both reports, matched by name and size, in the order of `after`. */
export function compareReports(before: FileReport, after: FileReport): ComparedRun[] {
  const rows: ComparedRun[] = [];
  for (const a of after.runs) {
    const b = before.runs.find((r) => r.name === a.name && r.size === a.size);
    if (!b) continue;
    const speedup = b.timing && a.timing && a.timing.medianMs > 0 ? b.timing.medianMs / a.timing.medianMs : null;
    rows.push({ run: a.name, size: a.size, before: b, after: a, speedup });
  }
  return rows;
}

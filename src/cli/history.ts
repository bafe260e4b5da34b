// `run --history FILE` and `compare OLD.json NEW.json`: a run's results next to earlier ones.

import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { changeSince, compareReports, describeChange, earlierResults, historyEntries, historyLines, parseHistory, type HistoryEntry } from "../harness/timing/history";
import type { FileReport } from "../harness/report";
import { UsageError } from "./args";

export interface HistoryLine {
  run: string;
  size: number;
  /** "1.80× faster than the last run (14:02)", or null for a first run. */
  change: string | null;
  speedup: number | null;
}

/** Appends the report to the history file and compares each result with its last earlier one there. */
export function recordHistory(file: string, report: FileReport): HistoryLine[] {
  const before = readHistory(file);
  const current = appendHistory(file, report);
  return current.map((entry) => {
    const change = changeSince(earlierResults(before, entry), entry);
    return { run: entry.run, size: entry.size, change: change ? describeChange(change) : null, speedup: change?.speedup ?? null };
  });
}

/** The entries of a history file, oldest first; a missing file is empty, a damaged line skipped. */
export function readHistory(file: string): HistoryEntry[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  return parseHistory(text);
}

/** Appends the report's results to `file` (created with its folder when missing). */
export function appendHistory(file: string, report: FileReport, at: Date = new Date()): HistoryEntry[] {
  const entries = historyEntries(report, at);
  if (entries.length === 0) return entries;
  mkdirSync(path.dirname(file), { recursive: true });
  appendFileSync(file, historyLines(entries));
  return entries;
}

export function formatHistory(file: string, lines: readonly HistoryLine[]): string[] {
  if (lines.length === 0) return [];
  return [`History (${file}):`, ...lines.map((l) => `  ${l.run} · size ${l.size}: ${l.change ?? "first run here"}`)];
}

function readReport(file: string): FileReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let report: FileReport;
  try {
    report = JSON.parse(text) as FileReport;
  } catch {
    throw new UsageError(`${file} is not JSON; save a report with \`kernel-lab run FILE --json > ${file}\`.`);
  }
  if (!report || !Array.isArray(report.runs)) throw new UsageError(`${file} has no "runs": it is not the output of \`kernel-lab run --json\`.`);
  return report;
}

export interface ComparedLine {
  run: string;
  size: number;
  beforeMs: number | null;
  afterMs: number | null;
  speedup: number | null;
  beforeCorrect: boolean;
  afterCorrect: boolean;
}

export function compareFiles(beforeFile: string, afterFile: string): ComparedLine[] {
  return compareReports(readReport(beforeFile), readReport(afterFile)).map((r) => ({
    run: r.run,
    size: r.size,
    beforeMs: r.before.timing?.medianMs ?? null,
    afterMs: r.after.timing?.medianMs ?? null,
    speedup: r.speedup,
    beforeCorrect: r.before.correct,
    afterCorrect: r.after.correct,
  }));
}

export function formatComparison(rows: readonly ComparedLine[]): string[] {
  if (rows.length === 0) return ["No run and size appears in both reports."];
  const ms = (x: number | null) => (x === null ? "—" : `${x.toPrecision(3)} ms`);
  const verdict = (r: ComparedLine) => (r.speedup === null ? "not timed" : Math.abs(r.speedup - 1) < 0.02 ? "same speed" : r.speedup > 1 ? `${r.speedup.toFixed(2)}× faster` : `${(1 / r.speedup).toFixed(2)}× slower`);
  const match = (r: ComparedLine) => (r.beforeCorrect === r.afterCorrect ? (r.afterCorrect ? "match" : "still mismatches") : r.afterCorrect ? "now matches" : "NO LONGER MATCHES");
  return rows.map((r) => `${r.run} · size ${r.size}: ${ms(r.beforeMs)} → ${ms(r.afterMs)}, ${verdict(r)} (${match(r)})`);
}

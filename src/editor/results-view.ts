// Turns a worker's report (docs/LANGUAGE.md §4's JSON) into what the results panel shows.

import type { FileReport, Outcome } from "../harness/report";
import { changeSince, describeChange, earlierResults, type HistoryEntry } from "../harness/timing/history";
import type { DiagnosticView, ResultsView, RunHistoryView } from "./webview-protocol";
import { wgslFor, WGSL_TARGET_NOTE } from "./wgsl";

export interface ViewInput {
  report: FileReport;
  outcome: Outcome;
  /** Workspace-relative path. */
  displayPath: string;
  mode: "run" | "sweep" | "retune";
  backend: "gpu" | "cpu";
  /** The file's text as it was run (saved), for the WGSL listing. */
  fileName: string;
  text: string;
  /** This report's history entries (just appended) and the whole history they were appended to. */
  history?: { current: HistoryEntry[]; all: HistoryEntry[] };
}

/** Earlier results shown per run: at most this many, newest last. */
const HISTORY_SHOWN = 8;

function historyViews(history: NonNullable<ViewInput["history"]>): RunHistoryView[] {
  return history.current.map((entry) => {
    const earlier = earlierResults(history.all, entry);
    const change = changeSince(earlier, entry);
    return {
      run: entry.run,
      size: entry.size,
      change: change ? describeChange(change) : null,
      speedup: change?.speedup ?? null,
      earlier: earlier.slice(-HISTORY_SHOWN).map((e) => ({ at: e.at, medianMs: e.medianMs, correct: e.correct })),
    };
  });
}

export function resultsView(input: ViewInput, onWgslError: (error: unknown) => void): ResultsView {
  const { report } = input;
  const diagnostics: DiagnosticView[] = report.diagnostics.map((d) => ({
    line: d.line,
    column: d.column,
    severity: d.severity,
    code: d.code,
    message: d.message,
  }));
  let wgsl: ResultsView["wgsl"] = [];
  try {
    const wanted = report.runs.map((r) => ({ kernel: r.kernel, constexprs: r.constexprs }));
    wgsl = wanted.length > 0 ? wgslFor(input.fileName, input.text, wanted).entries : [];
  } catch (error) {
    onWgslError(error);
  }
  return {
    file: input.displayPath,
    mode: input.mode,
    backend: input.backend,
    outcome: input.outcome,
    finishedAt: new Date().toISOString(),
    adapter: report.adapter,
    diagnostics,
    runs: report.runs,
    wgsl,
    wgslNote: WGSL_TARGET_NOTE,
    ...(input.history ? { history: historyViews(input.history) } : {}),
  };
}

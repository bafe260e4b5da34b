// Turns a worker's report (SPEC §4's JSON) into what the results panel shows.

import type { FileReport, Outcome } from "../harness/report";
import type { DiagnosticView, ResultsView } from "./webview-protocol";
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
  };
}

// What a failed or errored test item says in the Testing view and inline in the editor: a
// mismatch (output, index, got and expected) at the `tl.store` that wrote it, a diagnostic at its
// range, or why nothing ran.

import * as path from "node:path";
import * as vscode from "vscode";
import type { LocatedDiagnostic } from "../diagnostics/position";
import { LineMap } from "../diagnostics/position";
import type { MismatchReport, RunReport } from "../harness/report";
import { findStores } from "./find-store";

export const UNTRUSTED_MESSAGE =
  "Not run: Kernel Lab runs kernels only in a trusted workspace, because running one executes the TypeScript of its file (its runs, arguments and references). Trust this folder (Workspaces: Manage Workspace Trust) to run it.";

/** Where the run's file stood when it ran: its text locates the store when the report doesn't. */
export interface RunSource {
  uri: vscode.Uri;
  text: string;
  kernelName?: string;
  /** The `defineRun(…)` call: the fallback location. */
  runRange?: vscode.Range;
}

export function mismatchMessage(report: RunReport, source: RunSource): vscode.TestMessage {
  const first = report.firstMismatch;
  const lines: string[] = [];
  if (first) {
    lines.push(`${first.output}[${first.index}] = ${formatValue(first.got)}, expected ${formatValue(first.expected)} (n = ${report.size})`);
  } else {
    lines.push(`${report.name} did not match its reference (n = ${report.size})`);
  }
  const differ = report.mismatches === 1 ? "1 element differs" : `${report.mismatches} elements differ`;
  lines.push(`${differ}; max abs diff ${formatValue(report.maxAbsDiff)}, max rel diff ${formatValue(report.maxRelDiff)}.`);
  // No expectedOutput/actualOutput: with them, the editor's inline message shrinks to "got != expected"
  // and loses the output's name and index.
  const message = new vscode.TestMessage(lines.join("\n"));
  const location = first ? storeLocation(source, first.output, first.source) : undefined;
  const fallback = source.runRange ? new vscode.Location(source.uri, source.runRange.start) : undefined;
  message.location = location ?? fallback;
  return message;
}

/** A run's diagnostic at its place; `folder` is what its file path is relative to (the worker's working folder). */
export function diagnosticMessage(diagnostic: LocatedDiagnostic, folder: string): vscode.TestMessage {
  const message = new vscode.TestMessage(`${diagnostic.code}: ${diagnostic.message}`);
  const range = new vscode.Range(diagnostic.line - 1, diagnostic.column - 1, diagnostic.endLine - 1, diagnostic.endColumn - 1);
  message.location = new vscode.Location(vscode.Uri.file(path.resolve(folder, diagnostic.file)), range);
  return message;
}

/** A message at the run's `defineRun(…)`, for failures that have no place of their own. */
export function runMessage(text: string, source: RunSource): vscode.TestMessage {
  const message = new vscode.TestMessage(text);
  if (source.runRange) message.location = new vscode.Location(source.uri, source.runRange.start);
  return message;
}

/**
 * The store that wrote `output`: the reported one (`firstMismatch.source`, the line and column of
 * the tl.store that wrote the element), else the only store to that output in the run's kernel,
 * else the first of several.
 */
function storeLocation(source: RunSource, output: string, reported: MismatchReport["source"]): vscode.Location | undefined {
  const stores = source.kernelName ? safeFindStores(source, source.kernelName, output) : [];
  const lines = new LineMap(source.text);
  const ranges = stores.map((span) => {
    const start = lines.at(span.start);
    const end = lines.at(span.end);
    return new vscode.Range(start.line - 1, start.column - 1, end.line - 1, end.column - 1);
  });
  if (reported && Number.isInteger(reported.line) && reported.line > 0) {
    const at = new vscode.Position(reported.line - 1, Math.max(0, reported.column - 1));
    return new vscode.Location(source.uri, ranges.find((r) => r.contains(at) || r.start.line === at.line) ?? new vscode.Range(at, at));
  }
  return ranges[0] ? new vscode.Location(source.uri, ranges[0]) : undefined;
}

function safeFindStores(source: RunSource, kernelName: string, output: string) {
  try {
    return findStores(source.uri.fsPath, source.text, kernelName, output);
  } catch {
    return [];
  }
}

/** Report numbers: NaN arrives as null (JSON); enough digits to see an f32 difference. */
function formatValue(value: number | null): string {
  if (value === null || Number.isNaN(value)) return "NaN";
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(7)));
}

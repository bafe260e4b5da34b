import type { Diagnostic, Span } from "./diagnostic";

/** 1-based line and column of an offset. */
export interface LineCol {
  line: number;
  column: number;
}

export class LineMap {
  private readonly lineStarts: number[] = [0];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
    }
  }

  at(offset: number): LineCol {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: clamped - this.lineStarts[lo] + 1 };
  }

  lineText(line: number): string {
    const start = this.lineStarts[line - 1] ?? this.text.length;
    const next = this.lineStarts[line];
    return this.text.slice(start, next === undefined ? undefined : next - 1).replace(/\r$/, "");
  }
}

/** The JSON shape of docs/LANGUAGE.md §4: 1-based lines and columns, end exclusive. */
export interface LocatedDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic["severity"];
  code: string;
  message: string;
  /** `file`: where the location is in another file than the diagnostic's (the call that leads into another module's function). */
  related?: { file?: string; line: number; column: number; endLine: number; endColumn: number; message: string }[];
}

export function locate(file: string, text: string, diagnostics: readonly Diagnostic[]): LocatedDiagnostic[] {
  const map = new LineMap(text);
  const span = (s: Span) => {
    const a = map.at(s.start);
    const b = map.at(s.end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
  };
  const out: LocatedDiagnostic[] = [];
  // A mistake inside another module's function, reached from several calls (two kernels call one
  // broken helper): one diagnostic there, each call a related location.
  const elsewhere = new Map<string, { located: LocatedDiagnostic; message: string; calls: string[] }>();
  for (const d of diagnostics) {
    if (!d.origin) {
      out.push({
        file,
        ...span(d.span),
        severity: d.severity,
        code: d.code,
        message: d.message,
        ...(d.related ? { related: d.related.map((r) => ({ ...span(r.span), message: r.message })) } : {}),
      });
      continue;
    }
    const { file: other, ...place } = d.origin;
    const call = span(d.span);
    const key = `${other}:${place.line}:${place.column}:${place.endLine}:${place.endColumn}:${d.code}:${d.message}`;
    let known = elsewhere.get(key);
    if (!known) {
      known = { located: { file: other, ...place, severity: d.severity, code: d.code, message: d.message, related: [] }, message: d.message, calls: [] };
      elsewhere.set(key, known);
      out.push(known.located);
    }
    if (known.calls.includes(`${call.line}:${call.column}`)) continue;
    known.calls.push(`${call.line}:${call.column}`);
    known.located.related!.push({ file, ...call, message: "the call that leads there" });
    known.located.message = `${known.message} (called at ${known.calls.map((c) => `${file}:${c}`).join(", ")})`;
  }
  return out;
}

/**
 * `path:line:col - error KL1003: message`, then the user's line with a caret under the range:
 * `text` is the text of `textFile` (the diagnostic's own file unless said): a diagnostic in another
 * file (a cross-module helper's) is shown without its line.
 */
export function formatDiagnostic(d: LocatedDiagnostic, text?: string, textFile: string = d.file): string {
  const head = `${d.file}:${d.line}:${d.column} - ${d.severity} ${d.code}: ${d.message}`;
  if (text === undefined || textFile !== d.file) return head;
  const source = new LineMap(text).lineText(d.line);
  const width = d.endLine === d.line ? Math.max(1, d.endColumn - d.column) : Math.max(1, source.length - d.column + 1);
  const gutter = String(d.line);
  return `${head}\n\n${gutter} ${source}\n${" ".repeat(gutter.length)} ${" ".repeat(d.column - 1)}${"~".repeat(width)}\n`;
}

/**
 * Each diagnostic once (a device function's mistake is found at every call and in every
 * specialisation), in the order of the file: what `kernel-lab check` prints and `run` reports.
 */
export function distinctLocated(diagnostics: readonly LocatedDiagnostic[]): LocatedDiagnostic[] {
  const seen = new Set<string>();
  const distinct = diagnostics.filter((d) => {
    const key = `${d.file}:${d.line}:${d.column}:${d.endLine}:${d.endColumn}:${d.code}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // Stable: diagnostics at one place keep the order they were found in.
  return distinct.sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1));
}

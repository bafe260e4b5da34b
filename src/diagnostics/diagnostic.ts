// Diagnostics are collected, never thrown. Every one carries a byte span into the file's text;
// line/column are computed only when a message is shown (see position.ts).

export interface Span {
  /** Offset of the first character (UTF-16 code units, as TypeScript counts). */
  start: number;
  /** Offset just past the last character. */
  end: number;
  /**
   * Code of a device function inlined into a kernel: the calls that inlined this copy, outermost
   * first (semantics/context.ts). A fault at run time names the call that ran, not only the function.
   */
  inlinedAt?: readonly Span[];
}

export type Severity = "error" | "warning" | "info";

export interface RelatedLocation {
  span: Span;
  message: string;
}

/** Text that replaces a span of the file (an insertion when the span is empty). */
export interface TextEdit {
  span: Span;
  text: string;
}

/**
 * A fix of a diagnostic (the editor offers it as a quick fix), computed where the compiler found
 * the mistake, so the editor never re-derives it from the message.
 */
export interface DiagnosticFix {
  /** What the fix does, as the quick fix menu says it: "Change to tl.programId". */
  title: string;
  edits: TextEdit[];
  /** The fix to apply when there is no doubt (the editor's "auto fix"). */
  preferred?: boolean;
}

/** A range of another file, 1-based lines and columns, end exclusive (as LocatedDiagnostic's). */
export interface FilePlace {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  span: Span;
  related?: RelatedLocation[];
  fixes?: DiagnosticFix[];
  /**
   * Where the mistake is when it is in another file: a Python kernel's call to another module's
   * @triton.jit function (python/externals.ts). `span` is then the call in this file that leads
   * there; `kernel-lab check` and runs report the diagnostic at `origin`, the editor at `span`
   * with `origin` as its related location.
   */
  origin?: FilePlace;
}

/** KL1xxx syntax and unsupported constructs, KL2xxx types and shapes, KL3xxx launches and runs, KL9xxx internal. */
export type DiagnosticCode = `KL${number}`;

export class DiagnosticLog {
  readonly diagnostics: Diagnostic[] = [];

  error(code: DiagnosticCode, span: Span, message: string, related?: RelatedLocation[], fixes?: DiagnosticFix[]): void {
    this.diagnostics.push({ code, severity: "error", message, span, ...(related ? { related } : {}), ...(fixes?.length ? { fixes } : {}) });
  }

  warning(code: DiagnosticCode, span: Span, message: string, fixes?: DiagnosticFix[]): void {
    this.diagnostics.push({ code, severity: "warning", message, span, ...(fixes?.length ? { fixes } : {}) });
  }

  info(code: DiagnosticCode, span: Span, message: string): void {
    this.diagnostics.push({ code, severity: "info", message, span });
  }

  get hasErrors(): boolean {
    return this.diagnostics.some((d) => d.severity === "error");
  }
}

/** Each diagnostic once, by place, code and message (the first keeps its related locations), in the order of the file. */
export function distinctDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const distinct = diagnostics.filter((d) => {
    const key = `${d.code}:${d.span.start}:${d.span.end}:${d.message}:${d.origin ? `${d.origin.file}:${d.origin.line}:${d.origin.column}` : ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return distinct.sort((a, b) => a.span.start - b.span.start);
}

// The TypeScript text a Python kernel is lowered to, written piece by piece, with a map from every
// piece back to the Python source range it came from: diagnostics of the TypeScript compiler are
// moved back onto the Python text through it, so they carry the Python file's lines and columns.

import type { Span } from "../diagnostics/diagnostic";

interface Mark {
  ts: Span;
  py: Span;
  /** The TypeScript text is the Python text character for character (names, numbers). */
  verbatim: boolean;
}

export class TsWriter {
  text = "";
  private readonly marks: Mark[] = [];
  /** Added to every Python range: a module other than the kernel's is mapped past its end (externals.ts). */
  offset = 0;

  write(s: string): void {
    this.text += s;
  }

  /** Writes `s` for the Python range `py`. */
  token(s: string, py: Span, verbatim = false): void {
    const start = this.text.length;
    this.text += s;
    this.marks.push({ ts: { start, end: this.text.length }, py: this.shifted(py), verbatim: verbatim && s.length === py.end - py.start });
  }

  /** Whatever `emit` writes comes from the Python range `py`. */
  node(py: Span, emit: () => void): void {
    const start = this.text.length;
    const shifted = this.shifted(py);
    emit();
    this.marks.push({ ts: { start, end: this.text.length }, py: shifted, verbatim: false });
  }

  private shifted(py: Span): Span {
    return this.offset === 0 ? py : { start: py.start + this.offset, end: py.end + this.offset };
  }

  /** The map to hand out once writing is done. */
  sourceMap(fallback: Span): SourceMap {
    return new SourceMap([...this.marks], fallback);
  }
}

export class SourceMap {
  constructor(private readonly marks: readonly Mark[], private readonly fallback: Span) {}

  /** The Python range a TypeScript range came from: the smallest written piece that holds it. */
  toPython(span: Span): Span {
    let best: Mark | undefined;
    for (const m of this.marks) {
      if (m.ts.start <= span.start && span.end <= m.ts.end) {
        if (!best || m.ts.end - m.ts.start < best.ts.end - best.ts.start) best = m;
      }
    }
    if (!best) {
      // A range across pieces (rare): the pieces where it starts and ends.
      const first = this.marks.filter((m) => m.ts.start <= span.start && span.start < m.ts.end).sort(bySize)[0];
      const last = this.marks.filter((m) => m.ts.start < span.end && span.end <= m.ts.end).sort(bySize)[0];
      if (first && last) return { start: first.py.start, end: Math.max(first.py.start, last.py.end) };
      return this.fallback;
    }
    if (best.verbatim) return { start: best.py.start + (span.start - best.ts.start), end: best.py.start + (span.end - best.ts.start) };
    return best.py;
  }
}

function bySize(a: Mark, b: Mark): number {
  return a.ts.end - a.ts.start - (b.ts.end - b.ts.start);
}

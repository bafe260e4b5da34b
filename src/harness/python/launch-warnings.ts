// A Python launch's places in the script (launch.ts): where a fault or a warning of a kernel's
// translation is in the Python text, and the KL3105 warnings (a program loaded an element another
// program of the launch stored: harness/debug/races.ts) given once per pair of load and store lines.

import type { Diagnostic, Span } from "../../diagnostics/diagnostic";
import { locate, type LocatedDiagnostic } from "../../diagnostics/position";
import type { Program } from "./program";

/**
 * Where a fault at `span` is in the script: in the script's own code (a @triton.jit helper of the
 * script inlined into the kernel included), its own place — SpargeAttn's block-map read in
 * `_attn_fwd_inner`, not the kernel's call of it. For code of another module's function, the call in
 * the script that ran it — the innermost of the calls that inlined this copy (Span.inlinedAt) that is
 * in the script itself — rather than the first call of that function (program.toPython's answer, and
 * the fallback where the copy's calls are not known).
 */
export function callThatRan(program: Program, span: Span): Span {
  if (!program.origin?.(span)) return program.toPython(span);
  return scriptCall(program, span) ?? program.toPython(span);
}

/** The innermost call in the script of those that inlined the code at `span` (Span.inlinedAt): undefined outside a helper. */
export function scriptCall(program: Program, span: Span): Span | undefined {
  for (const site of [...(span.inlinedAt ?? [])].reverse()) {
    if (!program.origin?.(site)) return program.toPython(site);
  }
  return undefined;
}

/** The run's KL3105 warnings, into its diagnostics: each once, however often its kernel is launched (a launch in a loop would warn at every iteration). */
export class LaunchWarnings {
  private readonly given = new Set<string>();

  constructor(private readonly diagnostics: LocatedDiagnostic[]) {}

  /**
   * A launch's warnings (spans the kernel's translation's) at the script's lines, the store's as a
   * related location; a load inside another module's function at its own line, with the call that
   * leads there. `file` and `text`: the file the kernel was compiled from.
   */
  add(file: string, text: string, program: Program, warnings: readonly Diagnostic[]): void {
    for (const w of warnings) {
      const origin = program.origin?.(w.span);
      const inScript: Diagnostic = {
        ...w,
        span: callThatRan(program, w.span),
        ...(w.related ? { related: w.related.map((r) => ({ ...r, span: callThatRan(program, r.span) })) } : {}),
        ...(origin ? { origin } : {}),
      };
      for (const d of locate(file, text, [inScript])) {
        const key = `${d.code}:${d.file}:${d.line}:${d.column}:${(d.related ?? []).map((r) => `${r.file ?? ""}:${r.line}:${r.column}`).join(",")}`;
        if (this.given.has(key)) continue;
        this.given.add(key);
        this.diagnostics.push(d);
      }
    }
  }
}

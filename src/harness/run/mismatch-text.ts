// The one line a mismatch reads as, in the terminal and in the results panel:
//   out[4096] = 0.51, expected 0.73 — written by program (4,0,0), lane 0, at line 12
//   out[896] = NaN, expected 1.36 — no program stored it
//   hist[7] = 12, expected 13 — updated by atomics at line 14 (no single program wrote it)

import type { MismatchReport } from "../report";

export function mismatchLine(m: MismatchReport, number: (x: number) => string): string {
  return `${m.output}[${m.index}] = ${number(m.got)}, expected ${number(m.expected)}${mismatchOrigin(m)}`;
}

/** " — written by …" where the run knows who stored the element, else "". */
export function mismatchOrigin(m: MismatchReport): string {
  if (m.program === undefined) return "";
  if (m.program === null && m.atomic && m.source) return ` — updated by atomics at line ${m.source.line} (no single program wrote it)`;
  if (m.program === null) return " — no program stored it";
  const lane = m.lane === null || m.lane === undefined ? "" : `, lane ${m.lane}`;
  const at = m.source ? `, at line ${m.source.line}` : "";
  return ` — written by program (${m.program.join(",")})${lane}${at}`;
}

// How numbers read in the panel. A null in a report is a non-finite number (JSON has no NaN).

import type { RunReport } from "../../harness/report";
import { assertNever } from "../../ir/never";

export function ms(x: number | null | undefined): string {
  if (x === null || x === undefined) return "—";
  if (x >= 100) return `${x.toFixed(0)} ms`;
  if (x >= 0.001) return `${trim(x.toPrecision(3))} ms`;
  return `${trim((x * 1000).toPrecision(3))} µs`;
}

export function diff(x: number | null | undefined): string {
  if (x === null || x === undefined) return "NaN";
  if (x === 0) return "0";
  if (Math.abs(x) < 1e-3 || Math.abs(x) >= 1e6) return x.toExponential(2);
  return trim(x.toPrecision(4));
}

export function value(x: number | null | undefined): string {
  if (x === null || x === undefined) return "NaN";
  return Number.isInteger(x) ? String(x) : trim(x.toPrecision(7));
}

export function rate(x: number | null | undefined, unit: string): string {
  if (x === null || x === undefined) return "—";
  return `${x >= 100 ? x.toFixed(0) : trim(x.toPrecision(3))} ${unit}`;
}

export function count(n: number): string {
  return n.toLocaleString("en-US");
}

export function size(n: number): string {
  // Powers of two read better as such in a sweep.
  if (n >= 1024 && (n & (n - 1)) === 0) return `2^${Math.log2(n)}`;
  return count(n);
}

export function speedup(x: number): string {
  return x >= 1 ? `${trim(x.toPrecision(3))}× faster` : `${trim((1 / x).toPrecision(3))}× slower`;
}

function trim(s: string): string {
  return s.includes("e") || !s.includes(".") ? s : s.replace(/\.?0+$/, "");
}

/** How a run was timed, in words. */
export function timingSource(source: NonNullable<RunReport["timing"]>["source"]): string {
  switch (source) {
    case "timestamp-query":
      return "GPU timestamps";
    case "wall-clock":
      return "wall clock";
    case "cpu-wall-clock":
      return "CPU interpreter, wall clock";
    default:
      return assertNever(source);
  }
}

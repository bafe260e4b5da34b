// Compares a kernel's outputs with the reference in float64:
// an element passes where abs(out - ref) <= atol + rtol * abs(ref); NaN passes only against NaN,
// an infinity only against the same infinity.

import type { PointeeDtype } from "../../ir/ir";
import type { Tolerance } from "./args";
import { countMismatch, emptyMismatchMap, type MismatchMap } from "./mismatch-map";
import type { Shape2d } from "./shapes";
import type { MismatchReport } from "../report";

/** torch.testing.assert_close's float32 defaults; integers compare exactly. */
export const FLOAT32_TOLERANCE: Tolerance = { atol: 1e-5, rtol: 1.3e-6 };
export const EXACT: Tolerance = { atol: 0, rtol: 0 };
/** torch.testing.assert_close's float16 defaults. */
export const FLOAT16_TOLERANCE: Tolerance = { atol: 1e-5, rtol: 1e-3 };

/** torch.testing.assert_close's bfloat16 defaults. */
export const BFLOAT16_TOLERANCE: Tolerance = { atol: 1e-5, rtol: 1.6e-2 };

export function defaultTolerance(dtype: PointeeDtype): Tolerance {
  return dtype === "f32" ? FLOAT32_TOLERANCE : dtype === "f16" ? FLOAT16_TOLERANCE : dtype === "bf16" ? BFLOAT16_TOLERANCE : EXACT;
}

/** The first element that differs, and who stored it (docs/LANGUAGE.md §4's `firstMismatch`). */
export type Mismatch = MismatchReport;

export interface Comparison {
  correct: boolean;
  maxAbsDiff: number;
  maxRelDiff: number;
  mismatches: number;
  firstMismatch: Mismatch | null;
  /** For the first mismatched output the run declares 2-D (`shapes`): where it is wrong. */
  mismatchMap?: MismatchMap;
}

export interface OutputToCompare {
  name: string;
  got: ArrayLike<number>;
  expected: ArrayLike<number>;
  tolerance: Tolerance;
  /** Declared 2-D by the run's `shapes`. */
  shape?: Shape2d;
}

export function compareOutputs(outputs: readonly OutputToCompare[]): Comparison {
  let maxAbsDiff = 0;
  let maxRelDiff = 0;
  let mismatches = 0;
  let firstMismatch: Mismatch | null = null;
  let mismatchMap: MismatchMap | undefined;
  for (const { name, got, expected, tolerance, shape } of outputs) {
    const map = shape && !mismatchMap && got.length === expected.length ? emptyMismatchMap(name, shape) : undefined;
    const { atol, rtol } = tolerance;
    const n = Math.min(got.length, expected.length);
    for (let i = 0; i < n; i++) {
      const g = Number(got[i]);
      const e = Number(expected[i]);
      let ok: boolean;
      let abs: number;
      if (Number.isNaN(e) || Number.isNaN(g)) {
        ok = Number.isNaN(e) && Number.isNaN(g);
        abs = ok ? 0 : Infinity;
      } else if (!Number.isFinite(e) || !Number.isFinite(g)) {
        ok = g === e;
        abs = ok ? 0 : Infinity;
      } else {
        abs = Math.abs(g - e);
        ok = abs <= atol + rtol * Math.abs(e);
      }
      const rel = abs === 0 ? 0 : e === 0 ? Infinity : abs / Math.abs(e);
      if (abs > maxAbsDiff) maxAbsDiff = abs;
      if (rel > maxRelDiff) maxRelDiff = rel;
      if (!ok) {
        mismatches++;
        if (!firstMismatch) firstMismatch = { output: name, index: i, got: g, expected: e };
        if (map) countMismatch(map, i);
      }
    }
    if (map && map.counts.some((row) => row.some((c) => c > 0))) mismatchMap = map;
    // A length difference is a bug of the harness, never of the kernel; count it so it shows.
    if (got.length !== expected.length) {
      mismatches += Math.abs(got.length - expected.length);
      if (!firstMismatch) firstMismatch = { output: name, index: n, got: NaN, expected: NaN };
    }
  }
  return { correct: mismatches === 0, maxAbsDiff, maxRelDiff, mismatches, firstMismatch, ...(mismatchMap ? { mismatchMap } : {}) };
}

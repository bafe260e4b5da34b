// Reductions along an axis and scans along the last axis of flat-layout blocks, through each
// invocation's partials (codegen/axis-partials.ts, codegen/scan-runs.ts; bench/NOTES.md §37): along
// axis 0, a middle axis (inner extent above and below the run of 4) and the rows, f32 and i32,
// sum / max / min / argmax, forward and reversed scans with a non-commutative combine, at extents
// that aren't powers of two (masked), fresh random inputs, poisoned outputs, on the GPU and the
// interpreter. Each case caps the workgroup memory below what staging the whole block took, so
// it also fails (KL2016) if the partials path stops being taken.

import { test } from "node:test";
import { poisoned, pow2, randomFloats, randomInts, range, runKernelCase, type KernelCase } from "../support/kernel-runner";

/** Sum, max and argmax of f32 columns, sum and min of i32 columns: [rows, cols] in blocks of [pow2(rows), BN] columns. */
function columns(rows: number, cols: number, bn: number, w: number, cap: number): KernelCase {
  const x = randomFloats(rows * cols, -4, 4);
  const xi = randomInts(rows * cols, -20, 20); // ties in the minimum
  const col = <T extends Float32Array | Int32Array>(a: T, c: number) => range(rows).map((r) => a[r * cols + c]);
  const each = (f: (c: number) => number) => range(cols).map(f);
  return {
    name: `columns (axis 0) of ${rows}×${cols}, ${pow2(rows)}×${bn} blocks, ${w} invocations, in ${cap} bytes`,
    params: "x: Ptr<f32>, xi: Ptr<i32>, s: Ptr<f32>, mx: Ptr<f32>, am: Ptr<i32>, si: Ptr<i32>, mn: Ptr<i32>, rows: i32, cols: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.arange(0, BM);",
      "const c = tl.programId(0) * BN + tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * cols + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < cols, 0);",
      "const v = tl.load(x + offs, m, -Infinity);",
      "const vi = tl.load(xi + offs, m, 1000000);",
      "tl.store(s + c, tl.sum(tl.where(m, v, 0.0), 0), c < cols);",
      "tl.store(mx + c, tl.max(v, 0), c < cols);",
      "tl.store(am + c, tl.argmax(v, 0), c < cols);",
      "tl.store(si + c, tl.sum(tl.where(m, vi, 0), 0), c < cols);",
      "tl.store(mn + c, tl.min(vi, 0), c < cols);",
    ].join("\n"),
    constexprs: { BM: pow2(rows), BN: bn },
    grid: [Math.ceil(cols / bn)],
    args: { x, xi, s: poisoned(cols), mx: poisoned(cols), am: poisoned(cols, "i32"), si: poisoned(cols, "i32"), mn: poisoned(cols, "i32"), rows, cols },
    outputs: ["s", "mx", "am", "si", "mn"],
    expected: {
      s: each((c) => col(x, c).reduce((a, b) => a + b, 0)),
      mx: each((c) => Math.max(...col(x, c))),
      am: each((c) => col(x, c).indexOf(Math.max(...col(x, c)))),
      si: each((c) => col(xi, c).reduce((a, b) => a + b, 0)),
      mn: each((c) => Math.min(...col(xi, c))),
    },
    atol: 1e-4 * rows, rtol: 1e-5,
    target: { workgroupSize: w, maxWorkgroupStorageBytes: cap },
  };
}

/** Sums (f32) and maxima (i32) along the middle axis of [d0, d1, d2] in blocks of [B0, pow2(d1), pow2(d2)]. */
function middle(d0: number, d1: number, d2: number, b0: number, w: number, cap: number): KernelCase {
  const x = randomFloats(d0 * d1 * d2, -4, 4);
  const xi = randomInts(d0 * d1 * d2, -1000, 1000);
  const [b1, b2] = [pow2(d1), pow2(d2)];
  const line = <T extends Float32Array | Int32Array>(a: T, i: number, k: number) => range(d1).map((j) => a[(i * d1 + j) * d2 + k]);
  const each = (f: (i: number, k: number) => number) => range(d0 * d2).map((o) => f(Math.floor(o / d2), o % d2));
  return {
    name: `middle axis of ${d0}×${d1}×${d2}, ${b0}×${b1}×${b2} blocks, ${w} invocations, in ${cap} bytes`,
    params: "x: Ptr<f32>, xi: Ptr<i32>, s: Ptr<f32>, mx: Ptr<i32>, am: Ptr<i32>, d0: i32, d1: i32, d2: i32, B0: constexpr, B1: constexpr, B2: constexpr",
    body: [
      "const i = tl.programId(0) * B0 + tl.arange(0, B0);",
      "const j = tl.arange(0, B1);",
      "const k = tl.arange(0, B2);",
      "const i3 = tl.expandDims(tl.expandDims(i, 1), 2);",
      "const j3 = tl.expandDims(tl.expandDims(j, 0), 2);",
      "const k3 = tl.expandDims(tl.expandDims(k, 0), 1);",
      "const m = i3 < d0 && j3 < d1 && k3 < d2;",
      "const offs = (i3 * d1 + j3) * d2 + k3;",
      "const v = tl.load(x + offs, m, 0.0);",
      "const vi = tl.load(xi + offs, m, -2000000);",
      "const out = tl.expandDims(i, 1) * d2 + tl.expandDims(k, 0);",
      "const om = tl.expandDims(i < d0, 1) && tl.expandDims(k < d2, 0);",
      "tl.store(s + out, tl.sum(v, 1), om);",
      "tl.store(mx + out, tl.max(vi, 1), om);",
      "tl.store(am + out, tl.argmax(vi, 1), om);",
    ].join("\n"),
    constexprs: { B0: b0, B1: b1, B2: b2 },
    grid: [Math.ceil(d0 / b0)],
    args: { x, xi, s: poisoned(d0 * d2), mx: poisoned(d0 * d2, "i32"), am: poisoned(d0 * d2, "i32"), d0, d1, d2 },
    outputs: ["s", "mx", "am"],
    expected: {
      s: each((i, k) => line(x, i, k).reduce((a, b) => a + b, 0)),
      mx: each((i, k) => Math.max(...line(xi, i, k))),
      am: each((i, k) => line(xi, i, k).indexOf(Math.max(...line(xi, i, k)))),
    },
    atol: 1e-4 * d1, rtol: 1e-5,
    target: { workgroupSize: w, maxWorkgroupStorageBytes: cap },
  };
}

/** Sums and argmax of rows (axis 1) of [rows, cols] in [BM, pow2(cols)] blocks: one partial per run of 4. */
function rows(nr: number, nc: number, bm: number, w: number, cap: number): KernelCase {
  const x = randomFloats(nr * nc, -4, 4);
  const xi = randomInts(nr * nc, -1000, 1000);
  const row = <T extends Float32Array | Int32Array>(a: T, r: number) => range(nc).map((c) => a[r * nc + c]);
  return {
    name: `rows (axis 1) of ${nr}×${nc}, ${bm}×${pow2(nc)} blocks, ${w} invocations, in ${cap} bytes`,
    params: "x: Ptr<f32>, xi: Ptr<i32>, s: Ptr<f32>, am: Ptr<i32>, si: Ptr<i32>, rows: i32, cols: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.programId(0) * BM + tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * cols + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < cols, 0);",
      "tl.store(s + r, tl.sum(tl.load(x + offs, m, 0.0), 1), r < rows);",
      "tl.store(am + r, tl.argmax(tl.load(x + offs, m, -Infinity), 1), r < rows);",
      "tl.store(si + r, tl.sum(tl.load(xi + offs, m, 0), 1), r < rows);",
    ].join("\n"),
    constexprs: { BM: bm, BN: pow2(nc) },
    grid: [Math.ceil(nr / bm)],
    args: { x, xi, s: poisoned(nr), am: poisoned(nr, "i32"), si: poisoned(nr, "i32"), rows: nr, cols: nc },
    outputs: ["s", "am", "si"],
    expected: {
      s: range(nr).map((r) => row(x, r).reduce((a, b) => a + b, 0)),
      am: range(nr).map((r) => row(x, r).indexOf(Math.max(...row(x, r)))),
      si: range(nr).map((r) => row(xi, r).reduce((a, b) => a + b, 0)),
    },
    atol: 1e-4 * nc, rtol: 1e-5,
    target: { workgroupSize: w, maxWorkgroupStorageBytes: cap },
  };
}

/**
 * A tiled block (the kernel has a tl.dot) reduced along its columns (column-partials.ts), beside two row reductions
 * outside loops and a scalar sum of the dot (NOTES §81, SpargeAttn's pooling kernel): in a cap below what staging the
 * block (2048 f32) or the reductions' arrays of their own took, so the plan must share one array between them
 * (CodegenOptions.shareReductionArrays), each reduction waiting for the last one's readers.
 */
function tiledColumns(nr: number, nc: number, bm: number, bn: number, w: number, cap: number): KernelCase {
  const x = randomFloats(nr * nc, -2, 2);
  const at = (r: number, c: number) => x[r * nc + c];
  const sum = (a: number[]) => a.reduce((p, q) => p + q, 0);
  let gram = 0;
  for (let i = 0; i < nr; i++) for (let j = 0; j < nr; j++) gram += sum(range(nc).map((c) => at(i, c) * at(j, c)));
  return {
    name: `columns (axis 0) of a tiled ${nr}×${nc} in ${bm}×${bn}, two row sums and a dot's sum, ${w} invocations, in ${cap} bytes`,
    params: "x: Ptr<f32>, cs: Ptr<f32>, cm: Ptr<f32>, rs: Ptr<f32>, rq: Ptr<f32>, tot: Ptr<f32>, rows: i32, cols: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * cols + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < cols, 0);",
      "const v = tl.load(x + offs, m, 0.0);",
      "tl.store(cs + c, tl.sum(v, 0), c < cols);",
      "tl.store(cm + c, tl.max(tl.where(m, v, -Infinity), 0), c < cols);",
      "tl.store(rs + r, tl.sum(v, 1), r < rows);",
      "tl.store(rq + r, tl.sum(v * v, 1), r < rows);",
      "tl.store(tot, tl.sum(tl.dot(v, tl.trans(v))));",
    ].join("\n"),
    constexprs: { BM: bm, BN: bn },
    grid: [1],
    args: { x, cs: poisoned(nc), cm: poisoned(nc), rs: poisoned(nr), rq: poisoned(nr), tot: poisoned(1), rows: nr, cols: nc },
    outputs: ["cs", "cm", "rs", "rq", "tot"],
    expected: {
      cs: range(nc).map((c) => sum(range(nr).map((r) => at(r, c)))),
      cm: range(nc).map((c) => Math.max(...range(nr).map((r) => at(r, c)))),
      rs: range(nr).map((r) => sum(range(nc).map((c) => at(r, c)))),
      rq: range(nr).map((r) => sum(range(nc).map((c) => at(r, c) ** 2))),
      tot: [gram],
    },
    atol: 2e-2, rtol: 1e-4,
    // Without subgroups the row reductions and the scalar one take workgroup arrays (no shuffles).
    target: { workgroupSize: w, maxWorkgroupStorageBytes: cap, subgroups: false },
  };
}

/** Inclusive scans of one long block: f32 cumsum forward and reversed, i32 cumsum, and "keep the left operand" (non-commutative) both ways. */
function longScan(n: number, w: number, cap: number): KernelCase {
  const x = randomFloats(n, -1, 1);
  const xi = randomInts(n, -50, 50);
  const prefix = (a: ArrayLike<number>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((out[i - 1] ?? 0) + a[i]);
    return out;
  };
  const suffix = (a: ArrayLike<number>) => prefix(Array.from(a).reverse()).reverse();
  const block = pow2(n);
  return {
    name: `scans of ${n} elements in one block of ${block}, ${w} invocations, in ${cap} bytes`,
    params: "x: Ptr<f32>, xi: Ptr<i32>, s: Ptr<f32>, rs: Ptr<f32>, si: Ptr<i32>, first: Ptr<i32>, last: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: [
      "const offs = tl.arange(0, BLOCK);",
      "const m = offs < n;",
      "const v = tl.load(x + offs, m, 0.0);",
      "const vi = tl.load(xi + offs, m, 0);",
      "tl.store(s + offs, tl.cumsum(v, 0), m);",
      "tl.store(rs + offs, tl.cumsum(v, 0, true), m);",
      "tl.store(si + offs, tl.cumsum(vi, 0), m);",
      "tl.store(first + offs, tl.associativeScan(vi, 0, (a, b) => a), m);",
      "tl.store(last + offs, tl.associativeScan(vi, 0, (a, b) => a, true), m);",
    ].join("\n"),
    constexprs: { BLOCK: block },
    grid: [1],
    args: { x, xi, s: poisoned(n), rs: poisoned(n), si: poisoned(n, "i32"), first: poisoned(n, "i32"), last: poisoned(n, "i32"), n },
    outputs: ["s", "rs", "si", "first", "last"],
    expected: {
      s: prefix(x),
      rs: suffix(x),
      si: prefix(xi),
      first: range(n).map(() => xi[0]),
      // Reversed, the masked tail (zeros) comes first along the scan.
      last: range(n).map(() => 0),
    },
    atol: 1e-5 * n, rtol: 1e-4,
    target: { workgroupSize: w, maxWorkgroupStorageBytes: cap },
  };
}

// Each cap is below what staging the whole block took (columns: 2048 f32 + 2048 i32 = 16 KiB; the
// middle axes 16 and 8 KiB; rows 2048 × 2 = 16 KiB; the scans 4096 × 2 and their totals, 33 KiB).
const cases: KernelCase[] = [
  columns(300, 13, 4, 128, 8192),
  middle(5, 200, 3, 2, 128, 12288),
  // Inner extent 2, below the run of 4: two partials per run.
  middle(7, 100, 2, 4, 64, 6144),
  rows(13, 200, 8, 128, 8192),
  longScan(3001, 256, 12288),
  // Staging the block took 8 KiB alone; column partials 2 KiB, the three row reductions and the tree 8.5 KiB more.
  tiledColumns(50, 29, 64, 32, 128, 8192),
];

test("reductions and scans through the invocations' partials", async (t) => {
  for (const c of cases) await t.test(c.name, () => runKernelCase(c));
});

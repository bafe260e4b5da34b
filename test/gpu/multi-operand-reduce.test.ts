// Triton's multi-operand tl.reduce and tl.associativeScan (a tuple of blocks combined by one
// function of 2·n parameters returning n values), as kernel libraries write them: Welford's mean
// and variance, an argmax carrying its index (a float value beside an i32 index, ties resolved by
// the combine function), a running (sum, count) scan from the end. On the GPU and the CPU
// interpreter, against float64 references, sizes that aren't multiples of the block, outputs poisoned.

import { test } from "node:test";
import { poisoned, randomFloats, randomInts, type HostArray, type Overrides, range, pow2, type KernelCase, runKernelCase } from "../support/kernel-runner";

type Case = KernelCase;

const suffix = (target?: Overrides) => (target ? ` ${JSON.stringify(target)}` : "");

/** Welford's mean and population variance of each row, BM rows a program: a device function and an inline arrow. */
function welford(rows: number, cols: number, bm: number, target?: Overrides): Case {
  const x = randomFloats(rows * cols, -3, 5);
  const row = (r: number) => range(cols).map((c) => x[r * cols + c]);
  const mean = (r: number) => row(r).reduce((a, b) => a + b, 0) / cols;
  const variance = (r: number) => row(r).reduce((a, b) => a + (b - mean(r)) ** 2, 0) / cols;
  return {
    name: `Welford mean and variance of rows (${rows}×${cols}, ${bm} rows a program)${suffix(target)}`,
    helpers: [
      "const welford_combine = kernel(function welford_combine(mean_a, m2_a, w_a, mean_b, m2_b, w_b) {",
      "  const w = w_a + w_b;",
      "  const frac = tl.where(w == 0.0, 0.0, w_b / w);",
      "  const delta = mean_b - mean_a;",
      "  return [mean_a + delta * frac, m2_a + m2_b + delta * delta * w_a * frac, w];",
      "});",
    ].join("\n") + "\n",
    params: "x: Ptr<f32>, mean: Ptr<f32>, vr: Ptr<f32>, mean2: Ptr<f32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.programId(0) * BM + tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + tl.expandDims(r, 1) * n + tl.expandDims(c, 0), m, 0.0);",
      "const w = tl.where(m, 1.0, 0.0);",
      "const [mu, m2, weight] = tl.reduce([v, tl.zerosLike(v), w], 1, welford_combine);",
      "tl.store(mean + r, mu, r < rows);",
      "tl.store(vr + r, m2 / weight, r < rows);",
      // The same statistics with an inline combine, keepDims: [BM, 1] results.
      "const [s, k] = tl.reduce([v, w], 1, (s_a, k_a, s_b, k_b) => [s_a + s_b, k_a + k_b], true);",
      "tl.store(mean2 + tl.expandDims(r, 1), s / k, tl.expandDims(r < rows, 1));",
    ].join("\n"),
    constexprs: { BM: bm, BN: pow2(cols) },
    grid: [Math.ceil(rows / bm)],
    args: { x, mean: poisoned(rows), vr: poisoned(rows), mean2: poisoned(rows), rows, n: cols },
    outputs: ["mean", "vr", "mean2"],
    expected: { mean: range(rows).map(mean), vr: range(rows).map(variance), mean2: range(rows).map(mean) },
    atol: 1e-5,
    rtol: 1e-4,
    ...(target ? { target } : {}),
  };
}

/**
 * Argmax with its index along axis 0 of a 2-D block (columns) and of a 1-D row: few distinct
 * values, so ties are everywhere; the combine function keeps the smaller index on a tie (the
 * first), or the larger one (the last) in the second reduce.
 */
function argmaxWithIndex(rows: number, cols: number, target?: Overrides): Case {
  const x = randomInts(rows * cols, 0, 4);
  const col = (c: number) => range(rows).map((r) => x[r * cols + c]);
  return {
    name: `argmax with index and ties, first and last (${rows}×${cols})${suffix(target)}`,
    helpers: [
      "const first_max = kernel(function first_max(va, ia, vb, ib) {",
      "  const take_b = vb > va || (vb == va && ib < ia);",
      "  return [tl.where(take_b, vb, va), tl.where(take_b, ib, ia)];",
      "});",
      "const last_max = kernel(function last_max(va, ia, vb, ib) {",
      "  const take_b = vb > va || (vb == va && ib > ia);",
      "  return [tl.where(take_b, vb, va), tl.where(take_b, ib, ia)];",
      "});",
    ].join("\n") + "\n",
    params: "x: Ptr<i32>, mx: Ptr<f32>, first: Ptr<i32>, last: Ptr<i32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + tl.expandDims(r, 1) * n + tl.expandDims(c, 0), m, 0).to(tl.float32);",
      "const vals = tl.where(m, v, -Infinity);",
      "const idx = tl.broadcastTo(tl.expandDims(r, 1), [BM, BN]);",
      "const [best, at] = tl.reduce([vals, idx], 0, first_max);",
      "tl.store(mx + c, best, c < n);",
      "tl.store(first + c, at, c < n);",
      "const [_b, at_last] = tl.reduce([vals, idx], 0, last_max);",
      "tl.store(last + c, at_last, c < n);",
    ].join("\n"),
    constexprs: { BM: pow2(rows), BN: pow2(cols) },
    grid: [1],
    args: { x, mx: poisoned(cols), first: poisoned(cols, "i32"), last: poisoned(cols, "i32"), rows, n: cols },
    outputs: ["mx", "first", "last"],
    expected: {
      mx: range(cols).map((c) => Math.max(...col(c))),
      first: range(cols).map((c) => col(c).indexOf(Math.max(...col(c)))),
      last: range(cols).map((c) => col(c).lastIndexOf(Math.max(...col(c)))),
    },
    ...(target ? { target } : {}),
  };
}

/** A (sum, count) scan from the end of a 1-D block, f32 beside i32, and a (running max, its index) scan from the start. */
function tupleScans(n: number, block: number, target?: Overrides): Case {
  const x = randomFloats(n, -1, 1);
  const blocks = Math.ceil(n / block);
  const part = (b: number) => Array.from(x.subarray(b * block, Math.min(n, (b + 1) * block)));
  const suffixSum = (xs: number[]) => xs.map((_, i) => xs.slice(i).reduce((a, v) => a + v, 0));
  const runningArgmax = (xs: number[]) => xs.map((_, i) => { const head = xs.slice(0, i + 1); return head.indexOf(Math.max(...head)); });
  return {
    name: `tuple scans: (sum, count) from the end, running argmax (${n} in blocks of ${block})${suffix(target)}`,
    helpers: "const pair_add = kernel(function pair_add(a0, a1, b0, b1) { return [a0 + b0, a1 + b1]; });\n",
    params: "x: Ptr<f32>, s: Ptr<f32>, cnt: Ptr<i32>, am: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: [
      "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);",
      "const m = offs < n;",
      "const v = tl.load(x + offs, m, 0.0);",
      "const [sum, count] = tl.associativeScan([v, tl.where(m, 1, 0)], 0, pair_add, true);",
      "tl.store(s + offs, sum, m);",
      "tl.store(cnt + offs, count, m);",
      "const [_m, at] = tl.associativeScan([v, tl.arange(0, BLOCK)], 0, (va, ia, vb, ib) => [tl.maximum(va, vb), tl.where(vb > va, ib, ia)]);",
      "tl.store(am + offs, at, m);",
    ].join("\n"),
    constexprs: { BLOCK: block },
    grid: [blocks],
    args: { x, s: poisoned(n), cnt: poisoned(n, "i32"), am: poisoned(n, "i32"), n },
    outputs: ["s", "cnt", "am"],
    expected: {
      s: range(blocks).flatMap((b) => suffixSum(part(b))),
      cnt: range(blocks).flatMap((b) => part(b).map((_, i, xs) => xs.length - i)),
      am: range(blocks).flatMap((b) => runningArgmax(part(b))),
    },
    atol: 1e-5 * block,
    rtol: 1e-4,
    ...(target ? { target } : {}),
  };
}

const cases: Case[] = [
  welford(13, 300, 4), welford(5, 33, 2, { workgroupSize: 8 }),
  argmaxWithIndex(29, 11), argmaxWithIndex(7, 13, { tiledLayouts: true, workgroupSize: 8 }),
  tupleScans(1000, 256), tupleScans(300, 64, { workgroupSize: 8 }),
];

test("multi-operand tl.reduce and tl.associativeScan", async (t) => {
  for (const c of cases) {
    await t.test(c.name, () => runKernelCase(c));
  }
});

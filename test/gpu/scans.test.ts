// Scans and the newer reductions (issue 11 item 4): tl.cumsum, tl.cumprod, tl.associativeScan,
// tl.reduce, tl.xorSum, tl.argmin on the GPU and the CPU interpreter, against plain TypeScript
// references in float64, at sizes that aren't multiples of the block, with fresh random inputs
// and poisoned outputs; with and without subgroups, tiled layouts and small workgroups where the
// code generation differs.

import { test } from "node:test";
import { poisoned, randomFloats, randomInts, type HostArray, type Overrides, range, pow2, type KernelCase, runKernelCase } from "../support/kernel-runner";

type Case = KernelCase;


/** Inclusive scan of `xs` with `f`, from the end when `reverse`. */
function scan(xs: number[], f: (a: number, b: number) => number, reverse = false): number[] {
  const order = reverse ? [...xs].reverse() : xs;
  const out: number[] = [];
  order.forEach((x, i) => out.push(i === 0 ? x : f(out[i - 1], x)));
  return reverse ? out.reverse() : out;
}

/** Row-wise scans of a [rows, cols] matrix, BM rows per program in a 2-D block along axis 1. */
function rowScans(rows: number, cols: number, bm: number, target?: Overrides): Case {
  const x = randomFloats(rows * cols, -1, 1);
  const p = randomFloats(rows * cols, 0.9, 1.1);
  const row = (a: Float32Array, r: number) => range(cols).map((c) => a[r * cols + c]);
  const all = (f: (r: number) => number[]) => range(rows).flatMap(f);
  return {
    name: `cumsum, reverse cumsum, cumprod, running max of rows (${rows}×${cols}, ${bm} rows a program)${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<f32>, p: Ptr<f32>, s: Ptr<f32>, rs: Ptr<f32>, cp: Ptr<f32>, mx: Ptr<f32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.programId(0) * BM + tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * n + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + offs, m, 0.0);",
      "tl.store(s + offs, tl.cumsum(v, 1), m);",
      "tl.store(rs + offs, tl.cumsum(v, 1, true), m);",
      "tl.store(cp + offs, tl.cumprod(tl.load(p + offs, m, 1.0), 1), m);",
      "tl.store(mx + offs, tl.associativeScan(v, 1, (a, b) => tl.maximum(a, b)), m);",
    ].join("\n"),
    constexprs: { BM: bm, BN: pow2(cols) },
    grid: [Math.ceil(rows / bm)],
    args: { x, p, s: poisoned(rows * cols), rs: poisoned(rows * cols), cp: poisoned(rows * cols), mx: poisoned(rows * cols), rows, n: cols },
    outputs: ["s", "rs", "cp", "mx"],
    expected: {
      s: all((r) => scan(row(x, r), (a, b) => a + b)),
      rs: all((r) => scan(row(x, r), (a, b) => a + b, true)),
      cp: all((r) => scan(row(p, r), (a, b) => a * b)),
      mx: all((r) => scan(row(x, r), Math.max)),
    },
    atol: 1e-5 * cols, rtol: 1e-4,
    ...(target ? { target } : {}),
  };
}

/** Column scans (axis 0 of a 2-D block) of i32, exact; and the operand order of a non-commutative combine. */
function columnScans(rows: number, cols: number, target?: Overrides): Case {
  const x = randomInts(rows * cols, -1000, 1000);
  const col = (c: number) => range(rows).map((r) => x[r * cols + c]);
  const byColumn = (f: (c: number) => number[]) => {
    const out = new Array<number>(rows * cols);
    for (let c = 0; c < cols; c++) f(c).forEach((v, r) => (out[r * cols + c] = v));
    return out;
  };
  return {
    name: `i32 cumsum, first and last of columns (${rows}×${cols})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<i32>, s: Ptr<i32>, first: Ptr<i32>, last: Ptr<i32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * n + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + offs, m, 0);",
      "tl.store(s + offs, tl.cumsum(v, 0), m);",
      "tl.store(first + offs, tl.associativeScan(v, 0, (a, b) => a), m);",
      "tl.store(last + offs, tl.associativeScan(v, 0, (a, b) => a, true), m);",
    ].join("\n"),
    constexprs: { BM: pow2(rows), BN: pow2(cols) },
    grid: [1],
    args: { x, s: poisoned(rows * cols, "i32"), first: poisoned(rows * cols, "i32"), last: poisoned(rows * cols, "i32"), rows, n: cols },
    outputs: ["s", "first", "last"],
    expected: {
      s: byColumn((c) => scan(col(c), (a, b) => a + b)),
      first: byColumn((c) => col(c).map(() => col(c)[0])),
      // Reversed, the masked tail (zeros) comes first along the scan: "first" is the padding's 0 unless rows fill the block.
      last: byColumn((c) => col(c).map(() => (pow2(rows) === rows ? col(c)[rows - 1] : 0))),
    },
    ...(target ? { target } : {}),
  };
}

/** A 1-D scan over many programs (each block scans on its own), i32 and a masked tail. */
function blockCumsum(n: number, block: number, target?: Overrides): Case {
  const x = randomInts(n, -50, 50);
  return {
    name: `1-D cumsum per block (${n} in blocks of ${block})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<i32>, y: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst m = offs < n;\ntl.store(y + offs, tl.cumsum(tl.load(x + offs, m, 0)), m);",
    constexprs: { BLOCK: block },
    grid: [Math.ceil(n / block)],
    args: { x, y: poisoned(n, "i32"), n },
    outputs: ["y"],
    expected: { y: range(Math.ceil(n / block)).flatMap((b) => scan(Array.from(x.subarray(b * block, Math.min(n, (b + 1) * block))), (p, q) => p + q)) },
    ...(target ? { target } : {}),
  };
}

/** tl.reduce, tl.xorSum and tl.argmin of rows (ties in argmin resolve to the smallest index). */
function rowReductions(rows: number, cols: number, target?: Overrides): Case {
  const x = randomInts(rows * cols, 0, 6); // few values: many ties
  const f = randomFloats(rows * cols, -4, 4);
  const row = <T extends Int32Array | Float32Array>(a: T, r: number) => range(cols).map((c) => a[r * cols + c]);
  return {
    name: `tl.reduce, xorSum, argmin of rows (${rows}×${cols})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<i32>, f: Ptr<f32>, mx: Ptr<f32>, first: Ptr<f32>, xs: Ptr<i32>, am: Ptr<i32>, amf: Ptr<i32>, tot: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: [
      "const r = tl.programId(0);",
      "const c = tl.arange(0, BLOCK);",
      "const m = c < n;",
      "const v = tl.load(x + r * n + c, m, 0);",
      "const w = tl.load(f + r * n + c, m, -Infinity);",
      "tl.store(mx + r, tl.reduce(w, 0, (a, b) => tl.maximum(a, b)));",
      "tl.store(first + r, tl.reduce(w, 0, (a, b) => a));",
      "tl.store(xs + r, tl.xorSum(v * 37 + 11, 0));",
      "tl.store(am + r, tl.argmin(tl.where(m, v, 1000), 0));",
      "tl.store(amf + r, tl.argmin(tl.where(m, w, Infinity)));",
      "tl.store(tot + r, tl.reduce(v, 0, (a, b) => a + b * 2));",
    ].join("\n"),
    constexprs: { BLOCK: pow2(cols) },
    grid: [rows],
    args: { x, f, mx: poisoned(rows), first: poisoned(rows), xs: poisoned(rows, "i32"), am: poisoned(rows, "i32"), amf: poisoned(rows, "i32"), tot: poisoned(rows, "i32"), n: cols },
    outputs: ["mx", "first", "xs", "am", "amf", "tot"],
    expected: {
      mx: range(rows).map((r) => Math.max(...row(f, r))),
      first: range(rows).map((r) => f[r * cols]),
      xs: range(rows).map((r) => row(x, r).reduce((a, b) => a ^ (b * 37 + 11), 0) ^ (pow2(cols) - cols) % 2 * 11),
      am: range(rows).map((r) => row(x, r).indexOf(Math.min(...row(x, r)))),
      amf: range(rows).map((r) => row(f, r).indexOf(Math.min(...row(f, r)))),
      // Not associative: the GPU folds in order as the interpreter does.
      tot: range(rows).map((r) => row(x, r).reduce((a, b, i) => (i === 0 ? b : a + b * 2), 0)),
    },
    ...(target ? { target } : {}),
  };
}

/** 2-D tl.reduce along each axis, tl.argmin along axis 0, xorSum along axis 1. */
function axisReductions(rows: number, cols: number, target?: Overrides): Case {
  const x = randomInts(rows * cols, -5, 5);
  const at = (r: number, c: number) => x[r * cols + c];
  return {
    name: `2-D tl.reduce, argmin, xorSum along axes (${rows}×${cols})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<i32>, cmin: Ptr<i32>, rsum: Ptr<i32>, cam: Ptr<i32>, rx: Ptr<i32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + tl.expandDims(r, 1) * n + tl.expandDims(c, 0), m, 0);",
      "const big = tl.where(m, v, 99);",
      "tl.store(cmin + c, tl.reduce(big, 0, (a, b) => tl.minimum(a, b)), c < n);",
      "tl.store(rsum + r, tl.reduce(v, 1, (a, b) => a + b), r < rows);",
      "tl.store(cam + c, tl.argmin(big, 0), c < n);",
      "tl.store(rx + r, tl.xorSum(v, 1), r < rows);",
    ].join("\n"),
    constexprs: { BM: pow2(rows), BN: pow2(cols) },
    grid: [1],
    args: { x, cmin: poisoned(cols, "i32"), rsum: poisoned(rows, "i32"), cam: poisoned(cols, "i32"), rx: poisoned(rows, "i32"), rows, n: cols },
    outputs: ["cmin", "rsum", "cam", "rx"],
    expected: {
      cmin: range(cols).map((c) => Math.min(...range(rows).map((r) => at(r, c)))),
      rsum: range(rows).map((r) => range(cols).reduce((a, c) => a + at(r, c), 0)),
      cam: range(cols).map((c) => { const col = range(rows).map((r) => at(r, c)); return col.indexOf(Math.min(...col)); }),
      rx: range(rows).map((r) => range(cols).reduce((a, c) => a ^ at(r, c), 0)),
    },
    ...(target ? { target } : {}),
  };
}

/** A scan in every trip of a loop (its workgroup arrays reused) and a tl.reduce steering an `if`. */
function loopAndSteering(rows: number, cols: number, target?: Overrides): Case {
  const x = randomInts(rows * cols, -20, 20);
  const block = pow2(cols);
  const acc = new Array<number>(block).fill(0);
  for (let r = 0; r < rows; r++) scan(range(block).map((c) => (c < cols ? x[r * cols + c] : 0)), (a, b) => a + b).forEach((v, c) => (acc[c] += v));
  const total = acc.reduce((a, b) => a + b, 0);
  return {
    name: `cumsum in a loop, tl.reduce steering an if (${rows}×${cols})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<i32>, out: Ptr<i32>, rows: i32, n: i32, BLOCK: constexpr",
    body: [
      "const c = tl.arange(0, BLOCK);",
      "let acc = tl.zeros([BLOCK], \"i32\");",
      "for (let r = 0; r < rows; r++) {",
      "  acc = acc + tl.cumsum(tl.load(x + r * n + c, c < n, 0), 0);",
      "}",
      "const total = tl.reduce(acc, 0, (a, b) => a + b);",
      "if (total > 0) {",
      "  tl.store(out + c, acc, c < n);",
      "} else {",
      "  tl.store(out + c, -acc, c < n);",
      "}",
    ].join("\n"),
    constexprs: { BLOCK: block },
    grid: [1],
    args: { x, out: poisoned(cols, "i32"), rows, n: cols },
    outputs: ["out"],
    expected: { out: acc.slice(0, cols).map((v) => (total > 0 ? v : -v)) },
    ...(target ? { target } : {}),
  };
}

/**
 * Combine functions passed by name, as Triton code passes its @triton.jit ones (FlagGems'
 * `tl.reduce(acc, axis=1, combine_fn=reduce_mul)`): device functions, one of several statements,
 * given positionally and as the keyword combineFn, to a scan and to reductions of a 2-D block.
 */
function namedCombines(rows: number, cols: number, bm: number): Case {
  const x = randomFloats(rows * cols, -1, 1);
  const p = randomFloats(rows * cols, 0.9, 1.1);
  const row = (a: Float32Array, r: number) => range(cols).map((c) => a[r * cols + c]);
  const all = (f: (r: number) => number[]) => range(rows).flatMap(f);
  return {
    name: `combine functions passed by name: running max, product and ordered fold of rows (${rows}×${cols}, ${bm} rows a program)`,
    helpers: [
      "const max_fn = kernel(function max_fn(a, b) {\n  const a_wins = a > b;\n  return tl.where(a_wins, a, b);\n});",
      "const reduce_mul = kernel(function reduce_mul(a, b) { return a * b; });",
      "const ordered = kernel(function ordered(a: f32, b: f32) { return a + b * 2.0; });",
    ].join("\n") + "\n",
    params: "x: Ptr<f32>, p: Ptr<f32>, mx: Ptr<f32>, prod: Ptr<f32>, fold: Ptr<f32>, rows: i32, n: i32, BM: constexpr, BN: constexpr",
    body: [
      "const r = tl.programId(0) * BM + tl.arange(0, BM);",
      "const c = tl.arange(0, BN);",
      "const offs = tl.expandDims(r, 1) * n + tl.expandDims(c, 0);",
      "const m = tl.expandDims(r < rows, 1) && tl.expandDims(c < n, 0);",
      "const v = tl.load(x + offs, m, -Infinity);",
      "tl.store(mx + offs, tl.associativeScan(v, 1, max_fn), m);",
      "tl.store(prod + r, tl.reduce(tl.load(p + offs, m, 1.0), { axis: 1, combineFn: reduce_mul }), r < rows);",
      "tl.store(fold + r, tl.reduce(tl.where(m, v, 0.0), 1, ordered), r < rows);",
    ].join("\n"),
    constexprs: { BM: bm, BN: pow2(cols) },
    grid: [Math.ceil(rows / bm)],
    args: { x, p, mx: poisoned(rows * cols), prod: poisoned(rows), fold: poisoned(rows), rows, n: cols },
    outputs: ["mx", "prod", "fold"],
    expected: {
      mx: all((r) => scan(row(x, r), Math.max)),
      prod: range(rows).map((r) => row(p, r).reduce((a, b) => a * b, 1)),
      // Not commutative: folded in order along the row, the padding (0) after the row's values.
      fold: range(rows).map((r) => row(x, r).reduce((a, b, i) => (i === 0 ? b : a + b * 2), 0)),
    },
    atol: 1e-5,
    rtol: 1e-4,
  };
}

const cases: Case[] = [
  loopAndSteering(9, 300), loopAndSteering(3, 5, { workgroupSize: 8 }),
  rowScans(37, 100, 4), rowScans(5, 1, 2), rowScans(3, 777, 1),
  // Small workgroups (more elements per invocation, segments within one invocation's share) and tiled layouts.
  rowScans(37, 100, 4, { tiledLayouts: true }), rowScans(9, 30, 2, { workgroupSize: 8 }),
  columnScans(13, 29), columnScans(16, 5), columnScans(7, 13, { tiledLayouts: true, workgroupSize: 8 }),
  blockCumsum(1000, 256), blockCumsum(3, 1024), blockCumsum(300, 64, { workgroupSize: 8 }),
  rowReductions(13, 127), rowReductions(7, 1000), rowReductions(3, 1),
  // xorSum and argmin without subgroups: the workgroup-memory tree.
  rowReductions(13, 127, { subgroups: false }), rowReductions(7, 1000, { subgroups: false }), rowReductions(5, 100, { workgroupSize: 8 }),
  axisReductions(11, 29), axisReductions(11, 29, { tiledLayouts: true, workgroupSize: 8 }),
  namedCombines(13, 29, 4),
];

test("scans, tl.reduce, xorSum, argmin", async (t) => {
  for (const c of cases) {
    await t.test(c.name, () => runKernelCase(c));
  }
});

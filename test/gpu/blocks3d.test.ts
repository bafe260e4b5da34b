// Blocks of three axes (docs/LANGUAGE.md §2.1, issue 23 item 4) on the GPU and the CPU interpreter: creation,
// tl.expandDims to a third axis, broadcasting, masked loads and stores, reductions and scans along
// each axis, reshape, tl.trans/tl.permute, and tl.dot of 3-D blocks as a batched product — at
// extents the blocks don't divide, with fresh random inputs and poisoned outputs, against plain
// TypeScript references in float64.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth, type HostArray, range, type KernelCase } from "../support/kernel-runner";

type Case = KernelCase;

/** Offsets of a [B0, B1, B2] block into a [d0, d1, d2] row-major tensor, and the mask of its in-bounds elements. */
const OFFSETS3 =
  "const i = tl.expandDims(tl.arange(0, B0), [1, 2]);\nconst j = tl.expandDims(tl.expandDims(tl.arange(0, B1), 0), 2);\nconst k = tl.expandDims(tl.arange(0, B2), [0, 1]);\nconst offs = (i * d1 + j) * d2 + k;\nconst mask = i < d0 && j < d1 && k < d2;";
const DIMS = "d0: i32, d1: i32, d2: i32, B0: constexpr, B1: constexpr, B2: constexpr";

/** Element (a, b, c) of a [d0, d1, d2] tensor stored row-major in `x`. */
const at3 = (x: ArrayLike<number>, d1: number, d2: number) => (a: number, b: number, c: number) => x[(a * d1 + b) * d2 + c];

function reductions(d0: number, d1: number, d2: number): Case {
  const x = randomFloats(d0 * d1 * d2, -2, 2);
  const v = at3(x, d1, d2);
  return {
    name: `3-D masked load, sums along each axis, max of all, argmin along the middle (${d0}×${d1}×${d2} in 4×8×16)`,
    params: `x: Ptr<f32>, s0: Ptr<f32>, s1: Ptr<f32>, s2: Ptr<f32>, mx: Ptr<f32>, am: Ptr<i32>, ${DIMS}`,
    body: `${OFFSETS3}\nconst t = tl.load(x + offs, mask, 0.0);\n` +
      // sum over axis 0 → [B1, B2]; store through the matching 2-D offsets.
      "tl.store(s0 + j * d2 + k, tl.sum(t, 0, { keepDims: true }), j < d1 && k < d2);\n" +
      "const s1v = tl.sum(t, 1);\ntl.store(s1 + tl.expandDims(tl.arange(0, B0), 1) * d2 + tl.expandDims(tl.arange(0, B2), 0), s1v, tl.expandDims(tl.arange(0, B0), 1) < d0 && tl.expandDims(tl.arange(0, B2), 0) < d2);\n" +
      "tl.store(s2 + i * d1 + j, tl.sum(t, 2, { keepDims: true }), i < d0 && j < d1);\n" +
      "tl.store(mx, tl.max(tl.where(mask, t, -Infinity)));\n" +
      "tl.store(am + i * d2 + k, tl.argmin(tl.where(mask, t, Infinity), 1, { keepDims: true }), i < d0 && k < d2);",
    constexprs: { B0: 4, B1: 8, B2: 16 },
    grid: [1],
    args: { x, s0: poisoned(d1 * d2), s1: poisoned(d0 * d2), s2: poisoned(d0 * d1), mx: poisoned(1), am: poisoned(d0 * d2, "i32"), d0, d1, d2 },
    outputs: ["s0", "s1", "s2", "mx", "am"],
    expected: {
      s0: range(d1 * d2).map((e) => range(d0).reduce((s, a) => s + v(a, Math.floor(e / d2), e % d2), 0)),
      s1: range(d0 * d2).map((e) => range(d1).reduce((s, b) => s + v(Math.floor(e / d2), b, e % d2), 0)),
      s2: range(d0 * d1).map((e) => range(d2).reduce((s, c) => s + v(Math.floor(e / d1), e % d1, c), 0)),
      mx: [Math.max(...Array.from(x))],
      am: range(d0 * d2).map((e) => { const line = range(d1).map((b) => v(Math.floor(e / d2), b, e % d2)); return line.indexOf(Math.min(...line)); }),
    },
    atol: 1e-5,
  };
}

function rearrangements(d0: number, d1: number, d2: number): Case {
  const x = randomFloats(d0 * d1 * d2);
  const v = at3(x, d1, d2);
  return {
    name: `3-D permute, trans, reshape, broadcast and cumsum along the first axis (${d0}×${d1}×${d2})`,
    params: `x: Ptr<f32>, p: Ptr<f32>, t: Ptr<f32>, r: Ptr<f32>, c: Ptr<f32>, ${DIMS}`,
    body: `${OFFSETS3}\nconst blk = tl.load(x + offs, mask, 0.0);\n` +
      // permute [B0,B1,B2] → [B2,B0,B1]: element (k, i, j) stored at (k * d0 + i) * d1 + j.
      "const pk = tl.expandDims(tl.arange(0, B2), [1, 2]);\nconst pi = tl.expandDims(tl.expandDims(tl.arange(0, B0), 0), 2);\nconst pj = tl.expandDims(tl.arange(0, B1), [0, 1]);\n" +
      "tl.store(p + (pk * d0 + pi) * d1 + pj, tl.permute(blk, [2, 0, 1]), pk < d2 && pi < d0 && pj < d1);\n" +
      // trans without dims swaps the last two axes: [B0, B2, B1].
      "const tk = tl.expandDims(tl.expandDims(tl.arange(0, B2), 0), 2);\nconst tj = tl.expandDims(tl.arange(0, B1), [0, 1]);\n" +
      "tl.store(t + (i * d2 + tk) * d1 + tj, tl.trans(blk), i < d0 && tk < d2 && tj < d1);\n" +
      // reshape to [B0, B1 * B2] and back is the identity; broadcast a [B0, 1, 1] row sum over the block.
      "const flat = tl.reshape(blk, [B0, B1 * B2]);\nconst rows = tl.reshape(tl.sum(flat, 1), [B0, 1, 1]);\ntl.store(r + offs, tl.reshape(flat, B0, B1, B2) + tl.broadcastTo(rows, [B0, B1, B2]), mask);\n" +
      "tl.store(c + offs, tl.cumsum(blk, 0), mask);",
    constexprs: { B0: 4, B1: 4, B2: 8 },
    grid: [1],
    args: { x, p: poisoned(d0 * d1 * d2), t: poisoned(d0 * d1 * d2), r: poisoned(d0 * d1 * d2), c: poisoned(d0 * d1 * d2), d0, d1, d2 },
    outputs: ["p", "t", "r", "c"],
    expected: {
      p: range(d0 * d1 * d2).map((e) => { const [kk, ii, jj] = [Math.floor(e / (d0 * d1)), Math.floor(e / d1) % d0, e % d1]; return v(ii, jj, kk); }),
      t: range(d0 * d1 * d2).map((e) => { const [ii, kk, jj] = [Math.floor(e / (d2 * d1)), Math.floor(e / d1) % d2, e % d1]; return v(ii, jj, kk); }),
      r: range(d0 * d1 * d2).map((e) => { const a = Math.floor(e / (d1 * d2)); let s = 0; for (let b = 0; b < d1; b++) for (let cc = 0; cc < d2; cc++) s += v(a, b, cc); return x[e] + s; }),
      c: range(d0 * d1 * d2).map((e) => { const [a, b, cc] = [Math.floor(e / (d1 * d2)), Math.floor(e / d2) % d1, e % d2]; let s = 0; for (let q = 0; q <= a; q++) s += v(q, b, cc); return s; }),
    },
    atol: 1e-5,
  };
}

function batchedDot(batch: number, m: number, k: number, n: number): Case {
  const a = randomFloats(batch * m * k);
  const b = randomFloats(batch * k * n);
  const acc = randomFloats(batch * m * n);
  return {
    name: `tl.dot of 3-D blocks, a batched product with an accumulator (${batch}×${m}×${k} · ${batch}×${k}×${n} in 2×16×16 · 2×16×32)`,
    params: "a: Ptr<f32>, b: Ptr<f32>, acc: Ptr<f32>, out: Ptr<f32>, B: i32, M: i32, K: i32, N: i32, BB: constexpr, BM: constexpr, BK: constexpr, BN: constexpr",
    body:
      "const bb = tl.expandDims(tl.arange(0, BB), [1, 2]);\nconst rm = tl.expandDims(tl.expandDims(tl.arange(0, BM), 0), 2);\nconst rk = tl.expandDims(tl.arange(0, BK), [0, 1]);\nconst rkr = tl.expandDims(tl.expandDims(tl.arange(0, BK), 0), 2);\nconst rn = tl.expandDims(tl.arange(0, BN), [0, 1]);\n" +
      "const x = tl.load(a + (bb * M + rm) * K + rk, bb < B && rm < M && rk < K, 0.0);\n" +
      "const y = tl.load(b + (bb * K + rkr) * N + rn, bb < B && rkr < K && rn < N, 0.0);\n" +
      "const c0 = tl.load(acc + (bb * M + rm) * N + rn, bb < B && rm < M && rn < N, 0.0);\n" +
      "tl.store(out + (bb * M + rm) * N + rn, tl.dot(x, y, c0), bb < B && rm < M && rn < N);",
    constexprs: { BB: 2, BM: 16, BK: 16, BN: 32 },
    grid: [1],
    args: { a, b, acc, out: poisoned(batch * m * n), B: batch, M: m, K: k, N: n },
    outputs: ["out"],
    expected: {
      out: range(batch * m * n).map((e) => {
        const [q, r, c] = [Math.floor(e / (m * n)), Math.floor(e / n) % m, e % n];
        let s = acc[e];
        for (let t = 0; t < k; t++) s += a[(q * m + r) * k + t] * b[(q * k + t) * n + c];
        return s;
      }),
    },
    atol: 1e-4,
  };
}

const cases: Case[] = [reductions(3, 7, 13), reductions(4, 8, 16), rearrangements(3, 4, 5), batchedDot(2, 13, 11, 19)];

for (const c of cases) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n`;
    const { gpu, cpu } = await runBoth({ source, constexprs: c.constexprs, grid: c.grid, args: c.args, outputs: c.outputs });
    for (const name of c.outputs) {
      assertClose(gpu[name], c.expected[name], `GPU ${name}`, c.atol ?? 0, 1e-5);
      assertClose(cpu[name], c.expected[name], `CPU ${name}`, c.atol ?? 0, 1e-5);
    }
  });
}

// Two-dimensional blocks, reductions and tl.dot (docs/LANGUAGE.md §2, issue 4) on the GPU and the CPU
// interpreter, against plain TypeScript references in float64, at shapes that aren't multiples
// of the block (1×1, 127×33, …), with fresh random inputs and poisoned outputs.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, randomInts, runBoth, type HostArray, type Overrides, range, type KernelCase } from "../support/kernel-runner";
import { acquireGpu } from "../../src/runtime";

type Case = KernelCase;


/**
 * A [64, cols] block (cols < 4) of a matrix whose rows are `stride` apart, copied and doubled into
 * a dense one: a run of 4 registers spans rows here, so it must not be one vec4 access (rows 3
 * apart once read elements 2 and 3 where 3 and 4 belong).
 */
function narrowRows(cols: number, stride: number): Case {
  const x = randomFloats(64 * stride, -4, 4);
  return {
    name: `a [64, ${cols}] block of rows ${stride} apart: no vec4 across rows`,
    params: "x: Ptr<f32>, o: Ptr<f32>, S: i32, C: constexpr",
    body: "const r = tl.arange(0, 64);\nconst c = tl.arange(0, C);\nconst v = tl.load(x + tl.expandDims(r, 1) * S + tl.expandDims(c, 0));\ntl.store(o + tl.expandDims(r, 1) * (S + 1) + tl.expandDims(c, 0), v * 2.0);",
    constexprs: { C: cols },
    grid: [1],
    args: { x, o: new Float32Array(64 * (stride + 1)), S: stride },
    outputs: ["o"],
    expected: { o: range(64 * (stride + 1)).map((i) => (i % (stride + 1) < cols ? 2 * x[Math.floor(i / (stride + 1)) * stride + (i % (stride + 1))] : 0)) },
  };
}

function rowReductions(rows: number, cols: number): Case {
  const x = randomFloats(rows * cols, -4, 4);
  const row = (r: number) => range(cols).map((c) => x[r * cols + c]);
  return {
    name: `sum, max, min, argmax of rows (${rows}×${cols}, masked tail)`,
    params: "x: Ptr<f32>, s: Ptr<f32>, mx: Ptr<f32>, mn: Ptr<f32>, am: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `const r = tl.programId(0);\nconst c = tl.arange(0, BLOCK);\nconst m = c < n;\nconst v = tl.load(x + r * n + c, m, 0.0);\ntl.store(s + r, tl.sum(v, 0));\ntl.store(mx + r, tl.max(tl.where(m, v, -Infinity), 0));\ntl.store(mn + r, tl.min(tl.where(m, v, Infinity)));\ntl.store(am + r, tl.argmax(tl.where(m, v, -Infinity), 0));`,
    constexprs: { BLOCK: 2 ** Math.ceil(Math.log2(Math.max(cols, 1))) },
    grid: [rows],
    args: { x, s: poisoned(rows), mx: poisoned(rows), mn: poisoned(rows), am: poisoned(rows, "i32"), n: cols },
    outputs: ["s", "mx", "mn", "am"],
    expected: {
      s: range(rows).map((r) => row(r).reduce((a, b) => a + b, 0)),
      mx: range(rows).map((r) => Math.max(...row(r))),
      mn: range(rows).map((r) => Math.min(...row(r))),
      am: range(rows).map((r) => row(r).indexOf(Math.max(...row(r)))),
    },
    atol: 1e-5 * cols, rtol: 1e-5,
  };
}

function axisReductions(rows: number, cols: number): Case {
  const x = randomInts(rows * cols, -50, 50);
  return {
    name: `integer 2-D reductions along each axis (${rows}×${cols} in a 16×32 tile)`,
    params: "x: Ptr<i32>, by_row: Ptr<i32>, by_col: Ptr<i32>, best: Ptr<i32>, M: i32, N: i32, BM: constexpr, BN: constexpr",
    body: `const rm = tl.arange(0, BM);\nconst cn = tl.arange(0, BN);\nconst mask = tl.expandDims(rm, 1) < M && tl.expandDims(cn, 0) < N;\nconst t = tl.load(x + tl.expandDims(rm, 1) * N + tl.expandDims(cn, 0), mask, 0);\ntl.store(by_row + rm, tl.sum(t, 1), rm < M);\ntl.store(by_col + cn, tl.max(tl.where(mask, t, -1000), 0), cn < N);\ntl.store(best + rm, tl.argmax(tl.where(mask, t, -1000), 1), rm < M);`,
    constexprs: { BM: 16, BN: 32 },
    grid: [1],
    args: { x, by_row: poisoned(16, "i32"), by_col: poisoned(32, "i32"), best: poisoned(16, "i32"), M: rows, N: cols },
    outputs: ["by_row", "by_col", "best"],
    expected: {
      by_row: range(16).map((r) => (r < rows ? range(cols).reduce((a, c) => a + x[r * cols + c], 0) : 0x7fbadbad)),
      by_col: range(32).map((c) => (c < cols ? Math.max(...range(rows).map((r) => x[r * cols + c])) : 0x7fbadbad)),
      best: range(16).map((r) => { if (r >= rows) return 0x7fbadbad; const v = range(cols).map((c) => x[r * cols + c]); return v.indexOf(Math.max(...v)); }),
    },
  };
}

function matmul(m: number, n: number, k: number, bm: number, bn: number, bk: number): Case {
  const a = randomFloats(m * k);
  const b = randomFloats(k * n);
  const c0 = randomFloats(m * n);
  return {
    name: `tl.dot with an accumulator over K, ${m}×${k} · ${k}×${n}, blocks ${bm}×${bn}×${bk}`,
    params: "a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, M: i32, N: i32, K: i32, BM: constexpr, BN: constexpr, BK: constexpr",
    body: `const om = tl.programId(0) * BM + tl.arange(0, BM);\nconst on = tl.programId(1) * BN + tl.arange(0, BN);\nconst ok = tl.arange(0, BK);\nconst cptr = c + tl.expandDims(om, 1) * N + tl.expandDims(on, 0);\nconst cmask = tl.expandDims(om, 1) < M && tl.expandDims(on, 0) < N;\nlet acc = tl.load(cptr, cmask, 0.0);\nfor (let k0 = 0; k0 < K; k0 += BK) {\n  const ta = tl.load(a + tl.expandDims(om, 1) * K + tl.expandDims(k0 + ok, 0), tl.expandDims(om, 1) < M && tl.expandDims(k0 + ok, 0) < K, 0.0);\n  const tb = tl.load(b + tl.expandDims(k0 + ok, 1) * N + tl.expandDims(on, 0), tl.expandDims(k0 + ok, 1) < K && tl.expandDims(on, 0) < N, 0.0);\n  acc = tl.dot(ta, tb, acc);\n}\ntl.store(cptr, acc, cmask);`,
    constexprs: { BM: bm, BN: bn, BK: bk },
    grid: [Math.ceil(m / bm), Math.ceil(n / bn)],
    args: { a, b, c: c0.slice(), M: m, N: n, K: k },
    outputs: ["c"],
    expected: { c: range(m * n).map((e) => { const i = Math.floor(e / n), j = e % n; let s = c0[e]; for (let p = 0; p < k; p++) s += a[i * k + p] * b[p * n + j]; return s; }) },
    atol: 1e-5 * k, rtol: 1e-4,
  };
}

function shapes(): Case {
  const x = randomFloats(8 * 16);
  const v = randomFloats(16);
  return {
    name: "expandDims, broadcastTo, reshape, trans, zeros and full in 2-D",
    params: "x: Ptr<f32>, v: Ptr<f32>, out: Ptr<f32>, out_t: Ptr<f32>, out_r: Ptr<f32>",
    body: `const r = tl.arange(0, 8);\nconst c = tl.arange(0, 16);\nconst tile = tl.load(x + tl.expandDims(r, 1) * 16 + tl.expandDims(c, 0));\nconst row = tl.broadcastTo(tl.expandDims(tl.load(v + c), 0), [8, 16]);\nconst z = tl.zeros([8, 16], "f32") + tl.full([8, 16], 0.5, "f32");\ntl.store(out + tl.expandDims(r, 1) * 16 + tl.expandDims(c, 0), tile * row + z);\ntl.store(out_t + tl.expandDims(c, 1) * 8 + tl.expandDims(r, 0), tl.trans(tile));\ntl.store(out_r + tl.arange(0, 128), tl.reshape(tile, [128]) * 2.0);`,
    constexprs: {},
    grid: [1],
    args: { x, v, out: poisoned(128), out_t: poisoned(128), out_r: poisoned(128) },
    outputs: ["out", "out_t", "out_r"],
    expected: {
      out: range(128).map((e) => Math.fround(Math.fround(x[e] * v[e % 16]) + 0.5)),
      out_t: range(128).map((e) => x[(e % 8) * 16 + Math.floor(e / 8)]),
      out_r: range(128).map((e) => x[e] * 2),
    },
  };
}

/** A reduction's result steering an if and a loop that hold further reductions (barriers). */
function steeringReductions(target?: Overrides): Case {
  const x = randomFloats(64, 0, 1);
  const sum = Array.from(x).reduce((a, b) => a + b, 0);
  const max = Math.max(...x);
  const trips = Math.floor(sum / 8);
  return {
    name: `reductions under control flow steered by a reduction${target ? " (no subgroups)" : ""}`,
    params: "x: Ptr<f32>, out: Ptr<f32>",
    body: `const v = tl.load(x + tl.arange(0, 64));\nconst s = tl.sum(v, 0);\nlet acc = 0.0;\nif (s > 1.0) {\n  acc = tl.max(v, 0);\n}\nfor (let i = 0; i < tl.cast(s / 8.0, "i32"); i++) {\n  acc = acc + tl.min(v, 0);\n}\ntl.store(out, acc);`,
    constexprs: {},
    grid: [1],
    args: { x, out: poisoned(1) },
    outputs: ["out"],
    expected: { out: [(sum > 1 ? max : 0) + trips * Math.min(...x)] },
    atol: 1e-5, rtol: 1e-5,
    ...(target ? { target } : {}),
  };
}

/** Two reductions in each trip of a loop: the partials array is reused, so each waits for the last readers. */
function loopReductions(rows: number, cols: number, target?: Overrides): Case {
  const x = randomFloats(rows * cols, -2, 2);
  const row = (r: number) => range(cols).map((c) => x[r * cols + c]);
  return {
    name: `two reductions per loop trip (${rows}×${cols})${target ? ` ${JSON.stringify(target)}` : ""}`,
    params: "x: Ptr<f32>, out: Ptr<f32>, rows: i32, n: i32, BLOCK: constexpr",
    body: `const c = tl.arange(0, BLOCK);\nlet acc = 0.0;\nfor (let r = 0; r < rows; r++) {\n  const v = tl.load(x + r * n + c, c < n, 0.0);\n  acc = acc + tl.sum(v, 0) * tl.max(tl.where(c < n, v, -Infinity), 0);\n}\ntl.store(out, acc);`,
    constexprs: { BLOCK: 2 ** Math.ceil(Math.log2(Math.max(cols, 1))) },
    grid: [1],
    args: { x, out: poisoned(1), rows, n: cols },
    outputs: ["out"],
    expected: { out: [range(rows).reduce((a, r) => a + row(r).reduce((p, q) => p + q, 0) * Math.max(...row(r)), 0)] },
    atol: 1e-4 * cols, rtol: 1e-4,
    ...(target ? { target } : {}),
  };
}

const cases: Case[] = [
  steeringReductions(), steeringReductions({ subgroups: false }),
  rowReductions(37, 1), rowReductions(13, 127), rowReductions(5, 1000),
  axisReductions(1, 1), axisReductions(11, 29),
  matmul(1, 1, 1, 16, 16, 16), matmul(127, 33, 65, 32, 32, 16), matmul(70, 90, 40, 64, 32, 16), matmul(130, 150, 37, 64, 64, 16),
  { ...matmul(129, 65, 33, 128, 128, 32), name: "tl.dot on tiled layouts (129×33 · 33×65, blocks 128×128×32)", target: { tiledLayouts: true } },
  { ...matmul(130, 150, 37, 64, 64, 16), name: "tl.dot on tiled layouts (130×37 · 37×150, blocks 64×64×16)", target: { tiledLayouts: true } },
  { ...axisReductions(11, 29), name: "2-D reductions on a tiled layout (11×29 in a 16×32 tile, 8 invocations)", target: { tiledLayouts: true, workgroupSize: 8 } },
  { ...shapes(), name: "expandDims, broadcastTo, reshape, trans on tiled layouts (8 invocations)", target: { tiledLayouts: true, workgroupSize: 8 } },
  // tl.dot's operand loads are pipelined by default (codegen/pipeline.ts); num_stages 1 is the loop as written.
  { ...matmul(127, 33, 65, 32, 32, 16), name: "tl.dot without pipelining (num_stages 1)", target: { numStages: 1 } },
  // Double-buffered tiles are off by default (slower on the H200, bench/NOTES.md §13) but kept correct.
  { ...matmul(130, 150, 37, 64, 64, 16), name: "tl.dot with double-buffered tiles (130×37 · 37×150, blocks 64×64×16)", target: { tiledLayouts: true, doubleBufferDot: true } },
  { ...matmul(129, 65, 33, 128, 128, 32), name: "pipelined tl.dot on tiled layouts, one trip (129×33 · 33×65)", target: { tiledLayouts: true, preferredWorkgroupSize: 256 } },
  { ...matmul(70, 90, 40, 64, 64, 16), name: "tl.dot on tiled layouts with the k loop written out (70×40 · 40×90)", target: { tiledLayouts: true, unrollDot: true } },
  // Staged A's rows shifted against bank conflicts (codegen/dot.ts), in each way A is written:
  // a tiled A as vec4s down its columns (two row groups, two column pieces, K = 64 so the shift
  // passes 32 elements), a flat A one element at a time, and the first with the shift off. B is
  // only 16 wide: A's staging is the same, and lavapipe compiles the kernel in a third of the time
  // it took at 64 (minutes on a fresh machine, whose shader cache is empty).
  { ...matmul(97, 37, 150, 32, 16, 64), name: "tl.dot, tiled A staged with shifted rows (97×150 · 150×37, blocks 32×16×64, 32 invocations)", target: { tiledLayouts: true, workgroupSize: 32 } },
  { ...matmul(45, 200, 131, 32, 64, 32), name: "tl.dot, flat A staged with shifted rows (45×131 · 131×200, blocks 32×64×32, 128 invocations)", target: { tiledLayouts: true, workgroupSize: 128 } },
  { ...matmul(97, 37, 150, 32, 16, 64), name: "tl.dot, staged A unshifted (padDotTiles false)", target: { tiledLayouts: true, workgroupSize: 32, padDotTiles: false } },
  shapes(),
  narrowRows(2, 3), narrowRows(1, 5),
  loopReductions(9, 300), loopReductions(9, 300, { subgroups: false }),
  // A loop of no trips reads nothing (and the interpreter agrees).
  { ...loopReductions(9, 300), name: "a loop of no trips around loads (rows = 0)", args: { ...loopReductions(9, 300).args, rows: 0 }, expected: { out: [0] } },
  // A workgroup no larger than lavapipe's subgroups (8): the subgroup operation is the whole reduction.
  { ...rowReductions(13, 127), name: "row reductions in one subgroup (13×127, 8 invocations)", target: { workgroupSize: 8 } },
  { ...steeringReductions({ workgroupSize: 8 }), name: "reductions steering control flow in one subgroup (8 invocations)" },
  { ...loopReductions(9, 300, { workgroupSize: 8 }), name: "two reductions per loop trip in one subgroup (8 invocations)" },
  // The same reductions without subgroups: the workgroup-memory tree.
  { ...rowReductions(13, 127), name: "row reductions without subgroups (13×127)", target: { subgroups: false } },
  { ...rowReductions(3, 1), name: "row reductions without subgroups (3×1)", target: { subgroups: false } },
];

test("2-D blocks, reductions and tl.dot", async (t) => {
  const gpu = await acquireGpu();
  for (const c of cases) {
    await t.test(c.name, async () => {
      const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n`;
      const { gpu: onGpu, cpu } = await runBoth({ source, constexprs: c.constexprs, grid: c.grid, args: c.args, outputs: c.outputs, target: c.target });
      for (const o of c.outputs) {
        assertClose(onGpu[o], c.expected[o], `GPU ${o}`, c.atol, c.rtol);
        assertClose(cpu[o], c.expected[o], `CPU ${o}`, c.atol, c.rtol);
      }
    });
  }
  void gpu;
});

// Issue 23 item 1's functions on the GPU and the CPU interpreter, with Triton's documented
// semantics, against plain TypeScript references: tl.cat/join/interleave/split/flip/ravel/view/
// zerosLike/broadcast, tl.gather, tl.sort, tl.topk, tl.histogram, tl.softmax, tl.swizzle2d, tl.divRn/
// tl.sqrtRn, and block pointers (tl.makeBlockPtr, tl.advance, loads and stores with boundaryCheck
// and paddingOption). Fresh random inputs, extents the blocks don't divide, poisoned outputs.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, randomInts, runBoth, type HostArray, range, type KernelCase } from "../support/kernel-runner";

type Case = KernelCase;

const POISON = 0x7fbadbad;

function combining(): Case {
  const n = 13;
  const x = randomFloats(16);
  const y = randomFloats(16);
  return {
    name: "tl.cat, tl.join, tl.interleave, tl.split, tl.flip, tl.ravel, tl.view, tl.zerosLike, tl.broadcast (1-D and 2-D)",
    params: "x: Ptr<f32>, y: Ptr<f32>, cat: Ptr<f32>, inter: Ptr<f32>, halves: Ptr<f32>, flipped: Ptr<f32>, grid2: Ptr<f32>, n: i32",
    body: [
      "const o = tl.arange(0, 16);",
      "const a = tl.load(x + o, o < n, 0.0);",
      "const b = tl.load(y + o, o < n, 0.0);",
      "tl.store(cat + tl.arange(0, 32), tl.cat(a, b));",
      "tl.store(inter + tl.arange(0, 32), tl.interleave(a, b));",
      "const [lo, hi] = tl.split(tl.join(a * 2.0, b));",
      "tl.store(halves + o, lo - hi + tl.zerosLike(a));",
      // A 2-D [16, 2] block: flip each row, then flip the rows; ravel and view give it back flat.
      "const pairs = tl.join(a, b);",
      "tl.store(flipped + tl.arange(0, 32), tl.ravel(tl.flip(tl.flip(pairs, 1), 0)));",
      // broadcast a column and a row into a [16, 16] grid: col[i] + row[j]; view as [256].
      "const [col, row] = tl.broadcast(tl.expandDims(a, 1), tl.expandDims(b, 0));",
      "tl.store(grid2 + tl.arange(0, 256), tl.view(col + row, [256]));",
    ].join("\n"),
    constexprs: {},
    grid: [1],
    args: { x, y, cat: poisoned(32), inter: poisoned(32), halves: poisoned(16), flipped: poisoned(32), grid2: poisoned(256), n },
    outputs: ["cat", "inter", "halves", "flipped", "grid2"],
    expected: (() => {
      const a = range(16).map((i) => (i < n ? x[i] : 0));
      const b = range(16).map((i) => (i < n ? y[i] : 0));
      return {
        cat: [...a, ...b],
        inter: range(32).map((i) => (i % 2 === 0 ? a[i >> 1] : b[i >> 1])),
        halves: range(16).map((i) => 2 * a[i] - b[i]),
        flipped: range(32).map((e) => { const [r, c] = [15 - (e >> 1), 1 - (e % 2)]; return c === 0 ? a[r] : b[r]; }),
        grid2: range(256).map((e) => a[e >> 4] + b[e % 16]),
      };
    })(),
    atol: 1e-6,
  };
}

function gatherAndSort(rows: number, cols: number): Case {
  const x = randomFloats(rows * cols, -3, 3);
  // Ties: a few repeated values, so stability shows.
  for (let i = 0; i < x.length; i += 5) x[i] = 0.5;
  const idx = Int32Array.from({ length: 8 * 32 }, () => Math.floor(Math.random() * cols));
  const ints = randomInts(8 * 32, -20, 20);
  const row = (r: number) => range(cols).map((c) => x[r * cols + c]);
  return {
    name: `tl.gather along rows, tl.sort ascending, descending and along axis 0 (${rows}×${cols} in 8×32)`,
    params: "x: Ptr<f32>, idx: Ptr<i32>, ints: Ptr<i32>, gathered: Ptr<f32>, up: Ptr<f32>, down: Ptr<f32>, cols_up: Ptr<i32>, R: i32, C: i32",
    body: [
      "const r = tl.expandDims(tl.arange(0, 8), 1);",
      "const c = tl.expandDims(tl.arange(0, 32), 0);",
      "const m = r < R && c < C;",
      "const t = tl.load(x + r * C + c, m, Infinity);",
      "tl.store(gathered + r * 32 + c, tl.gather(t, tl.load(idx + r * 32 + c), 1), r < R);",
      "tl.store(up + r * 32 + c, tl.sort(t), r < R);",
      "tl.store(down + r * 32 + c, tl.sort(tl.where(m, t, -Infinity), { descending: true }), r < R);",
      "tl.store(cols_up + r * 32 + c, tl.sort(tl.load(ints + r * 32 + c), 0));",
    ].join("\n"),
    constexprs: {},
    grid: [1],
    args: { x, idx, ints, gathered: poisoned(8 * 32), up: poisoned(8 * 32), down: poisoned(8 * 32), cols_up: poisoned(8 * 32, "i32"), R: rows, C: cols },
    outputs: ["gathered", "up", "down", "cols_up"],
    expected: {
      gathered: range(8 * 32).map((e) => (Math.floor(e / 32) < rows ? (idx[e] < cols ? x[Math.floor(e / 32) * cols + idx[e]] : Infinity) : NaN)),
      up: range(8 * 32).map((e) => { const r = Math.floor(e / 32); return r < rows ? [...row(r), ...Array(32 - cols).fill(Infinity)].sort((p, q) => p - q)[e % 32] : NaN; }),
      down: range(8 * 32).map((e) => { const r = Math.floor(e / 32); return r < rows ? [...row(r), ...Array(32 - cols).fill(-Infinity)].sort((p, q) => q - p)[e % 32] : NaN; }),
      cols_up: range(8 * 32).map((e) => range(8).map((r) => ints[r * 32 + (e % 32)]).sort((p, q) => p - q)[Math.floor(e / 32)]),
    },
  };
}

function histogramSoftmax(n: number): Case {
  const values = randomInts(256, -3, 40);
  const x = randomFloats(4 * n, -4, 4);
  return {
    name: `tl.histogram with a mask, tl.softmax along rows and of one row, tl.swizzle2d (${n} columns)`,
    params: "v: Ptr<i32>, x: Ptr<f32>, hist: Ptr<i32>, sm: Ptr<f32>, sm1: Ptr<f32>, sw: Ptr<i32>, n: i32",
    body: [
      "const o = tl.arange(0, 256);",
      "const vals = tl.load(v + o);",
      "tl.store(hist + tl.arange(0, 32), tl.histogram(vals, 32, o < 200));",
      "const r = tl.expandDims(tl.arange(0, 4), 1);",
      "const c = tl.expandDims(tl.arange(0, 64), 0);",
      "const t = tl.load(x + r * n + c, c < n, -Infinity);",
      "tl.store(sm + r * n + c, tl.softmax(t, 1), c < n);",
      "const row = tl.load(x + tl.arange(0, 64), tl.arange(0, 64) < n, -Infinity);",
      "tl.store(sm1 + tl.arange(0, 64), tl.softmax(row), tl.arange(0, 64) < n);",
      // A 6 × 4 matrix in groups of 4 rows (the last group has 2): each (i, j) → its swizzled (i', j').
      "const i = tl.expandDims(tl.arange(0, 8), 1);",
      "const j = tl.expandDims(tl.arange(0, 4), 0);",
      "const [si, sj] = tl.swizzle2d(i, j, 6, 4, 4);",
      "tl.store(sw + (i * 4 + j) * 2, si, i < 6);",
      "tl.store(sw + (i * 4 + j) * 2 + 1, sj, i < 6);",
    ].join("\n"),
    constexprs: {},
    grid: [1],
    args: { v: values, x, hist: poisoned(32, "i32"), sm: poisoned(4 * n), sm1: poisoned(64), sw: poisoned(48, "i32"), n },
    outputs: ["hist", "sm", "sm1", "sw"],
    expected: (() => {
      const softmax = (xs: number[]) => { const m = Math.max(...xs); const e = xs.map((v) => Math.exp(v - m)); const s = e.reduce((a, b) => a + b, 0); return e.map((v) => v / s); };
      const sw: number[] = [];
      for (let i = 0; i < 6; i++) for (let j = 0; j < 4; j++) {
        const ij = i * 4 + j, gj = 4 * 4, first = Math.floor(ij / gj) * 4, g = Math.min(6 - first, 4), k = ij % gj;
        sw.push(first + (k % g), Math.floor(k / g));
      }
      return {
        hist: range(32).map((b) => range(200).filter((e) => values[e] === b).length),
        sm: range(4 * n).map((e) => softmax(range(n).map((c) => x[Math.floor(e / n) * n + c]))[e % n]),
        sm1: range(64).map((c) => (c < n ? softmax(range(n).map((k) => x[k]))[c] : NaN)),
        sw,
      };
    })(),
    atol: 1e-6, rtol: 1e-5,
  };
}

function rounding(): Case {
  const x = randomFloats(1000, -100, 100);
  const y = randomFloats(1000, 0.01, 3);
  return {
    name: "tl.divRn and tl.sqrtRn round to nearest (exactly on the CPU; within 1 ulp on the GPU); tl.cast's bitcast",
    params: "x: Ptr<f32>, y: Ptr<f32>, q: Ptr<f32>, s: Ptr<f32>, bits: Ptr<u32>, n: i32, BLOCK: constexpr",
    body: "const o = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst a = tl.load(x + o, o < n);\nconst b = tl.load(y + o, o < n);\ntl.store(q + o, tl.divRn(a, b), o < n);\ntl.store(s + o, tl.sqrtRn(b), o < n);\ntl.store(bits + o, tl.cast(a, \"u32\", { bitcast: true }), o < n);",
    constexprs: { BLOCK: 256 },
    grid: [4],
    args: { x, y, q: poisoned(1000), s: poisoned(1000), bits: poisoned(1000, "u32"), n: 1000 },
    outputs: ["q", "s", "bits"],
    expected: { q: range(1000).map((i) => Math.fround(x[i] / y[i])), s: range(1000).map((i) => Math.fround(Math.sqrt(y[i]))), bits: Array.from(new Uint32Array(x.buffer, x.byteOffset, 1000)) },
    rtol: 1.2e-7,
  };
}

function blockPointers(m: number, n: number): Case {
  const a = randomFloats(m * n);
  return {
    name: `block pointers: a loop of tl.advance over columns, loads with boundaryCheck and paddingOption, a store with boundaryCheck (${m}×${n} in 16×16 tiles)`,
    params: "a: Ptr<f32>, rowsum: Ptr<f32>, out: Ptr<f32>, nanfill: Ptr<f32>, M: i32, N: i32, stride: i32, BM: constexpr, BN: constexpr",
    body: [
      "const pid = tl.programId(0);",
      "let src = tl.makeBlockPtr(a, [M, N], [stride, 1], [pid * BM, 0], [BM, BN], [1, 0]);",
      "let dst = tl.makeBlockPtr(out, [N, M], [M, 1], [0, pid * BM], [BN, BM], [1, 0]);",
      "let acc = tl.zeros([BM], \"f32\");",
      "for (let k = 0; k < N; k += BN) {",
      "  const tile = tl.load(src, { boundaryCheck: [0, 1], paddingOption: \"zero\" });",
      "  acc += tl.sum(tile, 1);",
      // The transpose, written through a block pointer of the transposed matrix.
      "  tl.store(dst, tl.trans(tile), { boundaryCheck: [1, 0] });",
      "  src = tl.advance(src, [0, BN]);",
      "  dst = tl.advance(dst, [BN, 0]);",
      "}",
      "tl.store(tl.makeBlockPtr(rowsum, [M], [1], [pid * BM], [BM], [0]), acc, { boundaryCheck: [0] });",
      // paddingOption "nan": the first tile's rows past M read NaN (the output starts at 7, not NaN).
      "const first = tl.load(tl.makeBlockPtr(a, [M, N], [stride, 1], [pid * BM, 0], [BM, BN], [1, 0]), { boundaryCheck: [0], paddingOption: \"nan\" });",
      "tl.store(nanfill + (pid * BM + tl.expandDims(tl.arange(0, BM), 1)) * BN + tl.expandDims(tl.arange(0, BN), 0), first);",
    ].join("\n"),
    constexprs: { BM: 16, BN: 16 },
    grid: [Math.ceil(m / 16)],
    args: { a, rowsum: poisoned(m), out: poisoned(n * m), nanfill: new Float32Array(16 * 16 * Math.ceil(m / 16)).fill(7), M: m, N: n, stride: n },
    outputs: ["rowsum", "out", "nanfill"],
    expected: {
      rowsum: range(m).map((r) => range(n).reduce((s, c) => s + a[r * n + c], 0)),
      out: range(n * m).map((e) => a[(e % m) * n + Math.floor(e / m)]),
      nanfill: range(16 * 16 * Math.ceil(m / 16)).map((e) => { const [r, c] = [Math.floor(e / 16), e % 16]; return r < m ? a[r * n + c] : NaN; }),
    },
    atol: 1e-5, rtol: 1e-5,
  };
}

// flash-attention's interleaved rotary (rotary.py): a 3-D block's last axis split in pairs through a
// 4-D reshape, and joined back through a 4-D join, its width a constexpr nextPowerOf2 makes while
// compiling (Python's `triton.next_power_of_2(ROW)`). Rows of 3 × 4 × 24 in blocks of 2 × 4 × 32.
function pairsThrough4D(rows: number): Case {
  const row = 24;
  const x = randomFloats(rows * 4 * row);
  const at = (h: number, m: number, k: number) => x[(h * 4 + m) * row + k];
  return {
    name: `tl.split of a 4-D reshape, tl.reshape of a 4-D join, nextPowerOf2 of a constexpr (${rows} × 4 × ${row} in 2 × 4 × 32)`,
    params: "x: Ptr<f32>, out: Ptr<f32>, rows: i32, ROW: constexpr",
    body: [
      "const BLOCK_K = nextPowerOf2(ROW);",
      "const rh = tl.programId(0) * 2 + tl.arange(0, 2);",
      "const offs = tl.expandDims(tl.expandDims(rh, 1), 2) * (4 * ROW) + tl.expandDims(tl.expandDims(tl.arange(0, 4), 0), 2) * ROW + tl.expandDims(tl.expandDims(tl.arange(0, BLOCK_K), 0), 0);",
      "const mask = tl.expandDims(tl.expandDims(rh, 1), 2) < rows && tl.expandDims(tl.expandDims(tl.arange(0, BLOCK_K), 0), 0) < ROW;",
      "const v = tl.load(x + offs, mask, 0.0);",
      "const [even, odd] = tl.split(tl.reshape(v, [2, 4, BLOCK_K / 2, 2]));",
      "tl.store(out + offs, tl.reshape(tl.join(odd - even, odd * even), [2, 4, BLOCK_K]), mask);",
    ].join("\n"),
    constexprs: { ROW: row },
    grid: [Math.ceil(rows / 2)],
    args: { x, out: poisoned(rows * 4 * row), rows },
    outputs: ["out"],
    expected: {
      out: range(rows * 4 * row).map((e) => {
        const [h, m, k] = [Math.floor(e / (4 * row)), Math.floor(e / row) % 4, e % row];
        const [even, odd] = [at(h, m, k - (k % 2)), at(h, m, k - (k % 2) + 1)];
        return k % 2 === 0 ? odd - even : odd * even;
      }),
    },
    atol: 1e-6,
  };
}

// Triton 2.0.0.dev's `tl.dot(q, k, trans_b=True)` (flash-attention's flash_attn_triton.py), and transA:
// the operand transposed first, as tl.trans. a 16 × 32 and b 16 × 32 (b's rows are the product's columns).
function dotTransposed(): Case {
  const a = randomFloats(16 * 32);
  const b = randomFloats(16 * 32);
  const at = (m: number, k: number) => a[m * 32 + k];
  const bt = (nn: number, k: number) => b[nn * 32 + k];
  const abT = range(16 * 16).map((e) => { let s = 0; for (let k = 0; k < 32; k++) s += at(Math.floor(e / 16), k) * bt(e % 16, k); return s; });
  const aTb = range(32 * 32).map((e) => { let s = 0; for (let m = 0; m < 16; m++) s += at(m, Math.floor(e / 32)) * bt(m, e % 32); return s; });
  return {
    name: "tl.dot with transB and with transA (Triton 2.0.0.dev's keywords)",
    params: "a: Ptr<f32>, b: Ptr<f32>, ab: Ptr<f32>, ta: Ptr<f32>",
    body: [
      "const r = tl.expandDims(tl.arange(0, 16), 1);",
      "const c = tl.expandDims(tl.arange(0, 32), 0);",
      "const x = tl.load(a + r * 32 + c);",
      "const y = tl.load(b + r * 32 + c);",
      "tl.store(ab + r * 16 + tl.expandDims(tl.arange(0, 16), 0), tl.dot(x, y, { transB: true }));",
      "tl.store(ta + tl.expandDims(tl.arange(0, 32), 1) * 32 + c, tl.dot(x, y, { transA: true }));",
    ].join("\n"),
    constexprs: {},
    grid: [1],
    args: { a, b, ab: poisoned(16 * 16), ta: poisoned(32 * 32) },
    outputs: ["ab", "ta"],
    expected: { ab: abT, ta: aTb },
    atol: 1e-4, rtol: 1e-4,
  };
}

/**
 * tl.topk (Triton 3.3's, NOTES §90): each row's k largest, largest first; `descending: false` the k smallest; of rows
 * masked to `cols` with -inf (+inf) past them, as test_standard.py's topk reads a row shorter than its block.
 */
function topk(rows: number, cols: number): Case {
  const x = randomFloats(8 * 64, -50, 50);
  for (let i = 0; i < x.length; i += 7) x[i] = 2.5; // ties
  const ints = randomInts(8 * 64, -20, 20);
  const row = (a: ArrayLike<number>, r: number, width: number) => range(width).map((c) => a[r * width + c]);
  return {
    name: `tl.topk of the last axis, k 8 and 1, largest and smallest first (${rows}×${cols} in 8×64)`,
    params: "x: Ptr<f32>, ints: Ptr<i32>, big: Ptr<f32>, small: Ptr<f32>, top1: Ptr<i32>, R: i32, C: i32",
    body: [
      "const r = tl.expandDims(tl.arange(0, 8), 1);",
      "const c = tl.expandDims(tl.arange(0, 64), 0);",
      "const m = r < R && c < C;",
      "const k = tl.expandDims(tl.arange(0, 8), 0);",
      "tl.store(big + r * 8 + k, tl.topk(tl.load(x + r * C + c, m, -Infinity), 8), r < R);",
      "tl.store(small + r * 8 + k, tl.topk(tl.load(x + r * C + c, m, Infinity), 8, { descending: false }), r < R);",
      "tl.store(top1 + tl.arange(0, 8), tl.reshape(tl.topk(tl.load(ints + r * 64 + c), 1, -1), [8]));",
    ].join("\n"),
    constexprs: {},
    grid: [1],
    args: { x, ints, big: poisoned(8 * 8), small: poisoned(8 * 8), top1: poisoned(8, "i32"), R: rows, C: cols },
    outputs: ["big", "small", "top1"],
    expected: {
      big: range(8 * 8).map((e) => { const r = Math.floor(e / 8); return r < rows ? row(x, r, cols).sort((p, q) => q - p)[e % 8] : NaN; }),
      small: range(8 * 8).map((e) => { const r = Math.floor(e / 8); return r < rows ? row(x, r, cols).sort((p, q) => p - q)[e % 8] : NaN; }),
      top1: range(8).map((r) => Math.max(...row(ints, r, 64))),
    },
  };
}

const cases: Case[] = [dotTransposed(), combining(), gatherAndSort(5, 27), gatherAndSort(8, 32), histogramSoftmax(50), rounding(), blockPointers(37, 45), pairsThrough4D(3), topk(5, 27), topk(8, 64)];

for (const c of cases) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n`;
    const { gpu, cpu } = await runBoth({ source, constexprs: c.constexprs, grid: c.grid, args: c.args, outputs: c.outputs });
    for (const name of c.outputs) {
      const want = Array.from(c.expected[name], (v) => (Number.isNaN(v) && !(c.args[name] instanceof Float32Array) ? POISON : v));
      assertClose(gpu[name], want, `GPU ${name}`, c.atol ?? 0, c.rtol ?? 0);
      assertClose(cpu[name], want, `CPU ${name}`, c.atol ?? 0, c.rtol ?? 0);
    }
  });
}

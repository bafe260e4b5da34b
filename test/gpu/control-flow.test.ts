// docs/LANGUAGE.md §2.4 (control flow and device functions): while loops, break/continue, tl.staticRange,
// scalar ternaries and device functions (kernel(...) helpers, inlined at each call), each run on
// the GPU and on the CPU interpreter with fresh random inputs, sizes that aren't multiples of the
// block, and poisoned outputs, and compared with a plain TypeScript reference in float64.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth, type HostArray } from "../support/kernel-runner";

interface Case {
  name: string;
  params: string;
  body: string;
  /** Device functions, placed after the kernel (the runner compiles the file's first kernel). */
  helpers?: string;
  block: number;
  n: number;
  args: (n: number) => Record<string, HostArray | number>;
  outputs: string[];
  reference: (args: Record<string, any>, n: number) => Record<string, ArrayLike<number>>;
  grid?: (n: number, block: number) => number[];
  atol?: number;
  rtol?: number;
}

const offs = "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = offs < n;";
const map = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
const randInt = (lo: number, hi: number) => lo + Math.floor(Math.random() * (hi - lo));
const programs = (n: number, block: number) => Math.ceil(n / block);

const cases: Case[] = [
  {
    // Trip count floor(log2(m)) for m ≥ 1: it depends only on the scalar argument.
    name: "while loop whose trip count depends on a scalar argument (repeated halving)",
    params: "x: Ptr<f32>, out: Ptr<f32>, trips: Ptr<i32>, n: i32, m: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nlet acc = a;\nlet k = m;\nlet count = 0;\nwhile (k > 1) {\n  acc = acc * 0.5 + a;\n  k = k / 2;\n  count += 1;\n}\ntl.store(out + offs, acc, mask);\ntl.store(trips + tl.programId(0), count);`,
    block: 128, n: 1000,
    args: (n) => ({ x: randomFloats(n), out: poisoned(n), trips: poisoned(programs(n, 128), "i32"), n, m: randInt(40, 5000) }),
    outputs: ["out", "trips"],
    reference: ({ x, m }, n) => {
      let t = 0;
      for (let k = m; k > 1; k = Math.trunc(k / 2)) t++;
      return { out: map(n, (i) => { let acc = x[i]; for (let j = 0; j < t; j++) acc = acc * 0.5 + x[i]; return acc; }), trips: map(programs(n, 128), () => t) };
    },
    atol: 1e-6, rtol: 1e-5,
  },
  {
    // The condition comes from arguments and the program id (uniform), never from a load.
    name: "break out of a for loop once a scalar condition holds",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, limit: i32, BLOCK: constexpr",
    body: `${offs}\nconst pid = tl.programId(0);\nconst a = tl.load(x + offs, mask);\nlet acc = tl.zeros([BLOCK], "f32");\nfor (let i = 0; i < 64; i++) {\n  if (i >= limit + pid) {\n    break;\n  }\n  acc += a * i;\n}\ntl.store(out + offs, acc, mask);`,
    block: 64, n: 777,
    args: (n) => ({ x: randomFloats(n), out: poisoned(n), n, limit: randInt(3, 50) }),
    outputs: ["out"],
    reference: ({ x, limit }, n) => ({ out: map(n, (i) => { const stop = Math.min(64, limit + Math.floor(i / 64)); let acc = 0; for (let t = 0; t < stop; t++) acc += Math.fround(x[i] * t); return acc; }) }),
    atol: 1e-4, rtol: 1e-5,
  },
  {
    name: "break out of a while loop that would run on, with a reduction in the loop",
    params: "x: Ptr<f32>, sums: Ptr<f32>, n: i32, rows: i32, stop: i32, BLOCK: constexpr",
    body: `const cols = tl.arange(0, BLOCK);\nlet total = 0.0;\nlet r = tl.programId(0);\nwhile (r < rows) {\n  if (r >= stop) {\n    break;\n  }\n  total += tl.sum(tl.load(x + r * n + cols, cols < n, 0.0), 0);\n  r += tl.numPrograms(0);\n}\ntl.store(sums + tl.programId(0), total);`,
    block: 64, n: 50, grid: () => [7],
    args: (n) => { const rows = randInt(20, 40); return { x: randomFloats(rows * n), sums: poisoned(7), n, rows, stop: randInt(5, rows) }; },
    outputs: ["sums"],
    reference: ({ x, rows, stop }, n) => ({ sums: map(7, (p) => { let s = 0; for (let r = p; r < Math.min(rows, stop); r += 7) for (let c = 0; c < n; c++) s += x[r * n + c]; return s; }) }),
    atol: 1e-4, rtol: 1e-5,
  },
  {
    name: "continue skips some trips of a for loop",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, rows: i32, skip: i32, BLOCK: constexpr",
    body: `${offs}\nlet acc = tl.zeros([BLOCK], "f32");\nfor (let r = 0; r < rows; r++) {\n  if (r % 3 === skip) {\n    continue;\n  }\n  acc += tl.load(x + r * n + offs, mask);\n}\ntl.store(out + offs, acc, mask);`,
    block: 128, n: 300,
    args: (n) => { const rows = randInt(5, 12); return { x: randomFloats(rows * n), out: poisoned(n), n, rows, skip: randInt(0, 3) }; },
    outputs: ["out"],
    reference: ({ x, rows, skip }, n) => ({ out: map(n, (i) => { let s = 0; for (let r = 0; r < rows; r++) if (r % 3 !== skip) s += x[r * n + i]; return s; }) }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "continue and break in one while loop",
    params: "out: Ptr<i32>, n: i32, every: i32, stop: i32, BLOCK: constexpr",
    body: `${offs}\nlet acc = tl.zeros([BLOCK], "i32");\nlet i = 0;\nwhile (i < n) {\n  i += 1;\n  if (i % every === 0) {\n    continue;\n  }\n  if (i > stop) {\n    break;\n  }\n  acc += offs * i;\n}\ntl.store(out + offs, acc, mask);`,
    block: 32, n: 100,
    args: (n) => ({ out: poisoned(n, "i32"), n, every: randInt(2, 6), stop: randInt(10, 90) }),
    outputs: ["out"],
    reference: ({ every, stop }, n) => ({ out: map(n, (k) => { let s = 0; for (let i = 1; i <= n; i++) { if (i % every === 0) continue; if (i > stop) break; s += k * i; } return s; }) }),
  },
  {
    // A break leaves only the innermost loop; a continue in the outer loop skips its whole trip.
    name: "nested loops: break in the inner one, continue in the outer one",
    params: "out: Ptr<i32>, n: i32, outer: i32, cut: i32, BLOCK: constexpr",
    body: `${offs}\nlet acc = tl.zeros([BLOCK], "i32");\nfor (let i = 0; i < outer; i++) {\n  if (i === cut) {\n    continue;\n  }\n  let j = 0;\n  while (j < 100) {\n    if (j > i) {\n      break;\n    }\n    acc += offs + j;\n    j += 1;\n  }\n}\ntl.store(out + offs, acc, mask);`,
    block: 64, n: 200,
    args: (n) => ({ out: poisoned(n, "i32"), n, outer: randInt(3, 9), cut: randInt(0, 3) }),
    outputs: ["out"],
    reference: ({ outer, cut }, n) => ({ out: map(n, (k) => { let s = 0; for (let i = 0; i < outer; i++) { if (i === cut) continue; for (let j = 0; j <= i; j++) s += k + j; } return s; }) }),
  },
  {
    name: "tl.staticRange: an unrolled accumulation, with and without a step",
    params: "x: Ptr<f32>, out: Ptr<f32>, odd: Ptr<f32>, n: i32, BLOCK: constexpr, K: constexpr",
    body: `${offs}\nlet acc = tl.zeros([BLOCK], "f32");\nfor (const i of tl.staticRange(0, K)) {\n  acc += tl.load(x + offs * K + i, mask) * (i + 1);\n}\ntl.store(out + offs, acc, mask);\nlet s = tl.zeros([BLOCK], "f32");\nfor (const j of tl.staticRange(1, K, 2)) {\n  s = s * 2.0 + tl.load(x + offs * K + j, mask);\n}\ntl.store(odd + offs, s, mask);`,
    block: 64, n: 333,
    args: (n) => ({ x: randomFloats(n * 5), out: poisoned(n), odd: poisoned(n), n }),
    outputs: ["out", "odd"],
    reference: ({ x }, n) => ({
      out: map(n, (r) => { let s = 0; for (let i = 0; i < 5; i++) s += x[r * 5 + i] * (i + 1); return s; }),
      odd: map(n, (r) => x[r * 5 + 1] * 2 + x[r * 5 + 3]),
    }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "scalar ternaries choose offsets and values",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, flip: i32, BLOCK: constexpr",
    body: `${offs}\nconst pid = tl.programId(0);\nconst base = pid % 2 === 0 ? 0 : n;\nconst scale = flip > 0 ? -2.0 : 0.5;\nconst bias = pid < 2 ? 1.0 : pid < 4 ? 10.0 : 100.0;\ntl.store(out + base + offs, tl.load(x + offs, mask) * scale + bias, mask);`,
    block: 64, n: 500,
    args: (n) => ({ x: randomFloats(n), out: poisoned(2 * n), n, flip: randInt(-1, 2) }),
    outputs: ["out"],
    reference: ({ x, flip }, n) => ({ out: map(2 * n, (k) => {
      const i = k % n, pid = Math.floor(i / 64);
      if ((k >= n) !== (pid % 2 === 1)) return NaN;
      return x[i] * (flip > 0 ? -2 : 0.5) + (pid < 2 ? 1 : pid < 4 ? 10 : 100);
    }) }),
    atol: 1e-6, rtol: 1e-6,
  },
  {
    // Only the chosen side runs: the interpreter would stop at the out-of-bounds load otherwise.
    name: "a scalar ternary runs only the chosen side (a guarded scalar load)",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `const pid = tl.programId(0);\nconst v = pid < n ? tl.load(x + pid) * 3.0 : -1.0;\ntl.store(out + pid, v);`,
    block: 1, n: 90, grid: (n) => [n + 10],
    args: (n) => ({ x: randomFloats(n), out: poisoned(n + 10), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(n + 10, (p) => (p < n ? Math.fround(x[p] * 3) : -1)) }),
  },
  {
    name: "device functions taking blocks and scalars, annotated and generic, each used twice",
    helpers: [
      "const axpb = kernel(function axpb(v: f32, a: f32, b) { return v * a + b; });",
      "const lerp = kernel(function lerp(u, v, t) { return u + (v - u) * t; });",
      "const loadRow = kernel(function loadRow(p: Ptr<f32>, start: i32, N: constexpr, n) { const o = start + tl.arange(0, N); return tl.load(p + o, o < n, 0.0); });",
      "const put = kernel(function put(p: Ptr<f32>, o, v, m) { tl.store(p + o, v, m); });",
    ].join("\n"),
    params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, mix: Ptr<f32>, n: i32, s: f32, t: f32, BLOCK: constexpr",
    body: `${offs}\nconst a = loadRow(x, tl.programId(0) * BLOCK, BLOCK, n);\nconst b = loadRow(y, tl.programId(0) * BLOCK, BLOCK, n);\nput(out, offs, axpb(a, s, 1.0) + axpb(b, 2.0, t), mask);\nput(mix, offs, lerp(a, b, t) + lerp(s, t, 0.25), mask);`,
    block: 128, n: 1001,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), out: poisoned(n), mix: poisoned(n), n, s: Math.fround(Math.random() * 4 - 2), t: Math.fround(Math.random()) }),
    outputs: ["out", "mix"],
    reference: ({ x, y, s, t }, n) => ({
      out: map(n, (i) => x[i] * s + 1 + y[i] * 2 + t),
      mix: map(n, (i) => x[i] + (y[i] - x[i]) * t + s + (t - s) * 0.25),
    }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "nested helper calls, a helper with its own loop, break and continue",
    helpers: [
      "const sq = kernel((v: any) => v * v);",
      "const norm2 = kernel(function norm2(a, b) { return sq(a) + sq(b); });",
      "const rms = kernel(function rms(a, b, N: constexpr) { return tl.sqrt(tl.sum(norm2(a, b), 0) / N); });",
      "const powSum = kernel(function powSum(v, k: i32) { let p = v; let s = v; let i = 1; while (i < 100) { if (i >= k) { break; } i += 1; if (i === 2) { continue; } p = p * v; s += p; } return s; });",
    ].join("\n"),
    params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, r: Ptr<f32>, n: i32, k: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask, 0.0);\nconst b = tl.load(y + offs, mask, 0.0);\ntl.store(out + offs, norm2(a, b) + powSum(a, k), mask);\ntl.store(r + tl.programId(0), rms(a, b, BLOCK));`,
    block: 64, n: 450,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), out: poisoned(n), r: poisoned(programs(n, 64)), n, k: randInt(2, 7) }),
    outputs: ["out", "r"],
    reference: ({ x, y, k }, n) => {
      // powSum: v + v^2 + … with the trip i = 2 skipped, so v + v^2 + … + v^(k-1) (k ≥ 2).
      const powSum = (v: number) => { let p = v, s = v; for (let i = 2; i < k; i++) { p *= v; s += p; } return s; };
      return {
        out: map(n, (i) => x[i] * x[i] + y[i] * y[i] + powSum(x[i])),
        r: map(programs(n, 64), (p) => { let s = 0; for (let i = p * 64; i < Math.min(n, p * 64 + 64); i++) s += x[i] * x[i] + y[i] * y[i]; return Math.sqrt(s / 64); }),
      };
    },
    atol: 1e-5, rtol: 1e-5,
  },
  {
    // Triton's `if row < n_half: scale = … else: scale = …` (an scf.if yielding the name): `let scale;`
    // is declared before the if with the first branch's type, and each branch assigns a block.
    name: "a let without a value, assigned a block in each branch of a run-time if/else",
    params: "a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, out: Ptr<f32>, n: i32, n_half: i32, BLOCK: constexpr",
    body: `const row = tl.programId(0);\n${offs}\nlet scale;\nif (row < n_half) {\n  scale = tl.load(a_ptr + offs, { mask });\n} else {\n  scale = tl.load(b_ptr + offs, { mask }) * 2.0;\n}\ntl.store(out + offs, scale, { mask });`,
    block: 64, n: 1000,
    args: (n) => ({ a_ptr: randomFloats(n), b_ptr: randomFloats(n), out: poisoned(n), n, n_half: randInt(3, 13) }),
    outputs: ["out"],
    reference: ({ a_ptr, b_ptr, n_half }, n) => ({ out: map(n, (i) => (Math.floor(i / 64) < n_half ? a_ptr[i] : 2 * b_ptr[i])) }),
  },
  {
    // An else-if chain ending in else, a nested if/else that assigns on both of its paths, a scalar
    // let given an i32 constant in one branch (converted to the f32 of its first assignment), and
    // a branch that returns early (its program stores nothing).
    name: "lets without a value, assigned in every branch of an else-if chain, a nested if/else and around an early return",
    params: "a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, out: Ptr<f32>, n: i32, split: i32, skip: i32, BLOCK: constexpr",
    body: `const pid = tl.programId(0);\n${offs}\nlet scale;\nlet bias;\nif (pid === skip) {\n  return;\n} else if (pid % 3 === 0) {\n  scale = tl.load(a_ptr + offs, { mask });\n  bias = 1.0;\n} else if (pid % 3 === 1) {\n  if (pid < split) {\n    scale = tl.load(b_ptr + offs, { mask }) * 2.0;\n  } else {\n    scale = -tl.load(a_ptr + offs, { mask });\n  }\n  bias = 2;\n} else {\n  scale = tl.zeros([BLOCK], "f32") + 0.5;\n  bias = tl.cast(pid, "f32");\n}\ntl.store(out + offs, scale + bias, { mask });`,
    block: 32, n: 700,
    args: (n) => ({ a_ptr: randomFloats(n), b_ptr: randomFloats(n), out: new Float32Array(n), n, split: randInt(4, 18), skip: randInt(0, 22) }),
    outputs: ["out"],
    reference: ({ a_ptr, b_ptr, split, skip }, n) => ({
      out: map(n, (i) => {
        const pid = Math.floor(i / 32);
        if (pid === skip) return 0;
        if (pid % 3 === 0) return a_ptr[i] + 1;
        if (pid % 3 === 1) return (pid < split ? 2 * b_ptr[i] : -a_ptr[i]) + 2;
        return 0.5 + pid;
      }),
    }),
    atol: 1e-6, rtol: 1e-6,
  },
  {
    // flash-attention's _bwd_kernel_one_col_block: a device function that returns no value stores and
    // returns early at run time (`if begin_m >= seqlen_q: …; return`), called in a loop; the rest of its
    // body runs where it didn't return. Each program writes rows r of 4, past `rows` it writes 0 and returns.
    name: "a device function without a value returning early at run time, called in a loop",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, rows: i32, BLOCK: constexpr",
    helpers: "const row = kernel(function row(x: Ptr<f32>, out: Ptr<f32>, r: i32, n: i32, rows: i32, BLOCK: constexpr) {\n  const cols = tl.arange(0, BLOCK);\n  if (r >= rows) {\n    tl.store(out + r * BLOCK + cols, tl.zeros([BLOCK], \"f32\"));\n    return;\n  }\n  let v = tl.load(x + r * n + cols, cols < n, 0.0);\n  v = v * 2.0 + 1.0;\n  tl.store(out + r * BLOCK + cols, v);\n});",
    body: "for (let j = 0; j < 4; j++) {\n  row(x, out, tl.programId(0) * 4 + j, n, rows, BLOCK);\n}",
    block: 32, n: 25,
    args: (n) => ({ x: randomFloats(13 * n), out: poisoned(16 * 32), n, rows: 13 }),
    grid: () => [4],
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(16 * 32, (e) => { const [r, c] = [Math.floor(e / 32), e % 32]; return r >= 13 ? 0 : c < n ? Math.fround(x[r * n + c] * 2 + 1) : 1; }) }),
    atol: 1e-6, rtol: 1e-6,
  },
];

for (const c of cases) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n${c.helpers ?? ""}\n`;
    const args = c.args(c.n);
    const expected = c.reference(args, c.n);
    const grid = c.grid ? c.grid(c.n, c.block) : [programs(c.n, c.block)];
    const constexprs: Record<string, number> = { BLOCK: c.block };
    if (c.params.includes("K: constexpr")) constexprs.K = 5;
    const { gpu, cpu } = await runBoth({ source, constexprs, grid, args, outputs: c.outputs });
    for (const name of c.outputs) {
      assertClose(gpu[name], expected[name], `GPU ${name}`, c.atol, c.rtol);
      assertClose(cpu[name], expected[name], `CPU ${name}`, c.atol, c.rtol);
    }
  });
}

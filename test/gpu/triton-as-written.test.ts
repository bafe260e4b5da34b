// docs/LANGUAGE.md §2.1's control flow and tuples (issue 23 items 3 and 5), as Triton code writes them: device
// functions returning tuples and reassigning their parameters, destructuring in declarations and
// assignments (in loops too), parameters (pointers included) reassigned, early `return` inside
// ifs and loops, compiler hints, tl.staticAssert, tl.debugBarrier. Each runs on the GPU and on
// the CPU interpreter with fresh random inputs, sizes that aren't multiples of the block and
// poisoned outputs, against a plain TypeScript reference.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth, type HostArray } from "../support/kernel-runner";

interface Case {
  name: string;
  params: string;
  body: string;
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
    name: "a device function returns a tuple; the caller destructures it",
    helpers: "const minMax = kernel(function minMax(a, b) { return [tl.minimum(a, b), tl.maximum(a, b)]; });",
    params: "x: Ptr<f32>, y: Ptr<f32>, lo: Ptr<f32>, hi: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst [small, large] = minMax(tl.load(x + offs, mask), tl.load(y + offs, mask));\ntl.store(lo + offs, small, mask);\ntl.store(hi + offs, large, { mask });`,
    block: 128, n: 1000,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), lo: poisoned(n), hi: poisoned(n), n }),
    outputs: ["lo", "hi"],
    reference: ({ x, y }, n) => ({ lo: map(n, (i) => Math.min(x[i], y[i])), hi: map(n, (i) => Math.max(x[i], y[i])) }),
  },
  {
    // Tutorial 06's shape: the helper's loop reassigns its parameters and returns them as a tuple;
    // the caller's loop assigns the tuple back to its variables.
    name: "a helper that reassigns its parameters in a loop, called in a loop with [a, b] = helper(a, b)",
    helpers: "const steps = kernel(function steps(s, p, v, K: constexpr) { for (let i = 0; i < K; i++) { s = s + v; p = p * 0.5 + v; } return [s, p]; });",
    params: "x: Ptr<f32>, sums: Ptr<f32>, prods: Ptr<f32>, n: i32, rounds: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\nlet s = tl.zeros([BLOCK], "f32");\nlet p = tl.full([BLOCK], 1.0, "f32");\nfor (let r = 0; r < rounds; r++) {\n  [s, p] = steps(s, p, v, 3);\n}\ntl.store(sums + offs, s, mask);\ntl.store(prods + offs, p, mask);`,
    block: 64, n: 500,
    args: (n) => ({ x: randomFloats(n), sums: poisoned(n), prods: poisoned(n), n, rounds: randInt(1, 6) }),
    outputs: ["sums", "prods"],
    reference: ({ x, rounds }, n) => {
      const run = (v: number) => { let s = 0, p = 1; for (let r = 0; r < rounds * 3; r++) { s += v; p = p * 0.5 + v; } return [s, p]; };
      return { sums: map(n, (i) => run(x[i])[0]), prods: map(n, (i) => run(x[i])[1]) };
    },
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "tuples: swap by destructuring, take one element, skip one with a hole",
    params: "x: Ptr<f32>, y: Ptr<f32>, a: Ptr<f32>, b: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nlet u = tl.load(x + offs, mask);\nlet w = tl.load(y + offs, mask);\n[u, w] = [w, u];\nconst t = [u * 2, w, u];\nconst [, second] = [t[0], t[1] + t[2]];\ntl.store(a + offs, t[0], mask);\ntl.store(b + offs, second, mask);`,
    block: 128, n: 700,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), a: poisoned(n), b: poisoned(n), n }),
    outputs: ["a", "b"],
    reference: ({ x, y }, n) => ({ a: map(n, (i) => 2 * y[i]), b: map(n, (i) => x[i] + y[i]) }),
    atol: 1e-6,
  },
  {
    // Liger-Kernel's row pointers: `X_ptr += row * stride` on the parameters themselves.
    name: "pointer and scalar parameters reassigned in straight-line code and in a loop",
    params: "X: Ptr<f32>, Y: Ptr<f32>, n: i32, stride: i32, cols: i32, BLOCK: constexpr",
    body: `const row = tl.programId(0);\nX += row * stride;\nY += row * stride;\nconst c = tl.arange(0, BLOCK);\nlet acc = tl.zeros([BLOCK], "f32");\nfor (let k = 0; k < cols; k += BLOCK) {\n  acc += tl.load(X + c, c + k < cols, 0.0);\n  X += BLOCK;\n}\ncols = tl.minimum(cols, BLOCK);\ntl.store(Y + c, acc, c < cols);`,
    block: 32, n: 7, grid: (n) => [n],
    args: (n) => ({ X: randomFloats(n * 100), Y: poisoned(n * 100), n, stride: 100, cols: 90 }),
    outputs: ["Y"],
    reference: ({ X, Y }, n) => {
      const out = Array.from(Y as Float32Array);
      for (let r = 0; r < n; r++) for (let c = 0; c < 32; c++) { let s = 0; for (let k = 0; k < 90; k += 32) if (c + k < 90) s += X[r * 100 + k + c]; out[r * 100 + c] = s; }
      return { Y: out };
    },
    atol: 1e-5, rtol: 1e-5,
  },
  {
    // The cross-entropy idiom: rows the scalar says to skip return early (after storing zeros).
    name: "early return inside an if, on a loaded scalar, before a reduction",
    params: "X: Ptr<f32>, labels: Ptr<i32>, out: Ptr<f32>, n: i32, stride: i32, BLOCK: constexpr",
    body: `const row = tl.programId(0);\nconst label = tl.load(labels + row);\nif (label === -100) {\n  tl.store(out + row, 0.0);\n  return;\n}\nX += row * stride;\nconst c = tl.arange(0, BLOCK);\nconst x = tl.load(X + c, c < n, -Infinity);\nconst m = tl.max(x, 0);\ntl.store(out + row, m + tl.log(tl.sum(tl.exp(x - m), 0)) - tl.load(X + label));`,
    block: 256, n: 200, grid: () => [9],
    args: (n) => ({ X: randomFloats(9 * 256), labels: Int32Array.from({ length: 9 }, () => (Math.random() < 0.4 ? -100 : randInt(0, n))), out: poisoned(9), n, stride: 256 }),
    outputs: ["out"],
    reference: ({ X, labels }, n) => ({
      out: map(9, (r) => {
        if (labels[r] === -100) return 0;
        const row = Array.from({ length: n }, (_, c) => X[r * 256 + c]);
        const m = Math.max(...row);
        return m + Math.log(row.reduce((s, v) => s + Math.exp(v - m), 0)) - X[r * 256 + labels[r]];
      }),
    }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "early returns in nested ifs (both branches) and inside a loop",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, stop: i32, BLOCK: constexpr",
    body: `${offs}\nconst pid = tl.programId(0);\nif (pid % 3 === 0) {\n  if (pid % 2 === 0) {\n    tl.store(out + offs, 1.0, mask);\n    return;\n  } else {\n    tl.store(out + offs, 2.0, mask);\n  }\n  tl.store(out + offs, tl.load(out + offs, mask) + 10.0, mask);\n  return;\n}\nlet acc = tl.zeros([BLOCK], "f32");\nfor (let i = 0; i < 8; i++) {\n  if (i + pid >= stop) {\n    tl.store(out + offs, acc - 1.0, mask);\n    return;\n  }\n  acc += tl.load(x + offs, mask);\n}\ntl.store(out + offs, acc, mask);`,
    block: 64, n: 900,
    args: (n) => ({ x: randomFloats(n), out: poisoned(n), n, stop: randInt(4, 14) }),
    outputs: ["out"],
    reference: ({ x, stop }, n) => ({
      out: map(n, (i) => {
        const pid = Math.floor(i / 64);
        if (pid % 3 === 0) return pid % 2 === 0 ? 1 : 12;
        let acc = 0;
        for (let t = 0; t < 8; t++) {
          if (t + pid >= stop) return acc - 1;
          acc += x[i];
        }
        return acc;
      }),
    }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    // Tutorial 09's persistent loop: tl.range with Triton's options, the hints around the offsets.
    name: "tl.range (persistent programs, numStages/flatten accepted), hints, tl.assume, tl.staticAssert, tl.debugBarrier",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `tl.staticAssert(BLOCK % 32 === 0, "BLOCK must be a multiple of 32");\ntl.assume(n > 0);\nconst tiles = tl.cdiv(n, BLOCK);\nfor (const t of tl.range(tl.programId(0), tiles, tl.numPrograms(0), { numStages: 3, flatten: true })) {\n  const o = tl.maxContiguous(tl.multipleOf(t * BLOCK + tl.arange(0, BLOCK), BLOCK), BLOCK);\n  const v = tl.load(x + o, o < n);\n  tl.debugBarrier();\n  tl.store(out + o, v * 2.0 + tl.maxConstancy(t, 1), o < n);\n}\nfor (const i of tl.range(3, 0, -1)) {\n  tl.store(out + n + tl.programId(0) * 3 + i - 1, tl.cast(i, "f32"));\n}`,
    block: 64, n: 1000, grid: () => [5],
    args: (n) => ({ x: randomFloats(n), out: poisoned(n + 15), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: [...map(n, (i) => x[i] * 2 + Math.floor(i / 64)), ...map(15, (i) => (i % 3) + 1)] }),
    atol: 1e-6,
  },
  {
    name: "tuples from tl.*: tl.max(…, { returnIndices: true }) along rows, tl.randint4x's four words",
    params: "x: Ptr<f32>, maxes: Ptr<f32>, where: Ptr<i32>, bits: Ptr<u32>, n: i32, BLOCK: constexpr",
    body: `const r = tl.programId(0);\nconst c = tl.arange(0, BLOCK);\nconst rows = tl.expandDims(r * 4 + tl.arange(0, 4), 1);\nconst tile = tl.load(x + rows * n + tl.expandDims(c, 0), tl.expandDims(c, 0) < n, -Infinity);\nconst [m, i] = tl.max(tile, 1, { returnIndices: true });\ntl.store(maxes + r * 4 + tl.arange(0, 4), m);\ntl.store(where + r * 4 + tl.arange(0, 4), i);\nconst [w0, w1, w2, w3] = tl.randint4x(n, c);\ntl.store(bits + r * 4 * BLOCK + c * 4, w0 ^ w1 ^ w2 ^ w3 ^ tl.randint4x(n, c, 2) ^ w2);`,
    block: 64, n: 50, grid: () => [3],
    args: (n) => ({ x: randomFloats(12 * n), maxes: poisoned(12), where: poisoned(12, "i32"), bits: poisoned(3 * 4 * 64, "u32"), n }),
    outputs: ["maxes", "where"],
    reference: ({ x }, n) => {
      const row = (r: number) => Array.from({ length: n }, (_, c) => x[r * n + c]);
      return { maxes: map(12, (r) => Math.max(...row(r))), where: map(12, (r) => row(r).indexOf(Math.max(...row(r)))) };
    },
  },
];

for (const c of cases) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n${c.helpers ?? ""}\n`;
    const args = c.args(c.n);
    const expected = c.reference(args, c.n);
    const grid = c.grid ? c.grid(c.n, c.block) : [programs(c.n, c.block)];
    const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: c.block }, grid, args, outputs: c.outputs });
    for (const name of c.outputs) {
      assertClose(gpu[name], expected[name], `GPU ${name}`, c.atol, c.rtol);
      assertClose(cpu[name], expected[name], `CPU ${name}`, c.atol, c.rtol);
    }
  });
}

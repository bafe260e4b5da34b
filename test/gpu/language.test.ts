// Every language feature of docs/LANGUAGE.md §2 (scalars and 1-D blocks), run on the GPU and on the CPU
// interpreter with fresh random inputs, sizes that aren't multiples of the block, and poisoned
// outputs, and compared with a plain TypeScript reference computed in float64.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, randomInts, runBoth, type HostArray } from "../support/kernel-runner";

interface Feature {
  name: string;
  params: string;
  body: string;
  block: number;
  n: number;
  args: (n: number) => Record<string, HostArray | number>;
  outputs: string[];
  reference: (args: Record<string, any>, n: number) => Record<string, ArrayLike<number>>;
  /** Scalar kernels (no blocks) use one program per element. */
  grid?: (n: number, block: number) => number[];
  atol?: number;
  rtol?: number;
}

const offs = "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = offs < n;";
const fl = (f: (...xs: number[]) => number) => f;
const map = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

const features: Feature[] = [
  {
    name: "masked load with other, float arithmetic",
    params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask, 2.0);\nconst b = tl.load(y + offs, mask);\ntl.store(out + offs, (a * b - a / (b + 3.0)) % 1.5, mask);`,
    block: 128, n: 1000,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), out: poisoned(n), n }),
    outputs: ["out"],
    reference: ({ x, y }, n) => ({ out: map(n, (i) => (x[i] * y[i] - x[i] / (y[i] + 3)) % 1.5) }),
    atol: 1e-6, rtol: 1e-5,
  },
  {
    name: "integer division, remainder, shifts and bit operations (i32)",
    params: "x: Ptr<i32>, y: Ptr<i32>, out: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nconst b = tl.load(y + offs, mask, 1);\nconst q = a / b + a % b;\nconst bits = ((a << 3) ^ (a >> 2)) & ~b | (b & 255);\ntl.store(out + offs, q * 7 - bits, mask);`,
    block: 64, n: 777,
    args: (n) => ({ x: randomInts(n, -100000, 100000), y: randomInts(n, -50, 50).map((v) => v || 3), out: poisoned(n, "i32"), n }),
    outputs: ["out"],
    reference: ({ x, y }, n) => ({ out: map(n, (i) => { const a = x[i], b = y[i]; const q = Math.trunc(a / b) + (a % b); const bits = (((a << 3) ^ (a >> 2)) & ~b) | (b & 255); return (Math.imul(q, 7) - bits) | 0; }) }),
  },
  {
    name: "u32 arithmetic wraps and shifts logically",
    params: "x: Ptr<u32>, out: Ptr<u32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\ntl.store(out + offs, (a * 2654435761) >> 7, mask);`,
    block: 256, n: 1001,
    args: (n) => ({ x: Uint32Array.from(randomInts(n, 0, 2 ** 30)), out: poisoned(n, "u32"), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(n, (i) => (Math.imul(x[i], 2654435761) >>> 0) >>> 7) }),
  },
  {
    name: "comparisons, mask logic and tl.where",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nconst inside = a >= -0.5 && a <= 0.5;\nconst odd = offs % 2 === 1;\ntl.store(out + offs, tl.where(inside || !odd, a, -a), mask);`,
    block: 32, n: 333,
    args: (n) => ({ x: randomFloats(n), out: poisoned(n), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(n, (i) => ((x[i] >= -0.5 && x[i] <= 0.5) || i % 2 !== 1 ? x[i] : -x[i])) }),
  },
  {
    name: "math functions",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask, 1.0);\nconst p = tl.abs(a) + 0.25;\nconst r = tl.exp(a) + tl.log(p) + tl.sqrt(p) + tl.rsqrt(p) + tl.sin(a) + tl.cos(a) + tl.floor(a * 4.0) + tl.ceil(a * 4.0) + tl.sigmoid(a);\ntl.store(out + offs, r, mask);`,
    block: 256, n: 1500,
    args: (n) => ({ x: randomFloats(n, -2, 2), out: poisoned(n), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(n, (i) => { const a = x[i]; const p = Math.abs(a) + 0.25; return Math.exp(a) + Math.log(p) + Math.sqrt(p) + 1 / Math.sqrt(p) + Math.sin(a) + Math.cos(a) + Math.floor(Math.fround(a * 4)) + Math.ceil(Math.fround(a * 4)) + 1 / (1 + Math.exp(-a)); }) }),
    atol: 1e-4, rtol: 1e-4,
  },
  {
    name: "maximum, minimum, fma",
    params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nconst b = tl.load(y + offs, mask);\ntl.store(out + offs, tl.fma(tl.maximum(a, b), tl.minimum(a, 0.0), b), mask);`,
    block: 128, n: 300,
    args: (n) => ({ x: randomFloats(n), y: randomFloats(n), out: poisoned(n), n }),
    outputs: ["out"],
    reference: ({ x, y }, n) => ({ out: map(n, (i) => Math.max(x[i], y[i]) * Math.min(x[i], 0) + y[i]) }),
    atol: 1e-6, rtol: 1e-6,
  },
  {
    name: "casts between f32, i32 and u32",
    params: "x: Ptr<f32>, out_i: Ptr<i32>, out_f: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nconst i = tl.cast(a * 1000.0, "i32");\ntl.store(out_i + offs, i, mask);\ntl.store(out_f + offs, tl.cast(tl.cast(i, "u32") >> 1, "f32") + tl.cast(offs, "f32"), mask);`,
    block: 64, n: 200,
    args: (n) => ({ x: randomFloats(n, -10, 10), out_i: poisoned(n, "i32"), out_f: poisoned(n), n }),
    outputs: ["out_i", "out_f"],
    reference: ({ x }, n) => {
      const i = map(n, (k) => Math.trunc(Math.fround(x[k] * 1000)));
      return { out_i: i, out_f: map(n, (k) => Math.fround(Math.fround((i[k] >>> 0) >>> 1) + k)) };
    },
  },
  {
    name: "for loop carrying a block variable, tl.zeros and tl.cdiv",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `let acc = tl.zeros([BLOCK], "f32");\nconst cols = tl.arange(0, BLOCK);\nfor (let start = 0; start < tl.cdiv(n, BLOCK) * BLOCK; start += BLOCK) {\n  const o = start + cols;\n  acc += tl.load(x + o, o < n);\n}\ntl.store(out + cols, acc);`,
    block: 64, n: 1000, grid: () => [1],
    args: (n) => ({ x: randomFloats(n), out: poisoned(64), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(64, (c) => { let s = 0; for (let i = c; i < n; i += 64) s += x[i]; return s; }) }),
    atol: 1e-5, rtol: 1e-5,
  },
  {
    name: "if/else on scalars, tl.full, numPrograms, scalar store",
    params: "out: Ptr<f32>, counts: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst pid = tl.programId(0);\nif (pid % 2 === 0) {\n  tl.store(out + offs, tl.full([BLOCK], 1.5, "f32"), mask);\n} else {\n  tl.store(out + offs, tl.cast(offs, "f32") * -1.0, mask);\n}\ntl.store(counts + pid, tl.numPrograms(0) * 10 + pid);`,
    block: 32, n: 100,
    args: (n) => ({ out: poisoned(n), counts: poisoned(4, "i32"), n }),
    outputs: ["out", "counts"],
    reference: (_, n) => ({ out: map(n, (i) => (Math.floor(i / 32) % 2 === 0 ? 1.5 : -i)), counts: map(4, (p) => 40 + p) }),
  },
  {
    name: "three-axis grid and scalar loads",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `const p = tl.programId(0) + tl.programId(1) * tl.numPrograms(0) + tl.programId(2) * tl.numPrograms(0) * tl.numPrograms(1);\nconst v = tl.load(x + p);\ntl.store(out + p, v * 2.0 + tl.cast(tl.programId(2), "f32"));`,
    block: 1, n: 3 * 5 * 7, grid: () => [3, 5, 7],
    args: (n) => ({ x: randomFloats(n), out: poisoned(n), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(n, (p) => Math.fround(Math.fround(x[p] * 2) + Math.floor(p / 15))) }),
  },
  {
    name: "a grid of more than 65535 programs is folded",
    params: "out: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `const pid = tl.programId(0);\ntl.store(out + pid, pid * 3);`,
    block: 1, n: 70001, grid: (n) => [n],
    args: (n) => ({ out: poisoned(n, "i32"), n }),
    outputs: ["out"],
    reference: (_, n) => ({ out: map(n, (p) => p * 3) }),
  },
  {
    // vec4 runs: aligned ones, a base shifted by one element (run-time fallback), a ragged tail.
    name: "contiguous accesses with misaligned bases and ragged tails",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, shift: i32, BLOCK: constexpr",
    body: `${offs}\nconst a = tl.load(x + offs, mask);\nconst b = tl.load(x + shift + offs, offs + shift < n, -1.0);\ntl.store(out + offs, a + b * 10.0, mask);\ntl.store(out + n + shift + offs, b, offs + shift < n);`,
    block: 256, n: 1003,
    args: (n) => ({ x: randomFloats(n), out: poisoned(2 * n + 1), n, shift: 1 }),
    outputs: ["out"],
    reference: ({ x }, n) => ({
      out: map(2 * n + 1, (k) => (k < n ? Math.fround(x[k] + Math.fround((k + 1 < n ? x[k + 1] : -1) * 10)) : k > n && k < 2 * n ? x[k - n] : NaN)),
    }),
  },
  {
    name: "pointer arithmetic: reversed and strided addresses",
    params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst src = x + (n - 1) - offs;\nconst v = tl.load(src, mask);\ntl.store(out + offs * 2, v, mask);\ntl.store(out + offs * 2 + 1, -v, mask);`,
    block: 128, n: 999,
    args: (n) => ({ x: randomFloats(n), out: poisoned(2 * n), n }),
    outputs: ["out"],
    reference: ({ x }, n) => ({ out: map(2 * n, (k) => (k % 2 === 0 ? x[n - 1 - k / 2] : -x[n - 1 - (k - 1) / 2])) }),
  },
];

for (const f of features) {
  test(`GPU and CPU: ${f.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${f.params}) {\n${f.body}\n});\n`;
    const args = f.args(f.n);
    const expected = f.reference(args, f.n);
    const grid = f.grid ? f.grid(f.n, f.block) : [Math.ceil(f.n / f.block)];
    const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: f.block }, grid, args, outputs: f.outputs });
    for (const name of f.outputs) {
      assertClose(gpu[name], expected[name], `GPU ${name}`, f.atol, f.rtol);
      assertClose(cpu[name], expected[name], `CPU ${name}`, f.atol, f.rtol);
    }
  });
}

// tl.exp2, log2, tanh, erf, pow, asin, acos, atan, fdiv, umulhi, clamp and tl.cdiv on blocks, run on the GPU
// (lavapipe in CI) and on the CPU interpreter with fresh random inputs, at sizes that are not
// multiples of the block, into poisoned outputs, against float64 references. Tolerances (GPU and
// CPU alike): exp2 rtol 4e-6 (WGSL allows 3 + 2|x| ulp, |x| ≤ 8); log2 1e-6 abs + rel; tanh 2e-6
// abs; erf 5e-7 abs (the approximation's 1.5e-7 and f32 rounding); pow rtol 1e-5 (|y log2 x| ≤ 6);
// asin + 4 acos 2e-6 abs (a few ULP of values up to 4π); atan 4e-7 abs + rel;
// fdiv rtol 1e-6 (2.5 ulp); umulhi, clamp and cdiv exact.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, randomInts, runBoth, type HostArray } from "../support/kernel-runner";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const map = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
const OFFS = "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = offs < n;";

/** erf in float64: its Maclaurin series (exact to ~1e-12 for |x| < 4), ±1 beyond (erfc(4) < 2e-8). */
function erf64(x: number): number {
  if (Math.abs(x) >= 4) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let n = 1; n < 120; n++) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

/** The high word of the unsigned 64-bit product, exactly. */
const mulhi64 = (a: number, b: number) => Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);

interface Case {
  name: string;
  params: string;
  body: string;
  block: number;
  n: number;
  args: (n: number) => Record<string, HostArray | number>;
  reference: (args: Record<string, any>, n: number) => ArrayLike<number>;
  atol?: number;
  rtol?: number;
}

const f32In = (lo: number, hi: number) => (n: number) => randomFloats(n, lo, hi);

const CASES: Case[] = [
  {
    name: "tl.exp2", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.exp2(tl.load(x + offs, mask)), mask);`, block: 128, n: 1000,
    args: (n) => ({ x: f32In(-8, 8)(n), out: poisoned(n), n }), reference: ({ x }, n) => map(n, (i) => 2 ** x[i]), rtol: 4e-6,
  },
  {
    name: "tl.log2 (and of integers: converted to f32)", params: "x: Ptr<f32>, k: Ptr<i32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.log2(tl.load(x + offs, mask, 1.0)) + tl.log2(tl.load(k + offs, mask, 1)), mask);`, block: 64, n: 999,
    args: (n) => ({ x: f32In(0.01, 100)(n), k: randomInts(n, 1, 5000), out: poisoned(n), n }),
    reference: ({ x, k }, n) => map(n, (i) => Math.log2(x[i]) + Math.log2(k[i])), atol: 2e-6, rtol: 1e-6,
  },
  {
    name: "tl.tanh, large |x| included", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.tanh(tl.load(x + offs, mask)), mask);`, block: 256, n: 1001,
    args: (n) => ({ x: Float32Array.from(f32In(-4, 4)(n), (v, i) => (i % 7 === 0 ? v * 30 : v)), out: poisoned(n), n }),
    reference: ({ x }, n) => map(n, (i) => Math.tanh(x[i])), atol: 2e-6,
  },
  {
    name: "tl.erf on [-4.5, 4.5]", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.erf(tl.load(x + offs, mask)), mask);`, block: 128, n: 3001,
    args: (n) => ({ x: f32In(-4.5, 4.5)(n), out: poisoned(n), n }), reference: ({ x }, n) => map(n, (i) => erf64(x[i])), atol: 5e-7,
  },
  {
    name: "tl.erf near 0 (the series), relative", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.erf(tl.load(x + offs, mask)), mask);`, block: 128, n: 1000,
    args: (n) => ({ x: f32In(-0.6, 0.6)(n), out: poisoned(n), n }), reference: ({ x }, n) => map(n, (i) => erf64(x[i])), atol: 1e-9, rtol: 1e-6,
  },
  {
    name: "tl.pow: positive bases, and negative bases with integer exponents", params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.pow(tl.load(x + offs, mask), tl.load(y + offs, mask)), mask);`, block: 128, n: 1003,
    args: (n) => {
      const x = f32In(0.1, 4)(n);
      const y = f32In(-3, 3)(n);
      for (let i = 0; i < n; i += 3) [x[i], y[i]] = [-x[i], Math.round(y[i])];
      return { x, y, out: poisoned(n), n };
    },
    reference: ({ x, y }, n) => map(n, (i) => Math.pow(x[i], y[i])), rtol: 1e-5,
  },
  {
    name: "tl.pow's edges: x^0 = 1, 0^y, a negative base with a fraction is NaN", params: "x: Ptr<f32>, y: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.pow(tl.load(x + offs, mask), tl.load(y + offs, mask)), mask);`, block: 4, n: 7,
    args: () => ({ x: Float32Array.of(0, 0, 0, -2, -2, 5, -3), y: Float32Array.of(0, 2, -1, 3, 0.5, 0, 2), out: poisoned(7), n: 7 }),
    reference: ({ x, y }, n) => map(n, (i) => Math.pow(x[i], y[i])), rtol: 1e-6,
  },
  {
    // Cephes' asinf / acosf in the WGSL (WGSL's own asin was 3.9e-4 off near ±1 on lavapipe).
    name: "tl.asin and tl.acos (libdevice.asin, tutorial 07) on [-1, 1], ±1 and 1 - 2^-20 included", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\nconst x = tl.load(x + offs, mask);\ntl.store(out + offs, tl.asin(x) + 4.0 * tl.acos(x), mask);`, block: 128, n: 1003,
    args: (n) => ({ x: Float32Array.from(f32In(-1, 1)(n), (v, i) => [1, -1, 1 - 2 ** -20, -0.5, 0.5][i] ?? v), out: poisoned(n), n }),
    reference: ({ x }, n) => map(n, (i) => Math.asin(x[i]) + 4 * Math.acos(x[i])), atol: 2e-6, rtol: 1e-6,
  },
  {
    name: "tl.atan, large |x| included", params: "x: Ptr<f32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.atan(tl.load(x + offs, mask)), mask);`, block: 128, n: 1001,
    args: (n) => ({ x: Float32Array.from(f32In(-3, 3)(n), (v, i) => (i % 5 === 0 ? v * 1000 : v)), out: poisoned(n), n }),
    reference: ({ x }, n) => map(n, (i) => Math.atan(x[i])), atol: 4e-7, rtol: 4e-7,
  },
  {
    name: "tl.fdiv of integers is float division", params: "a: Ptr<i32>, b: Ptr<i32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.fdiv(tl.load(a + offs, mask), tl.load(b + offs, mask, 1)), mask);`, block: 128, n: 500,
    args: (n) => ({ a: randomInts(n, -100000, 100000), b: randomInts(n, 1, 1000), out: poisoned(n), n }),
    reference: ({ a, b }, n) => map(n, (i) => a[i] / b[i]), rtol: 1e-6,
  },
  {
    name: "tl.umulhi on u32 and i32", params: "a: Ptr<u32>, b: Ptr<u32>, out: Ptr<u32>, outi: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\nconst a = tl.load(a + offs, mask);\nconst b = tl.load(b + offs, mask);\ntl.store(out + offs, tl.umulhi(a, b), mask);\ntl.store(outi + offs, tl.umulhi(tl.cast(a, "i32"), tl.cast(b, "i32")), mask);`, block: 64, n: 1001,
    args: (n) => ({ a: Uint32Array.from(randomInts(n, -(2 ** 31), 2 ** 31 - 1)), b: Uint32Array.from(randomInts(n, -(2 ** 31), 2 ** 31 - 1)), out: poisoned(n, "u32"), outi: poisoned(n, "i32"), n }),
    reference: ({ a, b }, n) => map(n, (i) => mulhi64(a[i], b[i])),
  },
  {
    name: "tl.clamp on floats (scalar bounds) and integers (block bounds)", params: "x: Ptr<f32>, k: Ptr<i32>, lo: Ptr<i32>, out: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\nconst c = tl.clamp(tl.load(k + offs, mask), tl.load(lo + offs, mask), 40);\ntl.store(out + offs, tl.clamp(tl.load(x + offs, mask), -0.5, 0.25) + tl.cast(c, "f32"), mask);`, block: 128, n: 777,
    args: (n) => ({ x: randomFloats(n), k: randomInts(n, -100, 100), lo: randomInts(n, -50, 0), out: poisoned(n), n }),
    reference: ({ x, k, lo }, n) => map(n, (i) => Math.fround(Math.min(Math.max(x[i], -0.5), 0.25) + Math.min(Math.max(k[i], lo[i]), 40))),
  },
  {
    name: "tl.cdiv on blocks", params: "a: Ptr<i32>, b: Ptr<i32>, out: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${OFFS}\ntl.store(out + offs, tl.cdiv(tl.load(a + offs, mask), tl.load(b + offs, mask, 1)) + tl.cdiv(offs, 16), mask);`, block: 128, n: 1000,
    args: (n) => ({ a: randomInts(n, 0, 100000), b: randomInts(n, 1, 300), out: poisoned(n, "i32"), n }),
    reference: ({ a, b }, n) => map(n, (i) => Math.ceil(a[i] / b[i]) + Math.ceil(i / 16)),
  },
];

for (const c of CASES) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const args = c.args(c.n);
    const expected = c.reference(args, c.n);
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n`;
    const outputs = ["out", ...("outi" in args ? ["outi"] : [])];
    const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: c.block }, grid: [Math.ceil(c.n / c.block)], args, outputs });
    assertClose(gpu.out, expected, "GPU", c.atol, c.rtol);
    assertClose(cpu.out, expected, "CPU", c.atol, c.rtol);
    if ("outi" in args) {
      const signed = Array.from(expected, (v) => v | 0);
      assertClose(gpu.outi, signed, "GPU i32");
      assertClose(cpu.outi, signed, "CPU i32");
    }
  });
}

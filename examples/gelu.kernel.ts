// GELU, exactly (x · Φ(x) = 0.5 x (1 + erf(x / √2))) and in its tanh approximation, as in GPT-2 —
// tl.erf and tl.tanh. WGSL has no erf: Kernel Lab evaluates a series below |x| = 0.5 and
// Abramowitz–Stegun 7.1.26 above (|error| ≤ 1.5e-7), the same on the GPU and with --cpu.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const gelu_kernel = kernel(function gelu_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476)), mask);
});

export const gelu_tanh_kernel = kernel(function gelu_tanh_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const x = tl.load(x_ptr + offsets, mask);
  const inner = 0.7978845608028654 * (x + 0.044715 * x * x * x);
  tl.store(out_ptr + offsets, 0.5 * x * (1.0 + tl.tanh(inner)), mask);
});

/** erf in float64 by its Maclaurin series (to ~1e-12 for |x| < 4); ±1 beyond, where erfc < 2e-8. */
function erf(x: number): number {
  if (Math.abs(x) >= 4) return Math.sign(x);
  let term = x;
  let sum = x;
  for (let k = 1; k < 120; k++) {
    term *= (-x * x) / k;
    sum += term / (2 * k + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

export const gelu = defineRun({
  kernel: gelu_kernel,
  sizes: [100_003, 777, 1 << 20],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: randn(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((x) => 0.5 * x * (1 + erf(x / Math.SQRT2))) }),
  tolerance: { atol: 1e-6, rtol: 1e-6 },
  bytes: (n) => 8 * n,
});

export const geluTanh = defineRun({
  kernel: gelu_tanh_kernel,
  sizes: [100_003, 777],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({ x_ptr: randn(n), out_ptr: empty(n), n }),
  outputs: ["out_ptr"],
  reference: ({ x_ptr }) => ({ out_ptr: x_ptr.map((x) => 0.5 * x * (1 + Math.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))) }),
  tolerance: { atol: 1e-6, rtol: 1e-6 },
  bytes: (n) => 8 * n,
});

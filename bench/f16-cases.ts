// The suite's half-precision cases (issue 13 item 2; bench/NOTES.md §16): vector add of 2^24
// halves, and examples/matmul-f16.kernel.ts (f16 A and B, f32 accumulator and C) at an odd size
// checked in full and at 1024³ and 4096³ checked on samples, all against float64 of the
// f16-rounded inputs. Each matmul variant runs on subgroup matrices where the device offers them
// (KERNEL_LAB_DAWN_FLAGS, README) and again on the generic tiled path (`subgroupMatrixDot: false`).
// They need `shader-f16`; suite.ts skips them, saying so, where the adapter lacks it.

import { f16FromBits, f16ToBits, roundF16 } from "../src/ir/f16";
import type { Case } from "./case";

/** A case of the suite (bench/case.ts) that needs shader-f16; its Uint16Array args are halves. */
export type F16Case = Case & { requires: "shader-f16" };

/**
 * n halves (as bits) drawn from a normal distribution, through f32 bit patterns: f16ToBits takes
 * ~0.5 µs an element here, too slow for 4096² matrices. Normal f32 values (|x| < 8 here) only:
 * the half's exponent is the float's rebased, the mantissa rounded to nearest, ties to even.
 */
function randnHalves(n: number): Uint16Array {
  const floats = new Float32Array(n);
  for (let i = 0; i < n; i++) floats[i] = Math.sqrt(-2 * Math.log(Math.random() || 1e-12)) * Math.cos(2 * Math.PI * Math.random());
  return halfBitsOf(floats);
}

/** The half nearest each float (finite, below 65504), as bits. */
export function halfBitsOf(floats: Float32Array): Uint16Array {
  const n = floats.length;
  const words = new Uint32Array(floats.buffer);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const w = words[i];
    const exponent = ((w >>> 23) & 0xff) - 127 + 15;
    // Below the smallest normal half (|x| < 2^-14, rare): the exact, slow conversion.
    if (exponent <= 0) {
      out[i] = f16ToBits(floats[i]);
      continue;
    }
    const mantissa = w & 0x7fffff;
    const rest = mantissa & 0x1fff;
    let half = ((w >>> 16) & 0x8000) | (exponent << 10) | (mantissa >>> 13);
    if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++;
    out[i] = half;
  }
  return out;
}

const halvesOf = (bits: Uint16Array) => Float64Array.from(bits, f16FromBits);

export function vectorAddF16(n: number): F16Case {
  return {
    name: `add-f16-${Math.log2(n)}`,
    example: "vector-add-f16",
    kernel: "add_f16_kernel",
    shape: `2^${Math.log2(n)} f16`,
    configs: [{ BLOCK_SIZE: 1024 }, { BLOCK_SIZE: 2048 }, { BLOCK_SIZE: 4096 }],
    grid: (c) => [Math.ceil(n / c.BLOCK_SIZE)],
    args: () => ({ x_ptr: randnHalves(n), y_ptr: randnHalves(n), output_ptr: new Uint16Array(n).fill(0x7e00), n_elements: n }),
    outputs: ["output_ptr"],
    // f16 + f16 is rounded once: the expected value is the float64 sum rounded to a half, exactly.
    check: (a) => {
      const x = halvesOf(a.x_ptr as Uint16Array);
      const y = halvesOf(a.y_ptr as Uint16Array);
      return [{ output: "output_ptr", expected: Float64Array.from(x, (v, i) => roundF16(v + y[i])) }];
    },
    bytes: 6 * n,
    targets: [{ preferredWorkgroupSize: 256 }],
    requires: "shader-f16",
  };
}

/** C[i][j] in float64 for the (i, j) pairs listed. */
function sampledProduct(a: Float64Array, b: Float64Array, n: number, k: number, indices: Int32Array): Float64Array {
  return Float64Array.from(indices, (idx) => {
    const [i, j] = [Math.floor(idx / n), idx % n];
    let acc = 0;
    for (let p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
    return acc;
  });
}

/** Every element up to ~1.1M, else the last row and column in full (the masked edges) and 4096 random ones. */
function checkedIndices(m: number, n: number): Int32Array {
  if (m * n <= 1 << 20) return Int32Array.from({ length: m * n }, (_, i) => i);
  const edges = [...Array.from({ length: n }, (_, j) => (m - 1) * n + j), ...Array.from({ length: m }, (_, i) => i * n + n - 1)];
  return Int32Array.from([...edges, ...Array.from({ length: 4096 }, () => Math.floor(Math.random() * m * n))]);
}

export function matmulF16(m: number, n: number, k: number): F16Case {
  return {
    name: `matmul-f16-${m}x${n}x${k}`,
    example: "matmul-f16",
    kernel: "matmul_f16_kernel",
    shape: `${m}×${n}×${k} f16`,
    // The first H200 run (NOTES §16) tried 128×128×{32, 64}, 128×256, 128×64, 64×64 at 4 and 8
    // warps; these are the ones that led, plus 16 warps and 256×128.
    configs: [
      { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64 },
      { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64, num_warps: 16 },
      // Run 1's leader was not pipelined (its accumulator counted against the registers); since
      // then it is: num_stages 1 is that loop again (NOTES §18).
      { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64, num_stages: 1 },
      { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64, num_warps: 16, num_stages: 1 },
      { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32, num_stages: 1 },
      { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 },
      { BLOCK_M: 256, BLOCK_N: 128, BLOCK_K: 32 },
      { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32 },
      { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 },
    ],
    grid: (c) => [Math.ceil(m / c.BLOCK_M) * Math.ceil(n / c.BLOCK_N)],
    args: () => ({
      a_ptr: randnHalves(m * k), b_ptr: randnHalves(k * n), c_ptr: new Float32Array(m * n).fill(NaN), M: m, N: n, K: k,
      stride_am: k, stride_ak: 1, stride_bk: n, stride_bn: 1, stride_cm: n, stride_cn: 1,
    }),
    outputs: ["c_ptr"],
    check: (a) => {
      const indices = checkedIndices(m, n);
      return [{ output: "c_ptr", indices, expected: sampledProduct(halvesOf(a.a_ptr as Uint16Array), halvesOf(a.b_ptr as Uint16Array), n, k, indices) }];
    },
    flops: 2 * m * n * k,
    // The same variants on the generic path (halves staged, f32 FMAs), for the comparison, and
    // with scalar f16 loads as in the first H200 run (84.5 TFLOP/s then, 25–37 since: NOTES §18).
    targets: [{ subgroupMatrixDot: false }, { wideHalfAccesses: false }],
    minReps: 10,
    // Converting to halves in JavaScript is slow (~1 s per 16M elements): few input sets. At
    // 4096³ one set (64 MiB of A and B) already exceeds the 50 MiB L2.
    copies: m * k >= 1 << 24 ? 1 : 4,
    requires: "shader-f16",
  };
}

/** The f16 cases of a full run (quick: tiny sizes for lavapipe). */
export function f16Cases(quick: boolean): F16Case[] {
  if (quick) return [vectorAddF16(2 ** 14), { ...matmulF16(96, 80, 72), configs: [{ BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 }], targets: [] }];
  return [vectorAddF16(2 ** 24), matmulF16(1000, 1001, 1003), matmulF16(1024, 1024, 1024), matmulF16(4096, 4096, 4096)];
}

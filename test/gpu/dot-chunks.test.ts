// tl.dot with its operands staged a chunk of K at a time (codegen/dot-chunks.ts, the plan's last
// fallback; bench/NOTES.md §37): on the tiled path and on the flat path, with tl.trans operands as
// attention's backward writes them (`tl.dot(tl.trans(p), do)`), at sizes that aren't multiples of
// the blocks, fresh random inputs, poisoned outputs, on the GPU and the interpreter. Each case
// caps the workgroup memory below what staging K whole takes, so without chunks it is KL2016.

import { test } from "node:test";
import { poisoned, pow2, randomFloats, range, runKernelCase, type KernelCase } from "../support/kernel-runner";

/** C = A·B (A [m, k] row-major, or stored transposed [k, m] and passed as tl.trans), B [k, n] (or [n, k] transposed). */
function product(m: number, k: number, n: number, transA: boolean, transB: boolean, cap: number): KernelCase {
  const a = randomFloats(m * k, -1, 1);
  const b = randomFloats(k * n, -1, 1);
  const [bm, bk, bn] = [pow2(m), pow2(k), pow2(n)];
  const at = (i: number, kk: number) => (transA ? a[kk * m + i] : a[i * k + kk]);
  const bt = (kk: number, j: number) => (transB ? b[j * k + kk] : b[kk * n + j]);
  const loadA = transA
    ? "tl.trans(tl.load(a + tl.expandDims(rk, 1) * M + tl.expandDims(rm, 0), tl.expandDims(rk < K, 1) && tl.expandDims(rm < M, 0), 0.0))"
    : "tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk, 0), tl.expandDims(rm < M, 1) && tl.expandDims(rk < K, 0), 0.0)";
  const loadB = transB
    ? "tl.trans(tl.load(b + tl.expandDims(rn, 1) * K + tl.expandDims(rk, 0), tl.expandDims(rn < N, 1) && tl.expandDims(rk < K, 0), 0.0))"
    : "tl.load(b + tl.expandDims(rk, 1) * N + tl.expandDims(rn, 0), tl.expandDims(rk < K, 1) && tl.expandDims(rn < N, 0), 0.0)";
  return {
    name: `${transA ? "tl.trans(A)" : "A"}·${transB ? "tl.trans(B)" : "B"} ${m}×${k}·${k}×${n} in ${bm}×${bk}·${bk}×${bn} blocks, in ${cap} bytes`,
    params: "a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, M: i32, K: i32, N: i32, BM: constexpr, BK: constexpr, BN: constexpr",
    body: [
      "const rm = tl.arange(0, BM);",
      "const rk = tl.arange(0, BK);",
      "const rn = tl.arange(0, BN);",
      `const acc = tl.dot(${loadA}, ${loadB});`,
      "tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0), acc, tl.expandDims(rm < M, 1) && tl.expandDims(rn < N, 0));",
    ].join("\n"),
    constexprs: { BM: bm, BK: bk, BN: bn },
    grid: [1],
    args: { a, b, c: poisoned(m * n), M: m, K: k, N: n },
    outputs: ["c"],
    expected: { c: range(m * n).map((e) => range(k).reduce((s, kk) => s + at(Math.floor(e / n), kk) * bt(kk, e % n), 0)) },
    atol: 1e-4 * k, rtol: 1e-5,
    target: { maxWorkgroupStorageBytes: cap },
  };
}

const cases: KernelCase[] = [
  // The tiled path (a 64 × 64 output): A and B 64 × 64 floats each, 32 KiB whole; 4 KiB in chunks of 8.
  product(50, 40, 60, false, false, 4096),
  product(50, 40, 60, true, true, 4096),
  // The flat path (a 64 × 16 output), attention backward's `tl.dot(tl.trans(p), do)`: A 16 KiB whole.
  product(61, 50, 13, true, false, 4096),
  product(61, 50, 13, false, true, 4096),
];

test("tl.dot with its operands staged in chunks of K", async (t) => {
  for (const c of cases) await t.test(c.name, () => runKernelCase(c));
});

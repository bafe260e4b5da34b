// When a loop's accumulator on subgroup matrices is stored straight from the matrices
// (codegen/mma-store.ts): tutorial 03's store after the loop, and the patterns that must keep the
// registers' way out. WGSL only (test/gpu/mma-emulated.test.ts runs both ways on lavapipe).

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../../src/ir/target";
import { PRELUDE } from "../support/kernel-runner";

const H200: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
  subgroupMatrixConfigs: [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }],
};

/** The tutorial's loop with C's column stride `sc`; `tail` replaces the store after the loop. */
const source = (tail: string) => `${PRELUDE}export const mm = kernel(function mm(a: Ptr<f16>, b: Ptr<f16>, c: Ptr<f32>, lim: Ptr<i32>, M: i32, N: i32, K: i32, sc: i32, BM: constexpr, BN: constexpr, BK: constexpr) {
  const rm = tl.programId(0) * BM + tl.arange(0, BM);
  const rn = tl.programId(1) * BN + tl.arange(0, BN);
  const rk = tl.arange(0, BK);
  let acc = tl.zeros([BM, BN], "f32");
  for (let k = 0; k < K; k += BK) {
    const x = tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk + k, 0), tl.expandDims(rm, 1) < M && tl.expandDims(rk + k, 0) < K, 0.0);
    const y = tl.load(b + tl.expandDims(rk + k, 1) * N + tl.expandDims(rn, 0), tl.expandDims(rk + k, 1) < K && tl.expandDims(rn, 0) < N, 0.0);
    acc = tl.dot(x, y, acc);
  }
  ${tail}
});`;

function wgsl(tail: string, sc: number, options: CodegenOptions = {}): string {
  const kernel = parseKernelFile("t.kernel.ts", source(tail)).kernels[0];
  const result = compileKernel(kernel, { BM: 64, BN: 64, BK: 32 }, H200, specializationFor(kernel, { M: 128, N: 128, K: 64, sc }), { workgroupSize: 128, ...options });
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), []);
  return result.kernel!.wgsl;
}

const STORE = "tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0) * sc, acc, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < N);";
const direct = (code: string) => /subgroupMatrixStore<row_major>\(&b_c,/.test(code);

test("tutorial 03's store after the loop, unit column stride: C from the matrices, tested from program ids and parameters", () => {
  const code = wgsl(STORE, 1);
  assert.ok(direct(code));
  assert.match(code, /let cwhole\d+ = cbase\d+ >= 0i && cstride\d+ >= 0i && \(cbase\d+ & 3i\) == 0i && \(cstride\d+ & 3i\) == 0i && [^;]* < v\d+ && [^;]* < v\d+;/);
  assert.doesNotMatch(code, /workgroupUniformLoad/);
});

test("the registers' way out is kept where the pattern does not hold", () => {
  // A column stride not known to be 1; the switch off.
  assert.ok(!direct(wgsl(STORE, 2)));
  assert.ok(!direct(wgsl(STORE, 1, { mmaDirectStore: false })));
  // The accumulator read again after the loop.
  assert.ok(!direct(wgsl(`${STORE}\n  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0), acc * 2.0, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < N);`, 1)));
  // A bound read from memory: not provably the same in every invocation.
  assert.ok(!direct(wgsl("const n = tl.load(lim);\n  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0) * sc, acc, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < n);", 1)));
  // A mask that is not a conjunction of `x < n` tests.
  assert.ok(!direct(wgsl("tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0) * sc, acc, tl.expandDims(rm, 1) < M || tl.expandDims(rn, 0) < N);", 1)));
});

// The edge tiles' way (codegen/mma.ts storeEdgeMatrices): from the matrices through one slice of
// 16 × 16 f32 per subgroup, each element tested against the mask's own tests at its row and column.
test("the edge tiles' way: slices per subgroup, the mask per element; registers where the mask is not per element", () => {
  const code = wgsl(STORE, 1);
  assert.match(code, /var<workgroup> sm_mmae_f32: array<f32, 1024>;/, "4 subgroups × 256 floats");
  assert.doesNotMatch(code, /sm_mmac_f32/, "no transfer array");
  // The plan's one subgroup size: each matrix's copy written out as 256 / 32 steps at constant offsets from the
  // lane's first element, each tested at its row and column; no loop over the run-time subgroup size.
  const copies = code.match(/if \(\(v\d+ \+ mma_er\d+\) < v\d+ && \(v\d+ \+ mma_ec\d+\) < v\d+\) \{ b_c\[u32\(cbase\d+ \+ mma_er\d+ \* cstride\d+ \+ mma_ec\d+\)\] = sm_mmae_f32\[mma_slice\d+ \+ \(lid % 32u\) \+ \d+u\]; \}/g) ?? [];
  assert.equal(copies.length, 4 * 8, "2 × 2 matrices, 8 steps each");
  assert.match(code, /let mma_er\d+ = i32\(mma\d+_r \+ 18u \+ mma_lr\d+\);/, "matrix row 1, step 1: rows 16 + 2");
  assert.doesNotMatch(code, /\+= sg_size/, "no loop over the run-time subgroup size");
  // 2 × 2 matrices a subgroup: a barrier after each matrix's store and between matrices.
  assert.equal(code.match(/workgroupBarrier\(\);/g)!.length - wgsl(STORE, 1, { mmaEdgeSlices: false }).match(/workgroupBarrier\(\);/g)!.length, 7 - 2);
  // A mask reshaped from one dimension (its tests not on the tile's own axes): the registers' way.
  const reshaped = wgsl("tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0) * sc, acc, tl.expandDims(rm < M, 1) && tl.expandDims(rn, 0) < N);", 1);
  assert.ok(direct(reshaped));
  assert.match(reshaped, /sm_mmac_f32/);
  assert.doesNotMatch(reshaped, /sm_mmae_f32/);
  // A scalar condition in the mask is tested as it is.
  const flagged = wgsl("const on = M > 5;\n  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0) * sc, acc, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < N && on);", 1);
  assert.match(flagged, /sm_mmae_f32/);
});

// The workgroup memory of kernels shaped as the kernel libraries write them (bench/NOTES.md §37):
// FlagGems' non-inner reductions (a [TILE_N, TILE_K] tile reduced along axis 0, its row offsets a
// name set in both branches of an `if` on a constexpr, or in a loop) and the reduce-then-scan
// cumsum's 4096-element tiles. Staged whole they asked 48 KiB and 18 KiB; through the
// invocations' partials (codegen/axis-partials.ts, scan-runs.ts) and with the offsets recomputed
// (codegen/variable-values.ts) they ask what is checked here, exactly, so a change that brings
// the whole tile back into workgroup memory shows.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, constexpr } from "kernel-lab";\n';

/** FlagGems' sum_dim_kernel_non_inner as its Python front end writes it (`let n_offsets;` set in either branch). */
const SUM_NON_INNER = `${PRELUDE}
export const k = kernel(function k(out: Ptr<f32>, inp: Ptr<f32>, N: i32, K: i32, TILE_N: constexpr, TILE_K: constexpr, ONE_TILE_PER_CTA: constexpr) {
  const pid_m = tl.programId(0);
  const k_offsets = tl.programId(1) * TILE_K + tl.expandDims(tl.arange(0, TILE_K), 0);
  let n_offsets;
  let mask;
  if (ONE_TILE_PER_CTA) {
    n_offsets = tl.expandDims(tl.arange(0, TILE_N), 1);
    mask = (n_offsets < N) & (k_offsets < K);
    const x = tl.load(inp + pid_m * N * K + n_offsets * K + k_offsets, { mask: mask, other: 0 });
    tl.store(out + pid_m * K + k_offsets, tl.sum(x, { axis: 0, keepDims: true }), { mask: k_offsets < K });
  } else {
    let acc = tl.zeros([TILE_N, TILE_K], { dtype: tl.float32 });
    for (let start_n = 0; start_n < N; start_n += TILE_N) {
      n_offsets = start_n + tl.expandDims(tl.arange(0, TILE_N), 1);
      mask = (n_offsets < N) & (k_offsets < K);
      acc += tl.load(inp + pid_m * N * K + n_offsets * K + k_offsets, { mask: mask, other: 0 });
    }
    tl.store(out + pid_m * K + k_offsets, tl.sum(acc, { axis: 0, keepDims: true }), { mask: k_offsets < K });
  }
});
`;

/** FlagGems' reduce_then_scan_block_scan_kernel_row: a tile's cumsum plus its running prefix. */
const BLOCK_SCAN = `${PRELUDE}
export const k = kernel(function k(inp: Ptr<f32>, prev: Ptr<f32>, out: Ptr<f32>, N: i32, TILE: constexpr) {
  const pid_m = tl.programId(0);
  let prefix = tl.load(prev + pid_m);
  for (let start = 0; start < N; start += TILE) {
    const offsets = start + tl.arange(0, TILE);
    const mask = offsets < N;
    const x = tl.load(inp + pid_m * N + offsets, { mask: mask, other: 0 });
    tl.store(out + pid_m * N + offsets, prefix + tl.cumsum(x, 0), { mask: mask });
    prefix += tl.sum(x, 0);
  }
});
`;

function workgroupBytes(source: string, constexprs: Record<string, number>): { bytes: number; arrays: string[] } {
  const parsed = parseKernelFile("k.kernel.ts", source);
  const result = compileKernel(parsed.kernels[0], constexprs, DEFAULT_TARGET);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  assert.equal(errors.length, 0, errors.map((d) => `${d.code} ${d.message}`).join("\n"));
  const arrays = (result.kernel!.wgsl.match(/var<workgroup> [^;]+;/g) ?? []).map((line) => line.replace("var<workgroup> ", "").replace(";", ""));
  return { bytes: result.kernel!.abi.workgroupBytes, arrays };
}

test("FlagGems' non-inner sum, one tile and the loop: 1024 partial sums of the 2048 × 4 tile (4 KiB, was 48 KiB)", () => {
  for (const one of [1, 0]) {
    const { bytes, arrays } = workgroupBytes(SUM_NON_INNER, { TILE_N: 2048, TILE_K: 4, ONE_TILE_PER_CTA: one });
    assert.deepEqual(arrays, ["sm_x_f32: array<f32, 1024>"], `ONE_TILE_PER_CTA=${one}`);
    assert.equal(bytes, 4096);
  }
});

test("FlagGems' block scan of 4096-element tiles: the runs' 1024 totals and their 256 segments, and the sum's tree (6 KiB, was 18 KiB)", () => {
  const { bytes, arrays } = workgroupBytes(BLOCK_SCAN, { TILE: 4096 });
  assert.deepEqual(arrays.sort(), ["sm_r_f32: array<f32, 256>", "sm_scant_f32: array<f32, 256>", "sm_x_f32: array<f32, 1024>"]);
  assert.equal(bytes, 6144);
});

/** lightning-attention's _bwd_intra_kernel: the decay mask exp(-s·(i - j)) (i ≥ j), transposed for k·qᵀ. */
const DECAY_MASK_TRANS = `${PRELUDE}
export const k = kernel(function k(S: Ptr<f32>, Out: Ptr<f32>, BLOCK: constexpr) {
  const s = tl.load(S + 0);
  const array = tl.arange(0, BLOCK).to(tl.float32);
  const index = tl.expandDims(array, 1) - tl.expandDims(array, 0);
  const s_index = tl.where(index >= 0, -(s * index), -Infinity);
  const decay = tl.exp(s_index);
  const decay_trans = tl.trans(decay);
  const offs = tl.expandDims(tl.arange(0, BLOCK), 1) * BLOCK + tl.expandDims(tl.arange(0, BLOCK), 0);
  tl.store(Out + offs, decay * 2 + decay_trans);
});
`;

test("lightning-attention's transposed decay mask tl.trans(tl.exp(…)) of indices and a scalar: recomputed, no workgroup memory (was 16 KiB at 64 × 64)", () => {
  const { bytes, arrays } = workgroupBytes(DECAY_MASK_TRANS, { BLOCK: 64 });
  assert.deepEqual(arrays, []);
  assert.equal(bytes, 0);
});

/** The same mask through a float comparison: `index != s` recomputed as the element-wise code writes it. */
const NE_MASK_TRANS = `${PRELUDE}
export const k = kernel(function k(S: Ptr<f32>, Out: Ptr<f32>, BLOCK: constexpr) {
  const s = tl.load(S + 0);
  const array = tl.arange(0, BLOCK).to(tl.float32);
  const index = tl.expandDims(array, 1) - tl.expandDims(array, 0);
  const keep = tl.where(index != s, tl.exp(index), 0);
  const offs = tl.expandDims(tl.arange(0, BLOCK), 1) * BLOCK + tl.expandDims(tl.arange(0, BLOCK), 0);
  tl.store(Out + offs, keep * 2 + tl.trans(keep));
});
`;

test("a recomputed float != is written as the element-wise code writes it, through == (lavapipe's NaN != NaN is false)", () => {
  const { bytes } = workgroupBytes(NE_MASK_TRANS, { BLOCK: 64 });
  assert.equal(bytes, 0);
  const wgsl = compileKernel(parseKernelFile("k.kernel.ts", NE_MASK_TRANS).kernels[0], { BLOCK: 64 }, DEFAULT_TARGET).kernel!.wgsl;
  assert.doesNotMatch(wgsl, / != /);
  assert.match(wgsl, /\(!\(.* == .*\)\)/);
});

// pytorch/FBGEMM's Triton kernels (test/python/fbgemm-idioms.py and fbgemm-long-compiles.py with test/python/fbgemm_kit/),
// on the GPU and with --cpu: fp8_gemm.py's row-, block- and group-wise fp8 quantizers, dequantize_fp8_block and
// scale_fp8_row; fbgemm_gpu.triton's MX4 quantize / dequantize in four rounding modes; the jagged tensor ops. With --cpu
// only, dequantize_fp8_row, 128 × 128 block quantization, the row- and block-wise scaled fp8 matmuls and
// fbgemm_gpu.sll's jagged softmax / jagged bmm's (forward and backward). fp8_gemm.py
// stopped at its import (triton.runtime.jit's reinterpret / TensorWrapper, torch._library.triton_op), then KL1040 at
// `.to(TL_FP8_DTYPE)` given tl.float8e4nv; the MX4 quantizer at KL1022 (a None name rebound in a constexpr branch, given
// to a helper), then differed where it shifts a mantissa right by more than 31 (WGSL's modulo-32 shift amounts, not
// Triton's). fbgemm-reduced.py holds each idiom reduced.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { checksClean, onGpuAndCpu, run } from "./python-files";

after(stopPython);

const idioms = path.resolve(__dirname, "../python/fbgemm-idioms.py");
const reduced = path.resolve(__dirname, "../python/fbgemm-reduced.py");

test("pytorch/FBGEMM's kernels as published: fp8 quantizers (row, block, group), dequantize_fp8_block, scale_fp8_row, MX4 quantize / dequantize, jagged tensor ops; their unmasked loads past the end named; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(idioms, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      new RegExp(
        [
          "quantize_fp8_row: match",
          "triton_quantize_fp8_row \\(scale_ub, jagged rows\\): match",
          "quantize_fp8_block \\(k_major=True\\): match",
          "quantize_fp8_block \\(k_major=False\\): match",
          "quantize_fp8_group: match",
          "quantize_fp8_group \\(m_sizes\\): match",
          "dequantize_fp8_block: match",
          "scale_fp8_row: match",
          "scale_fp8_row \\(70 columns\\): KL3101: _kernel_scale_fp8_row: program \\(0,0,0\\), lane 70 loads w_scale\\[70\\] but w_scale has 70 elements",
          "matmul_fp8_row \\(tma_persistent\\): triton.runtime.driver.active.utils.fill_1d_tma_descriptor",
          "quantize_mx4 / dequantize_mx4 \\(ceil\\): match",
          "quantize_mx4 / dequantize_mx4 \\(floor\\): match",
          "quantize_mx4 / dequantize_mx4 \\(nearest\\): match",
          "quantize_mx4 / dequantize_mx4 \\(even\\): match",
          "jagged_to_dense: match",
          "jagged_dense_elementwise_add_dense_output: match",
          "dense_to_jagged: match",
          "jagged_dense_elementwise_add_jagged_output: match",
          "jagged_dense_elementwise_mul_jagged_output: match",
          "jagged_to_dense \\(two jagged dims\\): match",
          "dense_to_jagged \\(two jagged dims\\): match",
          "batched_dense_vec_jagged_2d_matmul: match",
          "triton_jagged_add_jagged: match",
          "triton_jagged_mul_jagged: match",
        ].join("\n") + "\n",
      ),
    );
  });
});

test("pytorch/FBGEMM's dequantize_fp8_row, 128 × 128 block quantization, and row-wise and block-wise scaled fp8 matmuls as published (tl.dot of float8_e4m3fn blocks), SLL's jagged softmax and bmm's, forward and backward; with --cpu (lavapipe takes from 20 s to minutes to compile each the first time)", async () => {
  const { report, outcome } = await run(path.resolve(__dirname, "../python/fbgemm-long-compiles.py"), { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
  assert.match(
    report.stdout,
    /dequantize_fp8_row: match\ndequantize_fp8_row \(37 rows\): KL3101: _kernel_dequantize_fp8_row: program \(2,0,0\), lane 5 loads x_scale_ptr\[37\] but x_scale_ptr has 37 elements\nquantize_fp8_block \(128 x 128\): match\ndequantize_fp8_block \(128 x 128\): match\nmatmul_fp8_row \(tma_persistent=False\): match\nmatmul_fp8_row \(fp8_fast_accum=False\): match\nmatmul_fp8_row \(imprecise_acc=True\): match\n(.*\n)?matmul_fp8_row \(no_use_persistent=True\): match\nmatmul_fp8_row \(bias\): match\nmatmul_fp8_block \(fp8_fast_accum=True\): match\nmatmul_fp8_block \(fp8_fast_accum=False\): match\nmatmul_fp8_block \(scale blocks 256\): assert BLOCK_N < scale_block_n\njagged_softmax: match\njagged_softmax \(backward\): match\njagged_dense_bmm: match\njagged_dense_bmm \(backward\): match\njagged_jagged_bmm: match\n/,
  );
});

test("FBGEMM's idioms reduced: a tl fp8 dtype given to a constexpr, triton.reinterpret, a None name rebound in a constexpr branch and given to a helper, shifts by 32 or more, an assert's condition in its failure, adjacent string literals, an empty-K matmul of views, a loaded fp8 block's dtype; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(reduced, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /tl fp8 dtypes given to a constexpr: match\ntriton\.reinterpret of a tensor's own dtype: match\na None name rebound in a constexpr branch, given to a helper: match\nshifts by 32 or more: match\nassert without a message: match\nadjacent string literals: match\na matmul over an empty K of views: match\na loaded fp8 block's dtype, and a value converted to it: match\n/,
    );
  });
});

test("kernel-lab check on FBGEMM's scripts, its MX4 quantizer and SLL's jagged softmax and bmm's: clean", () => {
  checksClean(idioms);
  checksClean(reduced);
  checksClean(path.resolve(__dirname, "../python/fbgemm-long-compiles.py"));
  for (const file of ["triton/quantize.py", "sll/triton/triton_jagged_softmax.py", "sll/triton/triton_jagged_bmm.py"]) {
    checksClean(path.resolve(__dirname, "../python/fbgemm_kit", file));
  }
});

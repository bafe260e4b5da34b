// ROCm/aiter's Triton kernels (test/python/aiter-idioms.py and aiter-long-compiles.py with test/python/aiter_kit/), on
// the GPU and with --cpu: RMSNorm forward and backward, SiLU-and-mul, softmax, per-tensor / per-token int8 and fp8
// quantization, the a16w16 GEMM (bias, split-K) and the a8w8 GEMM. With --cpu only: the fused and blocked norms,
// LayerNorm, top-k, MoE align / routing, RoPE, paged attention decode and the MHA forward and backward. topk.py stopped at
// `core.static_range` (`from triton.language import core`) and at its -FLT_MAX FILL_VALUE constexpr (KL2011); the GEMMs
// at their import (aiter's torch_compile_guard needs torch.library.infer_schema), then at a bias accumulator broadcast
// to the tile under a run-time if (KL2007); the MHA forward loaded past the end (a helper's MASK_STEPS choosing None
// wasn't specialized, so its None was taken whatever the launch); the MHA backward compiled prints under
// `if DEBUG and start_n == 256:` (a constexpr `and` not short-circuited, KL1043). aiter-reduced.py holds each idiom reduced.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { checksClean, onGpuAndCpu, run } from "./python-files";

after(stopPython);

const idioms = path.resolve(__dirname, "../python/aiter-idioms.py");
const longCompiles = path.resolve(__dirname, "../python/aiter-long-compiles.py");
const reduced = path.resolve(__dirname, "../python/aiter-reduced.py");

test("ROCm/aiter's kernels as published: RMSNorm (and its backward), SiLU-and-mul, softmax, int8 / fp8 quantizers, the a16w16 and a8w8 GEMMs; the split-K reduce's wrapped stores named; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(idioms, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      new RegExp(
        [
          "rms_norm: match",
          "rms_norm \\(backward\\): match",
          "fused_silu_mul: match",
          "softmax: match",
          ...["int8", "fp8"].flatMap((kind) => [
            `dynamic_per_tensor_quant_fp8_i8 \\(${kind}\\): match`,
            `static_per_tensor_quant_fp8_i8 \\(${kind}\\): match`,
            `dynamic_per_token_quant_fp8_i8 \\(${kind}\\): match`,
          ]),
          "gemm_a16w16: match",
          "gemm_a16w16 \\(bias\\): match",
          "gemm_a16w16 \\(split-K 2, bias, 64 x 64\\): match",
          "gemm_a16w16 \\(split-K 2, 37 x 45\\): KL3104 _gemm_splitk_reduce_kernel c_out_ptr",
          "gemm_a8w8 \\(int8, per-row and per-column scales\\): match",
        ].join("\n") + "\n",
      ),
    );
  });
});

test("ROCm/aiter's fused and blocked norms, LayerNorm, top-k (one and two stages), MoE align and routing, RoPE, paged attention decode and the MHA forward and backward as published; the routing kernel's unmasked store, an activation passed as a @triton.jit function and lean attention's missing get_num_sms named; with --cpu (lavapipe takes 10 s to over a minute to compile each the first time)", async () => {
  const { report, outcome } = await run(longCompiles, { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  // The one error: gemm_a16w16's activation, a @triton.jit function given to a constexpr and called in the kernel.
  assert.deepEqual(
    report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code),
    ["KL1004"],
    JSON.stringify(report.diagnostics),
  );
  assert.match(
    report.stdout,
    new RegExp(
      [
        "rmsnorm2d_fwd_with_add: match",
        "rmsnorm2d_fwd_with_dynamicquant \\(int8\\): match",
        "rmsnorm2d_fwd_with_smoothquant \\(int8\\): match",
        "layer_norm: match",
        "layer_norm \\(backward\\): match",
        "layernorm2d_fwd_with_add: match",
        "fused_add_rmsnorm_pad \\(to a multiple of 128\\): match",
        "rms_norm \\(17000 columns, blocked\\): match",
        "rms_norm \\(17000 columns, blocked, backward\\): match",
        "rmsnorm2d_fwd_with_dynamicquant \\(17000 columns, blocked\\): match",
        "topk: match",
        "topk \\(rows of 2000: two stages\\): match",
        "moe_align_block_size_triton: match",
        "routing_sigmoid_top1 \\(fused shared expert, 48 tokens\\): match",
        "routing_sigmoid_top1 \\(fused shared expert, 37 tokens\\): KL3101: _routing_sigmoid_top1_kernel: program \\(2,0,0\\), lane 10 stores topk_ids_ptr\\[74\\] but topk_ids_ptr has 74 elements.*",
        "rope_fwd \\(neox, reused freqs\\): match",
        "rope_fwd \\(gptj, reused freqs\\): match",
        "rope_fwd \\(neox\\): match",
        "gemm_a16w16 \\(silu\\): error KL1004: kernels can only call tl\\.\\* functions.*",
        "paged_attention_decode \\(4 heads on 4\\): match",
        "paged_attention_decode \\(8 heads on 2\\): match",
        "flash_attn_func \\(head dim 32\\): match",
        "flash_attn_func \\(head dim 40, causal\\): match",
        "flash_attn_func \\(backward, causal, 4 heads on 2\\): match",
        "persistent_lean_attention: AttributeError: module 'aiter_kit.ops.triton.utils._triton.arch_info' has no attribute 'get_num_sms'",
      ].join("\n") + "\n",
    ),
  );
});

test("aiter's idioms reduced: core.static_range, a -FLT_MAX float constexpr, torch.library.infer_schema, a helper's constexpr choosing None given by the kernel, another shape in a name's first run-time branch, a constexpr short-circuiting `and`; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(reduced, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /core\.static_range and a constexpr of -FLT_MAX: match\ntorch\.library\.infer_schema and an op defined with it: match\na helper's constexpr choosing None, given by the kernel: match\na name given another shape in its first run-time branch: match\na constexpr deciding `and` \/ `or` with a run-time scalar: match\n/,
    );
  });
});

test("kernel-lab check on aiter's scripts and its norm, softmax, top-k, RoPE, MoE align, paged-attention and MHA kernels: clean", () => {
  checksClean(idioms);
  checksClean(reduced);
  checksClean(longCompiles);
  for (const file of [
    "normalization/rmsnorm.py",
    "normalization/norm.py",
    "softmax.py",
    "topk.py",
    "rope/rope.py",
    "moe/moe_align_block_size.py",
    "attention/pa_decode.py",
    "attention/mha.py",
  ]) {
    checksClean(path.resolve(__dirname, "../python/aiter_kit/ops/triton/_triton_kernels", file));
  }
});

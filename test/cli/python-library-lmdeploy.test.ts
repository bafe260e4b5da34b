// InternLM/lmdeploy's Triton kernels (test/python/lmdeploy-idioms.py with test/python/lmdeploy_kit/), on the GPU and
// with --cpu: rms_norm, silu_and_mul (and its MoE form), apply_rotary_pos_emb, multinomial_sampling, fused_moe,
// fill_kv_cache, flatten_kv_cache, the paged decode attention and the varlen prefill attention, through the library's
// own entry points. fused_moe stopped at NotInKernelLab Tensor.unflatten, the paged attention at KL1101 `math.e` in a
// kernel, the prefill attention at KL1022 / KL1043 (its `k_bound0: tl.constexpr = None` / `(1, )` chosen by constexpr
// arithmetic, then passed as tl.load's boundary_check through a helper, `_load_kv`), the W8A8 quantizers at KL1005
// "tl.round doesn't exist" (`tl_round = tl.extra.cuda.libdevice.round`, called by that name).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu, run } from "./python-files";

after(stopPython);

test("InternLM/lmdeploy's kernels as published: rms_norm, silu_and_mul, rotary embedding, multinomial sampling, fused MoE, paged KV cache fill / flatten, paged decode attention, W8A8 quantizers; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/lmdeploy-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /rms_norm: match\nrms_norm \(residual\): match\nsilu_and_mul: match\nsilu_and_mul_moe_ep: match\napply_rotary_pos_emb: match\napply_rotary_pos_emb \(complex\): match\nmultinomial_sampling: match\nfused_moe: match\nfill_kv_cache: match\nflatten_kv_cache: match\nflash_attn_with_kvcache \(paged decode\): match\nper_token_quant_int8: match\nrms_norm_dynamic_quant: match\nrms_norm_dynamic_quant \(residual\): match\n/,
    );
  });
});

test("InternLM/lmdeploy's varlen prefill attention (causal, sliding window, not causal, head size 80) and W8A8 GEMM as published; with --cpu (lavapipe takes minutes to compile each of its kernels the first time)", async () => {
  const { report, outcome } = await run(path.resolve(__dirname, "../python/lmdeploy-long-compiles.py"), { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
  assert.match(report.stdout, /flash_attn_varlen_func \(causal\): match\nflash_attn_varlen_func \(causal, window 8\): match\nflash_attn_varlen_func \(not causal\): match\nflash_attn_varlen_func \(causal, head size 80\): match\nmatmul_kernel_dynamic_quant \(residual\): match\n/);
});

test("a helper's `boundary_check: tl.constexpr` given a tuple (or None), directly or from a constexpr local chosen by constexpr arithmetic, reads through a block pointer checked on those axes; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/block-pointer-bounds-param.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /boundary_check from a helper's constexpr tuple: match\nboundary_check from a constexpr local's tuple or None: match\n/);
  });
});

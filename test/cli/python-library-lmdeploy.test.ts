// InternLM/lmdeploy's Triton kernels (test/python/lmdeploy-idioms.py with test/python/lmdeploy_kit/), on the GPU and
// with --cpu: rms_norm, silu_and_mul (and its MoE form), apply_rotary_pos_emb, multinomial_sampling, fused_moe,
// fill_kv_cache, flatten_kv_cache and the paged decode attention, through the library's own entry points. fused_moe
// stopped at NotInKernelLab Tensor.unflatten, the paged attention at KL1101 `math.e` in a kernel; and a helper's
// constexpr tuple as tl.load's boundary_check (lmdeploy's flashattention.py `_load_kv`) at KL1043.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("InternLM/lmdeploy's kernels as published: rms_norm, silu_and_mul, rotary embedding, multinomial sampling, fused MoE, paged KV cache fill / flatten, paged decode attention; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/lmdeploy-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /rms_norm: match\nrms_norm \(residual\): match\nsilu_and_mul: match\nsilu_and_mul_moe_ep: match\napply_rotary_pos_emb: match\napply_rotary_pos_emb \(complex\): match\nmultinomial_sampling: match\nfused_moe: match\nfill_kv_cache: match\nflatten_kv_cache: match\nflash_attn_with_kvcache \(paged decode\): match\n/,
    );
  });
});

test("a helper's `boundary_check: tl.constexpr` given a tuple (or None) reads through a block pointer checked on those axes; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/block-pointer-bounds-param.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /boundary_check from a helper's constexpr tuple: match\n/);
  });
});

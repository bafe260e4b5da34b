// Dao-AILab/flash-attention's Triton backend for AMD (test/python/flash-attn-amd-idioms.py and
// flash-attn-amd-long-compiles.py with test/python/flash_attn_amd_kit/, the package as published), through its FA2
// interface's fwd, varlen_fwd, fwd_kvcache and bwd: the arch checks take the non-AMD path through Kernel Lab's
// get_current_target(). The causal forward stopped at KL1071 (compute_block_masking's run-time `return 0, 0, 0, 0,
// n_extra_tokens`, a device function returning a value early), the backward at KL1101 (its `if DEBUG_TRITON:
// print(f"…")` lines, an f-string compiled in a branch a constexpr drops), with dropout at KL2007 (`dropout_offset = 0`
// then a pointer, a name started afresh in a later if's body made one variable with the loop's before it); `check` of
// bwd.py kept the f-strings as errors (DEBUG_TRITON=DEBUG_TRITON handed to its inner loops, which only test it).
// test/python/helper-early-return-value.py holds the first reduced.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { checksClean, onGpuAndCpu, run } from "./python-files";

after(stopPython);

test("flash-attention's Triton AMD backend as published: the arch checks take the non-AMD path, and the causal grouped-query forward (head dim 24) matches, on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/flash-attn-amd-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(
      report.stdout,
      /is_hip False, arch kernel-lab, cdna False, rdna False, fp8 False\nfwd \(causal, grouped-query, head dim 24\): match\nfwd \(causal, grouped-query, head dim 24\) lse: match\n/,
    );
  });
});

test("flash-attention's Triton AMD backend as published: fwd (not causal, multi-query, sliding window, ALiBi, dropout), varlen_fwd, fwd_kvcache and bwd's dq, dk, dv (with dropout too), in f32, f16 and bf16; with --cpu (lavapipe takes about a minute to compile each attn_fwd variant the first time)", async () => {
  const { report, outcome } = await run(path.resolve(__dirname, "../python/flash-attn-amd-long-compiles.py"), { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
  const lines = [
    "fwd", "fwd (causal, multi-query, head dim 64)", "fwd (sliding window 10, 3)", "fwd (ALiBi, causal)",
  ].flatMap((name) => [`${name}: match`, `${name} lse: match`]);
  for (const b of [0, 1]) lines.push(`varlen_fwd (causal) sequence ${b}: match`, `varlen_fwd (causal) sequence ${b} lse: match`);
  lines.push("fwd_kvcache cache and cache_seqlens: match", "cache_seqlens: [51, 62]", "fwd_kvcache (causal, grouped-query): match", "fwd_kvcache (causal, grouped-query) lse: match");
  // One query per sequence: the split-K reduce's two programs per row both store its LSE (KL3104, the library's race).
  lines.push("fwd_kvcache (one query): KL3104");
  for (const name of ["bwd", "bwd (causal, grouped-query, head dim 40)"]) lines.push(`${name} dq: match`, `${name} dk: match`, `${name} dv: match`);
  // Dropout: which probabilities are kept comes from a tl.rand kernel of the script's, drawing as the library's do.
  lines.push("fwd (dropout 0.25, causal): match", "fwd (dropout 0.25, causal) lse: match", "sd_mask keeps what tl.rand keeps: match");
  lines.push(...["dq", "dk", "dv"].map((g) => `bwd (dropout 0.25, causal) ${g}: match`));
  for (const dtype of ["float16", "bfloat16"]) lines.push(`fwd (${dtype}): match`, `fwd (${dtype}) lse: match`, ...["dq", "dk", "dv"].map((g) => `bwd (${dtype}) ${g}: match`));
  assert.ok(report.stdout.includes(lines.join("\n") + "\n"), report.stdout);
});

test("a helper returning a value early at run time (a tuple, a scalar, a block; nested in a constexpr branch) gives each path's result, on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/helper-early-return-value.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /tuple and scalar results: match\nblock results: match\n/);
  });
});

// fwd_decode.py keeps two KL2075 warnings: its split-K metadata stores have no mask, in bounds because the host pads
// the buffer to MAX_BLOCK_M rows, which check can't see.
test("kernel-lab check of the package's kernel files: fwd_prefill.py, bwd.py (its configs a tuple get_bwd_configs returns) and common.py clean", () => {
  for (const name of ["fwd_prefill.py", "bwd.py", "common.py"]) checksClean(path.resolve(__dirname, "../python/flash_attn_amd_kit", name));
});

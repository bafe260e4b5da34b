// vllm's Triton kernels' idioms (test/python/vllm-idioms.py), on the GPU and with --cpu: a
// parenthesized tuple target written one name a line, `(seq_idx, start, length) = helper(…)`, was
// lowered as one nested pattern (KL1044 "this pattern names 1 element but the tuple has 3"), and
// `torch.finfo(torch.float8_e4m3fn)`, which triton_unified_attention.py reads at import for its
// FP8_MIN / FP8_MAX constexpr defaults, was NotImplementedError. prefix_prefill.py's: `tl.math.exp`
// with `tl` imported from another module (vllm.triton_utils) was KL1150, `k.dtype.is_fp8()` KL1005,
// and a name first assigned in a loop and assigned again after it at another shape KL2076.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("vllm's idioms: parenthesized tuple targets, finfo of float8, tl.math through an imported tl, dtype.is_fp8(), a name rebound after its loop; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/vllm-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /parenthesized tuple targets, finfo of float8: match\ntl\.math through an imported tl, dtype\.is_fp8\(\), a name rebound after its loop: match\n/);
  });
});

// prefix_prefill.py's two loops (128 × 32 tiles of the prefix, then 128 × 64 of the new tokens, at
// num_warps=4): the running row statistics take the first tile's row layout, and the second loop's
// row reductions, whose tile lays its rows out otherwise, staged the whole [128, 64] block (KL2016
// over lavapipe's 32 KiB). They now go through the tile's own rows into an [M, Tc] array. Without
// that, --cpu stops at KL2016 (19456 bytes over 16384). Lavapipe compiles the launch's shader in
// 60–175 s on the loaded 2-core machine, past the default 120 s a launch.
test("row statistics carried from 32-key tiles into 64-key tiles (vllm's prefix_prefill shape, num_warps=2): on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/vllm-two-tile-rows.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 1 && report.checks[0].passed, JSON.stringify(report.checks));
    assert.match(report.stdout, /row statistics carried between tiles of 32 and 64 keys: match\n/);
  }, { timeoutMs: 590_000 });
});

// torch.compile's generated code (test/python/inductor-generated.py: three output code files of torch 2.2, 2.5 and
// 2.8 beside it, and a torch 2.5 max-autotune file of ours, run through their call(); test/python/inductor-flex-attention.py with two FlexAttention forward files of ours), on the GPU and with --cpu. Before: `torch._inductor` was
// ModuleNotInKernelLab at import, `torch._C._dynamo` NotInKernelLab; then triton_helpers.max2's combine function
// `maximum`, passed by name inside the helper module, was KL1010 (lowered without the module's prefix), and
// inductor's `xmask = tl.full([XBLOCK], True, tl.int1)` KL2003 ("takes numbers, not masks").

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu, run, type ScriptReport } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/inductor-generated.py");

const expectRun = (report: ScriptReport) => {
  assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), []);
  assert.ok(report.checks.length === 10 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
  assert.match(
    report.stdout,
    /torch 2\.2 pointwise fusions \(relu, sigmoid\) through call\(\): match\ntorch 2\.5 Welford layer norm \(welford_reduce, welford\) through call\(\): match\ntorch 2\.8 persistent reductions \(promote_to_tensor, max2\) through call\(\): match\ntorch 2\.5 max-autotune templates \(mm with EVEN_K False, addmm's bias epilogue\) through call\(\): match\nsplit scans: refused\n/,
  );
};

test("torch.compile's output code (pointwise, Welford reduction, persistent softmax and RMSNorm, max-autotune's mm templates) runs through its call(), on the GPU and with --cpu", async () => {
  // Before: max-autotune's `grid=torch._inductor.kernel.mm_common.mm_grid(…)` was ModuleNotInKernelLab.
  await onGpuAndCpu(file, expectRun);
});

test("the same with its configs timed (--bench quick, a GPU run's default): the helpers' module reaches the compiler through the autotuner's first request", async () => {
  // Before: the pointwise kernels' configs were timed, and their first request (which alone carries the modules a
  // kernel imports, triton_helpers here) went to the main thread's autotune, which dropped it without --tune-codegen:
  // every launch after was KL1150 at `triton_helpers.maximum`. `kernel-lab run` on a GPU times by default.
  const { report, outcome } = await run(file, { bench: "quick" });
  assert.equal(outcome, "ok", report.traceback);
  expectRun(report);
});

const flexAttention = path.resolve(__dirname, "../python/inductor-flex-attention.py");

test("torch.compile's FlexAttention forward (torch 2.5's template kernel with a causal BlockMask of partial and full blocks and a score_mod; a late-2025 one with a document mask_mod that loads, head dim 24 in 32; lengths off the blocks) runs through each call() and matches float64, on the GPU and with --cpu", async () => {
  // Before, each an error: `FLOAT32_PRECISION : tl.constexpr = 'ieee'` KL1003 (a string), K_block_ptr remade for the
  // full blocks under `if HAS_FULL_BLOCKS:` KL2007, `tl.where(offs_n < KV_LEN, mask_mod_output, float("-inf"))` KL2003
  // (a mask as a value); late 2025's `DeviceProperties(…, max_threads_per_block=…)` a TypeError, and
  // `get_bounded_indices(offs_m, Q_LEN if CHECK_BLOCK_BOUNDARY else None)` KL1101 (None as a value).
  await onGpuAndCpu(flexAttention, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /flex attention forward \(torch 2\.5\) through call\(\): match\n.*\nflex attention forward \(late 2025\) through call\(\): match\n/);
  });
});

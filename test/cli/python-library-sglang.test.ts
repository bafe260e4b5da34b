// SGLang's Triton kernels' idioms (test/python/sglang-idioms.py), on the GPU and with --cpu:
// decode_attention.py's `_fwd_grouped_kernel_stage1` scales its [heads, keys] scores by a scalar
// subscripted as a row, `qk *= xai_temperature_reg[:, None]`; Triton splats the scalar to [1], and
// Kernel Lab said KL2012 "axis 1 is out of range for a block of 0 axes". double_sparsity_attention.py
// reads a dtype global bound in a module-level `if` (REDUCE_TRITON_TYPE): KL1006 "not defined in this
// kernel" (one bound plainly, `OUT_TYPE = tl.float32`, had the KL1103 warning "Triton refuses it",
// which Triton doesn't for a dtype); and picks its heavy tokens with torch.topk (NotInKernelLab).
// elementwise.py: `raise` (KL1101) and `tl.extra.cuda.gdc_wait()` (KL1101 "the attribute '.cuda'")
// in branches a constexpr rules out, which Triton never compiles. int8_kernel.py:
// `tl.extra.cuda.libdevice.round(x)` was KL1005 (its suggested floor(x + 0.5) rounds 0.49999997 to 1).
// double_sparsity's stage 1 gives a loop's f32 name an f16 value, then f32 again (KL2007).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("sglang's idioms: a scalar subscripted as a row or a column, a dtype global, torch.topk, raise and gdc_wait in dead branches, libdevice.round, a type changed and restored in a loop; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/sglang-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /a scalar subscripted as a row or a column \(s\[:, None\], s\[None, :\]\): match\na dtype global chosen in a module-level if, torch\.topk: match\nraise and tl\.extra\.cuda\.gdc_wait\(\) in branches a constexpr rules out: match\nlibdevice\.round: halves away from zero: match\na name given another dtype in a loop and its own again before the body ends: match\n/);
  });
});

// deepseek-ai/DeepSeek-V3's fp8 kernels (test/python/deepseek-v3-idioms.py with test/python/deepseek_v3_kit/), on the
// GPU and with --cpu: act_quant (with and without ue8m0 scales), weight_dequant and fp8_gemm of inference/kernel.py,
// unchanged. Before torch.float8_e4m3fn tensors and Ptr<f8e4m3> (ir/f8.ts) the script stopped at its first fp8 tensor
// (NotImplementedError "torch.float8_e4m3fn (WGSL has no 8-bit floats…)"). First the format itself: all 256 bit
// patterns load as the OCP FP8 spec's values, and a sweep of f32 values converts (in a kernel: saturating; by torch:
// NaN past 448) as a reference written in the script rounds them; the same for e5m2 (torch: inf past 57344).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("DeepSeek-V3's fp8 kernels as published: act_quant, weight_dequant, fp8_gemm; fp8 e4m3fn decoded and encoded exactly; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/deepseek-v3-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /fp8 e4m3fn bit patterns loaded exactly: 256 of 256\n/);
    for (const way of ["stored through an fp8 pointer", "x.to\\(tl.float8e4nv\\)", "torch .to\\(torch.float8_e4m3fn\\)"]) {
      assert.match(report.stdout, new RegExp(`f32 values ${way} as the reference rounds them: (\\d+) of \\1\\n`));
    }
    assert.match(report.stdout, /finfo\(float8_e4m3fn\): 448.0 0.015625 0.125 8\n/);
    // e5m2 likewise (torch.float8_e5m2, tl.float8e5: inf past 57344 in torch, saturated in a kernel).
    assert.match(report.stdout, /fp8 e5m2 bit patterns loaded exactly: 256 of 256\n/);
    for (const way of ["stored through an fp8 pointer", "x.to\\(q_ptr.dtype.element_ty\\)", "torch .to\\(torch.float8_e5m2\\)"]) {
      assert.match(report.stdout, new RegExp(`e5m2: f32 values ${way} as the reference rounds them: (\\d+) of \\1\\n`));
    }
    assert.match(report.stdout, /act_quant scale \(None\): match\nact_quant values \(None\): match\n/);
    assert.match(report.stdout, /act_quant scale \(ue8m0\): match\nact_quant values \(ue8m0\): match\n/);
    assert.match(report.stdout, /weight_dequant: match\nfp8_gemm: match\n/);
  });
});

// zhuzilin/ring-flash-attention's Triton kernels (test/python/ring-flash-attn-idioms.py with
// test/python/ring_flash_attn_kit/), on the GPU and with --cpu: flatten_varlen_lse and unflatten_varlen_lse of
// triton_utils.py, unchanged, against utils.py's torch versions, unchanged, as the library's test_triton_kernels.py.
// Before torch.jit (lib/torch/jit.py: `@torch.jit.script` leaves the function as it is) the script stopped at
// utils.py's first @torch.jit.script (NotInKernelLab "torch.jit is not in Kernel Lab's torch").

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("ring-flash-attention's varlen lse kernels as published: flatten_varlen_lse, unflatten_varlen_lse equal to the library's torch versions; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/ring-flash-attn-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), [], JSON.stringify(report.diagnostics));
    assert.match(report.stdout, /flatten_varlen_lse: match\nunflatten_varlen_lse: match\n/);
  });
});

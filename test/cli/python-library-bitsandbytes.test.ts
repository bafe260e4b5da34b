// bitsandbytes' Triton kernels' idioms (test/python/bitsandbytes-idioms.py), on the GPU and with --cpu:
// its triton_utils.py imports torch.utils._triton (ModuleNotInKernelLab, so is_triton_available() was
// False and every quantiser returned None); its quantisers round with tl.libdevice.llrint (KL1005, a
// name with no function); its int8 matmuls do `acc += tl.dot(a, b)` into an int32 accumulator, where
// Kernel Lab's int8 dot was f32 (KL2007: 'acc' is i32 but is assigned f32 in this loop).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("bitsandbytes' idioms: torch.utils._triton, libdevice.rint / llrint halves to even, an int8 tl.dot into an int32 accumulator; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/bitsandbytes-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /torch\.utils\._triton: has_triton_package\(\) True, has_triton\(\) True\nlibdevice\.rint \/ llrint: halves to even: match\ntl\.dot of int8 blocks into an int32 accumulator: match\n/);
  });
});

// kernl's Triton kernels' idioms (test/python/kernl-idioms.py), on the GPU and with --cpu. Each
// failed before its change: `from torch.autograd.function import FunctionCtx` (every implementation
// file) was ModuleNotInKernelLab, torch.autograd being an attribute, not a module;
// `tl.libdevice.erf` (Triton 2.0's spelling, activation_func.py) was KL1101, and a module constant
// computed with Python's math (`sqrt2 = math.sqrt(2.0)`) KL1006;
// `if N_LOAD_MASK_NEEDED & (not IS_MATRIX_MASK):` (a bool constexpr, 1 or 0, & a mask) KL2003;
// a tuple's name given an int in a constexpr branch (`idx = (batch,)`, then `idx = 0` under
// `if MASK_BATCH_SIZE == 1:`, attention_skinny.py) KL2007;
// and attention.py's same `if` on an int argument, `attention_mask_batch_size == 1`, KL2007 too: an int
// argument equal to 1 is now the constant 1, as Triton specializes it (do_not_specialize keeps it a
// run-time if: the expected KL2007 and KL1043 below).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("kernl's idioms: torch.autograd.function as a module, tl.libdevice and constants from math.sqrt / math.pi, a bool constexpr & a mask, a tuple's name rebound in a constexpr branch, an int argument equal to 1 specialized as Triton does; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/kernl-idioms.py");
  await onGpuAndCpu(file, (report) => {
    // kernl's module constants aren't tl.constexpr, as Triton 2.0 allowed and Triton 3 refuses: warnings.
    assert.deepEqual(report.diagnostics.map((d) => `${d.severity} ${d.code}`), ["warning KL1103", "warning KL1103", "error KL2007", "error KL1043"]);
    assert.ok(report.checks.length >= 1 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /torch\.autograd\.function imported as a module: match\ntl\.libdevice, module constants from math\.sqrt and math\.pi: match\na bool constexpr & \(not constexpr\): match\na tuple's name rebound to an int in a constexpr branch: match\nan int argument equal to 1 specialized, not with do_not_specialize: match\n/);
  });
});

// triton-lang/kernels' idioms (test/python/tk-idioms.py): blocksparse's make_lut takes a layout's
// blocks from `layout.nonzero(as_tuple=False)`, which was NotInKernelLab (torch.Tensor.nonzero), and
// dsd_lut spreads increments with `.repeat(1, div)` (NotInKernelLab, torch.Tensor.repeat).
test("triton-lang/kernels' idioms: torch.nonzero / Tensor.nonzero and Tensor.repeat for a blocksparse LUT; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/tk-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 1 && report.checks[0].passed, JSON.stringify(report.checks));
    assert.match(report.stdout, /blocks gathered through a LUT from layout\.nonzero\(\): match\n/);
  });
});

// flash-linear-attention's host idioms (its port, bench/NOTES.md) in code of our own: @triton.jit
// helpers defined in module-level branches of another module, compiled as Python bound them
// (LaunchRequest.imports' jitLines); `a if CONSTEXPR else None`; an Autotuner subclass from triton.runtime.autotuner; the device
// module by triton's backend name; packaging.version; torch.compile; torch.diff, repeat_interleave,
// div(rounding_mode=), flip, F.pad. On the GPU and with --cpu.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

const FILE = path.resolve(__dirname, "../python/library-fla.py");

after(stopPython);

test("fla's host idioms: helpers bound in module-level branches or to another helper by name, an Autotuner subclass, constexpr conditionals with a None side, tl.core.CONSTEXPR_0, torch.<backend>, packaging.version, torch.compile, torch._dynamo.disable, diff / repeat_interleave / div(rounding_mode=) / flip / F.pad, torch.distributed's tensor-parallel names, memory_format, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(FILE, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["scaled_larger_kernel", "second_kernel", "biased_rows_kernel", "biased_rows_kernel"]);
    assert.equal(report.stdout, "helpers bound in branches, an Autotuner subclass\nconstexpr conditionals with a None side, tl.core.CONSTEXPR_0\ntorch.webgpu, packaging.version\ntorch.compile runs eagerly, torch._dynamo.disable\ndiff, div(rounding_mode=), repeat_interleave, flip, F.pad\ntorch.distributed's tensor-parallel names\nmemory_format\n");
  });
});

test("a pointer chosen at run time by `a if c else b` between two pointers into one tensor (fla's TTT kernels' p_eta_last), a scalar and a block, and per lane by tl.where, on the GPU and with --cpu", async () => {
  // Before: KL2003 "the branches of c ? a : b can't be pointers" (src/semantics/ternary.ts), "tl.where takes values, not pointers".
  await onGpuAndCpu(path.resolve(__dirname, "../python/pointer-choice.py"), (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), []);
    assert.equal(report.stdout, "pointers chosen by c ? a : b: match\npointers chosen by tl.where: match\n");
  });
});

test("a helper whose parameter is named `do` (fla's simple_gla backward), called with do=…, and a kernel launched with do=…, on the GPU and with --cpu", async () => {
  // Before: KL1042 "scale_into has no keyword 'do'; its keywords are do_, dq, …" (the keyword not renamed as the parameter is).
  await onGpuAndCpu(path.resolve(__dirname, "../python/reserved-keywords.py"), (report) => {
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error"), []);
    assert.equal(report.stdout, "a helper's parameter named do, by keyword: match\n");
  });
});

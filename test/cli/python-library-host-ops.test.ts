// Host code around kernels as unsloth writes it (test/python/library-host-ops.py), on the GPU and
// with --cpu: indexing a tensor with a tensor (`cos[position_ids]`, `x[mask]`, `x[mask] = v`) was
// NotImplementedError; addcmul_, addmm_(beta=0), matmul(out=), mv, addmv_, new_empty & co.,
// logsumexp, masked_fill_, torch.nn.Module, nn.Identity, torch._C's stream probe and
// torch._disable_dynamo were missing; transpose/contiguous/view/casts of a tensor that requires
// grad dropped its gradient (fast_rope_embedding's `Q.transpose(1, 2).contiguous()`). And an exception
// raised inside a module beside the script (test/python/module-traceback.py importing
// host_kit/probe.py): the traceback showed only the script's import line, not the module's; and
// `torch.empty_like(x, dtype=torch.float8_e4m3fn)` there was a JS TypeError, not the refusal.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { runPythonFile, stopPython } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("indexing with int and bool tensors (read and written), LoRA's matmuls, nn.Module, torch._C: on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/library-host-ops.py");
  await onGpuAndCpu(file, (report) => {
    assert.equal(report.checks.length, 13);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.equal(report.launches.length, 1);
    assert.match(report.stdout, /indexing with tensors, LoRA's matmuls, nn.Module, torch._C: match\n/);
  });
});

test("a module beside the script that raises while it imports, in a call over several lines: the traceback shows its file and lines after the script's; a float8 tensor is refused by name", async () => {
  const file = path.resolve(__dirname, "../python/module-traceback.py");
  const { report, outcome } = await runPythonFile(file, { bench: "off", cpu: true }, startPythonThread);
  assert.notEqual(outcome, "ok");
  const tb = report.traceback ?? "";
  assert.match(tb, /File "[^"]*module-traceback\.py", line 4, in <module>\n[\s\S]*File "[^"]*host_kit[/\\]probe\.py", line 8, in <module>\n\s+QUANTIZED = torch\.empty_like\(/);
  // AMD's e4m3fnuz: Kernel Lab's fp8 tensors are float8_e4m3fn and float8_e5m2 (docs/LANGUAGE.md §2.12).
  assert.match(tb, /NotInKernelLab: tensors of torch\.float8_e4m3fnuz \(WGSL has no 8-bit floats/);
});

test("mamba's layer_norm.py idioms: a constexpr ternary reading a name only the chosen case assigns, torch.randint(high, size), tensor_split, flip, torch.are_deterministic_algorithms_enabled, nn.Parameter and nn.init, F.linear, F.softplus, torch.einsum; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/mamba-host-ops.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.checks.length, 10);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /mamba's host ops and constexpr ternaries: match\n/);
  });
});

test("xformers' generated kernels (vararg_kernel.py's unroll_varargs: JITFunction.src rewritten, exec'd under a <...> file name linecache knows, jitted again) calling this file's helper, boundary_check chosen by a constexpr, an f-string tl.static_assert message, tl.float8e4b8 in a branch not taken; untyped_storage, torch.library.custom_op, torch._dynamo.allow_in_graph, torch._C._disabled_torch_function_impl, torch.autograd.function; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/generated-kernel.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.launches.length, 4);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /generated kernels and xformers' host probes: match\n/);
  });
});

test("a local NAME: tl.constexpr = … decided from constexprs decides the ifs on it (xformers' splitk INT4_QUANTIZED): a block pointer bound to None only in the branch not taken, passed to a helper; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/constexpr-locals.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.checks.length, 3);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /constexpr locals decide the ifs: match\n/);
  });
});

test("partial sums under a spin lock (xformers' layer_norm_bwd_dx_fused, tutorial 05): the lock's release waits for every invocation's stores, and the lock counter read after taking it is one value per program; on the GPU (NaN from torch.empty's poison before) and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/lock-accumulate.py");
  await onGpuAndCpu(file, (report) => {
    assert.equal(report.checks.length, 3);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /rows accumulated under a lock: match\n/);
  });
});

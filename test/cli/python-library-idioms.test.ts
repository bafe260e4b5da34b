// Kernel libraries' idioms through the Python path (test/python/, kernels of our own written the
// way Triton's tutorials, Liger, FlagGems and unsloth write theirs): autograd.Functions launching
// kernels, constexpr globals, libdevice, multi-operand reductions, one tensor as two pointers,
// tensor descriptors; on the GPU (lavapipe on CI) and with --cpu.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { PY, checksClean, run, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

test("tutorial-05 style: an autograd.Function's forward and backward launch kernels (a spin lock per group), checked against F.layer_norm's backward", async () => {
  const { report, outcome } = await run(path.join(PY, "layer-norm-autograd.py"), { bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.launches.map((l) => l.kernel), ["norm_forward", "norm_backward_dx", "norm_backward_dwdb"]);
  assert.deepEqual(report.launches[2].grid, [4, 1, 1]); // cdiv(100, 32) from the lambda over meta, inside backward()
  assert.equal(report.checks.length, 4);
  for (const check of report.checks) assert.ok(check.passed && (check.maxAbsDiff ?? 1) < 1e-4, JSON.stringify(check));
  assert.match(report.stdout, /y requires grad: True and has a grad_fn: True\nlayer norm forward and backward match torch/);
});

test("kernel-library style: constexpr globals, libdevice imports, .to(tl.int64) row offsets, in-place stores, a dtype passed to a constexpr", async () => {
  const { report, outcome } = await run(path.join(PY, "kernel-library.py"), { bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.diagnostics, []);
  // The 8th: tutorial 02's warmup → compiled kernel → compiled[grid](…) launch.
  assert.deepEqual(report.checks.map((c) => c.passed), [true, true, true, true, true, true, true, true]);
  assert.match(report.stdout, /in-place gelu\*up and rms norm match torch/);
  // The host code around a backward kernel (Liger's style): a dtype constexpr, one program per SM.
  assert.match(report.stdout, /a dtype constexpr, not FLAG, one program per SM: 8\n/);
  const scaled = report.launches.find((l) => l.kernel === "scale_rows_and_sum");
  assert.deepEqual(scaled?.grid, [8, 1, 1]);
  assert.equal(scaled?.constexprs.Y_dtype, "tl.float16");
  // Names bound before an early return (Liger's ignore_index rows), rebound with another dtype after it.
  assert.match(report.stdout, /names rebound with another dtype after an early return\n/);
  // unsloth's style: `f = triton.jit(f)` and `triton.heuristics({…})(f)`, `fast_tanh = libdevice.tanh`.
  assert.deepEqual(report.launches.filter((l) => l.kernel === "_tanh_gate").map((l) => l.constexprs.HAS_SCALE), [false, true]);
  assert.match(report.stdout, /triton\.jit\(f\) and triton\.heuristics\(\.\.\.\)\(f\), libdevice\.tanh under a name of its own\n/);
});

test("kernel-library reductions: Welford by a multi-operand tl.reduce, argmax with its index and ties, a tuple scan, dtype predicates and limits.py-style helpers, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "reductions-library.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.checks.length, 4);
    for (const check of report.checks) assert.ok(check.passed, JSON.stringify(check));
    assert.deepEqual(report.launches.map((l) => l.grid), [[7, 1, 1]]);
    assert.match(report.stdout, /Welford, argmax with ties, a tuple scan and dtype predicates match torch\n/);
  });
});

test("tutorial 07's idiom: libdevice.asin/acos/atan in a kernel, launched with and without extern_libs={'libdevice': path}, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "libdevice-extern.py"), (report) => {
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true, true, true]);
    assert.equal(report.launches.length, 2);
    assert.match(report.stdout, /NotImplementedError: extern_libs names 'mylib': Kernel Lab compiles kernels to WGSL and links no LLVM bitcode/);
  });
});

test("libdevice's own functions (lgamma, erfc, erfcx, tan, sinh, cosh, log10, exp10, trunc, copysign, nextafter, rcp_rn, the float predicates and bit counts) against Python's math in float64, special values included, on the GPU and with --cpu", async () => {
  const names = ["lgamma", "erfc", "erfcx", "tan", "sinh", "cosh", "log10", "exp10", "trunc", "copysign", "nextafter", "rcp_rn", "int_as_float", "isnan", "isinf", "finitef", "signbit", "float_as_int", "popc", "clz", "ffs"];
  await onGpuAndCpu(path.join(PY, "libdevice-functions.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.stdout.trim(), [...names.map((n) => `${n}: match`), "lgamma, erfc in blocks of 1024: match"].join("\n"));
  });
});

test("tl.dtype(name): an f-string of a constexpr (FlagGems' topk: tl.dtype(f\"uint{x_nbits}\")), a string constexpr (its cumsum's tl.dtype(DTYPE)); on the GPU and with --cpu, and check is clean", async () => {
  await onGpuAndCpu(path.join(PY, "dtype-names.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.stdout, 'tl.dtype(f"uint{x_nbits}"): match\ntl.dtype(DTYPE) of a string constexpr: match\n');
  });
  checksClean(path.join(PY, "dtype-names.py"));
});

test("Liger-style host code: a Function with several outputs (one None), an input rotated in place and returned, torch.sort before tl.cumsum, one tensor as two pointers (on the CPU side and resident on the GPU), torch.add(out=)", async () => {
  const { report, outcome } = await run(path.join(PY, "library-autograd.py"), { bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.diagnostics, []);
  assert.equal(report.checks.length, 15);
  assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
  // Forward twice, backward twice (through b alone, then through both), each a kernel of its own.
  assert.deepEqual(report.launches.slice(0, 4).map((l) => l.kernel), ["scale_and_square", "scale_and_square_backward", "scale_and_square", "scale_and_square_backward"]);
  assert.match(report.stdout, /through torch\.autograd\.backward on both\n.*stays a leaf and gets its gradient\nrows sorted by torch\.sort.*\none tensor passed as two pointers keeps what was written through each\ntorch\.add\(input=, other=, out=, alpha=\), view_as, is_complex, broadcast_to, @torch\.no_grad\n/);
});

test("one tensor as two pointers: two programs storing one element through the two are KL3104 at the later one's tl.store (a view's storage offset mapped), on the GPU and with --cpu; an in-place update through both matches", async () => {
  await onGpuAndCpu(path.join(PY, "aliased-race.py"), (report, cpu) => {
    assert.deepEqual(report.diagnostics, [], `cpu=${cpu}`);
    const race = (lane: number) =>
      `aliased-race.py:17:5: KL3104: store_through_both: program (0,0,0), lane 0 (line 16) and program (1,0,0), lane ${lane} (line 17) both store b_ptr[${lane}] (program (0,0,0) stored it as a_ptr[0]: a_ptr and b_ptr point into the same memory, one tensor passed as both), not through an atomic`;
    const lines = report.stdout.split("\n");
    assert.ok(lines[0].includes(race(0)) && lines[1].includes(race(4)), `cpu=${cpu}: ${report.stdout}`);
    // Through one pointer the GPU names the two programs in the order their stamps landed.
    assert.match(lines[2], /aliased-race\.py:22:5: KL3104: store_all: program \([01],0,0\), lane 0 \(line 22\) and program \([01],0,0\), lane 0 \(line 22\) both store a_ptr\[0\], not through an atomic/);
    assert.equal(lines[3], "in place through two pointers: no race");
    assert.equal(report.checks.length, 1);
    assert.ok(report.checks[0].passed, JSON.stringify(report.checks));
  });
});

test("a program loading an element another program of the launch stores (an in-place shifted add): one KL3105 warning at the load's line naming the store's, however often the loop launches it; a relu in place is not warned of; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "load-hazard.py"), (report, cpu) => {
    assert.match(report.stdout, /shifted add ran\nrelu in place: no warning\n/);
    assert.equal(report.launches.length, 4);
    assert.equal(report.diagnostics.length, 1, `cpu=${cpu}: ${JSON.stringify(report.diagnostics)}`);
    const [d] = report.diagnostics;
    assert.deepEqual([d.file.endsWith("load-hazard.py"), d.line, d.severity, d.code], [true, 15, "warning", "KL3105"], `cpu=${cpu}`);
    // Program 1's lane 0 loads x_ptr[63], which program 0's lane 63 stores.
    assert.match(d.message, /^shift_add: program \(1,0,0\), lane 0 \(line 15\) loads x_ptr\[63\], which program \(0,0,0\), lane 63 \(line 16\) stores in the same launch; programs run in no defined order/, `cpu=${cpu}`);
    assert.deepEqual(d.related?.map((r) => r.line), [16], `cpu=${cpu}`);
  });
});

test("a load the GPU sees before the other program's store (x[i] = x[i + 1] + 1): the warning names the load's lane and line as in the other order and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "load-hazard-after.py"), (report, cpu) => {
    assert.match(report.stdout, /shifted back ran\n/);
    assert.equal(report.diagnostics.length, 1, `cpu=${cpu}: ${JSON.stringify(report.diagnostics)}`);
    const [d] = report.diagnostics;
    assert.deepEqual([d.line, d.code], [16, "KL3105"], `cpu=${cpu}`);
    assert.match(d.message, /^shift_back: program \(0,0,0\), lane 63 \(line 16\) loads x_ptr\[64\], which program \(1,0,0\), lane 0 \(line 17\) stores in the same launch/, `cpu=${cpu}`);
    assert.deepEqual(d.related?.map((r) => r.line), [17], `cpu=${cpu}`);
  });
});

test("one storage passed as two pointers is one memory on the GPU, as with --cpu and on CUDA: a load through one sees a store through the other (the same tensor, x[k:] and x for several k, column halves, int8, a tensor descriptor and a pointer), atomics through both add up, in place works; an access before a view's first element is KL3101", async () => {
  await onGpuAndCpu(path.join(PY, "shared-views.py"), (report, cpu) => {
    const lines = report.stdout.split("\n").filter((l) => l && !l.startsWith("[kernel-lab]"));
    const names = ["write then read", "write then read, the tensor", "atomics through both", "x[1:] and x", "x[2:] and x", "x[16:] and x", "x[17:] and x", "x[3:] and x", "column halves", "column halves, the matrix", "int8 x[1:] and x", "descriptor and pointer", "relu in place"];
    assert.deepEqual(lines.slice(0, names.length), names.map((n) => `${n} ok`), `cpu=${cpu}`);
    assert.match(lines[names.length], /shared-views\.py:\d+:28: KL3101: before_view: program \(0,0,0\), lane 0 loads b_ptr\[-4\] but b_ptr has 28 elements/, `cpu=${cpu}`);
    assert.ok(report.checks.length === names.length && report.checks.every((c) => c.passed), `cpu=${cpu}: ${JSON.stringify(report.checks)}`);
  });
});

test("tensor descriptors: a host TensorDescriptor and one made in the kernel (isinstance), padding nan, the descriptor's atomics from many programs over the edges, unaligned strides refused, a shape past the tensor KL3101 at the load; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "tensor-descriptors.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["matmul_kernel", "matmul_kernel", "shifted_copy_kernel", "column_sums_kernel", ...Array(6).fill("combine_kernel")]);
    assert.match(report.stdout, /descriptor matmul, host and device descriptors: match\npadding nan past the end: match\nunaligned strides: strides must be 16-byte aligned\ndescriptor atomics \(add of float sums, max, min, add, or, and, xor of int32\) over the edges: match\n/);
    assert.match(report.stdout, /a shape past the tensor: \S*tensor-descriptors\.py:59:28: KL3101: shifted_copy_kernel: .* loads x_desc\[40\] but x_desc has 40 elements/);
  });
});

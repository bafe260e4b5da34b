// Kernel Lab's torch (README: Triton in Python, the torch subset): its ops on GPU tensors as GPU
// kernels against the CPU ops, byte tensors, NaN's truth, logical ops, conv2d, what it refuses and
// how, what crosses between CPU and GPU, and the README's table generated from the modules.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { PY, run, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

test("torch's ops on GPU tensors run as GPU kernels and match the CPU ops; with --cpu they are the CPU ops", async () => {
  const { report, outcome } = await run(path.join(PY, "torch-on-gpu.py"), { bench: "quick" });
  assert.equal(outcome, "ok", report.traceback);
  // Every check passes but one, a NaN that must not (the file catches its AssertionError).
  assert.equal(report.checks.length, 80);
  const failed = report.checks.filter((c) => !c.passed);
  assert.equal(failed.length, 1, JSON.stringify(failed));
  assert.match(readFileSync(path.join(PY, "torch-on-gpu.py"), "utf8").split("\n")[failed[0].line - 1], /assert_close\(y \+ 1, /);
  assert.deepEqual(report.launches, [], "torch's own kernels aren't listed as the script's launches");
  assert.doesNotMatch(report.stdout, /wall clock|left out/);
  const cpu = await run(path.join(PY, "torch-on-gpu.py"), { cpu: true, bench: "quick" });
  assert.equal(cpu.outcome, "ok", cpu.report.traceback);
  assert.equal(cpu.report.checks.length, 80);
  assert.deepEqual(cpu.report.gpuCopies, { toGpu: 0, toGpuBytes: 0, fromGpu: 0, fromGpuBytes: 0 });
});

test("torch.bool, int8 and uint8 tensors as kernel pointers (1 byte each, programs sharing words), comparisons and where on the GPU: match, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "byte-tensors.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["keep_rows_kernel", "keep_rows_kernel", "bytes_kernel", "positive_but_last_kernel", "positive_but_last_kernel"]);
    // The last four are the script's own assert_close of a bool output with an unwritten (poisoned) element: they fail, as they must.
    const caught = report.checks.filter((c) => !c.passed);
    assert.ok(report.checks.length >= 9, JSON.stringify(report.checks));
    assert.deepEqual(caught, report.checks.slice(-4), JSON.stringify(report.checks));
    const checkLine = readFileSync(path.join(PY, "byte-tensors.py"), "utf8").split("\n").findIndex((l) => l.includes("torch.testing.assert_close(out, want)")) + 1;
    assert.ok(caught.every((c) => c.line === checkLine), JSON.stringify(caught));
    assert.match(report.stdout, /bool rows stored by 23 programs sharing words: match\nint8 and uint8 loads extend, \.to\(tl\.int8 \/ tl\.uint8\) and stores wrap: match\ncomparisons and where on the GPU: match\nan unwritten element of torch\.empty's bool output: caught\n/);
  });
});

test("NaN is true wherever a float becomes a truth value (if, while, not, and/or, a if x else b, tl.where, .to(tl.int1)), and a float's != with NaN, float32 and float16, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "nan-truth.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /NaN is true in 9 forms of a float's truth, float32 and float16: match\nx != x and x != 0\.0 are true for NaN, float32 and float16: match\n/);
  });
});

test("torch.logical_and/or/xor/not and their Tensor methods as torch (NaN true, -0.0 false; float, bool, 8-bit, int32, int64 operands, broadcast): GPU kernels on GPU tensors, only results read back; the CPU ops with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "logical-ops.py"), (report, cpu) => {
    const said = /logical_and\/or\/xor\/not as torch \(NaN true, -0\.0 false, 5 dtype pairs, broadcast\): match; (\d+) read back from the GPU/.exec(report.stdout);
    assert.ok(said, report.stdout);
    // On the GPU, what the script reads is all that comes back: an op that fell back to the CPU would read its operands too.
    assert.equal(report.gpuCopies?.fromGpu, cpu ? 0 : Number(said[1]));
  });
});

test("F.conv2d (stride, padding, dilation, groups): cases worked out by hand, random inputs against a float64 loop, torch's errors; a Kernel Lab kernel on GPU tensors, the exact op with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "conv2d.py"), (report, cpu) => {
    assert.ok(report.checks.length > 0 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, new RegExp(`conv2d by hand: match\nconv2d with stride, padding, dilation and groups against float64: match; made on the GPU: ${!cpu ? "True" : "False"}\nconv2d's errors: torch's\n`));
  });
});

test("torch outside the subset (a function, a Tensor method, an F op, a name in torch.cuda, autograd, testing, amp, backends, compiler, distributed) raises NotImplementedError naming it, also an AttributeError; an import of a torch submodule it lacks, naming the module, also a ModuleNotFoundError; importlib.util.find_spec of it is None", async () => {
  const { report, outcome } = await run(path.join(PY, "outside-subset.py"), { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.match(report.stdout, /outside the subset: NotImplementedError, named/);
});

test("torch ops on GPU tensors copy only a CPU-made operand up and the scalars read back down", async () => {
  const file = path.join(PY, "torch-ops-resident.py");
  const gpu = await run(file, { bench: "off" });
  assert.equal(gpu.outcome, "ok", gpu.report.traceback);
  // Up: torch.arange's elements (made on the CPU side); torch.rand and torch.ones on the GPU are made there. Down: two float32 scalars.
  assert.deepEqual(gpu.report.gpuCopies, { toGpu: 1, toGpuBytes: 5003 * 4, fromGpu: 2, fromGpuBytes: 8 });
  const cpu = await run(file, { bench: "off", cpu: true });
  assert.equal(cpu.outcome, "ok", cpu.report.traceback);
  const values = (stdout: string) => stdout.trim().split("\n").map(Number);
  const [got, expected] = [values(gpu.report.stdout), values(cpu.report.stdout)];
  assert.equal(got.length, 2);
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(got[i] - expected[i]) <= 1e-5 * Math.abs(expected[i]), `${got[i]} vs ${expected[i]}`);
});

test("README's torch/triton subset table is what the modules define (npx tsx test/support/python-subset.ts --write)", async () => {
  const { generatedTable, readmeTable } = await import("../support/python-subset");
  assert.equal(readmeTable(), await generatedTable());
});

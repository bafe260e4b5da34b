// Issue 27 item 2: a whole Python file runs as written (docs/LANGUAGE.md §4.1). Files in Triton's tutorials'
// style (test/python/, written for Kernel Lab) run on the embedded Python, their launches checked
// on the GPU (lavapipe on CI) and on the interpreter. Pyodide starts once for this whole file
// (runPythonFile reuses the process's Python thread); one test goes through the command line.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPythonFile, stopPython, type PythonRunOptions } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
const PY = path.join(root, "test/python");
const scratch = mkdtempSync(path.join(os.tmpdir(), "kernel-lab-py-"));

before(ensureBuilt);
after(stopPython);

function run(file: string, opts: PythonRunOptions = {}) {
  return runPythonFile(file, opts, startPythonThread);
}

/** The learner's file with one change (a bug), written to a scratch folder. */
function variant(name: string, from: string, to: string): string {
  const text = readFileSync(path.join(PY, "learner-add.py"), "utf8");
  assert.ok(text.includes(from), `learner-add.py has '${from}'`);
  const file = path.join(scratch, name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

function maxDifference(stdout: string): number {
  const m = /max difference: (\S+)/.exec(stdout);
  assert.ok(m, stdout);
  return Number(m[1]);
}

test("tutorial-style vector add: DEVICE, a grid lambda, assert_close, perf_report (quick) on the GPU", async () => {
  const { report, outcome } = await run(path.join(PY, "vector-add.py"), { bench: "quick" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.launches[0].grid, [20, 1, 1]); // cdiv(5003, 256), from the lambda over meta
  assert.deepEqual(report.launches[0].constexprs, { BLOCK_SIZE: 256 });
  assert.equal(report.launches[0].line, 28);
  assert.deepEqual(report.checks, [{ line: 42, kind: "assert_close", passed: true, maxAbsDiff: 0 }]);
  assert.match(report.stdout, /The maximum difference between torch and triton is 0\.0\n/);
  assert.match(report.stdout, /tensor\(\[\d\.\d{4}, \d\.\d{4}, \d\.\d{4}, {2}\.\.\., \d\.\d{4}, \d\.\d{4}, \d\.\d{4}\], device='cuda:0'\)/);
  // Two points of six (quick), each a row of GB/s for Triton (GPU timestamps) and torch.
  const table = report.stdout.slice(report.stdout.indexOf("vector-add-performance:"));
  assert.match(table, /^vector-add-performance:\n +size +Triton \(GB\/s\) +Torch \(GB\/s\)\n0 +1024\.0 +\d+\.\d{6} +\d+\.\d{6}\n1 +2048\.0 +\d+\.\d{6} +\d+\.\d{6}\n/);
  assert.ok(report.pyodide.startMs >= 0);
  // torch's side (`lambda: x + y`) is timed as a GPU kernel too (torch/_on_gpu.py), not by the wall clock.
  assert.doesNotMatch(report.stdout, /wall clock/);
});

test("the learner's file matches; with x - y it reports the difference; with --cpu it runs on the interpreter", async () => {
  const good = await run(path.join(PY, "learner-add.py"));
  assert.equal(good.outcome, "ok", good.report.traceback);
  assert.equal(maxDifference(good.report.stdout), 0);
  assert.equal(good.report.pyodide.warm, true, "Python started once for the whole file");

  const wrong = await run(variant("sub.py", "x + y, mask=mask", "x - y, mask=mask"));
  assert.equal(wrong.outcome, "ok", wrong.report.traceback);
  assert.ok(maxDifference(wrong.report.stdout) > 0.5, wrong.report.stdout);

  const cpu = await run(path.join(PY, "learner-add.py"), { cpu: true });
  assert.equal(cpu.outcome, "ok", cpu.report.traceback);
  assert.equal(cpu.report.adapter?.backend, "cpu");
  assert.equal(maxDifference(cpu.report.stdout), 0);
});

test("GPU tensors stay on the GPU between launches and torch ops: only the script's reads copy back; do_bench's torch op copies nothing; --cpu copies nothing", async () => {
  const file = path.join(PY, "resident.py");
  const bytes = 5003 * 4;
  const off = await run(file, { bench: "off" });
  assert.equal(off.outcome, "ok", off.report.traceback);
  assert.match(off.report.stdout, /^w\[0\] = -1\.0 y\[1\] \/ x\[1\] = 2\.0\n/m);
  // Up: x only (the outputs' poison is filled on the GPU, x[0] = -1.0 is a kernel on x's buffer); down: z, x * 6.0, w, y and x, each once.
  assert.deepEqual(off.report.gpuCopies, { toGpu: 1, toGpuBytes: bytes, fromGpu: 5, fromGpuBytes: 5 * bytes });
  const quick = await run(file, { bench: "quick" });
  assert.equal(quick.outcome, "ok", quick.report.traceback);
  assert.doesNotMatch(quick.report.stdout, /wall clock|left out/);
  assert.deepEqual(quick.report.gpuCopies, off.report.gpuCopies);
  const cpu = await run(file, { cpu: true, bench: "off" });
  assert.equal(cpu.outcome, "ok", cpu.report.traceback);
  assert.equal(cpu.report.stdout, off.report.stdout);
  assert.deepEqual(cpu.report.gpuCopies, { toGpu: 0, toGpuBytes: 0, fromGpu: 0, fromGpuBytes: 0 });
});

test("assert_close on a wrong kernel raises with torch's message; the check is reported failed", async () => {
  const file = variant("assert.py", 'print("max difference:", (out - (x + y)).abs().max().item())', "torch.testing.assert_close(out, x + y)");
  writeFileSync(file, readFileSync(file, "utf8").replace("x + y, mask=mask", "x * y, mask=mask"));
  const { report, outcome } = await run(file);
  assert.equal(outcome, "raised");
  assert.match(report.traceback ?? "", /AssertionError: Tensor-likes are not close!\n\nMismatched elements: \d+ \/ 10000/);
  assert.match(report.traceback ?? "", /File ".*assert\.py", line 28, in <module>\n    torch\.testing\.assert_close\(out, x \+ y\)/);
  assert.equal(report.checks.length, 1);
  assert.equal(report.checks[0].passed, false);
  assert.ok((report.checks[0].maxAbsDiff ?? 0) > 0.1);
});

test("a mask that lets the last block run past the end stops with KL3101 at the Python line, on the GPU and the CPU", async () => {
  const file = variant("mask.py", "mask = offs < n", "mask = offs <= n");
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(file, { cpu });
    assert.equal(outcome, "raised", `cpu=${cpu}`);
    // The first access past the end: x's load at line 13, element 10000 of 10000.
    assert.match(report.traceback ?? "", /OutOfBoundsError: .*mask\.py:13:\d+: KL3101: .*x_ptr/, report.traceback);
    assert.match(report.traceback ?? "", /line 21, in add\n +add_kernel\[/);
  }
});

test("kernel-lab run FILE.py: exit 1 and the traceback on a KL3101; --debug's step lines come from both threads; --json has docs/LANGUAGE.md §4.1's keys", () => {
  const file = variant("mask-cli.py", "mask = offs < n", "mask = offs <= n");
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", file, "--bench", "off", "--debug"], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /Traceback \(most recent call last\):/);
  assert.match(r.stderr, /KL3101/);
  assert.match(r.stderr, /benchmarks: off \(--bench\)/);
  // The Python thread is started before the arguments are parsed (prestart-python.ts): its lines too.
  for (const step of [/Python thread started \(Python thread\)/, /Pyodide loaded \(\w+\) \(Python thread\)/, /torch and triton imported .* \(Python thread\)/, /script started$/]) {
    assert.match(r.stderr, new RegExp(`^kernel-lab: \\d+\\.\\d ms: .*${step.source}`, "m"), r.stderr);
  }
  // A fresh cache folder: the first start is cold and writes Pyodide's memory snapshot; the next restores it.
  const cache = { ...env, KERNEL_LAB_CACHE_DIR: mkdtempSync(path.join(os.tmpdir(), "kernel-lab-cache-")) };
  const runJson = () => spawnSync(process.execPath, ["bin/kernel-lab.js", "run", path.join(PY, "learner-add.py"), "--json"], { cwd: root, env: cache, encoding: "utf8", timeout: 300_000 });
  const j = runJson();
  assert.equal(j.status, 0, j.stderr);
  const report = JSON.parse(j.stdout);
  for (const key of ["file", "adapter", "diagnostics", "launches", "checks", "stdout", "pyodide"]) assert.ok(key in report, key);
  assert.deepEqual(Object.keys(report.launches[0]), ["kernel", "grid", "constexprs", "ms", "line"]);
  assert.equal(typeof report.pyodide.startMs, "number");
  assert.equal(report.pyodide.warm, false);
  assert.equal(report.pyodide.startKind, "cold");
  const again = runJson();
  assert.equal(again.status, 0, again.stderr);
  const restored = JSON.parse(again.stdout);
  assert.equal(restored.pyodide.startKind, "snapshot");
  assert.equal(restored.stdout, report.stdout);
});

test("kernel-lab run FILE.py --timeout: a launch that never ends stops at the limit with KL3900 at its line, saying how to raise it (exit 4)", () => {
  // Its own process: the endless dispatch keeps that process's GPU busy for good.
  const file = path.join(scratch, "endless.py");
  writeFileSync(
    file,
    "import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\ndef spin_kernel(x_ptr, n, step, BLOCK: tl.constexpr):\n" +
      "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    acc = tl.load(x_ptr + offs, mask=offs < n)\n    i = 0\n" +
      "    while i < n:\n        acc = acc + 1.0\n        i += step\n    tl.store(x_ptr + offs, acc, mask=offs < n)\n\n\n" +
      "x = torch.rand(256, device='cuda')\nspin_kernel[(4,)](x, 256, 0, BLOCK=64)\nprint('never printed')\n",
  );
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", file, "--timeout", "2"], { cwd: root, env, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 4, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /endless\.py:18:1 - error KL3900: the launch of spin_kernel at line 18 \(grid \[4, 1, 1\]\) did not finish within 2 s: .* raise the limit with kernel-lab run --timeout SECONDS/);
  assert.match(r.stderr, /KernelLabError: .*endless\.py:18: spin_kernel's launch did not finish within 2 s \(KL3900\)/);
});

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
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "reductions-library.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.checks.length, 4);
    for (const check of report.checks) assert.ok(check.passed, JSON.stringify(check));
    assert.deepEqual(report.launches.map((l) => l.grid), [[7, 1, 1]]);
    assert.match(report.stdout, /Welford, argmax with ties, a tuple scan and dtype predicates match torch\n/);
  }
});

test("tutorial 07's idiom: libdevice.asin/acos/atan in a kernel, launched with and without extern_libs={'libdevice': path}, on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "libdevice-extern.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true, true, true]);
    assert.equal(report.launches.length, 2);
    assert.match(report.stdout, /NotImplementedError: extern_libs names 'mylib': Kernel Lab compiles kernels to WGSL and links no LLVM bitcode/);
  }
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
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "aliased-race.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
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
  }
});

test("one storage passed as two pointers is one memory on the GPU, as with --cpu and on CUDA: a load through one sees a store through the other (the same tensor, x[k:] and x for several k, column halves, int8, a tensor descriptor and a pointer), atomics through both add up, in place works; an access before a view's first element is KL3101", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "shared-views.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    const lines = report.stdout.split("\n").filter((l) => l && !l.startsWith("[kernel-lab]"));
    const names = ["write then read", "write then read, the tensor", "atomics through both", "x[1:] and x", "x[2:] and x", "x[16:] and x", "x[17:] and x", "x[3:] and x", "column halves", "column halves, the matrix", "int8 x[1:] and x", "descriptor and pointer", "relu in place"];
    assert.deepEqual(lines.slice(0, names.length), names.map((n) => `${n} ok`), `cpu=${cpu}`);
    assert.match(lines[names.length], /shared-views\.py:\d+:28: KL3101: before_view: program \(0,0,0\), lane 0 loads b_ptr\[-4\] but b_ptr has 28 elements/, `cpu=${cpu}`);
    assert.ok(report.checks.length === names.length && report.checks.every((c) => c.passed), `cpu=${cpu}: ${JSON.stringify(report.checks)}`);
  }
});

test("kernels call @triton.jit functions of a package beside the script (FlagGems' tle.program_id, from mod import helper), on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "xmod-kernels.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["row_scaled_sum_kernel", "clamp_kernel"]);
    assert.match(report.stdout, /row sums: max difference: .*\nclamp: max difference: 0\.0\n/);
  }
  // A module that is nowhere beside the script is Python's own ModuleNotFoundError, at its line.
  const missing = path.join(scratch, "no-module.py");
  writeFileSync(missing, "import xmod_helpers_nowhere\n");
  const { report, outcome } = await run(missing, { bench: "off", cpu: true });
  assert.equal(outcome, "raised");
  assert.match(report.traceback ?? "", /ModuleNotFoundError: No module named 'xmod_helpers_nowhere'/);
});

test("a helper in a folder beside the script without __init__.py (a namespace package, as CPython 3 imports one): import pkg.mod and from pkg.mod import helper, on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "xmod-namespace.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["leaky_kernel"]);
    assert.match(report.stdout, /namespace package helper: match\n/);
  }
});

test("a mistake inside another module's @triton.jit helper is reported at the helper's file and line: an access past the end (KL3101, on the GPU and with --cpu) and a compile error", async () => {
  const folder = mkdtempSync(path.join(scratch, "xmod-"));
  cpSync(path.join(PY, "xmod_helpers"), path.join(folder, "xmod_helpers"), { recursive: true });
  const script = readFileSync(path.join(PY, "xmod-kernels.py"), "utf8");
  const lang = readFileSync(path.join(PY, "xmod_helpers/lang.py"), "utf8");
  const lineOf = (text: string, part: string) => text.split("\n").findIndex((l) => l.includes(part)) + 1;
  const file = path.join(folder, "xmod-kernels.py");
  // The kernel passes a mask that lets 5 lanes past the end: the helper's tl.load is where they read.
  writeFileSync(file, script.replace("tle.load_block(X, offs, mask)", "tle.load_block(X, offs, offs < n + 5)"));
  const load = lineOf(lang, "return tl.load(ptr + offs");
  const call = lineOf(script, "tle.load_block(X, offs, mask)");
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(file, { bench: "off", cpu });
    assert.equal(outcome, "raised");
    const helper = path.join(folder, "xmod_helpers/lang.py");
    assert.match(report.traceback ?? "", new RegExp(`OutOfBoundsError: ${helper.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${load}:12: KL3101: clamp_kernel: .* loads X\\[1000\\] but X has 1000 elements.*\\(called at .*xmod-kernels\\.py:${call}:9\\)`), report.traceback);
  }
  // The helper called twice, past the end only the second time: "called at" names the call that ran.
  writeFileSync(file, script.replace("    x = tle.load_block(X, offs, mask)\n", "    x = tle.load_block(X, offs, mask)\n    x = x + 0.0 * tle.load_block(X, offs, offs < n + 5)\n"));
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(file, { bench: "off", cpu });
    assert.equal(outcome, "raised");
    assert.match(report.traceback ?? "", new RegExp(`:${load}:12: KL3101: clamp_kernel: .* loads X\\[1000\\] .*\\(called at .*xmod-kernels\\.py:${call + 1}:19\\)`), report.traceback);
  }
  writeFileSync(file, script);
  writeFileSync(path.join(folder, "xmod_helpers/lang.py"), lang.replace("return tl.program_id(axis)", "return tl.program_idx(axis)"));
  const { report, outcome } = await run(file, { bench: "off", cpu: true });
  assert.equal(outcome, "compile-error");
  assert.deepEqual(report.diagnostics.map((d) => [path.basename(d.file), d.line, d.column, d.code, d.related?.map((r) => [path.basename(r.file ?? ""), r.line])]), [["lang.py", lineOf(lang, "return tl.program_id(axis)"), 12, "KL1005", [["xmod-kernels.py", lineOf(script, "row = tle.program_id(0)")]]]]);
});

test("a package beside the script whose modules import each other relatively (from .. import utils, from ..utils import clamp): its host function's kernel and the script's run checked and listed; a relative import in the script is Python's ImportError", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "xmod-relative.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    // The package's kernel is the script's as a learner sees it: listed, and run bounds-checked.
    assert.deepEqual(report.launches.map((l) => l.kernel), ["_scaled_clamp_kernel", "twice_clamped_kernel"]);
    assert.match(report.stdout, /scaled_clamp: max difference: 0\.0\ntwice_clamped: max difference: 0\.0\n/);
  }
  const relative = path.join(scratch, "relative-import.py");
  writeFileSync(relative, "import triton\nfrom . import utils\n");
  const { report, outcome } = await run(relative, { bench: "off", cpu: true });
  assert.equal(outcome, "raised");
  assert.match(report.traceback ?? "", /line 2[\s\S]*ImportError: attempted relative import with no known parent package/);
});

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
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "byte-tensors.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", report.traceback);
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["keep_rows_kernel", "keep_rows_kernel", "bytes_kernel", "positive_but_last_kernel", "positive_but_last_kernel"]);
    // The last four are the script's own assert_close of a bool output with an unwritten (poisoned) element: they fail, as they must.
    const caught = report.checks.filter((c) => !c.passed);
    assert.ok(report.checks.length >= 9, JSON.stringify(report.checks));
    assert.deepEqual(caught, report.checks.slice(-4), JSON.stringify(report.checks));
    const checkLine = readFileSync(path.join(PY, "byte-tensors.py"), "utf8").split("\n").findIndex((l) => l.includes("torch.testing.assert_close(out, want)")) + 1;
    assert.ok(caught.every((c) => c.line === checkLine), JSON.stringify(caught));
    assert.match(report.stdout, /bool rows stored by 23 programs sharing words: match\nint8 and uint8 loads extend, \.to\(tl\.int8 \/ tl\.uint8\) and stores wrap: match\ncomparisons and where on the GPU: match\nan unwritten element of torch\.empty's bool output: caught\n/);
  }
});

test("NaN is true wherever a float becomes a truth value (if, while, not, and/or, a if x else b, tl.where, .to(tl.int1)), and a float's != with NaN, float32 and float16, on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "nan-truth.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", `cpu=${cpu}: ${report.traceback}`);
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /NaN is true in 9 forms of a float's truth, float32 and float16: match\nx != x and x != 0\.0 are true for NaN, float32 and float16: match\n/);
  }
});

test("torch.logical_and/or/xor/not and their Tensor methods as torch (NaN true, -0.0 false; float, bool, 8-bit, int32, int64 operands, broadcast): GPU kernels on GPU tensors, only results read back; the CPU ops with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "logical-ops.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", `cpu=${cpu}: ${report.traceback}`);
    const said = /logical_and\/or\/xor\/not as torch \(NaN true, -0\.0 false, 5 dtype pairs, broadcast\): match; (\d+) read back from the GPU/.exec(report.stdout);
    assert.ok(said, report.stdout);
    // On the GPU, what the script reads is all that comes back: an op that fell back to the CPU would read its operands too.
    assert.equal(report.gpuCopies?.fromGpu, cpu ? 0 : Number(said[1]));
  }
});

test("F.conv2d (stride, padding, dilation, groups): cases worked out by hand, random inputs against a float64 loop, torch's errors; a Kernel Lab kernel on GPU tensors, the exact op with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "conv2d.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", `cpu=${cpu}: ${report.traceback}`);
    assert.ok(report.checks.length > 0 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, new RegExp(`conv2d by hand: match\nconv2d with stride, padding, dilation and groups against float64: match; made on the GPU: ${!cpu ? "True" : "False"}\nconv2d's errors: torch's\n`));
  }
});

test("tensor descriptors: a host TensorDescriptor and one made in the kernel (isinstance), padding nan, the descriptor's atomics from many programs over the edges, unaligned strides refused, a shape past the tensor KL3101 at the load; on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report, outcome } = await run(path.join(PY, "tensor-descriptors.py"), { bench: "off", cpu });
    assert.equal(outcome, "ok", `cpu=${cpu}: ${report.traceback}`);
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["matmul_kernel", "matmul_kernel", "shifted_copy_kernel", "column_sums_kernel", ...Array(6).fill("combine_kernel")]);
    assert.match(report.stdout, /descriptor matmul, host and device descriptors: match\npadding nan past the end: match\nunaligned strides: strides must be 16-byte aligned\ndescriptor atomics \(add of float sums, max, min, add, or, and, xor of int32\) over the edges: match\n/);
    assert.match(report.stdout, /a shape past the tensor: \S*tensor-descriptors\.py:59:28: KL3101: shifted_copy_kernel: .* loads x_desc\[40\] but x_desc has 40 elements/);
  }
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

test("@triton.autotune times configs on the script's own tensors, as Triton: reset_to_zero, restore_value, Config(pre_hook), pre_hook/post_hook and prune_configs_by keep the results right, on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    // Quick benchmarks time each config many times: without the hooks each timed run would add into the outputs again.
    const hooks = await run(path.join(PY, "autotune-hooks.py"), { bench: "quick", cpu });
    assert.equal(hooks.outcome, "ok", `cpu=${cpu}: ${hooks.report.traceback}`);
    assert.equal(hooks.report.checks.length, 3);
    assert.ok(hooks.report.checks.every((c) => c.passed), JSON.stringify(hooks.report.checks));
    const printed = hooks.report.stdout.split("\n").filter((l) => !l.startsWith("[kernel-lab]")).join("\n");
    assert.match(printed, /row sums 37 300\nhistogram 3001\nhistogram 6002\npruned to \[128, 256\]\nkept 1000\n/);
    // The 4096 config was pruned before timing: the script's launch is one of the kept configs.
    assert.ok(hooks.report.launches.filter((l) => l.kernel === "add_into").every((l) => l.constexprs.BLOCK !== 4096));
    const half = await run(path.join(PY, "autotune-half-loads.py"), { bench: "quick", cpu });
    assert.equal(half.outcome, "ok", `cpu=${cpu}: ${half.report.traceback}`);
    assert.match(half.report.stdout, /scaled 4000/);
    // An f16 script opens the GPU with what an f16 tl.dot needs too (tensor cores: Dawn's allow_unsafe_apis).
    if (!cpu) assert.match(half.report.adapter?.note ?? "", /allow_unsafe_apis/);
  }
});

test("README's torch/triton subset table is what the modules define (npx tsx test/support/python-subset.ts --write)", async () => {
  const { generatedTable, readmeTable } = await import("../support/python-subset");
  assert.equal(readmeTable(), await generatedTable());
});

// Issue 27 item 2: a whole Python file runs as written (docs/LANGUAGE.md §4.1). Files in Triton's tutorials'
// style (test/python/, written for Kernel Lab) run on the embedded Python, their launches checked
// on the GPU (lavapipe on CI) and on the interpreter; one test goes through the command line. Running
// a script: the learner's file and its variants, GPU residence, checks, errors, timeouts, autotune.
// The other concerns: python-library-idioms (kernel libraries' idioms), python-modules (modules
// beside the script), python-torch-subset (Kernel Lab's torch), each with its own Python thread.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt, root } from "./build";
import { env, PY, run, scratch } from "./python-files";

before(ensureBuilt);
after(stopPython);

/** The learner's file with one change (a bug), written to a scratch folder. */
function variant(name: string, from: string, to: string): string {
  const text = readFileSync(path.join(PY, "learner-add.py"), "utf8");
  assert.ok(text.includes(from), `learner-add.py has '${from}'`);
  const file = path.join(scratch(), name);
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
  const file = path.join(scratch(), "endless.py");
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

// NOTES §81: the command line's variables reach the script's os.environ (a library's flags, TRITON_INTERPRET), as for
// `python FILE.py`; HOME, TMPDIR, PATH … keep Pyodide's (its file system has them, the host's folders it hasn't); a
// later run on the same Python thread doesn't see an earlier run's variables.
test("FOO=1 kernel-lab run FILE.py: the variable is in the script's os.environ; host paths keep Pyodide's; a later run sees the environment it is given", async () => {
  const file = path.join(PY, "environ.py");
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", file, "--bench", "off", "--cpu"], { cwd: root, env: { ...env, KL_SCRIPT_FLAG: "on", TRITON_INTERPRET: "1", Path: "/host/bin", UserProfile: "/host/me" }, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^KL_SCRIPT_FLAG=on\nTRITON_INTERPRET=1\nHOME=\/home\/pyodide exists=True\ntempdir exists=True\nPath=None UserProfile=None\n/);
  const saved = process.env.KL_SCRIPT_FLAG;
  try {
    process.env.KL_SCRIPT_FLAG = "first";
    assert.match((await run(file, { bench: "off", cpu: true })).report.stdout, /^KL_SCRIPT_FLAG=first\n/);
    delete process.env.KL_SCRIPT_FLAG;
    assert.match((await run(file, { bench: "off", cpu: true })).report.stdout, /^KL_SCRIPT_FLAG=None\n/);
  } finally {
    if (saved !== undefined) process.env.KL_SCRIPT_FLAG = saved;
  }
});

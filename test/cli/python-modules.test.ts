// Modules beside the script (src/harness/python/lib/_kernel_lab_imports.py, src/python/externals.ts):
// kernels calling another module's @triton.jit functions, namespace packages, relative imports, and
// a mistake inside such a helper reported at its own file and line; on the GPU and with --cpu.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { PY, run, scratch, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

test("kernels call @triton.jit functions of a package beside the script (FlagGems' tle.program_id, from mod import helper), on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "xmod-kernels.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["row_scaled_sum_kernel", "clamp_kernel"]);
    assert.match(report.stdout, /row sums: max difference: .*\nclamp: max difference: 0\.0\n/);
  });
  // A module that is nowhere beside the script is Python's own ModuleNotFoundError, at its line.
  const missing = path.join(scratch(), "no-module.py");
  writeFileSync(missing, "import xmod_helpers_nowhere\n");
  const { report, outcome } = await run(missing, { bench: "off", cpu: true });
  assert.equal(outcome, "raised");
  assert.match(report.traceback ?? "", /ModuleNotFoundError: No module named 'xmod_helpers_nowhere'/);
});

test("a helper in a folder beside the script without __init__.py (a namespace package, as CPython 3 imports one): import pkg.mod and from pkg.mod import helper, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "xmod-namespace.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["leaky_kernel"]);
    assert.match(report.stdout, /namespace package helper: match\n/);
  });
});

test("a package object the script registers itself (types.ModuleType, __path__ the folder beside it as __file__ names it: a driver's stand-in for a package whose __init__ can't run): a module of it imports, with --cpu", async () => {
  const { report, outcome } = await run(path.join(PY, "xmod-registered.py"), { bench: "off", cpu: true });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(report.checks.map((c) => c.passed), [true]);
  assert.match(report.stdout, /a module of a package the script registered: imported and run\n/);
});

test("a mistake inside another module's @triton.jit helper is reported at the helper's file and line: an access past the end (KL3101, on the GPU and with --cpu) and a compile error", async () => {
  const folder = mkdtempSync(path.join(scratch(), "xmod-"));
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
  await onGpuAndCpu(path.join(PY, "xmod-relative.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true]);
    // The package's kernel is the script's as a learner sees it: listed, and run bounds-checked.
    assert.deepEqual(report.launches.map((l) => l.kernel), ["_scaled_clamp_kernel", "twice_clamped_kernel"]);
    assert.match(report.stdout, /scaled_clamp: max difference: 0\.0\ntwice_clamped: max difference: 0\.0\n/);
  });
  const relative = path.join(scratch(), "relative-import.py");
  writeFileSync(relative, "import triton\nfrom . import utils\n");
  const { report, outcome } = await run(relative, { bench: "off", cpu: true });
  assert.equal(outcome, "raised");
  assert.match(report.traceback ?? "", /line 2[\s\S]*ImportError: attempted relative import with no known parent package/);
});

test("a package in a folder the script puts on sys.path itself (sys.path.insert(0, os.path.join(os.path.dirname(__file__), …))): its kernel, a helper it imports by the package's absolute name and a module it imports relatively, on the GPU and with --cpu; a name on no path is still ModuleNotFoundError", async () => {
  // Before: ModuleNotFoundError: No module named 'tinylib' (only the script's own folder was looked in).
  await onGpuAndCpu(path.join(PY, "sys-path-imports.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["_scale_add_kernel"]);
    assert.equal(report.stdout, "tinylib from sys.path: match\nModuleNotFoundError: not_on_any_path\n");
  });
});

test("a helper its module defines in each branch of an `if` on Triton's version (mamba's softplus.py): the run compiles the branch Python took, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "xmod-branches.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true]);
    assert.match(report.stdout, /helper of the branch Python took: max difference: 0\.0\n/);
  });
});

test("a warning raised in a module beside the script names the module's file (ColossalAI's warnings.warn in no_pad_rotary_embedding.py), not the run's copy of it, with --cpu", async () => {
  const folder = mkdtempSync(path.join(scratch(), "xmod-warn-"));
  mkdirSync(path.join(folder, "warn_pkg"));
  writeFileSync(path.join(folder, "warn_pkg", "mod.py"), 'import warnings\n\n\ndef f():\n    warnings.warn("deprecated here")\n');
  const file = path.join(folder, "warns.py");
  writeFileSync(file, "from warn_pkg.mod import f\n\nf()\n");
  let stderr = "";
  const { report, outcome } = await run(file, { bench: "off", cpu: true, onStderr: (text) => (stderr += text) });
  assert.equal(outcome, "ok", report.traceback);
  assert.match(stderr, new RegExp(`${path.join(folder, "warn_pkg", "mod.py").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:5: UserWarning: deprecated here\n {2}warnings\\.warn\\("deprecated here"\\)\n`));
  assert.doesNotMatch(stderr, /\/kernel_lab\//);
});

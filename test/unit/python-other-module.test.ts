// A kernel calling @triton.jit functions of another module (docs/ERRORS.md KL1150): with the
// module's text as a run sends it (PythonFile.modules), the call compiles from that module, with
// both spellings (`m.helper(…)`, `from mod import helper`), recursively through the module's own
// helpers, and through relative imports inside a package; a mistake inside the helper is reported at
// the helper's file, line and column, the kernel's call as its related location.
// Without the module (`check` alone, a C extension) the call is KL1150. The runs on the GPU and
// the interpreter are test/cli/python-modules.test.ts's (test/python/xmod-kernels.py).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkPython, compilePythonKernel, readPythonFile } from "../../src/python";
import { absoluteModule } from "../../src/python/module";
import { locate } from "../../src/diagnostics/position";

const PY = path.resolve(__dirname, "../python");
const script = readFileSync(path.join(PY, "xmod-kernels.py"), "utf8");
const lang = readFileSync(path.join(PY, "xmod_helpers/lang.py"), "utf8");
const limits = readFileSync(path.join(PY, "xmod_helpers/limits.py"), "utf8");

function compile(langText = lang, kernel = "row_scaled_sum_kernel") {
  const file = readPythonFile("xmod-kernels.py", script);
  file.modules.set("xmod_helpers.lang", readPythonFile("xmod_helpers/lang.py", langText));
  file.modules.set("xmod_helpers.limits", readPythonFile("xmod_helpers/limits.py", limits));
  const types = { X: { kind: "pointer", dtype: "f32" }, Y: { kind: "pointer", dtype: "f32" }, N: { kind: "scalar", dtype: "i32" }, n: { kind: "scalar", dtype: "i32" }, stride: { kind: "scalar", dtype: "i32" } } as const;
  const result = compilePythonKernel(file, kernel, types, { BLOCK: 128, FACTOR: 3.0 });
  return { result, located: locate("xmod-kernels.py", script, result.diagnostics).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`) };
}

test("a kernel calls another module's @triton.jit functions: tle.program_id, limits.clamp_min, pkg.mod.clamp_min, and scaled_sum imported by name (which calls its module's _scale)", () => {
  for (const kernel of ["row_scaled_sum_kernel", "clamp_kernel"]) {
    const { result, located } = compile(lang, kernel);
    assert.deepEqual(located, [], kernel);
    assert.ok(result.kernel, kernel);
  }
  const { result } = compile();
  assert.match(result.typescript!, /xmod_helpers_lang__program_id\(0\)/);
  assert.match(result.typescript!, /export const xmod_helpers_lang___scale = /);
  // scaled_sum's AXIS default (0), left out at the call, is passed by name.
  assert.match(result.typescript!, /xmod_helpers_lang__scaled_sum\(x, FACTOR, \{ AXIS: 0 \}\)/);
});

test("a mistake inside another module's helper is reported at the helper's file, line and column, with the kernel's call as its related location", () => {
  const broken = lang.replace("return tl.program_id(axis)", "return tl.program_idx(axis)");
  const { result } = compile(broken);
  const line = broken.split("\n").findIndex((l) => l.includes("program_idx")) + 1;
  const call = script.split("\n").findIndex((l) => l.includes("row = tle.program_id(0)")) + 1;
  assert.equal(result.diagnostics.length, 1);
  // The compiler's diagnostic: at the call in the kernel's file (the editor's squiggle), its origin in the helper's.
  const [d] = result.diagnostics;
  assert.deepEqual(d.origin, { file: "xmod_helpers/lang.py", line, column: 12, endLine: line, endColumn: 26 });
  const located = locate("xmod-kernels.py", script, result.diagnostics);
  assert.equal(located.length, 1);
  assert.deepEqual({ ...located[0], message: "" }, {
    file: "xmod_helpers/lang.py", line, column: 12, endLine: line, endColumn: 26, severity: "error", code: "KL1005", message: "",
    related: [{ file: "xmod-kernels.py", line: call, column: 11, endLine: call, endColumn: 25, message: "the call that leads there" }],
  });
  assert.match(located[0].message, new RegExp(`^tl\\.program_idx doesn't exist.*\\(called at xmod-kernels\\.py:${call}:11\\)$`));
  // A call with the wrong number of arguments names the helper as Python writes it.
  const wrong = compile(lang.replace("def program_id(axis):", "def program_id(axis, other):")).located;
  assert.match(wrong[0] ?? "", /KL1070 xmod_helpers\.lang\.program_id takes 2 arguments/);
});

test("a mistake in a helper that two kernels reach is one diagnostic there, each call a related location", () => {
  const broken = lang.replace("return tl.program_id(axis)", "return tl.program_idx(axis)");
  const file = readPythonFile("xmod-kernels.py", script);
  file.modules.set("xmod_helpers.lang", readPythonFile("xmod_helpers/lang.py", broken, "xmod_helpers.lang"));
  file.modules.set("xmod_helpers.limits", readPythonFile("xmod_helpers/limits.py", limits, "xmod_helpers.limits"));
  const located = locate("xmod-kernels.py", script, checkPython(file).filter((d) => d.severity === "error"));
  assert.equal(located.length, 1, JSON.stringify(located));
  assert.equal(located[0].file, "xmod_helpers/lang.py");
  const calls = script.split("\n").flatMap((l, i) => (l.includes("tle.program_id(") ? [i + 1] : []));
  assert.deepEqual(located[0].related?.map((r) => `${r.file}:${r.line}`), calls.map((l) => `xmod-kernels.py:${l}`));
});

test("without the module's text (check alone; a module that isn't a .py file) the call is KL1150", () => {
  const file = readPythonFile("xmod-kernels.py", script);
  const types = { X: { kind: "pointer", dtype: "f32" }, Y: { kind: "pointer", dtype: "f32" }, n: { kind: "scalar", dtype: "i32" } } as const;
  const codes = compilePythonKernel(file, "clamp_kernel", types, { BLOCK: 128 }).diagnostics.map((d) => d.code);
  assert.ok(codes.length > 0 && codes.every((c) => c === "KL1150"), codes.join(" "));
});

test("relative imports inside a package resolve as Python's importlib does; the script's own don't resolve", () => {
  const rel = (fileName: string, module: string | undefined, name: string) => absoluteModule(readPythonFile(fileName, "", module), name);
  assert.equal(rel("pkg/ops/scaled.py", "pkg.ops.scaled", "."), "pkg.ops");
  assert.equal(rel("pkg/ops/scaled.py", "pkg.ops.scaled", ".._math"), "pkg._math");
  assert.equal(rel("pkg/ops/scaled.py", "pkg.ops.scaled", "..utils"), "pkg.utils");
  assert.equal(rel("pkg/ops/__init__.py", "pkg.ops", ".scaled"), "pkg.ops.scaled");
  assert.equal(rel("pkg/ops/__init__.py", "pkg.ops", "..utils"), "pkg.utils");
  assert.equal(rel("pkg/ops/scaled.py", "pkg.ops.scaled", "...x"), undefined, "beyond the top-level package");
  assert.equal(rel("script.py", undefined, ".utils"), undefined, "the script has no package");
  assert.equal(rel("script.py", undefined, "pkg.utils"), "pkg.utils");
});

test("a package module's kernel calls helpers through `from .. import utils`, `from ..utils import clamp` and `from . import _math`, whose own `from ..utils import clamp` resolves in turn", () => {
  const REL = path.join(PY, "xmod_relative");
  const read = (rel: string, name: string) => readPythonFile(`xmod_relative/${rel}`, readFileSync(path.join(REL, rel), "utf8"), name);
  const scaled = read("ops/scaled.py", "xmod_relative.ops.scaled");
  for (const [rel, name] of [["utils.py", "xmod_relative.utils"], ["ops/_math.py", "xmod_relative.ops._math"], ["ops/__init__.py", "xmod_relative.ops"]]) scaled.modules.set(name, read(rel, name));
  const types = { X: { kind: "pointer", dtype: "f32" }, Y: { kind: "pointer", dtype: "f32" }, n: { kind: "scalar", dtype: "i32" }, scale: { kind: "scalar", dtype: "f32" } } as const;
  const result = compilePythonKernel(scaled, "_scaled_clamp_kernel", types, { BLOCK: 128 });
  assert.deepEqual(result.diagnostics.map((d) => d.message), []);
  assert.match(result.typescript!, /xmod_relative_utils__block_offsets\(BLOCK\)/);
  assert.match(result.typescript!, /xmod_relative_utils__clamp\(xmod_relative_ops__math__twice\(x\)/);
  // The same text read as a script (no package): each relative import is unresolved, KL1150 at its call.
  const alone = readPythonFile("scaled.py", scaled.text);
  alone.modules = scaled.modules;
  const codes = compilePythonKernel(alone, "_scaled_clamp_kernel", types, { BLOCK: 128 }).diagnostics.map((d) => d.code);
  assert.ok(codes.length > 0 && codes.every((c) => c === "KL1150"), codes.join(" "));
});

test("a name another module binds to a libdevice function in each branch of a version check (unsloth's `from .utils import triton_tanh`, cuda, XPU and old-Triton spellings) is that tl function; bound to two functions it stays KL1150", () => {
  const utils = (xpu: string) => [
    "import triton", "import triton.language as tl", "if triton.__version__ >= '3':", "    if DEVICE == 'xpu':", `        triton_tanh = ${xpu}`,
    "    else:", "        from triton.language.extra import libdevice", "        triton_tanh = libdevice.tanh", "    triton_cast = tl.cast",
    "else:", "    triton_tanh = tl.math.tanh", "",
  ].join("\n");
  const kernel = [
    "import triton", "import triton.language as tl", "from .utils import triton_tanh, triton_cast", "", "@triton.jit",
    "def tanh_kernel(X, Y, n, BLOCK: tl.constexpr):", "    offs = tl.arange(0, BLOCK)", "    x = tl.load(X + offs, mask=offs < n)",
    "    tl.store(Y + offs, triton_cast(triton_tanh(x), tl.float32), mask=offs < n)", "",
  ].join("\n");
  const types = { X: { kind: "pointer", dtype: "f32" }, Y: { kind: "pointer", dtype: "f32" }, n: { kind: "scalar", dtype: "i32" } } as const;
  const compileWith = (xpu: string) => {
    const file = readPythonFile("pkg/geglu.py", kernel, "pkg.geglu");
    file.modules.set("pkg.utils", readPythonFile("pkg/utils.py", utils(xpu), "pkg.utils"));
    return compilePythonKernel(file, "tanh_kernel", types, { BLOCK: 64 });
  };
  const ok = compileWith("tl.extra.intel.libdevice.tanh");
  assert.deepEqual(ok.diagnostics.map((d) => d.message), []);
  assert.match(ok.typescript!, /tl\.cast\(tl\.tanh\(x\), tl\.float32\)/);
  // Bound to tanh on one branch and to sigmoid on another: not one function, so not followed.
  const two = compileWith("tl.sigmoid");
  assert.deepEqual(two.diagnostics.map((d) => d.code), ["KL1150"]);
});

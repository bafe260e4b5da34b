// What the editor shows of a Python file's kernels (src/python/inspect-python.ts): inlay hints at
// the Python names with their block shapes, hovers over tl.* calls as written in Python, and the
// WGSL of each kernel for its launch's constexprs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { pythonBindingTypes, pythonHoverAt, pythonWgsl, readPythonFile } from "../../src/python";

const file = path.join(__dirname, "..", "python", "vector-add.py");
const text = readFileSync(file, "utf8");

test("inlay hints sit after each Python name, with its dtype and block shape by constexpr name", () => {
  const [kernel, ...others] = pythonBindingTypes(file, text);
  assert.equal(others.length, 0);
  assert.equal(kernel.kernel, "add_kernel");
  const shown = kernel.bindings.map((b) => `${text.slice(b.span.start, b.span.end)}@${text.slice(0, b.span.start).split("\n").length}: ${b.type}`);
  assert.deepEqual(shown, [
    "pid@14: i32",
    "block_start@15: i32",
    "offsets@16: i32[BLOCK_SIZE]",
    "mask@17: bool[BLOCK_SIZE]",
    "x@18: f32[BLOCK_SIZE]",
    "y@19: f32[BLOCK_SIZE]",
  ]);
});

test("a hover over tl.load shows the Python call and the block it gives; over a name, its type", () => {
  const kernels = pythonBindingTypes(file, text);
  const load = text.indexOf("tl.load(x_ptr");
  const hover = pythonHoverAt(text, kernels, load + 4);
  assert.ok(hover);
  assert.equal(text.slice(hover.span.start, hover.span.end), "tl.load");
  assert.match(hover.text, /^`tl\.load\(x_ptr \+ offsets, mask=mask\) → f32\[BLOCK_SIZE\]`/);
  const use = text.indexOf("offsets < n_elements");
  assert.equal(pythonHoverAt(text, kernels, use + 2)?.text, "`offsets: i32[BLOCK_SIZE]`");
  // Outside a kernel: nothing.
  assert.equal(pythonHoverAt(text, kernels, text.indexOf("torch.manual_seed")), undefined);
});

test("Show WGSL of a Python file: each kernel for its launch's constexprs; a file with a mistake has none", () => {
  const { entries, failed } = pythonWgsl(readPythonFile(file, text));
  assert.deepEqual(failed, []);
  assert.equal(entries.length, 1);
  assert.deepEqual(entries[0].constexprs, { BLOCK_SIZE: 256 });
  assert.match(entries[0].text, /@compute @workgroup_size/);
  const broken = text.replace("tl.arange(0, BLOCK_SIZE)", "tl.arange(0, n_elements)");
  assert.deepEqual(pythonWgsl(readPythonFile(file, broken)), { entries: [], failed: ["add_kernel"] });
  assert.deepEqual(pythonBindingTypes(file, "def f(:\n"), []);
});

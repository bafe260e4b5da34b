// What the editor's inlay hints and hovers show (src/inspect/): the checker's own types of each
// binding and tl.* call, for the constexprs of the file's first run, or by name without any.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { bindingTypes, hoverAt } from "../../src/compile";

const example = (name: string) => readFileSync(join(__dirname, "..", "..", "examples", name), "utf8");
const kernelFile = (body: string, run = "") => `import { kernel, tl, defineRun } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<f32>, n: i32, BLOCK: constexpr, N: constexpr) {
${body}
});
${run}`;
const shown = (text: string) => bindingTypes("t.kernel.ts", text).flatMap((k) => k.bindings.map((b) => `${b.name}: ${b.type}`));

test("softmax: every const with the run's BLOCK_SIZE", () => {
  const [softmax] = bindingTypes("softmax.kernel.ts", example("softmax.kernel.ts"));
  assert.deepEqual(softmax.constexprs, { BLOCK_SIZE: 1024 });
  assert.deepEqual(softmax.bindings.map((b) => `${b.name}: ${b.type}`).slice(0, 6), [
    "row_idx: i32", "row_start_ptr: Ptr<f32>", "col_offsets: i32[1024]", "input_ptrs: Ptr<f32>[1024]", "mask: bool[1024]", "row: f32[1024]",
  ]);
});

test("matmul: 2-D blocks, let variables and the loop counter", () => {
  const names = bindingTypes("matmul.kernel.ts", example("matmul.kernel.ts"))[0].bindings.map((b) => `${b.what} ${b.name}: ${b.type}`);
  for (const want of ["let acc: f32[32×32]", "let a_ptrs: Ptr<f32>[32×16]", "counter k: i32", "const c_mask: bool[32×32]"]) assert.ok(names.includes(want), `${want} in ${names.join(", ")}`);
});

const rows: [string, string, string[]][] = [
  ["literal constexprs", kernelFile("  const offs = tl.arange(0, BLOCK);\n  const m = offs < n;", "export const r = defineRun({ kernel: k, constexprs: { BLOCK: 256, N: 4 } });"), ["offs: i32[256]", "m: bool[256]"]],
  ["no literal constexprs: extents by name", kernelFile("  const a = tl.zeros([BLOCK, N], \"f32\");\n  const s = tl.sum(a, 1);\n  const c = tl.zeros([4], \"i32\");"), ["a: f32[BLOCK×N]", "s: f32[BLOCK]", "c: i32[4]"]],
  ["a product of constexprs is not named", kernelFile("  const a = tl.arange(0, BLOCK * N);"), ["a: i32[?]"]],
  ["a declaration that failed shows nothing, the rest still does", kernelFile("  const bad = tl.nope(1);\n  const p = tl.programId(0);"), ["p: i32"]],
];
for (const [title, text, want] of rows) test(title, () => assert.deepEqual(shown(text), want));

test("hover over tl.max: the shapes it got here and its Triton name", () => {
  const text = example("softmax.kernel.ts");
  const kernels = bindingTypes("softmax.kernel.ts", text);
  const at = text.indexOf("tl.max") + 4;
  assert.equal(hoverAt(kernels, at)?.text, "`tl.max(row: f32[1024], 0) → f32` · Triton `tl.max` (with BLOCK_SIZE = 1024)");
  assert.match(hoverAt(kernels, text.indexOf("tl.programId") + 3)!.text, /Triton `tl\.program_id`/);
  assert.equal(hoverAt(kernels, text.indexOf("mask, -Infinity") + 1)?.text, "`mask: bool[1024]` (with BLOCK_SIZE = 1024)");
  assert.equal(hoverAt(kernels, text.indexOf("const mask") + 7)?.text, "`mask: bool[1024]` (with BLOCK_SIZE = 1024)");
  assert.equal(hoverAt(kernels, text.indexOf("defineRun({")), undefined);
});

// Keyword arguments (docs/LANGUAGE.md §2.1, issue 23 item 2): Triton's `f(x, name=value)` is written
// `tl.f(x, { name: value })`, with camelCase keys; the positional form stays valid. Each row is a
// pair of statements that must compile to the same WGSL (the keyword form lowers to the positional
// one); then the diagnostics for keywords a function doesn't take.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile, compileKernel, parseKernelFile } from "../../src/compile";
import { locate } from "../../src/diagnostics/position";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, constexpr } from "kernel-lab";\n';
const HELPER = "const axpy = kernel(function axpy(a, x, y) { return a * x + y; });\n";
const PARAMS = "x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, h_ptr: Ptr<i32>, n: i32";
// o is i32[16], x f32[16], m f32[16, 16], r/c the [16, 1] and [1, 16] offsets of m.
const SETUP =
  "const o = tl.arange(0, 16);\nconst x = tl.load(x_ptr + o, o < n);\nconst r = tl.expandDims(o, 1);\nconst c = tl.expandDims(o, 0);\nconst m = tl.load(x_ptr + r * 16 + c);\n";

function file(body: string): string {
  // Line 3 is the helper when the body calls it, else empty (a generic helper nobody calls is reported).
  return `${PRELUDE}${body.includes("axpy(") ? HELPER : "\n"}export const k = kernel(function k(${PARAMS}) {\n${SETUP}${body}\n});\n`;
}

/** The kernel's WGSL with its values renumbered in order of appearance (a constant lowered or not shifts the ids). */
function wgsl(body: string): string {
  const parsed = parseKernelFile("k.kernel.ts", file(body));
  const result = compileKernel(parsed.kernels.find((k) => k.name === "k")!, {});
  assert.deepEqual(result.diagnostics.map((d) => d.message), [], body);
  const ids = new Map<string, number>();
  return result.kernel!.wgsl.replace(/\bv(\d+)/g, (_, id: string) => `v${ids.get(id) ?? (ids.set(id, ids.size), ids.size - 1)}`);
}

// [what, keyword form, positional form]
const SAME: [string, string, string][] = [
  ["tl.load's mask and other", "tl.store(y_ptr + o, tl.load(x_ptr + o, { mask: o < n, other: 1.0 }));", "tl.store(y_ptr + o, tl.load(x_ptr + o, o < n, 1.0));"],
  ["tl.load's other, the mask by position", "tl.store(y_ptr + o, tl.load(x_ptr + o, o < n, { other: 1.0 }));", "tl.store(y_ptr + o, tl.load(x_ptr + o, o < n, 1.0));"],
  ["tl.load's hints, accepted", 'tl.store(y_ptr + o, tl.load(x_ptr + o, o < n, { evictionPolicy: "evict_last", cacheModifier: ".cg", volatile: true }));', "tl.store(y_ptr + o, tl.load(x_ptr + o, o < n));"],
  ["tl.store's mask", "tl.store(y_ptr + o, x, { mask: o < n });", "tl.store(y_ptr + o, x, o < n);"],
  ["tl.store's value and mask", "tl.store(y_ptr + o, { value: x, mask: o < n });", "tl.store(y_ptr + o, x, o < n);"],
  ["a shorthand property", "const mask = o < n;\ntl.store(y_ptr + o, x, { mask });", "const mask = o < n;\ntl.store(y_ptr + o, x, mask);"],
  ["tl.sum's axis", "tl.store(y_ptr + o, tl.sum(m, { axis: 1 }));", "tl.store(y_ptr + o, tl.sum(m, 1));"],
  ["tl.sum's keepDims", "tl.store(y_ptr + r, tl.sum(m, 1, { keepDims: true }));", "tl.store(y_ptr + r, tl.expandDims(tl.sum(m, 1), 1));"],
  ["tl.max's keepDims by position", "tl.store(y_ptr + c, tl.max(m, 0, false, true, true));", "tl.store(y_ptr + c, tl.expandDims(tl.max(m, 0), 0));"],
  ["tl.sum of every axis", "tl.store(y_ptr, tl.sum(m));", "tl.store(y_ptr, tl.sum(tl.sum(m, 1), 0));"], // its axes one by one from the last (SpargeAttn: not flattened, staged whole)
  ["tl.argmax's tieBreakLeft", "tl.store(h_ptr, tl.argmax(x, 0, { tieBreakLeft: false }));", "tl.store(h_ptr, tl.argmax(x, 0));"],
  ["tl.cumsum's reverse", "tl.store(y_ptr + o, tl.cumsum(x, { reverse: true }));", "tl.store(y_ptr + o, tl.cumsum(x, 0, true));"],
  ["tl.cumsum's dtype", 'tl.store(h_ptr + o, tl.cumsum(o, { dtype: "i32" }));', "tl.store(h_ptr + o, tl.cumsum(o));"],
  ["tl.dot's acc, precision accepted", 'tl.store(y_ptr + r * 16 + c, tl.dot(m, m, { acc: m, inputPrecision: "ieee" }));', "tl.store(y_ptr + r * 16 + c, tl.dot(m, m, m));"],
  ["tl.dot's outDtype", 'tl.store(h_ptr + r * 16 + c, tl.dot(m, m, { outDtype: "i32" }));', 'tl.store(h_ptr + r * 16 + c, tl.cast(tl.dot(m, m), "i32"));'],
  ["an atomic's mask, sem and scope", 'tl.atomicAdd(h_ptr + o, 1, { mask: o < n, sem: "relaxed", scope: "gpu" });', "tl.atomicAdd(h_ptr + o, 1, o < n);"],
  ["tl.maximum's propagateNan \"none\", the default", 'tl.store(y_ptr + o, tl.maximum(x, 0.0, { propagateNan: "none" }));', "tl.store(y_ptr + o, tl.maximum(x, 0.0));"],
  ["tl.reshape's shape one extent at a time", "tl.store(y_ptr + tl.arange(0, 256), tl.reshape(m, 256, { canReorder: true }));", "tl.store(y_ptr + tl.arange(0, 256), tl.reshape(m, [256]));"],
  ["tl.where by name", "tl.store(y_ptr + o, tl.where(x > 0, x, { y: 0.0 }));", "tl.store(y_ptr + o, tl.where(x > 0, x, 0.0));"],
  ["tl.rand's nRounds, Triton's default", "tl.store(y_ptr + o, tl.rand(n, o, { nRounds: 10 }));", "tl.store(y_ptr + o, tl.rand(n, o));"],
  ["a device function's parameters by name", "tl.store(y_ptr + o, axpy(2.0, { y: x, x }));", "tl.store(y_ptr + o, axpy(2.0, x, x));"],
];

for (const [what, keywords, positional] of SAME) {
  test(`keyword arguments: ${what}`, () => assert.equal(wgsl(keywords), wgsl(positional)));
}

// [what, statement, "line:col-endLine:endCol code", message start]; the statement is on line 10.
const DIAGNOSTICS: [string, string, string, string][] = [
  ["an unknown keyword, at the key, listing the valid ones", "tl.store(y_ptr + o, tl.load(x_ptr + o, { maks: o < n }));", "10:42-10:46 KL1042", "tl.load has no keyword 'maks'; its keywords are pointer, mask, other, boundaryCheck, paddingOption, cacheModifier, evictionPolicy, volatile"],
  ["Triton's snake_case key", 'tl.store(y_ptr + o, tl.load(x_ptr + o, { eviction_policy: "evict_last" }));', "10:42-10:57 KL1042", "tl.load has no keyword 'eviction_policy'; did you mean evictionPolicy?"],
  ["a parameter given twice", "tl.store(y_ptr + o, x, o < n, { mask: o < n });", "10:33-10:37 KL1042", "tl.store's mask is given twice, by position and as a keyword"],
  ["tl.load's other without a mask", "tl.store(y_ptr + o, tl.load(x_ptr + o % n, { other: 1.0 }));", "10:53-10:56 KL1040", "tl.load's other is what masked-off lanes read, and there is no mask"],
  ["a spread in the keyword object", "tl.store(y_ptr + o, x, { ...o });", "10:26-10:30 KL1042", "keyword arguments are written name: value"],
  ["a keyword of a function without options", "tl.store(y_ptr + o, tl.exp(x, { base: 2 }));", "10:33-10:37 KL1042", "tl.exp has no keyword 'base'; its keywords are x"],
  ["a required argument left out", "tl.store(y_ptr + o, tl.where(x > 0, { y: 0.0 }));", "10:21-10:48 KL1040", "tl.where takes (condition, a, b); got 2 arguments"],
  ["a device function's unknown keyword", "tl.store(y_ptr + o, axpy(2.0, x, { z: x }));", "10:36-10:37 KL1042", "axpy has no keyword 'z'; its keywords are a, x, y"],
  ["a device function's argument left out", "tl.store(y_ptr + o, axpy(2.0, { y: x }));", "10:21-10:40 KL1070", "axpy takes 3 arguments (a, x, y), got 2; 'x' is missing"],
  ["tl.rand with rounds out of range", "tl.store(y_ptr + o, tl.rand(n, o, { nRounds: 65 }));", "10:46-10:48 KL1040", "tl.rand's nRounds must be 1 to 64 (Triton's default is 10); got 65"],
];

for (const [what, statement, where, message] of DIAGNOSTICS) {
  test(`keyword diagnostic: ${what}`, () => {
    const text = file(statement);
    const found = locate("k.kernel.ts", text, checkFile("k.kernel.ts", text)).map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code} ${d.message}`);
    assert.equal(found.length, 1, found.join("\n"));
    assert.ok(found[0].startsWith(`${where} ${message}`), `expected ${where} ${message}\ngot      ${found[0]}`);
  });
}

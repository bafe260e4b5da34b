// The Dawn toggles Kernel Lab asks for by itself (runtime/dawn-toggles.ts), what a file's kernels
// need (syntax/needs.ts), and the diagnostic for an f16 kernel on an adapter that truly lacks f16.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile, compileKernel, halfPrecisionNeeds, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";
import { namedToggles, togglesNote, togglesToAsk, withToggles } from "../../src/runtime/dawn-toggles";
import { locate } from "../../src/diagnostics/position";

const F16 = "vulkan_enable_f16_on_nvidia";
const UNSAFE = "allow_unsafe_apis";

test("toggles asked for: none without f16, the f16 toggle for f16, both for an f16 tl.dot", () => {
  const rows: [{ f16: boolean; f16Dot: boolean }, string[], string[]][] = [
    [{ f16: false, f16Dot: false }, [], []],
    [{ f16: true, f16Dot: false }, [], [F16]],
    [{ f16: true, f16Dot: true }, [], [F16, UNSAFE]],
    // A toggle the user names, enabled or disabled, is theirs.
    [{ f16: true, f16Dot: true }, [`disable-dawn-features=${F16},${UNSAFE}`], []],
    [{ f16: true, f16Dot: true }, [`enable-dawn-features=${UNSAFE}`], [F16]],
    [{ f16: true, f16Dot: true }, ["disable-dawn-features=timestamp_quantization", `--disable-dawn-features=${F16}`], [UNSAFE]],
  ];
  for (const [needs, flags, want] of rows) assert.deepEqual(togglesToAsk(needs, flags), want, JSON.stringify({ needs, flags }));
});

test("toggles join the user's enable-dawn-features flag, or come as one of their own", () => {
  assert.deepEqual(withToggles(["disable-dawn-features=timestamp_quantization"], [F16]), ["disable-dawn-features=timestamp_quantization", `enable-dawn-features=${F16}`]);
  assert.deepEqual(withToggles(["enable-dawn-features=disable_robustness"], [F16, UNSAFE]), [`enable-dawn-features=disable_robustness,${F16},${UNSAFE}`]);
  assert.deepEqual(withToggles(["a"], []), ["a"]);
  assert.deepEqual([...namedToggles(["enable-dawn-features=a, b", "disable-dawn-features=c", "other=d"])], ["a", "b", "c"]);
});

test("the note says which toggles, why, and how to turn them off", () => {
  assert.equal(togglesNote([]), undefined);
  const note = togglesNote([F16, UNSAFE])!;
  assert.match(note, /vulkan_enable_f16_on_nvidia and allow_unsafe_apis/);
  assert.match(note, /use f16/);
  assert.match(note, /kernelLab\.dawnToggles/);
  assert.match(note, /disable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis/);
});

const HEAD = `import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";\n`;

test("what a file's kernels need, read off their source", () => {
  const rows: [string, { f16: boolean; f16Dot: boolean }][] = [
    [`export const k = kernel(function k(x: Ptr<f32>, B: constexpr) { tl.store(x + tl.arange(0, B), 1.0); });`, { f16: false, f16Dot: false }],
    [`export const k = kernel(function k(x: Ptr<f16>, B: constexpr) { tl.store(x + tl.arange(0, B), 1.0); });`, { f16: true, f16Dot: false }],
    [`export const k = kernel(function k(x: Ptr<f32>, B: constexpr) { tl.store(x + tl.arange(0, B), tl.cast(tl.zeros([B], "f16"), "f32")); });`, { f16: true, f16Dot: false }],
    [`export const k = kernel(function k(x: Ptr<f16>, B: constexpr) { const a = tl.load(x + tl.arange(0, B)); tl.dot(a, a); });`, { f16: true, f16Dot: true }],
    [`export const k = kernel(function k(x: Ptr<f32>, B: constexpr) { tl.dot(tl.zeros([B, B]), tl.zeros([B, B])); });`, { f16: false, f16Dot: false }],
  ];
  for (const [body, want] of rows) assert.deepEqual(halfPrecisionNeeds(parseKernelFile("k.kernel.ts", HEAD + body)), want, body);
});

test("an f16 kernel on an adapter without shader-f16: KL2010 at the parameter, offering --cpu", () => {
  const text = `${HEAD}export const k = kernel(function k(x: Ptr<f16>, n: i32, B: constexpr) {\n  const i = tl.arange(0, B);\n  tl.store(x + i, tl.load(x + i, i < n), i < n);\n});\n`;
  const parsed = parseKernelFile("k.kernel.ts", text);
  const result = compileKernel(parsed.kernels[0], { B: 64 }, DEFAULT_TARGET);
  assert.equal(result.kernel, undefined);
  const [d] = locate("k.kernel.ts", text, result.diagnostics);
  assert.equal(d.code, "KL2010");
  assert.equal(d.line, 3);
  assert.equal(d.column, 36);
  assert.match(d.message, /shader-f16/);
  assert.match(d.message, /--cpu/);
  // Without an adapter (check, the editor), f16 is taken as available.
  assert.deepEqual(checkFile("k.kernel.ts", text), []);
});

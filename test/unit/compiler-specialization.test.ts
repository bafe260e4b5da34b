// Launch-time specialisation (compile.ts specializationFor): integer scalars equal to 1 compile as
// the constant 1, so unit strides make tile loads contiguous and wide (vec4); multiples of 16 are
// known to be (test/unit/divisibility.test.ts).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";

const text = readFileSync(join(__dirname, "..", "..", "examples", "matmul.kernel.ts"), "utf8");
const kernel = parseKernelFile("matmul.kernel.ts", text).kernels[0];
const constexprs = { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 };
const scalars = { M: 100, N: 90, K: 80, stride_am: 80, stride_ak: 1, stride_bk: 90, stride_bn: 1, stride_cm: 90, stride_cn: 1 };

test("scalars equal to 1 are the specialisation, and those that are multiples of 16", () => {
  assert.deepEqual(specializationFor(kernel, scalars), { ones: ["stride_ak", "stride_bn", "stride_cn"], divisible: ["K", "stride_am"] });
  assert.deepEqual(specializationFor(kernel, { ...scalars, K: 81, stride_am: 81, stride_ak: 2, stride_bn: 3, stride_cn: 4 }), {});
});

test("unit strides give vec4 bindings; unknown strides scalar ones", () => {
  const plain = compileKernel(kernel, constexprs).kernel!;
  const special = compileKernel(kernel, constexprs, undefined, specializationFor(kernel, scalars)).kernel!;
  assert.match(plain.wgsl, /var<storage, read> b_a_ptr: array<f32>;/);
  assert.match(special.wgsl, /var<storage, read> b_a_ptr: array<vec4<f32>>;/);
  assert.match(special.wgsl, /var<storage, read> b_b_ptr: array<vec4<f32>>;/);
  assert.deepEqual(special.abi.scalars.map((s) => s.name), plain.abi.scalars.map((s) => s.name), "the launch ABI is unchanged");
});

test("a loop-carried pointer block with unit stride keeps one register per run of 4", () => {
  const special = compileKernel(kernel, constexprs, undefined, specializationFor(kernel, scalars)).kernel!;
  const plain = compileKernel(kernel, constexprs).kernel!;
  const carried = (wgsl: string) => (wgsl.match(/^ {2}var x0_\d+: i32/gm) ?? []).length;
  // 64×16 a_ptrs over 256 invocations (tl.dot kernels get 256 with tiled layouts): 4 registers, one run.
  assert.equal(special.abi.workgroupSize, 256);
  assert.equal(carried(special.wgsl), 1);
  assert.equal(carried(plain.wgsl), 4, "with an unknown stride every register is carried");
  assert.match(special.wgsl, /\(x0_0 \+ 3\)/);
});

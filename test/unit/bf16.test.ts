// The bf16 rounding helper (ir/bf16.ts: the interpreter's, the harness's and the reference of codegen's kl_bf16) as a
// table: round to nearest with ties to even on the 16 bits dropped, NaN a quiet NaN, infinities kept, overflow to
// infinity, subnormals rounded like any other value; and bf16 arithmetic lowered as f32 arithmetic and a rounding.

import { test } from "node:test";
import assert from "node:assert/strict";
import { bf16FromBits, bf16ToBits, roundBf16 } from "../../src/ir/bf16";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

const MAX_BF16 = bf16FromBits(0x7f7f); // 3.3895314e38
const MIN_SUBNORMAL = 2 ** -133; // bits 0x0001

// [what, input, the bits it rounds to]
const ROUNDING: [string, number, number][] = [
  ["1", 1, 0x3f80],
  ["-2", -2, 0xc000],
  ["+0", 0, 0x0000],
  ["-0", -0, 0x8000],
  ["a tie rounds to the even neighbour below: 1 + 2^-8", 1 + 2 ** -8, 0x3f80],
  ["a tie rounds to the even neighbour above: 1 + 3·2^-8", 1 + 3 * 2 ** -8, 0x3f82],
  ["a negative tie: -(1 + 2^-8)", -(1 + 2 ** -8), 0xbf80],
  ["just above a tie rounds up: 1 + 2^-8 + 2^-20", 1 + 2 ** -8 + 2 ** -20, 0x3f81],
  ["just below half rounds down", 1 + 2 ** -8 - 2 ** -23, 0x3f80],
  ["NaN is the quiet NaN", NaN, 0x7fc0],
  ["+inf", Infinity, 0x7f80],
  ["-inf", -Infinity, 0xff80],
  ["the largest bf16", MAX_BF16, 0x7f7f],
  ["past the largest bf16's halfway point: +inf", 3.4e38, 0x7f80],
  ["f32's largest: +inf", 3.4028234663852886e38, 0x7f80],
  ["negative overflow: -inf", -3.4e38, 0xff80],
  ["the smallest subnormal", MIN_SUBNORMAL, 0x0001],
  ["a subnormal tie to even (0)", MIN_SUBNORMAL / 2, 0x0000],
  ["a subnormal tie to even (2)", MIN_SUBNORMAL * 1.5, 0x0002],
  ["1e-40 (an f32 subnormal)", 1e-40, 0x0001],
  ["a subnormal rounding up into the normals", 2 ** -126 - 2 ** -140, 0x0080],
  ["0.1", 0.1, 0x3dcd],
  ["pi", Math.PI, 0x4049],
];

for (const [what, x, bits] of ROUNDING) {
  test(`bf16 rounding: ${what}`, () => {
    assert.equal(bf16ToBits(x).toString(16), bits.toString(16));
    const back = roundBf16(x);
    if (Number.isNaN(x)) assert.ok(Number.isNaN(back));
    else assert.ok(Object.is(back, bf16FromBits(bits)), `${back} vs ${bf16FromBits(bits)}`);
  });
}

test("bf16 bits round-trip: every one of the 65536 patterns reads back to itself (NaNs to NaN)", () => {
  for (let bits = 0; bits < 0x10000; bits++) {
    const x = bf16FromBits(bits);
    if (Number.isNaN(x)) assert.equal(bf16ToBits(x), 0x7fc0);
    else assert.equal(bf16ToBits(x), bits);
  }
});

const SOURCE = `import { kernel, tl } from "kernel-lab";
import type { Ptr, bf16, f32, i32 } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<bf16>, y_ptr: Ptr<bf16>, o_ptr: Ptr<bf16>, f_ptr: Ptr<f32>) {
  const o = tl.arange(0, 16);
  const x = tl.load(x_ptr + o);
  const y = tl.load(y_ptr + o);
  tl.store(o_ptr + o, x * y);
  tl.store(f_ptr + o, x / y);
});
`;

test("bf16 arithmetic in the IR: x * y of two bf16s is an f32 mul of their casts then a cast to bf16; x / y is an f32 div, no bf16 result", () => {
  const source = parseKernelFile("k.kernel.ts", SOURCE).kernels[0];
  const compiled = compileKernel(source, {}, DEFAULT_TARGET).kernel!;
  const lets = compiled.ir.body.flatMap((s) => (s.kind === "let" ? [s.value] : []));
  const mul = lets.find((v) => v.op === "binary" && v.fn === "mul")!;
  const div = lets.find((v) => v.op === "binary" && v.fn === "div")!;
  assert.equal(mul.type.kind === "data" && mul.type.dtype, "f32");
  assert.equal(div.type.kind === "data" && div.type.dtype, "f32");
  const rounded = lets.find((v) => v.op === "cast" && v.value === mul)!;
  assert.equal(rounded.type.kind === "data" && rounded.type.dtype, "bf16");
  assert.ok(lets.every((v) => v.op !== "binary" || (v.lhs.type.kind === "data" && v.lhs.type.dtype !== "bf16")), "no binary op takes a bf16");
  assert.match(compiled.wgsl, /kl_bf16\(/);
});

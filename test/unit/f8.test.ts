// fp8 e4m3fn (ir/f8.ts: the interpreter's, the torch stand-in's, and the reference of codegen/f8.ts's WGSL) against
// the OCP FP8 spec's definition, written here independently: every one of the 256 bit patterns decodes to
// (-1)^S · 2^(E-7) · (1 + M/8) (subnormals 2^-6 · M/8, S.1111.111 NaN); every f32 of a sweep converts to the nearest
// value by search, ties to the even pattern, past 448 to ±448 (a kernel's conversion) or NaN (torch's); a table of the
// edges. Then the conversion as a kernel writes it: x.to(tl.float8e4nv) lowers to one rounding, and WGSL takes the helpers.
// Last, e5m2 the same way (its infinities: torch's conversion overflows to ±inf, a kernel's saturates at ±57344).

import { test } from "node:test";
import assert from "node:assert/strict";
import { f8e4m3FromBits, f8e4m3ToBits, f8e5m2FromBits, f8e5m2ToBits, roundF8e4m3, roundF8e5m2 } from "../../src/ir/f8";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

function specValue(bits: number): number {
  const s = bits >> 7;
  const e = (bits >> 3) & 0xf;
  const m = bits & 7;
  if (e === 15 && m === 7) return NaN;
  const magnitude = e === 0 ? 2 ** -6 * (m / 8) : 2 ** (e - 7) * (1 + m / 8);
  return s ? -magnitude : magnitude;
}

/** Non-negative finite patterns 0x00 … 0x7e and their values, ascending together. */
const POSITIVE = Array.from({ length: 0x7f }, (_, b) => specValue(b));

/** The pattern nearest |x| by search (ties to the even pattern), with x's sign; past 448 saturated or NaN. */
function specBits(x: number, saturate: boolean): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x80 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(x)) return 0x7f;
  if (a > 448) return sign | (saturate || a <= 464 ? 0x7e : 0x7f);
  let best = 0;
  for (let b = 1; b < POSITIVE.length; b++) {
    const d = Math.abs(POSITIVE[b] - a);
    const dBest = Math.abs(POSITIVE[best] - a);
    if (d < dBest || (d === dBest && b % 2 === 0)) best = b;
  }
  return sign | best;
}

test("all 256 e4m3fn bit patterns decode to the spec's values (Object.is: signed zeros, NaN)", () => {
  let exact = 0;
  for (let b = 0; b < 256; b++) if (Object.is(f8e4m3FromBits(b), specValue(b))) exact++;
  assert.equal(exact, 256);
  assert.equal(f8e4m3FromBits(0x7e), 448);
  assert.equal(f8e4m3FromBits(0x01), 2 ** -9);
});

test("a sweep of f32 values converts as the spec's nearest-even search: saturating and torch's NaN past 448", () => {
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const sweep: number[] = [];
  // Each value and midpoint, one f32 step either side, both signs.
  const points = [...POSITIVE, ...POSITIVE.slice(1).map((v, i) => (v + POSITIVE[i]) / 2), 464, 480, 2 ** -10, 1e-40, 1e30]; // ±inf and NaN: EDGES
  for (const p of points) {
    f32[0] = p;
    const bits = u32[0];
    for (const d of [-1, 0, 1]) {
      if (bits + d < 0) continue;
      u32[0] = bits + d;
      sweep.push(f32[0], -f32[0]);
    }
  }
  // Every 4099th f32 pattern below infinity: all exponents, f32 subnormals too.
  for (let bits = 0; bits < 0x7f800000; bits += 4099) {
    u32[0] = bits;
    sweep.push(f32[0], -f32[0]);
  }
  let kernel = 0;
  let torch = 0;
  for (const x of sweep) {
    if (f8e4m3ToBits(x, true) === specBits(x, true)) kernel++;
    if (f8e4m3ToBits(x, false) === specBits(x, false)) torch++;
  }
  assert.equal(kernel, sweep.length, `saturating: ${kernel} of ${sweep.length}`);
  assert.equal(torch, sweep.length, `torch's: ${torch} of ${sweep.length}`);
  assert.ok(sweep.length > 1_000_000);
});

// [what, input, kernel (saturating) bits, torch's bits]
const EDGES: [string, number, number, number][] = [
  ["1", 1, 0x38, 0x38],
  ["-0 keeps its sign", -0, 0x80, 0x80],
  ["a tie between 1 and 1.125 rounds to even 1", 1.0625, 0x38, 0x38],
  ["a tie between 1.125 and 1.25 rounds to even 1.25", 1.1875, 0x3a, 0x3a],
  ["448, the largest", 448, 0x7e, 0x7e],
  ["464, halfway to 480: even 448 in both", 464, 0x7e, 0x7e],
  ["just above 464: saturates; torch's rounds to 480, the NaN pattern", 464.00003, 0x7e, 0x7f],
  ["480: 448 saturated, NaN in torch", 480, 0x7e, 0x7f],
  ["-inf: -448 saturated, NaN (sign kept) in torch", -Infinity, 0xfe, 0xff],
  ["NaN", NaN, 0x7f, 0x7f],
  ["the smallest subnormal, 2^-9", 2 ** -9, 0x01, 0x01],
  ["2^-10, half of it: a tie to even 0", 2 ** -10, 0x00, 0x00],
  ["just above 2^-10: the smallest subnormal", 2 ** -10 * (1 + 2 ** -23), 0x01, 0x01],
  ["3·2^-10: a tie between subnormals 1 and 2, even 2", 3 * 2 ** -10, 0x02, 0x02],
  ["the largest subnormal rounds up into the smallest normal", 2 ** -6 - 2 ** -11, 0x08, 0x08],
];

test("edges: ties, the largest value, saturation and NaN, subnormals", () => {
  for (const [what, x, kernelBits, torchBits] of EDGES) {
    assert.equal(f8e4m3ToBits(x, true), kernelBits, what);
    assert.equal(f8e4m3ToBits(x, false), torchBits, what);
  }
  assert.ok(Object.is(roundF8e4m3(-0), -0));
  assert.equal(roundF8e4m3(1000), 448);
});

const SOURCE = `import { kernel, tl } from "kernel-lab";
import type { Ptr, f8e4m3, f32, i32 } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<f8e4m3>, y_ptr: Ptr<f8e4m3>, z_ptr: Ptr<f32>, n: i32) {
  const offs = tl.arange(0, 16);
  const x = tl.load(x_ptr + offs, offs < n);
  tl.store(y_ptr + offs, x * 2.0, offs < n);
  tl.store(z_ptr + offs, tl.cast(x * 3.0, "f8e4m3"), offs < n);
});
`;

test("tl.cast(x, \"f8e4m3\") lowers to one rounding of an f32; a Ptr<f8e4m3> loads an f32 and its WGSL takes the fp8 helpers", () => {
  const source = parseKernelFile("k.kernel.ts", SOURCE).kernels[0];
  const result = compileKernel(source, {}, DEFAULT_TARGET);
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), []);
  const compiled = result.kernel!;
  const lets = compiled.ir.body.flatMap((s) => (s.kind === "let" ? [s.value] : []));
  const load = lets.find((v) => v.op === "load")!;
  assert.equal(load.type.kind === "data" && load.type.dtype, "f32");
  assert.equal(lets.filter((v) => v.op === "math" && v.fn === "roundF8e4m3").length, 1);
  assert.match(compiled.wgsl, /fn kl_f8e4m3_value\(/);
  assert.match(compiled.wgsl, /kl_f8e4m3_bits\(/);
  assert.match(compiled.wgsl, /kl_f8e4m3\(/);
});

// e5m2 (ir/f8.ts f8e5m2…): the same against its definition — (-1)^S · 2^(E-15) · (1 + M/4), subnormals 2^-14 · M/4,
// S.11111.00 infinity, S.11111.xx NaN; past 57344 saturated (a kernel's) or, by IEEE rounding, ±inf (torch's).
function e5m2Value(bits: number): number {
  const s = bits >> 7;
  const e = (bits >> 2) & 0x1f;
  const m = bits & 3;
  if (e === 31) return m === 0 ? (s ? -Infinity : Infinity) : NaN;
  const magnitude = e === 0 ? 2 ** -14 * (m / 4) : 2 ** (e - 15) * (1 + m / 4);
  return s ? -magnitude : magnitude;
}

const E5M2_POSITIVE = Array.from({ length: 0x7c }, (_, b) => e5m2Value(b)); // 0 … 57344

function e5m2SpecBits(x: number, saturate: boolean): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x80 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(x)) return 0x7f;
  // Past 57344 the next step would be 65536 (inf): [57344, 61440] → 57344 (61440 is a tie; 57344's pattern is odd, so it goes up: inf).
  if (a >= 61440) return sign | (saturate ? 0x7b : 0x7c);
  let best = 0;
  for (let b = 1; b < E5M2_POSITIVE.length; b++) {
    const d = Math.abs(E5M2_POSITIVE[b] - a);
    const dBest = Math.abs(E5M2_POSITIVE[best] - a);
    if (d < dBest || (d === dBest && b % 2 === 0)) best = b;
  }
  return sign | best;
}

test("e5m2: all 256 bit patterns decode to the spec's values; a sweep of f32s converts as the spec's nearest-even search, both ways", () => {
  let exact = 0;
  for (let b = 0; b < 256; b++) if (Object.is(f8e5m2FromBits(b), e5m2Value(b))) exact++;
  assert.equal(exact, 256);
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  const sweep: number[] = [];
  const points = [...E5M2_POSITIVE, ...E5M2_POSITIVE.slice(1).map((v, i) => (v + E5M2_POSITIVE[i]) / 2), 61440, 65536, 2 ** -17, 1e-40, 1e30];
  for (const p of points) {
    f32[0] = p;
    const bits = u32[0];
    for (const d of [-1, 0, 1]) {
      if (bits + d < 0) continue;
      u32[0] = bits + d;
      sweep.push(f32[0], -f32[0]);
    }
  }
  for (let bits = 0; bits < 0x7f800000; bits += 4099) {
    u32[0] = bits;
    sweep.push(f32[0], -f32[0]);
  }
  let kernel = 0;
  let torch = 0;
  for (const x of sweep) {
    if (f8e5m2ToBits(x, true) === e5m2SpecBits(x, true)) kernel++;
    if (f8e5m2ToBits(x, false) === e5m2SpecBits(x, false)) torch++;
  }
  assert.equal(kernel, sweep.length, `saturating: ${kernel} of ${sweep.length}`);
  assert.equal(torch, sweep.length, `torch's: ${torch} of ${sweep.length}`);
  // Edges: a tie between 1 and 1.25 to even 1; 57344; 61440 a tie to inf (torch) / 57344 saturated; ±inf; NaN; 2^-17 a tie to 0.
  const edges: [number, number, number][] = [[1.125, 0x3c, 0x3c], [57344, 0x7b, 0x7b], [61440, 0x7b, 0x7c], [-Infinity, 0xfb, 0xfc], [NaN, 0x7f, 0x7f], [2 ** -17, 0, 0], [2 ** -16, 1, 1]];
  for (const [x, kernelBits, torchBits] of edges) {
    assert.equal(f8e5m2ToBits(x, true), kernelBits, `${x} saturating`);
    assert.equal(f8e5m2ToBits(x, false), torchBits, `${x} torch's`);
  }
  assert.equal(roundF8e5m2(1e6), 57344);
});

test("tl.cast(x, \"f8e5m2\") and a Ptr<f8e5m2>: one rounding, the e5m2 helpers in the WGSL", () => {
  const source = parseKernelFile("k.kernel.ts", SOURCE.replaceAll("f8e4m3", "f8e5m2")).kernels[0];
  const result = compileKernel(source, {}, DEFAULT_TARGET);
  assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), []);
  const lets = result.kernel!.ir.body.flatMap((s) => (s.kind === "let" ? [s.value] : []));
  assert.equal(lets.filter((v) => v.op === "math" && v.fn === "roundF8e5m2").length, 1);
  assert.match(result.kernel!.wgsl, /fn kl_f8e5m2_value\(/);
  assert.match(result.kernel!.wgsl, /kl_f8e5m2_bits\(/);
  assert.doesNotMatch(result.kernel!.wgsl, /kl_f8e4m3/);
});

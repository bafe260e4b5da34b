// A differential check of the loads that divisibility lets go unchecked (codegen/contiguity.ts,
// memory.ts knownWhole): random 2-D f16 loads — block shapes, row strides, column offsets, sizes
// that are and are not multiples of 16, masks of the forms the analysis reasons about (`<`, `<=`,
// `>=`, `&&`, `||`, `!`, constant along rows or not) — compiled specialised as the harness does,
// run on lavapipe in both load forms and compared element for element with the interpreter, which
// has no such shortcuts. A wrong claim of alignment or of a mask whole across a run shows as a
// different element. Outputs are NaN-poisoned; masked-off lanes read `other` (7).

import { test } from "node:test";
import assert from "node:assert/strict";
import { PRELUDE, runBoth, type Overrides } from "../support/kernel-runner";
import { f16ToBits } from "../../src/ir/f16";

/** A small seeded generator (mulberry32), so a failure names a case that can be run again. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MASKS = [
  "tl.expandDims(r, 1) < M && tl.expandDims(c, 0) < N",
  "tl.expandDims(c, 0) < N",
  "tl.expandDims(c, 0) <= N",
  "N > tl.expandDims(c, 0) || tl.expandDims(r, 1) < 0",
  "tl.expandDims(r, 1) < 0 || tl.expandDims(c, 0) <= N",
  "!(tl.expandDims(c, 0) >= N) && tl.expandDims(r, 1) < M",
  "!(tl.expandDims(c, 0) <= N)",
  "tl.expandDims(r, 1) < M",
  "tl.expandDims(c, 0) < c0 + N",
];

const SOURCE = (mask: string) => `${PRELUDE}export const k = kernel(function k(x: Ptr<f16>, o: Ptr<f16>, M: i32, N: i32, S: i32, c0: i32, W: i32, BM: constexpr, BN: constexpr) {
  const r = tl.programId(0) * BM + tl.arange(0, BM);
  const c = c0 + tl.programId(1) * BN + tl.arange(0, BN);
  const v = tl.load(x + tl.expandDims(r, 1) * S + tl.expandDims(c, 0), ${mask}, 7.0);
  tl.store(o + tl.expandDims(r, 1) * W + tl.expandDims(c - c0, 0), v);
});`;

test("f16 loads specialised on divisibility match the interpreter over random shapes, strides, offsets and masks", async () => {
  const random = rng(20261204);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  let known = 0;
  const CASES = 3 * MASKS.length;
  for (let i = 0; i < CASES; i++) {
    // Each mask three times: every size, stride and offset a multiple of 16 (the loads known
    // whole), then one of them not (checked, or a wrong claim if the analysis slipped), then all
    // at random.
    const kind = Math.floor(i / MASKS.length);
    const broken = kind === 1 ? pick(["S", "c0", "N", "M"]) : undefined;
    const divisible = kind < 2;
    // Blocks of 128 elements or more where it matters: smaller ones have no runs of 4 (layout.ts).
    const BM = pick(divisible ? [8, 16, 32] : [4, 8, 16, 32]);
    const BN = pick(divisible ? [16, 32, 64] : [8, 16, 32, 64]);
    const M = divisible && broken !== "M" ? pick([16, 32, 48, 64]) : pick([16, 32, 33, 5, 64, 12]);
    const N = divisible && broken !== "N" ? pick([16, 32, 48, 64]) : pick([16, 47, 50, 12, 100]);
    const c0 = divisible && broken !== "c0" ? pick([0, 16, 32]) : pick([0, 16, 4, 3, 18, 1]);
    const gridM = Math.ceil(M / BM) + 1, gridN = Math.ceil(N / BN) + 1;
    const W = gridN * BN;
    // Rows at least as wide as every column a program may read, unmasked ones included.
    const S = Math.ceil(Math.max(c0 + W, pick([16, 64, 80, 128])) / 16) * 16 + (divisible && broken !== "S" ? 0 : pick([0, 4, 1, 3]));
    const mask = MASKS[i % MASKS.length];
    const form = i % 2 === 0 ? "block" : "select";
    const name = `case ${i}: BM ${BM} BN ${BN} M ${M} N ${N} S ${S} c0 ${c0} mask ${mask} ${form}`;
    const x = Uint16Array.from({ length: gridM * BM * S }, () => f16ToBits(Math.round((random() * 4 - 2) * 64) / 64));
    const { gpu, cpu, kernel } = await runBoth({
      source: SOURCE(mask), constexprs: { BM, BN }, grid: [gridM, gridN], target: { halfLoadForm: form }, specialize: true,
      args: { x, o: new Uint16Array(gridM * BM * W).fill(0x7e00), M, N, S, c0, W }, outputs: ["o"],
    });
    assert.deepEqual(Array.from(gpu.o), Array.from(cpu.o), name);
    // Cases whose loads were known whole: wide, and no alignment test at run time.
    if (!/let whole\d+ = [^;]*& 3\) == 0/.test(kernel.wgsl) && /vec4<f16>/.test(kernel.wgsl)) known++;
  }
  // The sample exercises the unchecked loads, not only the checked ones.
  assert.ok(known >= 4, `${known} of ${CASES} cases had loads known whole`);
});

// Tutorial 03 wraps its offsets (`offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N`):
// the wrap falls between runs of 4 when the offsets start runs at multiples of 4, are not negative
// and N is a multiple of 4 (contiguity.ts). Shifted starts (s), negative starts (C's remainder of
// a negative number jumps inside a run) and sizes that are not multiples of 16 must stay exact.
const WRAPPED = (dtype: string) => `${PRELUDE}export const k = kernel(function k(x: Ptr<${dtype}>, o: Ptr<${dtype}>, M: i32, N: i32, S: i32, W: i32, BM: constexpr, BN: constexpr, SHIFT: constexpr) {
  const r = tl.programId(0) * BM + tl.arange(0, BM);
  const c = (tl.programId(1) * BN + tl.arange(0, BN) + SHIFT) % N;
  // A variable too, as tutorial 03's b_ptrs: it keeps one register a run (generator.ts runStride).
  let p = x + 64 + tl.expandDims(r, 1) * S + tl.expandDims(c, 0);
  const v = tl.load(p, tl.expandDims(r, 1) < M, 7.0);
  p += S;
  const w = tl.load(p, tl.expandDims(r, 1) < M, 7.0);
  tl.store(o + tl.expandDims(r, 1) * W + tl.expandDims(tl.programId(1) * BN + tl.arange(0, BN), 0), v - w);
});`;

test("f16 and f32 loads through offsets wrapped by % N match the interpreter: runs kept whole only where the wrap can't fall inside one", async () => {
  const random = rng(20261205);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  let known = 0;
  const CASES = 8;
  for (let i = 0; i < CASES; i++) {
    const SHIFT = [0, 0, 0, -16, 2, 0, 16, 2][i];
    const BM = pick([8, 16]);
    const BN = pick([16, 32, 64]);
    const M = pick([16, 32, 33]);
    // The wrap point inside the grid's columns: N smaller than the columns the programs cover.
    const N = i === 5 ? 50 : i === 3 ? 16 : pick([16, 32, 48]);
    const gridM = Math.ceil(M / BM), gridN = Math.ceil((2 * N) / BN) + 1;
    const W = gridN * BN;
    const S = 128;
    const name = `case ${i}: BM ${BM} BN ${BN} M ${M} N ${N} SHIFT ${SHIFT}`;
    // f32 for the odd cases: its vec4 reads test only alignment at run time, not the wrap.
    const half = i % 2 === 0;
    const values = Array.from({ length: 64 + (gridM * BM + 1) * S }, () => Math.round((random() * 4 - 2) * 64) / 64);
    const x = half ? Uint16Array.from(values, f16ToBits) : Float32Array.from(values);
    const o = half ? new Uint16Array(gridM * BM * W).fill(0x7e00) : new Float32Array(gridM * BM * W).fill(NaN);
    const { gpu, cpu, kernel } = await runBoth({
      source: WRAPPED(half ? "f16" : "f32"), constexprs: { BM, BN, SHIFT }, grid: [gridM, gridN], specialize: true,
      args: { x, o, M, N, S, W }, outputs: ["o"],
    });
    assert.deepEqual(Array.from(gpu.o), Array.from(cpu.o), name);
    if (/array<vec4<f(16|32)>>/.test(kernel.wgsl.split("\n").find((l) => /b_x:/.test(l)) ?? "")) known++;
  }
  // Cases 0, 1, 2 and 6 wrap by a multiple of 16 from starts at multiples of 4: read as vec4s.
  assert.ok(known >= 4, `${known} of ${CASES} cases read x as vec4s`);
});

// Rows not known aligned read in words (CodegenOptions.shiftedHalfRows "words", memory.ts wordRunLoad):
// each run of 4 halves from the 3 words around it, shifted half a word on an odd start, under one test of
// every lane's mask; the other way element by element from the words. Row strides and column offsets
// odd or even at random, the masks above, against the interpreter; x's last runs end at its last half.
test("f16 loads read in words where runs are not known aligned match the interpreter over random shapes, strides, offsets and masks", async () => {
  const random = rng(20261206);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  let words = 0;
  const CASES = 2 * MASKS.length;
  for (let i = 0; i < CASES; i++) {
    const BM = pick([4, 8, 16, 32]);
    const BN = pick([16, 32, 64]);
    const M = pick([16, 32, 33, 5, 64, 12]);
    const N = pick([16, 47, 50, 12, 100]);
    const c0 = pick([0, 16, 4, 3, 18, 1]);
    const gridM = Math.ceil(M / BM) + 1, gridN = Math.ceil(N / BN) + 1;
    const W = gridN * BN;
    const S = c0 + W + pick([1, 2, 3, 5, 7]);
    const mask = MASKS[i % MASKS.length];
    const name = `case ${i}: BM ${BM} BN ${BN} M ${M} N ${N} S ${S} c0 ${c0} mask ${mask}`;
    // No more halves than the last row's reads reach (its runs' third words stay inside the buffer).
    const x = Uint16Array.from({ length: (gridM * BM - 1) * S + c0 + W }, () => f16ToBits(Math.round((random() * 4 - 2) * 64) / 64));
    const { gpu, cpu, kernel } = await runBoth({
      source: SOURCE(mask), constexprs: { BM, BN }, grid: [gridM, gridN], target: { shiftedHalfRows: "words" }, specialize: true,
      args: { x, o: new Uint16Array(gridM * BM * W).fill(0x7e00), M, N, S, c0, W }, outputs: ["o"],
    });
    assert.deepEqual(Array.from(gpu.o), Array.from(cpu.o), name);
    if (/var<storage, read> b_x: array<u32>;/.test(kernel.wgsl) && /let wrun\d+ = /.test(kernel.wgsl)) words++;
  }
  assert.ok(words >= CASES / 2, `${words} of ${CASES} cases read x in words`);
});

// tl.dot on subgroup matrices (codegen/mma.ts), checked on lavapipe, which has none: the same
// plan with each matrix emulated in private arrays (CodegenOptions.subgroupMatrixEmulation), so the
// staging (padded rows, transposed operands loaded column-major, double buffers), the subgroups'
// regions and the accumulator's way in and out run for real against float64 of the f16 inputs
// and the interpreter. Sizes are no multiples of the blocks; outputs NaN-poisoned.

import { test } from "node:test";
import assert from "node:assert/strict";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth, type Overrides } from "../support/kernel-runner";
import { f16FromBits, f16ToBits } from "../../src/ir/f16";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const EMULATED: Overrides = {
  subgroupMatrixEmulation: true,
  subgroupMatrixConfigs: [[16, 16, 16], [16, 8, 16]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K })),
};

function randomHalves(n: number): { bits: Uint16Array; values: Float64Array } {
  const bits = Uint16Array.from(randomFloats(n, -2, 2), f16ToBits);
  return { bits, values: Float64Array.from(bits, f16FromBits) };
}

function product(a: Float64Array, b: Float64Array, M: number, N: number, K: number, bTransposed = false): Float64Array {
  const c = new Float64Array(M * N);
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) c[i * N + j] += a[i * K + k] * (bTransposed ? b[j * K + k] : b[k * N + j]);
  return c;
}

// The tutorial's loop (a loop plan: the accumulator stays in matrices), B loaded as [BN, BK] and
// transposed when `trans` (loaded column-major).
const MATMUL = (trans: boolean) => `${PRELUDE}export const mm = kernel(function mm(a: Ptr<f16>, b: Ptr<f16>, c: Ptr<f32>, M: i32, N: i32, K: i32, BM: constexpr, BN: constexpr, BK: constexpr) {
  const rm = tl.programId(0) * BM + tl.arange(0, BM);
  const rn = tl.programId(1) * BN + tl.arange(0, BN);
  const rk = tl.arange(0, BK);
  let acc = tl.zeros([BM, BN], "f32");
  for (let k = 0; k < K; k += BK) {
    const x = tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk + k, 0), tl.expandDims(rm, 1) < M && tl.expandDims(rk + k, 0) < K, 0.0);
    ${trans
      ? "const y = tl.trans(tl.load(b + tl.expandDims(rn, 1) * K + tl.expandDims(rk + k, 0), tl.expandDims(rn, 1) < N && tl.expandDims(rk + k, 0) < K, 0.0));"
      : "const y = tl.load(b + tl.expandDims(rk + k, 1) * N + tl.expandDims(rn, 0), tl.expandDims(rk + k, 1) < K && tl.expandDims(rn, 0) < N, 0.0);"}
    acc = tl.dot(x, y, acc);
  }
  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0), acc, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < N);
});`;

async function checkMatmul(M: number, N: number, K: number, blocks: [number, number, number], target: Overrides, trans = false, specialize = false): Promise<string> {
  const [BM, BN, BK] = blocks;
  const a = randomHalves(M * K);
  const b = randomHalves(K * N);
  const want = product(a.values, b.values, M, N, K, trans);
  const { gpu, cpu, kernel } = await runBoth({
    source: MATMUL(trans), constexprs: { BM, BN, BK }, target: { ...EMULATED, ...target },
    grid: [Math.ceil(M / BM), Math.ceil(N / BN)],
    args: { a: a.bits, b: b.bits, c: poisoned(M * N), M, N, K },
    outputs: ["c"],
    specialize,
  });
  assert.match(kernel.wgsl, /subgroup matrices of 16×\d+ per subgroup \(emulated\)/);
  for (const [side, got] of [["gpu", gpu.c], ["cpu", cpu.c]] as const) assertClose(got, want, `${side} c`, 1e-5 * K, 1e-5);
  return kernel.wgsl;
}

test("loop plan: 64×64×32 tiles, 4 subgroups of 2×2 matrices, double-buffered, 70×83 by 83×45 (K 83)", async () => {
  const wgsl = await checkMatmul(70, 45, 83, [64, 64, 32], { workgroupSize: 128, mmaDoubleBuffer: true });
  assert.match(wgsl, /mma\d+_p \^ 1u/, "double-buffered");
});

test("loop plan with one buffer (the default), registers pipelined (num_stages 2), 8 subgroups", async () => {
  const wgsl = await checkMatmul(70, 45, 83, [64, 64, 32], { workgroupSize: 256, numStages: 2 });
  assert.doesNotMatch(wgsl, /mma\d+_p \^ 1u/);
});

// The H200's f16 matmul at sizes that are multiples of 16 (specialised as the harness does): each
// run of 4 halves known aligned and masked whole, so no check at run time; edge blocks partly masked.
for (const form of ["block", "select", "tile"] as const) {
  test(`loop plan, sizes multiples of 16 (specialised), halfLoadForm "${form}", 8 subgroups, 80×96 by 96×48`, async () => {
    const wgsl = await checkMatmul(80, 48, 96, [64, 64, 32], { workgroupSize: 256, halfLoadForm: form }, false, true);
    assert.doesNotMatch(wgsl, /let whole\d+ = [^;]*& 3\) == 0/, "no alignment check at run time");
    // "tile": the pipelined loop's next-trip loads tested on scalars (K = 96 over 32: every trip whole; M = 80: one edge tile).
    if (form === "tile") assert.equal((wgsl.match(/let whole\d+ = [^;&]*i\)? < v\d+ && [^;&]* < v\d+ && v\d+;/g) ?? []).length, 4, "A and B, prologue and loop: bounds and the trip's condition, scalars only");
  });
}

// "tile" where every way is taken: K = 48 over 32 (the second trip partial), M = 80 and N = 112 over 64 (edge tiles).
for (const inPlace of [false, true]) {
  test(`loop plan, halfLoadForm "tile"${inPlace ? ", masks in place" : ""}, sizes multiples of 16 (specialised), partial trips and edge tiles, 80×48 by 48×112`, async () => {
    const wgsl = await checkMatmul(80, 112, 48, [64, 64, 32], { workgroupSize: 256, halfLoadForm: "tile", tileMasksInPlace: inPlace }, false, true);
    assert.match(wgsl, /let whole\d+ = \(v\d+ \+ 63i\) < v\d+/);
    // Moved: the first mask value after a tile test's `else` is a comparison (in place, a load's default).
    const afterElse = [...wgsl.matchAll(/let whole\d+ = [^\n]*\n(?:[^\n]*\n)*?\s*\} else \{\n\s*([^\n]*)/g)].map((m) => m[1]);
    assert.equal(afterElse.some((line) => /^let v\d+_\d+ = \(.* < /.test(line)), !inPlace, afterElse.join("\n"));
  });
}

// "tile" at sizes no run is known aligned in (K = 103, N = 101: 1000 × 1001 × 1003's case): each element read
// on its own, with no test of its own where the whole tile is inside (interior tiles, whole trips),
// under its mask on the other way (edge tiles, the last trip), that way's mask values emitted there.
test(`loop plan, halfLoadForm "tile", rows not known aligned (specialised): element reads tested once per tile, 100×103 by 103×101`, async () => {
  const wgsl = await checkMatmul(100, 101, 103, [64, 64, 32], { workgroupSize: 128, halfLoadForm: "tile" }, false, true);
  const tested = [...wgsl.matchAll(/\n(\s*)if \([^\n]*\d+i\)? < v\d+ && [^\n]*\{\n\1  v\d+_0 = b_(\w+)\[v\d+_0\];/g)].map((m) => m[2]);
  assert.deepEqual(tested.sort(), ["a", "a", "b", "b"], "A and B, prologue and loop: read unmasked under one test");
  assert.doesNotMatch(wgsl, /vec4<f16>/, "no run read wide");
});

// The next trip's tiles carried two halves to a 32-bit register (mmaPackedPrefetch, packed-halves.ts):
// specialised, every run known whole, so A's and B's prefetch variables are vec2<u32> per run of 4
// (runs of 4 asked for: where runs are aligned the matmul's default is runs of 8, one vec4<u32> each);
// B also transposed (its tl.trans staged column-major from the packed registers).
for (const trans of [false, true]) {
  test(`loop plan, mmaPackedPrefetch, sizes multiples of 16 (specialised), 80×96 by 96×48${trans ? ", B transposed" : ""}`, async () => {
    const wgsl = await checkMatmul(80, 48, 96, [64, 64, 32], { workgroupSize: 128, mmaPackedPrefetch: true, runsOf8: false }, trans, true);
    assert.equal((wgsl.match(/var x\d+_0: vec2<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried packed");
    assert.match(wgsl, /sm_mma\w+\[[^\]]+\] = bitcast<vec2<f16>>\(v\d+_\d+\.[xy]\)\.[xy];/, "staged from the packed registers");
  });
}

// Rows of K = 43 / 103 and N = 41 / 101 halves: no run known aligned. shiftedHalfRows reads each run
// as the two aligned vec4<f16> around it (and, packed, carries them as vec2<u32>); partly masked
// runs at the rows' ends, and at the buffers' ends.
for (const [M, N, K, packed] of [[37, 41, 43, true], [100, 101, 103, false]] as const) {
  test(`loop plan, shiftedHalfRows${packed ? " and mmaPackedPrefetch" : ""}, rows not aligned, ${M}×${K} by ${K}×${N}`, async () => {
    const wgsl = await checkMatmul(M, N, K, [32, 32, 16], { workgroupSize: 128, shiftedHalfRows: true, mmaPackedPrefetch: packed }, false, true);
    assert.match(wgsl, /var<storage, read> b_a: array<vec4<f16>>;/, "A read as vec4<f16>");
    assert.match(wgsl, /let srun\d+ = select\(/, "runs shifted in registers");
    assert.equal(/var x\d+_0: vec2<u32>/.test(wgsl), packed);
  });
}

// shiftedHalfRows "words": A and B bound as u32 words, each run read as the 3 words around it, shifted by
// half a word on an odd start (memory.ts wordRunLoad), on every lane with each half kept by select on its
// mask ("block"), or under the tile test on scalars with the masks on the other way only ("tile"); partly
// masked runs at the rows' ends and the last run of each buffer (its third word the second's again, and
// words past the buffer bounded by WebGPU) dropped by the select.
for (const [M, N, K, form] of [[37, 41, 43, "block"], [100, 101, 103, "tile"], [33, 35, 47, "tile"]] as const) {
  test(`loop plan, shiftedHalfRows "words", halfLoadForm ${form}, rows not aligned, ${M}×${K} by ${K}×${N}`, async () => {
    const wgsl = await checkMatmul(M, N, K, [32, 32, 16], { workgroupSize: 128, shiftedHalfRows: "words", halfLoadForm: form }, false, true);
    assert.match(wgsl, /var<storage, read> b_a: array<u32>;/, "A bound as words");
    assert.match(wgsl, /var<storage, read> b_b: array<u32>;/, "B bound as words");
    assert.match(wgsl, /let wrun\d+ = bitcast<vec4<f16>>\(select\(/, "runs read as words, shifted on an odd start");
    assert.match(wgsl, /(v\d+_\d+) = select\(0\.0h, \1, v\d+_\d+\);/, "masked halves dropped by select");
    assert.doesNotMatch(wgsl, /\)\[\(v\d+_\d+\) & 1\]/, "no word's half picked by a run-time index");
    assert.doesNotMatch(wgsl, /vec4<f16>>;/, "no vec4<f16> binding");
  });
}

// The example itself: tutorial 03's a_ptrs and b_ptrs are loop variables advanced by the same amount
// for every element, so with the prefetch packed each is carried as one base register, its other
// registers offsets of the row stride (packed-halves.ts). Aligned and specialised (80×96 by 96×48), in
// runs of 4 and in the default there, runs of 8 (one vec4<u32> each, plan.ts takesRunsOf8); rows not
// aligned, read shifted (37×43 by 43×41).
const EXAMPLE = readFileSync(join(__dirname, "..", "..", "examples", "matmul-f16.kernel.ts"), "utf8");
for (const [M, N, K, shifted, eights] of [[80, 48, 96, false, false], [80, 48, 96, false, true], [37, 41, 43, true, false]] as const) {
  test(`examples/matmul-f16.kernel.ts, mmaPackedPrefetch${shifted ? " and shiftedHalfRows" : ""}${eights ? " (the default runs of 8)" : ""}: pointers carried as one base each, ${M}×${K} by ${K}×${N}`, async () => {
    const a = randomHalves(M * K);
    const b = randomHalves(K * N);
    const want = product(a.values, b.values, M, N, K);
    const { gpu, cpu, kernel } = await runBoth({
      source: EXAMPLE, constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 64 },
      target: { ...EMULATED, workgroupSize: 128, ...(eights ? {} : { mmaPackedPrefetch: true, runsOf8: false }), shiftedHalfRows: shifted },
      grid: [Math.ceil(M / 64) * Math.ceil(N / 64)],
      args: { a_ptr: a.bits, b_ptr: b.bits, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
      outputs: ["c_ptr"], specialize: true,
    });
    for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c`, 1e-5 * K, 1e-5);
    assert.equal((kernel.wgsl.match(eights ? /var x\d+_0: vec4<u32> = v\d+_0;/g : /var x\d+_0: vec2<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried packed");
    assert.equal((kernel.wgsl.match(/var x\d+_0: i32 = /g) ?? []).length, 2, "a_ptrs and b_ptrs one register each");
    assert.doesNotMatch(kernel.wgsl, /var x\d+_4: i32/, "no register per run");
  });
}

// The example read in words (shiftedHalfRows "words") at sizes no run is aligned in, as the bench's
// 1000×1001×1003 asks of it, with the default and the tile test: A and B bound as words.
for (const form of ["block", "tile"] as const) {
  test(`examples/matmul-f16.kernel.ts, shiftedHalfRows "words", halfLoadForm ${form}: 37×43 by 43×41 and 70×83 by 83×45`, async () => {
    for (const [M, N, K] of [[37, 41, 43], [70, 45, 83]]) {
      const a = randomHalves(M * K);
      const b = randomHalves(K * N);
      const want = product(a.values, b.values, M, N, K);
      const { gpu, cpu, kernel } = await runBoth({
        source: EXAMPLE, constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 32 },
        target: { ...EMULATED, workgroupSize: 128, shiftedHalfRows: "words", halfLoadForm: form },
        grid: [Math.ceil(M / 32) * Math.ceil(N / 32)],
        args: { a_ptr: a.bits, b_ptr: b.bits, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
        outputs: ["c_ptr"], specialize: true,
      });
      for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c ${M}×${N}×${K}`, 1e-5 * K, 1e-5);
      assert.match(kernel.wgsl, /var<storage, read> b_a_ptr: array<u32>;/);
      assert.match(kernel.wgsl, /var<storage, read> b_b_ptr: array<u32>;/);
      assert.match(kernel.wgsl, /let wrun\d+ = /);
    }
  });
}

// The example at sizes no run is aligned in, read in shifted chunks (shiftedHalfRows "chunks",
// load-forms.ts readsChunks): held in runs of 8, A and B bound as vec4<u32>, each run of 8 read as the
// two 16-byte chunks that cover it and shifted by its start mod 8 (K = 43 and 83 start rows at every
// residue), carried packed; under the tile test (runs of 8's default), on every trip ("block"), and
// with the K loop peeled (wholeTrips). Partly masked runs at the rows' ends, and a last run whose
// second chunk lies past the buffer. A masked run is carried with its halves' mask (zeroed where it is
// read) where `other` is +0, as the example's; with another `other` (-0.0 here, which changes no sum)
// it is shifted and selected where it is loaded.
for (const [form, peeled, other] of [["tile", false, "0.0"], ["block", false, "0.0"], ["tile", true, "0.0"], ["tile", false, "-0.0"]] as const) {
  test(`examples/matmul-f16.kernel.ts, shiftedHalfRows "chunks", halfLoadForm ${form}${peeled ? ", wholeTrips" : ""}, other ${other}: 37×43 by 43×41 and 70×83 by 83×45`, async () => {
    const source = other === "0.0" ? EXAMPLE : EXAMPLE.replace(/, 0\.0\);/g, `, ${other});`);
    assert.notEqual(source.includes("-0.0"), other === "0.0");
    for (const [M, N, K] of [[37, 41, 43], [70, 45, 83]]) {
      const a = randomHalves(M * K);
      const b = randomHalves(K * N);
      const want = product(a.values, b.values, M, N, K);
      const { gpu, cpu, kernel } = await runBoth({
        source, constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 },
        target: { ...EMULATED, workgroupSize: 128, shiftedHalfRows: "chunks", ...(form === "tile" ? {} : { halfLoadForm: form }), wholeTrips: peeled },
        grid: [Math.ceil(M / 64) * Math.ceil(N / 64)],
        args: { a_ptr: a.bits, b_ptr: b.bits, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
        outputs: ["c_ptr"], specialize: true,
      });
      for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c ${M}×${N}×${K}`, 1e-5 * K, 1e-5);
      assert.match(kernel.wgsl, /var<storage, read> b_a_ptr: array<vec4<u32>>;/);
      assert.match(kernel.wgsl, /var<storage, read> b_b_ptr: array<vec4<u32>>;/);
      const shiftedAtLoad = /let crun\d+ = kl_shifted8\(b_a_ptr\[cc\d+\], b_a_ptr\[cc\d+ \+ 1u\], ci\d+ & 7u\);/.test(kernel.wgsl);
      assert.equal(shiftedAtLoad, other !== "0.0", "a masked run shifted where it is loaded, only where other is not +0");
      assert.equal(/_0m = vec4<u32>\(select\(0u, 0xffffu, \w+\) \| select\(0u, 0xffff0000u, \w+\), /.test(kernel.wgsl), other === "0.0", "a masked run carried with its halves' mask");
      assert.equal((kernel.wgsl.match(/var x\d+_0: vec4<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried packed, a run of 8 a register");
      assert.equal((kernel.wgsl.match(/= \(kl_shifted8\(x\d+_0, x\d+_0q, x\d+_0s\) & x\d+_0m\);/g) ?? []).length, peeled ? 4 : 2, "carried as their chunks, shifted and masked where read (in each copy of the peeled loop)");
      assert.equal(/if \(\(v\d+ \+ \d+i\) < v\d+ && /.test(kernel.wgsl), form === "tile", "the tile test on scalars");
    }
  });
}

// Row and column of the masks' flat indices taken unsigned (CodegenOptions.unsignedIndices,
// rearrange.ts IndexForm), alone, split term by term, and with the chunks: the same products at sizes
// whose masks cut every tile, and no signed quotient of a tile index left in the WGSL.
// Last, the odd size's leader (§84): chunks, split indices, the K loop peeled, at 64×64×64.
for (const knobs of [{ unsignedIndices: true }, { unsignedIndices: true, splitTileIndices: true, shiftedHalfRows: "chunks" }, { shiftedHalfRows: "chunks", splitTileIndices: true, wholeTrips: true }] as const) {
  test(`examples/matmul-f16.kernel.ts, ${Object.keys(knobs).join(", ")}: 37×43 by 43×41 and 70×83 by 83×45`, async () => {
    const BLOCK_K = "wholeTrips" in knobs ? 64 : 32;
    for (const [M, N, K] of [[37, 41, 43], [70, 45, 83]]) {
      const a = randomHalves(M * K);
      const b = randomHalves(K * N);
      const want = product(a.values, b.values, M, N, K);
      const { gpu, cpu, kernel } = await runBoth({
        source: EXAMPLE, constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K },
        target: { ...EMULATED, workgroupSize: 128, ...knobs },
        grid: [Math.ceil(M / 64) * Math.ceil(N / 64)],
        args: { a_ptr: a.bits, b_ptr: b.bits, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
        outputs: ["c_ptr"], specialize: true,
      });
      for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c ${M}×${N}×${K}`, 1e-5 * K, 1e-5);
      if ("unsignedIndices" in knobs) {
        assert.match(kernel.wgsl, /i32\(u32\(tile_\d+x\d+\) \/ \d+u\)/, "a tile index's row taken unsigned");
        assert.doesNotMatch(kernel.wgsl, /\(tile_\d+x\d+(?: \+ \d+)?\) \/ \d+\)/, "no signed quotient of a tile index");
      } else assert.match(kernel.wgsl, /\(\(tile_\d+x\d+ % 64\) \+ 1\)/, "the masks' columns split term by term");
    }
  });
}

// The example's M and N masks dropped from its loads (unmaskedDotEdges, codegen/dot-edges.ts): the
// rows of A past M and the columns of B past N are read, and reach only what the store masks off.
// A's and B's buffers run on past the matrices in NaNs, so a garbage row or column that leaked into
// C would fail the check. With the loop peeled and words (the odd size's timed form, bench/NOTES.md
// §71) the whole trips' loads have no mask left at all; as written, the edge tiles' loads keep K's.
for (const knobs of [{}, { shiftedHalfRows: "words", wholeTrips: true }] as const) {
  test(`examples/matmul-f16.kernel.ts, unmaskedDotEdges${"wholeTrips" in knobs ? ", words, wholeTrips" : ""}: 70×83 by 83×45 and 37×43 by 43×41, NaN past the matrices`, async () => {
    for (const [M, N, K] of [[70, 45, 83], [37, 41, 43]]) {
      const a = randomHalves(M * K);
      const b = randomHalves(K * N);
      const nanTail = (bits: Uint16Array, extra: number) => Uint16Array.from([...bits, ...new Array<number>(extra).fill(0x7e00)]);
      const want = product(a.values, b.values, M, N, K);
      const { gpu, cpu, kernel } = await runBoth({
        source: EXAMPLE, constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 32 },
        target: { ...EMULATED, workgroupSize: 128, unmaskedDotEdges: true, ...knobs },
        grid: [Math.ceil(M / 32) * Math.ceil(N / 32)],
        args: { a_ptr: nanTail(a.bits, 32 * K), b_ptr: nanTail(b.bits, 32 * N), c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
        outputs: ["c_ptr"], specialize: true,
      });
      for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c ${M}×${N}×${K}`, 1e-5 * K, 1e-5);
      // A and B are still read (the whole trips' masks are checked below, where the loop is peeled).
      const loads = kernel.wgsl.split("\n").filter((l) => /b_(a|b)_ptr\[/.test(l));
      assert.ok(loads.length > 0);
      if ("wholeTrips" in knobs) {
        const first = /for \(; x\d+ < \w+ && [^\n]*\{\n([^]*?)\n\s+for \(; x\d+ < \w+; /.exec(kernel.wgsl)?.[1] ?? "";
        const masks = [...first.matchAll(/select\(0\.0h, \w+, (\w+)\)/g)].map((m) => m[1]);
        assert.ok(masks.length > 0, "the whole trips' loads");
        for (const mask of new Set(masks)) assert.match(first, new RegExp(`let ${mask} = \\(\\w+ && \\w+\\);`), mask);
        for (const name of new Set(masks.flatMap((mask) => /let \w+ = \((\w+) && (\w+)\);/.exec(first.split("\n").find((l) => l.includes(`let ${mask} =`))!)!.slice(1)))) {
          assert.match(first, new RegExp(`let ${name} = true;`), `${name}: every mask of the whole trips true`);
        }
      }
    }
  });
}

// Runs of 8 (CodegenOptions.runsOf8, layout.ts): each invocation holds 8 contiguous halves a row, read
// 16 bytes at a time through the buffer bound as vec4<u32> (memory.ts). 128 × 64 × 32 over 8 subgroups:
// A [128, 32] tiled in 2 rows of 8, 64 rows apart (the default holds 4 × 4), B [32, 64] flat in runs of 8.
// Specialised at multiples of 16 with a partial last trip and edge tiles (80×48 by 48×112) in the three
// load forms, each also packed (mmaPackedPrefetch: one vec4<u32> per run of 8); at sizes no run is known aligned in (37×43 by 43×41), the same layouts read
// element by element, A and B keeping their vec4<f16> bindings.
for (const form of ["block", "select", "tile"] as const) {
  for (const packed of [false, true]) {
    test(`loop plan, runsOf8, halfLoadForm "${form}"${packed ? ", mmaPackedPrefetch" : ""}, sizes multiples of 16 (specialised), 80×48 by 48×112`, async () => {
      const wgsl = await checkMatmul(80, 112, 48, [128, 64, 32], { workgroupSize: 256, runsOf8: true, halfLoadForm: form, mmaPackedPrefetch: packed }, false, true);
      assert.match(wgsl, /var<storage, read> b_a: array<vec4<u32>>;/, "A read 8 halves at a time");
      assert.match(wgsl, /var<storage, read> b_b: array<vec4<u32>>;/, "B read 8 halves at a time");
      assert.match(wgsl, /let tile_128x32 = \(i32\(lid\) \/ 4\) \* 32 \+ \(i32\(lid\) % 4\) \* 8;/, "A: 2 rows of 8 an invocation, 64 rows apart");
      assert.match(wgsl, /let lane8 = i32\(lid\) \* 8;/, "B: runs of 8");
      assert.match(wgsl, /b_a\[(select\(0i, )?v\d+_0 >> 3u/, "one 16-byte read per run of 8");
      assert.doesNotMatch(wgsl, /let whole\d+ = [^;]*& 3\) == 0/, "no alignment check at run time");
      // Packed, each run of 8 of the next trip's tiles is one vec4<u32>, the load's own registers.
      if (packed) assert.equal((wgsl.match(/var x\d+_0: vec4<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried as vec4<u32> runs of 8");
    });
  }
}
test("loop plan, runsOf8, rows not known aligned (specialised): runs of 8 read element by element, 37×43 by 43×41", async () => {
  const wgsl = await checkMatmul(37, 41, 43, [128, 64, 32], { workgroupSize: 256, runsOf8: true, halfLoadForm: "tile" }, false, true);
  assert.match(wgsl, /let lane8 = i32\(lid\) \* 8;/);
  assert.doesNotMatch(wgsl, /vec4<u32>/, "no buffer read 16 bytes at a time");
});
test("loop plan, runsOf8 with B transposed: the transposed operand staged from runs of 8, 80×96 by 96×48", async () => {
  const wgsl = await checkMatmul(80, 48, 96, [128, 64, 32], { workgroupSize: 256, runsOf8: true }, true, true);
  assert.match(wgsl, /var<storage, read> b_b: array<vec4<u32>>;/);
});
test("loop plan, shiftedHalfRows \"chunks\" with B transposed, rows not aligned (specialised): both operands read in shifted chunks, 83×43 by 43×45", async () => {
  const wgsl = await checkMatmul(83, 45, 43, [64, 64, 32], { workgroupSize: 128, shiftedHalfRows: "chunks", mmaPackedPrefetch: false }, true, true);
  assert.match(wgsl, /var<storage, read> b_b: array<vec4<u32>>;/);
  assert.match(wgsl, /= kl_shifted8\(b_b\[/);
});

// The staging stores' first index (mma-transfer.ts): from lid itself by default, which Tint bounds, so it
// leaves the stores unclamped (NOTES §60); from the flat element index by / and % with
// mmaStagingFlatIndex, as before. 64 × 64 × 64 over 4 subgroups: A and B tiled 4 rows × 8 columns an
// invocation, in runs of 4 (asked for) or, the default here, one run of 8 a row (plan.ts takesRunsOf8).
for (const [flat, eights] of [[false, true], [false, false], [true, false]] as const) {
  test(`loop plan, staging indices ${flat ? "from the flat index (mmaStagingFlatIndex)" : "from lid"}${eights ? ", runs of 8" : ""}, 64×64×64 over 4, 80×96 by 96×48`, async () => {
    const wgsl = await checkMatmul(80, 48, 96, [64, 64, 64], { workgroupSize: 128, halfLoadForm: "tile", mmaStagingFlatIndex: flat, ...(eights ? {} : { runsOf8: false }) }, false, true);
    const first = /let (mr\d+) = ([^;]*);\n\s*let mb\d+ = \1 \* 72u([^;]*);/.exec(wgsl);
    assert.ok(first, "the staging base");
    if (flat) assert.deepEqual([first[2], first[3]], ["u32(tile_64x64) / 64u", " + u32(tile_64x64) % 64u"]);
    else if (eights) assert.deepEqual([first[2], first[3]], ["(lid / 8u)", " + (lid % 8u) * 8u"]);
    else assert.deepEqual([first[2], first[3]], ["(lid / 8u) * 4u", " + (lid % 8u) * 4u"]);
  });
}

// The example's K loop peeled (wholeTrips, codegen/whole-trips.ts): the trips whose K columns, this
// trip's and (pipelined) the next's, are all below K run first with `offs_k < K - k * BLOCK_K` true.
// K of 160 in blocks of 32 (every trip whole; the last one's next block is not), 103 (the last trip partial,
// rows not aligned), 96 by 64s (one whole trip), with the default load form and "tile".
for (const [M, N, K, BK, form] of [[80, 48, 160, 32, "block"], [37, 41, 103, 32, "tile"], [70, 45, 96, 64, "tile"]] as const) {
  test(`examples/matmul-f16.kernel.ts, wholeTrips, halfLoadForm "${form}": ${M}×${K} by ${K}×${N} in blocks of ${BK} along K`, async () => {
    const a = randomHalves(M * K);
    const b = randomHalves(K * N);
    const want = product(a.values, b.values, M, N, K);
    const { gpu, cpu, kernel } = await runBoth({
      source: EXAMPLE, constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: BK },
      target: { ...EMULATED, workgroupSize: 64, wholeTrips: true, halfLoadForm: form },
      grid: [Math.ceil(M / 32) * Math.ceil(N / 32)],
      args: { a_ptr: a.bits, b_ptr: b.bits, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 },
      outputs: ["c_ptr"], specialize: true,
    });
    for (const [side, got] of [["gpu", gpu.c_ptr], ["cpu", cpu.c_ptr]] as const) assertClose(got, want, `${side} c`, 1e-5 * K, 1e-5);
    assert.match(kernel.wgsl, /var (\w+): i32 = 0i;\n\s+for \(; \1 < (\w+) && [^\n]* >= 1i; \1 = \1 \+ 1i\) \{\n[^]*\n\s+for \(; \1 < \2; \1 = \1 \+ 1i\) \{\n/, "the whole trips' loop, then the rest");
    assert.match(kernel.wgsl, /let \w+ = true;/);
  });
}

// C stored straight from the matrices (codegen/mma-store.ts) in the tiles wholly inside C, rows of
// 80 floats (16-byte aligned): the 2 × 2 whole tiles of 32 × 32 write their matrices, the edge tiles
// (rows 64–79, columns 64–79) each matrix through its subgroup's slice, element by element under the
// mask. Rows of 78 floats: every tile that way. With mmaEdgeSlices false, the edge tiles go through
// registers (the transfer array) instead.
for (const n of [80, 78]) {
  for (const slices of [true, false]) {
    test(`loop plan, C stored from the matrices where the tile is whole and aligned, ${slices ? "the rest through slices" : "the rest through registers"}, 80×48 by 48×${n}, 4 subgroups`, async () => {
      const wgsl = await checkMatmul(80, n, 48, [32, 32, 16], { workgroupSize: 128, ...(slices ? {} : { mmaEdgeSlices: false }) }, false, true);
      assert.match(wgsl, /let cwhole\d+ = cbase\d+ >= 0i && [^;]*;\n\s*if \(cwhole\d+\) \{/, "the direct store and its test");
      assert.match(wgsl, /var<storage, read_write> b_c: array<f32>;/, "C addressed by element");
      // 4 subgroups of one 16×16 f32 matrix each; or the transfer array, and no slices.
      if (slices) assert.match(wgsl, /var<workgroup> sm_mmae_f32: array<f32, 1024>;/);
      else assert.doesNotMatch(wgsl, /sm_mmae/);
      assert.equal(/sm_mmac_f32/.test(wgsl), !slices, "the transfer array only without slices");
    });
  }
}

// The autotuner's mmaSubgroupsM (CodegenOptions; ir/knobs.ts): 64 × 64 over 4 subgroups stacked
// along M, each 1 × 4 matrices (the squarest split is 2 × 2 of 2 × 2), C partly through registers.
test("loop plan, mmaSubgroupsM: 4 subgroups along M of 1 × 4 matrices each, 70×83 by 83×45", async () => {
  const wgsl = await checkMatmul(70, 45, 83, [64, 64, 32], { workgroupSize: 128, mmaSubgroupsM: 4 });
  assert.match(wgsl, /let mma\d+_r = \(\(lid \/ 32u\) % 4u\) \* 16u;/, "4 subgroups along M, one matrix row each");
  assert.match(wgsl, /let mma\d+_c = \(\(lid \/ 32u\) \/ 4u\) \* 64u;/, "each spanning the tile's 4 matrix columns");
});

test("loop plan, mmaDirectStore: false keeps the registers' way out", async () => {
  const wgsl = await checkMatmul(80, 80, 48, [32, 32, 16], { workgroupSize: 128, mmaDirectStore: false }, false, true);
  assert.doesNotMatch(wgsl, /cwhole/);
});

test("loop plan with B transposed (loaded column-major), 33×50 by 50×47", async () => {
  const wgsl = await checkMatmul(33, 47, 50, [32, 32, 16], { workgroupSize: 64 }, true);
  assert.match(wgsl, /col_major|% 16u\) \* \d+u \+ e \/ 16u/);
});

// K and V rows S apart (S = D at run time): specialised, S is known a multiple of 16, so their
// loads need no check at run time, as the H200's attention-f16 runs; not specialised, they keep it.
for (const specialize of [false, true]) {
  test(`a dot outside any loop (a 'once' plan) with an accumulator added, and one of two dots in a loop${specialize ? ", specialised (K and V loads known whole)" : ""}`, async () => {
    // Attention's shape: S = Q·Kᵀ fresh each trip, then acc = P·V + acc * alpha.
    const source = `${PRELUDE}export const two = kernel(function two(q: Ptr<f16>, k: Ptr<f16>, v: Ptr<f16>, o: Ptr<f32>, N: i32, S: i32, B: constexpr, D: constexpr) {
    const rm = tl.arange(0, B);
    const rd = tl.arange(0, D);
    const qb = tl.load(q + tl.expandDims(rm, 1) * D + tl.expandDims(rd, 0));
    let acc = tl.zeros([B, D], "f32");
    for (let start = 0; start < N; start += B) {
      const kb = tl.load(k + tl.expandDims(start + rm, 1) * S + tl.expandDims(rd, 0), tl.expandDims(start + rm, 1) < N, 0.0);
      const s = tl.dot(qb, tl.trans(kb));
      const p = tl.cast(s * 0.125, "f16");
      const vb = tl.load(v + tl.expandDims(start + rm, 1) * S + tl.expandDims(rd, 0), tl.expandDims(start + rm, 1) < N, 0.0);
      acc = tl.dot(p, vb, acc * 0.5);
    }
    tl.store(o + tl.expandDims(rm, 1) * D + tl.expandDims(rd, 0), acc);
  });`;
    const B = 32, D = 32, N = 75;
    const q = randomHalves(B * D), k = randomHalves(N * D), v = randomHalves(N * D);
    // float64 of the same steps; p is rounded to a half as the kernel rounds it.
    const acc = new Float64Array(B * D);
    for (let start = 0; start < N; start += B) {
      const s = new Float64Array(B * B);
      for (let i = 0; i < B; i++) for (let j = 0; j < B; j++) for (let d = 0; d < D; d++) s[i * B + j] += start + j < N ? q.values[i * D + d] * k.values[(start + j) * D + d] : 0;
      const p = Float64Array.from(s, (x) => f16FromBits(f16ToBits(Math.fround(x * 0.125))));
      for (let i = 0; i < B; i++) for (let d = 0; d < D; d++) {
        let sum = 0;
        for (let j = 0; j < B; j++) sum += start + j < N ? p[i * B + j] * v.values[(start + j) * D + d] : 0;
        acc[i * D + d] = acc[i * D + d] * 0.5 + sum;
      }
    }
    const { gpu, cpu, kernel } = await runBoth({
      source, constexprs: { B, D }, target: { ...EMULATED, workgroupSize: 128 }, grid: [1],
      args: { q: q.bits, k: k.bits, v: v.bits, o: poisoned(B * D), N, S: D }, outputs: ["o"], specialize,
    });
    // Both dots in the loop, which is peeled (by default where its dots multiply afresh: codegen/whole-trips.ts): each written twice.
    assert.equal((kernel.wgsl.match(/per subgroup \(emulated\)/g) ?? []).length, 4, "both dots on (emulated) matrices");
    assert.match(kernel.wgsl, /for \(; \w+ < \w+ && [^\n]*; \w+ = \w+ \+ 32i\) \{/, "the whole trips first");
    // K and V as vec4<f16> runs where specialised (known whole); element by element otherwise; never checked at run time.
    assert.equal(/let whole\d+ = [^;]*& 3\) == 0/.test(kernel.wgsl), false, "no run-time alignment test");
    assert.equal(/var<storage, read> b_k: array<vec4<f16>>/.test(kernel.wgsl), specialize, "K read as vec4<f16> only where specialised");
    // p's rounding to f16 can differ by one half-ulp where f32 sums differ in order: a looser bound.
    for (const [side, got] of [["gpu", gpu.o], ["cpu", cpu.o]] as const) assertClose(got, acc, `${side} o`, 2e-2, 1e-2);
  });
}

// Two trips a pass (unrollPairs, statements.ts): the K loop's trips paired, each in its own scope,
// the last odd trip after. Against float64 with an odd and an even trip count, runs of 8 (aligned,
// the default there) and rows not aligned with a partial last trip.
for (const [M, N, K] of [[80, 48, 96], [80, 48, 128], [37, 41, 103]] as const) {
  test(`loop plan, unrollPairs, ${M}×${K} by ${K}×${N}`, async () => {
    const wgsl = await checkMatmul(M, N, K, [64, 64, 32], { workgroupSize: 128, unrollPairs: true }, false, true);
    const pass = /for \(; (x\d+) \+ (\w+) < ([^;]+); \1 = \1 \+ \2\) \{/.exec(wgsl);
    assert.ok(pass, "two trips a pass");
    assert.equal(wgsl.split(`${pass[1]} = ${pass[1]} + ${pass[2]};`).length - 1, 1, "the counter stepped between them");
    assert.ok(wgsl.includes(`for (; ${pass[1]} < ${pass[3]}; ${pass[1]} = ${pass[1]} + ${pass[2]}) {`), "then the last odd trip");
  });
}

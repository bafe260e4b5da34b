// Half precision on the GPU (lavapipe offers shader-f16) and the CPU interpreter: an f16 vector
// add, and tl.dot of f16 blocks with an f32 accumulator, on the tiled path (halves staged as
// vec4<f16>) and the flat one, against float64 references of the f16-rounded inputs, at sizes
// that aren't multiples of the blocks, with fresh random inputs and NaN-poisoned outputs.

import { test } from "node:test";
import assert from "node:assert/strict";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth, type Overrides } from "../support/kernel-runner";
import { acquireGpu } from "../../src/runtime";
import { f16FromBits, f16ToBits } from "../../src/ir/f16";

/** Random halves as their bits, and the values they stand for. */
function randomHalves(n: number, lo = -2, hi = 2): { bits: Uint16Array; values: Float64Array } {
  const bits = Uint16Array.from(randomFloats(n, lo, hi), f16ToBits);
  return { bits, values: Float64Array.from(bits, f16FromBits) };
}

const NAN_F16 = 0x7e00;

const MATMUL = `${PRELUDE}export const mm = kernel(function mm(a: Ptr<f16>, b: Ptr<f16>, c: Ptr<f32>, M: i32, N: i32, K: i32, BM: constexpr, BN: constexpr, BK: constexpr) {
  const rm = tl.programId(0) * BM + tl.arange(0, BM);
  const rn = tl.programId(1) * BN + tl.arange(0, BN);
  const rk = tl.arange(0, BK);
  let acc = tl.zeros([BM, BN], "f32");
  for (let k = 0; k < K; k += BK) {
    const x = tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk + k, 0), tl.expandDims(rm, 1) < M && tl.expandDims(rk + k, 0) < K, 0.0);
    const y = tl.load(b + tl.expandDims(rk + k, 1) * N + tl.expandDims(rn, 0), tl.expandDims(rk + k, 1) < K && tl.expandDims(rn, 0) < N, 0.0);
    acc = tl.dot(x, y, acc);
  }
  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0), acc, tl.expandDims(rm, 1) < M && tl.expandDims(rn, 0) < N);
});`;

async function checkMatmul(M: number, N: number, K: number, blocks: [number, number, number], target: Overrides, specialize = false): Promise<string> {
  const [BM, BN, BK] = blocks;
  const a = randomHalves(M * K);
  const b = randomHalves(K * N);
  const want = new Float64Array(M * N);
  for (let i = 0; i < M; i++) for (let k = 0; k < K; k++) for (let j = 0; j < N; j++) want[i * N + j] += a.values[i * K + k] * b.values[k * N + j];
  const { gpu, cpu, kernel } = await runBoth({
    source: MATMUL, constexprs: { BM, BN, BK }, target,
    grid: [Math.ceil(M / BM), Math.ceil(N / BN)],
    args: { a: a.bits, b: b.bits, c: poisoned(M * N), M, N, K },
    outputs: ["c"],
    specialize,
  });
  // The operands stay halves in workgroup memory.
  assert.match(kernel.wgsl, /var<workgroup> sm_a_f16/);
  // Products of halves are exact in f32: what is left is f32 rounding over K additions.
  for (const [side, got] of [["gpu", gpu.c], ["cpu", cpu.c]] as const) assertClose(got, want, `${side} c`, 1e-5 * K, 1e-5);
  return kernel.wgsl;
}

// M, N and K multiples of 16 but not of the blocks, specialised as the harness does (K and N,
// the strides, known to be multiples of 16): each run of 4 halves is aligned and its mask the
// same for all 4, so the loads have no alignment check and no element-by-element fallback;
// the blocks at the edges are partly masked, run by run.
for (const form of ["block", "select", "tile"] as const) {
  test(`f16 tl.dot with sizes multiples of 16 (specialised), runs known whole, halfLoadForm "${form}", 80×48 by 48×112`, async () => {
    const wgsl = await checkMatmul(80, 112, 48, [64, 64, 32], { halfLoadForm: form }, true);
    assert.match(wgsl, /vec4<f16>/);
    assert.doesNotMatch(wgsl, /let whole\d+ = [^;]*& 3\) == 0/, "no alignment check at run time");
    if (form === "select") assert.match(wgsl, /b_a\[select\(0i, /);
    // "tile": the tile's corner against the bounds, scalars only (80 rows over 64: the second tile takes the other way).
    if (form === "tile") assert.match(wgsl, /let whole\d+ = \(v\d+ \+ 63i\) < v\d+/);
  });
}

test("f16 tl.dot with K not a multiple of 16 (specialised on the rest): A read element by element, no run-time alignment test, 80×45 by 45×112", async () => {
  const wgsl = await checkMatmul(80, 112, 45, [64, 64, 32], {}, true);
  assert.doesNotMatch(wgsl, /let whole\d+ = [^;]*& 3\) == 0/);
  assert.match(wgsl, /var<storage, read> b_a: array<f16>;/);
});

test("f16 × f16 tl.dot with an f32 accumulator, tiled layout (vec4<f16> staging), 70×45 by 45×83", async () => {
  await checkMatmul(70, 83, 45, [64, 64, 16], {});
});

test("f16 × f16 tl.dot with scalar f16 accesses (wideHalfAccesses false), 70×45 by 45×83", async () => {
  await checkMatmul(70, 83, 45, [64, 64, 16], { wideHalfAccesses: false });
});

test("f16 × f16 tl.dot on the flat layout, 33×50 by 50×17", async () => {
  await checkMatmul(33, 17, 50, [32, 32, 16], { tiledLayouts: false });
});

test("f16 vector add: halves in, halves out, NaN-poisoned output", async () => {
  assert.ok((await acquireGpu()).target.shaderF16, "lavapipe offers shader-f16");
  const n = 1000;
  const x = randomHalves(n);
  const y = randomHalves(n);
  const source = `${PRELUDE}export const add = kernel(function add(x: Ptr<f16>, y: Ptr<f16>, o: Ptr<f16>, n: i32, BLOCK: constexpr) {
  const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  tl.store(o + i, tl.load(x + i, i < n) + tl.load(y + i, i < n), i < n);
});`;
  const { gpu, cpu } = await runBoth({
    source, constexprs: { BLOCK: 256 }, grid: [Math.ceil(n / 256)],
    args: { x: x.bits, y: y.bits, o: new Uint16Array(n).fill(NAN_F16), n }, outputs: ["o"],
  });
  // f16 + f16 rounds once to the nearest half: exactly what f16ToBits of the float64 sum gives.
  const want = Uint16Array.from(x.values, (v, i) => f16ToBits(v + y.values[i]));
  assert.deepEqual(gpu.o, want);
  assert.deepEqual(cpu.o, want);
});

test("f16 vector add at n a multiple of 16 (specialised), other values where masked off: runs known whole", async () => {
  const n = 1008;
  const x = randomHalves(n);
  const y = randomHalves(n);
  const source = `${PRELUDE}export const add = kernel(function add(x: Ptr<f16>, y: Ptr<f16>, o: Ptr<f16>, n: i32, BLOCK: constexpr) {
  const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const a = tl.load(x + i, i < n, 2.5);
  const b = tl.load(y + i, i < n, 0.5);
  tl.store(o + i, a + b, i < n + 8);
});`;
  for (const form of ["block", "select", "tile"] as const) {
    const { gpu, cpu, kernel } = await runBoth({
      source, constexprs: { BLOCK: 256 }, grid: [Math.ceil((n + 8) / 256)], target: { halfLoadForm: form }, specialize: true,
      args: { x: x.bits, y: y.bits, o: new Uint16Array(n + 8).fill(NAN_F16), n }, outputs: ["o"],
    });
    assert.doesNotMatch(kernel.wgsl, /let whole\d+ = [^;]*& 3\) == 0/, `${form}: loads without alignment checks`);
    // The 8 elements past n read the loads' other values: 2.5 + 0.5.
    const want = Uint16Array.from({ length: n + 8 }, (_, i) => f16ToBits(i < n ? x.values[i] + y.values[i] : 3));
    assert.deepEqual(gpu.o, want, form);
    assert.deepEqual(cpu.o, want, form);
  }
});

// halfLoadForm "tile" on the mask forms its test reads (mma-store.ts tileInside): `n > x` mirrored,
// a scalar condition (here `lim > 0`), a bound that cuts a block; and one it leaves to the per-run
// test (`||`). (`x <= n - 1` is read too, but contiguity.ts does not know its runs whole: no tile
// test is reached there.) A 2-D block of f16 rows copied out, 48 × 80 in blocks of 32 × 32: edge tiles along both
// axes; the other values mark what was masked off. Each against the CPU interpreter and by hand.
const TILE_COPY = (mask: string) => `${PRELUDE}export const copy = kernel(function copy(x: Ptr<f16>, o: Ptr<f16>, M: i32, N: i32, lim: i32, BM: constexpr, BN: constexpr) {
  const rows = tl.expandDims(tl.programId(0) * BM + tl.arange(0, BM), 1);
  const cols = tl.expandDims(tl.programId(1) * BN + tl.arange(0, BN), 0);
  const v = tl.load(x + rows * N + cols, ${mask}, 7.0);
  tl.store(o + rows * N + cols, v, rows < M && cols < N);
});`;
for (const [name, mask, tiled, inside] of [
  ["mirrored, with a scalar condition", "M > rows && N > cols && lim > 0", true, (r: number, c: number) => r < 48 && c < 80],
  ["a column bound inside a block", "rows < M && cols < lim", true, (r: number, c: number) => r < 48 && c < 48],
  ["an `||` (no tile test)", "(rows < 16 || cols < 16) && rows < M && cols < N", false, (r: number, c: number) => (r < 16 || c < 16) && r < 48 && c < 80],
] as const) {
  test(`f16 load, halfLoadForm "tile": ${name}, 48×80 in 32×32 blocks`, async () => {
    const [M, N] = [48, 80];
    const x = randomHalves(M * N);
    // lim 48 for the column bound (a multiple of 16, not of the block); 16 otherwise.
    const lim = name.startsWith("a column") ? 48 : 16;
    const { gpu, cpu, kernel } = await runBoth({
      source: TILE_COPY(mask), constexprs: { BM: 32, BN: 32 }, target: { halfLoadForm: "tile" }, specialize: true,
      grid: [Math.ceil(M / 32), Math.ceil(N / 32)], args: { x: x.bits, o: new Uint16Array(M * N).fill(NAN_F16), M, N, lim }, outputs: ["o"],
    });
    const want = Uint16Array.from({ length: M * N }, (_, i) => (inside(Math.floor(i / N), i % N) ? x.bits[i] : f16ToBits(7)));
    assert.deepEqual(gpu.o, want, "gpu");
    assert.deepEqual(cpu.o, want, "cpu");
    assert.equal(/let whole\d+ = [^;]*(<|<=) [^;]*;/.test(kernel.wgsl) && !/let whole\d+ = v\d+_0 &/.test(kernel.wgsl), tiled, kernel.wgsl.match(/let whole.*/g)?.join("\n"));
  });
}

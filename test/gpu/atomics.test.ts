// tl.atomic*, run on the GPU and on the CPU interpreter with fresh random inputs at sizes that
// aren't multiples of the block. Programs run in no fixed order on the GPU (and one after another
// in the interpreter), so every check is order-independent: final contents that any order gives
// (counts, sums, max/min, bit sets), or properties of the old values an exchange returns (they and
// the final value form a permutation; exactly one compare-and-swap wins per slot). Outputs that
// are written, not accumulated, start poisoned; a NaN never passes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { PRELUDE, assertClose, compileForGpu, poisoned, randomFloats, randomInts, runBoth, type HostArray, type Overrides } from "../support/kernel-runner";
import { f16FromBits, f16ToBits } from "../../src/ir/f16";

type Args = Record<string, HostArray | number>;

interface Case {
  name: string;
  params: string;
  body: string;
  block: number;
  n: number;
  args: (n: number) => Args;
  outputs: string[];
  /** The expected contents (order-independent), or a check of what came back. */
  reference?: (args: Record<string, any>, n: number) => Record<string, ArrayLike<number>>;
  check?: (out: Record<string, HostArray>, args: Record<string, any>, n: number, what: string) => void;
  grid?: (n: number, block: number) => number[];
  target?: Overrides;
  atol?: number;
  rtol?: number;
}

const offs = "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = offs < n;";
const BINS = 37;
const binsOf = (x: ArrayLike<number>, f: (bin: number, v: number) => void) => Array.from(x).forEach((v) => f(v % BINS, v));

/** `values` holds each of 0..count-1 exactly once. */
function assertPermutation(values: number[], count: number, what: string): void {
  const sorted = [...values].sort((a, b) => a - b);
  assert.deepEqual(sorted, Array.from({ length: count }, (_, i) => i), `${what}: the old values and the final value are not a permutation of 0..${count - 1}`);
}

/** Floats in Triton's atomic order: by value, -0.0 below +0.0 (no NaNs here). */
const below = (a: number, b: number) => a < b || (a === 0 && b === 0 && Object.is(a, -0) && !Object.is(b, -0));
const sameFloat = (a: number, b: number) => Object.is(a, b);

/** Ties (multiples of 1/8), negatives, and every 4th element a +0.0 or -0.0. */
function tiedFloats(n: number): Float32Array {
  return Float32Array.from({ length: n }, (_, i) => (i % 4 === 3 ? (Math.random() < 0.5 ? -0 : 0) : Math.round((Math.random() * 2 - 1) * 40) / 8));
}

/**
 * f32 atomicMax/atomicMin of `x` into the 4 slots i % 4 (started at `init`): each slot holds the extreme of its
 * values and `init` bit for bit, and each lane's old value is one the slot held: `init` or another lane's value,
 * not beyond the final one, and some lane holding the final value saw something before it.
 */
function checkFloatExtremes(fn: "max" | "min", x: Float32Array, init: number[], final: ArrayLike<number>, olds: ArrayLike<number>, what: string): void {
  const beyond = (a: number, b: number) => (fn === "max" ? below(b, a) : below(a, b));
  for (let s = 0; s < 4; s++) {
    const lanes = Array.from({ length: x.length }, (_, i) => i).filter((i) => i % 4 === s);
    const want = lanes.reduce((e, i) => (beyond(x[i], e) ? x[i] : e), init[s]);
    assert.ok(sameFloat(final[s], want), `${what}: atomic${fn} slot ${s} holds ${Object.is(final[s], -0) ? "-0" : final[s]}, expected ${Object.is(want, -0) ? "-0" : want}`);
    for (const i of lanes) {
      const old = olds[i];
      assert.ok(sameFloat(old, init[s]) || lanes.some((j) => j !== i && sameFloat(x[j], old)), `${what}: atomic${fn} lane ${i} saw ${old}, which slot ${s} never held`);
      assert.ok(!beyond(old, want), `${what}: atomic${fn} lane ${i} saw ${old}, beyond the final ${want}`);
    }
    if (!sameFloat(want, init[s])) assert.ok(lanes.some((i) => sameFloat(x[i], want) && beyond(want, olds[i])), `${what}: atomic${fn} slot ${s}: no lane holding ${want} stored it`);
  }
}

const XCHG_INIT = [0.5, -0, NaN, 3, -4];
// Slots 0, 1, 3 (NaN vs NaN) and 5 swap once; 2 (-0.0 vs +0.0) and 4 (+0.0 vs -0.0) never do.
const CAS_INIT = [0, 0, -0, NaN, 0, 1.5];
const CAS_CMP = [0, 0, 0, NaN, -0, 1.5];
const f32Bits = (v: number) => new Uint32Array(Float32Array.of(v).buffer)[0];
const sameBits = (a: number, b: number) => f32Bits(a) === f32Bits(b);

/**
 * f32 atomicXchg: per slot, the lanes' old values and the final contents are the slot's first contents and
 * the lanes' values, bit for bit. atomicCas: where cmp's bits are the slot's, exactly one lane saw them and
 * put its value, every other lane saw that value; elsewhere every lane saw the slot as it was, unchanged.
 * Past n the old values stay poisoned (masked lanes).
 */
function checkXchgCas(x: Float32Array, out: Record<string, HostArray>, n: number, what: string): void {
  const key = (v: number) => f32Bits(v).toString(16);
  for (let s = 0; s < 5; s++) {
    const lanes = Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 === s);
    const seen = [...lanes.map((i) => key(out.xOld[i])), key(out.swapped[s])].sort();
    const given = [...lanes.map((i) => key(x[i])), key(XCHG_INIT[s])].sort();
    assert.deepEqual(seen, given, `${what}: atomicXchg slot ${s}: old values and final contents are not the values exchanged`);
  }
  for (let s = 0; s < 6; s++) {
    const lanes = Array.from({ length: n }, (_, i) => i).filter((i) => i % 6 === s);
    if (!sameBits(CAS_INIT[s], CAS_CMP[s])) {
      assert.ok(sameBits(out.claims[s], CAS_INIT[s]), `${what}: atomicCas slot ${s} changed (cmp's bits differ)`);
      for (const i of lanes) assert.ok(sameBits(out.cOld[i], CAS_INIT[s]), `${what}: atomicCas lane ${i} saw ${out.cOld[i]}`);
      continue;
    }
    const winners = lanes.filter((i) => sameBits(out.cOld[i], CAS_INIT[s]));
    assert.equal(winners.length, 1, `${what}: atomicCas slot ${s}: ${winners.length} lanes saw its first contents`);
    assert.ok(sameBits(out.claims[s], x[winners[0]]), `${what}: atomicCas slot ${s} holds ${out.claims[s]}, not the winner's ${x[winners[0]]}`);
    for (const i of lanes) if (i !== winners[0]) assert.ok(sameBits(out.cOld[i], x[winners[0]]), `${what}: atomicCas lane ${i} saw ${out.cOld[i]}`);
  }
  for (let i = n; i < n + 3; i++) assert.ok(out.xOld[i] === 7.25 && out.cOld[i] === 7.25, `${what}: masked lane ${i} written`);
}

const HI = [-Infinity, -0, 2, -Infinity];
const LO = [Infinity, 0, -2, Infinity];

const cases: Case[] = [
  {
    name: "histogram: 1000 values into 37 bins with a masked tl.atomicAdd",
    params: "x: Ptr<i32>, hist: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\ntl.atomicAdd(hist + v % ${BINS}, 1, mask);`,
    block: 128, n: 1000,
    args: (n) => ({ x: randomInts(n, 0, 100000), hist: new Int32Array(BINS), n }),
    outputs: ["hist"],
    reference: ({ x }) => { const h = new Int32Array(BINS); binsOf(x, (b) => h[b]++); return { hist: h }; },
  },
  {
    name: "global integer sum: one scalar atomicAdd per program, and every lane adding at one address",
    params: "x: Ptr<i32>, total: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\ntl.atomicAdd(total, tl.sum(v));\ntl.atomicAdd(total + 1 + offs * 0, v, mask);`,
    block: 256, n: 3001,
    args: (n) => ({ x: randomInts(n, -100000, 100000), total: Int32Array.of(7, -5), n }),
    outputs: ["total"],
    reference: ({ x }) => { const s = Array.from(x as Int32Array).reduce((a, b) => a + b, 0); return { total: [7 + s, -5 + s] }; },
  },
  {
    name: "atomicMax and atomicMin per bin (i32, negative values) and of u32",
    params: "x: Ptr<i32>, u: Ptr<u32>, hi: Ptr<i32>, lo: Ptr<i32>, uhi: Ptr<u32>, ulo: Ptr<u32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\nconst bin = (v + 1000000) % ${BINS};\ntl.atomicMax(hi + bin, v, mask);\ntl.atomicMin(lo + bin, v, mask);\nconst w = tl.load(u + offs, mask);\ntl.atomicMax(uhi, tl.max(tl.where(mask, w, 0)));\ntl.atomicMin(ulo + offs % 2, w, mask);`,
    block: 64, n: 999,
    args: (n) => ({
      x: randomInts(n, -500000, 500000), u: Uint32Array.from(randomInts(n, 0, 2 ** 30), (v, i) => (i % 3 === 0 ? v * 3 : v) >>> 0),
      hi: new Int32Array(BINS).fill(-2147483648), lo: new Int32Array(BINS).fill(2147483647), uhi: new Uint32Array(1), ulo: new Uint32Array(2).fill(0xffffffff), n,
    }),
    outputs: ["hi", "lo", "uhi", "ulo"],
    reference: ({ x, u, hi, lo }) => {
      const h = Int32Array.from(hi as Int32Array), l = Int32Array.from(lo as Int32Array);
      for (const v of x as Int32Array) { const b = (v + 1000000) % BINS; h[b] = Math.max(h[b], v); l[b] = Math.min(l[b], v); }
      const us = Array.from(u as Uint32Array);
      return { hi: h, lo: l, uhi: [Math.max(...us)], ulo: [0, 1].map((p) => Math.min(...us.filter((_, i) => i % 2 === p))) };
    },
  },
  {
    name: "atomicOr, atomicAnd and atomicXor into bit sets per bin (i32 and u32)",
    params: "x: Ptr<i32>, ors: Ptr<u32>, ands: Ptr<i32>, xors: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\nconst bin = v % ${BINS};\nconst bit = tl.cast(1, "u32") << tl.cast(v % 32, "u32");\ntl.atomicOr(ors + bin, bit, mask);\ntl.atomicAnd(ands + bin, ~(1 << (v % 31)), mask);\ntl.atomicXor(xors + bin, v, mask);`,
    block: 128, n: 517,
    args: (n) => ({ x: randomInts(n, 0, 1 << 20), ors: new Uint32Array(BINS), ands: new Int32Array(BINS).fill(-1), xors: randomInts(BINS, -1000, 1000), n }),
    outputs: ["ors", "ands", "xors"],
    reference: ({ x, xors }) => {
      const o = new Uint32Array(BINS), a = new Int32Array(BINS).fill(-1), xo = Int32Array.from(xors as Int32Array);
      binsOf(x, (b, v) => { o[b] |= 1 << (v % 32); a[b] &= ~(1 << (v % 31)); xo[b] ^= v; });
      return { ors: o, ands: a, xors: xo };
    },
  },
  {
    name: "atomicXchg of a block at one address: the old values and the final value are a permutation",
    params: "slot: Ptr<i32>, olds: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst old = tl.atomicXchg(slot + offs * 0, offs + 1, mask);\ntl.store(olds + offs, old, mask);`,
    block: 256, n: 1000,
    args: (n) => ({ slot: new Int32Array(1), olds: poisoned(n, "i32"), n }),
    outputs: ["slot", "olds"],
    check: (out, _args, n, what) => assertPermutation([...out.olds, out.slot[0]], n + 1, what),
  },
  {
    name: "atomicXchg of a replicated block (16 elements, 64 invocations): old values handed to every copy",
    params: "slot: Ptr<i32>, olds: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst old = tl.atomicXchg(slot + offs % 3, offs + 3, mask);\ntl.store(olds + offs, old, mask);`,
    block: 16, n: 201, target: { workgroupSize: 64 },
    args: (n) => ({ slot: Int32Array.of(0, 1, 2), olds: poisoned(n, "i32"), n }),
    outputs: ["slot", "olds"],
    check: (out, _args, n, what) => {
      for (let r = 0; r < 3; r++) {
        const chain = Array.from(out.olds).filter((_, i) => i % 3 === r).map((v) => (v - r) / 3);
        const lanes = Math.ceil((n - r) / 3);
        assertPermutation([...chain, (out.slot[r] - r) / 3], lanes + 1, `${what} slot ${r}`);
      }
    },
  },
  {
    name: "scalar atomicXchg per program (tutorial 05's lock release): old values and final value are a permutation",
    params: "slot: Ptr<i32>, olds: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: "const pid = tl.programId(0);\nconst old = tl.atomicXchg(slot, pid + 1);\ntl.store(olds + pid, old);",
    block: 1, n: 300, grid: (n) => [n],
    args: (n) => ({ slot: new Int32Array(1), olds: poisoned(n, "i32"), n }),
    outputs: ["slot", "olds"],
    check: (out, _args, n, what) => assertPermutation([...out.olds, out.slot[0]], n + 1, what),
  },
  {
    name: "atomicCas of a block: exactly one lane wins each slot, the others see the winner",
    params: "slots: Ptr<i32>, olds: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst old = tl.atomicCas(slots + offs % 5, 0, offs + 1, mask);\ntl.store(olds + offs, old, mask);`,
    block: 128, n: 700,
    args: (n) => ({ slots: new Int32Array(5), olds: poisoned(n, "i32"), n }),
    outputs: ["slots", "olds"],
    check: (out, _args, n, what) => {
      for (let s = 0; s < 5; s++) {
        const winner = out.slots[s];
        assert.ok(winner > 0 && (winner - 1) % 5 === s, `${what}: slot ${s} holds ${winner}, not a lane of it`);
        for (let i = s; i < n; i += 5) assert.equal(out.olds[i], i + 1 === winner ? 0 : winner, `${what}: lane ${i} of slot ${s}`);
      }
    },
  },
  {
    name: "scalar atomicCas per program (tutorial 05's lock acquire): one program takes it, all see the same old value",
    params: "lock: Ptr<i32>, olds: Ptr<i32>, n: i32, BLOCK: constexpr",
    body: "const pid = tl.programId(0);\nconst old = tl.atomicCas(lock, 0, pid + 1);\ntl.store(olds + pid * BLOCK + tl.arange(0, BLOCK), old + tl.zeros([BLOCK], \"i32\"));",
    block: 64, n: 77, grid: (n) => [n],
    args: (n) => ({ lock: new Int32Array(1), olds: poisoned(n * 64, "i32"), n }),
    outputs: ["lock", "olds"],
    check: (out, _args, n, what) => {
      const winner = out.lock[0];
      assert.ok(winner >= 1 && winner <= n, `${what}: the lock holds ${winner}`);
      for (let p = 0; p < n; p++) {
        for (let k = 0; k < 64; k++) assert.equal(out.olds[p * 64 + k], p + 1 === winner ? 0 : winner, `${what}: program ${p}, element ${k}`);
      }
    },
  },
  {
    name: "float atomicAdd (a compare-and-swap loop on the bits): 100 values into 3 sums",
    params: "x: Ptr<f32>, sums: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\ntl.atomicAdd(sums + offs % 3, v, mask);\ntl.atomicAdd(sums + 3, tl.sum(v));`,
    block: 32, n: 100,
    args: (n) => ({ x: randomFloats(n), sums: Float32Array.of(0.5, 0, -2, 0), n }),
    outputs: ["sums"],
    reference: ({ x }, n) => {
      const s = [0.5, 0, -2, 0];
      for (let i = 0; i < n; i++) { s[i % 3] += x[i]; s[3] += x[i]; }
      return { sums: s };
    },
    atol: 1e-5, rtol: 1e-5,
  },
  {
    // NOTES §81: Triton has atomic_xchg and atomic_cas on fp32 (semantic.py); the cas compares bits, as its cmpxchg.
    name: "float atomicXchg and atomicCas (bits compared: -0.0 is not +0.0, NaN matches NaN): 8 programs into 5 and 6 slots, old values",
    params: "x: Ptr<f32>, swapped: Ptr<f32>, claims: Ptr<f32>, cmps: Ptr<f32>, xOld: Ptr<f32>, cOld: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\ntl.store(xOld + offs, tl.atomicXchg(swapped + offs % 5, v, mask), mask);\nconst c = tl.load(cmps + offs % 6, mask);\ntl.store(cOld + offs, tl.atomicCas(claims + offs % 6, c, v, mask), mask);`,
    block: 128, n: 1001,
    args: (n) => ({
      x: randomFloats(n, 1, 2), swapped: Float32Array.from(XCHG_INIT), claims: Float32Array.from(CAS_INIT), cmps: Float32Array.from(CAS_CMP),
      xOld: Float32Array.from({ length: n + 3 }, () => 7.25), cOld: Float32Array.from({ length: n + 3 }, () => 7.25), n,
    }),
    outputs: ["swapped", "claims", "xOld", "cOld"],
    check: (out, { x }, n, what) => checkXchgCas(x, out, n, what),
  },
  {
    name: "float atomicMax/atomicMin (Triton's order of the bits: -0.0 below +0.0): 94 programs into 4 slots, old values, a scalar amax",
    params: "x: Ptr<f32>, hi: Ptr<f32>, lo: Ptr<f32>, amax: Ptr<f32>, amin: Ptr<f32>, hiOld: Ptr<f32>, loOld: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(x + offs, mask);\ntl.store(hiOld + offs, tl.atomicMax(hi + offs % 4, v, mask), mask);\ntl.store(loOld + offs, tl.atomicMin(lo + offs % 4, v, mask, "acq_rel", "gpu"), mask);\ntl.atomicMax(amax, tl.max(tl.abs(tl.where(mask, v, 0))));\ntl.atomicMin(amin + offs * 0, v, mask);`,
    block: 32, n: 3001,
    args: (n) => ({
      x: tiedFloats(n), hi: Float32Array.from(HI), lo: Float32Array.from(LO), amax: Float32Array.of(0), amin: Float32Array.of(Infinity),
      hiOld: poisoned(n, "f32"), loOld: poisoned(n, "f32"), n,
    }),
    outputs: ["hi", "lo", "amax", "amin", "hiOld", "loOld"],
    check: (out, { x }, _n, what) => {
      checkFloatExtremes("max", x, HI, out.hi, out.hiOld, what);
      checkFloatExtremes("min", x, LO, out.lo, out.loOld, what);
      const values = Array.from(x as Float32Array);
      assert.equal(out.amax[0], Math.max(...values.map(Math.abs)), `${what}: amax`);
      assert.ok(sameFloat(out.amin[0], Math.min(...values)), `${what}: amin`);
    },
  },
  {
    name: "a buffer both loaded, stored and updated atomically (i32 and f32: atomicLoad/atomicStore)",
    params: "buf: Ptr<i32>, fbuf: Ptr<f32>, n: i32, BLOCK: constexpr",
    body: `${offs}\nconst v = tl.load(buf + offs, mask);\ntl.store(buf + offs, v * 2, mask);\ntl.atomicAdd(buf + n, v, mask);\nconst f = tl.load(fbuf + offs, mask);\ntl.store(fbuf + offs, f * 0.5, mask);\ntl.atomicAdd(fbuf + n, f, mask);`,
    block: 256, n: 1030,
    args: (n) => ({ buf: randomInts(n + 1, -1000, 1000), fbuf: randomFloats(n + 1), n }),
    outputs: ["buf", "fbuf"],
    reference: ({ buf, fbuf }, n) => {
      const b = Array.from(buf as Int32Array, (v, i) => (i < n ? v * 2 : v));
      const f = Array.from(fbuf as Float32Array, (v, i) => (i < n ? v * 0.5 : v));
      for (let i = 0; i < n; i++) { b[n] += buf[i]; f[n] += fbuf[i]; }
      return { buf: b, fbuf: f };
    },
    atol: 1e-3, rtol: 1e-5,
  },
];

for (const c of cases) {
  test(`GPU and CPU: ${c.name}`, async () => {
    const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n`;
    const args = c.args(c.n);
    const inputs = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, typeof v === "number" ? v : v.slice()]));
    const grid = c.grid ? c.grid(c.n, c.block) : [Math.ceil(c.n / c.block)];
    const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: c.block }, grid, args, outputs: c.outputs, ...(c.target ? { target: c.target } : {}) });
    const expected = c.reference?.(inputs, c.n);
    for (const [backend, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
      if (c.check) c.check(out, inputs, c.n, backend);
      for (const name of expected ? c.outputs : []) assertClose(out[name], expected![name], `${backend} ${name}`, c.atol, c.rtol);
    }
  });
}

// Ptr<f16> (NOTES §90): Triton has atomic_add and atomic_cas on fp16 (test_core.py's test_atomic_rmw …); WGSL has no
// 16-bit atomics, so the buffer is packed 2 to an atomic<u32> word, as a bf16's, and each is a compare-and-swap loop
// on the word. Neighbouring lanes add into the two halves of one word at once (slots i % 37); the values are positive
// multiples of 1/8, so every partial sum is exact in f16 and a slot's old values, sorted, are its chain of partial
// sums (each the one before plus the lane that saw it). The cas claims slots i % 5 from +0.0: one winner each, every
// other lane sees the winner's value; the -0.0 slot is never claimed (bits compared). Lanes past n touch nothing.
test("GPU and CPU: tl.atomicAdd and tl.atomicCas on Ptr<f16>, lanes racing on both halves of shared words, old values, masked lanes", async () => {
  const SLOTS = 37;
  const source = `${PRELUDE}export const k = kernel(function k(x: Ptr<f16>, sums: Ptr<f16>, sumOld: Ptr<f16>, claims: Ptr<f16>, casOld: Ptr<f16>, n: i32, BLOCK: constexpr) {
${offs}
const v = tl.load(x + offs, mask);
tl.store(sumOld + offs, tl.atomicAdd(sums + offs % ${SLOTS}, v, mask), mask);
tl.store(casOld + offs, tl.atomicCas(claims + offs % 5, tl.zeros([BLOCK], "f16"), v, mask), mask);
});\n`;
  const kernel = await compileForGpu(source, { BLOCK: 128 });
  assert.match(kernel.wgsl, /var<storage, read_write> b_sums: array<atomic<u32>>;/);
  assert.match(kernel.wgsl, /atomicCompareExchangeWeak\(&b_sums\[\(\w+\) >> 1u\], \w+, insertBits\(\w+, bitcast<u32>\(vec2<f16>\(\(bitcast<vec2<f16>>/);
  const n = 1001;
  const x = Uint16Array.from({ length: n + 3 }, () => f16ToBits((1 + Math.floor(Math.random() * 31)) / 8));
  const claimsInit = Uint16Array.from([0, 0, 0x8000, 0, f16ToBits(1.5)]);
  const POISON = 0x7e01;
  const { gpu, cpu } = await runBoth({
    source, constexprs: { BLOCK: 128 }, grid: [Math.ceil(n / 128)],
    args: { x, sums: new Uint16Array(SLOTS + 1), sumOld: new Uint16Array(n + 3).fill(POISON), claims: claimsInit.slice(), casOld: new Uint16Array(n + 3).fill(POISON), n },
    outputs: ["sums", "sumOld", "claims", "casOld"],
  });
  for (const [what, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    const value = (bits: number) => f16FromBits(bits);
    for (let s = 0; s < SLOTS; s++) {
      const lanes = Array.from({ length: n }, (_, i) => i).filter((i) => i % SLOTS === s).sort((a, b) => value(out.sumOld[a]) - value(out.sumOld[b]));
      let sum = 0;
      for (const i of lanes) {
        assert.equal(value(out.sumOld[i]), sum, `${what}: slot ${s}, lane ${i}'s old value`);
        sum += value(x[i]);
      }
      assert.equal(value(out.sums[s]), sum, `${what}: slot ${s}`);
    }
    assert.equal(out.sums[SLOTS], 0, `${what}: the last word's other half`);
    for (let s = 0; s < 5; s++) {
      const lanes = Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 === s);
      if (s === 2 || s === 4) {
        assert.equal(out.claims[s], claimsInit[s], `${what}: cas slot ${s} changed`);
        for (const i of lanes) assert.equal(out.casOld[i], claimsInit[s], `${what}: cas lane ${i}`);
        continue;
      }
      const winners = lanes.filter((i) => out.casOld[i] === 0);
      assert.equal(winners.length, 1, `${what}: cas slot ${s}: ${winners.length} winners`);
      assert.equal(out.claims[s], x[winners[0]], `${what}: cas slot ${s}`);
      for (const i of lanes) if (i !== winners[0]) assert.equal(out.casOld[i], x[winners[0]], `${what}: cas lane ${i}`);
    }
    for (let i = n; i < n + 3; i++) assert.ok(out.sumOld[i] === POISON && out.casOld[i] === POISON, `${what}: masked lane ${i} written`);
  }
});

// bf16 (Ptr<bf16>, torch.bfloat16; codegen/bytes.ts, codegen/bf16.ts, semantics/bf16-ops.ts) on the GPU (lavapipe
// on CI) and the interpreter: test/fixtures/bf16.kernel.ts's runs from poisoned outputs, exact where each op's
// rounding is the reference's; the words two programs share; aligned runs stored whole; the WGSL's form.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runJson } from "../support/run-in-process";
import { compileForGpu, runBoth } from "../support/kernel-runner";
import { bf16Argument, bf16FromBits, bf16ToBits, roundBf16 } from "../../src/ir/bf16";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const FIXTURE = "test/fixtures/bf16.kernel.ts";

for (const cpu of [false, true]) {
  test(`bf16 buffers: sums rounded per op, stored at an odd offset by programs sharing words, an f32 product of bf16s, where/maximum/exp/zeros/full/sum match their references (${cpu ? "--cpu" : "the GPU, instrumented"})`, async () => {
    const { code, report } = await runJson(FIXTURE, { cpu, reps: 0, sweep: true });
    assert.deepEqual(report.diagnostics, []);
    assert.equal(code, 0);
    assert.deepEqual(report.runs.map((r: any) => `${r.name} ${r.size}`), ["shiftedAddRun 1001", "shiftedAddRun 37", "mixedRun 333"]);
    for (const r of report.runs) assert.ok(r.correct, `${r.name} ${r.size}: ${JSON.stringify(r.firstMismatch)}`);
  });
}

test("a stored bf16 buffer is array<atomic<u32>>, 2 to a word; aligned unmasked runs of 4 go as 2 atomicStores; conversions round with kl_bf16; values match on the GPU and the CPU, shifted or not", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, bf16, f32, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<f32>, b_ptr: Ptr<bf16>, c_ptr: Ptr<bf16>, n: i32, shift: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK) + shift;
  const inside = offs < n;
  const x = tl.load(x_ptr + offs, inside);
  const b = tl.load(b_ptr + offs, inside);
  tl.store(c_ptr + offs, b * 3 + x.to(tl.bfloat16), inside);
});
`;
  const kernel = await compileForGpu(source, { BLOCK: 1024 });
  assert.match(kernel.wgsl, /var<storage, read> b_b_ptr: array<u32>;/);
  assert.match(kernel.wgsl, /var<storage, read_write> b_c_ptr: array<atomic<u32>>;/);
  assert.match(kernel.wgsl, /fn kl_bf16\(x: f32\) -> f32/);
  assert.match(kernel.wgsl, /atomicStore\(&b_c_ptr\[\(\w+\) >> 1u\], [^;]*; atomicStore\(&b_c_ptr\[\(\(\w+\) \+ 2\) >> 1u\]/);
  assert.match(kernel.wgsl, /atomicAnd\(&b_c_ptr\[\(\w+\) >> 1u\], ~\(0xffffu << \(u32\(\(\w+\) & 1\) \* 16u\)\)\); atomicOr\(/);
  const n = 2503;
  for (const shift of [0, 1]) {
    const x = Float32Array.from({ length: n }, () => (Math.random() - 0.5) * 100);
    const b = Uint16Array.from({ length: n }, () => bf16ToBits((Math.random() - 0.5) * 100));
    const { gpu, cpu } = await runBoth({
      source,
      constexprs: { BLOCK: 1024 },
      grid: [3],
      args: { x_ptr: x, b_ptr: b, c_ptr: new Uint16Array(n).fill(0x7fc1), n, shift },
      outputs: ["c_ptr"],
    });
    const want = Array.from(b, (bits, i) => (i < shift ? 0x7fc1 : bf16ToBits(roundBf16(bf16FromBits(bits) * 3) + roundBf16(x[i]))));
    for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) assert.deepEqual([...got.c_ptr], want, `${name}, shift ${shift}`);
  }
});

// tl.atomicCas through a Ptr<bf16> (NOTES §79; Triton's atomic_cas takes any 16-bit element): a compare-and-swap loop
// on the word holding the element. 7 programs race to claim the same slots (+0.0 → their mark) through windows
// starting at 1 + pid % 3, so the halves of a word are claimed by different programs at once; masked lanes (past n)
// touch nothing; exactly one program sees +0.0 come back per slot, the slot holds its mark, every other contender sees
// that mark; the sentinels sharing the first and last words come back as they were; the old values' masked lanes stay
// poisoned. A slot holding -0.0 is never claimed: the comparison is of the bits, as Triton's cmpxchg.
test("tl.atomicCas on Ptr<bf16>: programs racing on shared words, one winner per slot, the other halves kept, masked lanes untouched, -0.0 not +0.0; on the GPU and the CPU", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, bf16, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(s_ptr: Ptr<bf16>, old_ptr: Ptr<bf16>, mark_ptr: Ptr<bf16>, n: i32, BLOCK: constexpr) {
  const pid = tl.programId(0);
  const lanes = tl.arange(0, BLOCK);
  const offs = pid % 3 + lanes;
  const inside = offs < n;
  const mark = tl.load(mark_ptr + pid);
  const old = tl.atomicCas(s_ptr + 1 + offs, tl.zeros([BLOCK], "bf16"), tl.full([BLOCK], 0, "bf16") + mark, inside);
  tl.store(old_ptr + pid * BLOCK + lanes, old, inside);
});
`;
  const kernel = await compileForGpu(source, { BLOCK: 64 });
  assert.match(kernel.wgsl, /if \(extractBits\(\w+, \w+, 16u\) != \w+\) \{ break; \}/);
  assert.match(kernel.wgsl, /atomicCompareExchangeWeak\(&b_s_ptr\[\(\w+\) >> 1u\], \w+, insertBits\(\w+, \w+, \w+, 16u\)\)/);
  const P = 7;
  const BLOCK = 64;
  for (const n of [45, 64]) {
    const s = new Uint16Array(n + 2);
    s[0] = bf16ToBits(7.5);
    s[n + 1] = bf16ToBits(-2.25);
    const negZero = 1 + Math.floor(Math.random() * (n - 3));
    s[negZero] = 0x8000;
    const marks = Uint16Array.from({ length: P }, (_, p) => bf16ToBits(p + 1 + Math.floor(Math.random() * 8) * 8));
    const { gpu, cpu } = await runBoth({
      source,
      constexprs: { BLOCK },
      grid: [P],
      args: { s_ptr: s, old_ptr: new Uint16Array(P * BLOCK).fill(0x7fc1), mark_ptr: marks, n },
      outputs: ["s_ptr", "old_ptr"],
    });
    for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
      const slots = got.s_ptr;
      const old = got.old_ptr;
      const where = `${name}, n ${n}`;
      assert.equal(slots[0], s[0], `${where}: the first word's other half`);
      assert.equal(slots[n + 1], s[n + 1], `${where}: the last word's other half (a masked lane's slot)`);
      assert.equal(slots[negZero], 0x8000, `${where}: -0.0 is not +0.0`);
      for (let j = 1; j <= n; j++) {
        const contenders = [...Array(P).keys()].filter((p) => 1 + (p % 3) <= j && j < 1 + (p % 3) + BLOCK && j - 1 < n);
        const seen = contenders.map((p) => old[p * BLOCK + j - 1 - (p % 3)]);
        if (j === negZero) {
          assert.ok(seen.every((b) => b === 0x8000), `${where}: slot ${j} ${seen}`);
          continue;
        }
        const winners = contenders.filter((_, i) => seen[i] === 0);
        assert.equal(winners.length, 1, `${where}: slot ${j} saw ${seen}`);
        assert.equal(slots[j], marks[winners[0]], `${where}: slot ${j}`);
        contenders.forEach((p, i) => p === winners[0] || assert.equal(seen[i], marks[winners[0]], `${where}: slot ${j}, program ${p}`));
      }
      for (let p = 0; p < P; p++) {
        for (let lane = 0; lane < BLOCK; lane++) if ((p % 3) + lane >= n) assert.equal(old[p * BLOCK + lane], 0x7fc1, `${where}: program ${p}'s masked lane ${lane}`);
      }
    }
  }
});

// A bf16 scalar parameter (NOTES §79): Triton's `s: tl.bfloat16` (a launch's number narrowed to f32, then its top 16
// bits kept: driver.py pack_bf16, truncation, not rounding to nearest). s * x of bf16s is bf16 (rounded), s * w with an
// f32 block f32; fresh random scalars chosen where truncating and rounding differ, 1001 elements off the block, poisoned.
test("a bf16 scalar parameter: truncated to its top 16 bits as Triton's launcher packs it, bf16 with bf16 blocks and f32 with f32 ones; on the GPU and the CPU", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, bf16, f32, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<bf16>, w_ptr: Ptr<f32>, y_ptr: Ptr<bf16>, z_ptr: Ptr<f32>, s: bf16, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const inside = offs < n;
  const x = tl.load(x_ptr + offs, inside);
  const w = tl.load(w_ptr + offs, inside);
  tl.store(y_ptr + offs, x * s + s, inside);
  tl.store(z_ptr + offs, w * s, inside);
});
`;
  const kernel = await compileForGpu(source, { BLOCK: 256 });
  assert.match(kernel.wgsl, /bitcast<f32>\(bitcast<u32>\(params\.s_s\) & 0xffff0000u\)/);
  const n = 1001;
  for (let trial = 0; trial < 3; trial++) {
    // A value whose f32 has its low half above 0x8000: rounding would carry, truncating doesn't.
    let s = 0;
    do s = (Math.random() - 0.5) * 20;
    while ((new Uint32Array(new Float32Array([s]).buffer)[0] & 0xffff) <= 0x8000);
    const truncated = bf16Argument(s);
    assert.notEqual(truncated, roundBf16(s));
    const x = Uint16Array.from({ length: n }, () => bf16ToBits((Math.random() - 0.5) * 8));
    const w = Float32Array.from({ length: n }, () => (Math.random() - 0.5) * 8);
    const { gpu, cpu } = await runBoth({
      source,
      constexprs: { BLOCK: 256 },
      grid: [4],
      args: { x_ptr: x, w_ptr: w, y_ptr: new Uint16Array(n + 7).fill(0x7fc1), z_ptr: new Float32Array(n + 7).fill(NaN), s, n },
      outputs: ["y_ptr", "z_ptr"],
    });
    const wantY = [...Array.from(x, (bits) => bf16ToBits(roundBf16(roundBf16(bf16FromBits(bits) * truncated) + truncated))), ...new Array(7).fill(0x7fc1)];
    const wantZ = [...Array.from(w, (v) => Math.fround(v * truncated)), ...new Array(7).fill(NaN)];
    for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
      assert.deepEqual([...got.y_ptr], wantY, `${name}: y, s = ${s}`);
      assert.deepEqual([...got.z_ptr], wantZ, `${name}: z, s = ${s}`);
    }
  }
});

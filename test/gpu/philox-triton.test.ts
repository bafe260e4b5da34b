// tl.philox, tl.uintToUniformFloat and tl.randint4x's full counter (issue 31 item 3), on the GPU
// (lavapipe in CI) and the CPU interpreter. The first test holds Triton's own words, measured with
// Triton 3.6.0 on an H200 (`tl.philox(seed, c0, 0, 0, 0)`, 10 rounds, as unsigned 32-bit r0..r3;
// docs/ENVIRONMENT.md §3): both back ends must give them bit for bit. The others check
// the parts those words don't reach (four counters, n_rounds, negative and i64 seeds, the float
// conversion) against ir/philox.ts, which the first test ties to Triton.

import { test } from "node:test";
import assert from "node:assert/strict";
import { assertClose, poisoned, runBoth, type HostArray } from "../support/kernel-runner";
import { philox, uniformFromU32 } from "../../src/ir/philox";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, i32, u32, i64, f32, constexpr } from "kernel-lab";\n';

/** Triton 3.6.0's `tl.philox(seed, c0, 0, 0, 0)` on the H200: seed, c0, then r0..r3 for c0 and c0 + 1. */
const TRITON_WORDS: { seed: number; c0: number; words: [number[], number[]] }[] = [
  { seed: 1234567, c0: 77, words: [[750412830, 2092302378, 2828701231, 4158804708], [2438367119, 1524283290, 904703773, 4106483742]] },
  { seed: 0, c0: 0, words: [[1713891541, 3781805453, 3159862348, 2600524760], [4175744164, 1555169499, 2980410603, 159317863]] },
  { seed: 42, c0: 1000, words: [[3354629496, 2923741036, 3115360699, 4096613964], [2484704854, 3349882593, 1771465211, 666457989]] },
];

function source(params: string, body: string): string {
  return `${PRELUDE}export const k = kernel(function k(${params}) {\n${body}\n});\n`;
}

const STORE4 = "tl.store(out + i * 4, r0, mask);\ntl.store(out + i * 4 + 1, r1, mask);\ntl.store(out + i * 4 + 2, r2, mask);\ntl.store(out + i * 4 + 3, r3, mask);";

for (const seedType of ["i32", "i64", "u32"] as const) {
  test(`tl.philox(seed, c0, 0, 0, 0) gives Triton 3.6's words bit for bit (seed ${seedType}${seedType === "i64" ? ", philox_seed.to(tl.int64) as FlagGems writes it" : ""})`, async () => {
    const seedExpr = seedType === "i64" ? 'tl.cast(philox_seed, "i64")' : "philox_seed";
    const body = `const i = tl.arange(0, 2);\nconst mask = i < 2;\nconst seed = ${seedExpr};\nconst [r0, r1, r2, r3] = tl.philox(seed, c0 + i, 0, 0, 0);\n${STORE4}`;
    for (const { seed, c0, words } of TRITON_WORDS) {
      const { gpu, cpu } = await runBoth({
        source: source(`out: Ptr<u32>, philox_seed: ${seedType === "u32" ? "u32" : "i32"}, c0: i32`, body),
        grid: [1],
        args: { out: poisoned(8, "u32"), philox_seed: seed, c0 },
        outputs: ["out"],
      });
      const want = words.flat();
      assert.deepEqual([...gpu.out], want, `GPU, seed ${seed}, c0 ${c0}`);
      assert.deepEqual([...cpu.out], want, `CPU, seed ${seed}, c0 ${c0}`);
    }
  });
}

test("tl.philox on four counters of random bits (i32 and u32 blocks, a scalar broadcast), negative seeds, n_rounds 10 and 7: Philox 4×32 bit for bit", async () => {
  const n = 1000;
  const block = 256;
  const words = (k: number) => Uint32Array.from({ length: n }, () => (Math.random() * 2 ** 32) >>> 0).map((x, i) => (k === 3 ? x : x ^ i));
  const [a, b, c] = [words(0), words(1), words(2)];
  for (const [seed, rounds] of [[-123456789, 10], [987654321, 7]] as const) {
    const keyword = rounds === 10 ? "" : `, { nRounds: ${rounds} }`;
    const body =
      `const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = i < n;\n` +
      `const c0 = tl.load(a + i, mask);\nconst c1 = tl.cast(tl.load(b + i, mask), "i32");\nconst c2 = tl.load(c + i, mask);\n` +
      `const [r0, r1, r2, r3] = tl.philox(seed, c0, c1, c2, c3${keyword});\n${STORE4}`;
    const { gpu, cpu } = await runBoth({
      source: source("a: Ptr<u32>, b: Ptr<u32>, c: Ptr<u32>, out: Ptr<u32>, n: i32, seed: i32, c3: u32, BLOCK: constexpr", body),
      constexprs: { BLOCK: block },
      grid: [Math.ceil(n / block)],
      args: { a, b, c, out: poisoned(4 * n, "u32"), n, seed, c3: 0xfedcba98 },
      outputs: ["out"],
    });
    const want = Array.from({ length: 4 * n }, (_, k) => philox(seed, a[k >> 2], b[k >> 2], c[k >> 2], 0xfedcba98, rounds)[k & 3]);
    assertClose(gpu.out, want, `GPU, seed ${seed}, ${rounds} rounds`);
    assertClose(cpu.out, want, `CPU, seed ${seed}, ${rounds} rounds`);
  }
});

test("tl.uintToUniformFloat is Triton's uint_to_uniform_float bit for bit, in [0, 1), at the edges (0, 2^31 - 1, 2^31, 2^32 - 1) and on Philox words", async () => {
  const edges = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffe, 0x40000000];
  const n = 513;
  const x = Uint32Array.from({ length: n }, (_, i) => (i < edges.length ? edges[i] : (Math.random() * 2 ** 32) >>> 0));
  const body = `const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = i < n;\nconst w = tl.load(x + i, mask);\ntl.store(out + i, tl.uintToUniformFloat(w), mask);\ntl.store(outSigned + i, tl.uintToUniformFloat(tl.cast(w, "i32")), mask);`;
  const { gpu, cpu } = await runBoth({
    source: source("x: Ptr<u32>, out: Ptr<f32>, outSigned: Ptr<f32>, n: i32, BLOCK: constexpr", body),
    constexprs: { BLOCK: 128 },
    grid: [Math.ceil(n / 128)],
    args: { x, out: poisoned(n), outSigned: poisoned(n), n },
    outputs: ["out", "outSigned"],
  });
  const want = Array.from(x, uniformFromU32);
  assert.equal(want[2], Math.fround(0x7fffffff * Math.fround(4.6566127342e-10)));
  for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assertClose(got.out, want, `${name} u32`);
    assertClose(got.outSigned, want, `${name} i32`);
    for (const u of got.out) assert.ok(u >= 0 && u < 1, `${name}: ${u} outside [0, 1)`);
  }
});

test("tl.randint4x of an i64 offset is Triton 3's full counter (low word, high word, 0, 0): a negative offset's high word is 0xffffffff", async () => {
  const n = 300;
  const seed = 31337;
  const body =
    `const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = i < n;\n` +
    `const off = tl.cast(i, "i64") * 7919 - 1000;\nconst [r0, r1, r2, r3] = tl.randint4x(seed, off);\n${STORE4}`;
  const { gpu, cpu } = await runBoth({
    source: source("out: Ptr<u32>, n: i32, seed: i32, BLOCK: constexpr", body),
    constexprs: { BLOCK: 64 },
    grid: [Math.ceil(n / 64)],
    args: { out: poisoned(4 * n, "u32") as HostArray, n, seed },
    outputs: ["out"],
  });
  const want = Array.from({ length: 4 * n }, (_, k) => {
    const off = (k >> 2) * 7919 - 1000;
    return philox(seed, off >>> 0, off < 0 ? 0xffffffff : 0, 0, 0)[k & 3];
  });
  assertClose(gpu.out, want, "GPU");
  assertClose(cpu.out, want, "CPU");
});

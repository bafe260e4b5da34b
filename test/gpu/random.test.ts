// tl.rand / randn / randint / randint4x, run on the GPU (lavapipe in CI) and on the CPU interpreter
// at sizes that are not multiples of the block, into poisoned outputs. The integer words must be
// Philox 4×32-10's bit for bit (ir/philox.ts, itself pinned to Random123's known answers in
// test/unit/philox.test.ts); uniform floats bit for bit; normals to 1e-5 (the GPU's log/cos/sqrt
// are not correctly rounded).

import { test } from "node:test";
import assert from "node:assert/strict";
import { PRELUDE, assertClose, poisoned, runBoth, type HostArray } from "../support/kernel-runner";
import { normalFromU32Pair, randint4x, uniformFromU32 } from "../../src/ir/philox";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const map = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

function source(params: string, body: string): string {
  return `${PRELUDE}export const k = kernel(function k(${params}) {\n${body}\n});\n`;
}

const OFFS = "const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = offs < n;";

async function run(params: string, body: string, n: number, block: number, args: Record<string, HostArray | number>, outputs: string[]) {
  return runBoth({ source: source(params, body), constexprs: { BLOCK: block }, grid: [Math.ceil(n / block)], args, outputs });
}

test("tl.randint with seed 0 at offsets 0.. is Philox's first word; offset 0 is Random123's known answer 6627e8d5", async () => {
  const n = 1000;
  const { gpu, cpu } = await run("out: Ptr<u32>, n: i32, BLOCK: constexpr", `${OFFS}\ntl.store(out + offs, tl.randint(0, offs), mask);`, n, 128, { out: poisoned(n, "u32"), n }, ["out"]);
  const want = map(n, (i) => randint4x(0, i)[0]);
  assert.equal(want[0], 0x6627e8d5);
  for (const [name, got] of [["GPU", gpu.out], ["CPU", cpu.out]] as const) {
    assert.equal(got[0], 0x6627e8d5, `${name} word 0 at offset 0`);
    assertClose(got, want, `${name} randint`);
  }
});

test("tl.randint4x's four words: seed 0 / offset 0 give 6627e8d5 e169c58d bc57ac4c 9b00dbd8; i32 seeds (negative too) and offsets over the whole range", async () => {
  const n = 777;
  for (const seed of [0, 123, -7]) {
    const body = `${OFFS}\nconst o = offs * -1640531535;\ntl.store(out + offs * 4, tl.randint4x(seed, o, 0), mask);\ntl.store(out + offs * 4 + 1, tl.randint4x(seed, o, 1), mask);\ntl.store(out + offs * 4 + 2, tl.randint4x(seed, o, 2), mask);\ntl.store(out + offs * 4 + 3, tl.randint4x(seed, o, 3), mask);`;
    const { gpu, cpu } = await run("out: Ptr<u32>, n: i32, seed: i32, BLOCK: constexpr", body, n, 64, { out: poisoned(4 * n, "u32"), n, seed }, ["out"]);
    const want = map(4 * n, (k) => randint4x(seed, Math.imul(k >> 2, -1640531535))[k & 3]);
    if (seed === 0) assert.deepEqual([...want.slice(0, 4)], [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
    assertClose(gpu.out, want, `GPU randint4x seed ${seed}`);
    assertClose(cpu.out, want, `CPU randint4x seed ${seed}`);
  }
});

test("a u32 seed is zero-extended (key high word 0) and u32 offsets are taken as they are", async () => {
  const n = 300;
  const seed = 0xdeadbeef;
  const body = `${OFFS}\nconst o = tl.cast(offs, "u32") * 2654435761;\ntl.store(out + offs, tl.randint(seed, o), mask);`;
  const { gpu, cpu } = await run("out: Ptr<u32>, n: i32, seed: u32, BLOCK: constexpr", body, n, 128, { out: poisoned(n, "u32"), n, seed }, ["out"]);
  const want = map(n, (i) => randint4x(seed, Math.imul(i, 2654435761) >>> 0)[0]);
  assertClose(gpu.out, want, "GPU");
  assertClose(cpu.out, want, "CPU");
});

test("tl.rand is Triton's uniform float of word 0, bit for bit, in [0, 1)", async () => {
  const n = 2049;
  const seed = 42;
  const { gpu, cpu } = await run("out: Ptr<f32>, n: i32, seed: i32, BLOCK: constexpr", `${OFFS}\ntl.store(out + offs, tl.rand(seed, offs), mask);`, n, 256, { out: poisoned(n), n, seed }, ["out"]);
  const want = map(n, (i) => uniformFromU32(randint4x(seed, i)[0]));
  for (const [name, got] of [["GPU", gpu.out], ["CPU", cpu.out]] as const) {
    assertClose(got, want, `${name} rand`);
    for (const u of got) assert.ok(u >= 0 && u < 1, `${name}: ${u} outside [0, 1)`);
  }
  const mean = want.reduce((a, b) => a + b, 0) / n;
  assert.ok(Math.abs(mean - 0.5) < 0.03, `mean ${mean}`);
});

test("tl.randn is Box–Muller on words 0 and 1 (to 1e-5, as test/gpu/philox-wgsl.test.ts), mean about 0 and variance about 1", async () => {
  const n = 4001;
  const seed = 9;
  const { gpu, cpu } = await run("out: Ptr<f32>, n: i32, seed: i32, BLOCK: constexpr", `${OFFS}\ntl.store(out + offs, tl.randn(seed, offs), mask);`, n, 512, { out: poisoned(n), n, seed }, ["out"]);
  const want = map(n, (i) => {
    const [w0, w1] = randint4x(seed, i);
    return normalFromU32Pair(w0, w1);
  });
  assertClose(gpu.out, want, "GPU randn", 1e-5);
  assertClose(cpu.out, want, "CPU randn");
  const mean = want.reduce((a, b) => a + b, 0) / n;
  const variance = want.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
  assert.ok(Math.abs(mean) < 0.06 && Math.abs(variance - 1) < 0.08, `mean ${mean}, variance ${variance}`);
});

test("scalar offsets: one number per program (tl.rand(seed, pid)) and a constant seed", async () => {
  const n = 37;
  const body = "const pid = tl.programId(0);\ntl.store(out + pid, tl.rand(5, pid) + tl.cast(tl.randint(5, pid) & 1, \"f32\"));";
  const { gpu, cpu } = await runBoth({ source: source("out: Ptr<f32>", body), grid: [n], args: { out: poisoned(n) }, outputs: ["out"] });
  const want = map(n, (i) => Math.fround(uniformFromU32(randint4x(5, i)[0]) + (randint4x(5, i)[0] & 1)));
  assertClose(gpu.out, want, "GPU");
  assertClose(cpu.out, want, "CPU");
});

// bf16 (Ptr<bf16>, torch.bfloat16; codegen/bytes.ts, codegen/bf16.ts, semantics/bf16-ops.ts) on the GPU (lavapipe
// on CI) and the interpreter: test/fixtures/bf16.kernel.ts's runs from poisoned outputs, exact where each op's
// rounding is the reference's; the words two programs share; aligned runs stored whole; the WGSL's form.

import { test } from "node:test";
import assert from "node:assert/strict";
import { runJson } from "../support/run-in-process";
import { compileForGpu, runBoth } from "../support/kernel-runner";
import { bf16FromBits, bf16ToBits, roundBf16 } from "../../src/ir/bf16";

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

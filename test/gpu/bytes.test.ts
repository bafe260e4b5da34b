// 8-bit elements (Ptr<bool>, Ptr<i8>, Ptr<u8>; codegen/bytes.ts) on the GPU (lavapipe on CI) and
// the interpreter: test/fixtures/bytes.kernel.ts's runs at every size, checked against their
// references from poisoned outputs, with the race and bounds checks of the instrumented launch
// and of --cpu, which count elements, not words: programs storing different bytes of one word
// are no race and lose no byte, two programs storing the same byte are (KL3104).

import { test } from "node:test";
import assert from "node:assert/strict";
import { runJson, runSourceJson } from "../support/run-in-process";
import { compileForGpu, runBoth } from "../support/kernel-runner";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const FIXTURE = "test/fixtures/bytes.kernel.ts";
const RUNS = ["keepMask 1", "keepMask 7", "keepMask 1001", "interleavedPrograms 13", "interleavedPrograms 1003", "signedBytes 5", "signedBytes 999", "twoProgramsOneWord 4", "maskThenApply 1003"];

for (const cpu of [false, true]) {
  test(`bool, int8 and uint8 buffers: masks and bytes stored by programs sharing words match their references at sizes not multiples of 4, no race reported (${cpu ? "--cpu" : "the GPU, instrumented"})`, async () => {
    const { code, report } = await runJson(FIXTURE, { cpu, reps: 0, sweep: true });
    assert.deepEqual(report.diagnostics, []);
    assert.equal(code, 0);
    assert.deepEqual(report.runs.map((r: any) => `${r.name} ${r.size}`), RUNS);
    for (const r of report.runs) assert.ok(r.correct && r.maxAbsDiff === 0, `${r.name} ${r.size}: ${JSON.stringify(r.firstMismatch)}`);
  });
}

const SAME_BYTE = `import { kernel, tl, defineRun, empty } from "kernel-lab";
import type { Ptr, bool, i32 } from "kernel-lab";
export const same = kernel(function same(out_ptr: Ptr<bool>, n: i32) {
  const offs = tl.programId(0) * 2 + tl.arange(0, 4);
  tl.store(out_ptr + offs, offs > 2, offs < n);
});
export const sameByte = defineRun({
  kernel: same, sizes: [8], grid: () => [3],
  args: (n) => ({ out_ptr: empty(n, "bool"), n }), outputs: ["out_ptr"],
  reference: () => ({ out_ptr: [0, 0, 0, 1, 1, 1, 1, 1] }),
});
`;

test("two programs storing the same byte of a Ptr<bool> race (KL3104 at the store), on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report } = await runSourceJson("same-byte.kernel.ts", SAME_BYTE, { cpu, reps: 0 });
    assert.deepEqual(report.diagnostics.map((d: any) => [d.code, d.line]), [["KL3104", 5]], JSON.stringify(report.diagnostics));
    assert.match(report.diagnostics[0].message, /both store out_ptr\[[23]\]/);
  }
});

const PAST_END = `import { kernel, tl, defineRun, empty } from "kernel-lab";
import type { Ptr, u8, i32 } from "kernel-lab";
export const past = kernel(function past(out_ptr: Ptr<u8>, n: i32) {
  const offs = tl.arange(0, 8);
  tl.store(out_ptr + offs, offs, offs <= n);
});
export const pastEnd = defineRun({
  kernel: past, sizes: [5], grid: () => [1],
  args: (n) => ({ out_ptr: empty(n, "u8"), n }), outputs: ["out_ptr"],
  reference: () => ({ out_ptr: [0, 1, 2, 3, 4] }),
});
`;

test("a byte past the end inside the last word (element 5 of 5) is out of bounds (KL3101 at the store), on the GPU and with --cpu", async () => {
  for (const cpu of [false, true]) {
    const { report } = await runSourceJson("past-end.kernel.ts", PAST_END, { cpu, reps: 0 });
    assert.deepEqual(report.diagnostics.map((d: any) => [d.code, d.line]), [["KL3101", 5]], JSON.stringify(report.diagnostics));
    assert.match(report.diagnostics[0].message, /out_ptr\[5\]/);
  }
});

test("a stored byte buffer is array<atomic<u32>> written with atomicAnd then atomicOr; a read-only one array<u32>; i8 loads sign-extend, u8 zero-extend", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, i8, u8, bool, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(a_ptr: Ptr<i8>, b_ptr: Ptr<u8>, m_ptr: Ptr<bool>, out_ptr: Ptr<i32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const inside = offs < n;
  const a = tl.load(a_ptr + offs, inside);
  const b = tl.load(b_ptr + offs, inside);
  tl.store(out_ptr + offs, a * 256 + b, inside);
  tl.store(m_ptr + offs, a < 0, inside);
});
`;
  const kernel = await compileForGpu(source, { BLOCK: 16 });
  assert.match(kernel.wgsl, /var<storage, read> b_a_ptr: array<u32>;/);
  assert.match(kernel.wgsl, /var<storage, read_write> b_m_ptr: array<atomic<u32>>;/);
  assert.match(kernel.wgsl, /atomicAnd\(&b_m_ptr\[[^;]*; atomicOr\(&b_m_ptr\[/);
  const n = 45;
  const a = Int8Array.from({ length: n }, () => Math.floor(Math.random() * 256) - 128);
  const b = Uint8Array.from({ length: n }, () => Math.floor(Math.random() * 256));
  const { gpu, cpu } = await runBoth({
    source,
    constexprs: { BLOCK: 16 },
    grid: [3],
    args: { a_ptr: a, b_ptr: b, m_ptr: new Uint8Array(n).fill(0xad), out_ptr: new Int32Array(n).fill(0x7fbadbad), n },
    outputs: ["out_ptr", "m_ptr"],
  });
  for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assert.deepEqual([...got.out_ptr], Array.from(a, (x, i) => x * 256 + b[i]), name);
    assert.deepEqual([...got.m_ptr], Array.from(a, (x) => (x < 0 ? 1 : 0)), name);
  }
});

test("runs of 4 bytes (blocks of 1024): an aligned, unmasked run is one word, loaded once and stored with one atomicStore; shifted runs, the tail and the words programs share go byte by byte", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, u8, bool, f32, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(x_ptr: Ptr<f32>, b_ptr: Ptr<u8>, m_ptr: Ptr<bool>, c_ptr: Ptr<u8>, n: i32, shift: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK) + shift;
  const inside = offs < n;
  const x = tl.load(x_ptr + offs, inside);
  const b = tl.load(b_ptr + offs, inside);
  tl.store(m_ptr + offs, x > 0, inside);
  tl.store(c_ptr + offs, b * 7 + 1, inside);
});
`;
  const kernel = await compileForGpu(source, { BLOCK: 1024 });
  assert.match(kernel.wgsl, /atomicStore\(&b_m_ptr\[\(\w+\) >> 2u\], select\(0u, 1u, \w+\) \| [^;]*<< 24u\)\);/);
  assert.match(kernel.wgsl, /let w = b_b_ptr\[/);
  const n = 2503;
  for (const shift of [0, 1, 2]) {
    const x = Float32Array.from({ length: n }, () => Math.random() - 0.5);
    const b = Uint8Array.from({ length: n }, () => Math.floor(Math.random() * 256));
    const { gpu, cpu } = await runBoth({
      source,
      constexprs: { BLOCK: 1024 },
      grid: [Math.ceil((n - shift) / 1024)],
      args: { x_ptr: x, b_ptr: b, m_ptr: new Uint8Array(n).fill(0xad), c_ptr: new Uint8Array(n).fill(0xad), n, shift },
      outputs: ["m_ptr", "c_ptr"],
    });
    for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
      assert.deepEqual([...got.m_ptr], Array.from(x, (v, i) => (i < shift ? 0xad : v > 0 ? 1 : 0)), `${name} shift ${shift}`);
      assert.deepEqual([...got.c_ptr], Array.from(b, (v, i) => (i < shift ? 0xad : (v * 7 + 1) & 0xff)), `${name} shift ${shift}`);
    }
  }
});

// Triton computes on int8 / uint8 in 8 bits: a uint8 shifted left wraps, `(q << 4) >> 4` keeps its low
// nibble (hqq's int4 unpacking), an int8 sum overflows to a negative, `-q` and `~q` of a uint8 stay in
// 0..255 (semantics/values.ts bytes). A constant outside the 8 bits (`a * 256`, above) is an i32.
// Against values computed here in 8-bit arithmetic, on the GPU and the interpreter.
test("arithmetic on int8 and uint8 loads wraps at 8 bits as Triton's: shifts, sums, products, negation, bitwise not", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, i8, u8, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(a_ptr: Ptr<i8>, b_ptr: Ptr<u8>, out_ptr: Ptr<i32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const inside = offs < n;
  const a = tl.load(a_ptr + offs, inside);
  const b = tl.load(b_ptr + offs, inside);
  tl.store(out_ptr + offs * 8, (b << 4) >> 4, inside);
  tl.store(out_ptr + offs * 8 + 1, b + 100, inside);
  tl.store(out_ptr + offs * 8 + 2, a + a, inside);
  tl.store(out_ptr + offs * 8 + 3, b * b, inside);
  tl.store(out_ptr + offs * 8 + 4, -b, inside);
  tl.store(out_ptr + offs * 8 + 5, ~b, inside);
  tl.store(out_ptr + offs * 8 + 6, (a << 1) >> 1, inside);
  tl.store(out_ptr + offs * 8 + 7, b.to(tl.int32) << 4, inside);
});
`;
  const n = 45;
  const a = Int8Array.from({ length: n }, (_, i) => [127, -128, -1, 64, 0][i % 5] ?? 0);
  const b = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 200) % 256);
  const { gpu, cpu } = await runBoth({
    source, constexprs: { BLOCK: 16 }, grid: [3],
    args: { a_ptr: a, b_ptr: b, out_ptr: new Int32Array(8 * n).fill(0x7fbadbad), n }, outputs: ["out_ptr"],
  });
  const u8 = (x: number) => x & 0xff;
  const i8 = (x: number) => (x << 24) >> 24;
  const want = Array.from(a, (x, i) => {
    const y = b[i];
    return [u8(y << 4) >> 4, u8(y + 100), i8(x + x), u8(y * y), u8(-y), u8(~y), i8(x << 1) >> 1, y << 4];
  }).flat();
  for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) assert.deepEqual([...got.out_ptr], want, name);
});

// A loop's carried int8 / uint8 keeps its dtype in Triton, so it wraps at every trip (`q = q * 3` three
// times); a name rebound in straight-line code to `.to(tl.int32)` is 32-bit from there (`w << 4` doesn't
// wrap); a uint8 variable assigned an i32 in a loop holds its low 8 bits. Against 8-bit arithmetic done here.
test("int8 and uint8 carried through a loop's variables wrap at each trip; a name rebound to .to(tl.int32) is 32-bit", async () => {
  const source = `import { kernel, tl } from "kernel-lab";
import type { Ptr, i8, u8, i32, constexpr } from "kernel-lab";
export const k = kernel(function k(a_ptr: Ptr<i8>, b_ptr: Ptr<u8>, out_ptr: Ptr<i32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const inside = offs < n;
  let q = tl.load(b_ptr + offs, inside);
  let s = tl.load(a_ptr + offs, inside);
  let t = tl.load(b_ptr + offs, inside);
  for (let i = 0; i < 3; i++) {
    q = q * 3;
    s = s + s;
    t = t + offs;
  }
  tl.store(out_ptr + offs * 4, q, inside);
  tl.store(out_ptr + offs * 4 + 1, s, inside);
  tl.store(out_ptr + offs * 4 + 2, t, inside);
  let w = tl.load(b_ptr + offs, inside);
  w = w.to(tl.int32);
  tl.store(out_ptr + offs * 4 + 3, w << 4, inside);
});
`;
  const n = 45;
  const a = Int8Array.from({ length: n }, (_, i) => [127, -128, -1, 64, 0, 33][i % 6]);
  const b = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 200) % 256);
  const { gpu, cpu } = await runBoth({
    source, constexprs: { BLOCK: 16 }, grid: [3],
    args: { a_ptr: a, b_ptr: b, out_ptr: new Int32Array(4 * n).fill(0x7fbadbad), n }, outputs: ["out_ptr"],
  });
  const u8 = (x: number) => x & 0xff;
  const i8 = (x: number) => (x << 24) >> 24;
  const want = Array.from(a, (x, i) => {
    let q = b[i], s = x, t = b[i];
    for (let trip = 0; trip < 3; trip++) [q, s, t] = [u8(q * 3), i8(s + s), u8(t + i)];
    return [q, s, t, b[i] << 4];
  }).flat();
  for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) assert.deepEqual([...got.out_ptr], want, name);
});

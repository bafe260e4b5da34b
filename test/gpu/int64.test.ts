// int64 computed in 32 bits (issue 31 item 2, docs/LANGUAGE.md §2.9), on the GPU (lavapipe in CI)
// and the interpreter: every i64 operation Triton code uses gives the exact int64 value where it
// fits (checked against BigInt arithmetic), a Ptr<i64> holds those values, the interpreter stops
// with KL2091 where a value leaves 32 bits, and the harness refuses an i64 argument past them
// (KL2092).

import { test } from "node:test";
import assert from "node:assert/strict";
import { poisoned, randomInts, runBoth, compileForGpu } from "../support/kernel-runner";
import { interpret, InterpreterError } from "../../src/interpreter/interpret";
import { checkKernelArgs } from "../../src/harness/run/args";
import { RunDefinitionError } from "../../src/harness/codes";
import { toStorage, fromStorage } from "../../src/harness/run/gpu-args";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, i32, i64, u32, f32, constexpr } from "kernel-lab";\n';

function source(params: string, body: string): string {
  return `${PRELUDE}export const k = kernel(function k(${params}) {\n${body}\n});\n`;
}

/** The i64 results each lane stores, as Triton computes them in 64 bits (BigInt), for a and b. */
const OPS: { wgsl: string; exact: (a: bigint, b: bigint) => bigint }[] = [
  { wgsl: "A * b + 7", exact: (a, b) => a * b + 7n },
  { wgsl: "A - b * 3", exact: (a, b) => a - b * 3n },
  { wgsl: "A / b", exact: (a, b) => a / b },
  { wgsl: "A % b", exact: (a, b) => a % b },
  { wgsl: "A >> 32", exact: (a) => a >> 32n },
  // FlagGems' split of a (non-negative) Philox offset into two u32 words.
  { wgsl: "tl.abs(A) & 0xFFFFFFFF", exact: (a) => (a < 0n ? -a : a) & 0xffffffffn },
  { wgsl: "(tl.abs(A) >> 32) & 0xFFFFFFFF", exact: (a) => ((a < 0n ? -a : a) >> 32n) & 0xffffffffn },
  { wgsl: "A >> s", exact: (a, _b) => a >> 40n },
  { wgsl: "A >> 3", exact: (a) => a >> 3n },
  { wgsl: "A << 4", exact: (a) => a << 4n },
  { wgsl: "A ^ b", exact: (a, b) => a ^ b },
  { wgsl: "-A", exact: (a) => -a },
  { wgsl: "tl.where(A < b, A, b)", exact: (a, b) => (a < b ? a : b) },
  { wgsl: "tl.maximum(A, b)", exact: (a, b) => (a > b ? a : b) },
  { wgsl: "tl.cast(tl.cast(A, \"f32\") * 2.0, \"i64\")", exact: (a) => a * 2n },
];

test("i64 arithmetic (mul, add, sub, div, mod, shifts by 3, 32 and 40, & 0xFFFFFFFF, xor, neg, where, maximum, float round trips) equals Triton's int64 values, stored through a Ptr<i64>", async () => {
  const n = 1000;
  const block = 128;
  const a = randomInts(n, -30000, 30000);
  const b = Int32Array.from(randomInts(n, 1, 5000), (x, i) => (i % 2 ? -x : x));
  const stores = OPS.map((op, k) => `tl.store(out + i * ${OPS.length} + ${k}, ${op.wgsl}, mask);`).join("\n");
  const body = `const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst mask = i < n;\nconst A = tl.cast(tl.load(a_ptr + i, mask, 1), "i64");\nconst b = tl.load(b_ptr + i, mask, 1);\n${stores}`;
  const { gpu, cpu } = await runBoth({
    source: source("a_ptr: Ptr<i32>, b_ptr: Ptr<i32>, out: Ptr<i64>, n: i32, s: u32, BLOCK: constexpr", body),
    constexprs: { BLOCK: block },
    grid: [Math.ceil(n / block)],
    args: { a_ptr: a, b_ptr: b, out: poisoned(n * OPS.length, "i32"), n, s: 40 },
    outputs: ["out"],
  });
  for (const [name, got] of [["GPU", gpu.out], ["CPU", cpu.out]] as const) {
    const values = fromStorage(got as Int32Array, "i64");
    for (let i = 0; i < n; i++) {
      OPS.forEach((op, k) => {
        const want = op.exact(BigInt(a[i]), BigInt(b[i]));
        assert.equal(BigInt(values[i * OPS.length + k]), want, `${name}: ${op.wgsl} at a = ${a[i]}, b = ${b[i]}`);
      });
    }
  }
});

test("row offsets in int64 (Liger's `row.to(tl.int64) * stride`) load and store what i32 offsets do", async () => {
  const rows = 37;
  const cols = 100;
  const x = randomInts(rows * cols);
  const body = `const row = tl.cast(tl.programId(0), "i64");\nconst c = tl.arange(0, BLOCK);\nconst mask = c < cols;\nconst v = tl.load(x + row * stride + c, mask);\ntl.store(y + row * stride + c, v * 2, mask);\ntl.store(sums + row, tl.sum(tl.cast(v, "i64"), 0));`;
  const { gpu, cpu } = await runBoth({
    source: source("x: Ptr<i32>, y: Ptr<i32>, sums: Ptr<i64>, stride: i32, cols: i32, BLOCK: constexpr", body),
    constexprs: { BLOCK: 128 },
    grid: [rows],
    args: { x, y: poisoned(rows * cols, "i32"), sums: poisoned(rows, "i32"), stride: cols, cols },
    outputs: ["y", "sums"],
  });
  const wantSums = Array.from({ length: rows }, (_, r) => x.slice(r * cols, (r + 1) * cols).reduce((s, v) => s + v, 0));
  for (const [name, got] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assert.deepEqual([...got.y], [...x].map((v) => v * 2), `${name} y`);
    assert.deepEqual([...got.sums], wantSums, `${name} sums`);
  }
});

test("--cpu stops with KL2091 at an i64 value outside 32 bits, naming the program, lane and value", async () => {
  const body = `const i = tl.arange(0, 16);\nconst big = tl.cast(tl.load(x + i), "i64") * 100000;\ntl.store(y + i, tl.cast(big, "i32"));`;
  const kernel = await compileForGpu(source("x: Ptr<i32>, y: Ptr<i32>", body));
  const x = new Int32Array(16).fill(1);
  x[5] = 30000;
  let error: unknown;
  try {
    interpret(kernel.ir, [1, 1, 1], { x, y: new Int32Array(16) });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof InterpreterError, String(error));
  assert.equal(error.code, "KL2091");
  assert.match(error.message, /program \(0,0,0\), lane 5: an i64 value is 3000000000, outside 32 bits/);
  // Below 2^31 it runs, and the GPU's i32 arithmetic agrees.
  x[5] = 20000;
  const y = new Int32Array(16);
  interpret(kernel.ir, [1, 1, 1], { x, y });
  assert.equal(y[5], 2000000000);
});

test("a Ptr<i64>'s BigInt64Array travels as its 32-bit words and comes back as the same values; an element or scalar past 32 bits is KL2092", () => {
  const values = BigInt64Array.from([0n, -1n, 2147483647n, -2147483648n, 12345n]);
  const words = toStorage(values, "i64");
  assert.ok(words instanceof Int32Array);
  assert.deepEqual(Array.from(fromStorage(words, "i64")), Array.from(values, Number));
  const kernel = { name: "k", params: [{ name: "out", kind: "pointer" as const, dtype: "i64" as const, span: { start: 0, end: 0 } }, { name: "seed", kind: "scalar" as const, dtype: "i64" as const, span: { start: 0, end: 0 } }] };
  assert.doesNotThrow(() => checkKernelArgs("r", "args", kernel, { out: values, seed: -5 }, 5));
  const code = (given: unknown) => {
    try {
      checkKernelArgs("r", "args", kernel, given, 5);
    } catch (e) {
      return e instanceof RunDefinitionError ? `${e.code} ${e.message}` : String(e);
    }
    return "no error";
  };
  assert.match(code({ out: BigInt64Array.from([1n, 2n ** 40n]), seed: 1 }), /^KL2092 .*element 1 is 1099511627776/);
  assert.match(code({ out: values, seed: 2 ** 33 }), /^KL2092 .*seed is i64/);
  assert.match(code({ out: new Int32Array(5), seed: 1 }), /^KL3019 .*BigInt64Array/);
});

// Divisibility by 16 as Triton specialises it (compile.ts specializationFor, codegen/contiguity.ts,
// memory.ts): which arguments count, what the analysis concludes for the masks and offsets learners
// write, and that only wide f16 loads change — every f32 example compiles to the same WGSL with
// every integer argument known to be a multiple of 16. The GPU results of the changed loads are
// checked in test/gpu/half.test.ts and mma-emulated.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor, specializationKey } from "../../src/compile";
import { DEFAULT_TARGET, type Target } from "../../src/ir/target";
import { ContiguityAnalysis } from "../../src/codegen/contiguity";
import type { Stmt, Value } from "../../src/ir/ir";
import { forEachStmt } from "../../src/ir/walk";

const root = join(__dirname, "..", "..");
const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";\n';
const F16: Target = { ...DEFAULT_TARGET, shaderF16: true };

test("specializationFor: integer arguments that are non-negative multiples of 16 are divisible, 1 is one, others neither", () => {
  const { kernels } = parseKernelFile("t.kernel.ts", `${PRELUDE}export const k = kernel(function k(x: Ptr<f32>, a: i32, b: i32, c: i32, d: i32, s: f32, BLOCK: constexpr) {
  tl.store(x + tl.arange(0, BLOCK), a + b + c + d + s);
});`);
  // d: a negative multiple of 16 is not specialised, since divisible arguments are also known ≥ 0 (`%`'s runs rely on it).
  const s = specializationFor(kernels[0], { a: 4096, b: 1, c: 1000, d: -32, s: 16 });
  assert.deepEqual(s, { ones: ["b"], divisible: ["a"] });
  assert.equal(specializationKey(s), ":ones=b:div16=a");
  assert.equal(specializationKey(specializationFor(kernels[0], { a: 3, b: 5, c: 7, d: 9 })), "");
});

/** The masks of a kernel's loads and stores, in order, with the analysis of its IR. */
function masksOf(body: string, scalars: Record<string, number>): { analysis: ContiguityAnalysis; masks: Value[]; ptrs: Value[] } {
  const { kernels } = parseKernelFile("t.kernel.ts", `${PRELUDE}export const k = kernel(function k(x: Ptr<f16>, y: Ptr<f16>, n: i32, stride: i32, BLOCK: constexpr) {\n${body}\n});`);
  const result = compileKernel(kernels[0], { BLOCK: 64 }, F16, specializationFor(kernels[0], scalars));
  assert.ok(result.kernel, JSON.stringify(result.diagnostics));
  const ir = result.kernel.ir.body as Stmt[];
  const masks: Value[] = [];
  const ptrs: Value[] = [];
  forEachStmt(ir, (s) => {
    if (s.kind === "let" && s.value.op === "load") {
      ptrs.push(s.value.ptr);
      if (s.value.mask) masks.push(s.value.mask);
    }
  });
  return { analysis: new ContiguityAnalysis(ir), masks, ptrs };
}

test("runs of 4: `offs < n` is the same across each run when n is a multiple of 16, not otherwise; `<=` never", () => {
  const body = `const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const a = tl.load(x + offs, offs < n, 0.0);
  const b = tl.load(x + offs, offs <= n, 0.0);
  const c = tl.load(x + offs, n > offs, 0.0);
  tl.store(y + offs, a + b + c, offs < n);`;
  const divisible = masksOf(body, { n: 4096, stride: 7 });
  assert.deepEqual(divisible.masks.map((m) => divisible.analysis.runConstant(m)), [true, false, true]);
  assert.ok(divisible.ptrs.every((p) => divisible.analysis.divisor(p) >= 4), "pid * 64 + arange starts runs at multiples of 4");
  const odd = masksOf(body, { n: 4095, stride: 7 });
  assert.deepEqual(odd.masks.map((m) => odd.analysis.runConstant(m)), [false, false, false]);
});

test("2-D offsets: rows × a divisible stride keep runs aligned; an odd stride does not; the row mask is constant along rows", () => {
  const body = `const rows = tl.programId(0) * 16 + tl.arange(0, 16);
  const cols = tl.arange(0, BLOCK);
  const v = tl.load(x + tl.expandDims(rows, 1) * stride + tl.expandDims(cols, 0), tl.expandDims(rows, 1) < n, 0.0);
  tl.store(y + tl.expandDims(rows, 1) * BLOCK + tl.expandDims(cols, 0), v);`;
  const divisible = masksOf(body, { n: 100, stride: 64 });
  assert.equal(divisible.analysis.divisor(divisible.ptrs[0]), 16);
  assert.equal(divisible.analysis.runConstant(divisible.masks[0]), true, "a mask that does not change along the last axis");
  const odd = masksOf(body, { n: 100, stride: 63 });
  assert.equal(odd.analysis.divisor(odd.ptrs[0]), 1);
});

test("`offs % n` (tutorial 03's wrapped offsets) keeps runs of 4 when offs ≥ 0 has stride 1 and n is a multiple of 16, not otherwise", () => {
  const body = `const pid = tl.programId(0);
  const groups = tl.cdiv(n, BLOCK);
  const size = tl.minimum(groups - pid, 8);
  const offs = ((pid % groups) / size) * BLOCK + tl.arange(0, BLOCK);
  const a = tl.load(x + offs % n, offs % n < n, 0.0);
  const b = tl.load(x + (tl.arange(0, BLOCK) - 8) % n);
  const c = tl.load(x + (offs + 2) % n);
  tl.store(y + offs, a + b + c);`;
  const divisible = masksOf(body, { n: 4096, stride: 7 });
  const [a, b, c] = divisible.ptrs;
  assert.equal(divisible.analysis.stride(a), 1, "pid-derived offsets, quotient by the grouped order's size, wrapped by n");
  assert.equal(divisible.analysis.divisor(a), 16);
  assert.equal(divisible.analysis.runConstant(divisible.masks[0]), true);
  assert.equal(divisible.analysis.stride(b), undefined, "arange - 8 may be negative: C's remainder jumps inside a run");
  assert.equal(divisible.analysis.stride(c), undefined, "offs + 2 does not start runs at multiples of 4");
  const odd = masksOf(body, { n: 4095, stride: 7 });
  assert.equal(odd.analysis.stride(odd.ptrs[0]), undefined, "n not known a multiple of 4: the wrap can fall inside a run");
});

test("a loop-carried pointer advanced by a divisible step, and a for-loop counter, keep their divisors", () => {
  const body = `const cols = tl.arange(0, BLOCK);
  let p = x + tl.expandDims(tl.arange(0, 16), 1) * stride + tl.expandDims(cols, 0);
  let acc = tl.zeros([16, BLOCK], "f16");
  for (let k = 0; k < n; k += 32) {
    acc += tl.load(p, tl.expandDims(cols + k, 0) < n, 0.0);
    p += 32;
  }
  let q = x + cols;
  for (let k = 0; k < n; k += 32) {
    acc += tl.expandDims(tl.load(q, cols < n, 0.0), 0);
    q += 3;
  }
  tl.store(y + tl.expandDims(tl.arange(0, 16), 1) * BLOCK + tl.expandDims(cols, 0), acc);`;
  const { analysis, masks, ptrs } = masksOf(body, { n: 4096, stride: 4096 });
  assert.equal(analysis.divisor(ptrs[0]), 16, "min(stride 16, step 32)");
  assert.equal(analysis.runConstant(masks[0]), true, "cols + k with k = 0, 32, 64, … against n");
  assert.equal(analysis.divisor(ptrs[1]), 1, "advanced by 3 each trip");
});

test("only wide f16 loads change: every f32 example compiles to the same WGSL with every integer argument divisible", () => {
  let compared = 0;
  for (const file of readdirSync(join(root, "examples")).filter((f) => f.endsWith(".kernel.ts"))) {
    const text = readFileSync(join(root, "examples", file), "utf8");
    if (/f16/.test(text)) continue;
    const parsed = parseKernelFile(file, text);
    for (const kernel of parsed.kernels.filter((k) => !k.called)) {
      const constexprs = parsed.literalConstexprs.get(kernel.name)?.[0] ?? {};
      const divisible = kernel.params.filter((p) => p.kind === "scalar" && (p.dtype === "i32" || p.dtype === "u32")).map((p) => p.name);
      const plain = compileKernel(kernel, constexprs, DEFAULT_TARGET).kernel?.wgsl;
      const specialised = compileKernel(kernel, constexprs, DEFAULT_TARGET, { divisible }).kernel?.wgsl;
      assert.ok(plain, `${file} ${kernel.name} compiles`);
      assert.equal(specialised, plain, `${file} ${kernel.name}`);
      compared++;
    }
  }
  assert.ok(compared >= 15, `${compared} kernels compared`);
});

test("the f16 matmul example: its four loads (A and B, before and inside the loop) read element by element at odd sizes, as vec4<f16> without checks at multiples of 16", () => {
  const text = readFileSync(join(root, "examples", "matmul-f16.kernel.ts"), "utf8");
  const kernel = parseKernelFile("matmul-f16.kernel.ts", text).kernels[0];
  const scalars = (s: number) => ({ M: s, N: s, K: s, stride_am: s, stride_ak: 1, stride_bk: s, stride_bn: 1, stride_cm: s, stride_cn: 1 });
  const wgslAt = (s: number) => compileKernel(kernel, { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 }, F16, specializationFor(kernel, scalars(s))).kernel!.wgsl;
  const odd = wgslAt(1000), even = wgslAt(1024);
  // Odd sizes: no vec4 read, so no run-time alignment test and no fallback (bench/NOTES.md §25).
  assert.doesNotMatch(odd, /let whole\d+ = [^;]*& 3\) == 0/);
  assert.match(odd, /var<storage, read> b_a_ptr: array<f16>/);
  assert.match(odd, /var<storage, read> b_b_ptr: array<f16>/);
  // Multiples of 16: the prologue's and the loop's loads of A and B are vec4<f16> runs, unchecked.
  assert.doesNotMatch(even, /let whole\d+ = [^;]*& 3\) == 0/);
  assert.match(even, /var<storage, read> b_a_ptr: array<vec4<f16>>/);
  assert.equal((even.match(/let w\d+ = b_a_ptr\[/g) ?? []).length > 0 && (even.match(/let w\d+ = b_b_ptr\[/g) ?? []).length > 0, true);
});

// A row sum carried across a loop and added up once after it (CodegenOptions.deferRowSums,
// codegen/deferred-sums.ts): rewritten only where the loop reads the sum for nothing but its own
// update, `l = l * a + tl.sum(x, 1)` from zeros; the same results on lavapipe as the interpreter's
// and as float64, with rows and columns off the blocks. Attention's own use is
// test/gpu/mma-attention.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseKernelFile } from "../../src/compile";
import { lowerKernel } from "../../src/semantics/lower";
import { deferRowSums } from "../../src/codegen/deferred-sums";
import { DEFAULT_TARGET } from "../../src/ir/target";
import { assertClose, randomFloats, runBoth } from "../support/kernel-runner";

/** Rows of x summed over column blocks, the running sum halved before each block adds in; `READ` also stores it every trip, `ONE` starts it at ones, `AXIS` sums along 0. */
const source = (update: string, extra = "", init = "tl.zeros([BLOCK_M], \"f32\")") => `
import { kernel, tl } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";
export const rows_kernel = kernel(function rows_kernel(x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, M: i32, N: i32, BLOCK_M: constexpr, BLOCK_N: constexpr) {
  const rows = tl.programId(0) * BLOCK_M + tl.arange(0, BLOCK_M);
  let l = ${init};
  for (let start = 0; start < N; start += BLOCK_N) {
    const cols = start + tl.arange(0, BLOCK_N);
    const x = tl.load(x_ptr + rows[:, None] * N + cols[None, :], (rows[:, None] < M) & (cols[None, :] < N), 0.0);
    ${update}
    ${extra}
  }
  tl.store(out_ptr + rows, l, rows < M);
});
`.replace(/\[:, None\]/g, ".expandDims(1)").replace(/\[None, :\]/g, ".expandDims(0)");

const SCALED = "l = l * 0.5 + tl.sum(x, 1);";
const lowered = (text: string) => {
  const kernel = parseKernelFile("rows.kernel.ts", text).kernels[0];
  const ir = lowerKernel(kernel, { BLOCK_M: 16, BLOCK_N: 32 }, DEFAULT_TARGET).ir;
  assert.ok(ir, "lowered");
  return ir;
};

test("only a sum the loop reads for its update alone, from zeros, along a block's rows, is deferred", () => {
  const ir = lowered(source(SCALED));
  assert.notEqual(deferRowSums(ir), ir);
  assert.notEqual(deferRowSums(lowered(source("l = tl.sum(x, 1) + l;"))), undefined);
  for (const [why, text] of [
    ["read in the loop besides", source(SCALED, "tl.store(out_ptr + rows, l, rows < M);")],
    ["not from zeros", source(SCALED, "", "tl.full([BLOCK_M], 1.0, \"f32\")")],
    ["its scale reads it", source("l = l * l + tl.sum(x, 1);")],
    ["its scaled value read besides", source("const kept = l * 0.5;\n    l = kept + tl.sum(x, 1);", "tl.store(out_ptr + rows, kept, rows < M);")],
  ] as const) {
    const ir = lowered(text);
    assert.equal(deferRowSums(ir), ir, why);
  }
});

for (const update of [SCALED, "l = l + tl.sum(x, 1);"]) {
  test(`deferred, ${update} matches float64 and the interpreter on lavapipe (37 rows × 100 columns, blocks of 16 × 32)`, async () => {
    const [M, N] = [37, 100];
    const x = randomFloats(M * N, -1, 1);
    const run = (deferRowSums: boolean) => runBoth({
      source: source(update), constexprs: { BLOCK_M: 16, BLOCK_N: 32 }, target: { deferRowSums }, grid: [Math.ceil(M / 16)],
      args: { x_ptr: x, out_ptr: new Float32Array(M).fill(NaN), M, N }, outputs: ["out_ptr"],
    });
    const { gpu, cpu, kernel } = await run(true);
    assert.notEqual(kernel.wgsl, (await run(false)).kernel.wgsl, "rewritten");
    const scale = update === SCALED ? 0.5 : 1;
    const want = Float64Array.from({ length: M }, (_, r) => {
      let l = 0;
      for (let s = 0; s < N; s += 32) {
        let sum = 0;
        for (let c = s; c < Math.min(N, s + 32); c++) sum += x[r * N + c];
        l = l * scale + sum;
      }
      return l;
    });
    assertClose(gpu.out_ptr, want, "gpu", 1e-5, 1e-5);
    assertClose(cpu.out_ptr, want, "cpu", 1e-5, 1e-5);
  });
}

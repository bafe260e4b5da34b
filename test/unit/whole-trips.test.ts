// Which loops are peeled, and the test that keeps a trip in the first loop (CodegenOptions.wholeTrips,
// codegen/whole-trips.ts): the attention example's key loop, causal and not, reading K and V in the
// trip and a block ahead, its test evaluated at every trip of every program against the keys and
// query rows the trip covers; and the comparisons left alone. The kernels' results with the knob on
// lavapipe are test/gpu/mma-attention.test.ts's; which loops are peeled by default, the last test.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseKernelFile } from "../../src/compile";
import { lowerKernel } from "../../src/semantics/lower";
import { planKernel } from "../../src/codegen/plan";
import { planWholeTrips, type WholeTrip } from "../../src/codegen/whole-trips";
import type { Sym } from "../../src/codegen/mma-store";
import type { KernelIR, Value } from "../../src/ir/ir";
import { DEFAULT_TARGET, type Target } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "..", "..", "examples", "attention-f16.kernel.ts"), "utf8");
const MATRICES: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32,
  subgroupMatrixConfigs: [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }],
};
const [BLOCK_M, BLOCK_N] = [32, 16];

function lowered(text: string, causal: number): KernelIR {
  const kernel = parseKernelFile("attention.kernel.ts", text).kernels.find((k) => k.name === "attn_fwd_f16")!;
  const ir = lowerKernel(kernel, { BLOCK_M, BLOCK_N, num_warps: 2, HEAD_DIM: 32, IS_CAUSAL: causal }, MATRICES).ir;
  assert.ok(ir, "lowered");
  return ir;
}

/** The loops peeled: of the kernel as written (num_stages 1), or as the plan pipelines it. */
function trips(text: string, causal: number, stages = 1): WholeTrip[] {
  const ir = lowered(text, causal);
  if (stages === 1) return [...planWholeTrips(ir.body, true).values()];
  return [...planKernel(ir, MATRICES, { wholeTrips: true, numStages: stages }).wholeTrips.values()];
}

/** A scalar of the test at a trip: the counter, N_CTX and the program id given. */
function evaluate(s: Sym, at: { counter: number; N_CTX: number; program: number }, trip: WholeTrip): number {
  if (typeof s === "number") return s;
  if ("sym" in s) {
    const [a, b] = [evaluate(s.a, at, trip), evaluate(s.b, at, trip)];
    return s.sym === "+" ? a + b : s.sym === "-" ? a - b : a * b;
  }
  return scalar(s, at, trip);
}

function scalar(v: Value, at: { counter: number; N_CTX: number; program: number }, trip: WholeTrip): number {
  switch (v.op) {
    case "const":
      return v.value;
    case "param":
      assert.equal(v.name, "N_CTX");
      return at.N_CTX;
    case "programId":
      return v.axis === 0 ? at.program : 0;
    case "readVar":
      assert.equal(v.variable.id, trip.counter.id, "only the loop's counter is read");
      return at.counter;
    case "binary": {
      const [a, b] = [scalar(v.lhs, at, trip), scalar(v.rhs, at, trip)];
      if (v.fn === "add") return a + b;
      if (v.fn === "sub") return a - b;
      if (v.fn === "mul") return a * b;
      break;
    }
  }
  assert.fail(`unexpected scalar ${v.op}`);
}

test("the attention example's key loop: whole exactly where every key of the block is below N_CTX (and, causal, at or before every query row)", () => {
  for (const causal of [0, 1]) {
    for (const stages of [1, 2]) {
      const found = trips(SOURCE, causal, stages);
      assert.equal(found.length, 1, `causal ${causal}, num_stages ${stages}: one loop`);
      const [trip] = found;
      // The key mask of K's and V's loads, the scores' column mask, the causal mask; a block ahead, the next block's loads' mask.
      assert.equal(trip.margins.length, 1 + causal + (stages === 2 ? 1 : 0), `causal ${causal}, num_stages ${stages}: the tests`);
      for (const N_CTX of [40, 48, 64, 100]) {
        for (let program = 0; program * BLOCK_M < N_CTX; program++) {
          const hi = causal ? Math.min((program + 1) * BLOCK_M, N_CTX) : N_CTX;
          for (let counter = 0; counter < hi; counter += BLOCK_N) {
            const keys = (from: number) => Array.from({ length: BLOCK_N }, (_, j) => from + j);
            const rows = Array.from({ length: BLOCK_M }, (_, i) => program * BLOCK_M + i);
            let want = keys(counter).every((j) => j < N_CTX) && (!causal || keys(counter).every((j) => rows.every((i) => i >= j)));
            // A block ahead: the next block's keys are masked by N_CTX too (that its trip exists is a scalar, left as written).
            if (stages === 2) want &&= keys(counter + BLOCK_N).every((j) => j < N_CTX);
            const got = trip.margins.every((m) => evaluate(m.min, { counter, N_CTX, program }, trip) >= m.atLeast);
            assert.equal(got, want, `causal ${causal}, num_stages ${stages}, N_CTX ${N_CTX}, program ${program}, keys from ${counter}`);
          }
        }
      }
    }
  }
});

test("comparisons a trip does not move, or not affine in the block's indices, are left as written", () => {
  const edit = (from: string, to: string) => {
    assert.ok(SOURCE.includes(from), from);
    return SOURCE.replace(from, to);
  };
  // The query rows' mask inside the loop: the same in every trip, so not in the test.
  const rows = trips(edit("qk = tl.where(tl.expandDims(cols, 0) < N_CTX, qk * qk_scale, -Infinity);", "qk = tl.where((tl.expandDims(cols, 0) < N_CTX) & (tl.expandDims(offs_m, 1) < N_CTX), qk * qk_scale, -Infinity);"), 0);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].margins.length, 1, "only the keys' bound");
  // Keys squared: not affine, so not tested; the loads' key mask still is.
  const squared = trips(edit("qk = tl.where(tl.expandDims(cols, 0) < N_CTX, qk * qk_scale, -Infinity);", "qk = tl.where(tl.expandDims(cols * cols, 0) < N_CTX, qk * qk_scale, -Infinity);"), 0);
  assert.equal(squared.length, 1);
  assert.equal(squared[0].comparisons.size, 1, "the loads' key mask alone");
  // A loop with no comparison of its counter: nothing peeled.
  const none = trips(edit("const key_mask = tl.expandDims(cols, 1) < N_CTX;", "const key_mask = tl.expandDims(offs_n, 1) < N_CTX;").replace("qk = tl.where(tl.expandDims(cols, 0) < N_CTX, qk * qk_scale, -Infinity);", "qk = qk * qk_scale;"), 0);
  assert.equal(none.length, 0);
});

test("by default peeled where the loop's dots on matrices multiply afresh each trip (attention), not where one accumulates (the matmul); the knob decides otherwise", () => {
  const attention = lowered(SOURCE, 0);
  const peeled = (ir: KernelIR, wholeTrips?: boolean) => planKernel(ir, MATRICES, wholeTrips === undefined ? {} : { wholeTrips }).wholeTrips.size;
  assert.deepEqual([peeled(attention), peeled(attention, true), peeled(attention, false)], [1, 1, 0]);
  const text = readFileSync(join(__dirname, "..", "..", "examples", "matmul-f16.kernel.ts"), "utf8");
  const kernel = parseKernelFile("matmul-f16.kernel.ts", text).kernels.find((k) => k.name === "matmul_f16_kernel")!;
  const matmul = lowerKernel(kernel, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 32, num_warps: 2 }, MATRICES).ir!;
  assert.deepEqual([peeled(matmul), peeled(matmul, true), peeled(matmul, false)], [0, 1, 0]);
  // The matmul's loop accumulates: its scalar comparison with the counter (the pipelined loads' `next
  // trip exists`) joins the test too, so its whole trips keep no select; attention's loops keep theirs.
  const scalars = (ir: KernelIR) => {
    const [[loop, trip]] = [...planKernel(ir, MATRICES, { wholeTrips: true }).wholeTrips];
    let n = 0;
    if (loop.kind === "for") for (const s of loop.body) if (s.kind === "let" && trip.comparisons.has(s.value.id) && s.value.type.shape.length === 0) n++;
    return n;
  };
  assert.deepEqual([scalars(matmul), scalars(attention)], [2, 0]);
  // Without subgroup matrices the attention's dots run on the generic path: not peeled unless asked.
  assert.equal(planKernel(attention, { ...DEFAULT_TARGET, shaderF16: true }, {}).wholeTrips.size, 0);
});

// Which running row maxima may stay where they are (CodegenOptions.lazyRowMax, codegen/lazy-max.ts):
// the attention example's, causal and not, with its row sums deferred or not; and none where the
// reference would not cancel out of what the kernel stores. The kernels' results with the knob on
// lavapipe are test/gpu/mma-attention.test.ts's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseKernelFile } from "../../src/compile";
import { lowerKernel } from "../../src/semantics/lower";
import { deferRowSums } from "../../src/codegen/deferred-sums";
import { lazyRowMaxima } from "../../src/codegen/lazy-max";
import { DEFAULT_TARGET } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "..", "..", "examples", "attention-f16.kernel.ts"), "utf8");

function maxima(text: string, causal = 0, deferred = false): number {
  const kernel = parseKernelFile("attention.kernel.ts", text).kernels.find((k) => k.name === "attn_fwd_f16")!;
  const ir = lowerKernel(kernel, { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, HEAD_DIM: 64, IS_CAUSAL: causal }, { ...DEFAULT_TARGET, shaderF16: true }).ir;
  assert.ok(ir, "lowered");
  return lazyRowMaxima(deferred ? deferRowSums(ir) : ir).size;
}

/** The example with `from` replaced by `to` (which must be there). */
function edited(from: string, to: string): string {
  assert.ok(SOURCE.includes(from), from);
  return SOURCE.replace(from, to);
}

test("the attention example's running maximum may stay where it is, causal or not, its row sums deferred or not", () => {
  for (const causal of [0, 1]) for (const deferred of [false, true]) assert.equal(maxima(SOURCE, causal, deferred), 1, `causal ${causal}, deferred ${deferred}`);
});

test("not where the reference would not cancel out of what is stored", () => {
  for (const [why, text] of [
    ["m_i read after the loop", edited("acc = acc / tl.expandDims(l_i, 1);", "acc = acc / tl.expandDims(l_i, 1) + tl.expandDims(m_i, 1);")],
    ["the accumulator not divided by the row sums", edited("acc = acc / tl.expandDims(l_i, 1);", "acc = acc + tl.expandDims(l_i, 1);")],
    ["the accumulator not rescaled", edited("acc * tl.expandDims(alpha, 1)", "acc")],
    ["p compared", edited("l_i = l_i * alpha + tl.sum(p, 1);", "l_i = l_i * alpha + tl.sum(tl.where(p > 0.5, p, 0.0), 1);")],
    ["the row sums not rescaled", edited("l_i = l_i * alpha + tl.sum(p, 1);", "l_i = l_i + tl.sum(p, 1);")],
    ["p squared", edited("l_i = l_i * alpha + tl.sum(p, 1);", "l_i = l_i * alpha + tl.sum(p * p, 1);")],
  ] as const) {
    assert.equal(maxima(text), 0, why);
  }
});

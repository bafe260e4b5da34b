// Which mask terms of a loop's tl.dot operand loads codegen/dot-edges.ts drops (CodegenOptions.
// unmaskedDotEdges): the example's M term of A and N term of B, each only where every store of the
// accumulator masks the same rows or columns; none where the accumulator is read otherwise. The
// kernel's results with the switch, NaN past the matrices, are test/gpu/mma-emulated.test.ts's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseKernelFile } from "../../src/compile";
import { lowerKernel } from "../../src/semantics/lower";
import { unmaskDotEdges } from "../../src/codegen/dot-edges";
import type { KernelIR, Value } from "../../src/ir/ir";
import { forEachStmt } from "../../src/ir/walk";
import { DEFAULT_TARGET } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "..", "..", "examples", "matmul-f16.kernel.ts"), "utf8");

function lowered(text: string): KernelIR {
  const kernel = parseKernelFile("matmul-f16.kernel.ts", text).kernels.find((k) => k.name === "matmul_f16_kernel")!;
  const ir = lowerKernel(kernel, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 32, num_warps: 2 }, { ...DEFAULT_TARGET, shaderF16: true }).ir;
  assert.ok(ir, "lowered");
  return ir;
}

/** Each dot operand load's mask, as the shapes of its `&&`'s terms before their broadcasts ("none" unmasked). */
function masks(ir: KernelIR): string[] {
  const out: string[] = [];
  const terms = (m: Value): string[] => (m.op === "binary" && m.fn === "land" ? [...terms(m.lhs), ...terms(m.rhs)] : [`[${(m.op === "broadcast" ? m.value : m).type.shape}]`]);
  forEachStmt(ir.body, (s) => {
    if (s.kind !== "assign" || s.value.op !== "dot") return;
    for (const operand of [s.value.a, s.value.b]) out.push(operand.op === "load" && operand.mask ? terms(operand.mask).join(" && ") : "none");
  });
  return out;
}

function edit(from: string, to: string): string {
  assert.ok(SOURCE.includes(from), from);
  return SOURCE.replace(from, to);
}

const STORE = "tl.store(c_ptrs, acc, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N);";

test("the example: A's M term and B's N term dropped, K's kept", () => {
  assert.deepEqual(masks(lowered(SOURCE)), ["[32,1] && [1,32]", "[32,1] && [1,32]"]);
  assert.deepEqual(masks(unmaskDotEdges(lowered(SOURCE))), ["[1,32]", "[32,1]"]);
});

test("a term the store does not have stays: the store masking columns alone keeps A's row term", () => {
  const ir = lowered(edit(STORE, "tl.store(c_ptrs, acc, tl.expandDims(offs_n, 0) < N);"));
  assert.deepEqual(masks(unmaskDotEdges(ir)), ["[32,1] && [1,32]", "[32,1]"]);
});

test("an accumulator read otherwise keeps every mask: a row sum of it stored too, or it stored unmasked", () => {
  const summed = lowered(edit(STORE, `${STORE}\n  tl.store(c_ptrs, tl.expandDims(tl.sum(acc, 1), 1) + acc, tl.expandDims(offs_m, 1) < M && tl.expandDims(offs_n, 0) < N);`));
  assert.deepEqual(masks(unmaskDotEdges(summed)), masks(summed));
  const unmasked = lowered(edit(STORE, "tl.store(c_ptrs, acc);"));
  assert.equal(unmaskDotEdges(unmasked), unmasked);
});

// Software pipelining of tl.dot's operand loads (codegen/pipeline.ts): which loops it rewrites,
// which it must leave alone because the rewrite would change what they compute, and what the
// rewrite looks like. The GPU results of pipelined kernels are checked in test/gpu/blocks2d.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { lowerKernel } from "../../src/semantics/lower";
import { pipelineDotLoads } from "../../src/codegen/pipeline";
import { DEFAULT_TARGET } from "../../src/ir/target";
import type { KernelIR, Stmt } from "../../src/ir/ir";
import { PRELUDE } from "../support/kernel-runner";

function lower(source: string, constexprs: Record<string, number>): KernelIR {
  const kernel = parseKernelFile("t.kernel.ts", source).kernels[0];
  const lowered = lowerKernel(kernel, constexprs, DEFAULT_TARGET, {});
  assert.ok(lowered.ir, JSON.stringify(lowered.diagnostics));
  return lowered.ir;
}

const loopOf = (ir: KernelIR) => ir.body.find((s) => s.kind === "for") as Stmt & { kind: "for" };

/** A K loop around tl.dot; `body` goes where the loads and the dot are. */
const dotLoop = (body: string, params = "") =>
  `${PRELUDE}export const k = kernel(function k(a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, K: i32${params}, BK: constexpr) {
  const r = tl.arange(0, 16);
  const kk = tl.arange(0, BK);
  let a_ptrs = a + tl.expandDims(r, 1) * K + tl.expandDims(kk, 0);
  let acc = tl.zeros([16, 16], "f32");
  for (let k0 = 0; k0 < K; k0 += BK) {
${body}
  }
  tl.store(c + tl.expandDims(r, 1) * 16 + tl.expandDims(r, 0), acc);
});`;

const tileB = `    const tb = tl.load(b + tl.expandDims(k0 + kk, 1) * 16 + tl.expandDims(r, 0), tl.expandDims(k0 + kk, 1) < K, 0.0);`;

test("the matmul example's loads are issued one trip ahead", () => {
  const text = readFileSync(join(__dirname, "..", "..", "examples", "matmul.kernel.ts"), "utf8");
  const ir = lower(text, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 });
  const piped = pipelineDotLoads(ir, 128);
  assert.equal(pipelineDotLoads(lower(text, { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16 }), 128).body.some((s) => s.kind === "declare" && s.variable.name.startsWith("prefetch_")), false,
    "128 outputs + 32 tile elements per invocation would not fit the registers");
  assert.notEqual(piped, ir);
  const index = piped.body.findIndex((s) => s.kind === "for");
  const declared = piped.body.slice(0, index).filter((s) => s.kind === "declare" && s.variable.name.startsWith("prefetch_"));
  assert.equal(declared.length, 2, "two prefetch registers declared before the loop");
  const body = loopOf(piped).body;
  const assigns = body.map((s, i) => (s.kind === "assign" && s.variable.name.startsWith("prefetch_") ? i : -1)).filter((i) => i >= 0);
  const dot = body.findIndex((s) => s.kind === "let" && s.value.op === "dot");
  assert.equal(assigns.length, 2);
  assert.ok(assigns.every((i) => i < dot), "the next trip's loads come before this trip's tl.dot");
  const loadIds = loopOf(ir).body.flatMap((s) => (s.kind === "let" && s.value.op === "load" ? [s.value.id] : []));
  assert.equal(loadIds.length, 2, "the IR as written is unchanged");
  for (const id of loadIds) {
    const now = body.find((s) => s.kind === "let" && s.value.id === id) as Stmt & { kind: "let" };
    assert.equal(now.value.op, "readVar", "the trip's own operands are read from the registers");
  }
});

test("num_stages 1 compiles the loop as written", () => {
  const text = readFileSync(join(__dirname, "..", "..", "examples", "matmul.kernel.ts"), "utf8");
  const kernel = parseKernelFile("matmul.kernel.ts", text).kernels[0];
  const one = compileKernel(kernel, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16, num_stages: 1 }).kernel!;
  const two = compileKernel(kernel, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }).kernel!;
  const prefetchVars = (wgsl: string) => (wgsl.match(/^ {2}var x\d+_0: f32 = v/gm) ?? []).length;
  assert.equal(prefetchVars(one.wgsl), 0);
  assert.equal(prefetchVars(two.wgsl), 2);
});

test("a loop with a tile loaded from a pointer advanced after the dot is pipelined", () => {
  const ir = lower(dotLoop(`    const ta = tl.load(a_ptrs, tl.expandDims(k0 + kk, 0) < K, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);\n    a_ptrs += BK;`), { BK: 16 });
  assert.equal(tileOfAStaysInLoop(ir), false, "its tile of A is read from the prefetch register");
});

test("a load whose mask is a variable the loop body declares stays in the loop (FlagGems' bmm: `mask_a` chosen by constexpr branches each trip)", () => {
  // Before: the first trip's prefetch, before the loop, read the body's own variable, which WGSL has no value of there ("unresolved value").
  const body = `    let mask_a;\n    if (BK > 8) {\n      mask_a = tl.expandDims(k0 + kk, 0) < K;\n    } else {\n      mask_a = true;\n    }\n    const ta = tl.load(a_ptrs, mask_a, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);\n    a_ptrs += BK;`;
  const ir = lower(dotLoop(body), { BK: 16 });
  assert.equal(tileOfAStaysInLoop(ir), true);
  assert.ok(compileKernel(parseKernelFile("t.kernel.ts", dotLoop(body)).kernels[0], { BK: 16 }).kernel, "the WGSL compiles");
});

/** The loop's tile of A (the load through `a_ptrs` or from `a`) is still loaded in the loop, not prefetched. */
function tileOfAStaysInLoop(ir: KernelIR): boolean {
  const loadOfA = (s: Stmt) => s.kind === "let" && s.value.op === "load" && s.value.ptr.type.kind === "pointer" && s.value.ptr.type.param === "a";
  const original = loopOf(ir).body.find(loadOfA) as Stmt & { kind: "let" };
  const piped = loopOf(pipelineDotLoads(ir, 128)).body.find((s) => s.kind === "let" && s.value.id === original.value.id) as Stmt & { kind: "let" };
  return piped.value.op === "load";
}

test("loops without tl.dot are left to the driver (layer norm ran slower prefetched)", () => {
  const text = readFileSync(join(__dirname, "..", "..", "examples", "layer-norm.kernel.ts"), "utf8");
  const ir = lower(text, { BLOCK_SIZE: 1024 });
  assert.equal(pipelineDotLoads(ir, 128), ir);
});

test("the next trip's loads are masked with the loop's condition, so a trip that doesn't run reads nothing", () => {
  const text = readFileSync(join(__dirname, "..", "..", "examples", "matmul.kernel.ts"), "utf8");
  const piped = pipelineDotLoads(lower(text, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }), 128);
  const loop = loopOf(piped);
  const guard = loop.body.find((s) => s.kind === "let" && s.value.op === "binary" && s.value.fn === loop.cmp && s.value.rhs.id === loop.end.id) as Stmt & { kind: "let" };
  assert.ok(guard);
  const masked = loop.body.filter((s) => s.kind === "let" && s.value.op === "load" && s.value.mask?.op === "binary" && s.value.mask.fn === "land");
  assert.equal(masked.length, 2, "both prefetched tiles carry the guard in their mask");
  const before = piped.body.slice(0, piped.body.indexOf(loop));
  assert.ok(before.some((s) => s.kind === "let" && s.value.op === "binary" && s.value.fn === loop.cmp), "so does the first trip's, before the loop");
});

for (const [why, body] of [
  ["the pointer is advanced before the dot", `    a_ptrs += BK;\n    const ta = tl.load(a_ptrs, tl.expandDims(k0 + kk, 0) < K, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);`],
  ["the pointer is advanced twice", `    const ta = tl.load(a_ptrs, tl.expandDims(k0 + kk, 0) < K, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);\n    a_ptrs += 8;\n    a_ptrs += 8;`],
  ["the loop stores into a buffer it loads from", `    const ta = tl.load(a_ptrs, tl.expandDims(k0 + kk, 0) < K, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);\n    tl.store(a + tl.arange(0, 16), tl.sum(acc, 0));\n    a_ptrs += BK;`],
  ["the tile's address is itself loaded", `    const off = tl.cast(tl.load(c + kk), "i32");\n    const ta = tl.load(a + tl.expandDims(r, 1) * K + tl.expandDims(off, 0));\n${tileB}\n    acc = tl.dot(ta, tb, acc);`],
  ["the pointer's next value depends on the dot", `    const ta = tl.load(a_ptrs, tl.expandDims(k0 + kk, 0) < K, 0.0);\n${tileB}\n    acc = tl.dot(ta, tb, acc);\n    a_ptrs += tl.cast(tl.sum(tl.sum(acc, 0), 0), "i32") * 0 + BK;`],
] as const) {
  test(`the tile of A is not prefetched when ${why}`, () => {
    assert.ok(tileOfAStaysInLoop(lower(dotLoop(body), { BK: 16 })));
  });
}

// What the code generator makes of examples/attention.kernel.ts's key loop for the H200 (subgroups
// of 32, 48 KiB): barriers, subgroup shuffles and staged softmax per key block, with each switch
// (CodegenOptions.rowLayouts, CodegenOptions.privateDotTiles) on and off — the counts bench/NOTES.md §17 predicts
// from. The GPU results of the same paths are checked in test/gpu/attention.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";
import type { CodegenOptions, Target } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "../../examples/attention.kernel.ts"), "utf8");
const H200: Target = { shaderF16: false, subgroups: true, subgroupMinSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152 };

function wgsl(constexprs: Record<string, number>, options: CodegenOptions = {}): string {
  const kernel = parseKernelFile("attention.kernel.ts", SOURCE).kernels[0];
  const result = compileKernel(kernel, { HEAD_DIM: 64, IS_CAUSAL: 0, ...constexprs }, H200, specializationFor(kernel, { stride_k: 1 }), options);
  assert.ok(result.kernel, result.diagnostics.map((d) => d.message).join("\n"));
  return result.kernel.wgsl;
}

/** The key loop: the first `for` at the top level of main, to its closing brace. */
function keyLoop(text: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => /^ {2}for \(/.test(l));
  const end = lines.findIndex((l, i) => i > start && l === "  }");
  return lines.slice(start, end + 1).join("\n");
}

const count = (text: string, re: RegExp) => (text.match(re) ?? []).length;

test("64×32×64 at 128 invocations: the softmax in subgroup shuffles, 4 barriers per key block (2 with privateDotTiles)", () => {
  const blocks = { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 64, num_warps: 4 };
  const rows = [
    { target: {}, barriers: 4, shuffles: 24, staged: false },
    { target: { privateDotTiles: true }, barriers: 2, shuffles: 24, staged: false },
    { target: { rowLayouts: false, privateDotTiles: true }, barriers: 10, shuffles: 0, staged: true },
    { target: { rowLayouts: false }, barriers: 12, shuffles: 0, staged: true },
  ];
  for (const row of rows) {
    const loop = keyLoop(wgsl(blocks, row.target));
    const what = JSON.stringify(row.target);
    assert.equal(count(loop, /workgroupBarrier\(\)/g), row.barriers, `${what}: barriers`);
    assert.equal(count(loop, /subgroupShuffleXor/g), row.shuffles, `${what}: shuffles`);
    assert.equal(/sm_x_f32\[/.test(loop), row.staged, `${what}: softmax staged in workgroup memory`);
  }
});

test("the session-3 shape 64×32×32 at 256 invocations keeps its WGSL: scores not tiled, BLOCK_D loop of two trips", () => {
  const blocks = { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 32 };
  assert.equal(wgsl(blocks), wgsl(blocks, { rowLayouts: false, privateDotTiles: true }));
});

test("tiled [32, 64] scores and [64, 32] V (BLOCK_M = HEAD_DIM) each get their own tile", () => {
  const text = wgsl({ BLOCK_M: 32, BLOCK_N: 64, BLOCK_D: 32, HEAD_DIM: 32, num_warps: 2 });
  assert.match(text, /let tile_32x64 = /);
  assert.match(text, /let tile_64x32 = /);
});

test("private dot arrays fall back to the shared pair when both pairs don't fit (64×64×64: 64 KiB)", () => {
  const text = wgsl({ BLOCK_M: 64, BLOCK_N: 64, BLOCK_D: 64, num_warps: 4 });
  assert.doesNotMatch(text, /var<workgroup> sm_d\d+a_/);
  assert.equal(count(keyLoop(text), /workgroupBarrier\(\)/g), 4);
});

// Tutorial 06 as written (test/learner/as-written) loads q before its key loop; codegen/sink.ts
// loads it inside, where the hand-written example does, so no q registers live across the trips.
const AS_WRITTEN = readFileSync(join(__dirname, "../../test/learner/as-written/t06-attention-forward.kernel.ts"), "utf8");

function asWritten(stage: 1 | 3, options: CodegenOptions = {}): string {
  const kernel = parseKernelFile("t06-attention-forward.kernel.ts", AS_WRITTEN).kernels.find((k) => k.name === "_attn_fwd")!;
  const result = compileKernel(kernel, { HEAD_DIM: 64, BLOCK_M: 128, BLOCK_N: 32, STAGE: stage, num_warps: 8 }, H200, {}, options);
  assert.ok(result.kernel, result.diagnostics.map((d) => d.message).join("\n"));
  return result.kernel.wgsl;
}

/** The lines of main before its first loop, and those of its loops (each `for` at main's top level to its closing brace). */
function split(text: string): { before: string; loops: string[] } {
  const lines = text.split("\n");
  const main = lines.findIndex((l) => /^fn main/.test(l) || /@compute/.test(l));
  const loops: string[] = [];
  let first = -1;
  for (let i = main; i < lines.length; i++) {
    if (!/^ {2}for \(/.test(lines[i])) continue;
    if (first < 0) first = i;
    const end = lines.findIndex((l, j) => j > i && l === "  }");
    loops.push(lines.slice(i, end + 1).join("\n"));
    i = end;
  }
  return { before: lines.slice(main, first).join("\n"), loops };
}

test("tutorial 06 as written: q is loaded inside each key loop (one loop, and both causal stages), not before them", () => {
  for (const stage of [1, 3] as const) {
    const { before, loops } = split(asWritten(stage));
    assert.equal(loops.length, stage === 1 ? 1 : 2, `STAGE ${stage}: key loops`);
    assert.doesNotMatch(before, /b_Q\[/, `STAGE ${stage}: no load of Q before the loops`);
    for (const loop of loops) assert.match(loop, /b_Q\[/, `STAGE ${stage}: Q loaded in the loop`);
  }
  const { before, loops } = split(asWritten(1, { sinkInvariantDotLoads: false }));
  assert.match(before, /b_Q\[/, "sinkInvariantDotLoads: false loads Q before the loop, as written");
  assert.doesNotMatch(loops[0], /b_Q\[/);
});

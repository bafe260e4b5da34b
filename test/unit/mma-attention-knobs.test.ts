// Attention's two tl.dot calls on subgroup matrices under the knobs that bring them toward the
// hand-written flash kernel (bench/flash-kernels.ts; bench/NOTES.md §29): Q held in left matrices
// for the whole key loop (mmaHoldInvariant) and the barriers a "once" dot does not need left out
// (mmaLeanBarriers), and the rows of both products' tiles one per invocation (mmaLaneRows). Compiled only, for the H200 (49152 bytes of workgroup memory, 16×16×16 f16
// matrices) at tutorial 06's launch of record (4 × 32 × 4096 × 64, specialised as the harness
// does), and checked statically: no workgroup array is both written and read between two barriers
// (test/support/barrier-phases.ts), over two trips of every loop. test/gpu/mma-attention.test.ts
// runs them (emulated) on lavapipe.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor, type KernelSource } from "../../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../../src/ir/target";
import { loopBarriers, phaseRaces } from "../support/barrier-phases";

const root = join(__dirname, "..", "..");
const H200: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
  subgroupMatrixConfigs: [[16, 16, 16], [16, 8, 16], [16, 8, 8]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K })),
};

function attention(): KernelSource {
  const file = join(root, "examples", "attention-f16.kernel.ts");
  const kernel = parseKernelFile(file, readFileSync(file, "utf8")).kernels.find((k) => k.name === "attn_fwd_f16");
  assert.ok(kernel);
  return kernel;
}

const [Z, H, N, D] = [4, 32, 4096, 64];
const AT_4096 = specializationFor(attention(), { stride_z: H * N * D, stride_h: N * D, stride_m: D, stride_k: 1, H, N_CTX: N });

function wgsl(constexprs: Record<string, number>, options: CodegenOptions): { text: string; bytes: number } {
  const compiled = compileKernel(attention(), { HEAD_DIM: D, ...constexprs }, H200, AT_4096, options);
  assert.ok(compiled.kernel, JSON.stringify(compiled.diagnostics));
  assert.deepEqual(compiled.diagnostics, []);
  return { text: compiled.kernel.wgsl, bytes: compiled.kernel.abi.workgroupBytes };
}

// The key loop is peeled by default (codegen/whole-trips.ts): its whole trips' loop, then the rest's,
// each with the loop's body; the counts below of what is in the loop are of both.
const COPIES = 2;
/** The line that opens the key loop: its `for`, or the block of its two peeled loops. */
const keyLoop = (lines: readonly string[]) => lines.findIndex((l) => /^ {2}(for \(var |\{$)/.test(l));

// Both knobs are on by default (NOTES §39): the plain setting turns both off.
const SETTINGS: CodegenOptions[] = [{ mmaHoldInvariant: false, mmaLeanBarriers: false }, { mmaHoldInvariant: true, mmaLeanBarriers: false }, { mmaHoldInvariant: false, mmaLeanBarriers: true }, { mmaHoldInvariant: true, mmaLeanBarriers: true }];

test("64 × 64 over 8 subgroups: 8 barriers a key block by default, 4 lean; Q held frees its 9 KiB array; no phase both writes and reads an array", () => {
  for (const causal of [0, 1]) {
    const [plain, hold, lean, both] = SETTINGS.map((o) => wgsl({ BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: causal, num_warps: 8 }, o));
    assert.deepEqual([plain, hold, lean, both].map((w) => loopBarriers(w.text)), [8, 8, 4, 4]);
    assert.deepEqual([plain, hold, lean, both].map((w) => w.bytes), [45056, 35840, 45056, 35840]);
    for (const w of [plain, hold, lean, both]) assert.deepEqual(phaseRaces(w.text), []);
    // The correctness launch's variant (codegen/instrument.ts) too.
    const instrumented = wgsl({ BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: causal, num_warps: 8 }, { ...SETTINGS[3], instrument: true });
    assert.deepEqual([loopBarriers(instrumented.text), phaseRaces(instrumented.text)], [4, []]);
    // Held: Q's 8 left matrices (2 rows of matrices × 4 k steps) loaded before the loop, from the
    // array P·V stages P into; in the loop only P is loaded as a left matrix (2 × 4 k steps).
    for (const w of [hold, both]) {
      assert.doesNotMatch(w.text, /sm_mma\d+q_f16/);
      const lines = w.text.split("\n");
      const [before, loop] = [lines.slice(0, keyLoop(lines)).join("\n"), lines.slice(keyLoop(lines)).join("\n")];
      assert.equal((before.match(/= subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>\(&sm_mmaa_f16/g) ?? []).length, 8);
      assert.equal((loop.match(/subgroupMatrixLoad<subgroup_matrix_left/g) ?? []).length, 8 * COPIES);
      assert.match(loop, /subgroupMatrixMultiplyAccumulate\(mma\d+_q1_3, r0, /);
    }
    assert.equal((plain.text.match(/subgroupMatrixLoad<subgroup_matrix_left/g) ?? []).length, (8 + 8) * COPIES);
  }
});

test("128 × 32 over 4 subgroups of 32 rows (mmaSubgroupsM 4, the hand-written kernel's shape): barriers a key block and workgroup bytes under each setting", () => {
  const shape = { BLOCK_M: 128, BLOCK_N: 32, IS_CAUSAL: 0, num_warps: 4, mmaSubgroupsM: 4 };
  const { mmaSubgroupsM, ...constexprs } = shape;
  const counts = SETTINGS.map((o) => {
    const w = wgsl(constexprs, { mmaSubgroupsM, ...o });
    assert.deepEqual(phaseRaces(w.text), []);
    // Each subgroup 32 rows of both products: its first row is its index × 32.
    assert.match(w.text, /let mma\d+_r = \(\(lid \/ 32u\) % 4u\) \* 32u;/);
    return [loopBarriers(w.text), w.bytes];
  });
  // Default: Q staged apart overflows 48 KiB, so the fallback halves the transfer array: S leaves
  // in 2 chunks, P·V in 4, each with 2 barriers; staging K and staging P and V 2 each; alpha moves
  // from S's rows to the accumulator's through workgroup memory (2: their layouts differ at
  // 128 × 32 and 128 × 64). Held, Q shares P's array and the 32 KiB transfer fits: S whole, P·V in
  // 2 chunks. Lean: one barrier fewer per staging and per product's first chunk.
  assert.deepEqual(counts, [[18, 43008], [12, 41984], [14, 43008], [8, 41984]]);
});

test("K and V read one block ahead (num_stages 2) under both knobs: the same barriers, no phase both writes and reads an array", () => {
  for (const [shape, options, barriers] of [
    [{ BLOCK_M: 64, BLOCK_N: 64, num_warps: 8 }, {}, 4],
    [{ BLOCK_M: 128, BLOCK_N: 32, num_warps: 4 }, { mmaSubgroupsM: 4 }, 8],
  ] as const) {
    const ahead = wgsl({ ...shape, IS_CAUSAL: 1, num_stages: 2 }, { ...options, mmaHoldInvariant: true, mmaLeanBarriers: true });
    assert.notEqual(ahead.text, wgsl({ ...shape, IS_CAUSAL: 1 }, { ...options, mmaHoldInvariant: true, mmaLeanBarriers: true }).text);
    assert.deepEqual(phaseRaces(ahead.text), []);
    assert.equal(loopBarriers(ahead.text), barriers);
  }
});

// Lane rows (mmaLaneRows, NOTES §31): the 128 rows of S [128, 32] and of the accumulator [128, 64]
// one per invocation, as the hand-written kernel's lanes hold them.
const LANES: CodegenOptions[] = SETTINGS.map((o) => ({ ...o, mmaLaneRows: true }));
const AT_128x32 = { BLOCK_M: 128, BLOCK_N: 32, num_warps: 4 };

test("lane rows at 128 × 32 over 4 subgroups: the rescale factor moves in registers (2 barriers a key block fewer), 6 with Q held and the lean barriers, the hand-written kernel's count", () => {
  for (const causal of [0, 1]) {
    const counts = LANES.map((o) => {
      const w = wgsl({ ...AT_128x32, IS_CAUSAL: causal }, { mmaSubgroupsM: 4, ...o });
      assert.deepEqual(phaseRaces(w.text), []);
      // Invocation t holds row t of both tiles and of every row vector: no array for alpha.
      assert.match(w.text, /let tile_128x32 = i32\(lid\) \* 32;/);
      assert.match(w.text, /let tile_128x64 = i32\(lid\) \* 64;/);
      assert.match(w.text, /let rows_128 = i32\(lid\);/);
      assert.doesNotMatch(w.text, /sm_x_f32|subgroupShuffle/);
      return [loopBarriers(w.text), w.bytes];
    });
    // Against 18 / 12 / 14 / 8 without (the test above). S leaves whole; P·V [128, 64] in 2 chunks of
    // 32 columns (every invocation reads 32 floats of its row from each), 3 barriers, 2 when lean.
    assert.deepEqual(counts, [[16, 43520], [10, 41472], [12, 43520], [6, 41472]]);
  }
  const both = wgsl({ ...AT_128x32, IS_CAUSAL: 0 }, { mmaSubgroupsM: 4, ...LANES[3] }).text;
  assert.equal((both.match(/if \(mma\d+_c \+ \d+u - 32u < 32u\)/g) ?? []).length, 8 * COPIES, "P·V's 8 matrices a subgroup, second chunk of columns");
  // The correctness launch's variant (codegen/instrument.ts) too.
  const instrumented = wgsl({ ...AT_128x32, IS_CAUSAL: 1 }, { mmaSubgroupsM: 4, ...LANES[3], instrument: true }).text;
  assert.deepEqual([loopBarriers(instrumented), phaseRaces(instrumented)], [6, []]);
  // Each subgroup whole rows of both products (P·V's squarest split would be 2 × 2), unless asked.
  assert.equal(wgsl({ ...AT_128x32, IS_CAUSAL: 0 }, LANES[3]).text, both);
  assert.match(wgsl({ ...AT_128x32, IS_CAUSAL: 0 }, { ...LANES[3], mmaSubgroupsM: 2 }).text, /let mma\d+_r = \(\(lid \/ 32u\) % 2u\) \* 64u;/);
});

test("lane rows at 64 × 32 over 2 subgroups of 32 rows: 4 barriers a key block with Q held and the lean barriers (6 without; the hand-written kernel 6): P·V [64, 64] leaves whole", () => {
  const counts = [SETTINGS[3], LANES[3]].map((o) => {
    const w = wgsl({ BLOCK_M: 64, BLOCK_N: 32, IS_CAUSAL: 1, num_warps: 2 }, o);
    assert.deepEqual(phaseRaces(w.text), []);
    return [loopBarriers(w.text), w.bytes];
  });
  assert.deepEqual(counts, [[6, 31488], [4, 31232]]);
});

test("lane rows with K and V read one block ahead (num_stages 2): 6 barriers, no phase both writes and reads an array, and the race check finds each barrier taken out", () => {
  for (const causal of [0, 1]) {
    const ahead = wgsl({ ...AT_128x32, IS_CAUSAL: causal, num_stages: 2 }, { mmaSubgroupsM: 4, ...LANES[3] }).text;
    assert.notEqual(ahead, wgsl({ ...AT_128x32, IS_CAUSAL: causal }, { mmaSubgroupsM: 4, ...LANES[3] }).text);
    assert.deepEqual([loopBarriers(ahead), phaseRaces(ahead)], [6, []]);
    const lines = ahead.split("\n");
    const loop = keyLoop(lines);
    const barriers = lines.flatMap((l, i) => (l.includes("workgroupBarrier()") && i > loop ? [i] : []));
    assert.equal(barriers.length, 6 * COPIES);
    for (const i of barriers) assert.notDeepEqual(phaseRaces(lines.filter((_, j) => j !== i).join("\n")), [], `without the barrier of line ${i + 1}`);
  }
});

test("lane rows change nothing where no block has one row per invocation (64 × 64 over 8 subgroups) nor in a kernel without row reductions (the f16 matmul)", () => {
  const shape = { BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: 1, num_warps: 8 };
  assert.equal(wgsl(shape, LANES[3]).text, wgsl(shape, SETTINGS[3]).text);
  const file = join(root, "examples", "matmul-f16.kernel.ts");
  const matmul = parseKernelFile(file, readFileSync(file, "utf8")).kernels.find((k) => k.name === "matmul_f16_kernel")!;
  const compile = (o: CodegenOptions) => compileKernel(matmul, { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, GROUP_M: 8, num_warps: 4 }, H200, {}, o).kernel!.wgsl;
  assert.equal(compile({ mmaLaneRows: true }), compile({}));
});

test("lean with the product in chunks (mmaTransferBytes 8192 at 64 × 64): every chunk after the first keeps its barrier", () => {
  const lean = wgsl({ BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: 1, num_warps: 8 }, { mmaHoldInvariant: false, mmaLeanBarriers: true, mmaTransferBytes: 8192 });
  assert.deepEqual(phaseRaces(lean.text), []);
  // 4 chunks of 16 rows per product: 1 + (2 × 4 − 1) per dot; without the knob 2 + 2 × 4.
  assert.equal(loopBarriers(lean.text), 16);
  assert.equal(loopBarriers(wgsl({ BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: 1, num_warps: 8 }, { ...SETTINGS[0], mmaTransferBytes: 8192 }).text), 20);
});

test("the race check finds a barrier taken out of the lean kernel, whichever it is", () => {
  const { text } = wgsl({ BLOCK_M: 64, BLOCK_N: 64, IS_CAUSAL: 0, num_warps: 8 }, { mmaHoldInvariant: true, mmaLeanBarriers: true });
  const lines = text.split("\n");
  const loop = keyLoop(lines);
  const barriers = lines.flatMap((l, i) => (l.includes("workgroupBarrier()") && i > loop ? [i] : []));
  assert.equal(barriers.length, 4 * COPIES);
  for (const i of barriers) assert.notDeepEqual(phaseRaces(lines.filter((_, j) => j !== i).join("\n")), [], `without the barrier of line ${i + 1}`);
});

test("a kernel with a loop plan (the f16 matmul) keeps its barriers under mmaLeanBarriers", () => {
  const file = join(root, "examples", "matmul-f16.kernel.ts");
  const matmul = parseKernelFile(file, readFileSync(file, "utf8")).kernels.find((k) => k.name === "matmul_f16_kernel")!;
  const compile = (o: CodegenOptions) => compileKernel(matmul, { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, GROUP_M: 8, num_warps: 8 }, H200, {}, o).kernel!.wgsl;
  const plain = compile({});
  assert.equal(compile({ mmaLeanBarriers: true }), plain);
  assert.deepEqual(phaseRaces(plain), []);
});

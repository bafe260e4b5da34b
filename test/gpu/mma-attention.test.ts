// examples/attention-f16.kernel.ts (tutorial 06 in f16) with both dots on subgroup matrices,
// emulated on lavapipe (CodegenOptions.subgroupMatrixEmulation: the same staging, barriers and
// transfers as the H200's code, each matrix in private arrays), under the knobs that bring it
// toward the hand-written flash kernel (bench/NOTES.md §29): Q held in left matrices for the key
// loop (mmaHoldInvariant), the barriers a "once" dot does not need left out (mmaLeanBarriers),
// each alone and together, causal and not. Against float64 of the f16 inputs and the interpreter;
// 40 tokens (a partial block of queries and of keys), heads of 32, Out NaN-poisoned.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertClose, randomFloats, runBoth, runCompiled, splitOverrides, type Overrides } from "../support/kernel-runner";
import { compilePythonKernel, readPythonFile } from "../../src/python";
import { acquireGpu } from "../../src/runtime";
import { f16FromBits, f16ToBits } from "../../src/ir/f16";
import type { CodegenOptions } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "..", "..", "examples", "attention-f16.kernel.ts"), "utf8");
const EMULATED: Overrides = {
  subgroupMatrixEmulation: true,
  subgroupMatrixConfigs: [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }],
};
const [H, N, D] = [2, 40, 32];

function halves(n: number): { bits: Uint16Array; values: Float64Array } {
  const bits = Uint16Array.from(randomFloats(n, -2, 2), f16ToBits);
  return { bits, values: Float64Array.from(bits, f16FromBits) };
}

/** softmax(Q·Kᵀ / √D)·V per head, in float64. */
function reference(q: Float64Array, k: Float64Array, v: Float64Array, causal: boolean): Float64Array {
  const out = new Float64Array(H * N * D);
  for (let h = 0; h < H; h++) {
    const base = h * N * D;
    for (let i = 0; i < N; i++) {
      const keys = causal ? i + 1 : N;
      const s = Array.from({ length: keys }, (_, j) => {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += q[base + i * D + d] * k[base + j * D + d];
        return dot / Math.sqrt(D);
      });
      const max = Math.max(...s);
      const p = s.map((x) => Math.exp(x - max));
      const sum = p.reduce((a, b) => a + b, 0);
      for (let d = 0; d < D; d++) out[base + i * D + d] = p.reduce((acc, pj, j) => acc + pj * v[base + j * D + d], 0) / sum;
    }
  }
  return out;
}

async function check(causal: boolean, knobs: CodegenOptions, stages?: number, BLOCK_M = 32): Promise<string> {
  const [q, k, v] = [halves(H * N * D), halves(H * N * D), halves(H * N * D)];
  const { gpu, cpu, kernel } = await runBoth({
    source: SOURCE, constexprs: { BLOCK_M, BLOCK_N: 16, HEAD_DIM: D, IS_CAUSAL: causal ? 1 : 0, ...(stages ? { num_stages: stages } : {}) },
    target: { ...EMULATED, workgroupSize: 64, ...knobs }, grid: [Math.ceil(N / BLOCK_M), H],
    args: {
      Q: q.bits, K: k.bits, V: v.bits, Out: new Uint16Array(H * N * D).fill(0x7e00), sm_scale: 1 / Math.sqrt(D),
      stride_z: H * N * D, stride_h: N * D, stride_m: D, stride_k: 1, H, N_CTX: N,
    },
    outputs: ["Out"], specialize: true,
  });
  // Both dots in the key loop, which is peeled unless wholeTrips is false (codegen/whole-trips.ts): each written twice.
  assert.equal((kernel.wgsl.match(/per subgroup \(emulated\)/g) ?? []).length, knobs.wholeTrips === false ? 2 : 4, "both dots on (emulated) matrices");
  const want = reference(q.values, k.values, v.values, causal);
  // P and Out rounded to f16 (2^-11 relative each), as the example's own tolerance says.
  for (const [side, got] of [["gpu", gpu.Out], ["cpu", cpu.Out]] as const) assertClose(Float64Array.from(got as Uint16Array, f16FromBits), want, `${side} Out`, 4e-3, 4e-3);
  return kernel.wgsl;
}

// Each knob alone one way, and both together both ways, the causal one with K and V read a block
// ahead (num_stages 2) (lavapipe compiles each emulated kernel in seconds: four, not six).
const CASES: [boolean, CodegenOptions, number?][] = [
  [false, { mmaHoldInvariant: true, mmaLeanBarriers: false }], [true, { mmaHoldInvariant: false, mmaLeanBarriers: true }],
  [false, { mmaHoldInvariant: true, mmaLeanBarriers: true }], [true, { mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
for (const [causal, knobs, stages] of CASES) {
  test(`attention-f16 on emulated matrices, ${causal ? "causal" : "not causal"}, ${Object.keys(knobs).join(" and ")}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages);
    assert.equal(/mma\d+_q0_1\b/.test(wgsl), knobs.mmaHoldInvariant !== false, "Q's 2 left matrices held from before the loop");
  });
}

// Lane rows (mmaLaneRows, NOTES §31): 64 query rows over 64 invocations, one row each — the
// scores, the accumulator and the rescale factor in the same invocation, no array between them.
// With all three knobs; causal with K and V read a block ahead and the product leaving the
// matrices in 2 chunks of 16 columns (a 4 KiB transfer array), so that the chunked way out runs.
const LANES: [boolean, CodegenOptions, number?][] = [
  [false, { mmaLaneRows: true, mmaHoldInvariant: true, mmaLeanBarriers: true }],
  [true, { mmaLaneRows: true, mmaHoldInvariant: true, mmaLeanBarriers: true, mmaTransferBytes: 4096 }, 2],
];
for (const [causal, knobs, stages] of LANES) {
  test(`attention-f16 on emulated matrices, 64 rows one per invocation, ${causal ? "causal" : "not causal"}, ${Object.keys(knobs).join(" and ")}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages, 64);
    assert.match(wgsl, /let tile_64x16 = i32\(lid\) \* 16;/);
    assert.match(wgsl, /let tile_64x32 = i32\(lid\) \* 32;/);
    assert.doesNotMatch(wgsl, /var<workgroup> sm_x/, "the rescale factor reaches the accumulator in registers");
    // In each of the peeled key loop's two copies (codegen/whole-trips.ts).
    if (knobs.mmaTransferBytes) assert.equal((wgsl.match(/if \(mma\d+_c \+ 16u - 16u < 16u\)/g) ?? []).length, 2 * 2, "P·V's second chunk of columns");
  });
}

// Row threads (mmaRowThreads): the scores' rows held by fewer invocations each than the default
// tile's, so that each row reduction takes fewer shuffle steps — 2 a row with one row each (the
// scores [32, 16] over 64 invocations), and 4 a row with two rows each (causal, K and V a block
// ahead). Blocks the count doesn't fit (K's [16, 32]) keep the default layout.
const ROW_THREADS: [boolean, CodegenOptions, number?][] = [
  [false, { mmaRowThreads: 2, mmaHoldInvariant: true, mmaLeanBarriers: true }],
  [true, { mmaRowThreads: 4, mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
for (const [causal, knobs, stages] of ROW_THREADS) {
  test(`attention-f16 on emulated matrices, rows held by ${knobs.mmaRowThreads} invocations each, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages);
    const tc = knobs.mmaRowThreads!;
    const rows = 64 / tc === 32 ? 1 : 2;
    assert.match(wgsl, new RegExp(`let tile_32x16 = \\(i32\\(lid\\) / ${tc}\\) \\* ${rows * 16} \\+ \\(i32\\(lid\\) % ${tc}\\) \\* 4;`));
    assert.match(wgsl, new RegExp(`let rows_32 = \\(i32\\(lid\\) / ${tc}\\) \\* ${rows};`));
  });
}

// Row sums deferred (deferRowSums, codegen/deferred-sums.ts): l_i carried as the terms of its sum,
// one per score, and added up once after the key loop. Of the loop's two row reductions (the
// maximum, the sum; here through workgroup memory: 16 columns over 4 invocations a row) one is
// left in it, and the sum is made once after it. Causal with K and V a block ahead, and not.
const DEFERRED: [boolean, CodegenOptions, number?][] = [
  [false, { deferRowSums: true }],
  [true, { deferRowSums: true, mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
/** The row reductions of the key loop (both copies of it, peeled: codegen/whole-trips.ts) and of what follows it (each a `for (var m` over a row's partials). */
function rowReductions(wgsl: string): [number, number] {
  const start = wgsl.indexOf("\n  {\n    var x");
  const end = wgsl.indexOf("\n  }\n", start);
  assert.ok(start > 0 && end > start, "the key loop");
  const count = (text: string) => (text.match(/for \(var m: i32/g) ?? []).length;
  return [count(wgsl.slice(start, end)), count(wgsl.slice(end))];
}
for (const [causal, knobs, stages] of DEFERRED) {
  test(`attention-f16 on emulated matrices, row sums added up after the loop, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const [inLoop, after] = rowReductions(await check(causal, { ...knobs, deferRowSums: false }, stages));
    // One fewer in each copy of the key loop, one more after it.
    assert.deepEqual(rowReductions(await check(causal, knobs, stages)), [inLoop - 2, after + 1]);
  });
}

// The transfer array's row padding (mmaTransferPad): both products leave the matrices through rows
// of their width plus the padding (the scores' 16 columns, P·V's 32), none, and 16 with the rows
// held by 4 invocations each (causal, K and V a block ahead), the layout §48 suspects of bank
// conflicts at the default 4.
const PADS: [boolean, CodegenOptions, number?][] = [
  [false, { mmaTransferPad: 0 }],
  [true, { mmaTransferPad: 16, mmaRowThreads: 4, mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
for (const [causal, knobs, stages] of PADS) {
  test(`attention-f16 on emulated matrices, the transfer rows padded by ${knobs.mmaTransferPad} floats, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages);
    // Emulated, each matrix is stored element by element: `sm_mmac_f32[offset + (e / 16u) * STRIDEu + e % 16u]`.
    const strides = [...wgsl.matchAll(/sm_mmac_f32\[[^\]]*\(e \/ 16u\) \* (\d+)u \+ e % 16u\] =/g)].map((m) => Number(m[1]));
    assert.deepEqual([...new Set(strides)].sort((a, b) => a - b), [16, 32].map((w) => w + knobs.mmaTransferPad!));
  });
}

// The running row maximum kept where it is while no score passes it by 8 (lazyRowMax,
// codegen/lazy-max.ts): the key loop's maximum shuffled under a subgroup's vote, and the same
// results. The scores' rows over 4 and 2 invocations (mmaRowThreads: the default tile of these small
// blocks is no tile, whose rows are combined through workgroup memory; lavapipe's subgroups hold 8
// invocations). Causal with K and V a block ahead and the row sums deferred too, and not.
const LAZY: [boolean, CodegenOptions, number?][] = [
  [false, { lazyRowMax: true, mmaRowThreads: 4 }],
  [true, { lazyRowMax: true, mmaRowThreads: 2, deferRowSums: true, mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
for (const [causal, knobs, stages] of LAZY) {
  test(`attention-f16 on emulated matrices, the row maximum moved only when a score passes it, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const exact = await check(causal, { ...knobs, lazyRowMax: false }, stages);
    const wgsl = await check(causal, knobs, stages);
    const steps = Math.log2(knobs.mmaRowThreads!);
    const rows = 64 / knobs.mmaRowThreads! === 32 ? 1 : 2;
    const shuffles = (text: string) => (text.match(/= max\((\w+), subgroupShuffleXor\(\1, \d+u\)\);/g) ?? []).length;
    // The maximum's steps are the same, now under one vote in the loop.
    assert.equal(shuffles(wgsl), shuffles(exact));
    const vote = /if \(subgroupAny\(([^\n]*)\)\) \{\n((?:\s+\w+ = max\(\w+, subgroupShuffleXor\(\w+, \d+u\)\);\n)+)\s+\} else \{\n((?:\s+\w+ = \w+;\n)+)\s+\}/.exec(wgsl);
    assert.ok(vote, "the vote, its shuffles, and the running maximum kept otherwise");
    assert.equal(vote[1].split(" || ").length, rows, "each row's maximum against its running maximum + 8");
    assert.match(vote[1], /^\w+ > \w+ \+ 8\.0( \|\| \w+ > \w+ \+ 8\.0)*$/);
    assert.equal(shuffles(vote[2]), rows * steps);
    assert.equal(vote[3].trim().split("\n").length, rows);
    assert.match(wgsl, /^diagnostic\(off, subgroup_uniformity\);$/m);
    assert.doesNotMatch(exact, /subgroupAny/);
  });
}

// The key loop peeled (wholeTrips, codegen/whole-trips.ts): a first loop runs the trips while every
// key of the block is below N_CTX (and, causal, at or before every query row), with those
// comparisons true; a second the rest as written. 40 keys in blocks of 16: two whole trips and an
// edge; causal, program 0's last trip and program 1's third cross the diagonal. With the leader's
// other knobs, and causal with K and V a block ahead (the next block's keys tested too).
const WHOLE: [boolean, CodegenOptions, number?][] = [
  [false, { wholeTrips: true, halfLoadForm: "select", splitTileIndices: true, lazyRowMax: true, deferRowSums: true, mmaRowThreads: 4 }],
  [true, { wholeTrips: true, mmaHoldInvariant: true, mmaLeanBarriers: true }, 2],
];
for (const [causal, knobs, stages] of WHOLE) {
  test(`attention-f16 on emulated matrices, the key loop's whole trips peeled, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages);
    const loop = /var (\w+): i32 = 0i;\n\s+for \(; \1 < (\w+) && ([^\n]*); \1 = \1 \+ 16i\) \{\n/.exec(wgsl);
    assert.ok(loop, "the whole trips' loop, its test beside the bound");
    assert.ok(wgsl.includes(`for (; ${loop[1]} < ${loop[2]}; ${loop[1]} = ${loop[1]} + 16i) {`), "the rest from where it stopped");
    const tests = loop[3].split(" && ");
    // Keys below N_CTX, causal keys at or before the block's first query row, and with num_stages 2 the next block's keys below N_CTX.
    assert.equal(tests.length, 1 + (causal ? 1 : 0) + (stages === 2 ? 1 : 0), loop[3]);
    assert.ok(tests.every((t) => t.includes(loop[1]) && /- 15i\) >= [01]i$/.test(t)), loop[3]);
    assert.match(wgsl, /let \w+ = true;/, "the comparisons true in the whole trips");
  });
}

// Runs of 8 (runsOf8, layout.ts): Q, K and V read 16 bytes at a time (bound as vec4<u32>), the blocks of
// 8 or more a row held 8 contiguous halves an invocation; blocks of 32 and 64 query rows, causal with the
// leader's knobs and K and V a block ahead.
const RUNS8: [boolean, CodegenOptions, number?, number?][] = [
  [false, { runsOf8: true }, undefined, 32],
  [true, { runsOf8: true, halfLoadForm: "select", splitTileIndices: true, lazyRowMax: true, deferRowSums: true }, 2, 64],
];
for (const [causal, knobs, stages, blockM] of RUNS8) {
  test(`attention-f16 on emulated matrices, runs of 8, ${blockM} query rows, ${causal ? "causal" : "not causal"}${stages ? `, num_stages ${stages}` : ""}`, async () => {
    const wgsl = await check(causal, knobs, stages, blockM);
    assert.match(wgsl, /var<storage, read> b_Q: array<vec4<u32>>;/, "Q read 8 halves at a time");
    assert.match(wgsl, /var<storage, read> b_K: array<vec4<u32>>;/, "K read 8 halves at a time");
  });
}

// The same attention in Triton's own Python spelling (src/python/), as kernel libraries write its
// forward loop (pointer arithmetic, masked loads, `p.to(tl.float16)`, the accumulator rescaled
// before the dot): on emulated matrices its key loop is peeled by default too, causal and not.
const PYTHON_ATTENTION = `import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, K, V, Out, sm_scale, stride_h, stride_m, N_CTX,
             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr, IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    base = tl.program_id(1) * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = N_CTX
    if IS_CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        qk = tl.dot(q, tl.trans(k))
        qk = tl.where(cols[None, :] < N_CTX, qk * qk_scale, float("-inf"))
        if IS_CAUSAL:
            qk = tl.where(offs_m[:, None] >= cols[None, :], qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)
`;
for (const causal of [false, true]) {
  test(`attention-f16 in Triton's Python spelling on emulated matrices, the key loop peeled by default, ${causal ? "causal" : "not causal"}`, async () => {
    const gpu = await acquireGpu();
    const pointer = { kind: "pointer", dtype: "f16" } as const;
    const types = { Q: pointer, K: pointer, V: pointer, Out: pointer, sm_scale: { kind: "scalar", dtype: "f32" }, stride_h: { kind: "scalar", dtype: "i32" }, stride_m: { kind: "scalar", dtype: "i32" }, N_CTX: { kind: "scalar", dtype: "i32" } } as const;
    const { facts, options } = splitOverrides({ ...EMULATED, workgroupSize: 64 });
    const BLOCK_M = 32;
    const compiled = compilePythonKernel(readPythonFile("attention.py", PYTHON_ATTENTION), "attn_fwd", types, { BLOCK_M, BLOCK_N: 16, HEAD_DIM: D, IS_CAUSAL: causal }, { ...gpu.target, ...facts }, {}, options);
    assert.deepEqual(compiled.diagnostics.filter((d) => d.severity === "error"), []);
    const kernel = compiled.kernel!;
    assert.equal((kernel.wgsl.match(/per subgroup \(emulated\)/g) ?? []).length, 4, "both dots on (emulated) matrices, in each of the two loops");
    const loop = /var (\w+): i32 = 0i;\n\s+for \(; \1 < \w+ && ([^\n]*); \1 = \1 \+ 16i\) \{\n/.exec(kernel.wgsl);
    assert.ok(loop, "the whole trips' loop first");
    assert.equal(loop[2].split(" && ").length, causal ? 2 : 1, loop[2]);
    const [q, k, v] = [halves(H * N * D), halves(H * N * D), halves(H * N * D)];
    const { gpu: onGpu, cpu } = await runCompiled(kernel, {
      grid: [Math.ceil(N / BLOCK_M), H],
      args: { Q: q.bits, K: k.bits, V: v.bits, Out: new Uint16Array(H * N * D).fill(0x7e00), sm_scale: 1 / Math.sqrt(D), stride_h: N * D, stride_m: D, N_CTX: N },
      outputs: ["Out"],
    });
    const want = reference(q.values, k.values, v.values, causal);
    for (const [side, got] of [["gpu", onGpu.Out], ["cpu", cpu.Out]] as const) assertClose(Float64Array.from(got as Uint16Array, f16FromBits), want, `${side} Out`, 4e-3, 4e-3);
  });
}

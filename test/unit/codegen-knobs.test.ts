// The code generator's knobs the autotuner may try (codegen/knobs.ts, harness/autotune/
// knob-candidates.ts): a kernel is offered only the knobs its plan uses, each value of which
// changes its WGSL somewhere, and the settings crossed stay bounded. Compiled only, for lavapipe
// (no subgroup matrices) and lavapipe emulating an H200's (codegen/mma-plan.ts's emulation).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, kernelKnobs, parseKernelFile, type KernelSource, type Specialization } from "../../src/compile";
import type { CodegenOptions, Target } from "../../src/ir/target";
import { CODEGEN_KNOBS, type KnobChoice, type KnobSetting } from "../../src/ir/knobs";
import { MAX_CROSSED, MAX_DESCENT_ROUNDS, checkKnobRequest, descend, knobSettings, neighbours, type TuneCandidate } from "../../src/harness/autotune/knob-candidates";
import { RunDefinitionError } from "../../src/harness/codes";
import { parseArgs } from "../../src/cli/args";
import { matmulF16 } from "../../bench/f16-cases";

const root = join(__dirname, "..", "..");
const LAVAPIPE: Target = { shaderF16: true, subgroups: true, subgroupMinSize: 8, subgroupMaxSize: 8, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 32768 };
const configs = [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }];
const EMULATED: [Target, CodegenOptions] = [{ ...LAVAPIPE, subgroupMatrixConfigs: configs }, { subgroupMatrixEmulation: true }];

function kernelOf(example: string, name: string): KernelSource {
  const file = join(root, "examples", example);
  const kernel = parseKernelFile(file, readFileSync(file, "utf8")).kernels.find((k) => k.name === name);
  assert.ok(kernel, name);
  return kernel;
}

function knobsOf(kernel: KernelSource, constexprs: Record<string, number>, target: Target, options: CodegenOptions = {}): KnobChoice[] {
  const compiled = compileKernel(kernel, constexprs, target, {}, options);
  assert.ok(compiled.kernel, JSON.stringify(compiled.diagnostics));
  return kernelKnobs(kernel, constexprs, compiled.kernel, target, options);
}

const MATMUL = { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 };

test("the f16 matmul on subgroup matrices is offered its load form, staging, store, whole trips, subgroup split, packed prefetch and shifted rows; without matrices only its loads' knobs", () => {
  const matmul = kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel");
  const [target, options] = EMULATED;
  const knobs = knobsOf(matmul, MATMUL, target, options);
  assert.deepEqual(knobs.map((k) => k.knob), ["halfLoadForm", "mmaDoubleBuffer", "mmaDirectStore", "wholeTrips", "mmaSubgroupsM", "mmaPackedPrefetch"]);
  // 4 subgroups (num_warps 4) over 4 × 4 matrices of 16 × 16: 2 × 2 (the squarest, first), 1 × 4, 4 × 1.
  assert.deepEqual(knobs.find((k) => k.knob === "mmaSubgroupsM")?.values, [2, 1, 4]);
  assert.deepEqual(knobsOf(matmul, MATMUL, LAVAPIPE).map((k) => k.knob), ["halfLoadForm"]);
  // Rows read shifted: offered where the launch's specialisation leaves rows of unit stride not
  // known aligned (1000 × 1001 × 1003), not at 1024³, nor before any specialisation (no stride known).
  const shifts = (specialization: Specialization) => {
    const compiled = compileKernel(matmul, MATMUL, target, specialization, options).kernel;
    assert.ok(compiled);
    return kernelKnobs(matmul, MATMUL, compiled, target, options).find((k) => k.knob === "shiftedHalfRows")?.values;
  };
  assert.deepEqual([shifts(AT_ODD), shifts(AT_1024), shifts({})], [[false, true, "words", "chunks"], undefined, undefined]);
  // And there, the masks' indices split term by term (the odd size's leader takes chunks, split indices and the
  // K loop peeled: bench/NOTES.md §84); not at 1024³.
  const offeredAt = (specialization: Specialization) => kernelKnobs(matmul, MATMUL, compileKernel(matmul, MATMUL, target, specialization, options).kernel!, target, options).map((k) => k.knob);
  assert.ok(offeredAt(AT_ODD).includes("splitTileIndices") && offeredAt(AT_ODD).includes("wholeTrips"));
  assert.ok(!offeredAt(AT_1024).includes("splitTileIndices"));
  // An f32 matmul loads no halves and runs no matrices: nothing to try.
  const f32 = kernelOf("matmul.kernel.ts", "matmul_kernel");
  assert.deepEqual(knobsOf(f32, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16, GROUP_M: 8 }, target, options), []);
});

/** A launch at 1024³ (compile.ts specializationFor): sizes and row strides multiples of 16, unit strides 1. */
const AT_1024 = { divisible: ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"], ones: ["stride_ak", "stride_bn", "stride_cn"] };
/** A launch at 1000 × 1001 × 1003: only the unit strides known. */
const AT_ODD = { ones: ["stride_ak", "stride_bn", "stride_cn"] };

test("every offered value of a knob changes the f16 matmul's WGSL at 1024³; a split that does not divide the tile is the default's", () => {
  const matmul = kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel");
  const [target, options] = EMULATED;
  const wgsl = (knobs: CodegenOptions) => compileKernel(matmul, MATMUL, target, AT_1024, { ...options, ...knobs }).kernel?.wgsl;
  const base = wgsl({});
  assert.ok(base);
  // The knobs offered for the launch's own program (as bench/knob-variants.ts asks): packing, not shifting.
  const offered = kernelKnobs(matmul, MATMUL, compileKernel(matmul, MATMUL, target, AT_1024, options).kernel!, target, options);
  assert.ok(offered.some((k) => k.knob === "mmaPackedPrefetch"));
  for (const { knob, values } of offered) {
    assert.equal(wgsl({ [knob]: values[0] }), base, `${knob}=${String(values[0])} is the default`);
    for (const v of values.slice(1)) assert.notEqual(wgsl({ [knob]: v }), base, `${knob}=${String(v)} changes the WGSL`);
  }
  // 3 subgroups along M split 4 rows of matrices unevenly: the plan keeps the squarest, so the tuner times it once.
  assert.equal(wgsl({ mmaSubgroupsM: 3 }), base);
  // Rows aligned at 1024³: reading them shifted changes nothing there; at 1000 × 1001 × 1003 it does,
  // and packs the prefetched tiles it reads (packed-halves.ts).
  assert.equal(wgsl({ shiftedHalfRows: true }), base);
  const odd = (knobs: CodegenOptions) => compileKernel(matmul, MATMUL, target, AT_ODD, { ...options, ...knobs }).kernel?.wgsl;
  assert.notEqual(odd({ shiftedHalfRows: true }), odd({}));
  assert.equal(odd({ mmaPackedPrefetch: true }), odd({}), "unaligned rows read element by element are not packed");
  assert.notEqual(odd({ shiftedHalfRows: true, mmaPackedPrefetch: true }), odd({ shiftedHalfRows: true }));
  // Read in words: A and B bound as u32, a change at the odd size only (memory.ts wordRunLoad).
  assert.equal(wgsl({ shiftedHalfRows: "words" }), base);
  assert.match(odd({ shiftedHalfRows: "words" }) ?? "", /var<storage, read> b_a_ptr: array<u32>;/);
  assert.notEqual(odd({ shiftedHalfRows: "words" }), odd({ shiftedHalfRows: true }));
  // In shifted 16-byte chunks: runs of 8, A and B bound as vec4<u32>, at the odd size only (memory.ts chunkRunLoad).
  assert.equal(wgsl({ shiftedHalfRows: "chunks" }), base);
  assert.match(odd({ shiftedHalfRows: "chunks" }) ?? "", /var<storage, read> b_a_ptr: array<vec4<u32>>;[\s\S]*fn kl_shifted8\([\s\S]*_0q = b_b_ptr\[cc\d+ \+ 1u\];[\s\S]*= \(kl_shifted8\(/);
});

// NOTES §21: generated, 128×128 over 4 subgroups of 4×4 matrices spilled (62.5 TFLOP/s) where the
// hand-written kernel of that shape runs at 242; the bench's --tune-codegen must time it packed, in
// runs of 4 as well as in the default runs of 8 (§63: 237.9 on the H100).
test("the bench's 4096³ f16 matmul tries packed prefetch on 128×128 over 4 subgroups of 4×4 matrices", () => {
  const matmul = kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel");
  const [target, options] = EMULATED;
  const bench = matmulF16(4096, 4096, 4096);
  const shape = { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 };
  const index = bench.configs.findIndex((c) => JSON.stringify(c) === JSON.stringify(shape));
  assert.ok(index >= 0 && index < (bench.targetConfigs ?? Infinity), "among the configs the knobs are tried on");
  const plain = compileKernel(matmul, shape, target, AT_1024, options).kernel;
  assert.ok(plain);
  const settings = knobSettings(kernelKnobs(matmul, shape, plain, target, options), true);
  assert.ok(settings[0].runsOf8 === true && settings[0].mmaPackedPrefetch === true && settings[0].halfLoadForm === "tile", JSON.stringify(settings[0]));
  assert.equal(compileKernel(matmul, shape, target, AT_1024, { ...options, ...settings[0] }).kernel?.wgsl, plain.wgsl, "the defaults first");
  assert.equal((plain.wgsl.match(/var x\d+_0: vec4<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried packed, a vec4<u32> a run of 8");
  const setting = settings.find((s) => s.mmaPackedPrefetch === true && s.runsOf8 === false);
  assert.ok(setting && setting.mmaSubgroupsM === 2, JSON.stringify(setting));
  const wgsl = compileKernel(matmul, shape, target, AT_1024, { ...options, ...setting }).kernel?.wgsl ?? "";
  assert.match(wgsl, /in 16 subgroup matrices of 16×16 per subgroup/);
  assert.equal((wgsl.match(/var x\d+_0: vec2<u32> = v\d+_0;/g) ?? []).length, 2, "A and B carried packed, a vec2<u32> a run of 4");
});

test("attention's Q·Kᵀ and P·V on subgroup matrices offer staging Q once and the split, not the loop's staging", () => {
  const attention = kernelOf("attention-f16.kernel.ts", "attn_fwd_f16");
  const [target, options] = EMULATED;
  const knobs = knobsOf(attention, { BLOCK_M: 32, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 0, num_warps: 2 }, target, options).map((k) => k.knob);
  assert.ok(knobs.includes("halfLoadForm") && knobs.includes("mmaStageInvariant"), knobs.join());
  assert.ok(!knobs.includes("mmaDoubleBuffer") && !knobs.includes("mmaDirectStore"), knobs.join());
});

test("attention is offered Q held in matrices and the lean barriers (both \"once\" plans), each changing its WGSL; the matmul (a loop plan) neither", () => {
  const attention = kernelOf("attention-f16.kernel.ts", "attn_fwd_f16");
  const constexprs = { BLOCK_M: 32, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 2 };
  const [target, options] = EMULATED;
  const offered = knobsOf(attention, constexprs, target, options);
  const wgsl = (knobs: CodegenOptions) => compileKernel(attention, constexprs, target, {}, { ...options, ...knobs }).kernel?.wgsl;
  const base = wgsl({});
  // Both on by default (measured faster, NOTES §39), offered off.
  for (const knob of ["mmaHoldInvariant", "mmaLeanBarriers"] as const) {
    assert.deepEqual(offered.find((k) => k.knob === knob)?.values, [true, false], knob);
    assert.equal(wgsl({ [knob]: true }), base);
    assert.notEqual(wgsl({ [knob]: false }), base, knob);
  }
  // Without Q staged once there is nothing to hold.
  assert.equal(wgsl({ mmaStageInvariant: false, mmaHoldInvariant: true }), wgsl({ mmaStageInvariant: false, mmaHoldInvariant: false }));
  const matmul = knobsOf(kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel"), MATMUL, target, options).map((k) => k.knob);
  assert.ok(!matmul.includes("mmaHoldInvariant") && !matmul.includes("mmaLeanBarriers"), matmul.join());
});

test("attention is offered lane rows only where a block has as many rows as the workgroup invocations (64 rows over 2 subgroups, not 32)", () => {
  const attention = kernelOf("attention-f16.kernel.ts", "attn_fwd_f16");
  const [target, options] = EMULATED;
  const offered = (BLOCK_M: number) => knobsOf(attention, { BLOCK_M, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 2 }, target, options).find((k) => k.knob === "mmaLaneRows");
  assert.deepEqual(offered(64)?.values, [false, true]);
  assert.equal(offered(32), undefined);
  const wgsl = (knobs: CodegenOptions) => compileKernel(attention, { BLOCK_M: 64, BLOCK_N: 16, HEAD_DIM: 64, IS_CAUSAL: 1, num_warps: 2 }, target, {}, { ...options, ...knobs }).kernel?.wgsl;
  assert.notEqual(wgsl({ mmaLaneRows: true }), wgsl({}));
  assert.equal(wgsl({ mmaLaneRows: false }), wgsl({}));
  const matmul = knobsOf(kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel"), MATMUL, target, options).map((k) => k.knob);
  assert.ok(!matmul.includes("mmaLaneRows"), matmul.join());
});

test("attention is offered fewer invocations a score row: the default tile's count first, then each smaller one its blocks take; the matmul none", () => {
  const attention = kernelOf("attention-f16.kernel.ts", "attn_fwd_f16");
  const [target, options] = EMULATED;
  const leader = { BLOCK_M: 64, BLOCK_N: 64, HEAD_DIM: 64, IS_CAUSAL: 0, num_warps: 8 };
  // 64 × 64 scores over 256 invocations: 16 a row (4 × 4 each) by default, 8 (2 rows of 8), 4 (1 row of 16).
  assert.deepEqual(knobsOf(attention, leader, target, options).find((k) => k.knob === "mmaRowThreads")?.values, [16, 8, 4]);
  // The key loop not peeled (wholeTrips, on by default here, writes it twice): one loop's shuffles.
  const wgsl = (knobs: CodegenOptions) => compileKernel(attention, leader, target, {}, { ...options, wholeTrips: false, ...knobs }).kernel!.wgsl;
  const shuffles = (text: string) => (text.match(/subgroupShuffleXor/g) ?? []).length;
  assert.equal(wgsl({ mmaRowThreads: 16 }), wgsl({}));
  // Two row reductions a key block (the maximum and the sum): steps × rows an invocation holds. On
  // lavapipe's subgroups of 8 the default's 16 a row combine through a workgroup array instead.
  assert.deepEqual([wgsl({}), wgsl({ mmaRowThreads: 8 }), wgsl({ mmaRowThreads: 4 })].map(shuffles), [0, 2 * 3 * 2, 2 * 2 * 1]);
  assert.match(wgsl({}), /var<workgroup> sm_rows/);
  // A count no block takes (3 columns a piece) leaves the default; lane rows win where both apply.
  assert.equal(wgsl({ mmaRowThreads: 32 }), wgsl({}));
  const lanes = { ...leader, BLOCK_M: 64, BLOCK_N: 16, num_warps: 2 };
  assert.equal(compileKernel(attention, lanes, target, {}, { ...options, mmaLaneRows: true, mmaRowThreads: 2 }).kernel!.wgsl, compileKernel(attention, lanes, target, {}, { ...options, mmaLaneRows: true }).kernel!.wgsl);
  const matmul = knobsOf(kernelOf("matmul-f16.kernel.ts", "matmul_f16_kernel"), MATMUL, target, options).map((k) => k.knob);
  assert.ok(!matmul.includes("mmaRowThreads"), matmul.join());
});

test("settings: crossed in full up to MAX_CROSSED, defaults first; past it each knob alone, then each pair; a request limits the knobs", () => {
  const choices: KnobChoice[] = [
    { knob: "halfLoadForm", values: ["block", "select"] },
    { knob: "mmaDoubleBuffer", values: [false, true] },
    { knob: "mmaSubgroupsM", values: [2, 1, 4] },
  ];
  const all = knobSettings(choices, true);
  assert.equal(all.length, 12);
  assert.deepEqual(all[0], { halfLoadForm: "block", mmaDoubleBuffer: false, mmaSubgroupsM: 2 });
  assert.equal(new Set(all.map((s) => JSON.stringify(s))).size, 12);
  assert.deepEqual(knobSettings(choices, ["halfLoadForm"]), [{ halfLoadForm: "block" }, { halfLoadForm: "select" }]);
  assert.deepEqual(knobSettings([], true), [{}]);
  const many: KnobChoice[] = [...choices, { knob: "mmaDirectStore", values: [true, false] }, { knob: "mmaStageInvariant", values: [true, false] }];
  const bounded = knobSettings(many, true);
  assert.ok(2 * 2 * 3 * 2 * 2 > MAX_CROSSED);
  // The defaults, then 1 + 1 + 2 + 1 + 1 single changes, then the 14 pairs of changes
  // ((6² − (1 + 1 + 4 + 1 + 1)) / 2: each two knobs' other values together).
  assert.equal(bounded.length, 21);
  const changed = (s: KnobSetting) => CODEGEN_KNOBS.filter((k) => s[k] !== bounded[0][k]).length;
  assert.deepEqual(bounded.slice(1).map(changed), [...new Array(6).fill(1), ...new Array(14).fill(2)]);
  assert.equal(new Set(bounded.map((s) => JSON.stringify(s))).size, 21);
  // The pairs the f16 matmul's best kernels need (NOTES §44) are among them.
  assert.ok(bounded.some((s) => s.halfLoadForm === "select" && s.mmaSubgroupsM === 1 && !s.mmaDoubleBuffer && s.mmaDirectStore));
  // A larger bound (the bench's attention case) crosses them all.
  assert.equal(knobSettings(many, true, 48).length, 48);
});

test("past a full crossing the tuner moves from its fastest candidate to a faster one a knob away, until none is: the attention leader's five knobs at once", async () => {
  const choices: KnobChoice[] = [
    { knob: "halfLoadForm", values: ["block", "select", "tile"] },
    { knob: "mmaHoldInvariant", values: [true, false] },
    { knob: "mmaRowThreads", values: [16, 8, 4] },
    { knob: "deferRowSums", values: [false, true] },
    { knob: "lazyRowMax", values: [false, true] },
    { knob: "splitTileIndices", values: [false, true] },
    { knob: "wholeTrips", values: [false, true] },
  ];
  // One knob away: each knob's other values, the rest as they are.
  const leader: KnobSetting = { halfLoadForm: "select", mmaHoldInvariant: true, mmaRowThreads: 16, deferRowSums: true, lazyRowMax: true, splitTileIndices: true, wholeTrips: true };
  const near = neighbours(leader, choices, true);
  assert.equal(near.length, 2 + 1 + 2 + 1 + 1 + 1 + 1);
  assert.ok(near.every((s) => CODEGEN_KNOBS.filter((k) => s[k] !== leader[k]).length === 1));
  assert.deepEqual(neighbours({}, choices, ["wholeTrips"]), [{ wholeTrips: true }]);
  // A cost shaped like §56's measurements: each of the leader's knobs gains, more so together.
  const cost = (s: KnobSetting) => 100 - (s.halfLoadForm === "select" ? 10 : s.halfLoadForm === "tile" ? 4 : 0) - (s.deferRowSums ? 3 : 0)
    - (s.lazyRowMax && s.deferRowSums ? 4 : 0) - (s.splitTileIndices ? 5 : 0) - (s.wholeTrips ? 6 : 0) + (s.mmaRowThreads !== 16 ? 8 : 0) + (s.mmaHoldInvariant === false ? 2 : 0);
  const config: Record<string, number> = { BLOCK_M: 64, BLOCK_N: 64 };
  const tried: TuneCandidate[] = knobSettings(choices, true).map((codegen) => ({ constexprs: config, codegen }));
  assert.ok(3 * 2 * 3 * 2 ** 4 > MAX_CROSSED && tried.length < 3 * 2 * 3 * 2 ** 4, "bounded: alone, then pairs");
  const timed = new Map(tried.map((c) => [JSON.stringify(c.codegen), { c, ms: cost(c.codegen!) }]));
  const fastest = () => [...timed.values()].sort((a, b) => a.ms - b.ms)[0].c;
  // The pairs miss the leader (five knobs changed).
  assert.ok(CODEGEN_KNOBS.some((k) => fastest().codegen![k] !== leader[k]));
  const added: string[] = [];
  await descend(tried, fastest, () => choices, true, async (c, total) => {
    assert.ok(!timed.has(JSON.stringify(c.codegen)), "nothing timed twice");
    assert.match(total, /^\d+ \(from the fastest, round [1-4]\)$/);
    added.push(total);
    timed.set(JSON.stringify(c.codegen), { c, ms: cost(c.codegen!) });
  });
  assert.deepEqual(fastest().codegen, leader);
  assert.ok(added.length > 0 && added.length <= MAX_DESCENT_ROUNDS * near.length);
  // From the leader itself nothing is faster: one round of its neighbours, then it stops.
  const fromLeader: KnobSetting[] = [];
  await descend([{ constexprs: config, codegen: leader }], () => ({ constexprs: config, codegen: leader }), () => choices, true, async (c) => void fromLeader.push(c.codegen!));
  assert.equal(fromLeader.length, near.length);
  // A config that does not compile: nothing to move to.
  await descend([], () => ({ constexprs: config, codegen: {} }), () => undefined, true, async () => assert.fail("timed"));
});

test("a run's tuneCodegen: true, false, or a list of knobs; anything else is KL3027 naming the knobs", () => {
  assert.equal(checkKnobRequest("r", undefined), undefined);
  assert.equal(checkKnobRequest("r", true), true);
  assert.equal(checkKnobRequest("r", false), false);
  assert.deepEqual(checkKnobRequest("r", ["halfLoadForm", "mmaSubgroupsM"]), ["halfLoadForm", "mmaSubgroupsM"]);
  for (const bad of [["halfLoadFrom"], [], "halfLoadForm", 1]) {
    assert.throws(() => checkKnobRequest("r", bad), (e: unknown) => e instanceof RunDefinitionError && e.code === "KL3027" && /halfLoadForm, mmaDoubleBuffer/.test(e.message), JSON.stringify(bad));
  }
});

test("kernel-lab run --tune-codegen turns knob tuning on for the run's command; without it, off", () => {
  const on = parseArgs(["run", "examples/matmul-f16.kernel.ts", "--tune-codegen"]);
  const off = parseArgs(["run", "examples/matmul-f16.kernel.ts"]);
  assert.ok(on.kind === "run" && on.tuneCodegen === true);
  assert.ok(off.kind === "run" && off.tuneCodegen === false);
});

// bench/wgsl-edits.ts, the suite's `--edits` (bench/NOTES.md §44): each edit of a generated kernel's
// WGSL changes what it says and nothing else, on the kernels the bench times it on (the f16 matmul
// and attention compiled for the H200 at their launches of record), and says so where the WGSL
// lacks what it edits, rather than timing an unedited kernel under an edit's name.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../../src/ir/target";
import { applyEdits } from "../../bench/wgsl-edits";

const root = join(__dirname, "..", "..");
const H200: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
  subgroupMatrixConfigs: [[16, 16, 16], [16, 8, 16], [16, 8, 8]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K })),
};

function compiled(file: string, name: string, constexprs: Record<string, number>, scalars: Record<string, number>, options: CodegenOptions = {}): string {
  const kernel = parseKernelFile(file, readFileSync(join(root, file), "utf8")).kernels.find((k) => k.name === name)!;
  const result = compileKernel(kernel, constexprs, H200, specializationFor(kernel, scalars), options);
  assert.ok(result.kernel, JSON.stringify(result.diagnostics));
  return result.kernel.wgsl;
}

const n = 4096;
const matmul = (options: CodegenOptions = {}) => compiled("examples/matmul-f16.kernel.ts", "matmul_f16_kernel", { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 },
  { M: n, N: n, K: n, stride_am: n, stride_ak: 1, stride_bk: n, stride_bn: 1, stride_cm: n, stride_cn: 1 }, { halfLoadForm: "tile", ...options });
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

test("no-c-staging: the store's other way emptied and its array gone, the slices or the transfer array; the whole tiles' store kept", () => {
  for (const [options, array] of [[{}, "sm_mmae_f32"], [{ mmaEdgeSlices: false }, "sm_mmac_f32"]] as const) {
    const wgsl = matmul(options);
    const edited = applyEdits(wgsl, ["no-c-staging"]);
    assert.match(wgsl, new RegExp(`var<workgroup> ${array}:`));
    assert.doesNotMatch(edited, new RegExp(array), array);
    assert.match(edited, /if \(cwhole\d+\) \{\n(\s*subgroupMatrixStore<row_major>\(&b_c_ptr, [^\n]*\n){16}\s*\} else \{\n\s*\}/, "16 matrices stored, nothing on the other way");
    assert.equal(count(edited, /subgroupMatrixMultiplyAccumulate/g), count(wgsl, /subgroupMatrixMultiplyAccumulate/g));
    assert.ok(edited.length < wgsl.length);
  }
});

test("dead: lets nothing reads are gone, until none is left; every line that stays was there", () => {
  const wgsl = matmul();
  const edited = applyEdits(wgsl, ["dead"]);
  const names = (text: string) => [...text.matchAll(/^\s*let (\w+)\s*=/gm)].map((m) => m[1]);
  for (const name of names(edited)) assert.ok(count(edited, new RegExp(`\\b${name}\\b`, "g")) > 1, `${name} is read`);
  assert.ok(names(edited).length < names(wgsl).length);
  const original = new Set(wgsl.split("\n"));
  assert.ok(edited.split("\n").every((line) => original.has(line)));
  assert.equal(applyEdits(edited, ["dead"]), edited, "nothing left to drop");
});

test("attention's softmax edits: no exp2, no shuffle steps, and nothing else changed; a kernel without them is refused", () => {
  const attention = compiled("examples/attention-f16.kernel.ts", "attn_fwd_f16", { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, HEAD_DIM: 64, IS_CAUSAL: 0 },
    { sm_scale: 0.125, stride_z: 32 * n * 64, stride_h: n * 64, stride_m: 64, stride_k: 1, H: 32, N_CTX: n }, { mmaHoldInvariant: true, mmaLeanBarriers: true, halfLoadForm: "select" });
  const noExp = applyEdits(attention, ["no-exp2"]);
  assert.ok(count(attention, /\bexp2\(/g) > 0);
  assert.equal(count(noExp, /\bexp2\(/g), 0);
  assert.equal(noExp.split("\n").length, attention.split("\n").length);
  const noShuffles = applyEdits(attention, ["no-row-shuffles"]);
  const shuffles = count(attention, /subgroupShuffleXor/g);
  assert.ok(shuffles > 0);
  assert.equal(count(noShuffles, /subgroupShuffleXor/g), 0);
  assert.equal(noShuffles.split("\n").length, attention.split("\n").length - shuffles, "one line a shuffle step");
  assert.throws(() => applyEdits(matmul(), ["no-exp2"]), /no-exp2: no exp2/);
  assert.throws(() => applyEdits(matmul(), ["no-row-shuffles"]), /no shuffle steps/);
  assert.throws(() => applyEdits(attention, ["no-c-staging"]), /no whole-tile test/);
  assert.throws(() => applyEdits(attention, ["nope"]), /unknown WGSL edit "nope" \(known: dead, no-c-staging, sg-from-lid, no-exp2, no-row-shuffles, no-n-ctx-masks, words-no-masks, words-select, /);
});

test("no-n-ctx-masks: every comparison with N_CTX made true, nothing else; a kernel without N_CTX is refused", () => {
  const attention = compiled("examples/attention-f16.kernel.ts", "attn_fwd_f16", { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, HEAD_DIM: 64, IS_CAUSAL: 0 },
    { sm_scale: 0.125, stride_z: 32 * n * 64, stride_h: n * 64, stride_m: 64, stride_k: 1, H: 32, N_CTX: n }, { halfLoadForm: "select" });
  const nctx = /let (\w+) = params\.s_N_CTX;/.exec(attention)![1];
  const compares = count(attention, new RegExp(`< ${nctx}\\);$`, "gm"));
  assert.ok(compares >= 8, `${compares} comparisons with N_CTX`);
  const edited = applyEdits(attention, ["no-n-ctx-masks"]);
  assert.equal(count(edited, new RegExp(`< ${nctx}\\);$`, "gm")), 0);
  // Beside those the key loop's whole trips already hold (peeled by default: codegen/whole-trips.ts).
  assert.equal(count(edited, /^\s*let \w+ = true;$/gm), compares + count(attention, /^\s*let \w+ = true;$/gm));
  assert.equal(edited.split("\n").length, attention.split("\n").length, "one line each, in place");
  assert.throws(() => applyEdits(matmul(), ["no-n-ctx-masks"]), /no N_CTX parameter/);
});

// sg-from-lid: the subgroup_id builtin's reads as (lid / 32u), the form generated code has had
// since bench/NOTES.md §57: so the edit of the builtin's kernel (mmaSubgroupBuiltin) is the default's.
test("sg-from-lid: the builtin's kernel edited is the default kernel but for its signature and the edge slices' lane; a kernel without sg_id is refused", () => {
  const builtin = matmul({ mmaSubgroupBuiltin: true });
  assert.match(builtin, /@builtin\(subgroup_id\) sg_id: u32/);
  const edited = applyEdits(builtin, ["sg-from-lid"]);
  // The edge slices' copy takes its lane from the builtin beside the builtin's index (mma.ts storeEdgeMatrices).
  const signature = (w: string) => w.replace(/\bsg_lane\b(?!:)/g, "(lid % 32u)").split("\n").filter((l) => !l.startsWith("fn main("));
  assert.deepEqual(signature(edited), signature(matmul()));
  assert.throws(() => applyEdits(matmul(), ["sg-from-lid"]), /sg-from-lid: no sg_id/);
});

// The odd size read in words (NOTES §69): words-no-masks takes out each half's select on its mask after a run read
// in words, and nothing else; the edits of §67's form (a branch on every lane's mask) refuse today's WGSL.
test("words-no-masks: each half's select after a run read in words removed, nothing else; §67's word edits refuse today's words", () => {
  const odd = compiled("examples/matmul-f16.kernel.ts", "matmul_f16_kernel", { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 8 },
    { M: 1000, N: 1001, K: 1003, stride_am: 1003, stride_ak: 1, stride_bk: 1001, stride_bn: 1, stride_cm: 1001, stride_cn: 1 }, { shiftedHalfRows: "words" });
  const selects = count(odd, /^\s*(\w+) = select\(0\.0h, \1, \w+\);$/gm);
  assert.ok(selects >= 16 && count(odd, /let wrun\d+ = /g) > 0, `${selects} halves kept by select`);
  const edited = applyEdits(odd, ["words-no-masks"]);
  assert.equal(count(edited, /= select\(0\.0h, /g), 0);
  assert.equal(edited.split("\n").length, odd.split("\n").length - selects);
  for (const edit of ["words-select", "words-always", "words-branchless", "words-no-edge"]) assert.throws(() => applyEdits(odd, [edit]), new RegExp(`${edit}: no`));
  assert.throws(() => applyEdits(matmul(), ["words-no-masks"]), /words-no-masks: no half kept by select/);
});

test("pid-linear: the program id taken from the linear id without its modulo, nothing else changed", () => {
  const wgsl = matmul();
  const edited = applyEdits(wgsl, ["pid-linear"]);
  assert.match(wgsl, /let pid_x = i32\(linear % params\.grid\.x\);/);
  assert.match(edited, /let pid_x = i32\(linear\);/);
  assert.equal(edited.replace("i32(linear)", "i32(linear % params.grid.x)"), wgsl);
});

// bench/kernels/attention-f16-no-softmax.kernel.ts (bench/NOTES.md §42), the timing isolation of
// examples/attention-f16.kernel.ts without its online softmax: compiled for the H200 at tutorial
// 06's launch of record (4 × 32 × 4096 × 64, specialised as the harness does), it must keep the
// example's structure at the settings bench/f16-cases.ts times it at: the same barriers a key
// block, workgroup bytes and workgroup traffic in the loop (S leaving the matrices, P staged, the
// product P·V leaving every block and added in registers), lane rows where the example has them.
// Written `acc = tl.dot(p, v, acc)` the accumulator would stay in the matrices for the whole loop
// (a "loop" plan) and the kernel would time another structure; the test holds that off.

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

function load(file: string, name: string): KernelSource {
  const kernel = parseKernelFile(file, readFileSync(join(root, file), "utf8")).kernels.find((k) => k.name === name);
  assert.ok(kernel);
  return kernel;
}
const EXAMPLE = load("examples/attention-f16.kernel.ts", "attn_fwd_f16");
const NO_SOFTMAX = load("bench/kernels/attention-f16-no-softmax.kernel.ts", "attn_fwd_f16_no_softmax");
const [Z, H, N, D] = [4, 32, 4096, 64];
const ARGS = { stride_z: H * N * D, stride_h: N * D, stride_m: D, stride_k: 1, H, N_CTX: N };

function wgsl(kernel: KernelSource, constexprs: Record<string, number>, options: CodegenOptions): { text: string; loop: string; bytes: number } {
  const compiled = compileKernel(kernel, { HEAD_DIM: D, IS_CAUSAL: 0, ...constexprs }, H200, specializationFor(kernel, ARGS), options);
  assert.ok(compiled.kernel, JSON.stringify(compiled.diagnostics));
  assert.deepEqual(compiled.diagnostics, []);
  const text = compiled.kernel.wgsl;
  // The key loop: from its `for` (or the block of its two peeled loops: codegen/whole-trips.ts) to the first closing brace at its indentation.
  const start = text.search(/\n {2}(for \(var |\{\n {4}var x\d+: i32)/);
  const loop = text.slice(start, text.indexOf("\n  }\n", start + 1));
  return { text, loop, bytes: compiled.kernel.abi.workgroupBytes };
}

/** Workgroup-memory accesses in the loop, per array. */
const traffic = (loop: string) => ({ transfer: (loop.match(/sm_mmac_f32\[/g) ?? []).length, left: (loop.match(/sm_mmaa_f16\[/g) ?? []).length, right: (loop.match(/sm_mmab_f16\[/g) ?? []).length });

const HELD = { mmaHoldInvariant: true, mmaLeanBarriers: true, halfLoadForm: "select" as const };

test("128 × 32 over 4 subgroups with lane rows, Q held, lean barriers, select loads: the example's 6 barriers, bytes and loop traffic, without exp2", () => {
  const shape = { BLOCK_M: 128, BLOCK_N: 32, num_warps: 4 };
  const example = wgsl(EXAMPLE, shape, { ...HELD, mmaLaneRows: true });
  const isolated = wgsl(NO_SOFTMAX, shape, { ...HELD, mmaLaneRows: true });
  for (const w of [example, isolated]) {
    assert.deepEqual(phaseRaces(w.text), []);
    assert.equal(loopBarriers(w.text), 6);
    assert.equal(w.bytes, 41472);
    // Lane rows: invocation t holds row t of S and of the accumulator (its staging and transfer rows start at row lid).
    assert.match(w.text, /let tile_128x64 = i32\(lid\) \* 64;/);
    assert.match(w.text, /let (mr\d+) = lid;\n\s*let mb\d+ = \1 \* \d+u;/);
  }
  assert.deepEqual(traffic(isolated.loop), traffic(example.loop));
  assert.ok(traffic(isolated.loop).transfer >= 96, "S (32 floats a lane) and P·V (64) leave the matrices every key block");
  assert.match(example.loop, /exp2\(/);
  assert.doesNotMatch(isolated.text, /exp2\(/);
  // Without lane rows the example moves alpha between two layouts (2 barriers); the isolation has no alpha.
  assert.deepEqual([loopBarriers(wgsl(EXAMPLE, shape, HELD).text), loopBarriers(wgsl(NO_SOFTMAX, shape, HELD).text)], [8, 6]);
});

test("64 × 64 over 8 subgroups with select loads: the example's 4 barriers and loop traffic; lane rows change nothing there", () => {
  const shape = { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8 };
  const example = wgsl(EXAMPLE, shape, HELD);
  const isolated = wgsl(NO_SOFTMAX, shape, HELD);
  for (const w of [example, isolated]) {
    assert.deepEqual(phaseRaces(w.text), []);
    assert.equal(loopBarriers(w.text), 4);
  }
  assert.equal(isolated.bytes, example.bytes);
  assert.deepEqual(traffic(isolated.loop), traffic(example.loop));
  assert.ok(traffic(isolated.loop).transfer > 0 && traffic(isolated.loop).left > 0);
  assert.equal(wgsl(NO_SOFTMAX, shape, { ...HELD, mmaLaneRows: true }).text, isolated.text);
});

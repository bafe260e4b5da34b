// Which tl.dot calls run on subgroup matrices (codegen/mma.ts), for a target like the H200 with
// Dawn's f16 toggles: the tutorial loop's accumulating f16 dot keeps its accumulator in them for
// the loop ("loop"); any other f16 × f16 → f32 dot whose shape tiles runs on them once and moves
// its product into registers ("once"); f32 dots, untileable shapes, an unfixed subgroup size or
// the switch turned off compile to the generic tiled dot. One row per case.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET, type CodegenOptions, type Target } from "../../src/ir/target";

const H200_F16: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32,
  maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
  subgroupMatrixConfigs: [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }],
};

const LOADS = `const rm = tl.arange(0, BM);
  const rn = tl.arange(0, BN);
  const rk = tl.arange(0, BK);`;
const A = "tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk + k, 0))";
const B = "tl.load(b + tl.expandDims(rk + k, 1) * BN + tl.expandDims(rn, 0))";
const STORE = "tl.store(c + tl.expandDims(rm, 1) * BN + tl.expandDims(rn, 0), acc);";

function source(dtype: "f16" | "f32", body: string): string {
  return `import { kernel, tl } from "kernel-lab";
import type { Ptr, f16, f32, i32, constexpr } from "kernel-lab";
export const mm = kernel(function mm(a: Ptr<${dtype}>, b: Ptr<${dtype}>, c: Ptr<f32>, K: i32, BM: constexpr, BN: constexpr, BK: constexpr) {
  ${LOADS}
  ${body}
});`;
}

const LOOP = (inside: string) => `let acc = tl.zeros([BM, BN], "f32");
  for (let k = 0; k < K; k += BK) {
    ${inside}
  }
  ${STORE}`;

type Kind = "loop" | "once" | false;
const rows: { name: string; dtype: "f16" | "f32"; body: string; blocks?: [number, number, number]; target?: Partial<Target>; options?: CodegenOptions; matrices: Kind }[] = [
  { name: "the tutorial's loop, f16 operands", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), matrices: "loop" },
  { name: "f32 operands", dtype: "f32", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), matrices: false },
  { name: "acc also read inside the loop", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);\n    ${STORE}`), matrices: "once" },
  { name: "the product used beside the accumulation", dtype: "f16", body: LOOP(`const d = tl.dot(${A}, ${B}, acc);\n    acc = d;\n    tl.store(c + tl.expandDims(rm, 1) * BN + tl.expandDims(rn, 0), d * 2);`), matrices: "once" },
  { name: "a dot outside any loop", dtype: "f16", body: `const k = 0;\n  const acc = tl.dot(${A}, ${B});\n  ${STORE}`, matrices: "once" },
  { name: "B transposed", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, tl.trans(tl.load(b + tl.expandDims(rn, 1) * BK + tl.expandDims(rk + k, 0))), acc);`), matrices: "loop" },
  { name: "a 16×16 tile (32 invocations: one subgroup, one matrix)", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), blocks: [16, 16, 16], matrices: "loop" },
  { name: "a 16×16 tile over 256 invocations (8 subgroups, 1 matrix)", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), blocks: [16, 16, 16], options: { workgroupSize: 256 }, matrices: false },
  { name: "subgroup size not fixed", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), target: { subgroupMinSize: 16 }, matrices: false },
  { name: "turned off", dtype: "f16", body: LOOP(`acc = tl.dot(${A}, ${B}, acc);`), options: { subgroupMatrixDot: false }, matrices: false },
];

for (const row of rows) {
  test(`subgroup matrices: ${row.name} → ${row.matrices || "generic path"}`, () => {
    const [BM, BN, BK] = row.blocks ?? [64, 64, 32];
    const parsed = parseKernelFile("mm.kernel.ts", source(row.dtype, row.body));
    assert.deepEqual(parsed.diagnostics, []);
    const result = compileKernel(parsed.kernels[0], { BM, BN, BK }, { ...H200_F16, ...row.target }, {}, row.options);
    assert.deepEqual(result.diagnostics.filter((d) => d.severity === "error"), []);
    const wgsl = result.kernel!.wgsl;
    assert.equal(/subgroupMatrixMultiplyAccumulate/.test(wgsl), row.matrices !== false);
    assert.equal(result.kernel!.abi.features.includes("chromium-experimental-subgroup-matrix"), row.matrices !== false);
    if (row.matrices === "loop") assert.match(wgsl, /\/\/ acc in \d+ subgroup matrices/);
    if (row.matrices === "once") assert.match(wgsl, /\/\/ the product in \d+ subgroup matrices/);
    // A transposed operand is loaded column-major, not transposed in registers.
    if (row.name === "B transposed") assert.match(wgsl, /col_major/);
  });
}

// Each subgroup's index: local_invocation_index over the one subgroup size (WebGPU numbers
// invocations subgroup by subgroup), unless mmaSubgroupBuiltin asks for the subgroup_id builtin,
// which on the H100 made the matrix kernels up to 36% slower (bench/NOTES.md §57). Emulated
// matrices always count subgroups of 32.
test("subgroup matrices: each subgroup's index is lid / the subgroup size, or the subgroup_id builtin with mmaSubgroupBuiltin", () => {
  const parsed = parseKernelFile("mm.kernel.ts", source("f16", LOOP(`acc = tl.dot(${A}, ${B}, acc);`)));
  const compile = (options: CodegenOptions, target: Partial<Target> = {}) => compileKernel(parsed.kernels[0], { BM: 64, BN: 64, BK: 32 }, { ...H200_F16, ...target }, {}, options).kernel!.wgsl;
  const index = compile({});
  assert.match(index, /let mma\d+_r = \(\(lid \/ 32u\) % 2u\) \* 32u;/);
  assert.doesNotMatch(index, /\bsg_id\b/);
  const builtin = compile({ mmaSubgroupBuiltin: true });
  assert.match(builtin, /@builtin\(subgroup_id\) sg_id: u32/);
  assert.match(builtin, /let mma\d+_r = \(sg_id % 2u\) \* 32u;/);
  assert.doesNotMatch(builtin, /lid \/ 32u/);
  const wide = compile({}, { subgroupMinSize: 64, subgroupMaxSize: 64 });
  assert.match(wide, /lid \/ 64u/);
  const emulated = compile({ subgroupMatrixEmulation: true, mmaSubgroupBuiltin: true }, { subgroups: false });
  assert.match(emulated, /lid \/ 32u/);
  assert.doesNotMatch(emulated, /\bsg_id\b/);
});

// The WGSL generated for every example kernel, and for test/fixtures/control-flow.kernel.ts's kernels
// (a while loop, break/continue, a ternary, an unrolled loop, device-function calls), pinned. After
// an intended change to the code generator, review the diff and refresh with:
// UPDATE_SNAPSHOTS=1 npx tsx --test test/unit/wgsl-snapshots.test.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET, type Target } from "../../src/ir/target";

const root = join(__dirname, "..", "..");
const snapshots = join(root, "test", "snapshots");
const update = process.env.UPDATE_SNAPSHOTS === "1";

const files = [
  ...readdirSync(join(root, "examples")).filter((f) => f.endsWith(".kernel.ts")).sort().map((f) => join("examples", f)),
  join("test", "fixtures", "control-flow.kernel.ts"),
];

for (const file of files) {
  const fileName = basename(file);
  const text = readFileSync(join(root, file), "utf8");
  const parsed = parseKernelFile(fileName, text);
  // A device function is inlined where it is called: its WGSL is its callers'.
  for (const kernel of parsed.kernels.filter((k) => !k.called)) {
    const constexprs = parsed.literalConstexprs.get(kernel.name)?.[0] ?? {};
    // Half-precision examples are compiled for a target with shader-f16 (lavapipe's).
    const target = /Ptr<f16>/.test(text) ? { ...DEFAULT_TARGET, shaderF16: true } : DEFAULT_TARGET;
    test(`WGSL of ${fileName} ${kernel.name}`, () => {
      const result = compileKernel(kernel, constexprs, target);
      assert.deepEqual(result.diagnostics, []);
      const wgsl = result.kernel!.wgsl;
      const path = join(snapshots, `${fileName.replace(/\.kernel\.ts$/, "")}.${kernel.name}.wgsl`);
      if (update || !existsSync(path)) writeFileSync(path, wgsl);
      assert.equal(wgsl, readFileSync(path, "utf8"), `${path} differs; review and refresh with UPDATE_SNAPSHOTS=1`);
    });
  }
}

// tl.dot on subgroup matrices (codegen/mma.ts) for a target like the H200 with Dawn's f16
// toggles (bench/NOTES.md §12, §16, §19): no local GPU has them (test/gpu/mma-emulated.test.ts runs
// the same plans emulated), so this pins the WGSL the H200 runs (bench/run-h200-f16.sh).
const H200_F16: Target = {
  ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32,
  maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
  subgroupMatrixConfigs: [[16, 16, 16], [16, 8, 16], [16, 8, 8]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K })),
};

test("WGSL of matmul-f16.kernel.ts matmul_f16_kernel on subgroup matrices (128×128×32)", () => {
  const parsed = parseKernelFile("matmul-f16.kernel.ts", readFileSync(join(root, "examples", "matmul-f16.kernel.ts"), "utf8"));
  const result = compileKernel(parsed.kernels[0], { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 }, H200_F16);
  assert.deepEqual(result.diagnostics, []);
  const wgsl = result.kernel!.wgsl;
  assert.match(wgsl, /^enable chromium_experimental_subgroup_matrix;$/m);
  assert.match(wgsl, /subgroupMatrixMultiplyAccumulate/);
  assert.deepEqual(result.kernel!.abi.features, ["shader-f16", "subgroups", "chromium-experimental-subgroup-matrix"]);
  const path = join(snapshots, "matmul-f16.matmul_f16_kernel.subgroup-matrix.wgsl");
  if (update || !existsSync(path)) writeFileSync(path, wgsl);
  assert.equal(wgsl, readFileSync(path, "utf8"), `${path} differs; review and refresh with UPDATE_SNAPSHOTS=1`);
  // Without the configurations, or with the path turned off, the generic tiled dot.
  for (const [target, options] of [[{ ...H200_F16, subgroupMatrixConfigs: undefined }, {}], [H200_F16, { subgroupMatrixDot: false }]] as const) {
    const generic = compileKernel(parsed.kernels[0], { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 }, target, {}, options);
    assert.doesNotMatch(generic.kernel!.wgsl, /subgroup_matrix/);
  }
});

// The WGSL generated for every example kernel, and for test/fixtures/control-flow.kernel.ts's kernels
// (a while loop, break/continue, a ternary, an unrolled loop, device-function calls), pinned. After
// an intended change to the code generator, review the diff and refresh with:
// UPDATE_SNAPSHOTS=1 npx tsx --test test/unit/wgsl-snapshots.test.ts

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

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

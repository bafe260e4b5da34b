// The WGSL of issue 11's math and random functions, pinned (the examples' snapshots cover erf, tanh
// and tl.rand: test/snapshots/gelu.*, dropout.*), and each helper function included once, only
// where the kernel calls it. Refresh with UPDATE_SNAPSHOTS=1 after an intended change.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, u32, constexpr } from "kernel-lab";\n';

function wgslOf(body: string): string {
  const text = `${PRELUDE}export const k = kernel(function k(x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, u_ptr: Ptr<u32>, n: i32, seed: u32) {\nconst offs = tl.arange(0, 4);\nconst x = tl.load(x_ptr + offs);\n${body}\n});\n`;
  const result = compileKernel(parseKernelFile("k.kernel.ts", text).kernels[0], {}, DEFAULT_TARGET, {}, { workgroupSize: 4 });
  assert.deepEqual(result.diagnostics, []);
  return result.kernel!.wgsl;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

test("WGSL of exp2, log2, pow, fdiv, umulhi, clamp, randint4x and randn (u32 seed)", () => {
  const wgsl = wgslOf([
    "tl.store(y_ptr + offs, tl.exp2(x) + tl.log2(x) + tl.pow(x, 3) + tl.fdiv(offs, 3) + tl.clamp(x, -1, 1));",
    "tl.store(u_ptr + offs, tl.umulhi(tl.cast(offs, \"u32\"), seed) ^ tl.randint4x(seed, offs, 2));",
    "tl.store(y_ptr + offs + 4, tl.randn(seed, offs) + tl.cast(tl.umulhi(offs, n), \"f32\"));",
  ].join("\n"));
  const path = join(__dirname, "..", "snapshots", "special-math.k.wgsl");
  if (process.env.UPDATE_SNAPSHOTS === "1" || !existsSync(path)) writeFileSync(path, wgsl);
  assert.equal(wgsl, readFileSync(path, "utf8"), `${path} differs; review and refresh with UPDATE_SNAPSHOTS=1`);
  for (const fn of ["fn kl_umulhi(", "fn kl_philox(", "fn kl_randn(", "fn kl_pow("]) assert.equal(count(wgsl, fn), 1, fn);
  assert.equal(count(wgsl, "fn kl_erf("), 0);
});

test("helpers only where called: tl.umulhi alone brings kl_umulhi, not Philox; plain math brings none", () => {
  const umulhi = wgslOf("tl.store(u_ptr + offs, tl.umulhi(tl.cast(offs, \"u32\"), seed));");
  assert.equal(count(umulhi, "fn kl_umulhi("), 1);
  assert.equal(count(umulhi, "fn kl_philox("), 0);
  const plain = wgslOf("tl.store(y_ptr + offs, tl.tanh(x) + tl.exp2(x));");
  assert.doesNotMatch(plain, /fn kl_/);
  const erf = wgslOf("tl.store(y_ptr + offs, tl.erf(x) + tl.erf(x * 2.0));");
  assert.equal(count(erf, "fn kl_erf("), 1);
});

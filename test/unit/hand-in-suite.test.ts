// bench/hand-in-suite.ts (suite.js --hand, bench/NOTES.md §85): a hand-written kernel takes the generated
// kernel's bindings (the uniform block at 0, A, B and C at 1–3) and its 1-D launch, and nothing else of it changes.

import { test } from "node:test";
import assert from "node:assert/strict";
import { handGrid, handName, handVariants, handWgsl } from "../../bench/mma-kernels";
import { handPrograms, withSuiteAbi } from "../../bench/hand-in-suite";
import type { KernelProgram } from "../../src/runtime/pipelines";

const byName = (size: number, name: RegExp) => handVariants(size, false).find((s) => name.test(handName(s)))!;

test("withSuiteAbi: bindings moved up by one under a uniform block at 0; a 2-D grid's ids from the linear one, z kept", () => {
  const s = byName(1024, /^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices$/);
  const [gx, gy] = handGrid(s, 1024, 1024);
  assert.deepEqual([gx, gy], [16, 16]);
  const wgsl = handWgsl(s, 1024, 1024, 1024, false);
  const out = withSuiteAbi(wgsl, gx, gy);
  assert.match(out, /@group\(0\) @binding\(0\) var<uniform> kl_params: vec4<u32>;/);
  assert.match(out, /@group\(0\) @binding\(1\) var<storage, read> A:/);
  assert.match(out, /@group\(0\) @binding\(2\) var<storage, read> B:/);
  assert.match(out, /@group\(0\) @binding\(3\) var<storage, read_write> C:/);
  assert.match(out, /fn main\(@builtin\(workgroup_id\) wid_1d: vec3<u32>,[^\n]*\{\n  let wid = vec3<u32>\(wid_1d\.x % 16u, wid_1d\.x \/ 16u, wid_1d\.z\);\n/);
  // Everything after the entry's new first line is the kernel as written.
  assert.equal(out.slice(out.indexOf("let wid =")).split("\n").slice(1).join("\n"), wgsl.slice(wgsl.indexOf("fn main(")).split("\n").slice(1).join("\n"));
});

test("withSuiteAbi: a 1-D (grouped) kernel keeps its workgroup id", () => {
  const s = byName(4096, /^128×256×32 2×4 sg of 4×4 →f32 pad 8 prefetch grouped sg-n C-matrices$/);
  const [gx, gy] = handGrid(s, 4096, 4096);
  assert.equal(gy, 1);
  assert.match(withSuiteAbi(handWgsl(s, 4096, 4096, 4096, false), gx, gy), /\{\n  let wid = wid_1d;\n/);
});

test("handPrograms: cubes of a multiple of 256 only (C unpadded), f32 C, the generated kernel's ABI, a 1-D grid", () => {
  const like = { abi: { kernel: "matmul_f16_kernel" }, wgsl: "" } as unknown as KernelProgram;
  const all = /./;
  assert.deepEqual(handPrograms(like, 1000, 1001, 1003, all, false), []);
  assert.deepEqual(handPrograms(like, 96, 96, 96, all, false), []);
  const got = handPrograms(like, 1024, 1024, 1024, /^64×64×64 2×2 sg of 2×2 →f32 pad 8 prefetch rows sg-n C-matrices$/, false);
  assert.equal(got.length, 1);
  assert.equal(got[0].program.abi, like.abi);
  assert.deepEqual(got[0].grid, [256]);
  assert.equal(got[0].workgroupSize, 128);
  assert.ok(handPrograms(like, 1024, 1024, 1024, all, false).every((h) => !h.name.includes("→f16")));
});

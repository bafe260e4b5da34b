// The cache of torch's compiled kernels (src/harness/python/own-kernels.ts): what one process
// compiles, the next one launches without parsing or compiling, and it computes the same; a damaged
// file, another compiler build or an edited module is never used. Each cache here is a fresh one on
// a folder of its own, as a new process would make.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { OwnKernelCache } from "../../src/harness/python/own-kernels";
import type { KernelArgType } from "../../src/harness/python/kernel-compiler";
import { acquireGpu, createStorageBuffer, launch, readBuffer } from "../../src/runtime";
import { DEFAULT_TARGET } from "../../src/ir/target";
import { assertClose, poisoned, randomFloats } from "../support/kernel-runner";

const FILE = "torch/_gpu_kernels.py";
const module = { file: FILE, text: readFileSync(path.join(__dirname, "../../src/harness/python/lib/torch/_gpu_kernels.py"), "utf8") };
const f32 = { kind: "pointer", dtype: "f32" } as const;
const i32 = { kind: "scalar", dtype: "i32" } as const;
// torch's unary op on a contiguous float32 tensor, as _on_gpu.py launches it (op is a runtime scalar).
const UNARY_TYPES: Record<string, KernelArgType> = Object.fromEntries([["x_ptr", f32], ["out_ptr", f32], ...["n", "s1", "s2", "s3", "x_off", "x0", "x1", "x2", "x3", "op"].map((n) => [n, i32])]);
const BLOCK = 256;
const unary = (cache: OwnKernelCache, target = DEFAULT_TARGET, source = module) => cache.kernel(source, "_unary", UNARY_TYPES, { FLAT: true, BLOCK }, target);
const cacheFile = (folder: string) => {
  const files = readdirSync(path.join(folder, "python"));
  assert.equal(files.length, 1, `one cache file: ${files.join(", ")}`);
  return path.join(folder, "python", files[0]);
};

test("torch's kernels compiled by one cache are launched by the next from the file, and compute the same", async () => {
  const gpu = await acquireGpu();
  const folder = mkdtempSync(path.join(tmpdir(), "kl-torch-kernels-"));
  const first = new OwnKernelCache(folder, "build-1");
  const compiled = unary(first, gpu.target);
  assert.equal(first.compiled, 1);
  assert.equal(unary(first, gpu.target), compiled, "the process's memory serves the second launch");
  first.save();

  const next = new OwnKernelCache(folder, "build-1");
  const cached = unary(next, gpu.target);
  assert.equal(next.compiled, 0, "read from the file, not compiled");
  assert.ok(typeof cached !== "string" && typeof compiled !== "string");
  assert.deepEqual(cached, compiled);

  // abs and neg of 5003 elements (not a multiple of the block), the output poisoned.
  const n = 5003;
  const x = randomFloats(n, -4, 4);
  for (const [op, want] of [[2, Math.abs], [1, (v: number) => -v]] as const) {
    const xs = await createStorageBuffer(gpu, x, "x");
    const out = await createStorageBuffer(gpu, poisoned(n), "out");
    const scalars = { n, s1: 1, s2: 1, s3: n, x_off: 0, x0: 0, x1: 0, x2: n, x3: 1, op };
    await launch(gpu, cached, [Math.ceil(n / BLOCK), 1, 1], { buffers: { x_ptr: xs, out_ptr: out }, scalars });
    const got = await readBuffer(gpu, out, "f32", n);
    xs.destroy();
    out.destroy();
    assertClose(got, Array.from(x, (v) => want(v)), `op ${op}`);
  }
});

test("a damaged cache file is ignored and rewritten; another build, an edited module, another target or other options miss", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "kl-torch-kernels-"));
  const first = new OwnKernelCache(folder, "build-1");
  unary(first);
  first.save();
  const file = cacheFile(folder);
  const whole = readFileSync(file, "utf8");

  // One character changed, in a kernel's WGSL or in the header's copy of the module: the line's checksum no longer holds.
  for (const [where, from, to] of [["a kernel's WGSL", "fn main", "fn maim"], ["the module's text", "def _unary", "def _unarx"]] as const) {
    const at = whole.indexOf(from);
    assert.ok(at > 0, where);
    writeFileSync(file, `${whole.slice(0, at)}${to}${whole.slice(at + from.length)}`);
    const damaged = new OwnKernelCache(folder, "build-1");
    unary(damaged);
    assert.equal(damaged.compiled, 1, `a change in ${where} is not used`);
    damaged.save();
    assert.equal(readFileSync(file, "utf8"), whole, "and the file is written whole again");
  }
  for (const broken of [whole.slice(0, whole.length / 2), "", "not json\n{}", `${whole.split("\n")[0]}\n[]`]) {
    writeFileSync(file, broken);
    const cache = new OwnKernelCache(folder, "build-1");
    unary(cache);
    assert.equal(cache.compiled, 1, `a file of ${broken.length} characters is not used`);
  }
  writeFileSync(file, whole);
  const again = new OwnKernelCache(folder, "build-1");
  unary(again);
  assert.equal(again.compiled, 0, "the rewritten file is used");

  const otherBuild = new OwnKernelCache(folder, "build-2");
  unary(otherBuild);
  assert.equal(otherBuild.compiled, 1, "another compiler build's kernels are not used");
  const edited = new OwnKernelCache(folder, "build-1");
  unary(edited, DEFAULT_TARGET, { file: FILE, text: `${module.text}\n# edited\n` });
  assert.equal(edited.compiled, 1, "kernels of another text of the module are not used");
  const otherTarget = new OwnKernelCache(folder, "build-1");
  unary(otherTarget, { ...DEFAULT_TARGET, maxWorkgroupSize: DEFAULT_TARGET.maxWorkgroupSize / 2 });
  assert.equal(otherTarget.compiled, 1, "kernels compiled for another target are not used");
  const otherOptions = new OwnKernelCache(folder, "build-1");
  otherOptions.kernel(module, "_unary", UNARY_TYPES, { FLAT: true, BLOCK }, DEFAULT_TARGET, { numStages: 1 });
  assert.equal(otherOptions.compiled, 1, "kernels compiled with other code generator's options are not used");
});

test("two processes' kernels end in one file: a save keeps what another wrote since it read", () => {
  const folder = mkdtempSync(path.join(tmpdir(), "kl-torch-kernels-"));
  const fill = (cache: OwnKernelCache) => cache.kernel(module, "_fill", Object.fromEntries([["dst_ptr", f32], ["value", { kind: "scalar", dtype: "f32" }], ...["n", "s1", "s2", "s3", "dst_off", "d0", "d1", "d2", "d3"].map((n) => [n, i32])]), { FLAT: true, BLOCK }, DEFAULT_TARGET);
  const one = new OwnKernelCache(folder, "build-1");
  const other = new OwnKernelCache(folder, "build-1");
  fill(other); // `other` reads the (empty) folder before `one` writes
  unary(one);
  one.save();
  other.save();
  const later = new OwnKernelCache(folder, "build-1");
  unary(later);
  fill(later);
  assert.equal(later.compiled, 0);
});

test("without a folder the cache is the process's memory only (a browser, a run from the sources)", () => {
  const cache = new OwnKernelCache(undefined, "build-1");
  const kernel = unary(cache);
  cache.save();
  assert.equal(unary(cache), kernel);
  assert.equal(cache.compiled, 1);
});

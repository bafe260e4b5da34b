// The autotuner times each candidate as the run will launch it: specialised for the size's scalar
// arguments (compile.ts specializationFor), not the plain program — which for the f16 matmul at
// 4096³ ran at half the speed of the code the run launches (bench/NOTES.md §20). On lavapipe: a
// unit stride makes the specialised WGSL differ (vec4 accesses), and only its pipeline is built.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor, type CompiledKernel } from "../../src/compile";
import { acquireGpu, cachedPipelineCount, getPipeline } from "../../src/runtime";
import { tune } from "../../src/harness/autotune/autotune";
import type { CheckedRun } from "../../src/harness/run/args";
import { gpuExecutor } from "../../src/harness/run/gpu-executor";

process.env.KERNEL_LAB_CACHE_DIR = mkdtempSync(join(tmpdir(), "kl-tune-"));

const SOURCE = `import { kernel, tl } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";
export const strided = kernel(function strided(x: Ptr<f32>, o: Ptr<f32>, n: i32, s: i32, BLOCK: constexpr) {
  const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  tl.store(o + i * s, tl.load(x + i * s, i < n) * 2.0, i < n);
});`;

test("candidates are checked and timed specialised for the size's scalars, as the run launches them", async () => {
  const gpu = await acquireGpu();
  const kernel = parseKernelFile("strided.kernel.ts", SOURCE).kernels[0];
  const n = 3000;
  const run: CheckedRun = {
    name: "strided", exportName: "strided", sizes: [n], constexprs: { BLOCK: 256 },
    configs: [{ BLOCK: 256 }, { BLOCK: 512 }],
    grid: ((size: number, c: { BLOCK: number }) => [Math.ceil(size / c.BLOCK)]) as never,
    args: ((size: number) => ({ x: Float32Array.from({ length: size }, (_, i) => i % 7), o: new Float32Array(size).fill(NaN), n: size, s: 1 })) as never,
    outputs: ["o"],
    reference: (({ x }: { x: Float32Array }) => ({ o: x.map((v) => v * 2) })) as never,
  };
  const plain = new Map<number, CompiledKernel>();
  const specialised = new Map<number, CompiledKernel>();
  const seen: Record<string, unknown>[] = [];
  const result = await tune(run, n, {
    executor: gpuExecutor(gpu), adapter: { vendor: "test", device: "test", backend: "test", description: "test" }, kernelName: "strided", kernelText: SOURCE,
    compile: (c) => {
      const program = compileKernel(kernel, c).kernel!;
      plain.set(c.BLOCK, program);
      return { program };
    },
    specialize: (c, args) => {
      seen.push(args);
      const program = compileKernel(kernel, c, undefined, specializationFor(kernel, args)).kernel!;
      specialised.set(c.BLOCK, program);
      return program;
    },
    source: kernel, retune: true, reps: 5, progress: () => {},
  });
  assert.ok(result.report.candidates.every((c) => c.correct && c.medianMs !== null), JSON.stringify(result.report.candidates));
  assert.deepEqual(seen.map((a) => a.s), [1, 1], "each candidate specialised with the size's arguments");
  for (const block of [256, 512]) {
    assert.notEqual(specialised.get(block)!.wgsl, plain.get(block)!.wgsl, "the unit stride changes the WGSL");
    // The specialised pipeline was built while tuning (asking for it again builds nothing); the plain one never was.
    const before = cachedPipelineCount(gpu);
    await getPipeline(gpu, specialised.get(block)!.quiet ?? specialised.get(block)!);
    assert.equal(cachedPipelineCount(gpu), before, `BLOCK ${block}: the timed pipeline is the specialised one`);
    await getPipeline(gpu, plain.get(block)!.quiet ?? plain.get(block)!);
    assert.equal(cachedPipelineCount(gpu), before + 1, `BLOCK ${block}: the plain pipeline was not built`);
  }
});

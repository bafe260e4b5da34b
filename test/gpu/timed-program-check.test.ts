// What a run times is checked too (gpu-executor.ts timedOutputs, run-size.ts timedComparison): a run
// of one launch is checked by its instrumented variant, but timed as the program specialised for the
// launch, which reads and writes runs of elements at once (vec4s, words). Where the two differ, the
// timed program is launched once on fresh inputs and its outputs compared with the reference as well.
// On lavapipe, through the run's own seam (LaunchProgram.specialize): a timed program that scales by
// 3 where the kernel scales by 2 stands for a code-generation bug only the fast path has; the run
// must not report "match" with the time of a wrong program.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile, specializationFor, type CompiledKernel } from "../../src/compile";
import type { Diagnostic } from "../../src/diagnostics/diagnostic";
import { LineMap } from "../../src/diagnostics/position";
import { acquireGpu } from "../../src/runtime";
import type { CheckedRun } from "../../src/harness/run/args";
import { gpuExecutor } from "../../src/harness/run/gpu-executor";
import { prepareOneLaunch } from "../../src/harness/run/prepare";
import { runOneSize } from "../../src/harness/run/run-size";

const SOURCE = (factor: number) => `import { kernel, tl } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";
export const scale = kernel(function scale(x: Ptr<f32>, o: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const i = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  tl.store(o + i, tl.load(x + i, i < n) * ${factor}.0, i < n);
});`;

const kernelOf = (factor: number) => parseKernelFile("scale.kernel.ts", SOURCE(factor)).kernels[0];

async function runWithTimed(timedFactor: number) {
  const gpu = await acquireGpu();
  const right = kernelOf(2);
  const timed = kernelOf(timedFactor);
  const n = 1000;
  const run: CheckedRun = {
    name: "scale", exportName: "scale", sizes: [n], constexprs: { BLOCK: 256 },
    grid: ((size: number) => [Math.ceil(size / 256)]) as never,
    args: ((size: number) => ({ x: Float32Array.from({ length: size }, (_, i) => (i % 13) - 6), o: new Float32Array(size).fill(NaN), n: size })) as never,
    outputs: ["o"],
    reference: (({ x }: { x: Float32Array }) => ({ o: x.map((v) => v * 2) })) as never,
  };
  const c = { BLOCK: 256 };
  const program = compileKernel(right, c).kernel!;
  const launch = {
    program,
    specialize: (args: Record<string, unknown>): CompiledKernel => compileKernel(timed, c, undefined, specializationFor(timed, args)).kernel!,
    instrumented: (args: Record<string, unknown>): CompiledKernel => compileKernel(right, c, undefined, specializationFor(right, args), { instrument: true }).kernel!,
  };
  const warnings: Diagnostic[] = [];
  const report = await runOneSize(prepareOneLaunch(run, launch, n, gpuExecutor(gpu).limits), gpuExecutor(gpu), {
    reps: 3, progress: () => {}, onChecked: () => {}, lines: new LineMap(SOURCE(2)), warn: (d) => warnings.push(d),
  }, run);
  return { report, warnings };
}

test("a timed program whose outputs are wrong makes the run a mismatch, with KL3106 at the kernel, though its check matched", async () => {
  const { report, warnings } = await runWithTimed(3);
  assert.equal(report.correct, false);
  assert.ok(report.timing, "timed");
  assert.equal(report.firstMismatch?.output, "o");
  assert.equal(report.firstMismatch?.got, 3 * report.firstMismatch!.expected / 2);
  assert.deepEqual(warnings.map((w) => [w.code, w.severity]), [["KL3106", "error"]]);
  assert.match(warnings[0].message, /Run 'scale', size 1000: the checked program matched the reference, but the program Kernel Lab times \(specialised for the launch, without the bounds checks\) gave \d+ mismatched elements \(first: o\[\d+\] = /);
});

test("a timed program that matches leaves the run's check as it was: a match, no diagnostic", async () => {
  const { report, warnings } = await runWithTimed(2);
  assert.equal(report.correct, true);
  assert.equal(report.maxAbsDiff, 0);
  assert.ok(report.timing);
  assert.deepEqual(warnings, []);
});

// Times a run's `baseline` (a built-in op, `builtins.add` …) on the kernel's own buffers, and
// checks it against the run's reference, so the speed-up compares like with like.

import { BUILTINS } from "../../builtins";
import type { CompiledKernel } from "../../compile";
import type { HostArray } from "../../language";
import { launch, readBuffer, timeLaunches, type Gpu, type LaunchArgs } from "../../runtime";
import type { CheckedRun, KernelArgs } from "../run/args";
import { RunCodes, RunDefinitionError } from "../codes";
import { compareOutputs, defaultTolerance } from "../run/compare";
import { pointerParams } from "../run/gpu-args";
import type { BaselineReport } from "../report";

/** The baseline's inputs are the run's pointer inputs in parameter order, its output the run's first output. */
export async function timeBaseline(
  gpu: Gpu,
  run: CheckedRun,
  program: CompiledKernel,
  argSets: LaunchArgs[],
  args: KernelArgs,
  expected: Record<string, ArrayLike<number>>,
  kernelMedianMs: number,
  timingOpts: { maxReps: number; minReps: number },
): Promise<BaselineReport> {
  const name = run.baseline as string;
  const builtin = BUILTINS[name];
  const output = run.outputs[0];
  const used = [...baselineInputs(run, program, args, builtin.arity), output];
  const n = (args[output] as HostArray).length;
  const bind = (set: LaunchArgs): LaunchArgs => ({
    buffers: { a: set.buffers[used[0]], ...(builtin.arity === 2 ? { b: set.buffers[used[1]] } : {}), out: set.buffers[output] },
    scalars: { n },
  });
  const baselineProgram = builtin.program(n);
  const grid = builtin.grid(n);
  // The kernel's timing has just kept the GPU busy, so its clocks are up: the baseline needs its
  // few warm-up launches (pipeline, caches) but not the 200 ms that brings an idle GPU up to speed.
  const timing = await timeLaunches(gpu, baselineProgram, grid, argSets.map(bind), { ...timingOpts, warmupMs: 0 });

  // Whether the baseline computes what the reference expects (a mismatch means the comparison is apples to oranges).
  await launch(gpu, baselineProgram, grid, bind(argSets[0]));
  const got = await readBuffer(gpu, argSets[0].buffers[output], "f32", n);
  const check = compareOutputs([{ name: output, got, expected: expected[output], tolerance: { ...defaultTolerance("f32"), ...run.tolerance } }]);
  return {
    name,
    medianMs: timing.medianMs,
    speedup: timing.medianMs / kernelMedianMs,
    ...(check.correct ? {} : { matchesReference: false }),
  };
}

/** The pointer inputs the baseline takes, checked: f32 arrays at least as long as the output. */
function baselineInputs(run: CheckedRun, program: CompiledKernel, args: KernelArgs, arity: number): string[] {
  const name = run.baseline as string;
  const output = run.outputs[0];
  const inputs = pointerParams(program.params).filter((p) => !run.outputs.includes(p.name));
  const bad = (why: string) => new RunDefinitionError(RunCodes.badBaseline, `Run '${run.name}', \`baseline\`: ${why}`, run.name);
  if (inputs.length < arity) {
    throw bad(`${name} takes ${arity} input array(s), but the kernel has ${inputs.length} pointer input(s) besides its outputs.`);
  }
  const used = [...inputs.slice(0, arity).map((p) => p.name), output];
  for (const p of used) {
    if (!(args[p] instanceof Float32Array) || pointerParams(program.params).find((q) => q.name === p)?.dtype !== "f32") {
      throw bad(`${name} works on f32 arrays, but '${p}' is not one.`);
    }
  }
  const n = (args[output] as HostArray).length;
  for (const p of used) {
    if ((args[p] as HostArray).length < n) throw bad(`'${p}' has fewer elements than the output '${output}' (${n}).`);
  }
  return used.slice(0, arity);
}

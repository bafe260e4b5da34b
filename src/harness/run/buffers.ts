// A launch's arguments onto the GPU and its outputs back, shared by a run's own launch and the
// autotuner's candidates. Every buffer made goes on the caller's list, which destroys them.

import type { CompiledKernel } from "../../compile";
import type { PointeeDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import { createStorageBuffer, readBuffer, type Gpu, type LaunchArgs } from "../../runtime";
import type { KernelArgs } from "./args";
import { fromStorage, toStorage } from "./gpu-args";

/** Buffers for the pointer arguments (labelled `kernel.param` + `suffix`), scalars as they are. */
export async function uploadArgs(gpu: Gpu, program: CompiledKernel, values: KernelArgs, suffix: string, made: GPUBuffer[]): Promise<LaunchArgs> {
  const set: LaunchArgs = { buffers: {}, scalars: {} };
  for (const p of program.params) {
    const v = values[p.name];
    if (p.kind === "pointer") {
      const buffer = await createStorageBuffer(gpu, toStorage(v as HostArray, p.dtype), `${program.name}.${p.name}${suffix}`);
      made.push(buffer);
      set.buffers[p.name] = buffer;
    } else if (p.kind === "scalar") {
      set.scalars[p.name] = v as number;
    }
  }
  return set;
}

/** Each output's elements as numbers to compare. */
export async function readOutputs(gpu: Gpu, set: LaunchArgs, outputs: readonly string[], dtypes: Map<string, PointeeDtype>, args: KernelArgs): Promise<Map<string, ArrayLike<number>>> {
  const got = new Map<string, ArrayLike<number>>();
  for (const o of outputs) {
    const dtype = dtypes.get(o) as PointeeDtype;
    const raw = await readBuffer(gpu, set.buffers[o], dtype, (args[o] as HostArray).length);
    got.set(o, fromStorage(raw, dtype));
  }
  return got;
}

/** How many copies of the inputs timing rotates over (up to 4, within 256 MiB), so a small problem is not timed from a warm cache. */
export function timingCopies(args: KernelArgs): number {
  const argBytes = Object.values(args).reduce<number>((n, v) => n + (typeof v === "number" ? 0 : v.byteLength), 0);
  return Math.max(1, Math.min(4, Math.floor((256 * 2 ** 20) / Math.max(1, argBytes))));
}

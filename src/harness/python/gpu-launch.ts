// A checked launch on the GPU. A tensor on the GPU device is bound as its resident buffer
// (resident.ts), nothing copied unless Python says its CPU copy changed; any other tensor is copied
// into a buffer of its own (Dawn copies from plain memory, and its memory is shared with the Python
// thread) and, when the kernel stores through it, copied back. The instrumented variant runs where
// the device can bind its extra buffers (every program's accesses bounds-checked: KL3101 at the
// access; it needs only the tensors' lengths), else the corner programs are interpreted first (on
// the CPU copies, brought up to date) and the plain launch runs; prints are read back.

import { checkCornersOnCpu } from "../run/corners";
import { fitsDevice, instrumentedLaunch } from "../run/instrumented-launch";
import { gpuPrintBuffer, readGpuPrints } from "../debug/prints";
import { createStorageBuffer, launch, readBuffer, type Gpu, type LaunchArgs, type StorageArray } from "../../runtime";
import type { NumDtype } from "../../ir/ir";
import type { BoundArgs, Program } from "./program";
import type { CopyCounts, ResidentBuffers } from "./resident";

export interface GpuLaunchResult {
  prints: string[];
  /** The Python arguments whose elements the launch changed (in the resident buffer, or copied back into the CPU copy). */
  written: string[];
}

export async function launchOnGpu(
  gpu: Gpu,
  program: Program,
  grid: [number, number, number],
  bound: BoundArgs,
  variant: (which: "specialised" | "instrumented") => Program | string,
  resident: ResidentBuffers,
  copies: CopyCounts,
): Promise<GpuLaunchResult> {
  const made: GPUBuffer[] = [];
  try {
    const set: LaunchArgs = { buffers: {}, scalars: { ...bound.scalars } };
    const hostArgs: Record<string, StorageArray | number> = { ...bound.scalars };
    const dtypes = new Map<string, NumDtype>();
    for (const p of program.kernel.params) if (p.kind === "pointer") dtypes.set(p.name, p.dtype);
    for (const [name, arg] of bound.tensors) {
      const label = `${program.kernel.name}.${name}`;
      hostArgs[name] = arg.data as StorageArray;
      if (arg.storage !== undefined) {
        set.buffers[name] = await resident.bind(gpu, arg.storage, arg.data, arg.upload ?? true, label);
        continue;
      }
      const buffer = await createStorageBuffer(gpu, (arg.data as StorageArray).slice() as StorageArray, label);
      copies.toGpu++;
      copies.toGpuBytes += arg.data.byteLength;
      made.push(buffer);
      set.buffers[name] = buffer;
    }
    const instrumented = variant("instrumented");
    const specialised = variant("specialised");
    const plain = typeof specialised === "string" ? program : specialised;
    const checked = typeof instrumented !== "string" && fitsDevice(gpu, instrumented.kernel) ? instrumented : undefined;
    const shown = (checked ?? plain).kernel;
    set.debug = gpuPrintBuffer(gpu, shown.abi.debug, program.kernel.name, made);
    if (checked) {
      await instrumentedLaunch(gpu, checked.kernel as Parameters<typeof instrumentedLaunch>[1], grid, set, hostArgs as never, made);
    } else {
      // The interpreter reads the CPU copies: a resident one the GPU holds newer elements of is read back first.
      for (const arg of bound.tensors.values()) if (arg.storage !== undefined && !arg.upload) await resident.download(gpu, arg.storage, arg.data);
      checkCornersOnCpu(program.kernel, grid, hostArgs as never, dtypes);
      await launch(gpu, plain.kernel, grid, set);
    }
    const printed = set.debug && shown.abi.debug ? await readGpuPrints(gpu, program.kernel.name, shown.abi.debug, set.debug) : undefined;
    const stored = new Set(program.kernel.abi.buffers.filter((b) => b.access === "read_write").map((b) => b.name));
    const written: string[] = [];
    for (const [name, arg] of bound.tensors) {
      const dtype = dtypes.get(name);
      if (!stored.has(name) || !dtype) continue;
      written.push(arg.python);
      if (arg.storage !== undefined) continue;
      arg.data.set((await readBuffer(gpu, set.buffers[name], dtype, arg.data.length)) as never);
      copies.fromGpu++;
      copies.fromGpuBytes += arg.data.byteLength;
    }
    return { prints: printed?.lines ?? [], written };
  } finally {
    for (const b of made) b.destroy();
  }
}

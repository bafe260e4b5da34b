// A checked launch on the GPU: the tensors copied into buffers (Dawn copies from plain memory, and
// theirs is shared with the Python thread), the instrumented variant where the device can bind its
// extra buffers (every program's accesses bounds-checked: KL3101 at the access), else the corner
// programs interpreted first and the plain launch; prints read back; every pointer's buffer copied
// back into its tensor.

import { checkCornersOnCpu } from "../run/corners";
import { fitsDevice, instrumentedLaunch } from "../run/instrumented-launch";
import { gpuPrintBuffer, readGpuPrints } from "../debug/prints";
import { createStorageBuffer, launch, readBuffer, type Gpu, type LaunchArgs, type StorageArray } from "../../runtime";
import type { NumDtype } from "../../ir/ir";
import type { BoundArgs, Program } from "./program";

export async function launchOnGpu(gpu: Gpu, program: Program, grid: [number, number, number], bound: BoundArgs, variant: (which: "specialised" | "instrumented") => Program | string): Promise<string[]> {
  const made: GPUBuffer[] = [];
  try {
    const set: LaunchArgs = { buffers: {}, scalars: { ...bound.scalars } };
    const hostArgs: Record<string, StorageArray | number> = { ...bound.scalars };
    const dtypes = new Map<string, NumDtype>();
    for (const p of program.kernel.params) if (p.kind === "pointer") dtypes.set(p.name, p.dtype);
    for (const [name, data] of bound.tensors) {
      const copy = (data as StorageArray).slice() as StorageArray;
      hostArgs[name] = copy;
      const buffer = await createStorageBuffer(gpu, copy, `${program.kernel.name}.${name}`);
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
      checkCornersOnCpu(program.kernel, grid, hostArgs as never, dtypes);
      await launch(gpu, plain.kernel, grid, set);
    }
    const printed = set.debug && shown.abi.debug ? await readGpuPrints(gpu, program.kernel.name, shown.abi.debug, set.debug) : undefined;
    for (const [name, data] of bound.tensors) {
      const dtype = dtypes.get(name);
      if (dtype) data.set((await readBuffer(gpu, set.buffers[name], dtype, data.length)) as never);
    }
    return printed?.lines ?? [];
  } finally {
    for (const b of made) b.destroy();
  }
}

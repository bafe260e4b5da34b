// An in-place launch on the GPU (executor.ts `launchInPlace`: a Python script's `kernel[grid](…)`).
// An array with a kept device copy (python/resident.ts) is bound as that buffer, nothing copied
// unless its caller says the CPU copy changed; any other array is copied into a buffer of its own
// (Dawn copies from plain memory, and the caller's memory may be shared with another thread) and,
// when the kernel stores through it, copied back. Kernel Lab's own kernels (`unchecked`) run as
// compiled. Otherwise the instrumented variant runs where the device
// can bind its extra buffers (every program's accesses bounds-checked: KL3101 at the access; it
// needs only the arrays' lengths), else the corner programs are interpreted first (on the CPU
// copies, brought up to date) and the plain launch runs; prints are read back. Pointer arguments
// sharing memory (one tensor passed twice, Liger's dScale again as dShift; views of one storage)
// are one buffer, each pointer compiled as a view of it (shared-views.ts), so a store through one
// is seen through the other as on CUDA, and two programs storing one element through the two are
// a race the instrumented variant finds as through one pointer (KL3104). Kernel Lab's own kernels
// (compiled once, without that specialisation) get a copy per argument, each bringing back only
// the bytes the kernel changed through it.

import { checkCornersOnCpu } from "./corners";
import { overlap, sharedViews, viewSpecialization, type SharedViews } from "./shared-views";
import { fitsDevice, instrumentedLaunch, type RaceExplainer } from "./instrumented-launch";
import { hazardWarning, raceError } from "../debug/races";
import { withLoadSite } from "./race-explainer";
import type { Diagnostic } from "../../diagnostics/diagnostic";
import { gpuPrintBuffer, readGpuPrints } from "../debug/prints";
import { createStorageBuffer, launch, readBuffer, type Gpu, type LaunchArgs, type StorageArray } from "../../runtime";
import type { PointeeDtype } from "../../ir/ir";
import type { InPlaceLaunch, InPlaceResult, KeptBuffers } from "./executor";

export async function launchInPlaceOnGpu(gpu: Gpu, request: InPlaceLaunch, kept: KeptBuffers): Promise<InPlaceResult> {
  const { program, grid } = request;
  const { copies } = kept;
  const made: GPUBuffer[] = [];
  const dtypes = new Map<string, PointeeDtype>();
  for (const p of program.params) if (p.kind === "pointer") dtypes.set(p.name, p.dtype);
  const stored = new Set(program.abi.buffers.filter((b) => b.access === "read_write").map((b) => b.name));
  const views: SharedViews = request.unchecked ? { views: {}, storages: [] } : sharedViews(program.name, request.arrays, dtypes, stored);
  const inStorage = new Set(views.storages.flatMap((s) => s.members));
  const shared = sharingMemory(request.arrays, inStorage);
  const before = new Map<string, StorageArray>();
  const warnings: Diagnostic[] = [];
  try {
    const set: LaunchArgs = { buffers: {}, scalars: { ...request.scalars } };
    const hostArgs: Record<string, StorageArray | number> = { ...request.scalars };
    const upload = async (name: string, data: StorageArray) => {
      const uploaded = data.slice() as StorageArray;
      if (shared.has(name)) before.set(name, uploaded);
      const buffer = await createStorageBuffer(gpu, uploaded, `${program.name}.${name}`);
      copies.toGpu++;
      copies.toGpuBytes += data.byteLength;
      made.push(buffer);
      set.buffers[name] = buffer;
    };
    for (const storage of views.storages) await upload(storage.name, storage.data);
    for (const [name, array] of request.arrays) {
      const label = `${program.name}.${name}`;
      hostArgs[name] = array.data;
      if (inStorage.has(name)) continue;
      if (array.kept) {
        set.buffers[name] = await kept.bind(gpu, array.kept.storage, array.data, array.kept.upload, label);
        continue;
      }
      await upload(name, array.data);
    }
    const specialised = views.storages.length > 0 ? viewSpecialization(views) : undefined;
    Object.assign(set.scalars, specialised?.scalars);
    const bound = specialised?.views;
    const instrumented = request.unchecked ? undefined : request.variant("instrumented", bound);
    const plain = request.unchecked ? program : request.variant("specialised", bound) ?? (bound ? undefined : request.program);
    if (!plain) throw new Error(`${program.name}: Kernel Lab could not compile the launch with its pointers that share memory as one buffer. This is a bug in Kernel Lab; please report it with this kernel`);
    const checked = instrumented && fitsDevice(gpu, instrumented) ? instrumented : undefined;
    const shown = checked ?? plain;
    set.debug = gpuPrintBuffer(gpu, shown.abi.debug, program.name, made);
    if (checked) {
      const lines = request.unchecked ? undefined : request.lines;
      const kernelSpan = request.unchecked ? { start: 0, end: 0 } : request.program.ir.span;
      // A race or a load of another program's store (KL3105) in --cpu's words, its lines the script's (no values: the GPU keeps none).
      const explain: RaceExplainer = {
        race: (race) => { throw raceError(program.name, race, lines); },
        hazard: (hazard) => [hazardWarning(program.name, request.unchecked ? hazard : withLoadSite(request.program.ir, grid, hostArgs, hazard), lines, kernelSpan)],
      };
      // A shared storage's shadow buffers are as long as the storage (the views' lengths are their own).
      const withStorages = { ...hostArgs, ...Object.fromEntries(views.storages.map((s) => [s.name, s.data])) };
      warnings.push(...(await instrumentedLaunch(gpu, checked, grid, set, withStorages as never, made, explain)).warnings);
    } else if (request.unchecked) {
      await launch(gpu, plain, grid, set);
    } else {
      // The interpreter reads the CPU copies: a kept one the GPU holds newer elements of is read back first.
      for (const array of request.arrays.values()) if (array.kept && !array.kept.upload) await kept.download(gpu, array.kept.storage, array.data);
      checkCornersOnCpu(request.program, grid, hostArgs as never, dtypes);
      await launch(gpu, plain, grid, set);
    }
    const printed = set.debug && shown.abi.debug ? await readGpuPrints(gpu, program.name, shown.abi.debug, set.debug) : undefined;
    const written: string[] = [];
    for (const storage of views.storages) {
      const dtype = dtypes.get(storage.members[0]);
      if (!dtype || !storage.members.some((m) => stored.has(m))) continue;
      // One buffer held every view's elements: all of it comes back.
      storage.data.set((await readBuffer(gpu, set.buffers[storage.name], dtype, storage.data.length)) as never);
      copies.fromGpu++;
      copies.fromGpuBytes += storage.data.byteLength;
    }
    for (const [name, array] of request.arrays) {
      const dtype = dtypes.get(name);
      if (!stored.has(name) || !dtype) continue;
      written.push(name);
      if (array.kept || inStorage.has(name)) continue;
      const after = (await readBuffer(gpu, set.buffers[name], dtype, array.data.length)) as StorageArray;
      const old = before.get(name);
      if (old) copyChanged(array.data, old, after);
      else array.data.set(after as never);
      copies.fromGpu++;
      copies.fromGpuBytes += array.data.byteLength;
    }
    return { prints: printed?.lines ?? [], written, warnings };
  } finally {
    for (const b of made) b.destroy();
  }
}


/** The arrays (not bound as a shared storage's view) whose memory overlaps another such array's of the same launch. */
function sharingMemory(arrays: InPlaceLaunch["arrays"], inStorage: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const list = [...arrays].filter(([name, a]) => !a.kept && !inStorage.has(name));
  for (const [i, [x, a]] of list.entries()) {
    for (const [y, b] of list.slice(i + 1)) {
      if (overlap(a.data, b.data)) found.add(x).add(y);
    }
  }
  return found;
}

/** `target` gets the bytes of `after` that differ from `before` (what the kernel wrote through this copy). */
function copyChanged(target: StorageArray, before: StorageArray, after: StorageArray): void {
  const bytes = (a: StorageArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const [t, b, a] = [bytes(target), bytes(before), bytes(after)];
  for (let i = 0; i < Math.min(t.length, a.length, b.length); i++) if (a[i] !== b[i]) t[i] = a[i];
}

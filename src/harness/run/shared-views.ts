// Pointer arguments of one in-place launch that share memory (a Python script passing one tensor
// as two pointers, `relu[grid](x, x, n)`, or two views of one storage, `k[grid](x[1:], x)`). On
// CUDA they are two addresses into one memory: a store through one is seen by a later load through
// the other in the same launch. WebGPU forbids binding one buffer twice where one binding is
// written, and two copies would each miss the other's stores, so the launch binds one buffer per
// storage (the union of its views) and compiles each pointer as that binding plus its element
// offset (Specialization.views): a specialisation keyed like the others, so a launch of distinct
// tensors compiles as before. Views of one storage that are not whole elements of one dtype apart
// (an f32 tensor and its int32 or f16 view) can't be one binding: they stay two copies where the
// kernel writes neither (nothing can go stale), and where it writes one the launch is refused
// (KL3930) rather than answer what CUDA wouldn't.

import { viewOffsetScalar, type PointeeDtype, type PointerView } from "../../ir/ir";
import { DIVISIBILITY } from "../../semantics/context";
import type { StorageArray } from "../../runtime";
import type { InPlaceLaunch } from "./executor";

/** One storage shared by views: its binding's name (a name no parameter has), its elements (the views' union), the views in it. */
export interface SharedStorage {
  name: string;
  data: StorageArray;
  members: string[];
}

/** The views of the launch's shared storages (empty where no two pointer arguments overlap): each one's storage and first element there. */
export interface SharedViews {
  views: Record<string, { storage: string; offset: number }>;
  storages: SharedStorage[];
}

/**
 * How the launch is compiled (Specialization.views): an offset of 0 as the constant, any other as
 * a scalar of the launch (known a multiple of 16 where it is), so launches whose views start at
 * other elements alike (`x[i:]` in a loop) share one compile; and the scalars' values.
 */
export function viewSpecialization(shared: SharedViews): { views: Record<string, PointerView>; scalars: Record<string, number> } {
  const views: Record<string, PointerView> = {};
  const scalars: Record<string, number> = {};
  for (const [param, { storage, offset }] of Object.entries(shared.views)) {
    views[param] = { storage, offset: offset === 0 ? 0 : offset % DIVISIBILITY === 0 ? "scalar16" : "scalar" };
    if (offset !== 0) scalars[viewOffsetScalar(param)] = offset;
  }
  return { views, scalars };
}

/** KL3930: pointer arguments sharing memory in a way one binding can't hold, where the kernel writes one of them. */
export class SharedViewsRefused extends Error {}

/**
 * The overlapping pointer arguments of a launch, grouped by storage: `dtypes` are the parameters'
 * pointee dtypes as compiled, `written` the parameters the kernel stores through. Arrays with a
 * kept device copy are each a storage passed once (torch/_resident.py), never shared.
 */
export function sharedViews(kernel: string, arrays: InPlaceLaunch["arrays"], dtypes: ReadonlyMap<string, PointeeDtype>, written: ReadonlySet<string>): SharedViews {
  const list = [...arrays].filter(([, a]) => !a.kept).map(([name, a]) => [name, a.data] as const);
  const group = list.map((_, i) => i);
  const root = (i: number): number => (group[i] === i ? i : (group[i] = root(group[i])));
  for (let i = 0; i < list.length; i++) {
    for (let j = i + 1; j < list.length; j++) if (overlap(list[i][1], list[j][1])) group[root(j)] = root(i);
  }
  const result: SharedViews = { views: {}, storages: [] };
  for (let i = 0; i < list.length; i++) {
    if (root(i) !== i) continue;
    const members = list.filter((_, j) => root(j) === i);
    if (members.length < 2) continue;
    const [first, data] = members[0];
    const oneBinding = members.every(([name, d]) => d.constructor === data.constructor && dtypes.get(name) === dtypes.get(first) && (d.byteOffset - data.byteOffset) % data.BYTES_PER_ELEMENT === 0);
    if (!oneBinding) {
      const stored = members.find(([name]) => written.has(name));
      if (stored) throw new SharedViewsRefused(refusal(kernel, members.map(([name]) => name), dtypes, stored[0]));
      // Read only: each copy holds what the kernel reads, and nothing is copied back.
      continue;
    }
    const size = data.BYTES_PER_ELEMENT;
    const start = Math.min(...members.map(([, d]) => d.byteOffset));
    const end = Math.max(...members.map(([, d]) => d.byteOffset + d.byteLength));
    const union = new (data.constructor as new (buffer: ArrayBufferLike, byteOffset: number, length: number) => StorageArray)(data.buffer, start, (end - start) / size);
    const name = `kl_shared_${first}`;
    result.storages.push({ name, data: union, members: members.map(([m]) => m) });
    for (const [member, d] of members) result.views[member] = { storage: name, offset: (d.byteOffset - start) / size };
  }
  return result;
}

/** Same memory, bytes in common. */
export function overlap(a: StorageArray, b: StorageArray): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}

function refusal(kernel: string, names: readonly string[], dtypes: ReadonlyMap<string, PointeeDtype>, stored: string): string {
  const listed = names.map((n) => `${n} (${dtypes.get(n) ?? "?"})`).join(" and ");
  return (
    `${kernel}'s pointer arguments ${listed} point into the same memory, as different dtypes or not a whole number of elements apart, and the kernel stores through ${stored}: ` +
    `on the GPU Kernel Lab binds memory two pointers share as one array of one dtype, which these can't be, and separate copies could read elements from before the launch. ` +
    `Pass tensors that don't share memory (.clone() one of them), or views of one dtype; --cpu runs it as it is`
  );
}

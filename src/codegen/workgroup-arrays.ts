// Workgroup arrays by name: what the emitters ask for (generator.ts `scratch`) and what a plan's
// tl.dot staging will ask for (plan.ts), named and sized the same way, so a plan knows the
// workgroup memory its staging takes before anything is emitted.

import type { RegisterDtype } from "./literals";

export interface WorkgroupArray {
  dtype: RegisterDtype;
  /** Elements (a vec4 array holds size / 4 vec4s). */
  size: number;
  vec4: boolean;
}

/** A slot's array: one per slot, dtype and width; uses of the same slot share it. */
export function arrayName(slot: string, dtype: RegisterDtype, vec4: boolean): string {
  return `sm_${slot}_${dtype}${vec4 ? "x4" : ""}`;
}

/** Asks `arrays` for an array of at least `size` elements in `slot`; returns its name. */
export function requestArray(arrays: Map<string, WorkgroupArray>, slot: string, dtype: RegisterDtype, size: number, vec4 = false): string {
  const name = arrayName(slot, dtype, vec4);
  const known = arrays.get(name);
  arrays.set(name, { dtype, size: Math.max(size, known?.size ?? 0), vec4 });
  return name;
}

export function arrayBytes(array: WorkgroupArray): number {
  return array.size * (array.dtype === "f16" ? 2 : 4);
}

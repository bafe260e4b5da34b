// The tl.* functions, keyed by name: each entry checks and types a call's arguments and emits its
// IR, and declares the IR ops it may produce. Entries live with their kind (blocks, memory,
// element-wise math, reductions); adding a tl.* function is one entry in one of those tables.

import type { Intrinsic } from "./intrinsic-args";
import { BLOCK_INTRINSICS } from "./intrinsics-blocks";
import { LOOP_INTRINSICS } from "./intrinsics-loops";
import { DEBUG_INTRINSICS } from "./intrinsics-debug";
import { MATH_INTRINSICS } from "./intrinsics-math";
import { MEMORY_INTRINSICS } from "./intrinsics-memory";
import { REDUCTION_INTRINSICS } from "./intrinsics-reductions";
import { ATOMIC_INTRINSICS } from "./intrinsics-atomics";
import { RANDOM_INTRINSICS } from "./intrinsics-random";
import { PHILOX_INTRINSICS } from "./intrinsics-philox";
import { SPECIAL_MATH_INTRINSICS } from "./intrinsics-special-math";
import { SCAN_INTRINSICS } from "./intrinsics-scans";
import { HINT_INTRINSICS } from "./intrinsics-hints";
import { SHAPE_INTRINSICS } from "./intrinsics-shapes";
import { SORTING_INTRINSICS } from "./intrinsics-sorting";
import { BLOCK_POINTER_INTRINSICS } from "./block-pointers";
import { TENSOR_DESCRIPTOR_INTRINSICS } from "./tensor-descriptors";

export type { Intrinsic, IntrinsicContext } from "./intrinsic-args";

export const INTRINSICS: Readonly<Record<string, Intrinsic>> = {
  ...BLOCK_INTRINSICS,
  ...MEMORY_INTRINSICS,
  ...MATH_INTRINSICS,
  ...REDUCTION_INTRINSICS,
  ...ATOMIC_INTRINSICS,
  ...LOOP_INTRINSICS,
  ...RANDOM_INTRINSICS,
  ...PHILOX_INTRINSICS,
  ...SPECIAL_MATH_INTRINSICS,
  ...SCAN_INTRINSICS,
  ...DEBUG_INTRINSICS,
  ...HINT_INTRINSICS,
  ...SHAPE_INTRINSICS,
  ...SORTING_INTRINSICS,
  ...BLOCK_POINTER_INTRINSICS,
  ...TENSOR_DESCRIPTOR_INTRINSICS,
};

/** The tl.* function called `name` (own entries only: `tl.toString` is not one). */
export function intrinsicNamed(name: string): Intrinsic | undefined {
  return Object.hasOwn(INTRINSICS, name) ? INTRINSICS[name] : undefined;
}

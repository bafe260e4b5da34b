// What the WGSL of a value needs from the generator (generator.ts implements it): emitting lines,
// register names and layouts, workgroup arrays. The per-op emitters (values.ts, memory.ts,
// rearrange.ts, reductions.ts, dot.ts) work through it.

import type { Dtype, Value, ValueType } from "../ir/ir";
import type { RegisterDtype } from "./literals";
import type { BlockLayout } from "./layout";
import type { MmaPlan } from "./mma-plan";
import type { TiledDotStaging } from "./dot-staging";
import type { VariableFacts } from "./variable-values";

/**
 * What decides the workgroup arrays a value's WGSL asks for: the generator while it emits, and the
 * plan before anything is emitted (array-plan.ts). The per-op functions that name and size those
 * arrays take this, so the plan and the emitters can't disagree.
 */
export interface ArrayFacts extends VariableFacts {
  readonly workgroupSize: number;
  /** The smallest subgroup the adapter runs (meaningful when the target has subgroups). */
  readonly subgroupMinSize: number;
  /** The target has subgroup operations (`useSubgroups` is the emitter's way to use them). */
  readonly hasSubgroups: boolean;
  layout(type: ValueType): BlockLayout;
  dtype(type: ValueType): RegisterDtype;
  /** A workgroup array of at least `size` elements of `dtype` in scratch slot `slot` (as vec4s: size / 4 of them). */
  scratch(slot: string, dtype: RegisterDtype, size: number, vec4?: boolean): string;
  fresh(prefix: string): string;
  /** Whether the code being emitted is inside a loop (it may run again after its own reads). */
  inLoop(): boolean;
  /** Reductions use the shared staging array, never one of their own (CodegenOptions.shareReductionArrays). */
  readonly sharedReductionArrays: boolean;
  /** Whether a value feeds an `if` condition or a loop bound (uniformity.ts). */
  steersControl(v: Value): boolean;
}

export interface Emitter extends ArrayFacts {
  /** Write tl.dot's k loop out in full (CodegenOptions.unrollDot). */
  readonly unrollDot: boolean;
  /** `var name: type = init;` at the top of the entry point (state that outlives loops, e.g. a buffer parity). */
  declareVar(name: string, type: string, init: string): void;
  /** How this tiled tl.dot stages its operands (the plan's, dot-staging.ts). */
  tiledDotStaging(v: Value): TiledDotStaging;
  /** How many of K's columns a tl.dot on the flat path stages at a time (the plan's, dot-staging.ts `dotChunk`). */
  flatDotChunk(v: Value & { op: "dot" }): number;
  emit(line: string): void;
  nested(fn: () => void): void;
  /**
   * What `make` emitted and returned for `key`, if it ran in this block or one around it (its lets
   * are still in scope); else runs it now. A multi-operand scan or tl.reduce is one op per result
   * sharing one combine object: the first computes every result, the others read theirs.
   */
  shared<T>(key: object, make: () => T): T;
  reg(v: Value, j: number): string;
  elementIndex(type: ValueType, j: number): string;
  /** Which invocations write a block's elements when several hold each (generator.ts), else undefined. */
  ownerCondition(type: ValueType): string | undefined;
  typeOf(type: ValueType): string;
  valueName(v: Value, j: number): string;
  /** The name of the per-invocation first flat element of a tiled layout. */
  tileBase(layout: BlockLayout): string;
  /** The shader uses subgroup matrices (mma.ts): enables the extension (emulated: f16 only). */
  useSubgroupMatrix(emulated?: boolean): void;
  /** How this tl.dot runs on subgroup matrices, when it does (mma.ts). */
  mmaPlan(v: Value): MmaPlan | undefined;
  /** Dots on subgroup matrices whose operands were staged before their place (mma.ts stageMmaEarly), by dot id. */
  readonly earlyStaging: Map<number, unknown>;
  /** Subgroup operations are available: the shader may use `sg_lane` and `sg_size`. */
  useSubgroups(): boolean;
  /** Split tiled element indices into row and column term by term (rearrange.ts `tileTerms`; CodegenOptions.splitTileIndices). */
  readonly splitTileIndices: boolean;
  /** Row and column of a flat index taken unsigned (rearrange.ts `IndexForm`; CodegenOptions.unsignedIndices). */
  readonly unsignedIndices: boolean;
  /** Where this row maximum may stay at a running maximum's read (lazy-max.ts, CodegenOptions.lazyRowMax), that read. */
  lazyFloor(v: Value): Value | undefined;
}

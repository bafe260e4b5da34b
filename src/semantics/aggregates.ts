// What a kernel expression may stand for besides one IR value: a tuple (Triton's tuples, written as
// arrays: a device function's `return [acc, l, m]`, `tl.split`'s two halves) or a block pointer
// (tl.makeBlockPtr) or a tensor descriptor (tl.makeTensorDescriptor). None reaches the IR as such:
// a tuple is its elements, a block pointer or a descriptor its base, shape, strides (and offsets),
// turned into pointer arithmetic where it is loaded or stored.
// A `let` holding one keeps each part in a variable of its own (`Slot`).

import type { Span } from "../diagnostics/diagnostic";
import type { Value, Variable } from "../ir/ir";
import { typeText, type DtypeValue } from "./dtypes";

export interface Tuple {
  kind: "tuple";
  elements: Lowered[];
  span: Span;
  /**
   * A reshape to one axis more than a block holds, whose last axis is 2 (`x = tl.reshape(x, [M, C, 2, 2])`,
   * TransformerEngine's mHC kernels): kept as the two halves along that axis until tl.split takes
   * them apart (wide-reshapes.ts); `wide` is the shape it was given.
   */
  wide?: number[];
}

/**
 * Triton's block pointer: a `blockShape` window at `offsets` into a `shape` tensor of `strides`
 * elements per axis from `base` (a scalar pointer). `order` is Triton's memory-order hint.
 */
export interface BlockPointer {
  kind: "blockPtr";
  base: Value;
  shape: Value[];
  strides: Value[];
  offsets: Value[];
  blockShape: number[];
  order: number[];
  span: Span;
}

/**
 * Triton's tensor descriptor (tl.make_tensor_descriptor, or a host TensorDescriptor argument): a
 * `shape` tensor of `strides` elements per axis from `base`, read and written a `blockShape` block
 * at a time at offsets given to each load and store; elements outside `shape` read as `padding`
 * and are not written (tensor-descriptors.ts). Nothing of it changes after it is made.
 */
export interface TensorDescriptor {
  kind: "tensorDesc";
  base: Value;
  shape: Value[];
  strides: Value[];
  blockShape: number[];
  padding: "zero" | "nan";
  span: Span;
}

/** A dtype is a compile-time value too (dtypes.ts): `tl.float32`, `x.dtype`. */
export type Aggregate = Tuple | BlockPointer | TensorDescriptor | DtypeValue;
/** What lowering an expression gives: one IR value, or an aggregate of them. */
export type Lowered = Value | Aggregate;

export function isAggregate(x: Lowered): x is Aggregate {
  return !("op" in x);
}

/** The variables of a `let` (or a reassigned parameter) that holds an aggregate. */
export type Slot =
  | { kind: "variable"; variable: Variable }
  | { kind: "tuple"; elements: Slot[]; wide?: number[] }
  /**
   * A block pointer that only tl.advance moves: its offsets are variables, the rest fixed values, which a new
   * tl.make_block_ptr replaces only at `depth`, the run-time depth where it was declared (assignment.ts).
   */
  | { kind: "blockPtr"; fixed: Omit<BlockPointer, "offsets" | "span" | "kind">; offsets: Variable[]; depth: number }
  /** A tensor descriptor held in a `let`: nothing of it changes, so no variable; `depth` as for a dtype. */
  | { kind: "tensorDesc"; value: TensorDescriptor; depth: number }
  /** A dtype held in a `let`: known while compiling, so no variable; `depth` is the run-time depth where it was assigned. */
  | { kind: "dtype"; value: DtypeValue; depth: number };

/** "a tuple of 3 values", "a block pointer": what an aggregate is, in a message. */
export function describeAggregate(a: Aggregate): string {
  switch (a.kind) {
    case "tuple":
      if (a.wide) return `a block of ${a.wide.length} axes, ${a.wide.join(" × ")}, which only tl.split takes`;
      return `a tuple of ${a.elements.length} value${a.elements.length === 1 ? "" : "s"}`;
    case "blockPtr":
      return `a block pointer (${a.blockShape.join(" × ")})`;
    case "tensorDesc":
      return `a tensor descriptor (${a.blockShape.join(" × ")})`;
    case "dtype":
      return `the dtype ${typeText(a.type)}`;
  }
}

/** `x` located at `span` (where it is used, so diagnostics point there). */
export function at<T extends Lowered>(x: T, span: Span): T {
  return { ...x, span };
}

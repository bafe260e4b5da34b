// Triton's block pointers: tl.makeBlockPtr(base, shape, strides, offsets, blockShape, order)
// describes a window of a strided tensor, tl.advance moves it, and tl.load / tl.store read and
// write through it. Nothing of it reaches the IR: a load through a block pointer is the load
// pointer arithmetic writes by hand —
//   base + (offsets[0] + tl.arange(0, B0))[:, None] * strides[0] + (offsets[1] + tl.arange(0, B1))[None, :] * strides[1]
// — masked, on the axes `boundaryCheck` names, by 0 <= index < shape (Triton's check).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { DiagnosticCode, Span } from "../diagnostics/diagnostic";
import type { Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { describeAggregate, isAggregate, type BlockPointer } from "./aggregates";
import { MAX_RANK, arity, constInt, shapeArg, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { isInt } from "./rules";
import { isConst } from "./values";

/** Which code a wrong kind or count of per-axis integers is, and what holds the axes, for the messages. */
export interface AxesOf {
  code: DiagnosticCode;
  holder: string;
}

const BLOCK_POINTER: AxesOf = { code: Codes.intrinsicArgs, holder: "the block pointer" };

/**
 * A tuple (or array literal) of integer scalars, one per axis, converted to i32: a block pointer's
 * or a tensor descriptor's shape, strides or offsets.
 */
export function axisScalars(ctx: IntrinsicContext, node: ts.Expression, what: string, rank: number | undefined, of: AxesOf = BLOCK_POINTER): Value[] | undefined {
  const lowered = ctx.lowered(node);
  if (!lowered) return undefined;
  if (!isAggregate(lowered) || lowered.kind !== "tuple") {
    ctx.log.error(of.code, ctx.span(node), `${what} is one integer per axis, written [a, b]; got ${isAggregate(lowered) ? describeAggregate(lowered) : typeToString(lowered.type)}`);
    return undefined;
  }
  const values: Value[] = [];
  for (const e of lowered.elements) {
    if (isAggregate(e) || e.type.kind === "pointer" || e.type.shape.length > 0 || !isInt(e.type.dtype)) {
      ctx.log.error(Codes.operandDtype, e.span, `${what} holds integer scalars, got ${isAggregate(e) ? describeAggregate(e) : typeToString(e.type)}`);
      return undefined;
    }
    values.push(ctx.values.cast(e, "i32", e.span));
  }
  if (rank !== undefined && values.length !== rank) {
    ctx.log.error(of.code, ctx.span(node), `${what} has ${values.length} element${values.length === 1 ? "" : "s"}, but ${of.holder} has ${rank} axes`);
    return undefined;
  }
  return values;
}

/** A block pointer argument, or undefined after a diagnostic. */
function blockPointer(ctx: IntrinsicContext, node: ts.Expression | undefined, what: string): BlockPointer | undefined {
  const lowered = ctx.lowered(node);
  if (!lowered) return undefined;
  if (!isAggregate(lowered) || lowered.kind !== "blockPtr") {
    ctx.log.error(Codes.notAPointer, ctx.span(node!), `${what} takes a block pointer (made by tl.makeBlockPtr), got ${isAggregate(lowered) ? describeAggregate(lowered) : typeToString(lowered.type)}`);
    return undefined;
  }
  return lowered;
}

export const BLOCK_POINTER_INTRINSICS: Record<string, Intrinsic> = {
  makeBlockPtr: {
    params: ["base", "shape", "strides", "offsets", "blockShape", "order"],
    produces: ["cast", "const"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 6, 6, "(base, shape, strides, offsets, blockShape, order)")) return undefined;
      const base = ctx.expression(args[0]);
      if (!base) return undefined;
      if (base.type.kind !== "pointer" || base.type.shape.length > 0) {
        ctx.log.error(Codes.notAPointer, base.span, `tl.${name}'s base is one pointer (a Ptr parameter, plus an offset), got ${typeToString(base.type)}`);
        return undefined;
      }
      const blockShape = ts.isArrayLiteralExpression(args[4]!) ? shapeArg(ctx, args[4]) : undefined;
      if (!ts.isArrayLiteralExpression(args[4]!)) ctx.log.error(Codes.constantRequired, ctx.span(args[4]!), "tl.makeBlockPtr's blockShape is an array of compile-time integers, e.g. [BLOCK_M, BLOCK_K]");
      if (!blockShape) return undefined;
      const rank = blockShape.length;
      if (rank < 1 || rank > MAX_RANK) {
        ctx.log.error(Codes.intrinsicArgs, ctx.span(args[4]!), `a block pointer has 1 to ${MAX_RANK} axes, got ${rank}`);
        return undefined;
      }
      const shape = axisScalars(ctx, args[1]!, `tl.${name}'s shape`, rank);
      const strides = shape && axisScalars(ctx, args[2]!, `tl.${name}'s strides`, rank);
      const offsets = strides && axisScalars(ctx, args[3]!, `tl.${name}'s offsets`, rank);
      const order = offsets && orderArg(ctx, args[5]!, rank, name);
      if (!shape || !strides || !offsets || !order) return undefined;
      return { kind: "blockPtr", base, shape, strides, offsets, blockShape: [...blockShape], order, span };
    },
  },

  advance: {
    params: ["base", "offsets"],
    produces: ["binary:add", "cast", "const"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(base, offsets)")) return undefined;
      const bp = blockPointer(ctx, args[0], `tl.${name}`);
      const deltas = bp && axisScalars(ctx, args[1]!, `tl.${name}'s offsets`, bp.offsets.length);
      if (!bp || !deltas) return undefined;
      const offsets = bp.offsets.map((o, i) => (isConst(deltas[i]) && deltas[i].value === 0 ? o : ctx.values.binary("add", o, deltas[i], span)));
      if (offsets.some((o) => !o)) return undefined;
      return { ...bp, offsets: offsets as Value[], span };
    },
  },
};

/** Triton's `order` (the memory order of the axes, fastest last): a permutation, checked and otherwise unused. */
function orderArg(ctx: IntrinsicContext, node: ts.Expression, rank: number, name: string): number[] | undefined {
  const elements = ts.isArrayLiteralExpression(node) ? [...node.elements] : undefined;
  // Else a name bound to a tuple of constants: tutorial 06's `v_order: tl.constexpr = (0, 1) if … else (1, 0)`.
  const order = elements ? elements.map((e) => constInt(ctx, e, `tl.${name}'s order`)) : constTuple(ctx, node);
  if (!order || order.some((o) => o === undefined)) {
    if (!elements) ctx.log.error(Codes.constantRequired, ctx.span(node), `tl.${name}'s order is an array of compile-time integers, e.g. [1, 0]`);
    return undefined;
  }
  const sorted = [...(order as number[])].sort((a, b) => a - b);
  if (sorted.length !== rank || sorted.some((o, i) => o !== i)) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `tl.${name}'s order names each axis once (${[...Array(rank).keys()].join(", ")} in some order), got [${(order as number[]).join(", ")}]`);
    return undefined;
  }
  return order as number[];
}

/** The integers of a tuple of compile-time integers, else undefined (the caller says what it wanted). */
function constTuple(ctx: IntrinsicContext, node: ts.Expression): number[] | undefined {
  const lowered = ctx.lowered(node);
  if (!lowered || !isAggregate(lowered) || lowered.kind !== "tuple") return undefined;
  const ints = lowered.elements.map((e) => (!isAggregate(e) && isConst(e) && Number.isInteger(e.value) ? e.value : undefined));
  return ints.every((i) => i !== undefined) ? (ints as number[]) : undefined;
}

/** What a load or store through a block pointer needs: the pointers of its window, and the mask of its checked axes. */
export interface BlockAccess {
  pointers: Value;
  mask?: Value;
}

/**
 * The pointer block of a block pointer's window, and its boundary mask: `boundaryCheck` (the
 * axes to check, an array literal of compile-time integers) and `paddingOption` are tl.load's
 * and tl.store's keywords.
 */
export function blockAccess(ctx: IntrinsicContext, bp: BlockPointer, boundaryCheck: ts.Expression | undefined, span: Span, what: string): BlockAccess | undefined {
  const checked = boundaryCheck ? axesArg(ctx, boundaryCheck, bp.blockShape.length, what) : [];
  return checked && windowAccess(ctx, bp, checked, span);
}

/** A `blockShape` window at `offsets` of a `shape` tensor of `strides` from `base`: a block pointer's, or a tensor descriptor's load or store. */
export interface Window {
  base: Value;
  shape: readonly Value[];
  strides: readonly Value[];
  offsets: readonly Value[];
  blockShape: readonly number[];
}

/** The pointer block of a window, and its mask on the `checked` axes (0 <= index < shape). */
export function windowAccess(ctx: IntrinsicContext, bp: Window, checked: readonly number[], span: Span): BlockAccess | undefined {
  const rank = bp.blockShape.length;
  const blockShape = [...bp.blockShape];
  // Index along axis d: offsets[d] + tl.arange(0, B_d), with size-1 axes elsewhere.
  const indices = bp.blockShape.map((extent, d) => {
    const range = ctx.b.emit({ op: "arange", start: 0, end: extent }, data("i32", [extent]), span);
    const index = ctx.values.binary("add", bp.offsets[d], range, span)!;
    const shape = bp.blockShape.map((e, i) => (i === d ? e : 1));
    return rank === 1 ? index : ctx.b.emit({ op: "reshape", value: index }, data("i32", shape), span);
  });
  let offset: Value | undefined;
  indices.forEach((index, d) => {
    const term = ctx.values.binary("mul", index, bp.strides[d], span);
    offset = offset && term ? ctx.values.binary("add", offset, term, span) : term;
  });
  const pointers = offset && ctx.values.binary("add", bp.base, offset, span);
  if (!pointers) return undefined;
  let mask: Value | undefined;
  for (const d of checked) {
    // 0 <= index < shape as one unsigned comparison: a negative index wraps past any shape (one
    // compare an element instead of two and an and; a negative shape counts as 0).
    const zero = ctx.b.constant(0, "i32", span);
    const extent = ctx.b.emit({ op: "math", fn: "maximum", args: [bp.shape[d], zero] }, data("i32", bp.shape[d].type.shape), span);
    const inside = ctx.values.binary("lt", ctx.values.cast(indices[d], "u32", span), ctx.values.cast(extent, "u32", span), span);
    mask = mask && inside ? ctx.values.binary("land", mask, inside, span) : inside;
  }
  return { pointers: ctx.values.toShape(pointers, blockShape, span)!, ...(mask ? { mask: ctx.values.toShape(mask, blockShape, span) } : {}) };
}

/**
 * A constexpr choice of axes, `boundary_check=(1,) if BOUNDS_CHECKS_N else ()` (xformers' splitk
 * kernel), is the side its compile-time condition picks, as Triton evaluates it while compiling.
 */
function pickedAxes(ctx: IntrinsicContext, node: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  if (!ts.isConditionalExpression(node)) return node;
  const cond = ctx.expression(node.condition);
  return cond && isConst(cond) ? pickedAxes(ctx, cond.value !== 0 ? node.whenTrue : node.whenFalse) : node;
}

/** `boundaryCheck`: the axes to check, an array literal (or a tuple) of compile-time integers. */
function axesArg(ctx: IntrinsicContext, node: ts.Expression, rank: number, what: string): number[] | undefined {
  node = pickedAxes(ctx, node);
  // A name bound to a tuple of constants: lmdeploy's `_load_kv(ptrs, boundary_check: tl.constexpr)` given `(1, )`.
  const tuple = ts.isArrayLiteralExpression(node) ? undefined : constTuple(ctx, node);
  if (tuple) return axesInRank(ctx, tuple, node, rank, what);
  const elements = ts.isArrayLiteralExpression(node) ? [...node.elements] : [node];
  const axes: number[] = [];
  for (const e of elements) {
    const axis = constInt(ctx, e, `${what}'s boundaryCheck`);
    if (axis === undefined) return undefined;
    if (axis < 0 || axis >= rank) {
      ctx.log.error(Codes.badAxis, ctx.span(e), `${what}'s boundaryCheck names axes of the block pointer, 0 to ${rank - 1}; got ${axis}`);
      return undefined;
    }
    if (!axes.includes(axis)) axes.push(axis);
  }
  return axes;
}

/** A tuple's axes, each within the block pointer's rank (the error at the name that holds them). */
function axesInRank(ctx: IntrinsicContext, tuple: number[], node: ts.Expression, rank: number, what: string): number[] | undefined {
  const outside = tuple.find((axis) => axis < 0 || axis >= rank);
  if (outside !== undefined) {
    ctx.log.error(Codes.badAxis, ctx.span(node), `${what}'s boundaryCheck names axes of the block pointer, 0 to ${rank - 1}; got ${outside}`);
    return undefined;
  }
  return [...new Set(tuple)];
}

/** tl.load's paddingOption: what out-of-bounds elements read — 0 ("" or "zero") or NaN ("nan"). */
export function paddingArg(ctx: IntrinsicContext, node: ts.Expression | undefined): "zero" | "nan" | undefined {
  if (!node) return "zero";
  if (ts.isStringLiteralLike(node) && ["", "zero", "nan"].includes(node.text)) return node.text === "nan" ? "nan" : "zero";
  ctx.log.error(Codes.intrinsicArgs, ctx.span(node), 'tl.load\'s paddingOption is "zero" or "nan" (a string literal)');
  return undefined;
}

export type { Args };

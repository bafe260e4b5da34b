// Issue 23's tl.* functions that make, combine and reorder blocks (Triton's creation, shape
// manipulation, indexing and sort ops): tl.zerosLike, tl.broadcast, tl.ravel, tl.view, tl.cat,
// tl.join, tl.split, tl.interleave, tl.flip, tl.gather, tl.histogram (tl.sort and tl.topk: intrinsics-sorting.ts); and tl.softmax and
// tl.swizzle2d, which are compositions of other ops (as Triton's standard library writes them).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { Shape, Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, MAX_RANK, arity, blockAxisArg, checkBlockSize, constInt, requireData, shapeArgs, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { isInt, isPowerOfTwo, promote, sameShape, shapeToString } from "./rules";
import { dtypeOf, operandOf } from "./values";
import { isAggregate } from "./aggregates";
import { joinFeedsReshape, splitOfWideReshape } from "./wide-reshapes";

/** An axis argument (negative counts from the end) of a block of `rank` axes, `fallback` when left out. */
export function axisOf(ctx: IntrinsicContext, node: ts.Expression | undefined, rank: number, what: string, fallback: number): number | undefined {
  return node ? blockAxisArg(ctx, node, rank, what) : fallback;
}

/** A block (not a scalar, not pointers) for `what`, or undefined after a diagnostic. */
export function block(ctx: IntrinsicContext, node: ts.Expression | undefined, what: string, masks = true): Value | undefined {
  const x = ctx.expression(node);
  if (!x) return undefined;
  if (!masks && x.type.kind === "data" && x.type.dtype === "bool") {
    requireData(ctx, x, what);
    return undefined;
  }
  return checkedBlock(ctx, x, what);
}

/** `block`'s checks of a value already lowered. */
function checkedBlock(ctx: IntrinsicContext, x: Value, what: string): Value | undefined {
  if (x.type.kind === "pointer") {
    requireData(ctx, x, what);
    return undefined;
  }
  if (x.type.shape.length === 0) {
    ctx.log.error(Codes.shapeMismatch, x.span, `${what} works on blocks, but this is a scalar ${typeToString(x.type)}`);
    return undefined;
  }
  return x;
}

function reshaped(ctx: IntrinsicContext, x: Value, shape: Shape, span: Span): Value {
  return sameShape(x.type.shape, shape) ? x : ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape }, span);
}

/** a and b stretched to their common shape (Triton's tl.broadcast), or undefined after a diagnostic. */
function common(ctx: IntrinsicContext, a: Value, b: Value, span: Span, what: string): [Value, Value] | undefined {
  if (a.type.kind === "pointer" || b.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, span, `${what} takes values, not pointers`);
    return undefined;
  }
  const shape = ctx.values.commonShape(a, b, span, what);
  const ca = shape && ctx.values.toShape(a, shape, a.span);
  const cb = shape && ctx.values.toShape(b, shape, b.span);
  return ca && cb ? [ca, cb] : undefined;
}

/** Two values of one dtype (promoted as operators do; masks stay masks) and shape, to be set side by side. */
function sameTyped(ctx: IntrinsicContext, a: Value, b: Value, span: Span, what: string): [Value, Value] | undefined {
  const both = common(ctx, a, b, span, what);
  if (!both) return undefined;
  const [x, y] = both;
  if (dtypeOf(x) === dtypeOf(y)) return both;
  if (dtypeOf(x) === "bool" || dtypeOf(y) === "bool") {
    ctx.log.error(Codes.operandDtype, span, `${what} joins two masks or two numbers, got ${typeToString(x.type)} and ${typeToString(y.type)}`);
    return undefined;
  }
  // The dtype `x + y` would have.
  const dtype = promote(operandOf(x), operandOf(y));
  return [ctx.values.cast(x, dtype, x.span), ctx.values.cast(y, dtype, y.span)];
}

/** tl.join / tl.interleave's two operands; one name written twice (`tl.interleave(x, x)`) is read once, so join sees one value. */
function bothOperands(ctx: IntrinsicContext, args: Args): [Value | undefined, Value | undefined] {
  const a = ctx.expression(args[0]);
  const same = args[0] && args[1] && ts.isIdentifier(args[0]) && ts.isIdentifier(args[1]) && args[0].text === args[1].text;
  return [a, same ? a : ctx.expression(args[1])];
}

function concat(ctx: IntrinsicContext, a: Value, b: Value, axis: number, span: Span): Value | undefined {
  const shape = a.type.shape.map((d, i) => (i === axis ? d + b.type.shape[i] : d));
  if (!isPowerOfTwo(shape[axis])) {
    ctx.log.error(Codes.notPowerOfTwo, span, `the result would be ${shapeToString(shape)}, and block extents are powers of two; concatenate blocks of equal extents`);
    return undefined;
  }
  if (!checkBlockSize(ctx, shape, span)) return undefined;
  return ctx.b.emit({ op: "concat", values: [a, b], axis }, { ...a.type, shape }, span);
}

/**
 * tl.join(a, b): [...shape, 2], a at 0 and b at 1 of the new last axis. `flattenWide` (the join is
 * tl.reshape's input): blocks of MAX_RANK axes join as [numel, 2], the same elements in the same order.
 */
function join(ctx: IntrinsicContext, a: Value, b: Value, span: Span, name: string, flattenWide = false): Value | undefined {
  const pair = sameTyped(ctx, a, b, span, `tl.${name}`);
  if (!pair) return undefined;
  const shape = pair[0].type.shape;
  if (shape.length >= MAX_RANK && flattenWide) {
    const [x, y] = pair.map((v) => reshaped(ctx, v, [numel(shape), 1], span));
    return concat(ctx, x, y, 1, span);
  }
  if (shape.length >= MAX_RANK) {
    ctx.log.error(Codes.badAxis, span, `tl.${name} adds an axis, and blocks have at most ${MAX_RANK}; ${shapeToString(shape)} can't gain another`);
    return undefined;
  }
  // A block joined with itself (AutoAWQ's `iweights = tl.interleave(iweights, iweights)`, each element twice) is one
  // operand twice: codegen stages it once (selection.ts emitConcat).
  const x = reshaped(ctx, pair[0], [...shape, 1], span);
  const y = pair[1] === pair[0] ? x : reshaped(ctx, pair[1], [...shape, 1], span);
  return concat(ctx, x, y, shape.length, span);
}

export const SHAPE_INTRINSICS: Record<string, Intrinsic> = {
  zerosLike: {
    params: ["input"],
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(input)")) return undefined;
      const x = ctx.expression(args[0]);
      if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
      return ctx.values.toShape(ctx.b.constant(0, dtypeOf(x), span), x.type.shape, span);
    },
  },

  broadcast: {
    params: ["input", "other"],
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(input, other)")) return undefined;
      const [a, b] = [ctx.expression(args[0]), ctx.expression(args[1])];
      const both = a && b && common(ctx, a, b, span, `tl.${name}`);
      return both ? { kind: "tuple", elements: both, span } : undefined;
    },
  },

  ravel: {
    params: ["x", "canReorder"],
    ignored: ["canReorder"],
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(x)")) return undefined;
      const x = ctx.expression(args[0]);
      return x && reshaped(ctx, x, [numel(x.type.shape)], span);
    },
  },

  view: {
    params: ["input", "...shape"],
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 1 + MAX_RANK, "(x, shape)")) return undefined;
      const x = ctx.expression(args[0]);
      const shape = shapeArgs(ctx, args.slice(1), span);
      if (!x || !shape) return undefined;
      if (numel(shape) !== numel(x.type.shape)) {
        ctx.log.error(Codes.reshapeSize, span, `can't view ${typeToString(x.type)} (${numel(x.type.shape)} elements) as ${shapeToString(shape)} (${numel(shape)} elements)`);
        return undefined;
      }
      // Triton may reorder the elements; here they keep their order (a reshape).
      return reshaped(ctx, x, shape, span);
    },
  },

  cat: {
    params: ["input", "other", "canReorder", "dim"],
    // The elements stay in order, which every reordering Triton allows includes.
    ignored: ["canReorder"],
    produces: ["concat", "cast", "splat", "reshape", "broadcast"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 4, "(input, other, canReorder?, dim?)")) return undefined;
      const a = block(ctx, args[0], `tl.${name}`);
      const b = block(ctx, args[1], `tl.${name}`);
      if (!a || !b) return undefined;
      const rank = a.type.shape.length;
      const axis = axisOf(ctx, args[3], rank, `tl.${name}'s dim`, 0);
      if (axis === undefined) return undefined;
      const fits = b.type.shape.length === rank && a.type.shape.every((d, i) => i === axis || d === b.type.shape[i]);
      if (!fits || (dtypeOf(a) === "bool") !== (dtypeOf(b) === "bool")) {
        ctx.log.error(Codes.shapeMismatch, span, `tl.${name} concatenates blocks of one kind that match except along axis ${axis}; got ${typeToString(a.type)} and ${typeToString(b.type)}`);
        return undefined;
      }
      const [x, y] = dtypeOf(a) === dtypeOf(b) ? [a, b] : (sameTyped(ctx, a, b, span, `tl.${name}`) ?? []);
      return x && y && concat(ctx, x, y, axis, span);
    },
  },

  join: {
    params: ["a", "b"],
    produces: ["concat", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(a, b)")) return undefined;
      const [a, b] = bothOperands(ctx, args);
      return a && b && join(ctx, a, b, span, name, joinFeedsReshape(ctx, args[0]));
    },
  },

  interleave: {
    params: ["a", "b"],
    produces: ["concat", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(a, b)")) return undefined;
      const [a, b] = bothOperands(ctx, args);
      const joined = a && b && join(ctx, a, b, span, name);
      if (!joined) return undefined;
      // [..., n, 2] → [..., 2n]: a0 b0 a1 b1 … along the last axis (two scalars: [a, b]).
      const shape = joined.type.shape;
      if (shape.length === 1) return joined;
      return reshaped(ctx, joined, [...shape.slice(0, -2), 2 * shape[shape.length - 2]], span);
    },
  },

  split: {
    params: ["a"],
    produces: ["slice", "reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(a)")) return undefined;
      const wide = splitOfWideReshape(ctx, args[0], span);
      if (wide !== "none") return wide;
      // A name holding a reshape to four axes (`x = tl.reshape(x, (M, C, 2, 2))`): its halves.
      const held = args[0] && (ts.isIdentifier(args[0]) || ts.isPropertyAccessExpression(args[0])) ? ctx.lowered(args[0]) : undefined;
      if (held && isAggregate(held) && held.kind === "tuple" && held.wide) return { kind: "tuple", elements: held.elements, span };
      const a = held && !isAggregate(held) ? checkedBlock(ctx, held, `tl.${name}`) : block(ctx, args[0], `tl.${name}`);
      if (!a) return undefined;
      const shape = a.type.shape;
      const axis = shape.length - 1;
      if (shape[axis] !== 2) {
        ctx.log.error(Codes.shapeMismatch, a.span, `tl.${name} splits a block whose last axis has 2 elements (as tl.join makes), got ${typeToString(a.type)}`);
        return undefined;
      }
      const half = (start: number) => {
        const piece = ctx.b.emit({ op: "slice", value: a, axis, start }, { ...a.type, shape: [...shape.slice(0, -1), 1] }, span);
        return reshaped(ctx, piece, shape.slice(0, -1), span);
      };
      return { kind: "tuple", elements: [half(0), half(1)], span };
    },
  },

  flip: {
    params: ["x", "dim"],
    produces: ["flip"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, "(x, dim?)")) return undefined;
      const x = block(ctx, args[0], `tl.${name}`);
      if (!x) return undefined;
      const axis = axisOf(ctx, args[1], x.type.shape.length, `tl.${name}'s dim`, x.type.shape.length - 1);
      if (axis === undefined) return undefined;
      return x.type.shape[axis] === 1 ? { ...x, span } : ctx.b.emit({ op: "flip", value: x, axis }, x.type, span);
    },
  },

  gather: {
    params: ["src", "index", "axis"],
    produces: ["gather"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 3, "(src, index, axis)")) return undefined;
      const src = block(ctx, args[0], `tl.${name}`);
      const index = block(ctx, args[1], `tl.${name}'s index`, false);
      if (!src || !index) return undefined;
      const axis = axisOf(ctx, args[2], src.type.shape.length, `tl.${name}'s axis`, 0);
      if (axis === undefined) return undefined;
      if (!isInt(dtypeOf(index))) {
        ctx.log.error(Codes.operandDtype, index.span, `tl.${name}'s index must be integers, got ${typeToString(index.type)}`);
        return undefined;
      }
      const [ss, si] = [src.type.shape, index.type.shape];
      if (si.length !== ss.length || ss.some((d, i) => i !== axis && d !== si[i])) {
        ctx.log.error(Codes.shapeMismatch, span, `tl.${name}'s index must have src's shape except along axis ${axis}: src is ${shapeToString(ss)}, index ${shapeToString(si)}`);
        return undefined;
      }
      return ctx.b.emit({ op: "gather", value: src, index, axis }, { ...src.type, shape: si }, span);
    },
  },

  histogram: {
    params: ["input", "numBins", "mask"],
    produces: ["histogram", "splat", "reshape", "broadcast"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 3, "(input, numBins, mask?)")) return undefined;
      const x = block(ctx, args[0], `tl.${name}`, false);
      const bins = constInt(ctx, args[1], `tl.${name}'s numBins`);
      const rawMask = ctx.expression(args[2]);
      if (!x || bins === undefined || (args[2] && !rawMask)) return undefined;
      if (!isInt(dtypeOf(x))) {
        ctx.log.error(Codes.operandDtype, x.span, `tl.${name} counts integers (bins of width 1 from 0), got ${typeToString(x.type)}; convert with tl.cast(x, "i32")`);
        return undefined;
      }
      if (!isPowerOfTwo(bins)) {
        ctx.log.error(Codes.notPowerOfTwo, ctx.span(args[1]!), `tl.${name}'s result is a block of numBins elements, so numBins must be a power of two; got ${bins}`);
        return undefined;
      }
      let mask = rawMask;
      if (mask) {
        if (mask.type.kind === "pointer" || mask.type.dtype !== "bool") {
          ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
          return undefined;
        }
        mask = ctx.values.toShape(mask, x.type.shape, mask.span);
        if (!mask) return undefined;
      }
      return ctx.b.emit({ op: "histogram", value: x, bins, ...(mask ? { mask } : {}) }, data("i32", [bins]), span);
    },
  },

  softmax: {
    params: ["x", "dim", "keepDims", "ieeeRounding"],
    // The result has x's shape either way; the division is tl.fdiv's (see tl.divRn for IEEE rounding).
    ignored: ["keepDims", "ieeeRounding"],
    produces: ["reduce:max", "reduce:sum", "math:exp", "binary:sub", "binary:div", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, "(x, dim?)")) return undefined;
      const raw = block(ctx, args[0], `tl.${name}`, false);
      if (!raw) return undefined;
      const x = ctx.values.cast(raw, dtypeOf(raw) === "f16" ? "f16" : "f32", raw.span);
      const rank = x.type.shape.length;
      const axis = axisOf(ctx, args[1], rank, `tl.${name}'s dim`, 0);
      if (axis === undefined) return undefined;
      // Triton's standard library: z = x - max(x, dim); num = exp(z); num / sum(num, dim).
      const reduced = x.type.shape.filter((_, i) => i !== axis);
      const kept = x.type.shape.map((d, i) => (i === axis ? 1 : d));
      const along = (fn: "max" | "sum", v: Value) => {
        const r = ctx.b.emit({ op: "reduce", fn, value: v, axis }, data(dtypeOf(v), reduced), span);
        return ctx.values.toShape(reshaped(ctx, r, kept, span), v.type.shape, span);
      };
      const m = along("max", x);
      const z = m && ctx.values.binary("sub", x, m, span);
      const num = z && ctx.b.emit({ op: "math", fn: "exp", args: [z] }, z.type, span);
      const den = num && along("sum", num);
      return num && den && ctx.values.binary("div", num, den, span);
    },
  },

  swizzle2d: {
    params: ["i", "j", "sizeI", "sizeJ", "sizeG"],
    produces: ["binary:add", "binary:sub", "binary:mul", "binary:div", "binary:mod", "math:minimum", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 5, 5, "(i, j, sizeI, sizeJ, sizeG)")) return undefined;
      const values = args.map((a) => ctx.expression(a));
      if (values.some((v) => !v)) return undefined;
      const [i, j, sizeI, sizeJ, sizeG] = values as Value[];
      const bad = values.find((v) => v!.type.kind === "pointer" || !isInt(dtypeOf(v!)));
      if (bad) {
        ctx.log.error(Codes.operandDtype, bad.span, `tl.${name} takes integers (indices and sizes), got ${typeToString(bad.type)}`);
        return undefined;
      }
      // Rows in groups of sizeG (the last group may be smaller), numbered column by column in each.
      const op = (fn: "add" | "sub" | "mul" | "div" | "mod", a: Value | undefined, b: Value | undefined) => (a && b ? ctx.values.binary(fn, a, b, span) : undefined);
      const ij = op("add", op("mul", i, sizeJ), j);
      const groupCells = op("mul", sizeG, sizeJ);
      const firstRow = op("mul", op("div", ij, groupCells), sizeG);
      const diff = op("sub", sizeI, firstRow);
      const group = diff && ctx.values.coerce(sizeG, dtypeOf(diff), diff.type.shape, span);
      const rows = diff && group && ctx.b.emit({ op: "math", fn: "minimum", args: [diff, group] }, diff.type, span);
      const inGroup = op("mod", ij, groupCells);
      const newI = op("add", firstRow, op("mod", inGroup, rows));
      const newJ = op("div", inGroup, rows);
      return newI && newJ ? { kind: "tuple", elements: [newI, newJ], span } : undefined;
    },
  },
};

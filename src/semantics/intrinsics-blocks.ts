// tl.* functions that make blocks and change their shape, and the program's place in the grid.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import { numel, typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, MAX_RANK, arity, gridAxisArg, checkBlockSize, constInt, dtypeArg, nextPowerOfTwo, requireData, shapeArg, shapeArgs, type Intrinsic } from "./intrinsic-args";
import { isFloat, isPowerOfTwo, shapeToString } from "./rules";
import { dtypeOf, isConst } from "./values";
import type { NumDtype, Value } from "../ir/ir";
import { fitsIn32 } from "../ir/int64";
import type { Span } from "../diagnostics/diagnostic";
import type { Args, IntrinsicContext } from "./intrinsic-args";
import { arangeFixes } from "./arange-fix";
import { wideReshape } from "./wide-reshapes";

export const BLOCK_INTRINSICS: Record<string, Intrinsic> = {
  programId: {
    params: ["axis"],
    produces: ["programId"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
      const axis = gridAxisArg(ctx, args[0], name);
      return axis === undefined ? undefined : ctx.b.emit({ op: "programId", axis }, data("i32", []), span);
    },
  },

  numPrograms: {
    params: ["axis"],
    produces: ["numPrograms"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
      const axis = gridAxisArg(ctx, args[0], name);
      return axis === undefined ? undefined : ctx.b.emit({ op: "numPrograms", axis }, data("i32", []), span);
    },
  },

  arange: {
    params: ["start", "end"],
    produces: ["arange"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(start, end) with compile-time bounds")) return undefined;
      const start = constInt(ctx, args[0], "tl.arange's start");
      const end = constInt(ctx, args[1], "tl.arange's end");
      if (start === undefined || end === undefined) return undefined;
      const n = end - start;
      if (!isPowerOfTwo(n)) {
        const wide = nextPowerOfTwo(Math.max(n, 1));
        const call = args[0]?.parent;
        const fixes = n > 0 && call && ts.isCallExpression(call) ? arangeFixes(ctx, call, start, end, wide) : undefined;
        ctx.log.error(Codes.notPowerOfTwo, span, `tl.arange(${start}, ${end}) has ${n} elements; block sizes must be powers of two — use ${wide} and mask the tail`, undefined, fixes);
        return undefined;
      }
      if (!checkBlockSize(ctx, [n], span)) return undefined;
      return ctx.b.emit({ op: "arange", start, end }, data("i32", [n]), span);
    },
  },

  zeros: {
    params: ["shape", "dtype"],
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, '(shape, dtype?) e.g. tl.zeros([BLOCK], "f32")')) return undefined;
      const shape = shapeArg(ctx, args[0]!);
      // tl.int1 gives a mask block, all false (Triton's i1 block; FlagGems fills one to fold `and` into).
      const dtype = dtypeArg(ctx, args[1], "f32", { mask: true, bytes: true });
      if (!shape || !dtype) return undefined;
      // tl.int8 / tl.uint8 (`tl.zeros(…, dtype=q.dtype)` of loaded bytes): 8-bit zeros held as i32, as tl.full's.
      if (dtype === "i8" || dtype === "u8") {
        const zeros = ctx.values.toShape(ctx.b.constant(0, "i32", span), shape, span);
        return zeros && ctx.values.markByte(zeros, dtype);
      }
      return ctx.values.toShape(ctx.b.constant(0, dtype, span), shape, span);
    },
  },

  full: {
    params: ["shape", "value", "dtype"],
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 3, '(shape, value, dtype?) e.g. tl.full([BLOCK], 1.0, "f32")')) return undefined;
      const shape = shapeArg(ctx, args[0]!);
      const value = ctx.expression(args[1]);
      if (!shape || !value) return undefined;
      // True or False filled into a mask block (tl.int1): TorchInductor's `xmask = tl.full([XBLOCK], True, tl.int1)`.
      if (value.type.kind !== "pointer" && value.type.dtype === "bool" && value.type.shape.length === 0 && args[2] !== undefined) {
        if (dtypeArg(ctx, args[2], "f32", { mask: true, bytes: true }) === "bool") return ctx.values.toShape(value, shape, span);
      }
      if (!requireData(ctx, value, "tl.full's value")) return undefined;
      if (value.type.shape.length > 0) {
        ctx.log.error(Codes.shapeMismatch, value.span, `tl.full's value must be a scalar, got ${typeToString(value.type)}`);
        return undefined;
      }
      const dtype = dtypeArg(ctx, args[2], isFloat(dtypeOf(value)) ? (dtypeOf(value) as NumDtype) : isConst(value) ? "i32" : (dtypeOf(value) as NumDtype), { mask: true, bytes: true });
      if (!dtype) return undefined;
      // tl.int8 / tl.uint8: a block of 8-bit values held as i32, as a load of one is (tritonbench's int4 matmul:
      // `_4_i8 = tl.full((1,), 4, dtype=tl.int8)`, then `(b << _4_i8) >> _4_i8` on the loaded int8 weights).
      if (dtype === "i8" || dtype === "u8") {
        const v = ctx.values.cast(value, "i32", span);
        const wrapped = isConst(v) ? ctx.b.constant(dtype === "u8" ? v.value & 0xff : ((v.value & 0xff) << 24) >> 24, "i32", span) : ctx.values.wrapByte(v, dtype, span);
        const filled = wrapped && ctx.values.toShape(wrapped, shape, span);
        return filled && ctx.values.markByte(filled, dtype);
      }
      // tl.int1: a mask block holding the value's truth (`value != 0`, as Triton's cast to i1).
      if (dtype === "bool") {
        const truth = ctx.values.nonzero(value, span);
        return truth && ctx.values.toShape(truth, shape, span);
      }
      if (dtype === "i64" && isConst(value) && !fitsIn32(value.value)) {
        ctx.log.error(Codes.int64Constant, value.span, `${value.value} is outside 32 bits: Kernel Lab computes int64 in 32 bits (WGSL has none wider); fill with a value in [-2^31, 2^31)`);
        return undefined;
      }
      return ctx.values.coerce(value, dtype, shape, span);
    },
  },

  expandDims: {
    params: ["input", "axis"],
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(x, axis)")) return undefined;
      const x = ctx.expression(args[0]);
      // Triton's axis may be a tuple (`x[None, :, None]` is tl.expandDims(x, [0, 2])). As its core.expand_dims, every
      // axis is one of the result's (rank + the number of axes), negative counting from its end; none twice.
      const tuple = ts.isArrayLiteralExpression(args[1]!);
      const axisNodes = tuple ? [...(args[1] as ts.ArrayLiteralExpression).elements] : [args[1]!];
      const axes = axisNodes.map((node) => constInt(ctx, node, "tl.expandDims's axis"));
      if (!x || axes.some((a) => a === undefined)) return undefined;
      const rank = x.type.shape.length;
      const resultRank = rank + axes.length;
      if (resultRank > MAX_RANK) {
        ctx.log.error(Codes.badAxis, ctx.span(args[1]!), `blocks have at most ${MAX_RANK} axes; ${typeToString(x.type)} can't gain ${axes.length > 1 ? `${axes.length} more` : "another"}`);
        return undefined;
      }
      // A scalar indexed `s[:, None]` (a tuple of one here: python/expressions.ts writes indexing so) gains its one axis
      // whatever the index says, as Triton's semantic.expand_dims splats a scalar to [1] (sglang's `xai_temperature_reg[:, None]`);
      // tl.expand_dims(s, 1) and tl.expand_dims(s, (1,)) (python/calls.ts writes it tl.expandDims(s, 1)) are Triton's
      // "invalid axis 1". An index with more Nones is checked as any tuple: Triton's indexing adds them one by one, which
      // on a scalar works only for the axes 0, 1, … in turn, the ones the check allows.
      const lenient = tuple && rank === 0 && axes.length === 1;
      const normalized: number[] = [];
      for (const [k, raw] of (axes as number[]).entries()) {
        const axis = lenient && raw >= 0 ? Math.min(raw, resultRank - 1) : raw < 0 ? raw + resultRank : raw;
        if (axis < 0 || axis >= resultRank) {
          ctx.log.error(Codes.badAxis, ctx.span(axisNodes[k]), `axis ${raw} is out of range: tl.expandDims of ${rank === 0 ? "a scalar" : `a block of ${rank} ax${rank === 1 ? "is" : "es"}`} gives ${resultRank} ax${resultRank === 1 ? "is" : "es"} (use ${-resultRank}..${resultRank - 1})`);
          return undefined;
        }
        const twice = normalized.indexOf(axis);
        if (twice >= 0) {
          ctx.log.error(Codes.badAxis, ctx.span(axisNodes[k]), `the result's axis ${axis} is named twice (${(axes as number[])[twice]} and ${raw}): tl.expandDims adds each new axis once (Triton: "expand_dims received duplicate axes")`);
          return undefined;
        }
        normalized.push(axis);
      }
      let shape = [...x.type.shape];
      for (const axis of [...normalized].sort((p, q) => p - q)) shape = [...shape.slice(0, axis), 1, ...shape.slice(axis)];
      return ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape }, span);
    },
  },

  broadcastTo: {
    params: ["input", "...shape"],
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 1 + MAX_RANK, "(x, shape)")) return undefined;
      const x = ctx.expression(args[0]);
      const shape = shapeArgs(ctx, args.slice(1), span);
      if (!x || !shape) return undefined;
      return ctx.values.toShape(x, shape, span);
    },
  },

  reshape: {
    params: ["input", "...shape", "canReorder"],
    ignored: ["canReorder"],
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      // To one axis more than a block holds, the last of 2: the halves, for a tl.split later (wide-reshapes.ts).
      if (args.every((a) => a !== undefined)) {
        const wide = wideReshape(ctx, args as ts.Expression[], span, span);
        if (wide !== "none") return wide;
      }
      if (!arity(ctx, args, span, name, 2, 1 + MAX_RANK, "(x, shape)")) return undefined;
      const x = ctx.expression(args[0]);
      const shape = shapeArgs(ctx, args.slice(1), span);
      if (!x || !shape) return undefined;
      if (numel(shape) !== numel(x.type.shape)) {
        ctx.log.error(Codes.reshapeSize, span, `can't reshape ${typeToString(x.type)} (${numel(x.type.shape)} elements) to ${shapeToString(shape)} (${numel(shape)} elements)`);
        return undefined;
      }
      return ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape }, span);
    },
  },

  trans: {
    params: ["input", "...dims"],
    produces: ["trans", "permute"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1 + MAX_RANK, "(x, ...dims)")) return undefined;
      const x = ctx.expression(args[0]);
      if (!x) return undefined;
      const rank = x.type.shape.length;
      if (rank < 2) {
        ctx.log.error(Codes.shapeMismatch, x.span, `tl.trans needs a block of 2 or 3 axes, got ${typeToString(x.type)}`);
        return undefined;
      }
      // No dims: the last two axes swap (Triton's (1, 0) on a 2-D block).
      const dims = args.length > 1 ? permutationArgs(ctx, args.slice(1), rank, span, name) : [...Array(rank - 2).keys(), rank - 1, rank - 2];
      return dims && permuted(ctx, x, dims, span);
    },
  },

  permute: {
    params: ["input", "...dims"],
    produces: ["trans", "permute"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 1 + MAX_RANK, "(x, ...dims), e.g. tl.permute(x, [2, 0, 1])")) return undefined;
      const x = ctx.expression(args[0]);
      if (!x) return undefined;
      const dims = permutationArgs(ctx, args.slice(1), x.type.shape.length, span, name);
      return dims && permuted(ctx, x, dims, span);
    },
  },
};

/** The axes of a permutation: an array literal or one argument each, every axis of a block of `rank` once. */
function permutationArgs(ctx: IntrinsicContext, nodes: Args, rank: number, span: Span, name: string): number[] | undefined {
  const first = nodes[0];
  const elements = nodes.length === 1 && first && ts.isArrayLiteralExpression(first) ? [...first.elements] : (nodes as ts.Expression[]);
  const dims = elements.map((node) => constInt(ctx, node, `tl.${name}'s dims`));
  if (dims.some((d) => d === undefined)) return undefined;
  const sorted = [...(dims as number[])].sort((a, b) => a - b);
  if (sorted.length !== rank || sorted.some((d, i) => d !== i)) {
    ctx.log.error(Codes.badAxis, span, `tl.${name}'s dims must name each axis of the block once, ${[...Array(rank).keys()].join(", ")} in some order; got ${(dims as number[]).join(", ")}`);
    return undefined;
  }
  return dims as number[];
}

/** `x` with its axes reordered: the 2-D swap is the `trans` op (so matrix code is as before), any other order `permute`. */
export function permuted(ctx: IntrinsicContext, x: Value, dims: readonly number[], span: Span): Value {
  const shape = dims.map((d) => x.type.shape[d]);
  if (dims.every((d, i) => d === i)) return { ...x, span };
  if (dims.length === 2) return ctx.b.emit({ op: "trans", value: x }, { ...x.type, shape }, span);
  return ctx.b.emit({ op: "permute", value: x, dims }, { ...x.type, shape }, span);
}

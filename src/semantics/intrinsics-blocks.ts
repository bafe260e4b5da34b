// tl.* functions that make blocks and change their shape, and the program's place in the grid.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import { numel, typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, arity, axisArg, checkBlockSize, constInt, dtypeArg, nextPowerOfTwo, requireData, shapeArg, type Intrinsic } from "./intrinsic-args";
import { isFloat, isPowerOfTwo, shapeToString } from "./rules";
import { dtypeOf, isConst } from "./values";
import { arangeFixes } from "./arange-fix";
import type { NumDtype } from "../ir/ir";

export const BLOCK_INTRINSICS: Record<string, Intrinsic> = {
  programId: {
    produces: ["programId"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
      const axis = axisArg(ctx, args[0], name);
      return axis === undefined ? undefined : ctx.b.emit({ op: "programId", axis }, data("i32", []), span);
    },
  },

  numPrograms: {
    produces: ["numPrograms"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
      const axis = axisArg(ctx, args[0], name);
      return axis === undefined ? undefined : ctx.b.emit({ op: "numPrograms", axis }, data("i32", []), span);
    },
  },

  arange: {
    produces: ["arange"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(start, end) with compile-time bounds")) return undefined;
      const start = constInt(ctx, args[0], "tl.arange's start");
      const end = constInt(ctx, args[1], "tl.arange's end");
      if (start === undefined || end === undefined) return undefined;
      const n = end - start;
      if (!isPowerOfTwo(n)) {
        const wide = nextPowerOfTwo(Math.max(n, 1));
        const fixes = n > 0 && ts.isCallExpression(args[0].parent) ? arangeFixes(ctx, args[0].parent, start, end, wide) : undefined;
        ctx.log.error(Codes.notPowerOfTwo, span, `tl.arange(${start}, ${end}) has ${n} elements; block sizes must be powers of two — use ${wide} and mask the tail`, undefined, fixes);
        return undefined;
      }
      if (!checkBlockSize(ctx, [n], span)) return undefined;
      return ctx.b.emit({ op: "arange", start, end }, data("i32", [n]), span);
    },
  },

  zeros: {
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, '(shape, dtype?) e.g. tl.zeros([BLOCK], "f32")')) return undefined;
      const shape = shapeArg(ctx, args[0]);
      const dtype = dtypeArg(ctx, args[1], "f32");
      if (!shape || !dtype) return undefined;
      return ctx.values.toShape(ctx.b.constant(0, dtype, span), shape, span);
    },
  },

  full: {
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 3, '(shape, value, dtype?) e.g. tl.full([BLOCK], 1.0, "f32")')) return undefined;
      const shape = shapeArg(ctx, args[0]);
      const value = ctx.expression(args[1]);
      if (!shape || !value || !requireData(ctx, value, "tl.full's value")) return undefined;
      if (value.type.shape.length > 0) {
        ctx.log.error(Codes.shapeMismatch, value.span, `tl.full's value must be a scalar, got ${typeToString(value.type)}`);
        return undefined;
      }
      const dtype = dtypeArg(ctx, args[2], isFloat(dtypeOf(value)) ? (dtypeOf(value) as NumDtype) : isConst(value) ? "i32" : (dtypeOf(value) as NumDtype));
      if (!dtype) return undefined;
      return ctx.values.coerce(value, dtype, shape, span);
    },
  },

  expandDims: {
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(x, axis)")) return undefined;
      const x = ctx.expression(args[0]);
      const axisRaw = constInt(ctx, args[1], "tl.expandDims's axis");
      if (!x || axisRaw === undefined) return undefined;
      const rank = x.type.shape.length;
      const axis = axisRaw < 0 ? axisRaw + rank + 1 : axisRaw;
      if (axis < 0 || axis > rank || rank >= 2) {
        ctx.log.error(Codes.badAxis, ctx.span(args[1]), rank >= 2 ? `blocks have at most two axes; ${typeToString(x.type)} can't gain another` : `axis ${axisRaw} is out of range for ${typeToString(x.type)} (use 0..${rank})`);
        return undefined;
      }
      const shape = [...x.type.shape.slice(0, axis), 1, ...x.type.shape.slice(axis)];
      return ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape }, span);
    },
  },

  broadcastTo: {
    produces: COERCIONS,
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(x, shape)")) return undefined;
      const x = ctx.expression(args[0]);
      const shape = shapeArg(ctx, args[1]);
      if (!x || !shape) return undefined;
      return ctx.values.toShape(x, shape, span);
    },
  },

  reshape: {
    produces: ["reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(x, shape)")) return undefined;
      const x = ctx.expression(args[0]);
      const shape = shapeArg(ctx, args[1]);
      if (!x || !shape) return undefined;
      if (numel(shape) !== numel(x.type.shape)) {
        ctx.log.error(Codes.reshapeSize, span, `can't reshape ${typeToString(x.type)} (${numel(x.type.shape)} elements) to ${shapeToString(shape)} (${numel(shape)} elements)`);
        return undefined;
      }
      return ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape }, span);
    },
  },

  trans: {
    produces: ["trans"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(x)")) return undefined;
      const x = ctx.expression(args[0]);
      if (!x) return undefined;
      if (x.type.shape.length !== 2) {
        ctx.log.error(Codes.shapeMismatch, x.span, `tl.trans needs a 2-D block, got ${typeToString(x.type)}`);
        return undefined;
      }
      const [m, n] = x.type.shape;
      return ctx.b.emit({ op: "trans", value: x }, { ...x.type, shape: [n, m] }, span);
    },
  },
};

// Scans and reductions with a combine function: tl.cumsum, tl.cumprod, tl.associativeScan
// (inclusive, along an axis, optionally from the end) and tl.reduce. Each becomes one `scan` or
// `reduceWith` op carrying its combine function as a template (combine.ts).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { Combine, Value } from "../ir/ir";
import { data } from "./builder";
import { binaryCombine, lowerCombine } from "./combine";
import { arity, blockAxisArg, dtypeArg, requireData, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { flagArg, keepingDims } from "./intrinsics-reductions";
import { dtypeOf } from "./values";

/** The block argument and its axis (default 0 for a 1-D block), or undefined after a diagnostic. */
function blockAndAxis(ctx: IntrinsicContext, args: Args, span: Span, name: string, axisRequired: boolean): { x: Value; axis: number } | undefined {
  if (args[0] && ts.isArrayLiteralExpression(args[0])) {
    // Triton's multi-operand form, e.g. FlagGems' tl.reduce((mean, count, m2), 1, welford_func).
    ctx.log.error(Codes.combineFunction, ctx.span(args[0]), `tl.${name} of a tuple of blocks (Triton's multi-operand form, e.g. Welford's (mean, count, m2) combined by one function) isn't supported: give it one block at a time`);
    return undefined;
  }
  const x = ctx.expression(args[0]);
  if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
  const rank = x.type.shape.length;
  if (rank === 0) {
    ctx.log.error(Codes.badAxis, ctx.span(args[0]!), `tl.${name} works along an axis of a block, but this is a scalar`);
    return undefined;
  }
  if (!args[1] || args[1].kind === ts.SyntaxKind.UndefinedKeyword) {
    if (rank === 1 && !axisRequired) return { x, axis: 0 };
    ctx.log.error(Codes.badAxis, span, `tl.${name} needs an axis: tl.${name}(x, ${rank === 1 ? "0" : "0 or 1"}${axisRequired ? ", (a, b) => …" : ""})`);
    return undefined;
  }
  const axis = blockAxisArg(ctx, args[1], rank, `tl.${name}'s axis`, x);
  return axis === undefined ? undefined : { x, axis };
}

/** `reverse`: the literal true or false (or a constexpr), false when absent. */
function reverseArg(ctx: IntrinsicContext, node: ts.Expression | undefined, name: string): boolean | undefined {
  return flagArg(ctx, node, `tl.${name}'s reverse`);
}

function emitScan(ctx: IntrinsicContext, x: Value, axis: number, reverse: boolean, combine: Combine, span: Span): Value {
  return ctx.b.emit({ op: "scan", value: x, axis, reverse, combine }, data(dtypeOf(x), x.type.shape), span);
}

/** tl.cumsum / tl.cumprod: (x, axis?, reverse?, dtype?) — Triton's cumsum converts to `dtype` first. */
function builtinScan(fn: "add" | "mul"): Intrinsic {
  const params = fn === "add" ? ["input", "axis", "reverse", "dtype"] : ["input", "axis", "reverse"];
  return {
    params,
    produces: ["scan", "combineArg", `binary:${fn}`, "cast"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, params.length, fn === "add" ? "(x, axis?, reverse?, dtype?)" : "(x, axis?, reverse?)")) return undefined;
      const block = blockAndAxis(ctx, args, span, name, false);
      if (!block) return undefined;
      const reverse = reverseArg(ctx, args[2], name);
      const dtype = args[3] ? dtypeArg(ctx, args[3], "f32") : dtypeOf(block.x);
      if (reverse === undefined || !dtype) return undefined;
      const x = ctx.values.cast(block.x, dtype, block.x.span);
      return emitScan(ctx, x, block.axis, reverse, binaryCombine(ctx, fn, dtypeOf(x), span), span);
    },
  };
}

export const SCAN_INTRINSICS: Record<string, Intrinsic> = {
  cumsum: builtinScan("add"),
  cumprod: builtinScan("mul"),

  associativeScan: {
    params: ["input", "axis", "combineFn", "reverse"],
    produces: ["scan", "combineArg"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 4, "(x, axis, combineFn, reverse?)")) return undefined;
      const block = blockAndAxis(ctx, args, span, name, true);
      if (!block) return undefined;
      const combine = lowerCombine(ctx, args[2]!, dtypeOf(block.x), `tl.${name}`);
      const reverse = combine && reverseArg(ctx, args[3], name);
      if (!combine || reverse === undefined) return undefined;
      return emitScan(ctx, block.x, block.axis, reverse, combine, span);
    },
  },

  reduce: {
    params: ["input", "axis", "combineFn", "keepDims"],
    produces: ["reduceWith", "combineArg", "reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 4, "(x, axis, combineFn, keepDims?)")) return undefined;
      const block = blockAndAxis(ctx, args, span, name, true);
      if (!block) return undefined;
      const { x, axis } = block;
      const combine = lowerCombine(ctx, args[2]!, dtypeOf(x), `tl.${name}`);
      const keepDims = flagArg(ctx, args[3], `tl.${name}'s keepDims`);
      if (!combine || keepDims === undefined) return undefined;
      const shape = x.type.shape.filter((_, i) => i !== axis);
      const result = ctx.b.emit({ op: "reduceWith", value: x, axis, combine }, data(dtypeOf(x), shape), span);
      return keepDims ? keepingDims(ctx, result, x.type.shape, axis, false, span) : result;
    },
  },
};

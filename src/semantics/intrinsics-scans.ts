// Scans and reductions with a combine function: tl.cumsum, tl.cumprod, tl.associativeScan
// (inclusive, along an axis, optionally from the end) and tl.reduce. Each becomes one `scan` or
// `reduceWith` op carrying its combine function as a template (combine.ts); Triton's tuple of
// blocks (multi-operand) one op per result, each naming the operands and its result's index.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { Combine, Shape, Value, ValueOp } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import { describeAggregate, isAggregate, type Lowered, type Tuple } from "./aggregates";
import { sameShape } from "./rules";
import { data } from "./builder";
import { binaryCombine, lowerCombine } from "./combine";
import { arity, blockAxisArg, dtypeArg, requireData, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { flagArg, keepingDims } from "./intrinsics-reductions";
import { dtypeOf } from "./values";

/**
 * The blocks and their axis (default 0 for 1-D blocks), or undefined after a diagnostic: one block,
 * or Triton's tuple of blocks of one shape (`tl.reduce((mean, m2, weight), 1, welford_combine)`),
 * `tuple` saying which was written (a tuple's results are a tuple, even of one block).
 */
function blocksAndAxis(ctx: IntrinsicContext, args: Args, span: Span, name: string, axisRequired: boolean, masksToo = false, everyAxis = false): { xs: Value[]; axis: number; tuple: boolean; flattened?: Shape } | undefined {
  const input = ctx.lowered(args[0]);
  if (!input) return undefined;
  const tuple = isAggregate(input) && input.kind === "tuple";
  const xs = tuple ? tupleBlocks(ctx, input, name) : [ctx.valueOf(input, args[0]!)];
  if (!xs || !xs.every((x): x is Value => x !== undefined && requireData(ctx, x, `tl.${name}`, masksToo))) return undefined;
  const x = xs[0];
  const rank = x.type.shape.length;
  if (rank === 0) {
    ctx.log.error(Codes.badAxis, ctx.span(args[0]!), `tl.${name} works along an axis of a block, but this is a scalar`);
    return undefined;
  }
  const left = args[1] && (args[1].kind === ts.SyntaxKind.UndefinedKeyword || (ts.isIdentifier(args[1]) && args[1].text === "undefined"));
  if (!args[1] || left) {
    if (rank === 1 && !axisRequired) return { xs, axis: 0, tuple };
    // tl.reduce(x, None, fn): Triton reshapes each block to one axis and reduces it (apple/ml-cross-entropy's
    // `tl.reduce(check_val < filter_eps, None, tl_and_reduce_fn)`, whether every element of a block passes).
    if (everyAxis && left) {
      const before = x.type.shape;
      const flat = xs.map((v) => (rank === 1 ? v : ctx.b.emit({ op: "reshape", value: v }, { ...v.type, shape: [numel(before)] }, v.span)));
      return { xs: flat, axis: 0, tuple, flattened: before };
    }
    ctx.log.error(Codes.badAxis, span, `tl.${name} needs an axis: tl.${name}(x, ${rank === 1 ? "0" : "0 or 1"}${axisRequired ? ", (a, b) => …" : ""})`);
    return undefined;
  }
  const axis = blockAxisArg(ctx, args[1], rank, `tl.${name}'s axis`, x);
  return axis === undefined ? undefined : { xs, axis, tuple };
}

/** The blocks of a tuple argument, each of the first's shape; undefined after a diagnostic. */
function tupleBlocks(ctx: IntrinsicContext, input: Tuple, name: string): Value[] | undefined {
  if (input.elements.length === 0) {
    ctx.log.error(Codes.combineOperands, input.span, `tl.${name} of an empty tuple: give it one block or a tuple of blocks`);
    return undefined;
  }
  const xs: Value[] = [];
  for (const e of input.elements) {
    if (isAggregate(e)) {
      ctx.log.error(Codes.combineOperands, e.span, `tl.${name}'s tuple holds ${describeAggregate(e)}; each of its elements must be a block`);
      return undefined;
    }
    if (xs.length > 0 && !sameShape(e.type.shape, xs[0].type.shape)) {
      ctx.log.error(Codes.combineOperands, e.span, `tl.${name}'s blocks must all have the first one's shape ${typeToString(xs[0].type)}; this one is ${typeToString(e.type)} (broadcast it first with tl.broadcast_to)`, [{ span: xs[0].span, message: "the first block" }]);
      return undefined;
    }
    xs.push(e);
  }
  return xs;
}

/** `reverse`: the literal true or false (or a constexpr), false when absent. */
function reverseArg(ctx: IntrinsicContext, node: ts.Expression | undefined, name: string): boolean | undefined {
  return flagArg(ctx, node, `tl.${name}'s reverse`);
}

/** One op per result of the combine function, each the same scan (or tl.reduce) picking its result. */
function emitEach(ctx: IntrinsicContext, xs: readonly Value[], shape: Shape, op: (index: number) => ValueOp, span: Span): Value[] {
  return xs.map((x, index) => ctx.b.emit(op(index), data(dtypeOf(x), shape), span));
}

function emitScan(ctx: IntrinsicContext, xs: readonly Value[], tuple: boolean, axis: number, reverse: boolean, combine: Combine, span: Span): Lowered {
  const results = emitEach(ctx, xs, xs[0].type.shape, (index) => ({ op: "scan", values: xs, index, axis, reverse, combine }), span);
  return tuple ? { kind: "tuple", elements: results, span } : results[0];
}

/** tl.cumsum / tl.cumprod: (x, axis?, reverse?, dtype?) — Triton's cumsum converts to `dtype` first, a bf16 block to f32. */
function builtinScan(fn: "add" | "mul"): Intrinsic {
  const params = fn === "add" ? ["input", "axis", "reverse", "dtype"] : ["input", "axis", "reverse"];
  return {
    params,
    produces: ["scan", "combineArg", `binary:${fn}`, "cast"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, params.length, fn === "add" ? "(x, axis?, reverse?, dtype?)" : "(x, axis?, reverse?)")) return undefined;
      const block = blocksAndAxis(ctx, args, span, name, false);
      if (!block) return undefined;
      if (block.tuple) {
        ctx.log.error(Codes.combineOperands, ctx.span(args[0]!), `tl.${name} scans one block; for a tuple of blocks write tl.associative_scan((a, b), axis, combine_fn)`);
        return undefined;
      }
      const reverse = reverseArg(ctx, args[2], name);
      // A bf16 block is scanned in f32 and gives f32, as Triton's cumsum and cumprod (`_promote_bfloat16_to_float32`;
      // test_core.py's test_scan2d stores the f32 result: summed in bf16, 51 of 256 were off).
      const own = dtypeOf(block.xs[0]);
      const dtype = args[3] ? dtypeArg(ctx, args[3], "f32", { held: true }) : own === "bf16" ? "f32" : own;
      if (reverse === undefined || !dtype) return undefined;
      const x = ctx.values.cast(block.xs[0], dtype, block.xs[0].span);
      return emitScan(ctx, [x], false, block.axis, reverse, binaryCombine(ctx, fn, dtypeOf(x), span), span);
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
      // A mask may be scanned or reduced too (FlagGems' `tl.reduce(x != 0, 0, reduce_any)`).
      const block = blocksAndAxis(ctx, args, span, name, true, true);
      if (!block) return undefined;
      const combine = lowerCombine(ctx, args[2]!, block.xs.map(dtypeOf), `tl.${name}`);
      const reverse = combine && reverseArg(ctx, args[3], name);
      if (!combine || reverse === undefined) return undefined;
      return emitScan(ctx, block.xs, block.tuple, block.axis, reverse, combine, span);
    },
  },

  reduce: {
    params: ["input", "axis", "combineFn", "keepDims"],
    produces: ["reduceWith", "combineArg", "reshape"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 4, "(x, axis, combineFn, keepDims?)")) return undefined;
      const block = blocksAndAxis(ctx, args, span, name, true, true, true);
      if (!block) return undefined;
      const { xs, axis } = block;
      const combine = lowerCombine(ctx, args[2]!, xs.map(dtypeOf), `tl.${name}`);
      const keepDims = flagArg(ctx, args[3], `tl.${name}'s keepDims`);
      if (!combine || keepDims === undefined) return undefined;
      const before = block.flattened ?? xs[0].type.shape;
      const shape = xs[0].type.shape.filter((_, i) => i !== axis);
      const results = emitEach(ctx, xs, shape, (index) => ({ op: "reduceWith", values: xs, index, axis, combine }), span).map((r) =>
        keepDims ? keepingDims(ctx, r, before, axis, !!block.flattened, span) : r,
      );
      return block.tuple ? { kind: "tuple", elements: results, span } : results[0];
    },
  },
};

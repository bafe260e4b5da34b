// Reductions along an axis and tl.dot.

import { Codes } from "../diagnostics/codes";
import type { Dtype, ReduceFn, Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { numel } from "../ir/ir";
import { arity, blockAxisArg, dtypeArg, given, requireData, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { isConst } from "./values";
import { permuted } from "./intrinsics-blocks";
import { isInt, sameShape, shapeToString } from "./rules";
import { dtypeOf } from "./values";

/** Triton's parameters of each reduction, and where keepDims and the result dtype are among them. */
const REDUCTION_PARAMS: Record<ReduceFn, readonly string[]> = {
  sum: ["input", "axis", "keepDims", "dtype"],
  max: ["input", "axis", "returnIndices", "returnIndicesTieBreakLeft", "keepDims"],
  min: ["input", "axis", "returnIndices", "returnIndicesTieBreakLeft", "keepDims"],
  argmax: ["input", "axis", "tieBreakLeft", "keepDims"],
  argmin: ["input", "axis", "tieBreakLeft", "keepDims"],
  xorSum: ["input", "axis", "keepDims"],
};

/**
 * The block and the axis a reduction works along: `axis` given (negative counts from the end), or
 * left out — then a 1-D block's only axis, and a block of more axes is flattened first (Triton's
 * axis=None reduces every axis). Undefined after a diagnostic.
 */
export function reductionOperand(ctx: IntrinsicContext, args: Args, name: string, dtype?: boolean): { x: Value; axis: number; flattened: boolean; before: Shape; mask?: boolean } | undefined {
  let x = ctx.expression(args[0]);
  // tl.sum of a mask counts its true elements: Triton sums int1 as int32 (gemlite's mxfp4 quantizer,
  // `tl.sum(tl.abs(wq[:, :, None]) > thr_pos[None, :, :], axis=2)`). tl.max / tl.min of a mask is
  // whether any / every element is true: Triton reduces int1 as an unsigned integer, to an int1
  // (SageAttention's `if tl.max(mask_block) == 0: skip = True`); reduced here as i32 0 / 1, the
  // result a mask again (reduction() casts it back). tl.xor_sum of a mask is its parity, an int1 too
  // (test_core.py's test_reduce: `tl.xor_sum(tl.cast(x, tl.int1), axis)`).
  const mask = x?.type.kind === "data" && x.type.dtype === "bool" && (name === "max" || name === "min" || name === "xorSum");
  if (x && (name === "sum" || mask) && x.type.kind === "data" && x.type.dtype === "bool") x = ctx.values.cast(x, "i32", x.span);
  if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
  const masked = <T extends object>(o: T): T & { mask?: boolean } => (mask ? { ...o, mask } : o);
  const rank = x.type.shape.length;
  if (rank === 0) {
    // `tl.max(m, blk_max)` (Liger's multi-block softmax) passes a second value where the axis goes:
    // Triton refuses it too; the larger of two values is tl.maximum.
    const pairwise = name === "max" ? "tl.maximum" : name === "min" ? "tl.minimum" : undefined;
    const hint = pairwise && args[1] ? `; for the ${name === "max" ? "larger" : "smaller"} of two values write ${pairwise}(a, b)` : "";
    ctx.log.error(Codes.badAxis, ctx.span(args[0]!), `tl.${name} reduces a block, but this is a scalar${hint}`);
    return undefined;
  }
  if (!args[1]) {
    if (rank === 1) return masked({ x, axis: 0, flattened: false, before: x.type.shape });
    if (mask || ((name === "sum" || name === "max" || name === "min") && !dtype)) {
      // Whether any / every element of a mask block is true (SageAttention's 128×64 `tl.max(mask_block)`), and the
      // sum, max or min of every element (SpargeAttn's `tl.sum(grams)` of a 128×128 tl.dot): the axes reduced one
      // by one from the last (exact for max / min; a sum in another order, as Triton's tree), so the block isn't
      // staged whole as a flat one would be (16 384 f32: KL2016 past lavapipe's 32 KiB). With `dtype=` the block
      // is cast first and flattened, as before.
      const before = x.type.shape;
      const d = dtypeOf(x);
      for (let axis = rank - 1; axis >= 1; axis--) {
        x = ctx.b.emit({ op: "reduce", fn: name as ReduceFn, value: x, axis }, data(d, x.type.shape.slice(0, axis)), x.span);
      }
      return masked({ x, axis: 0, flattened: true, before });
    }
    const flat = ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape: [numel(x.type.shape)] }, x.span);
    return masked({ x: flat, axis: 0, flattened: true, before: x.type.shape });
  }
  const axis = blockAxisArg(ctx, args[1], rank, `tl.${name}'s axis`, x);
  return axis === undefined ? undefined : masked({ x, axis, flattened: false, before: x.type.shape });
}

/** A boolean option written as the literal true or false (Triton's keep_dims, reverse…); `fallback` when left out. */
export function flagArg(ctx: IntrinsicContext, node: ts.Expression | undefined, what: string, fallback = false): boolean | undefined {
  if (!node) return fallback;
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  const v = ctx.expression(node);
  if (v && isConst(v) && v.type.kind === "data" && (v.type.dtype === "bool" || Number.isInteger(v.value))) return v.value !== 0;
  if (v) ctx.log.error(Codes.constantRequired, ctx.span(node), `${what} must be the literal true or false (or a constexpr)`);
  return undefined;
}

/** A reduction's result with `keepDims`: the reduced axis kept with extent 1 (all of them when the block was flattened). */
export function keepingDims(ctx: IntrinsicContext, result: Value, before: Shape, axis: number, flattened: boolean, span: Span): Value {
  const shape = flattened ? before.map(() => 1) : [...before.slice(0, axis), 1, ...before.slice(axis + 1)];
  return ctx.b.emit({ op: "reshape", value: result }, { ...result.type, shape }, span);
}

function reduction(fn: ReduceFn): Intrinsic {
  const params = REDUCTION_PARAMS[fn];
  const at = (param: string) => params.indexOf(param);
  return {
    params,
    produces: [`reduce:${fn}`, "reshape", ...(fn === "sum" || fn === "max" || fn === "min" ? (["cast"] as const) : []), ...(fn === "sum" ? (["reduce:xorSum", "binary:and", "binary:shl", "binary:shr"] as const) : []), ...(fn === "max" ? (["reduce:argmax"] as const) : fn === "min" ? (["reduce:argmin"] as const) : [])],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, params.length, `(x, axis?${params.slice(2).map((p) => `, ${p}?`).join("")})`)) return undefined;
      const returnIndices = at("returnIndices") >= 0 ? flagArg(ctx, args[at("returnIndices")], `tl.${name}'s returnIndices`) : false;
      if (returnIndices === undefined) return undefined;
      const operand = reductionOperand(ctx, args, name, at("dtype") >= 0 && !!args[at("dtype")]);
      if (!operand) return undefined;
      let { x } = operand;
      const { axis, flattened } = operand;
      const keepDims = flagArg(ctx, args[at("keepDims")], `tl.${name}'s keepDims`);
      if (keepDims === undefined) return undefined;
      // `dtype=`: the block converted first and summed in that dtype, as Triton's tl.sum. tl.int8 / tl.uint8 sum the
      // held i32s and wrap the total to 8 bits (the same as wrapping each partial sum); tl.int1 sums in one bit, the
      // parity (test_core.py's test_sum_dtype: 32×32 ones in int1 sum to 0, 7s in int8 to 7·1024 mod 256). Before,
      // an int8 total kept 32 bits and tl.int1 was KL1040.
      let sumIn: "i8" | "u8" | "bool" | undefined;
      if (at("dtype") >= 0 && args[at("dtype")]) {
        const dtype = dtypeArg(ctx, args[at("dtype")], "f32", { mask: true, bytes: true });
        if (!dtype) return undefined;
        if (dtype === "i8" || dtype === "u8") (sumIn = dtype), (x = ctx.values.cast(x, "i32", x.span));
        else if (dtype === "bool") (sumIn = dtype), (x = ctx.values.cast(ctx.values.cast(x, "bool", x.span), "i32", x.span));
        else x = ctx.values.cast(x, dtype, x.span);
      }
      if (at("tieBreakLeft") >= 0 || at("returnIndicesTieBreakLeft") >= 0) {
        // Ties give the first index either way (Triton's fast tie-break may pick any of them).
        const tie = args[at("tieBreakLeft")] ?? args[at("returnIndicesTieBreakLeft")];
        if (flagArg(ctx, tie, `tl.${name}'s tieBreakLeft`, true) === undefined) return undefined;
      }
      // Triton's tl.max / tl.min of 16-bit floats reduce in f32 and give f32 (standard.py: a dtype under 32 bits is
      // cast first; with return_indices only bf16 is, by _promote_bfloat16_to_float32): `x - tl.max(x, 1)[:, None]`
      // of an f16 block is then computed in f32, as Triton's. Integers under 32 bits are held in i32 already.
      const half = dtypeOf(x) === "f16" || dtypeOf(x) === "bf16";
      if ((fn === "max" || fn === "min") && !operand.mask && half && (!returnIndices || dtypeOf(x) === "bf16")) x = ctx.values.cast(x, "f32", x.span);
      const shape = x.type.shape.filter((_, i) => i !== axis);
      if (fn === "xorSum" && dtypeOf(x) !== "i32" && dtypeOf(x) !== "u32") {
        ctx.log.error(Codes.operandDtype, x.span, `tl.xorSum takes an integer block (i32 or u32), got ${typeToString(x.type)}`);
        return undefined;
      }
      const dtype: Dtype = fn === "argmax" || fn === "argmin" ? "i32" : dtypeOf(x);
      const reduce = (f: ReduceFn, d: Dtype) => {
        let result = ctx.b.emit({ op: "reduce", fn: sumIn === "bool" ? "xorSum" : f, value: x, axis }, data(d, shape), span);
        if ((operand.mask && (f === "max" || f === "min" || f === "xorSum")) || sumIn === "bool") result = ctx.values.cast(result, "bool", span);
        if (sumIn === "i8" || sumIn === "u8") result = ctx.values.wrapByte(result, sumIn, span) ?? result;
        return keepDims ? keepingDims(ctx, result, operand.before, axis, flattened, span) : result;
      };
      // Triton's `m, i = tl.max(x, 1, return_indices=True)`: the extreme and the index of its first occurrence.
      if (returnIndices) return { kind: "tuple", elements: [reduce(fn, dtype), reduce(fn === "max" ? "argmax" : "argmin", "i32")], span };
      return reduce(fn, dtype);
    },
  };
}

export const REDUCTION_INTRINSICS: Record<string, Intrinsic> = {
  sum: reduction("sum"),
  max: reduction("max"),
  min: reduction("min"),
  argmax: reduction("argmax"),
  argmin: reduction("argmin"),
  xorSum: reduction("xorSum"),

  dot: {
    // transA / transB: Triton 2.0.0.dev's keywords (flash-attention's flash_attn_triton.py,
    // `tl.dot(q, k, trans_b=True)`), the operand transposed first as tl.trans does; after acc and the rest.
    params: ["input", "other", "acc", "inputPrecision", "allowTf32", "maxNumImpreciseAcc", "outDtype", "transA", "transB"],
    // Products are exact f32 (or f16 × f16 → f32) multiply-adds: no TF32 or imprecise accumulation to choose.
    ignored: ["inputPrecision", "allowTf32", "maxNumImpreciseAcc"],
    produces: ["dot", "cast", "binary:add", "trans", "permute", "slice", "reshape", "binary:mul", "reduce:sum", "concat"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 9, "(a, b, acc?)")) return undefined;
      const values = given(ctx, args.slice(0, 3));
      if (!values) return undefined;
      const [a0, b0, acc] = values as [Value, Value, Value | undefined];
      if (![a0, b0, acc].every((v) => !v || requireData(ctx, v, "tl.dot"))) return undefined;
      const transA = flagArg(ctx, args[7], "tl.dot's transA");
      const transB = flagArg(ctx, args[8], "tl.dot's transB");
      if (transA === undefined || transB === undefined) return undefined;
      const lastTwoSwapped = (v: Value) => permuted(ctx, v, v.type.shape.length === 3 ? [0, 2, 1] : [1, 0], v.span);
      const a = transA && a0.type.shape.length >= 2 ? lastTwoSwapped(a0) : a0;
      const b = transB && b0.type.shape.length >= 2 ? lastTwoSwapped(b0) : b0;
      const outDtype = args[6] ? dtypeArg(ctx, args[6], "f32", { held: true }) : "f32";
      if (!outDtype) return undefined;
      const [fullA, fullB] = [a.type.shape, b.type.shape];
      const batched = fullA.length === 3 && fullB.length === 3;
      if (!batched && (fullA.length !== 2 || fullB.length !== 2)) {
        ctx.log.error(Codes.dotShape, span, `tl.dot multiplies 2-D blocks, or 3-D ones batch by batch; got ${typeToString(a.type)} and ${typeToString(b.type)}`);
        return undefined;
      }
      // A 3-D product ([B,M,K] × [B,K,N]) is B matrix products, one per index of the leading axis.
      const [sa, sb] = batched ? [fullA.slice(1), fullB.slice(1)] : [fullA, fullB];
      if (batched && fullA[0] !== fullB[0]) {
        ctx.log.error(Codes.dotShape, span, `tl.dot's batches differ: ${shapeToString(fullA)} × ${shapeToString(fullB)} (the leading extents must be equal)`);
        return undefined;
      }
      if (sa[1] !== sb[0]) {
        ctx.log.error(Codes.dotShape, span, `tl.dot's inner sizes differ: ${shapeToString(fullA)} × ${shapeToString(fullB)} (the first block's columns must equal the second's rows)`, [
          { span: a.span, message: `${sa[1]} columns` },
          { span: b.span, message: `${sb[0]} rows` },
        ]);
        return undefined;
      }
      const out: Shape = batched ? [fullA[0], sa[0], sb[1]] : [sa[0], sb[1]];
      // Triton's NVIDIA backend takes M and N from 1 (padding the tensor-core tile) with K at least 16
      // for 16-bit operands and 8 for 32-bit ones (TransformerEngine's mHC backward: [4, 1, 64] × [4, 64, 4]);
      // such a product is taken row by row (or column by column) as multiply-and-sum, not tl.dot's tiles.
      const halfWidth = (v: Value) => dtypeOf(v) === "f16" || dtypeOf(v) === "bf16";
      const minK = halfWidth(a) && halfWidth(b) ? 16 : 8;
      if ((sa[0] < 16 || sb[1] < 16) && sa[1] >= minK) {
        const product = narrowDot(ctx, a, b, batched, span);
        if (!product) return undefined;
        const isIntProduct = !args[6] && isInt(dtypeOf(a)) && isInt(dtypeOf(b)) && (!acc || isInt(dtypeOf(acc)));
        if (acc && !sameShape(acc.type.shape, out)) {
          ctx.log.error(Codes.dotShape, acc.span, `the accumulator must have the product's shape ${shapeToString(out)}, got ${typeToString(acc.type)}`);
          return undefined;
        }
        if (isIntProduct) {
          const p = ctx.values.cast(product, "i32", span);
          return acc && p ? ctx.values.binary("add", ctx.values.cast(acc, "i32", acc.span), p, span) : p;
        }
        const summed = acc ? ctx.values.binary("add", ctx.values.cast(acc, "f32", acc.span), product, span) : product;
        return summed && ctx.values.cast(summed, outDtype, span);
      }
      if (sa[0] < 16 || sa[1] < 16 || sb[1] < 16) {
        const inner = sa[0] < 16 || sb[1] < 16 ? `K ≥ ${minK} where M or N is under 16 (${minK === 16 ? "16-bit" : "32-bit"} operands)` : "every extent ≥ 16";
        ctx.log.error(Codes.dotShape, span, `tl.dot needs ${inner}, as Triton's NVIDIA backend${batched ? "; the batch axis may be any size" : ""}; got ${shapeToString(fullA)} × ${shapeToString(fullB)}`);
        return undefined;
      }
      // Two f16 operands stay f16 (staged as halves; tensor cores where the target has them,
      // codegen/mma.ts); any other pair is multiplied in f32 (bf16s too: exact in f32, and no subgroup
      // matrix takes bf16). The products accumulate in f32.
      const operand = dtypeOf(a) === "f16" && dtypeOf(b) === "f16" ? "f16" : "f32";
      const fa = ctx.values.cast(a, operand, a.span);
      const fb = ctx.values.cast(b, operand, b.span);
      // Integer operands (int8 blocks, held as i32: bitsandbytes' int8 matmuls) give an i32 product, as
      // Triton's int8 dot does: the f32 sums are exact while below 2^24 (a 256-deep block of 127 × 127
      // products is 4.1e6), and an integer accumulator is added in i32, not through f32.
      if (!args[6] && isInt(dtypeOf(a)) && isInt(dtypeOf(b)) && (!acc || isInt(dtypeOf(acc)))) {
        if (acc && !sameShape(acc.type.shape, out)) {
          ctx.log.error(Codes.dotShape, acc.span, `the accumulator must have the product's shape ${shapeToString(out)}, got ${typeToString(acc.type)}`);
          return undefined;
        }
        const sums = ctx.b.emit({ op: "dot", a: fa, b: fb }, data("f32", out), span);
        const product = ctx.values.cast(sums, "i32", span);
        return acc && product ? ctx.values.binary("add", ctx.values.cast(acc, "i32", acc.span), product, span) : product;
      }
      let c: Value | undefined;
      if (acc) {
        if (!sameShape(acc.type.shape, out)) {
          ctx.log.error(Codes.dotShape, acc.span, `the accumulator must have the product's shape ${shapeToString(out)}, got ${typeToString(acc.type)}`);
          return undefined;
        }
        c = ctx.values.cast(acc, "f32", acc.span);
      }
      const product = ctx.b.emit({ op: "dot", a: fa, b: fb, ...(c ? { acc: c } : {}) }, data("f32", out), span);
      // Triton's out_dtype: the f32 accumulation converted once at the end.
      return ctx.values.cast(product, outDtype, span);
    },
  },
};

/**
 * A product with M or N under 16 (tl.dot's tiles are 16 × 16 at least): for each row of a (or column
 * of b, whichever are fewer) the row broadcast against b, multiplied and summed over K, in f32; the
 * rows (columns) concatenated. a is [M, K] or [B, M, K], b [K, N] or [B, K, N].
 */
function narrowDot(ctx: IntrinsicContext, a0: Value, b0: Value, batched: boolean, span: Span): Value | undefined {
  const a = ctx.values.cast(a0, "f32", a0.span);
  const b = ctx.values.cast(b0, "f32", b0.span);
  const lead = batched ? [a.type.shape[0]] : [];
  const o = lead.length;
  const [M, K] = [a.type.shape[o], a.type.shape[o + 1]];
  const N = b.type.shape[o + 1];
  const byRow = M <= N;
  const reshape = (v: Value, shape: Shape) => ctx.b.emit({ op: "reshape", value: v }, { ...v.type, shape }, span);
  const pieces: Value[] = [];
  for (let i = 0; i < (byRow ? M : N); i++) {
    // Row i of a, [..., K, 1] against b [..., K, N], summed over K: [..., 1, N]; or column i of b, [..., 1, K] against a [..., M, K]: [..., M, 1].
    const piece = byRow
      ? ctx.b.emit({ op: "slice", value: a, axis: o, start: i }, { ...a.type, shape: [...lead, 1, K] }, span)
      : ctx.b.emit({ op: "slice", value: b, axis: o + 1, start: i }, { ...b.type, shape: [...lead, K, 1] }, span);
    const turned = reshape(piece, byRow ? [...lead, K, 1] : [...lead, 1, K]);
    const products = ctx.values.binary("mul", turned, byRow ? b : a, span);
    if (!products) return undefined;
    const axis = byRow ? o : o + 1;
    const sums = ctx.b.emit({ op: "reduce", fn: "sum", value: products, axis }, data("f32", byRow ? [...lead, N] : [...lead, M]), span);
    pieces.push(reshape(sums, byRow ? [...lead, 1, N] : [...lead, M, 1]));
  }
  // The pieces joined pairwise along the axis they were taken from (their count is a power of two).
  const axis = byRow ? o : o + 1;
  let level = pieces;
  while (level.length > 1) {
    const next: Value[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const [x, y] = [level[i], level[i + 1]];
      const shape = x.type.shape.map((d, j) => (j === axis ? d + y.type.shape[j] : d));
      next.push(ctx.b.emit({ op: "concat", values: [x, y], axis }, { ...x.type, shape }, span));
    }
    level = next;
  }
  return level[0];
}

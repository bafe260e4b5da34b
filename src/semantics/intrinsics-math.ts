// Element-wise tl.* functions: float math, maximum/minimum/fma, tl.where, tl.cast, tl.cdiv.

import { Codes } from "../diagnostics/codes";
import type { F8Dtype, MathFn, NumDtype, Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { COERCIONS, all, arity, dtypeArg, requireData, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { broadcastShapes, isFloat, isInt, promote } from "./rules";
import { dtypeOf, isConst, operandOf } from "./values";
import { flagArg } from "./intrinsics-reductions";
import { skipParens } from "./operators";
import { roundF8e4m3, roundF8e5m2 } from "../ir/f8";

/** `tl.cast(x, dtype, { bitcast })` and `x.to(dtype, { bitcast })`: `x` converted, undefined after a diagnostic. */
export function castValue(ctx: IntrinsicContext, x: Value, dtypeNode: ts.Expression | undefined, bitcastNode: ts.Expression | undefined, span: Span): Value | undefined {
  const dtype = dtypeArg(ctx, dtypeNode, "f32", { mask: true, bytes: true, fp8: true });
  const bitcast = flagArg(ctx, bitcastNode, "the cast's bitcast");
  if (!dtype || bitcast === undefined) return undefined;
  if (x.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, x.span, "pointers can't be cast; cast the offsets instead");
    return undefined;
  }
  if (dtype === "i8" || dtype === "u8") return castToByte(ctx, x, dtype, bitcast, dtypeNode, span);
  if (dtype === "f8e4m3" || dtype === "f8e5m2") return castToF8(ctx, x, dtype, bitcast, dtypeNode, span);
  if (dtype === "bool" && !bitcast) {
    // Triton's x.to(tl.int1): x != 0.
    return ctx.values.nonzero(x, span);
  }
  // An fp8 (held as its f32) to tl.float32: a value of its own that is no longer fp8 (its x.dtype is tl.float32).
  if (!bitcast && dtype === "f32" && ctx.values.f8Kind(x)) return ctx.b.emit({ op: "cast", value: x }, data("f32", x.type.shape), span);
  if (!bitcast) return dtype === "i32" ? ctx.values.widenByte(x, span) : ctx.values.cast(x, dtype, span);
  // Triton's x.to(dtype, bitcast=True): the same bits, read as another 32-bit dtype.
  const byte = ctx.values.byteKind(x);
  if (byte) {
    // An int8 / uint8 (held in an i32) has 8 bits: Triton refuses reading them as a wider dtype.
    ctx.log.error(Codes.operandDtype, dtypeNode ? ctx.span(dtypeNode) : span, `a bitcast reads the same bits as another dtype of their width: ${byte === "i8" ? "tl.int8" : "tl.uint8"} has 8, ${dtype} ${dtype === "i64" ? 64 : 32} (cast without bitcast)`);
    return undefined;
  }
  const from = x.type.dtype;
  if (from === dtype) return x;
  // A bf16's 16 bits have no 16-bit integer to be read as (Triton's bitcast to tl.int16; WGSL has none).
  if (from === "bool" || from === "f16" || from === "bf16" || dtype === "f16" || dtype === "bf16" || dtype === "bool") {
    ctx.log.error(Codes.operandDtype, x.span, `a bitcast reads the same 32 bits as another dtype: f32, i32 and u32; got ${typeToString(x.type)} to ${dtype}`);
    return undefined;
  }
  return ctx.b.emit({ op: "bitcast", value: x }, data(dtype, x.type.shape), span);
}

/**
 * `x.to(tl.int8)` / `x.to(tl.uint8)` (what kernel libraries write before storing through a Ptr<i8> /
 * Ptr<u8>: `.to(out_ptr.dtype.element_ty)`): an i32 holding the 8-bit value, as a load of one gives,
 * its low 8 bits sign-extended (int8) or zero-extended (uint8). `bitcast=True` from the other 8-bit
 * dtype is the same wrap; from a wider dtype it is refused, as Triton refuses a bitcast that changes the width.
 */
function castToByte(ctx: IntrinsicContext, x: Value, dtype: "i8" | "u8", bitcast: boolean, dtypeNode: ts.Expression | undefined, span: Span): Value | undefined {
  // A bitcast between int8 and uint8 (test_core.py's test_cast) keeps the 8 bits: the wrap a cast does.
  if (bitcast && !ctx.values.byteKind(x)) {
    ctx.log.error(Codes.operandDtype, dtypeNode ? ctx.span(dtypeNode) : span, `a bitcast reads the same bits as another dtype of their width: ${dtype === "i8" ? "tl.int8" : "tl.uint8"} has 8, ${typeToString(x.type)} ${x.type.kind === "data" && (x.type.dtype === "f16" || x.type.dtype === "bf16") ? 16 : 32} (cast without bitcast)`);
    return undefined;
  }
  const v = ctx.values.cast(x, "i32", span);
  return isConst(v) ? constantByte(ctx, v, dtype, span) : ctx.values.wrapByte(v, dtype, span);
}

/**
 * `x.to(tl.float8e4nv)` / `x.to(tl.float8e5)` (DeepSeek-V3's act_quant: `y.to(y_ptr.dtype.element_ty)` before
 * storing through a torch.float8_e4m3fn pointer): an f32 holding the nearest fp8 value, ties to even, saturating
 * (±448, ±57344) as Triton's conversion (ir/f8.ts); a load through such a pointer gives the same. A bitcast is
 * refused: the 8 bits have no 8-bit float to be read as in WGSL.
 */
function castToF8(ctx: IntrinsicContext, x: Value, dtype: F8Dtype, bitcast: boolean, dtypeNode: ts.Expression | undefined, span: Span): Value | undefined {
  const name = dtype === "f8e4m3" ? "tl.float8e4nv" : "tl.float8e5";
  if (bitcast) {
    ctx.log.error(Codes.operandDtype, dtypeNode ? ctx.span(dtypeNode) : span, `a bitcast to ${name} reads 8 bits, ${typeToString(x.type)} has more (cast without bitcast)`);
    return undefined;
  }
  if (ctx.values.f8Kind(x) === dtype) return x;
  const v = ctx.values.cast(x, "f32", span);
  if (isConst(v)) return ctx.values.markF8(ctx.b.constant(dtype === "f8e4m3" ? roundF8e4m3(v.value) : roundF8e5m2(v.value), "f32", span), dtype);
  return ctx.values.markF8(ctx.b.emit({ op: "math", fn: dtype === "f8e4m3" ? "roundF8e4m3" : "roundF8e5m2", args: [v] }, data("f32", v.type.shape), span), dtype);
}

/** A constant wrapped to 8 bits (folded). */
function constantByte(ctx: IntrinsicContext, v: Value & { op: "const" }, dtype: "i8" | "u8", span: Span): Value {
  const low = v.value & 0xff;
  return ctx.b.constant(dtype === "u8" ? low : (low << 24) >> 24, "i32", span);
}

/** Unary float math: integers are converted to f32 first. */
export function floatMath(fn: MathFn): Intrinsic {
  return {
    params: ["x"],
    produces: [`math:${fn}`, "cast", "const"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(x)")) return undefined;
      const [x] = all(ctx, args) ?? [];
      if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
      const keepInt = (fn === "abs" || fn === "floor" || fn === "ceil") && isInt(dtypeOf(x));
      if (keepInt && fn !== "abs") return x;
      const arg = keepInt ? x : ctx.values.cast(x, isFloat(dtypeOf(x)) ? dtypeOf(x) : "f32", x.span);
      if (fn === "abs" && dtypeOf(arg) === "u32") return arg;
      return ctx.b.emit({ op: "math", fn, args: [arg] }, arg.type, span);
    },
  };
}

/** maximum/minimum/fma: operands promoted and broadcast together; `floatOnly` converts integers to f32. */
export function naryMath(fn: MathFn, n: number, params: readonly string[], floatOnly = fn === "fma", signature = n === 2 ? "(a, b)" : "(a, b, c)"): Intrinsic {
  return {
    params,
    // Triton's NaN propagation option (tl.PropagateNan.ALL: a NaN operand gives NaN; NONE, the default: WGSL's
    // min/max, which leave NaN handling to the GPU; docs/LANGUAGE.md §2.1).
    produces: [`math:${fn}`, "where", "binary:ne", "binary:lor", "binary:add", ...COERCIONS],
    lower(ctx, raw, span, name) {
      const nanAt = params.indexOf("propagateNan");
      const propagate = nanAt >= 0 ? propagateNanArg(ctx, raw[nanAt]) : "none";
      if (propagate === undefined) return undefined;
      const args = nanAt >= 0 ? raw.slice(0, nanAt) : raw;
      if (!arity(ctx, args, span, name, n, n, signature)) return undefined;
      const given = all(ctx, args);
      // `min(masked_blocks, n_blocks)` with a mask and a number (applied-ai's AMD flash attention:
      // `masked_blocks = padded_block_k`, a comparison): Triton promotes the mask (int1) to an integer.
      const mixed = given !== undefined && !floatOnly && given.some((v) => v.type.kind === "data" && v.type.dtype !== "bool") && given.some((v) => v.type.kind === "data" && v.type.dtype === "bool");
      const values = mixed ? given.map((v) => (v.type.kind === "data" && v.type.dtype === "bool" ? ctx.values.cast(v, "i32", v.span) : v)) : given;
      if (!values || !values.every((v) => requireData(ctx, v, `tl.${name}`))) return undefined;
      let dtype = values.map(operandOf).reduce((acc, op) => ({ dtype: promote(acc, op), weak: acc.weak && op.weak, integral: acc.integral && op.integral })).dtype as NumDtype;
      if (floatOnly && !isFloat(dtype)) dtype = "f32";
      let shape: Shape = [];
      for (const v of values) {
        const s = broadcastShapes(shape, v.type.shape);
        if (!s) {
          ctx.values.commonShape(values[0], v, span, `tl.${name}`);
          return undefined;
        }
        shape = s;
      }
      const coerced = values.map((v) => ctx.values.coerce(v, dtype, shape, v.span));
      if (coerced.some((v) => !v)) return undefined;
      const result = ctx.b.emit({ op: "math", fn, args: coerced as Value[] }, data(dtype, shape), span);
      if (propagate === "none" || !isFloat(dtype)) return result;
      // propagate_nan=tl.PropagateNan.ALL (torchao's nvfp4 amax kernels: `tl.maximum(acc, x,
      // propagate_nan=tl.PropagateNan.ALL)`): where any operand is NaN (x != x) the result is NaN; the
      // sum of the operands is NaN exactly there.
      let nan: Value | undefined;
      let sum: Value | undefined;
      for (const v of coerced as Value[]) {
        const isNan = ctx.values.binary("ne", v, v, span);
        nan = nan && isNan ? ctx.values.binary("lor", nan, isNan, span) : isNan;
        sum = sum ? ctx.values.binary("add", sum, v, span) : v;
      }
      if (!nan || !sum) return undefined;
      return ctx.b.emit({ op: "where", cond: nan, a: sum, b: result }, data(dtype, shape), span);
    },
  };
}

/** tl.maximum / minimum / clamp's propagate_nan: "all" (tl.PropagateNan.ALL), "none" (NONE, None, left out). */
function propagateNanArg(ctx: IntrinsicContext, node: ts.Expression | undefined): "all" | "none" | undefined {
  if (node === undefined || node.kind === ts.SyntaxKind.NullKeyword) return "none";
  const e = skipParens(node);
  if ((ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) && /^(all|none)$/i.test(e.text)) return e.text.toLowerCase() as "all" | "none";
  ctx.log.error(Codes.intrinsicArgs, ctx.span(node), "propagate_nan takes tl.PropagateNan.ALL or tl.PropagateNan.NONE (a compile-time choice)");
  return undefined;
}

/** A pointer as its parameter's start and the offsets added to it (`x_ptr + a + offs[:, None]`); undefined for any other. */
function pointerParts(v: Value): { start: Value; offsets: Value[] } | undefined {
  const offsets: Value[] = [];
  let p: Value = v;
  for (;;) {
    if (p.op === "ptrAdd") {
      offsets.push(p.offset);
      p = p.ptr;
    } else if (p.op === "splat" || p.op === "broadcast") p = p.value;
    else return p.op === "param" ? { start: p, offsets } : undefined;
  }
}

/**
 * `tl.where(c, x_ptr + i, x_ptr + j)`: pointers into one parameter's tensor, chosen per lane, are that parameter plus
 * the offsets chosen, as Triton's select of pointers is. Pointers into two parameters have no such form: each is its own
 * binding, fixed while compiling.
 */
function pointerWhere(ctx: IntrinsicContext, cond: Value, a: Value, b: Value, span: Span): Value | undefined {
  const [pa, pb] = [pointerParts(a), pointerParts(b)];
  if (a.type.kind !== "pointer" || b.type.kind !== "pointer" || !pa || !pb || a.type.param !== b.type.param || a.type.view !== b.type.view || a.type.pointee !== b.type.pointee) {
    const into = a.type.kind === "pointer" && b.type.kind === "pointer" && a.type.param !== b.type.param ? ` point into ${a.type.view ?? a.type.param} and ${b.type.view ?? b.type.param}, and` : "";
    ctx.log.error(Codes.operandDtype, span, `tl.where's pointers${into} must be one parameter plus offsets each (x_ptr + i, x_ptr + j): a pointer points into one parameter's buffer, fixed while compiling; choose between loads instead (tl.where(c, tl.load(p), tl.load(q)))`);
    return undefined;
  }
  const sum = (offsets: Value[]): Value | undefined =>
    offsets.reduce<Value | undefined>((total, o) => total && ctx.values.binary("add", total, o, span), ctx.values.constant(0, "i32", span));
  const [oa, ob] = [sum(pa.offsets), sum(pb.offsets)];
  const ab = oa && ob && ctx.values.commonShape(oa, ob, span, "tl.where's pointers");
  const shape = ab && broadcastShapes(ab, cond.type.shape);
  if (!oa || !ob || !shape) return undefined;
  const c = ctx.values.toShape(cond, shape, cond.span);
  const ca = ctx.values.coerce(oa, "i32", shape, a.span);
  const cb = ctx.values.coerce(ob, "i32", shape, b.span);
  const start = ctx.values.toShape(pa.start, shape, span);
  if (!c || !ca || !cb || !start) return undefined;
  const offset = ctx.b.emit({ op: "where", cond: c, a: ca, b: cb }, data("i32", shape), span);
  return ctx.b.emit({ op: "ptrAdd", ptr: start, offset }, { ...a.type, shape }, span);
}

export const MATH_INTRINSICS: Record<string, Intrinsic> = {
  exp: floatMath("exp"),
  log: floatMath("log"),
  sqrt: floatMath("sqrt"),
  rsqrt: floatMath("rsqrt"),
  abs: floatMath("abs"),
  sin: floatMath("sin"),
  cos: floatMath("cos"),
  floor: floatMath("floor"),
  ceil: floatMath("ceil"),
  sigmoid: floatMath("sigmoid"),
  maximum: naryMath("maximum", 2, ["x", "y", "propagateNan"]),
  minimum: naryMath("minimum", 2, ["x", "y", "propagateNan"]),
  fma: naryMath("fma", 3, ["x", "y", "z"]),

  where: {
    params: ["condition", "x", "y"],
    produces: ["where", "binary:ne", "binary:and", "bitcast", "ptrAdd", "binary:add", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 3, "(condition, a, b)")) return undefined;
      const values = all(ctx, args);
      if (!values) return undefined;
      let [cond, a, b] = values;
      if (cond.type.kind === "pointer") {
        ctx.log.error(Codes.operandDtype, cond.span, `tl.where's condition must be a mask (a comparison), got ${typeToString(cond.type)}`);
        return undefined;
      }
      if (cond.type.dtype !== "bool") {
        // As Triton does (it casts the condition to int1): a number is true where it is nonzero, NaN included.
        const nonzero = ctx.values.nonzero(cond, cond.span);
        if (!nonzero) return undefined;
        cond = nonzero;
      }
      if (a.type.kind === "pointer" && b.type.kind === "pointer") return pointerWhere(ctx, cond, a, b, span);
      if (!requireData(ctx, a, "tl.where", true) || !requireData(ctx, b, "tl.where", true)) return undefined;
      // Masks as the values (inductor's flex attention: `tl.where(offs_n < KV_LEN, mask_mod_output, False)`, or
      // `float("-inf")` in torch 2.5): of two masks a mask; beside a number a mask is that number's 1 or 0, as
      // Triton's binary_op_type_checking_impl promotes int1 (a float beside it wins, else the wider integer).
      const masks = dtypeOf(a) === "bool" && dtypeOf(b) === "bool";
      if (!masks && dtypeOf(a) === "bool") a = ctx.values.cast(a, "i32", a.span);
      if (!masks && dtypeOf(b) === "bool") b = ctx.values.cast(b, "i32", b.span);
      const dtype = masks ? "bool" : promote(operandOf(a), operandOf(b));
      const ab = ctx.values.commonShape(a, b, span, "tl.where's values");
      const shape = ab && broadcastShapes(ab, cond.type.shape);
      if (!shape) {
        if (ab) ctx.values.commonShape(cond, a, span, "tl.where's condition and values");
        return undefined;
      }
      const c = ctx.values.toShape(cond, shape, cond.span);
      const ca = ctx.values.coerce(a, dtype, shape, a.span);
      const cb = ctx.values.coerce(b, dtype, shape, b.span);
      if (!c || !ca || !cb) return undefined;
      return ctx.b.emit({ op: "where", cond: c, a: ca, b: cb }, data(dtype, shape), span);
    },
  },

  cast: {
    params: ["input", "dtype", "fpDowncastRounding", "bitcast"],
    ignored: ["fpDowncastRounding"],
    produces: ["cast", "const", "bitcast", "binary:ne", "binary:and", "splat", "math:roundF8e4m3", "math:roundF8e5m2"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 4, '(x, dtype) — a dtype such as tl.float32 or x.dtype, or "f32" | "i32" | "u32" | "f16" | "bf16"')) return undefined;
      const x = ctx.expression(args[0]);
      return x && castValue(ctx, x, args[1], args[3], span);
    },
  },

  cdiv: {
    params: ["x", "div"],
    produces: ["binary:add", "binary:sub", "binary:div", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(a, b)")) return undefined;
      const values = all(ctx, args);
      if (!values) return undefined;
      const [a, b] = values;
      if (a.type.kind === "pointer" || b.type.kind === "pointer" || !isInt(a.type.dtype) || !isInt(b.type.dtype)) {
        ctx.log.error(Codes.operandDtype, span, `tl.cdiv takes integers, got ${typeToString(a.type)} and ${typeToString(b.type)}`);
        return undefined;
      }
      const one = ctx.b.constant(1, "i32", span);
      const sum = ctx.values.binary("add", a, b, span);
      const top = sum && ctx.values.binary("sub", sum, one, span);
      return top && ctx.values.binary("div", top, b, span);
    },
  },
};

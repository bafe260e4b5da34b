// The tl.* functions: argument checking and typing, one entry per function.
// Each returns the value it produces, "void" for tl.store, or undefined after reporting an error.

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Dtype, MathFn, NumDtype, ReduceFn, Shape, Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import type { Target } from "../ir/target";
import { IrBuilder, data } from "./builder";
import { ValueFactory, dtypeOf, isConst, operandOf } from "./values";
import { broadcastShapes, isFloat, isInt, isPowerOfTwo, promote, sameShape, shapeToString } from "./rules";

export interface IntrinsicContext {
  readonly log: DiagnosticLog;
  readonly b: IrBuilder;
  readonly values: ValueFactory;
  readonly target: Target;
  span(node: ts.Node): Span;
  expression(node: ts.Expression): Value | undefined;
  markWritten(param: string): void;
}

type Args = ts.NodeArray<ts.Expression>;
type Intrinsic = (ctx: IntrinsicContext, args: Args, span: Span, name: string) => Value | undefined | "void";

/** Largest block a kernel may create (elements); beyond it code size and registers explode. */
export const MAX_BLOCK_ELEMENTS = 1 << 16;

const DTYPE_NAMES: readonly NumDtype[] = ["f32", "i32", "u32", "f16"];

function arity(ctx: IntrinsicContext, args: Args, span: Span, name: string, min: number, max: number, signature: string): boolean {
  if (args.length < min || args.length > max) {
    ctx.log.error(Codes.intrinsicArgs, span, `tl.${name} takes ${signature}; got ${args.length} argument${args.length === 1 ? "" : "s"}`);
    return false;
  }
  return true;
}

function all(ctx: IntrinsicContext, args: readonly ts.Expression[]): Value[] | undefined {
  const values = args.map((a) => ctx.expression(a));
  return values.every((v) => v !== undefined) ? (values as Value[]) : undefined;
}

/** A compile-time integer argument (literal, constexpr or folded expression). */
function constInt(ctx: IntrinsicContext, node: ts.Expression, what: string): number | undefined {
  const v = ctx.expression(node);
  if (!v) return undefined;
  if (!isConst(v) || !Number.isInteger(v.value)) {
    ctx.log.error(Codes.constantRequired, ctx.span(node), `${what} must be a compile-time integer (a literal or a constexpr parameter), got ${typeToString(v.type)}`);
    return undefined;
  }
  return v.value;
}

function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype): NumDtype | undefined {
  if (!node) return fallback;
  if (!ts.isStringLiteralLike(node) || !DTYPE_NAMES.includes(node.text as NumDtype)) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `the dtype must be one of "f32", "i32", "u32", "f16" (a string literal)`);
    return undefined;
  }
  const dtype = node.text as NumDtype;
  if (dtype === "f16" && !ctx.target.shaderF16) {
    ctx.log.error(Codes.dtypeUnavailable, ctx.span(node), "f16 needs the adapter feature 'shader-f16', which this GPU doesn't have; use \"f32\"");
    return undefined;
  }
  return dtype;
}

function shapeArg(ctx: IntrinsicContext, node: ts.Expression): Shape | undefined {
  if (!ts.isArrayLiteralExpression(node)) {
    ctx.log.error(Codes.constantRequired, ctx.span(node), "a shape is an array literal of compile-time integers, e.g. [BLOCK_M, BLOCK_N]");
    return undefined;
  }
  const dims: number[] = [];
  for (const element of node.elements) {
    const d = constInt(ctx, element, "a shape's extent");
    if (d === undefined) return undefined;
    if (!isPowerOfTwo(d)) {
      ctx.log.error(Codes.notPowerOfTwo, ctx.span(element), `block extents must be powers of two, got ${d}; round up to ${nextPowerOfTwo(d)} and mask the rest`);
      return undefined;
    }
    dims.push(d);
  }
  if (dims.length > 2) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `blocks have one or two axes; got ${dims.length}`);
    return undefined;
  }
  return checkBlockSize(ctx, dims, ctx.span(node));
}

function checkBlockSize(ctx: IntrinsicContext, shape: Shape, span: Span): Shape | undefined {
  if (numel(shape) > MAX_BLOCK_ELEMENTS) {
    ctx.log.error(Codes.blockTooLarge, span, `a block of ${shapeToString(shape)} has ${numel(shape)} elements; the limit is ${MAX_BLOCK_ELEMENTS} — use a smaller block and more programs`);
    return undefined;
  }
  return shape;
}

function nextPowerOfTwo(n: number): number {
  return n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n));
}

function axisArg(ctx: IntrinsicContext, node: ts.Expression, name: string): 0 | 1 | 2 | undefined {
  const axis = constInt(ctx, node, `tl.${name}'s axis`);
  if (axis === undefined) return undefined;
  if (axis < 0 || axis > 2) {
    ctx.log.error(Codes.badAxis, ctx.span(node), `the grid has axes 0, 1 and 2; got ${axis}`);
    return undefined;
  }
  return axis as 0 | 1 | 2;
}

function requireData(ctx: IntrinsicContext, v: Value, what: string): boolean {
  if (v.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes values, not pointers; load them first with tl.load`);
    return false;
  }
  if (v.type.dtype === "bool") {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes numbers, not masks; use tl.where(mask, 1, 0) or tl.cast(mask, "i32")`);
    return false;
  }
  return true;
}

/** Unary float math: integers are converted to f32 first. */
function floatMath(fn: MathFn): Intrinsic {
  return (ctx, args, span, name) => {
    if (!arity(ctx, args, span, name, 1, 1, "(x)")) return undefined;
    const [x] = all(ctx, args) ?? [];
    if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
    const keepInt = (fn === "abs" || fn === "floor" || fn === "ceil") && isInt(dtypeOf(x));
    if (keepInt && fn !== "abs") return x;
    const arg = keepInt ? x : ctx.values.cast(x, isFloat(dtypeOf(x)) ? dtypeOf(x) : "f32", x.span);
    if (fn === "abs" && dtypeOf(arg) === "u32") return arg;
    return ctx.b.emit({ op: "math", fn, args: [arg] }, arg.type, span);
  };
}

/** maximum/minimum/fma: operands promoted and broadcast together. */
function naryMath(fn: MathFn, n: number): Intrinsic {
  return (ctx, args, span, name) => {
    if (!arity(ctx, args, span, name, n, n, n === 2 ? "(a, b)" : "(a, b, c)")) return undefined;
    const values = all(ctx, args);
    if (!values || !values.every((v) => requireData(ctx, v, `tl.${name}`))) return undefined;
    let dtype = values.map(operandOf).reduce((acc, op) => ({ dtype: promote(acc, op), weak: acc.weak && op.weak, integral: acc.integral && op.integral })).dtype as NumDtype;
    if (fn === "fma" && !isFloat(dtype)) dtype = "f32";
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
    return ctx.b.emit({ op: "math", fn, args: coerced as Value[] }, data(dtype, shape), span);
  };
}

function reduction(fn: ReduceFn): Intrinsic {
  return (ctx, args, span, name) => {
    if (!arity(ctx, args, span, name, 1, 2, "(x, axis?)")) return undefined;
    const x = ctx.expression(args[0]);
    if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
    const rank = x.type.shape.length;
    if (rank === 0) {
      ctx.log.error(Codes.badAxis, ctx.span(args[0]), `tl.${name} reduces a block, but this is a scalar`);
      return undefined;
    }
    let axis = 0;
    if (args[1]) {
      const a = constInt(ctx, args[1], `tl.${name}'s axis`);
      if (a === undefined) return undefined;
      axis = a < 0 ? a + rank : a;
      if (axis < 0 || axis >= rank) {
        ctx.log.error(Codes.badAxis, ctx.span(args[1]), `axis ${a} doesn't exist: the block ${typeToString(x.type)} has ${rank === 1 ? "only axis 0" : `axes 0..${rank - 1}`}`);
        return undefined;
      }
    } else if (rank > 1) {
      ctx.log.error(Codes.badAxis, span, `tl.${name} of a ${rank}-D block needs an axis: tl.${name}(x, 0) or tl.${name}(x, 1)`);
      return undefined;
    }
    const shape = x.type.shape.filter((_, i) => i !== axis);
    const dtype: Dtype = fn === "argmax" ? "i32" : dtypeOf(x);
    return ctx.b.emit({ op: "reduce", fn, value: x, axis }, data(dtype, shape), span);
  };
}

export const INTRINSICS: Record<string, Intrinsic> = {
  programId(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
    const axis = axisArg(ctx, args[0], name);
    return axis === undefined ? undefined : ctx.b.emit({ op: "programId", axis }, data("i32", []), span);
  },

  numPrograms(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 1, 1, "(axis)")) return undefined;
    const axis = axisArg(ctx, args[0], name);
    return axis === undefined ? undefined : ctx.b.emit({ op: "numPrograms", axis }, data("i32", []), span);
  },

  arange(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, "(start, end) with compile-time bounds")) return undefined;
    const start = constInt(ctx, args[0], "tl.arange's start");
    const end = constInt(ctx, args[1], "tl.arange's end");
    if (start === undefined || end === undefined) return undefined;
    const n = end - start;
    if (!isPowerOfTwo(n)) {
      ctx.log.error(Codes.notPowerOfTwo, span, `tl.arange(${start}, ${end}) has ${n} elements; block sizes must be powers of two — use ${nextPowerOfTwo(Math.max(n, 1))} and mask the tail`);
      return undefined;
    }
    if (!checkBlockSize(ctx, [n], span)) return undefined;
    return ctx.b.emit({ op: "arange", start, end }, data("i32", [n]), span);
  },

  load(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 1, 3, "(pointers, mask?, other?)")) return undefined;
    const values = all(ctx, args);
    if (!values) return undefined;
    const [ptr, rawMask, rawOther] = values as (Value | undefined)[];
    if (!ptr) return undefined;
    let mask = rawMask;
    let other = rawOther;
    if (ptr.type.kind !== "pointer") {
      ctx.log.error(Codes.notAPointer, ptr.span, `tl.load needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
      return undefined;
    }
    if (mask && (mask.type.kind === "pointer" || mask.type.dtype !== "bool")) {
      ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
      return undefined;
    }
    let shape: Shape | undefined = ptr.type.shape;
    if (mask) shape = ctx.values.commonShape(ptr, mask, span, "tl.load's pointers and mask");
    if (!shape) return undefined;
    const pointee = ptr.type.pointee;
    const p = ctx.values.toShape(ptr, shape, ptr.span);
    mask = mask && ctx.values.toShape(mask, shape, mask.span);
    if (other) {
      if (!requireData(ctx, other, "tl.load's other")) return undefined;
      other = ctx.values.coerce(other, pointee, shape, other.span);
      if (!other) return undefined;
    }
    if (!p || (args[1] && !mask)) return undefined;
    return ctx.b.emit({ op: "load", ptr: p, ...(mask ? { mask } : {}), ...(other ? { other } : {}) }, data(pointee, shape), span);
  },

  store(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 3, "(pointers, value, mask?)")) return undefined;
    const values = all(ctx, args);
    if (!values) return undefined;
    const [ptr, value, mask] = values;
    if (ptr.type.kind !== "pointer") {
      ctx.log.error(Codes.notAPointer, ptr.span, `tl.store needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
      return undefined;
    }
    if (!requireData(ctx, value, "tl.store's value")) return undefined;
    if (mask && (mask.type.kind === "pointer" || mask.type.dtype !== "bool")) {
      ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
      return undefined;
    }
    // The pointers decide the shape; value and mask must broadcast to it (Triton's rule).
    let shape: Shape = ptr.type.shape;
    if (mask) {
      const s = ctx.values.commonShape(ptr, mask, span, "tl.store's pointers and mask");
      if (!s) return undefined;
      shape = s;
    }
    const target = broadcastShapes(value.type.shape, shape);
    if (!target || !sameShape(target, shape)) {
      ctx.log.error(Codes.storeShape, value.span, `can't store a value of shape ${shapeToString(value.type.shape)} through pointers of shape ${shapeToString(shape)}`);
      return undefined;
    }
    const p = ctx.values.toShape(ptr, shape, ptr.span);
    const v = ctx.values.coerce(value, ptr.type.pointee, shape, value.span);
    const m = mask && ctx.values.toShape(mask, shape, mask.span);
    if (!p || !v || (mask && !m)) return undefined;
    ctx.markWritten(ptr.type.param);
    ctx.b.push({ kind: "store", span, ptr: p, value: v, ...(m ? { mask: m } : {}) });
    return "void";
  },

  where(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 3, 3, "(condition, a, b)")) return undefined;
    const values = all(ctx, args);
    if (!values) return undefined;
    const [cond, a, b] = values;
    if (cond.type.kind === "pointer" || cond.type.dtype !== "bool") {
      ctx.log.error(Codes.operandDtype, cond.span, `tl.where's condition must be a mask (a comparison), got ${typeToString(cond.type)}`);
      return undefined;
    }
    if (!requireData(ctx, a, "tl.where") || !requireData(ctx, b, "tl.where")) return undefined;
    const dtype = promote(operandOf(a), operandOf(b));
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
  maximum: naryMath("maximum", 2),
  minimum: naryMath("minimum", 2),
  fma: naryMath("fma", 3),

  cast(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, '(x, "f32" | "i32" | "u32" | "f16")')) return undefined;
    const x = ctx.expression(args[0]);
    const dtype = dtypeArg(ctx, args[1], "f32");
    if (!x || !dtype) return undefined;
    if (x.type.kind === "pointer") {
      ctx.log.error(Codes.operandDtype, x.span, "pointers can't be cast; cast the offsets instead");
      return undefined;
    }
    return ctx.values.cast(x, dtype, span);
  },

  cdiv(ctx, args, span, name) {
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

  zeros(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 1, 2, '(shape, dtype?) e.g. tl.zeros([BLOCK], "f32")')) return undefined;
    const shape = shapeArg(ctx, args[0]);
    const dtype = dtypeArg(ctx, args[1], "f32");
    if (!shape || !dtype) return undefined;
    return ctx.values.toShape(ctx.b.constant(0, dtype, span), shape, span);
  },

  full(ctx, args, span, name) {
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

  expandDims(ctx, args, span, name) {
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

  broadcastTo(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, "(x, shape)")) return undefined;
    const x = ctx.expression(args[0]);
    const shape = shapeArg(ctx, args[1]);
    if (!x || !shape) return undefined;
    return ctx.values.toShape(x, shape, span);
  },

  reshape(ctx, args, span, name) {
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

  trans(ctx, args, span, name) {
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

  sum: reduction("sum"),
  max: reduction("max"),
  min: reduction("min"),
  argmax: reduction("argmax"),

  dot(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 3, "(a, b, acc?)")) return undefined;
    const values = all(ctx, args);
    if (!values) return undefined;
    const [a, b, acc] = values;
    if (!values.every((v) => requireData(ctx, v, "tl.dot"))) return undefined;
    const [sa, sb] = [a.type.shape, b.type.shape];
    if (sa.length !== 2 || sb.length !== 2) {
      ctx.log.error(Codes.dotShape, span, `tl.dot multiplies 2-D blocks; got ${typeToString(a.type)} and ${typeToString(b.type)}`);
      return undefined;
    }
    if (sa[1] !== sb[0]) {
      ctx.log.error(Codes.dotShape, span, `tl.dot's inner sizes differ: ${shapeToString(sa)} × ${shapeToString(sb)} (the first block's columns must equal the second's rows)`, [
        { span: a.span, message: `${sa[1]} columns` },
        { span: b.span, message: `${sb[0]} rows` },
      ]);
      return undefined;
    }
    if (sa[0] < 16 || sa[1] < 16 || sb[1] < 16) {
      ctx.log.error(Codes.dotShape, span, `tl.dot needs every extent ≥ 16 (as in Triton); got ${shapeToString(sa)} × ${shapeToString(sb)}`);
      return undefined;
    }
    const out: Shape = [sa[0], sb[1]];
    const fa = ctx.values.cast(a, "f32", a.span);
    const fb = ctx.values.cast(b, "f32", b.span);
    let c: Value | undefined;
    if (acc) {
      if (!sameShape(acc.type.shape, out)) {
        ctx.log.error(Codes.dotShape, acc.span, `the accumulator must have the product's shape ${shapeToString(out)}, got ${typeToString(acc.type)}`);
        return undefined;
      }
      c = ctx.values.cast(acc, "f32", acc.span);
    }
    return ctx.b.emit({ op: "dot", a: fa, b: fb, ...(c ? { acc: c } : {}) }, data("f32", out), span);
  },
};

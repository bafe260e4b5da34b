// Issue 11's element-wise math: tl.exp2, log2, tanh, erf, pow, clamp (math ops on floats, or any
// number for clamp), tl.umulhi (integers only) and tl.fdiv (float division, a binary div).

import { Codes } from "../diagnostics/codes";
import type { NumDtype, Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, all, arity, requireData, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import type { Span } from "../diagnostics/diagnostic";
import { floatMath, naryMath } from "./intrinsics-math";
import { broadcastShapes, isFloat, isInt, promote } from "./rules";
import { operandOf } from "./values";

/** The operands' promoted dtype and broadcast shape, with each converted to them; undefined after an error. */
export function promoteAll(ctx: IntrinsicContext, values: Value[], span: Span, what: string, dtypeOf: (d: NumDtype) => NumDtype): { dtype: NumDtype; operands: Value[] } | undefined {
  const dtype = dtypeOf(values.map(operandOf).reduce((acc, op) => ({ dtype: promote(acc, op), weak: acc.weak && op.weak, integral: acc.integral && op.integral })).dtype as NumDtype);
  let shape: Shape = [];
  for (const v of values) {
    const s = broadcastShapes(shape, v.type.shape);
    if (!s) {
      ctx.values.commonShape(values[0], v, span, what);
      return undefined;
    }
    shape = s;
  }
  const operands = values.map((v) => ctx.values.coerce(v, dtype, shape, v.span));
  return operands.every((v) => v) ? { dtype, operands: operands as Value[] } : undefined;
}

const umulhi: Intrinsic = {
  params: ["x", "y"],
  produces: ["math:umulhi", ...COERCIONS],
  lower(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, "(a, b)")) return undefined;
    const values = all(ctx, args);
    if (!values || !values.every((v) => requireData(ctx, v, `tl.${name}`))) return undefined;
    const float = values.find((v) => v.type.kind === "data" && !isInt(v.type.dtype));
    if (float) {
      ctx.log.error(Codes.operandDtype, float.span, `tl.umulhi takes integers (i32 or u32), got ${typeToString(float.type)}`);
      return undefined;
    }
    const r = promoteAll(ctx, values, span, "tl.umulhi", (d) => d);
    return r && ctx.b.emit({ op: "math", fn: "umulhi", args: r.operands }, data(r.dtype, r.operands[0].type.shape), span);
  },
};

// Triton's tl.fdiv(x, y): `/` on floats (integers are converted to f32 first).
const fdiv: Intrinsic = {
  params: ["x", "y", "ieeeRounding"],
  // WGSL's division; Triton's option for IEEE rounding is accepted (tl.divRn rounds correctly).
  ignored: ["ieeeRounding"],
  produces: ["binary:div", ...COERCIONS],
  lower(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, "(x, y)")) return undefined;
    const values = all(ctx, args);
    if (!values || !values.every((v) => requireData(ctx, v, `tl.${name}`))) return undefined;
    const r = promoteAll(ctx, values, span, "tl.fdiv", (d) => (isFloat(d) ? d : "f32"));
    return r && ctx.values.binary("div", r.operands[0], r.operands[1], span);
  },
};

export const SPECIAL_MATH_INTRINSICS: Record<string, Intrinsic> = {
  exp2: floatMath("exp2"),
  log2: floatMath("log2"),
  tanh: floatMath("tanh"),
  erf: floatMath("erf"),
  pow: naryMath("pow", 2, ["x", "y"], true, "(x, y)"),
  clamp: naryMath("clamp", 3, ["x", "min", "max", "propagateNan"], false, "(x, min, max)"),
  umulhi,
  fdiv,
  divRn: naryMath("divRn", 2, ["x", "y"], true, "(x, y)"),
  sqrtRn: floatMath("sqrtRn"),
  asin: floatMath("asin"),
  acos: floatMath("acos"),
  atan: floatMath("atan"),
  log1p: floatMath("log1p"),
  expm1: floatMath("expm1"),
};

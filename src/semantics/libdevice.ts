// libdevice's functions that have no tl.* function (math-names.ts maps those that do), as library code
// calls them: `libdevice.lgamma(x)`, `tl_extra_shim.tan(x)`, `~libdevice.finitef(x)`, `libdevice.ffs(x) - 1`
// (FlagGems' ops). Some are IR math functions of their own (lgamma, erfc, erfcx in f32 with the WGSL of
// codegen/gamma-erfc.ts; popc, clz, ffs on 32-bit integers); the rest are built here from other ops,
// as Triton's libdevice computes them: tan = sin / cos, the float predicates from the bits.

import type { LibdeviceFn, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import { data } from "./builder";
import { all, COERCIONS, requireData, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import type { Args } from "./keywords";
import { promoteAll } from "./intrinsics-special-math";
import { broadcastShapes, isFloat, isInt } from "./rules";
import { dtypeOf } from "./values";

/** `libdevice.name` as the message names it. */
const written = (name: string) => `libdevice.${name}`;

/** Exactly `params.length` arguments, each given. */
function arity(ctx: IntrinsicContext, args: Args, span: Span, name: string, params: readonly string[]): boolean {
  if (args.length === params.length && args.every((a) => a !== undefined)) return true;
  const count = args.filter((a) => a !== undefined).length;
  ctx.log.error(Codes.intrinsicArgs, span, `${written(name)} takes (${params.join(", ")}); got ${count} argument${count === 1 ? "" : "s"}`);
  return false;
}

/**
 * The operands as one float dtype and shape (integers and masks as f32, as Triton's libdevice takes
 * fp32); undefined after a diagnostic.
 */
function floats(ctx: IntrinsicContext, values: Value[], span: Span, name: string): Value[] | undefined {
  if (!values.every((v) => requireData(ctx, v, written(name)))) return undefined;
  return promoteAll(ctx, values, span, written(name), (d) => (isFloat(d) ? d : "f32"))?.operands;
}

/** A libdevice function of `n` float operands, computed by `build` from them (all of one float dtype and shape). */
function floatFunction(name: string, params: readonly string[], produces: readonly string[], build: (ctx: IntrinsicContext, xs: Value[], span: Span) => Value | undefined): Intrinsic {
  return {
    params,
    produces: [...produces, ...COERCIONS] as Intrinsic["produces"],
    lower(ctx, args, span) {
      if (!arity(ctx, args, span, name, params)) return undefined;
      const values = all(ctx, args);
      const xs = values && floats(ctx, values, span, name);
      return xs && build(ctx, xs, span);
    },
  };
}

/** An IR math function of one float (lgamma, erfc, erfcx). */
function special(fn: LibdeviceFn & ("lgamma" | "erfc" | "erfcx")): Intrinsic {
  return floatFunction(fn, ["x"], [`math:${fn}`], (ctx, [x], span) => ctx.b.emit({ op: "math", fn, args: [x] }, x.type, span));
}

/** A bit count of a 32-bit integer (popc, clz, ffs), as an i32; a mask counts as an i32. */
function bitCount(fn: LibdeviceFn & ("popc" | "clz" | "ffs")): Intrinsic {
  return {
    params: ["x"],
    produces: [`math:${fn}`, ...COERCIONS],
    lower(ctx, args, span) {
      if (!arity(ctx, args, span, fn, ["x"])) return undefined;
      const [x0] = all(ctx, args) ?? [];
      if (!x0 || !requireData(ctx, x0, written(fn), true)) return undefined;
      const x = dtypeOf(x0) === "bool" ? ctx.values.cast(x0, "i32", x0.span) : x0;
      const dtype = dtypeOf(x);
      if (dtype !== "i32" && dtype !== "u32") {
        const hint = dtype === "i64" ? `; count each 32-bit half ((x & 0xffffffff).to(tl.int32) and (x >> 32).to(tl.int32))` : isInt(dtype) ? "" : "; to count a float's bits, bitcast it first: x.to(tl.int32, bitcast=True)";
        ctx.log.error(Codes.operandDtype, x.span, `${written(fn)} counts the bits of a 32-bit integer, got ${typeToString(x.type)}${hint}`);
        return undefined;
      }
      return ctx.b.emit({ op: "math", fn, args: [x] }, data("i32", x.type.shape), span);
    },
  };
}

const math = (ctx: IntrinsicContext, fn: "sin" | "cos" | "exp" | "floor" | "ceil" | "abs" | "exp2" | "log2" | "expm1" | "log1p" | "divRn", args: Value[], span: Span): Value =>
  ctx.b.emit({ op: "math", fn, args }, args[0].type, span);

const constant = (ctx: IntrinsicContext, x: Value, n: number, span: Span): Value => ctx.b.constant(n, dtypeOf(x), span);

/** The float predicates on the bits' magnitude (values.ts magnitudeBits): NaN above 0x7f800000, ∞ at it, finite below. */
function classify(compare: "gt" | "eq" | "lt"): (ctx: IntrinsicContext, xs: Value[], span: Span) => Value | undefined {
  return (ctx, [x], span) => {
    const magnitude = ctx.values.magnitudeBits(x, span);
    return magnitude && ctx.values.binary(compare, magnitude, ctx.b.constant(0x7f800000, "i32", span), span);
  };
}

/** Where `cond`, `a`, else `b` (of one dtype), broadcast to one shape. */
function where(ctx: IntrinsicContext, cond: Value | undefined, a: Value | undefined, b: Value | undefined, span: Span): Value | undefined {
  if (!cond || !a || !b) return undefined;
  const shape = broadcastShapes(cond.type.shape, broadcastShapes(a.type.shape, b.type.shape) ?? []);
  const [c2, a2, b2] = shape ? [cond, a, b].map((v) => ctx.values.coerce(v, dtypeOf(v), shape, span)) : [];
  return shape && c2 && a2 && b2 ? ctx.b.emit({ op: "where", cond: c2, a: a2, b: b2 }, data(dtypeOf(a), shape), span) : undefined;
}

/** Is the sign bit set (for ±0 and NaN too)? */
function negativeBit(ctx: IntrinsicContext, x: Value, span: Span): Value | undefined {
  return ctx.values.binary("lt", ctx.values.floatBits(x, span), ctx.b.constant(0, "i32", span), span);
}

const BITS = ["bitcast", "binary:and", "binary:gt", "binary:eq", "binary:lt"];

/**
 * sinh(x): from 1 up, (e^|x| - e^-|x|) / 2; below, from e = expm1(|x|) as (e + e / (e + 1)) / 2, which
 * keeps a tiny x's digits (e^x - e^-x loses them).
 */
function sinh(ctx: IntrinsicContext, [x]: Value[], span: Span): Value | undefined {
  const a = math(ctx, "abs", [x], span);
  const half = constant(ctx, x, 0.5, span);
  const e = math(ctx, "expm1", [a], span);
  const ePlus1 = ctx.values.binary("add", e, constant(ctx, x, 1, span), span);
  const ratio = ePlus1 && ctx.values.binary("div", e, ePlus1, span);
  const smallSum = ratio && ctx.values.binary("add", e, ratio, span);
  const small = smallSum && ctx.values.binary("mul", smallSum, half, span);
  const negA = ctx.values.unary("neg", a, span);
  const big = negA && ctx.values.binary("sub", math(ctx, "exp", [a], span), math(ctx, "exp", [negA], span), span);
  const bigHalf = big && ctx.values.binary("mul", big, half, span);
  const s = where(ctx, ctx.values.binary("lt", a, constant(ctx, x, 1, span), span), small, bigHalf, span);
  const negS = s && ctx.values.unary("neg", s, span);
  return where(ctx, ctx.values.binary("lt", x, constant(ctx, x, 0, span), span), negS, s, span);
}

function cosh(ctx: IntrinsicContext, [x]: Value[], span: Span): Value | undefined {
  const neg = ctx.values.unary("neg", x, span);
  const sum = neg && ctx.values.binary("add", math(ctx, "exp", [x], span), math(ctx, "exp", [neg], span), span);
  return sum && ctx.values.binary("mul", sum, constant(ctx, x, 0.5, span), span);
}

/**
 * log10(x): WGSL has none. log2(x) log10(2), but on (0.5, 2) log1p(x - 1) log10(e) (x - 1 is exact there):
 * WGSL's log2 is only 2^-21 absolute near 1, where log10(x) is near 0 (0.999 lost 4 of its digits).
 */
function log10(ctx: IntrinsicContext, [x]: Value[], span: Span): Value | undefined {
  const far = ctx.values.binary("mul", math(ctx, "log2", [x], span), constant(ctx, x, Math.LOG10E / Math.LOG2E, span), span);
  const xm1 = ctx.values.binary("sub", x, constant(ctx, x, 1, span), span);
  const near = xm1 && ctx.values.binary("mul", math(ctx, "log1p", [xm1], span), constant(ctx, x, Math.LOG10E, span), span);
  const above = ctx.values.binary("gt", x, constant(ctx, x, 0.5, span), span);
  const below = ctx.values.binary("lt", x, constant(ctx, x, 2, span), span);
  const inside = above && below && ctx.values.binary("land", above, below, span);
  return where(ctx, inside, near, far, span);
}

/**
 * exp10(x) = 2^(x log2(10)), the product carried in two parts: x rounded to its top 12 bits (xh) times
 * log2(10)'s top 12 bits (LH) is exact, so 2^(xh LH) 2^(xh LL + xl log2(10)) loses only the small part's
 * rounding (x log2(10) rounded to f32 would cost 2^-24 of it, 35 ulp of the result at x = 30).
 */
function exp10(ctx: IntrinsicContext, [x0]: Value[], span: Span): Value | undefined {
  const x = dtypeOf(x0) === "f32" ? x0 : ctx.values.cast(x0, "f32", span);
  const LH = 3401 / 1024;
  const LL = Math.LN10 / Math.LN2 - LH;
  const c = (n: number) => ctx.b.constant(n, "f32", span);
  const hiBits = ctx.values.binary("and", ctx.values.floatBits(x, span), ctx.b.constant(-4096, "i32", span), span);
  const xh = hiBits && ctx.b.emit({ op: "bitcast", value: hiBits }, x.type, span);
  const xl = xh && ctx.values.binary("sub", x, xh, span);
  const big = xh && ctx.values.binary("mul", xh, c(LH), span);
  const small1 = xh && ctx.values.binary("mul", xh, c(LL), span);
  const small2 = xl && ctx.values.binary("mul", xl, c(Math.LN10 / Math.LN2), span);
  const small = small1 && small2 && ctx.values.binary("add", small1, small2, span);
  if (!big || !small) return undefined;
  const split = ctx.values.binary("mul", math(ctx, "exp2", [big], span), math(ctx, "exp2", [small], span), span);
  // Past ±64 the result is ∞ or 0 either way, and ±∞ must not reach xl (∞ - ∞).
  const plain = ctx.values.binary("mul", x, c(Math.LN10 / Math.LN2), span);
  const inRange = ctx.values.binary("lt", math(ctx, "abs", [x], span), c(64), span);
  const r = plain && where(ctx, inRange, split, math(ctx, "exp2", [plain], span), span);
  return r && (dtypeOf(x0) === "f32" ? r : ctx.values.cast(r, dtypeOf(x0), span));
}

/** C's nextafter on f32: the neighbouring float of x towards y (y where equal, NaN where either is NaN, ±the least subnormal from 0). */
function nextafter(ctx: IntrinsicContext, [x, y]: Value[], span: Span): Value | undefined {
  if (dtypeOf(x) !== "f32") {
    ctx.log.error(Codes.operandDtype, x.span, `libdevice.nextafter steps between float32 values (Triton's libdevice has it for float32 and float64 only), got ${typeToString(x.type)}; convert with .to(tl.float32)`);
    return undefined;
  }
  const i32 = (n: number) => ctx.b.constant(n, "i32", span);
  const bx = ctx.values.floatBits(x, span);
  // Away from 0 (the bits up) where y is beyond x on x's side of 0.
  const towards = ctx.values.binary("lt", x, y, span);
  const positive = ctx.values.binary("gt", x, constant(ctx, x, 0, span), span);
  const up = towards && positive && ctx.values.binary("eq", towards, positive, span);
  const stepped = where(ctx, up, ctx.values.binary("add", bx, i32(1), span), ctx.values.binary("sub", bx, i32(1), span), span);
  const least = where(ctx, negativeBit(ctx, y, span), i32(-0x7fffffff), i32(1), span);
  const fromZero = where(ctx, ctx.values.binary("eq", x, constant(ctx, x, 0, span), span), least, stepped, span);
  const next = fromZero && ctx.b.emit({ op: "bitcast", value: fromZero }, x.type, span);
  const equal = where(ctx, ctx.values.binary("eq", x, y, span), y, next, span);
  const isNan = (v: Value) => classify("gt")(ctx, [v], span);
  const nanX = isNan(x);
  const nanY = isNan(y);
  const eitherNan = nanX && nanY && ctx.values.binary("lor", nanX, nanY, span);
  return where(ctx, eitherNan, ctx.values.binary("add", x, y, span), equal, span);
}

/** The libdevice functions with no tl.* function, by name (the `f`-suffixed float32 spellings too). */
export const LIBDEVICE_FUNCTIONS: Readonly<Record<string, Intrinsic>> = (() => {
  const table: Record<string, Intrinsic> = {
    lgamma: special("lgamma"),
    erfc: special("erfc"),
    erfcx: special("erfcx"),
    popc: bitCount("popc"),
    clz: bitCount("clz"),
    ffs: bitCount("ffs"),
    tan: floatFunction("tan", ["x"], ["math:sin", "math:cos", "binary:div"], (ctx, [x], span) => ctx.values.binary("div", math(ctx, "sin", [x], span), math(ctx, "cos", [x], span), span)),
    sinh: floatFunction("sinh", ["x"], ["math:abs", "math:expm1", "math:exp", "binary:add", "binary:div", "binary:mul", "binary:sub", "binary:lt", "unary:neg", "where"], sinh),
    cosh: floatFunction("cosh", ["x"], ["math:exp", "unary:neg", "binary:add", "binary:mul"], cosh),
    log10: floatFunction("log10", ["x"], ["math:log2", "math:log1p", "binary:mul", "binary:sub", "binary:gt", "binary:lt", "binary:land", "where"], log10),
    exp10: floatFunction("exp10", ["x"], ["bitcast", "binary:and", "binary:sub", "binary:mul", "binary:add", "binary:lt", "math:exp2", "math:abs", "where", "cast"], exp10),
    trunc: floatFunction("trunc", ["x"], ["math:ceil", "math:floor", "binary:lt", "where"], (ctx, [x], span) =>
      where(ctx, ctx.values.binary("lt", x, constant(ctx, x, 0, span), span), math(ctx, "ceil", [x], span), math(ctx, "floor", [x], span), span)),
    rcp_rn: floatFunction("rcp_rn", ["x"], ["math:divRn"], (ctx, [x], span) => {
      const one = ctx.values.coerce(constant(ctx, x, 1, span), dtypeOf(x), x.type.shape, span);
      return one && math(ctx, "divRn", [one, x], span);
    }),
    isnan: floatFunction("isnan", ["x"], BITS, classify("gt")),
    isinf: floatFunction("isinf", ["x"], BITS, classify("eq")),
    finitef: floatFunction("finitef", ["x"], BITS, classify("lt")),
    // Triton's libdevice gives signbit as an int32, nonzero where the sign bit is set.
    signbit: floatFunction("signbit", ["x"], BITS, (ctx, [x], span) => {
      const negative = negativeBit(ctx, x, span);
      return negative && ctx.values.cast(negative, "i32", span);
    }),
    copysign: floatFunction("copysign", ["x", "y"], [...BITS, "math:abs", "unary:neg", "where"], (ctx, [x, y], span) => {
      const a = math(ctx, "abs", [x], span);
      return where(ctx, negativeBit(ctx, y, span), ctx.values.unary("neg", a, span), a, span);
    }),
    nextafter: floatFunction("nextafter", ["x", "y"], [...BITS, "binary:add", "binary:sub", "binary:lor", "where"], nextafter),
    float_as_int: floatFunction("float_as_int", ["x"], ["bitcast"], (ctx, [x], span) => ctx.values.floatBits(x, span)),
    int_as_float: {
      params: ["x"],
      produces: ["bitcast", ...COERCIONS],
      lower(ctx, args, span) {
        if (!arity(ctx, args, span, "int_as_float", ["x"])) return undefined;
        const [x] = all(ctx, args) ?? [];
        if (!x || !requireData(ctx, x, written("int_as_float"))) return undefined;
        if (dtypeOf(x) !== "i32" && dtypeOf(x) !== "u32") {
          ctx.log.error(Codes.operandDtype, x.span, `libdevice.int_as_float reads a 32-bit integer's bits as a float32, got ${typeToString(x.type)}`);
          return undefined;
        }
        return ctx.b.emit({ op: "bitcast", value: x }, data("f32", x.type.shape), span);
      },
    },
  };
  const aliases: Record<string, string> = {
    lgammaf: "lgamma", erfcf: "erfc", erfcxf: "erfcx", tanf: "tan", sinhf: "sinh", coshf: "cosh", log10f: "log10", exp10f: "exp10",
    truncf: "trunc", isfinited: "finitef", copysignf: "copysign", nextafterf: "nextafter",
  };
  for (const [alias, name] of Object.entries(aliases)) table[alias] = table[name];
  return table;
})();

/** The libdevice function `name` that has no tl.* function, or undefined. */
export function libdeviceFunction(name: string): Intrinsic | undefined {
  return Object.hasOwn(LIBDEVICE_FUNCTIONS, name) ? LIBDEVICE_FUNCTIONS[name] : undefined;
}

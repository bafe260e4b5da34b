// Triton's Philox as its random.py has it: tl.philox(seed, c0, c1, c2, c3, n_rounds), the four
// u32 words of Philox 4×32 on a counter the kernel chooses (FlagGems' dropout: c0 = the offset's
// low word plus the element, c1 its high word), tl.uint_to_uniform_float, the words as floats
// in [0, 1), and tl.pair_uniform_to_normal, two of those as two normal floats (Box-Muller). The words are the IR's `random` op with counters (interpreter/random.ts,
// codegen/random.ts); the float conversion is written with element-wise ops, as Triton writes it.

import type ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { PHILOX_ROUNDS } from "../ir/philox";
import { data } from "./builder";
import { COERCIONS, all, arity, constInt, requireData, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { broadcastShapes, isInt, shapeToString } from "./rules";
import { isConst } from "./values";

/** Philox's rounds beyond which nothing gets more random and a loop only costs. */
const MAX_ROUNDS = 64;

/**
 * Triton's n_rounds (a compile-time count, 10 by default): `{}` for ten, the IR's field otherwise,
 * undefined after an error.
 */
export function roundsArg(ctx: IntrinsicContext, node: ts.Expression | undefined, name: string): { rounds?: number } | undefined {
  if (!node) return {};
  const n = constInt(ctx, node, `tl.${name}'s nRounds`);
  if (n === undefined) return undefined;
  if (n < 1 || n > MAX_ROUNDS) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `tl.${name}'s nRounds must be 1 to ${MAX_ROUNDS} (Triton's default is ${PHILOX_ROUNDS}); got ${n}`);
    return undefined;
  }
  return n === PHILOX_ROUNDS ? {} : { rounds: n };
}

function isIntData(v: Value): boolean {
  return v.type.kind === "data" && isInt(v.type.dtype);
}

/** A 32-bit counter as u32 (Triton's `c.to(tl.uint32, bitcast=True)`); undefined after an error. */
function counter(ctx: IntrinsicContext, c: Value, index: number): Value | undefined {
  if (!isIntData(c) || (isConst(c) && !Number.isInteger(c.value))) {
    ctx.log.error(Codes.operandDtype, c.span, `tl.philox's c${index} must be an integer (i32 or u32), got ${typeToString(c.type)}`);
    return undefined;
  }
  if (c.type.kind === "data" && c.type.dtype === "i64" && !isConst(c)) {
    ctx.log.error(Codes.philoxWideCounter, c.span, `tl.philox's c${index} is i64: Triton then runs Philox 4×64, which Kernel Lab doesn't; split the counter into 32-bit words as FlagGems does: c0 = (offset & 0xFFFFFFFF).to(tl.uint32), c1 = ((offset >> 32) & 0xFFFFFFFF).to(tl.uint32)`);
    return undefined;
  }
  return ctx.values.cast(c, "u32", c.span);
}

const philox: Intrinsic = {
  params: ["seed", "c0", "c1", "c2", "c3", "nRounds"],
  produces: ["random", ...COERCIONS],
  lower(ctx, args, span, name) {
    if (!arity(ctx, args.slice(0, 5), span, name, 5, 5, "(seed, c0, c1, c2, c3), with { nRounds } optional")) return undefined;
    const rounds = roundsArg(ctx, args[5], name);
    const values = all(ctx, args.slice(0, 5));
    if (!values || !rounds) return undefined;
    const [seed, ...cs] = values;
    if (!isIntData(seed)) {
      ctx.log.error(Codes.operandDtype, seed.span, `tl.philox's seed must be an integer (i32, u32 or i64), got ${typeToString(seed.type)}`);
      return undefined;
    }
    if (seed.type.shape.length !== 0) {
      ctx.log.error(Codes.shapeMismatch, seed.span, `tl.philox's seed must be a scalar, got a block ${typeToString(seed.type)}; vary the counters instead`);
      return undefined;
    }
    const words = cs.map((c, i) => counter(ctx, c, i));
    if (words.some((w) => w === undefined)) return undefined;
    const shape = commonShape(ctx, words as Value[], span);
    if (!shape) return undefined;
    const [c0, c1, c2, c3] = (words as Value[]).map((w) => ctx.values.toShape(w, shape, w.span));
    if (!c0 || !c1 || !c2 || !c3) return undefined;
    const elements = ([0, 1, 2, 3] as const).map((word) =>
      ctx.b.emit({ op: "random", kind: "int", word, seed, offset: c0, counters: [c1, c2, c3], ...rounds }, data("u32", shape), span),
    );
    return { kind: "tuple", elements, span };
  },
};

/** The four counters' broadcast shape, or a KL2001 naming them. */
function commonShape(ctx: IntrinsicContext, values: readonly Value[], span: Span): Shape | undefined {
  let shape: Shape | undefined = [];
  for (const v of values) {
    shape = shape && broadcastShapes(shape, v.type.shape);
    if (!shape) {
      const shapes = values.map((c, i) => `c${i} ${shapeToString(c.type.shape)}`).join(", ");
      ctx.log.error(Codes.shapeMismatch, span, `tl.philox's counters must broadcast to one shape; got ${shapes}`);
      return undefined;
    }
  }
  return shape;
}

/**
 * Triton's uint_to_uniform_float: the word read as a signed integer, folded onto the non-negative
 * ones (`x < 0 ? -x - 1 : x`, i.e. ~x), times the largest scale that keeps the result below 1
 * (4.6566127342e-10 for 32-bit words; 1.0842020432385337e-19 for 64-bit ones), in f32.
 */
const uintToUniformFloat: Intrinsic = {
  params: ["x"],
  produces: ["cast", "const", "splat", "where", "binary:lt", "binary:mul", "unary:bitnot"],
  lower(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 1, 1, "(x), x a u32/i32 block such as tl.philox's or tl.randint's words")) return undefined;
    const x = ctx.expression(args[0]);
    if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
    if (!isIntData(x) || isConst(x)) {
      ctx.log.error(Codes.operandDtype, x.span, `tl.${name} turns random integers, u32, i32 or i64, into floats in [0, 1); got ${typeToString(x.type)}`);
      return undefined;
    }
    const wide = x.type.kind === "data" && x.type.dtype === "i64";
    const signed = wide ? x : ctx.values.cast(x, "i32", x.span);
    const negative = ctx.values.binary("lt", signed, ctx.values.constant(0, wide ? "i64" : "i32", span), span);
    const flipped = ctx.values.unary("bitnot", signed, span);
    if (!negative || !flipped) return undefined;
    const folded = ctx.b.emit({ op: "where", cond: negative, a: flipped, b: signed }, signed.type, span);
    const scale = ctx.values.constant(Math.fround(wide ? 1.0842020432385337e-19 : 4.6566127342e-10), "f32", span);
    return ctx.values.binary("mul", ctx.values.cast(folded, "f32", span), scale, span);
  },
};

/**
 * Triton's pair_uniform_to_normal(u1, u2): Box-Muller as its random.py writes it, two normal floats
 * from two uniform ones — r = sqrt(-2 log(max(1e-7, u1))), θ = 2π u2, (r cos θ, r sin θ) — in f32
 * (FlagGems' randn draws its numbers so, from tl.philox's words).
 */
const pairUniformToNormal: Intrinsic = {
  params: ["u1", "u2"],
  produces: ["cast", "const", "splat", "broadcast", "binary:mul", "math:maximum", "math:log", "math:sqrt", "math:cos", "math:sin"],
  lower(ctx, args, span, name) {
    if (!arity(ctx, args, span, name, 2, 2, "(u1, u2), uniform floats in [0, 1) such as tl.uint_to_uniform_float's")) return undefined;
    const u1 = ctx.expression(args[0]);
    const u2 = ctx.expression(args[1]);
    if (!u1 || !u2 || !requireData(ctx, u1, `tl.${name}`) || !requireData(ctx, u2, `tl.${name}`)) return undefined;
    const shape = broadcastShapes(u1.type.shape, u2.type.shape);
    if (!shape) {
      ctx.log.error(Codes.shapeMismatch, span, `tl.${name}'s u1 and u2 must broadcast to one shape; got ${shapeToString(u1.type.shape)} and ${shapeToString(u2.type.shape)}`);
      return undefined;
    }
    const a = ctx.values.coerce(u1, "f32", shape, span);
    const b = ctx.values.coerce(u2, "f32", shape, span);
    const floor = ctx.values.toShape(ctx.values.constant(Math.fround(1.0e-7), "f32", span), shape, span);
    if (!a || !b || !floor) return undefined;
    const math = (fn: "maximum" | "log" | "sqrt" | "cos" | "sin", ...operands: Value[]) => ctx.b.emit({ op: "math", fn, args: operands }, data("f32", shape), span);
    const log = math("log", math("maximum", floor, a));
    const minusTwoLog = ctx.values.binary("mul", ctx.values.constant(-2, "f32", span), log, span);
    const theta = ctx.values.binary("mul", ctx.values.constant(Math.fround(6.283185307179586), "f32", span), b, span);
    if (!minusTwoLog || !theta) return undefined;
    const r = math("sqrt", minusTwoLog);
    const first = ctx.values.binary("mul", r, math("cos", theta), span);
    const second = ctx.values.binary("mul", r, math("sin", theta), span);
    if (!first || !second) return undefined;
    return { kind: "tuple", elements: [first, second], span };
  },
};

export const PHILOX_INTRINSICS: Record<string, Intrinsic> = {
  philox,
  uintToUniformFloat,
  pairUniformToNormal,
};

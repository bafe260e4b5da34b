// Triton's random numbers (triton/language/random.py): tl.rand, tl.randn, tl.randint and
// tl.randint4x, counter-based Philox 4×32-10 on (seed, offsets). One number per offset, so the
// same (seed, offsets) draw the same numbers in any kernel, on any GPU and on the CPU.

import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { RandomKind, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { arity, constInt, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import type { Args } from "./intrinsic-args";
import { isInt } from "./rules";
import { roundsArg } from "./intrinsics-philox";

function isIntData(v: Value): boolean {
  return v.type.kind === "data" && isInt(v.type.dtype);
}

/** The seed (an i32/u32 scalar) and the offsets (an i32/u32 block or scalar); undefined after an error. */
function seedAndOffsets(ctx: IntrinsicContext, args: Args, name: string): [Value, Value] | undefined {
  const seed = ctx.expression(args[0]);
  const offsets = ctx.expression(args[1]);
  if (!seed || !offsets) return undefined;
  if (!isIntData(seed)) {
    ctx.log.error(Codes.operandDtype, seed.span, `tl.${name}'s seed must be an integer (i32 or u32), got ${typeToString(seed.type)}`);
    return undefined;
  }
  if (seed.type.shape.length !== 0) {
    ctx.log.error(Codes.shapeMismatch, seed.span, `tl.${name}'s seed must be a scalar, got a block ${typeToString(seed.type)}; vary the offsets instead`);
    return undefined;
  }
  if (!isIntData(offsets)) {
    ctx.log.error(Codes.operandDtype, offsets.span, `tl.${name}'s offsets must be integers (i32 or u32), got ${typeToString(offsets.type)}; e.g. pid * BLOCK + tl.arange(0, BLOCK)`);
    return undefined;
  }
  return [seed, offsets];
}

function random(kind: RandomKind, words: boolean): Intrinsic {
  // tl.randint4x's third positional argument is the word (Kernel Lab's one-word form); n_rounds a keyword.
  const params = words ? ["seed", "offset", "word", "nRounds"] : ["seed", "offset", "nRounds"];
  return {
    params,
    produces: ["random", "const", "cast", "splat", "binary:shr"],
    lower(ctx, args, span, name) {
      const signature = words ? "(seed, offsets) for the four words, or (seed, offsets, word) with word 0, 1, 2 or 3" : "(seed, offsets)";
      const rounds = roundsArg(ctx, args[params.indexOf("nRounds")], name);
      if (rounds === undefined) return undefined;
      const positional = args.slice(0, words ? 3 : 2);
      // tl.randint4x(seed, offsets) is Triton's: the four words as a tuple.
      const allWords = words && positional[2] === undefined;
      if (!arity(ctx, positional, span, name, words ? 2 : 2, words ? 3 : 2, signature)) return undefined;
      const operands = seedAndOffsets(ctx, args, name);
      if (!operands) return undefined;
      const wide = fullCounter(ctx, operands[1], span);
      if (!wide) return undefined;
      if (allWords) {
        const [seed, offset] = operands;
        const elements = ([0, 1, 2, 3] as const).map((word) => ctx.b.emit({ op: "random", kind, word, seed, offset, ...wide, ...rounds }, data("u32", offset.type.shape), span));
        return { kind: "tuple", elements, span };
      }
      const word = words ? wordArg(ctx, args, name) : 0;
      if (word === undefined) return undefined;
      const [seed, offset] = operands;
      const dtype = kind === "int" ? "u32" : "f32";
      return ctx.b.emit({ op: "random", kind, word, seed, offset, ...wide, ...rounds }, data(dtype, offset.type.shape), span);
    },
  };
}

/**
 * Triton 3's randint4x of an int64 offset: counter (its low word, its high word, 0, 0). A 32-bit
 * offset keeps (offset, 0, 0, 0). `{}` or the counters; undefined after an error.
 */
function fullCounter(ctx: IntrinsicContext, offset: Value, span: Span): { counters?: [Value, Value, Value] } | undefined {
  if (offset.type.kind !== "data" || offset.type.dtype !== "i64") return {};
  const high = ctx.values.binary("shr", offset, ctx.b.constant(32, "i64", span), span);
  if (!high) return undefined;
  const zero = ctx.values.toShape(ctx.b.constant(0, "u32", span), offset.type.shape, span);
  if (!zero) return undefined;
  return { counters: [ctx.values.cast(high, "u32", span), zero, zero] };
}

function wordArg(ctx: IntrinsicContext, args: Args, name: string): 0 | 1 | 2 | 3 | undefined {
  const word = constInt(ctx, args[2], `tl.${name}'s word`);
  if (word === undefined) return undefined;
  if (word < 0 || word > 3) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(args[2]!), `Philox gives four words, 0 to 3; got ${word} (Triton's third argument is n_rounds: write it { nRounds: ${word} })`);
    return undefined;
  }
  return word as 0 | 1 | 2 | 3;
}

export const RANDOM_INTRINSICS: Record<string, Intrinsic> = {
  rand: random("uniform", false),
  randn: random("normal", false),
  randint: random("int", false),
  randint4x: random("int", true),
};

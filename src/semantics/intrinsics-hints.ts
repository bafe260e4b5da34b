// Compiler hints and compile-time checks (Triton's "Compiler Hint Ops" and static debug ops):
// tl.multipleOf, tl.maxContiguous and tl.maxConstancy give back their input (hints to Triton's
// code generator; Kernel Lab's finds contiguity itself, codegen/contiguity.ts), tl.assume checks
// its condition and emits nothing, tl.debugBarrier synchronises the program's invocations, and
// tl.staticAssert / tl.staticPrint act while compiling, on constexprs.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import { typeToString } from "../ir/ir";
import { isAggregate, type Lowered } from "./aggregates";
import { typeText } from "./dtypes";
import { arity, constInt, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { isConst } from "./values";

/** A hint about `input` (Triton's `values`: a constexpr or a tuple of them, one per axis): `input` itself. */
function hint(what: string): Intrinsic {
  return {
    params: ["input", "values"],
    produces: [],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, `(input, values) — values a constexpr, or one per axis: [${what}]`)) return undefined;
      const input = ctx.expression(args[0]);
      if (!input || !hintValues(ctx, args[1]!, name)) return undefined;
      return { ...input, span };
    },
  };
}

function hintValues(ctx: IntrinsicContext, node: ts.Expression, name: string): boolean {
  const elements = ts.isArrayLiteralExpression(node) ? node.elements : [node];
  return elements.every((e) => constInt(ctx, e, `tl.${name}'s values`) !== undefined);
}

/** The text a compile-time message shows for a value: a constant's value, else its type (as Triton prints a tensor). */
function shown(ctx: IntrinsicContext, node: ts.Expression, value: Lowered | undefined): string {
  if (ts.isStringLiteralLike(node)) return node.text;
  const text = node.getText(node.getSourceFile());
  if (!value) return text;
  if (isAggregate(value)) return `${text}: ${value.kind === "tuple" ? `a tuple of ${value.elements.length}` : value.kind === "dtype" ? typeText(value.type) : "a block pointer"}`;
  return isConst(value) ? `${text} = ${value.value}` : `${text}: ${typeToString(value.type)}`;
}

export const HINT_INTRINSICS: Record<string, Intrinsic> = {
  // Triton's `if tl.constexpr(x.dtype == tl.float16):` marks a condition known while compiling: the
  // value itself (a constant or a dtype), or KL1041 where it is known only at run time.
  constexpr: {
    params: ["value"],
    produces: [],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(value) — a value known while compiling")) return undefined;
      const value = ctx.lowered(args[0]);
      if (!value || isAggregate(value) || isConst(value)) return value;
      ctx.log.error(Codes.constantRequired, ctx.span(args[0]!), `tl.constexpr(…) marks a value known while compiling, but this is a run-time ${typeToString(value.type)}; make it from constexprs, literals and dtypes, or drop tl.constexpr for a run-time condition`);
      return undefined;
    },
  },

  multipleOf: hint("16"),
  maxContiguous: hint("BLOCK"),
  maxConstancy: hint("4"),

  assume: {
    params: ["cond"],
    produces: [],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 1, "(cond)")) return undefined;
      const cond = ctx.expression(args[0]);
      if (!cond) return undefined;
      if (cond.type.kind === "pointer" || cond.type.dtype !== "bool") {
        ctx.log.error(Codes.operandDtype, cond.span, `tl.assume's condition must be a comparison (a mask), got ${typeToString(cond.type)}`);
        return undefined;
      }
      // A promise to Triton's optimiser; Kernel Lab's code generator doesn't use it.
      return "void";
    },
  },

  debugBarrier: {
    params: [],
    produces: ["stmt:barrier"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 0, 0, "()")) return undefined;
      ctx.b.push({ kind: "barrier", span });
      return "void";
    },
  },

  staticAssert: {
    params: ["cond", "msg"],
    produces: [],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, "(cond, msg?)")) return undefined;
      const cond = ctx.expression(args[0]);
      const msg = args[1];
      if (msg && !ts.isStringLiteralLike(msg)) {
        ctx.log.error(Codes.debugText, ctx.span(msg), 'tl.staticAssert\'s message must be a string literal, e.g. tl.staticAssert(BLOCK >= 16, "BLOCK is too small")');
        return undefined;
      }
      if (!cond) return undefined;
      if (!isConst(cond)) {
        ctx.log.error(Codes.staticAssert, cond.span, `tl.staticAssert's condition must be a compile-time constant, made of constexprs, literals and module constants; this is a run-time ${typeToString(cond.type)} — check it when the kernel runs with tl.deviceAssert`);
        return undefined;
      }
      if (cond.value === 0) {
        const text = args[0]!.getText(args[0]!.getSourceFile());
        ctx.log.error(Codes.staticAssert, span, `tl.staticAssert failed: ${msg ? (msg as ts.StringLiteral).text : text}${constexprsOf(ctx, args)}`);
      }
      return "void";
    },
  },

  staticPrint: {
    params: ["...values"],
    produces: [],
    lower(ctx, args, span) {
      const parts = (args as ts.Expression[]).map((node) => shown(ctx, node, ts.isStringLiteralLike(node) ? undefined : ctx.lowered(node)));
      ctx.log.info(Codes.staticPrint, span, `tl.staticPrint: ${parts.join(" ")}`);
      return "void";
    },
  },
};

/** The constexprs a failed condition names, with their values (what made it false). */
function constexprsOf(ctx: IntrinsicContext, args: Args): string {
  const node = args[0]!;
  const names = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n)) names.add(n.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  const values = [...names].flatMap((n) => {
    const binding = ctx.lookupValue(n);
    return binding && isConst(binding) ? [`${n} = ${binding.value}`] : [];
  });
  return values.length > 0 ? ` (${values.join(", ")})` : "";
}

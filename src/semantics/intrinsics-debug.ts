// tl.devicePrint and tl.deviceAssert (Triton's tl.device_print / tl.device_assert): statements
// that leave records for the harness, which prints them after the launch or fails the run.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import { isConst } from "./values";
import { all, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";

/** Values one tl.devicePrint may print (each gets its own lines). */
export const MAX_PRINT_VALUES = 8;
/** Elements of one printed block: each is a line per program, and the GPU's buffer holds 2047. */
export const MAX_PRINT_ELEMENTS = 1024;

export const DEBUG_INTRINSICS: Record<string, Intrinsic> = {
  devicePrint: {
    params: ["prefix", "...args", "hex"],
    // Values print in decimal (Triton's hex=True prints hexadecimal).
    ignored: ["hex"],
    produces: ["stmt:print"],
    lower(ctx, args, span) {
      const prefix = stringArg(ctx, args[0], span, "tl.devicePrint's prefix", "tl.devicePrint(\"x\", x)");
      if (prefix === undefined) return undefined;
      const rest = args.slice(1) as ts.Expression[];
      if (rest.length > MAX_PRINT_VALUES) {
        ctx.log.error(Codes.printTooManyValues, ctx.span(rest[MAX_PRINT_VALUES]), `tl.devicePrint prints at most ${MAX_PRINT_VALUES} values; got ${rest.length} — split it into several calls`);
        return undefined;
      }
      const values = all(ctx, rest);
      if (!values || !values.every((v, k) => printable(ctx, v, rest[k]))) return undefined;
      const names = rest.map((node) => node.getText(node.getSourceFile()));
      ctx.b.push({ kind: "print", span, prefix, values, names });
      return "void";
    },
  },

  deviceAssert: {
    params: ["cond", "msg"],
    produces: ["stmt:assert"],
    lower(ctx, args, span) {
      if (args.length < 1 || args.length > 2) {
        ctx.log.error(Codes.intrinsicArgs, span, `tl.deviceAssert takes (condition, message?); got ${args.length} argument${args.length === 1 ? "" : "s"}`);
        return undefined;
      }
      const message = args[1] ? stringArg(ctx, args[1], span, "tl.deviceAssert's message", "tl.deviceAssert(x >= 0, \"x is negative\")") : "assertion failed";
      if (message === undefined) return undefined;
      const cond = ctx.expression(args[0]);
      if (!cond) return undefined;
      if (cond.type.kind === "pointer" || cond.type.dtype !== "bool") {
        ctx.log.error(Codes.assertCondition, cond.span, `tl.deviceAssert's condition must be a mask (a comparison such as x >= 0), got ${typeToString(cond.type)}`);
        return undefined;
      }
      if (!small(ctx, cond, "tl.deviceAssert's condition")) return undefined;
      ctx.b.push({ kind: "assert", span, cond, message });
      return "void";
    },
  },
};

/** A string literal, or a template (Python's f-string) of constexprs formatted while compiling; undefined after a diagnostic. */
export function stringArg(ctx: IntrinsicContext, node: ts.Expression | undefined, span: ReturnType<IntrinsicContext["span"]>, what: string, example: string, runTime = `pass it as a value instead, e.g. ${example}`): string | undefined {
  if (node && ts.isTemplateExpression(node)) return formatted(ctx, node, what, runTime);
  if (!node || !ts.isStringLiteralLike(node)) {
    ctx.log.error(Codes.debugText, node ? ctx.span(node) : span, `${what} must be a string literal, e.g. ${example}`);
    return undefined;
  }
  return node.text;
}

/**
 * A template (Python's f-string) formatted while compiling, as Triton formats an f-string: each value a constexpr
 * (a bool as True / False, an integral float with its .0); a run-time value can't be, and is refused here.
 */
function formatted(ctx: IntrinsicContext, node: ts.TemplateExpression, what: string, runTime: string): string | undefined {
  let text = node.head.text;
  for (const part of node.templateSpans) {
    const v = ctx.expression(part.expression);
    if (!v) return undefined;
    if (!isConst(v) || v.type.kind !== "data" || v.type.shape.length > 0) {
      ctx.log.error(Codes.debugText, ctx.span(part.expression), `${what} is an f-string, formatted while compiling, and ${part.expression.getText()} is a run-time value, not a constexpr; ${runTime}`);
      return undefined;
    }
    const dtype = v.type.dtype;
    text += (dtype === "bool" ? (v.value ? "True" : "False") : dtype.startsWith("f") && Number.isInteger(v.value) ? `${v.value}.0` : String(v.value)) + part.literal.text;
  }
  return text;
}

function printable(ctx: IntrinsicContext, v: Value, node: ts.Expression): boolean {
  if (v.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, ctx.span(node), `tl.devicePrint prints values, and ${node.getText()} is ${typeToString(v.type)} — print the offsets, or tl.load the elements`);
    return false;
  }
  return small(ctx, v, `tl.devicePrint's value ${node.getText()}`);
}

function small(ctx: IntrinsicContext, v: Value, what: string): boolean {
  if (numel(v.type.shape) <= MAX_PRINT_ELEMENTS) return true;
  ctx.log.error(Codes.printBlockTooLarge, v.span, `${what} is a block of ${numel(v.type.shape)} elements (${typeToString(v.type)}); the limit per call is ${MAX_PRINT_ELEMENTS} — print a smaller block, or a reduction such as tl.max of it`);
  return false;
}


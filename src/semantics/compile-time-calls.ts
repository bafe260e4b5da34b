// The kernel-lab package's size functions called in a kernel: evaluated while compiling, on
// constexprs and literals, as Triton runs `BLOCK_K: tl.constexpr = triton.next_power_of_2(ROTARY_DIM)`
// (flash-attention's rotary.py) as Python on the constexpr. The Python front end writes
// `triton.next_power_of_2` as `nextPowerOf2`.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { LoweringContext } from "./context";
import { plainFunctionMessage } from "./device-functions";
import { isInt } from "./rules";
import { isConst } from "./values";

const COMPILE_TIME_FUNCTIONS: Readonly<Record<string, (n: number) => number>> = {
  nextPowerOf2: smallestPowerOf2AtLeast,
  next_power_of_2: smallestPowerOf2AtLeast,
};

function smallestPowerOf2AtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** The call's constant value; "none" where the callee isn't one of the package's size functions (a local or the file's own function of that name). */
export function compileTimeCall(ctx: LoweringContext, node: ts.CallExpression): Value | undefined | "none" {
  const callee = node.expression;
  if (!ts.isIdentifier(callee) || !Object.hasOwn(COMPILE_TIME_FUNCTIONS, callee.text)) return "none";
  if (ctx.lookup(callee.text) || plainFunctionMessage(ctx, callee.text)) return "none";
  const span = ctx.span(node);
  if (node.arguments.length !== 1) {
    ctx.log.error(Codes.unsupportedCall, span, `${callee.text}(n) takes one integer, got ${node.arguments.length} arguments`);
    return undefined;
  }
  const n = ctx.expression(node.arguments[0]);
  if (!n) return undefined;
  if (!isConst(n) || n.type.kind !== "data" || n.type.shape.length > 0 || !isInt(n.type.dtype)) {
    ctx.log.error(Codes.constantRequired, n.span, `${callee.text} is evaluated while compiling: its argument must be a compile-time integer (a constexpr or a literal), got ${typeToString(n.type)}`);
    return undefined;
  }
  return ctx.b.constant(COMPILE_TIME_FUNCTIONS[callee.text](n.value), "i32", span);
}

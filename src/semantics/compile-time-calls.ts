// The kernel-lab package's size functions called in a kernel: evaluated while compiling, on
// constexprs and literals, as Triton runs `BLOCK_K: tl.constexpr = triton.next_power_of_2(ROTARY_DIM)`
// (flash-attention's rotary.py) as Python on the constexpr. The Python front end writes
// `triton.next_power_of_2` as `nextPowerOf2`, triton.language.standard's `_log2` (the axes of a
// power-of-2 block, which Triton's sort and TransformerEngine's argsort reshape by) as `log2Floor`,
// and triton.language.core's `get_int_dtype(bitwidth, signed)` (the integer dtype a float is
// bitcast to for a compare-and-swap) as `intDtype`.

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { LoweringContext } from "./context";
import { plainFunctionMessage } from "./device-functions";
import { isInt } from "./rules";
import { isConst } from "./values";
import type { Lowered } from "./aggregates";
import { dtypeValue, type TritonDtypeName } from "./dtypes";

const COMPILE_TIME_FUNCTIONS: Readonly<Record<string, (n: number) => number>> = {
  nextPowerOf2: smallestPowerOf2AtLeast,
  next_power_of_2: smallestPowerOf2AtLeast,
  log2Floor: largestExponentAtMost,
};

/** Triton's `_log2`: the exponent of the largest power of 2 at most n (0 for n ≤ 1), by halving as it does. */
function largestExponentAtMost(n: number): number {
  let e = 0;
  for (let m = Math.trunc(n); m > 1; m = Math.floor(m / 2)) e++;
  return e;
}

function smallestPowerOf2AtLeast(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** The call's constant value; "none" where the callee isn't one of the package's size functions (a local or the file's own function of that name). */
export function compileTimeCall(ctx: LoweringContext, node: ts.CallExpression): Lowered | undefined | "none" {
  const callee = node.expression;
  if (!ts.isIdentifier(callee) || !(Object.hasOwn(COMPILE_TIME_FUNCTIONS, callee.text) || callee.text === "intDtype")) return "none";
  if (ctx.lookup(callee.text) || plainFunctionMessage(ctx, callee.text)) return "none";
  const span = ctx.span(node);
  if (callee.text === "intDtype") return intDtype(ctx, node, span);
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

const INT_DTYPES: Readonly<Record<string, TritonDtypeName>> = { "8,1": "int8", "16,1": "int16", "32,1": "int32", "64,1": "int64", "8,0": "uint8", "16,0": "uint16", "32,0": "uint32", "64,0": "uint64", "1,0": "int1", "1,1": "int1" };

/** `intDtype(bitwidth, signed)` (Triton's `core.get_int_dtype`, keywords in the trailing object): the integer dtype, a compile-time value. */
function intDtype(ctx: LoweringContext, node: ts.CallExpression, span: Span): Lowered | undefined {
  const given = new Map<string, ts.Expression>();
  const names = ["bitwidth", "signed"];
  node.arguments.forEach((a, i) => {
    if (ts.isObjectLiteralExpression(a) && i === node.arguments.length - 1) {
      for (const p of a.properties) if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) given.set(p.name.text, p.initializer);
    } else if (i < names.length) given.set(names[i], a);
  });
  const read = (name: string): number | undefined => {
    const e = given.get(name);
    if (!e) {
      ctx.log.error(Codes.unsupportedCall, span, `intDtype(bitwidth, signed) (Triton's get_int_dtype) needs ${name}`);
      return undefined;
    }
    const v = ctx.expression(e);
    if (!v) return undefined;
    if (!isConst(v) || v.type.kind !== "data" || v.type.shape.length > 0) {
      ctx.log.error(Codes.constantRequired, v.span, `intDtype is evaluated while compiling: its ${name} must be known while compiling (a constexpr, a literal or x.dtype.primitive_bitwidth), got ${typeToString(v.type)}`);
      return undefined;
    }
    return Number(v.value);
  };
  const bits = read("bitwidth");
  const signed = read("signed");
  if (bits === undefined || signed === undefined) return undefined;
  const name = INT_DTYPES[`${bits},${signed ? 1 : 0}`];
  if (!name) {
    ctx.log.error(Codes.unsupportedCall, span, `there is no ${signed ? "signed" : "unsigned"} integer dtype of ${bits} bits (Triton's get_int_dtype takes 1, 8, 16, 32 or 64)`);
    return undefined;
  }
  return dtypeValue({ of: "scalar", name }, span);
}

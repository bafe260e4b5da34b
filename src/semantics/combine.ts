// A combine function of tl.associativeScan and tl.reduce: an inline arrow `(a, b) => expression`,
// or a device function of two parameters passed by name (Triton's `combine_fn=reduce_mul`, a
// @triton.jit function), lowered once, with its parameters bound to placeholder scalars
// (combineArg), into a template that code generation and the interpreter evaluate per combine
// step. It may use only its two parameters, constants, operators and element-wise tl.* functions
// (as Triton's combine_fn, which can't capture values of the calling kernel either).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { BinaryFn, Combine, Dtype, Stmt, Value } from "../ir/ir";
import { operandsOf, typeToString } from "../ir/ir";
import { data } from "./builder";
import type { Binding } from "./context";
import type { IntrinsicContext } from "./intrinsic-args";
import type { KernelSource } from "../syntax/parse";
import { describeAggregate, isAggregate, type Lowered } from "./aggregates";

/** Ops a combine expression may contain besides its parameters. */
const ELEMENTWISE: ReadonlySet<Value["op"]> = new Set(["const", "binary", "unary", "math", "where", "cast", "splat"]);

/** The combine function `node` of a block of `dtype`, or undefined after a diagnostic. */
export function lowerCombine(ctx: IntrinsicContext, node: ts.Expression, dtype: Dtype, what: string): Combine | undefined {
  let fn: ts.Expression = node;
  while (ts.isParenthesizedExpression(fn)) fn = fn.expression;
  const helper = ts.isIdentifier(fn) ? ctx.helperNamed(fn.text) : undefined;
  if (helper) return helperCombine(ctx, node, helper, dtype, what);
  if (!ts.isArrowFunction(fn)) {
    ctx.log.error(Codes.combineFunction, ctx.span(node), `${what}'s combine function must be an inline arrow function of two parameters, e.g. (a, b) => a + b, or the name of a device function of two parameters made with kernel(…)`);
    return undefined;
  }
  const params = fn.parameters;
  if (params.length !== 2) {
    const span = params.length > 2 ? ctx.span(params[2]) : ctx.span(fn);
    ctx.log.error(Codes.combineFunction, span, `${what}'s combine function takes exactly two parameters (a, b); this one has ${params.length}`);
    return undefined;
  }
  for (const p of params) {
    if (!ts.isIdentifier(p.name) || p.initializer || p.dotDotDotToken) {
      ctx.log.error(Codes.combineFunction, ctx.span(p), `a combine function's parameters are plain names, e.g. (a, b) => a + b`);
      return undefined;
    }
  }
  if (ts.isBlock(fn.body)) {
    ctx.log.error(Codes.combineFunction, ctx.span(fn.body), `a combine function's body is one expression of its parameters, not statements: write (a, b) => a + b`);
    return undefined;
  }
  const body = fn.body;
  let args: [Value, Value] | undefined;
  let result: Value | undefined;
  // The template's values are emitted into a list that is dropped: they live only in the template.
  const own = ctx.b.collect(() => {
    const scalar = data(dtype, []);
    args = [ctx.b.emit({ op: "combineArg", index: 0 }, scalar, ctx.span(params[0])), ctx.b.emit({ op: "combineArg", index: 1 }, scalar, ctx.span(params[1]))];
    const bindings = new Map<string, Binding>(params.map((p, i) => [(p.name as ts.Identifier).text, { kind: "value", value: args![i], declaredAt: ctx.span(p), what: "parameter" }]));
    ctx.inScope(() => (result = ctx.expression(body)), bindings);
  });
  return template(ctx, own, args, result, dtype, ctx.span(body), what);
}

/**
 * The combine function `helper` (a kernel(…) of two parameters, named at `node`): its body inlined
 * once with the parameters bound to the placeholders, as a call would inline it.
 */
function helperCombine(ctx: IntrinsicContext, node: ts.Expression, helper: KernelSource, dtype: Dtype, what: string): Combine | undefined {
  const defined = [{ span: helper.nameSpan, message: `'${helper.name}' is defined here` }];
  if (helper.signature.length !== 2) {
    // Triton's tl.reduce over a tuple of blocks (Welford's mean, m2 and count) takes a combine function of 2·n parameters.
    const tuple = helper.signature.length > 2 && helper.signature.length % 2 === 0 ? `; a combine function of ${helper.signature.length / 2} values a side, for a tuple of blocks, isn't supported: combine one block at a time` : "";
    ctx.log.error(Codes.combineFunction, ctx.span(node), `${what}'s combine function takes exactly two parameters (a, b); ${helper.name} has ${helper.signature.length}${tuple}`, defined);
    return undefined;
  }
  const span = ctx.span(node);
  let args: [Value, Value] | undefined;
  let result: Lowered | undefined;
  const own = ctx.b.collect(() => {
    const scalar = data(dtype, []);
    args = [ctx.b.emit({ op: "combineArg", index: 0 }, scalar, helper.signature[0].span), ctx.b.emit({ op: "combineArg", index: 1 }, scalar, helper.signature[1].span)];
    result = ctx.inlineHelper(helper, args, span);
  });
  if (result && isAggregate(result)) {
    ctx.log.error(Codes.combineFunction, span, `${what}'s combine function must return one scalar, but ${helper.name} returns ${describeAggregate(result)}`, defined);
    return undefined;
  }
  return template(ctx, own, args, result, dtype, span, what);
}

/** The template of a lowered combine function, once its values are checked; `own` are the statements its body emitted. */
function template(ctx: IntrinsicContext, own: readonly Stmt[], args: [Value, Value] | undefined, result: Value | undefined, dtype: Dtype, span: Span, what: string): Combine | undefined {
  const ownIds = new Set(own.flatMap((s) => (s.kind === "let" ? [s.value.id] : [])));
  if (!args || !result || !checkTemplate(ctx, result, ownIds, what)) return undefined;
  if (result.type.kind !== "data" || result.type.shape.length !== 0 || result.type.dtype !== dtype) {
    ctx.log.error(Codes.combineFunction, span, `${what}'s combine function must return a ${dtype} scalar like its operands, but returns ${typeToString(result.type)}${result.type.kind === "data" && result.type.dtype !== dtype ? `; convert it with tl.cast(…, "${dtype}")` : ""}`);
    return undefined;
  }
  return { args, result };
}

/**
 * Every value of the template is element-wise and every leaf a parameter or a constant; a value
 * not computed inside the body (`own`) comes from the kernel: a capture.
 */
function checkTemplate(ctx: IntrinsicContext, root: Value, own: ReadonlySet<number>, what: string): boolean {
  const seen = new Set<number>();
  const visit = (v: Value): boolean => {
    if (seen.has(v.id)) return true;
    seen.add(v.id);
    if (v.op === "combineArg" || v.op === "const") return true;
    const captured = !own.has(v.id) || v.op === "param" || v.op === "readVar";
    if (captured || !ELEMENTWISE.has(v.op)) {
      const message = captured
        ? `${what}'s combine function uses a value of the kernel; it may use only its two parameters and constants (combine that value into the block first)`
        : `${what}'s combine function may use only its parameters, constants, operators and element-wise tl.* functions; tl.${v.op} is not element-wise`;
      ctx.log.error(Codes.combineFunction, v.span, message);
      return false;
    }
    return operandsOf(v).every(visit);
  };
  return visit(root);
}

/** The template of `(a, b) => a <fn> b` (tl.cumsum, tl.cumprod). */
export function binaryCombine(ctx: IntrinsicContext, fn: BinaryFn, dtype: Dtype, span: Value["span"]): Combine {
  const scalar = data(dtype, []);
  let combine: Combine | undefined;
  ctx.b.collect(() => {
    const a = ctx.b.emit({ op: "combineArg", index: 0 }, scalar, span);
    const b = ctx.b.emit({ op: "combineArg", index: 1 }, scalar, span);
    combine = { args: [a, b], result: ctx.b.emit({ op: "binary", fn, lhs: a, rhs: b }, scalar, span) };
  });
  return combine!;
}

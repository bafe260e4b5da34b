// A combine function of tl.associativeScan and tl.reduce: an inline arrow `(a, b) => expression`,
// or a device function of two parameters passed by name (Triton's `combine_fn=reduce_mul`, a
// @triton.jit function), lowered once, with its parameters bound to placeholder scalars
// (combineArg), into a template that code generation and the interpreter evaluate per combine
// step. It may use only its parameters, constants, operators and element-wise tl.* functions
// (as Triton's combine_fn, which can't capture values of the calling kernel either). For a tuple
// of n blocks (Triton's multi-operand form: Welford's mean, m2 and weight; a value and its index)
// it takes 2·n parameters and returns n values.

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

/**
 * The combine function `node` of blocks of `dtypes` (one block, or Triton's tuple of them: then
 * 2·n parameters, the left side's n values and the right side's, and a tuple of n results), or
 * undefined after a diagnostic.
 */
export function lowerCombine(ctx: IntrinsicContext, node: ts.Expression, dtypes: readonly Dtype[], what: string): Combine | undefined {
  let fn: ts.Expression = node;
  while (ts.isParenthesizedExpression(fn)) fn = fn.expression;
  const helper = ts.isIdentifier(fn) ? ctx.helperNamed(fn.text) : undefined;
  if (helper) return helperCombine(ctx, node, helper, dtypes, what);
  const n = dtypes.length;
  if (!ts.isArrowFunction(fn)) {
    const example = n === 1 ? "(a, b) => a + b" : "(a0, a1, b0, b1) => [a0 + b0, a1 + b1]";
    ctx.log.error(Codes.combineFunction, ctx.span(node), `${what}'s combine function must be an inline arrow function of ${2 * n} parameters, e.g. ${example}, or the name of a device function of ${2 * n} parameters made with kernel(…)`);
    return undefined;
  }
  const params = fn.parameters;
  if (params.length !== 2 * n) {
    const span = params.length > 2 * n ? ctx.span(params[2 * n]) : ctx.span(fn);
    if (n === 1) ctx.log.error(Codes.combineFunction, span, `${what}'s combine function takes exactly two parameters (a, b); this one has ${params.length}${tupleHint(params.length)}`);
    else ctx.log.error(Codes.combineResults, span, `${what} of ${n} blocks takes a combine function of ${2 * n} parameters (the left side's ${n} values, then the right side's); this one has ${params.length}`);
    return undefined;
  }
  for (const p of params) {
    if (!ts.isIdentifier(p.name) || p.initializer || p.dotDotDotToken) {
      ctx.log.error(Codes.combineFunction, ctx.span(p), `a combine function's parameters are plain names, e.g. (a, b) => a + b`);
      return undefined;
    }
  }
  if (ts.isBlock(fn.body)) {
    ctx.log.error(Codes.combineFunction, ctx.span(fn.body), `a combine function's body is one expression of its parameters, not statements: write ${n === 1 ? "(a, b) => a + b" : "(a0, a1, b0, b1) => [a0 + b0, a1 + b1]"}`);
    return undefined;
  }
  const body = fn.body;
  let args: Value[] | undefined;
  let result: Lowered | undefined;
  // The template's values are emitted into a list that is dropped: they live only in the template.
  const own = ctx.b.collect(() => {
    args = placeholders(ctx, dtypes, params.map((p) => ctx.span(p)));
    const bindings = new Map<string, Binding>(params.map((p, i) => [(p.name as ts.Identifier).text, { kind: "value", value: args![i], declaredAt: ctx.span(p), what: "parameter" }]));
    ctx.inScope(() => (result = n === 1 ? ctx.expression(body) : ctx.lowered(body)), bindings);
  });
  const results = result && resultsOf(ctx, result, n, ctx.span(body), what, "it", []);
  return template(ctx, own, args, results, dtypes, ctx.span(body), what);
}

/** A 4- or 6-parameter combine function given one block: the tuple form it is written for. */
function tupleHint(count: number): string {
  return count > 2 && count % 2 === 0 ? `; a combine function of ${count / 2} values a side combines a tuple of ${count / 2} blocks: pass them together, e.g. tl.reduce((mean, m2, weight), axis, combine_fn)` : "";
}

/** The 2·n placeholder parameters of a combine function of blocks of `dtypes`, at `spans`. */
function placeholders(ctx: IntrinsicContext, dtypes: readonly Dtype[], spans: readonly Span[]): Value[] {
  return [...dtypes, ...dtypes].map((d, i) => ctx.b.emit({ op: "combineArg", index: i }, data(d, []), spans[i]));
}

/**
 * The n results of a combine function's value: the value itself for one block, a tuple of n
 * values for n. `who` names the function in the message; `related` says where it returns.
 */
function resultsOf(ctx: IntrinsicContext, result: Lowered, n: number, span: Span, what: string, who: string, related: { span: Span; message: string }[]): Value[] | undefined {
  if (n === 1) {
    if (!isAggregate(result)) return [result];
    ctx.log.error(Codes.combineFunction, span, `${what}'s combine function must return one scalar, but ${who} returns ${describeAggregate(result)}`, related);
    return undefined;
  }
  if (isAggregate(result) && result.kind === "tuple" && result.elements.length === n && result.elements.every((e) => !isAggregate(e))) return result.elements as Value[];
  const returned = isAggregate(result) ? describeAggregate(result) : "one value";
  ctx.log.error(Codes.combineResults, span, `${what} of ${n} blocks needs a combine function that returns ${n} values, one per block (return ${Array.from({ length: n }, (_, i) => `r${i}`).join(", ")}), but ${who} returns ${returned}`, related);
  return undefined;
}

/**
 * The combine function `helper` (a kernel(…) of 2·n parameters, named at `node`): its body inlined
 * once with the parameters bound to the placeholders, as a call would inline it.
 */
function helperCombine(ctx: IntrinsicContext, node: ts.Expression, helper: KernelSource, dtypes: readonly Dtype[], what: string): Combine | undefined {
  const defined = [{ span: helper.nameSpan, message: `'${helper.name}' is defined here` }];
  const n = dtypes.length;
  if (helper.signature.length !== 2 * n) {
    const count = helper.signature.length;
    if (n === 1) ctx.log.error(Codes.combineFunction, ctx.span(node), `${what}'s combine function takes exactly two parameters (a, b); ${helper.name} has ${count}${tupleHint(count)}`, defined);
    else ctx.log.error(Codes.combineResults, ctx.span(node), `${what} of ${n} blocks takes a combine function of ${2 * n} parameters (the left side's ${n} values, then the right side's); ${helper.name} has ${count}`, defined);
    return undefined;
  }
  const span = ctx.span(node);
  let args: Value[] | undefined;
  let result: Lowered | undefined;
  const own = ctx.b.collect(() => {
    args = placeholders(ctx, dtypes, helper.signature.map((p) => p.span));
    result = ctx.inlineHelper(helper, args, span);
  });
  const returned = returnSpan(ctx, helper);
  const related = returned ? [{ span: returned, message: `${helper.name} returns this` }, ...defined] : defined;
  const results = result && resultsOf(ctx, result, n, span, what, helper.name, related);
  return template(ctx, own, args, results, dtypes, span, what);
}

/** Where `helper`'s (last) return statement's value is written, for a message about what it returns. */
function returnSpan(ctx: IntrinsicContext, helper: KernelSource): Span | undefined {
  let found: ts.Expression | undefined;
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && n !== helper.fn) return;
    if (ts.isReturnStatement(n) && n.expression) found = n.expression;
    ts.forEachChild(n, visit);
  };
  visit(helper.fn);
  return found && ctx.span(found);
}

/** The template of a lowered combine function, once its values are checked; `own` are the statements its body emitted. */
function template(ctx: IntrinsicContext, own: readonly Stmt[], args: readonly Value[] | undefined, results: readonly Value[] | undefined, dtypes: readonly Dtype[], span: Span, what: string): Combine | undefined {
  const ownIds = new Set(own.flatMap((s) => (s.kind === "let" ? [s.value.id] : [])));
  if (!args || !results || !results.every((r) => checkTemplate(ctx, r, ownIds, what))) return undefined;
  for (const [i, result] of results.entries()) {
    const dtype = dtypes[i];
    if (result.type.kind !== "data" || result.type.shape.length !== 0 || result.type.dtype !== dtype) {
      const which = results.length === 1 ? "" : ` its result ${i}`;
      const like = results.length === 1 ? "like its operands" : `like block ${i}`;
      ctx.log.error(Codes.combineFunction, results.length === 1 ? span : result.span, `${what}'s combine function must return${which} a ${dtype} scalar ${like}, but returns ${typeToString(result.type)}${result.type.kind === "data" && result.type.dtype !== dtype ? `; convert it with tl.cast(…, "${dtype}")` : ""}`);
      return undefined;
    }
  }
  return { args, results };
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
        ? `${what}'s combine function uses a value of the kernel; it may use only its parameters and constants (combine that value into the block first)`
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
    combine = { args: [a, b], results: [ctx.b.emit({ op: "binary", fn, lhs: a, rhs: b }, scalar, span)] };
  });
  return combine!;
}

// while loops, break/continue, and loops unrolled at compile time (tl.staticRange). A while loop
// recomputes its scalar condition before each trip; break and continue leave the innermost for or
// while (never an unrolled loop, whose body is copied once per value).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import type { LoweringContext } from "./context";
import { lowerStatement, scalarCondition } from "./statements";
import { LOOP_INTRINSICS, staticRangeValues } from "./intrinsics-loops";
import { splitArguments } from "./keywords";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { isInt } from "./rules";
import { dtypeOf, isConst } from "./values";

export function whileStatement(ctx: LoweringContext, node: ts.WhileStatement): void {
  let cond: Value | undefined;
  const head = ctx.b.collect(() => {
    cond = scalarCondition(ctx, node.expression, "'while'");
  });
  const body = ctx.inLoop("loop", () => ctx.scoped(() => lowerStatement(ctx, node.statement)), node);
  if (cond) ctx.b.push({ kind: "while", span: ctx.span(node), head, cond, body });
}

export function loopExit(ctx: LoweringContext, node: ts.BreakStatement | ts.ContinueStatement, kind: "break" | "continue"): void {
  const span = ctx.span(node);
  const innermost = ctx.loops[ctx.loops.length - 1];
  if (node.label) {
    ctx.log.error(Codes.unsupportedSyntax, span, `labels aren't supported in kernels; '${kind}' leaves the innermost loop — set a let flag and test it in the outer loop`);
  } else if (!innermost) {
    const where = ctx.calls.length > 0 ? " of this device function (a loop around the call doesn't count)" : "";
    ctx.log.error(Codes.loopExit, span, `'${kind}' must be inside a for or while loop${where}`);
  } else if (innermost === "unrolled") {
    ctx.log.error(Codes.loopExit, span, `'${kind}' can't leave a tl.staticRange loop: its body is copied once per value by the compiler; guard the rest of the body with if (…) { … }, or use a for loop`);
  } else {
    ctx.checkCarried(span);
    ctx.b.push({ kind, span });
  }
}

const STATIC_FORM = "for…of is only for the loops of tl.staticRange (unrolled) and tl.range in kernels: for (const i of tl.range(start, end, step)) { … }; or use for (let i = a; i < b; i += s)";

/** for (const i of tl.staticRange(a, b, step?)): the body lowered once per value, `i` a constant; tl.range: a loop. */
export function staticRangeLoop(ctx: LoweringContext, node: ts.ForOfStatement): void {
  const call = node.expression;
  const callee = ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && ts.isIdentifier(call.expression.expression) && ctx.kernel.tlNames.has(call.expression.expression.text) ? call.expression.name.text : undefined;
  if (!ts.isCallExpression(call) || (callee !== "staticRange" && callee !== "range") || node.awaitModifier) {
    ctx.log.error(Codes.unsupportedSyntax, ctx.span(node), STATIC_FORM);
    return;
  }
  const init = node.initializer;
  const decl = ts.isVariableDeclarationList(init) && init.declarations.length === 1 ? init.declarations[0] : undefined;
  if (!decl || !ts.isIdentifier(decl.name) || (init.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let)) === 0) {
    ctx.log.error(Codes.staticRange, ctx.span(init), `${STATIC_FORM}: declare one name with const`);
    return;
  }
  if (callee === "range") return rangeLoop(ctx, node, call, decl.name);
  const values = staticRangeValues(ctx, call);
  if (!values) return;
  const name = decl.name.text;
  const at = ctx.span(decl.name);
  ctx.inLoop("unrolled", () => {
    for (const constant of values) {
      const value = { ...constant, span: at };
      ctx.inScope(() => lowerStatement(ctx, node.statement), new Map([[name, { kind: "value", value, declaredAt: at, what: "const" }]]));
    }
  });
}

/**
 * for (const i of tl.range(end) / (start, end) / (start, end, step)): Python's range on the GPU, as
 * `for (let i = start; i < end; i += step)` (`>` for a negative constant step); bounds and step are
 * integer scalars computed once. Triton's options (numStages, flatten…) are accepted.
 */
function rangeLoop(ctx: LoweringContext, node: ts.ForOfStatement, call: ts.CallExpression, counterName: ts.Identifier): void {
  const split = splitArguments(ctx.log, (n) => ctx.span(n), "tl.range", LOOP_INTRINSICS.range, call.arguments);
  if (!split) return;
  const args = split.args;
  if (args.length < 1 || args.length > 3 || args.some((a) => !a)) {
    ctx.log.error(Codes.staticRange, ctx.span(call), `tl.range takes (end), (start, end) or (start, end, step), got ${args.filter((a) => a).length} arguments`);
    return;
  }
  const nodes = args as ts.Expression[];
  const values = (nodes.length === 1 ? [undefined, nodes[0], undefined] : [nodes[0], nodes[1], nodes[2]]).map((n) => n && ctx.expression(n));
  const span = ctx.span(call);
  const [start = ctx.b.constant(0, "i32", span), end, step = ctx.b.constant(1, "i32", span)] = values;
  if (!end || (nodes.length > 1 && !values[0]) || (nodes.length > 2 && !values[2])) return;
  for (const [v, what] of [[start, "start"], [end, "end"], [step, "step"]] as const) {
    if (v.type.kind !== "data" || v.type.shape.length > 0 || !isInt(v.type.dtype)) {
      ctx.log.error(Codes.operandDtype, v.span, `tl.range's ${what} must be an integer scalar, got ${typeToString(v.type)}`);
      return;
    }
  }
  if (isConst(step) && step.value === 0) {
    ctx.log.error(Codes.staticRange, step.span, "tl.range's step is 0, so the loop would never end");
    return;
  }
  const dtype = !isConst(start) ? dtypeOf(start) : !isConst(end) ? dtypeOf(end) : "i32";
  const counter = ctx.b.variable(counterName.text, data(dtype, []), ctx.span(counterName));
  const bounds = { start: ctx.values.cast(start, dtype, start.span), end: ctx.values.cast(end, dtype, end.span), step: ctx.values.cast(step, dtype, step.span) };
  const cmp = isConst(step) && step.value < 0 ? "gt" : "lt";
  const body = ctx.inLoop("loop", () => ctx.b.collect(() => ctx.inScope(() => lowerStatement(ctx, node.statement), new Map([[counterName.text, { kind: "variable", variable: counter, counter: true }]]))), node);
  ctx.b.push({ kind: "for", span: ctx.span(node), counter, ...bounds, cmp, body });
}

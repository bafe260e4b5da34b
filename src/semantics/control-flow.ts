// while loops, break/continue, and loops unrolled at compile time (tl.staticRange). A while loop
// recomputes its scalar condition before each trip; break and continue leave the innermost for or
// while (never an unrolled loop, whose body is copied once per value).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import type { LoweringContext } from "./context";
import { lowerStatement, scalarCondition } from "./statements";
import { staticRangeValues } from "./intrinsics-loops";

export function whileStatement(ctx: LoweringContext, node: ts.WhileStatement): void {
  let cond: Value | undefined;
  const head = ctx.b.collect(() => {
    cond = scalarCondition(ctx, node.expression, "'while'");
  });
  const body = ctx.inLoop("loop", () => ctx.scoped(() => lowerStatement(ctx, node.statement)));
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
    ctx.b.push({ kind, span });
  }
}

const STATIC_FORM = "for…of is only for unrolled loops in kernels: for (const i of tl.staticRange(start, end, step)) { … }; otherwise use for (let i = a; i < b; i += s) { … }";

/** for (const i of tl.staticRange(a, b, step?)): the body lowered once per value, `i` a constant. */
export function staticRangeLoop(ctx: LoweringContext, node: ts.ForOfStatement): void {
  const call = node.expression;
  const isStaticRange =
    ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && ts.isIdentifier(call.expression.expression) &&
    ctx.kernel.tlNames.has(call.expression.expression.text) && call.expression.name.text === "staticRange";
  if (!isStaticRange || node.awaitModifier) {
    ctx.log.error(Codes.unsupportedSyntax, ctx.span(node), STATIC_FORM);
    return;
  }
  const init = node.initializer;
  const decl = ts.isVariableDeclarationList(init) && init.declarations.length === 1 ? init.declarations[0] : undefined;
  if (!decl || !ts.isIdentifier(decl.name) || (init.flags & (ts.NodeFlags.Const | ts.NodeFlags.Let)) === 0) {
    ctx.log.error(Codes.staticRange, ctx.span(init), `${STATIC_FORM}: declare one name with const`);
    return;
  }
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

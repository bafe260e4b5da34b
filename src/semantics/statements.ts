// Lowering of statements: a table keyed by syntax kind, one entry per statement a kernel may
// contain. A kind without an entry is reported as unsupported at the node (unsupported.ts).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { BinaryFn, Dtype, Value, Variable } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import type { LoweringContext } from "./context";
import { lowerCall } from "./expressions";
import { ASSIGN_OPS, LOOP_COMPARISONS, skipParens } from "./operators";
import { isInt, sameShape } from "./rules";
import { loopExit, staticRangeLoop, whileStatement } from "./control-flow";
import { returnStatement } from "./device-functions";
import { UNSUPPORTED_STATEMENTS } from "./unsupported";
import { isConst } from "./values";

/** The node type of each syntax kind the table handles. */
interface StatementNodes {
  [ts.SyntaxKind.VariableStatement]: ts.VariableStatement;
  [ts.SyntaxKind.ExpressionStatement]: ts.ExpressionStatement;
  [ts.SyntaxKind.IfStatement]: ts.IfStatement;
  [ts.SyntaxKind.ForStatement]: ts.ForStatement;
  [ts.SyntaxKind.Block]: ts.Block;
  [ts.SyntaxKind.EmptyStatement]: ts.EmptyStatement;
  [ts.SyntaxKind.TypeAliasDeclaration]: ts.TypeAliasDeclaration;
  [ts.SyntaxKind.InterfaceDeclaration]: ts.InterfaceDeclaration;
  [ts.SyntaxKind.ReturnStatement]: ts.ReturnStatement;
  [ts.SyntaxKind.WhileStatement]: ts.WhileStatement;
  [ts.SyntaxKind.BreakStatement]: ts.BreakStatement;
  [ts.SyntaxKind.ContinueStatement]: ts.ContinueStatement;
  [ts.SyntaxKind.ForOfStatement]: ts.ForOfStatement;
}

type StatementLowering<N> = (ctx: LoweringContext, node: N) => void;
type StatementTable = { [K in keyof StatementNodes]: StatementLowering<StatementNodes[K]> };

const nothing: StatementLowering<ts.Node> = () => {};

const STATEMENTS: StatementTable = {
  [ts.SyntaxKind.VariableStatement]: (ctx, node) => variableStatement(ctx, node.declarationList),
  [ts.SyntaxKind.ExpressionStatement]: (ctx, node) => lowerExpressionStatement(ctx, node.expression),
  [ts.SyntaxKind.IfStatement]: ifStatement,
  [ts.SyntaxKind.ForStatement]: forStatement,
  [ts.SyntaxKind.Block]: (ctx, node) => {
    for (const s of ctx.scoped(() => lowerStatements(ctx, node.statements))) ctx.b.push(s);
  },
  [ts.SyntaxKind.EmptyStatement]: nothing,
  // Types are checked by TypeScript; they produce no code.
  [ts.SyntaxKind.TypeAliasDeclaration]: nothing,
  [ts.SyntaxKind.InterfaceDeclaration]: nothing,
  // Control flow added with device functions (control-flow.ts, device-functions.ts).
  [ts.SyntaxKind.ReturnStatement]: (ctx, node) => returnStatement(ctx, node),
  [ts.SyntaxKind.WhileStatement]: (ctx, node) => whileStatement(ctx, node),
  [ts.SyntaxKind.BreakStatement]: (ctx, node) => loopExit(ctx, node, "break"),
  [ts.SyntaxKind.ContinueStatement]: (ctx, node) => loopExit(ctx, node, "continue"),
  [ts.SyntaxKind.ForOfStatement]: (ctx, node) => staticRangeLoop(ctx, node),
};

export function lowerStatements(ctx: LoweringContext, list: readonly ts.Statement[]): void {
  for (const s of list) lowerStatement(ctx, s);
}

export function lowerStatement(ctx: LoweringContext, node: ts.Statement): void {
  ctx.current = node;
  const lower = STATEMENTS[node.kind as keyof StatementNodes] as StatementLowering<ts.Statement> | undefined;
  if (lower) return lower(ctx, node);
  const message = UNSUPPORTED_STATEMENTS[node.kind] ?? `this statement (${ts.SyntaxKind[node.kind]}) isn't supported in kernels`;
  ctx.log.error(Codes.unsupportedSyntax, ctx.span(node), message);
}

function variableStatement(ctx: LoweringContext, list: ts.VariableDeclarationList): void {
  const isConstDecl = (list.flags & ts.NodeFlags.Const) !== 0;
  const isLet = (list.flags & ts.NodeFlags.Let) !== 0;
  if (!isConstDecl && !isLet) {
    ctx.log.error(Codes.declarationForm, ctx.span(list), "use 'const' or 'let' in kernels, not 'var'");
    return;
  }
  for (const decl of list.declarations) {
    ctx.current = decl;
    if (!ts.isIdentifier(decl.name)) {
      ctx.log.error(Codes.declarationForm, ctx.span(decl.name), "destructuring isn't supported in kernels; declare each value on its own");
      continue;
    }
    const name = decl.name.text;
    if (!decl.initializer) {
      ctx.log.error(Codes.declarationForm, ctx.span(decl), `'${name}' needs an initial value: its dtype and block shape come from it`);
      continue;
    }
    const value = ctx.expression(decl.initializer);
    const at = ctx.span(decl.name);
    if (!value) {
      // The initialiser's error is reported; later uses of the name stay quiet.
      ctx.bind(name, { kind: "unknown", declaredAt: at, what: isConstDecl ? "const" : "let" });
      continue;
    }
    if (isConstDecl) {
      ctx.bind(name, { kind: "value", value, declaredAt: at, what: "const" });
    } else {
      const variable = ctx.b.variable(name, value.type, at);
      ctx.b.push({ kind: "declare", span: ctx.span(decl), variable, init: value });
      ctx.bind(name, { kind: "variable", variable, counter: false });
    }
  }
}

/** An expression used as a statement: assignments, ++/--, calls (tl.store), or a value dropped. */
export function lowerExpressionStatement(ctx: LoweringContext, expr: ts.Expression): void {
  ctx.current = expr;
  const e = skipParens(expr);
  if (ts.isBinaryExpression(e)) {
    const kind = e.operatorToken.kind;
    if (kind === ts.SyntaxKind.EqualsToken) return assign(ctx, e.left, () => ctx.expression(e.right), ctx.span(e));
    const fn = ASSIGN_OPS[kind];
    if (fn) return assign(ctx, e.left, (current) => current && ctx.withValue(ctx.expression(e.right), (rhs) => ctx.values.binary(fn, current, rhs, ctx.span(e))), ctx.span(e));
  }
  if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
    const fn: BinaryFn = e.operator === ts.SyntaxKind.PlusPlusToken ? "add" : "sub";
    return assign(ctx, e.operand, (current) => current && ctx.values.binary(fn, current, ctx.b.constant(1, "i32", ctx.span(e)), ctx.span(e)), ctx.span(e));
  }
  if (ts.isCallExpression(e)) {
    lowerCall(ctx, e, true);
    return;
  }
  ctx.expression(e);
}

/** `target = value` / `target op= value` for a `let` variable. */
function assign(ctx: LoweringContext, target: ts.Expression, compute: (current: Value | undefined) => Value | undefined, span: Span): void {
  if (!ts.isIdentifier(target)) {
    ctx.log.error(Codes.declarationForm, ctx.span(target), "only local 'let' variables can be assigned in kernels; memory is written with tl.store");
    compute(undefined);
    return;
  }
  const binding = ctx.lookup(target.text);
  if (!binding) {
    ctx.log.error(Codes.unknownName, ctx.span(target), `'${target.text}' is not defined in this kernel`);
    return;
  }
  if (binding.kind === "unknown" && binding.what !== "const") {
    // Its declaration's error is reported; the right-hand side may still have its own.
    compute(undefined);
    return;
  }
  if (binding.kind === "value" || binding.kind === "unknown") {
    const message =
      binding.what === "parameter"
        ? `'${target.text}' is a parameter and can't be reassigned; copy it into a variable first: let x = ${target.text};`
        : `'${target.text}' is a const; declare it with 'let' to reassign it`;
    ctx.log.error(Codes.constReassigned, ctx.span(target), message, [{ span: binding.declaredAt, message: "declared here" }]);
    return;
  }
  if (binding.counter) {
    ctx.log.error(Codes.counterAssigned, ctx.span(target), `the loop counter '${target.text}' can't be assigned inside the loop; the for statement steps it`);
    return;
  }
  const variable = binding.variable;
  const current = ctx.b.emit({ op: "readVar", variable }, variable.type, ctx.span(target));
  const value = compute(current);
  if (!value) return;
  const coerced = coerceToVariable(ctx, value, variable, span);
  if (coerced) ctx.b.push({ kind: "assign", span, variable, value: coerced });
}

/** A variable keeps its declared type; constants and scalars adapt to it, anything else is an error. */
function coerceToVariable(ctx: LoweringContext, value: Value, variable: Variable, span: Span): Value | undefined {
  const want = variable.type;
  const have = value.type;
  if (want.kind === "pointer" || have.kind === "pointer") {
    if (want.kind === "pointer" && have.kind === "pointer" && want.param === have.param && sameShape(want.shape, have.shape)) return value;
    typeChanged(ctx, value, variable, span);
    return undefined;
  }
  const dtypeOk = have.dtype === want.dtype || (isConst(value) && want.dtype !== "bool" && have.dtype !== "bool");
  const shapeOk = sameShape(have.shape, want.shape) || have.shape.length === 0;
  if (!dtypeOk || !shapeOk) {
    typeChanged(ctx, value, variable, span);
    return undefined;
  }
  return ctx.values.coerce(value, want.dtype, want.shape, span);
}

function typeChanged(ctx: LoweringContext, value: Value, variable: Variable, span: Span): void {
  ctx.log.error(
    Codes.assignType,
    span,
    `'${variable.name}' is ${typeToString(variable.type)} but is assigned ${typeToString(value.type)}; a variable keeps the dtype and shape of its initial value — initialise it with the final type (e.g. tl.zeros([N], "f32") or 0.0)`,
    [{ span: variable.span, message: `'${variable.name}' declared here as ${typeToString(variable.type)}` }],
  );
}

function ifStatement(ctx: LoweringContext, node: ts.IfStatement): void {
  const cond = scalarCondition(ctx, node.expression);
  const then = ctx.scoped(() => lowerStatement(ctx, node.thenStatement));
  const otherwise = node.elseStatement ? ctx.scoped(() => lowerStatement(ctx, node.elseStatement!)) : [];
  if (cond) ctx.b.push({ kind: "if", span: ctx.span(node), cond, then, else: otherwise });
}

export function scalarCondition(ctx: LoweringContext, expr: ts.Expression, what = "'if'"): Value | undefined {
  const cond = ctx.expression(expr);
  if (!cond) return undefined;
  if (cond.type.shape.length > 0) {
    ctx.log.error(Codes.blockCondition, ctx.span(expr), `${what} needs a scalar condition, but this is a block ${typeToString(cond.type)}; for blocks use masks in tl.load/tl.store or tl.where`);
    return undefined;
  }
  if (cond.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, ctx.span(expr), "a pointer can't be a condition");
    return undefined;
  }
  if (cond.type.dtype !== "bool") return ctx.values.binary("ne", cond, ctx.b.constant(0, "i32", ctx.span(expr)), ctx.span(expr));
  return cond;
}

const FOR_FORM = "loops must have the form for (let i = start; i < end; i += step) { … }";

function forStatement(ctx: LoweringContext, node: ts.ForStatement): void {
  const init = node.initializer;
  if (!init || !ts.isVariableDeclarationList(init) || (init.flags & ts.NodeFlags.Let) === 0 || init.declarations.length !== 1) {
    ctx.log.error(Codes.forLoopForm, ctx.span(init ?? node), `${FOR_FORM}: declare one counter with 'let'`);
    return;
  }
  const decl = init.declarations[0];
  if (!ts.isIdentifier(decl.name) || !decl.initializer) {
    ctx.log.error(Codes.forLoopForm, ctx.span(decl), `${FOR_FORM}: the counter needs a name and a start value`);
    return;
  }
  const name = decl.name.text;
  const cond = node.condition && skipParens(node.condition);
  const cmp = cond && ts.isBinaryExpression(cond) && ts.isIdentifier(cond.left) && cond.left.text === name ? LOOP_COMPARISONS[cond.operatorToken.kind] : undefined;
  if (!cond || !cmp || !ts.isBinaryExpression(cond)) {
    ctx.log.error(Codes.forLoopForm, ctx.span(node.condition ?? node), `${FOR_FORM}: the condition must compare '${name}' with a bound (<, <=, >, >= or !==)`);
    return;
  }
  const step = loopStep(node.incrementor, name);
  if (!step) {
    ctx.log.error(Codes.forLoopForm, ctx.span(node.incrementor ?? node), `${FOR_FORM}: step '${name}' with ${name}++, ${name}--, ${name} += s or ${name} -= s`);
    return;
  }
  const bounds = loopBounds(ctx, decl.initializer, cond.right, step, node);
  if (!bounds) return;
  const { dtype, ...range } = bounds;
  const counter = ctx.b.variable(name, data(dtype, []), ctx.span(decl.name));
  const body = ctx.inLoop("loop", () => ctx.b.collect(() => ctx.inScope(() => lowerStatement(ctx, node.statement), new Map([[name, { kind: "variable", variable: counter, counter: true }]]))));
  ctx.b.push({ kind: "for", span: ctx.span(node), counter, ...range, cmp, body });
}

/** The loop's start, bound and step: integer scalars converted to the counter's dtype. */
function loopBounds(ctx: LoweringContext, startNode: ts.Expression, endNode: ts.Expression, step: LoopStep, node: ts.ForStatement): { start: Value; end: Value; step: Value; dtype: Dtype } | undefined {
  const start = ctx.expression(startNode);
  const end = ctx.expression(endNode);
  let stepValue = step.amount ? ctx.expression(step.amount) : ctx.b.constant(1, "i32", ctx.span(node.incrementor!));
  if (!start || !end || !stepValue) return undefined;
  for (const [v, what] of [[start, "start"], [end, "bound"], [stepValue, "step"]] as const) {
    if (v.type.kind !== "data" || v.type.shape.length > 0 || !isInt(v.type.dtype)) {
      ctx.log.error(Codes.operandDtype, v.span, `the loop ${what} must be an integer scalar, got ${typeToString(v.type)}`);
      return undefined;
    }
  }
  if (isConst(stepValue) && stepValue.value === 0) {
    ctx.log.error(Codes.forLoopForm, stepValue.span, "the loop step is 0, so the loop would never end");
    return undefined;
  }
  const dtype = start.type.kind === "data" && end.type.kind === "data" && !isConst(start) ? start.type.dtype : end.type.kind === "data" && !isConst(end) ? end.type.dtype : "i32";
  const s = ctx.values.cast(start, dtype, start.span);
  const e = ctx.values.cast(end, dtype, end.span);
  stepValue = ctx.values.cast(stepValue, dtype, stepValue.span);
  if (step.negate) stepValue = ctx.values.unary("neg", stepValue, stepValue.span);
  if (!stepValue) return undefined;
  return { start: s, end: e, step: stepValue, dtype };
}

interface LoopStep {
  amount?: ts.Expression;
  negate: boolean;
}

function loopStep(inc: ts.Expression | undefined, name: string): LoopStep | undefined {
  if (!inc) return undefined;
  const e = skipParens(inc);
  if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && ts.isIdentifier(e.operand) && e.operand.text === name) {
    if (e.operator === ts.SyntaxKind.PlusPlusToken) return { negate: false };
    if (e.operator === ts.SyntaxKind.MinusMinusToken) return { negate: true };
  }
  if (ts.isBinaryExpression(e) && ts.isIdentifier(e.left) && e.left.text === name) {
    if (e.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken) return { amount: e.right, negate: false };
    if (e.operatorToken.kind === ts.SyntaxKind.MinusEqualsToken) return { amount: e.right, negate: true };
    const r = skipParens(e.right);
    if (e.operatorToken.kind === ts.SyntaxKind.EqualsToken && ts.isBinaryExpression(r) && ts.isIdentifier(r.left) && r.left.text === name) {
      if (r.operatorToken.kind === ts.SyntaxKind.PlusToken) return { amount: r.right, negate: false };
      if (r.operatorToken.kind === ts.SyntaxKind.MinusToken) return { amount: r.right, negate: true };
    }
  }
  return undefined;
}

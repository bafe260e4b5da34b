// Lowering of statements: a table keyed by syntax kind, one entry per statement a kernel may
// contain. A kind without an entry is reported as unsupported at the node (unsupported.ts).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { BinaryFn, Dtype, Stmt, Value, Variable } from "../ir/ir";
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
import { assignTo, currentValue, declare } from "./assignment";
import { alwaysReturns, mayReturn, splittable, statementsOf } from "./returns";
import { runtimeIf } from "./definite-assignment";

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

/** `tail`: the list runs to the end of the kernel (nothing after it reads what it binds): the kernel's body, and what an early return moves into a branch. */
export function lowerStatements(ctx: LoweringContext, list: readonly ts.Statement[], tail = false): void {
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    // A kernel's early return (returns.ts): the statements after it run only where it didn't.
    if (ctx.calls.length > 0 || !mayReturn(s)) {
      lowerStatement(ctx, s);
      continue;
    }
    const rest = list.slice(i + 1);
    if (ts.isReturnStatement(s)) return lowerStatement(ctx, s); // what follows a return never runs
    if (ts.isBlock(s)) {
      for (const st of ctx.scoped(() => lowerStatements(ctx, [...s.statements, ...rest], tail))) ctx.b.push(st);
      return;
    }
    if (ts.isIfStatement(s) && splittable(s)) return splitAtReturn(ctx, s, rest, tail);
    lowerStatement(ctx, s);
    const flag = ctx.returnFlag;
    if (!flag) return; // reported where the return is
    const span = ctx.span(s);
    const returned = ctx.b.emit({ op: "readVar", variable: flag }, flag.type, span);
    if (ctx.loops[ctx.loops.length - 1] === "loop") {
      ctx.b.push({ kind: "if", span, cond: returned, then: [{ kind: "break", span }], else: [] });
      continue;
    }
    const running = ctx.values.unary("not", returned, span)!;
    ctx.b.push({ kind: "if", span, cond: running, then: ctx.scoped(() => lowerStatements(ctx, rest)), else: [] });
    return;
  }
}

/** `if (c) { …; return; } rest` → `if (c) { … } else { rest }`: the rest goes to the branches that don't return. */
function splitAtReturn(ctx: LoweringContext, s: ts.IfStatement, rest: readonly ts.Statement[], tail: boolean): void {
  const branch = (b: ts.Statement | undefined) => [...(b ? statementsOf(b) : []), ...(b && alwaysReturns(b) ? [] : rest)];
  const cond = scalarCondition(ctx, s.expression);
  if (cond && isConst(cond)) {
    // A constexpr condition (Triton's `if STAGE == 1: return`) picks its branch at compile time.
    for (const st of ctx.scoped(() => lowerStatements(ctx, branch(cond.value !== 0 ? s.thenStatement : s.elseStatement), tail))) ctx.b.push(st);
    return;
  }
  // When this list runs to the kernel's end, so do both branches: a name rebound in them with another
  // dtype (Liger's `softcap = softcap.to(tl.float32)` after `if y == ignore_index: return`) is read by nothing after the if.
  const lowerBranch = (b: ts.Statement | undefined) => () => ctx.atRunTime(() => ctx.asTail(tail, () => ctx.scoped(() => lowerStatements(ctx, branch(b), tail))));
  const ends = [alwaysReturns(s.thenStatement), s.elseStatement !== undefined && alwaysReturns(s.elseStatement)] as const;
  const [then, otherwise] = runtimeIf(ctx, s, lowerBranch(s.thenStatement), lowerBranch(s.elseStatement), ends);
  if (cond) ctx.b.push({ kind: "if", span: ctx.span(s), cond, then, else: otherwise });
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
    if (!decl.initializer && isLet && ts.isIdentifier(decl.name)) {
      // `let loss;`: Python's name first assigned later, e.g. in each branch of `if beta == 0.0:`.
      ctx.bind(decl.name.text, { kind: "unassigned", name: decl.name.text, declaredAt: ctx.span(decl.name), depth: ctx.runtimeDepth });
      continue;
    }
    if (!decl.initializer) {
      const what = ts.isIdentifier(decl.name) ? `'${decl.name.text}'` : "a destructuring declaration";
      ctx.log.error(Codes.declarationForm, ctx.span(decl), `${what} needs an initial value: its dtype and block shape come from it`);
      continue;
    }
    declare(ctx, decl.name, ctx.lowered(decl.initializer), isConstDecl ? "const" : "let", ctx.span(decl));
  }
}

/** An expression used as a statement: assignments, ++/--, calls (tl.store), or a value dropped. */
export function lowerExpressionStatement(ctx: LoweringContext, expr: ts.Expression): void {
  ctx.current = expr;
  const e = skipParens(expr);
  if (ts.isBinaryExpression(e)) {
    const kind = e.operatorToken.kind;
    if (kind === ts.SyntaxKind.EqualsToken) {
      // The target's current value is read first, as `x op= y` does: the value numbering (and the
      // WGSL) of kernels written before destructuring stays as it was.
      if (ts.isIdentifier(e.left) && ctx.lookup(e.left.text)?.kind === "variable") ctx.expression(e.left);
      return assignTo(ctx, e.left, ctx.lowered(e.right), ctx.span(e));
    }
    const fn = ASSIGN_OPS[kind];
    if (fn) {
      const current = currentValue(ctx, e.left);
      const rhs = current && ctx.expression(e.right);
      return assignTo(ctx, e.left, current && rhs && ctx.values.binary(fn, current, rhs, ctx.span(e)), ctx.span(e));
    }
  }
  if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
    const fn: BinaryFn = e.operator === ts.SyntaxKind.PlusPlusToken ? "add" : "sub";
    const current = currentValue(ctx, e.operand);
    return assignTo(ctx, e.operand, current && ctx.values.binary(fn, current, ctx.b.constant(1, "i32", ctx.span(e)), ctx.span(e)), ctx.span(e));
  }
  if (ts.isCallExpression(e)) {
    lowerCall(ctx, e, true);
    return;
  }
  ctx.expression(e);
}

function ifStatement(ctx: LoweringContext, node: ts.IfStatement): void {
  const cond = scalarCondition(ctx, node.expression);
  const constant = cond && isConst(cond) ? cond.value !== 0 : undefined;
  // A constexpr condition (Triton's `if STAGE == 2:`) is decided while compiling: only the branch
  // taken is code, and only its mistakes are reported (the other may not hold for these constexprs).
  const branch = (statement: ts.Statement | undefined, taken: boolean) => {
    if (!statement) return [];
    const before = ctx.log.diagnostics.length;
    const lower = () => ctx.scoped(() => lowerStatement(ctx, statement));
    const lowered = constant === undefined ? ctx.atRunTime(lower) : taken ? lower() : ctx.discarded(lower);
    if (!taken) ctx.log.diagnostics.splice(before);
    return lowered;
  };
  let then: Stmt[];
  let otherwise: Stmt[];
  if (constant === undefined) {
    const ends = [alwaysReturns(node.thenStatement), node.elseStatement !== undefined && alwaysReturns(node.elseStatement)] as const;
    [then, otherwise] = runtimeIf(ctx, node, () => branch(node.thenStatement, true), () => branch(node.elseStatement, true), ends);
  } else {
    then = branch(node.thenStatement, constant);
    otherwise = branch(node.elseStatement, !constant);
  }
  if (constant !== undefined) {
    for (const s of constant ? then : otherwise) ctx.b.push(s);
    return;
  }
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
    // Triton's `if dW:` on a pointer argument tests it against null (FlagGems' layer norm backward,
    // whose dW may be None): a launch passes None as a constexpr, and a tensor's pointer is never null.
    return ctx.b.constant(1, "bool", ctx.span(expr));
  }
  // A number is true where nonzero, NaN included (values.ts: nonzero).
  return ctx.values.nonzero(cond, ctx.span(expr));
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
  const { cond, ifNegative } = loopCondition(node.condition && skipParens(node.condition));
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
  const down = ifNegative && isConst(range.step) && range.step.value < 0 ? LOOP_COMPARISONS[ifNegative.operatorToken.kind] : undefined;
  const counter = ctx.b.variable(name, data(dtype, []), ctx.span(decl.name));
  const body = ctx.inLoop("loop", () => ctx.b.collect(() => ctx.inScope(() => lowerStatement(ctx, node.statement), new Map([[name, { kind: "variable", variable: counter, counter: true }]]))), node);
  ctx.b.push({ kind: "for", span: ctx.span(node), counter, ...range, cmp: down ?? cmp, body });
}

/**
 * The comparison that ends the loop, and the one to use instead where the step turns out negative.
 * Python's `range(start, end, step)` with a step whose sign the text doesn't show
 * (`range(K, 0, -BLOCK_K * SPLIT_K)`, DeepSpeed's matmul) comes from the Python front end as
 * `step < 0 ? i > end : i < end`: the loop is lowered with `i < end` (the step evaluated once, where
 * it always was), and a step that is a negative constant then takes `i > end`, as Triton's `for`
 * swaps the bounds of a negative constexpr step; a step known only at run time counts up, as in
 * Triton (whose loop needs a positive run-time step).
 */
function loopCondition(cond: ts.Expression | undefined): { cond: ts.Expression | undefined; ifNegative?: ts.BinaryExpression } {
  if (!cond || !ts.isConditionalExpression(cond)) return { cond };
  const test = skipParens(cond.condition);
  const down = skipParens(cond.whenTrue);
  const up = skipParens(cond.whenFalse);
  if (!ts.isBinaryExpression(test) || test.operatorToken.kind !== ts.SyntaxKind.LessThanToken || !ts.isBinaryExpression(down)) return { cond };
  return { cond: up, ifNegative: down };
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

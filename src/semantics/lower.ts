// Lowers one kernel's TypeScript body to checked IR, for one set of constexpr values.
// One method per syntax kind; every error is reported at the node being lowered, and a node
// that failed yields `undefined` so its users don't report the same mistake again.

import ts from "typescript";
import { DiagnosticLog, type Diagnostic, type Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { BinaryFn, KernelIR, Stmt, Value, ValueType, Variable } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { Target } from "../ir/target";
import type { KernelSource } from "../syntax/parse";
import { spanOf } from "../syntax/parse";
import { IrBuilder, data } from "./builder";
import { ValueFactory, isConst } from "./values";
import { INTRINSICS, type IntrinsicContext } from "./intrinsics";
import { isInt, sameShape } from "./rules";

export interface LowerResult {
  ir?: KernelIR;
  diagnostics: Diagnostic[];
}

type Binding =
  | { kind: "value"; value: Value; declaredAt: Span; what: "const" | "parameter" }
  | { kind: "variable"; variable: Variable; counter: boolean };

const ASSIGN_OPS: Partial<Record<ts.SyntaxKind, BinaryFn>> = {
  [ts.SyntaxKind.PlusEqualsToken]: "add",
  [ts.SyntaxKind.MinusEqualsToken]: "sub",
  [ts.SyntaxKind.AsteriskEqualsToken]: "mul",
  [ts.SyntaxKind.SlashEqualsToken]: "div",
  [ts.SyntaxKind.PercentEqualsToken]: "mod",
  [ts.SyntaxKind.AmpersandEqualsToken]: "and",
  [ts.SyntaxKind.BarEqualsToken]: "or",
  [ts.SyntaxKind.CaretEqualsToken]: "xor",
  [ts.SyntaxKind.LessThanLessThanEqualsToken]: "shl",
  [ts.SyntaxKind.GreaterThanGreaterThanEqualsToken]: "shr",
};

const BINARY_OPS: Partial<Record<ts.SyntaxKind, BinaryFn>> = {
  [ts.SyntaxKind.PlusToken]: "add",
  [ts.SyntaxKind.MinusToken]: "sub",
  [ts.SyntaxKind.AsteriskToken]: "mul",
  [ts.SyntaxKind.SlashToken]: "div",
  [ts.SyntaxKind.PercentToken]: "mod",
  [ts.SyntaxKind.AmpersandToken]: "and",
  [ts.SyntaxKind.BarToken]: "or",
  [ts.SyntaxKind.CaretToken]: "xor",
  [ts.SyntaxKind.LessThanLessThanToken]: "shl",
  [ts.SyntaxKind.GreaterThanGreaterThanToken]: "shr",
  [ts.SyntaxKind.LessThanToken]: "lt",
  [ts.SyntaxKind.LessThanEqualsToken]: "le",
  [ts.SyntaxKind.GreaterThanToken]: "gt",
  [ts.SyntaxKind.GreaterThanEqualsToken]: "ge",
  [ts.SyntaxKind.EqualsEqualsEqualsToken]: "eq",
  [ts.SyntaxKind.EqualsEqualsToken]: "eq",
  [ts.SyntaxKind.ExclamationEqualsEqualsToken]: "ne",
  [ts.SyntaxKind.ExclamationEqualsToken]: "ne",
  [ts.SyntaxKind.AmpersandAmpersandToken]: "land",
  [ts.SyntaxKind.BarBarToken]: "lor",
};

/** Names for constructs a kernel can't contain, and what to do instead. */
const UNSUPPORTED_EXPRESSIONS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.ArrowFunction]: "closures aren't supported in kernels; write the computation inline",
  [ts.SyntaxKind.FunctionExpression]: "closures aren't supported in kernels; write the computation inline",
  [ts.SyntaxKind.ObjectLiteralExpression]: "objects aren't supported in kernels; use separate values",
  [ts.SyntaxKind.ArrayLiteralExpression]: "arrays aren't supported in kernels; make blocks with tl.arange, tl.zeros, tl.full or tl.load",
  [ts.SyntaxKind.StringLiteral]: "strings aren't supported in kernels",
  [ts.SyntaxKind.NoSubstitutionTemplateLiteral]: "strings aren't supported in kernels",
  [ts.SyntaxKind.TemplateExpression]: "strings aren't supported in kernels",
  [ts.SyntaxKind.TaggedTemplateExpression]: "strings aren't supported in kernels",
  [ts.SyntaxKind.ElementAccessExpression]: "indexing isn't supported in kernels; address memory with tl.load(ptr + offsets)",
  [ts.SyntaxKind.ConditionalExpression]: "the ?: operator isn't supported in kernels; use tl.where(cond, a, b)",
  [ts.SyntaxKind.NewExpression]: "'new' isn't supported in kernels",
  [ts.SyntaxKind.ThisKeyword]: "'this' isn't supported in kernels",
  [ts.SyntaxKind.AwaitExpression]: "'await' isn't supported in kernels",
  [ts.SyntaxKind.YieldExpression]: "'yield' isn't supported in kernels",
  [ts.SyntaxKind.TypeOfExpression]: "'typeof' isn't supported in kernels",
  [ts.SyntaxKind.DeleteExpression]: "'delete' isn't supported in kernels",
  [ts.SyntaxKind.VoidExpression]: "'void' isn't supported in kernels",
  [ts.SyntaxKind.SpreadElement]: "spread isn't supported in kernels",
  [ts.SyntaxKind.RegularExpressionLiteral]: "regular expressions aren't supported in kernels",
  [ts.SyntaxKind.NullKeyword]: "'null' isn't supported in kernels",
  [ts.SyntaxKind.ClassExpression]: "classes aren't supported in kernels",
  [ts.SyntaxKind.BigIntLiteral]: "BigInt literals aren't supported in kernels; the integer dtypes are i32 and u32",
};

const UNSUPPORTED_STATEMENTS: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.WhileStatement]: "while loops aren't supported in kernels; use a counted loop: for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.DoStatement]: "do…while loops aren't supported in kernels; use a counted loop: for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.ForOfStatement]: "for…of isn't supported in kernels; use for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.ForInStatement]: "for…in isn't supported in kernels; use for (let i = a; i < b; i += s) { … }",
  [ts.SyntaxKind.SwitchStatement]: "switch isn't supported in kernels; use if/else or tl.where",
  [ts.SyntaxKind.TryStatement]: "try/catch isn't supported in kernels",
  [ts.SyntaxKind.ThrowStatement]: "throw isn't supported in kernels",
  [ts.SyntaxKind.BreakStatement]: "break isn't supported in kernels; loops run their full range",
  [ts.SyntaxKind.ContinueStatement]: "continue isn't supported in kernels; guard the loop body with if",
  [ts.SyntaxKind.ReturnStatement]: "return isn't supported in kernels (they produce results by tl.store); to skip work, wrap it in if (…) { … }",
  [ts.SyntaxKind.FunctionDeclaration]: "functions can't be declared inside kernels; write the computation inline",
  [ts.SyntaxKind.ClassDeclaration]: "classes can't be declared inside kernels",
  [ts.SyntaxKind.LabeledStatement]: "labels aren't supported in kernels",
  [ts.SyntaxKind.WithStatement]: "'with' isn't supported in kernels",
  [ts.SyntaxKind.DebuggerStatement]: "'debugger' isn't supported in kernels",
};

/**
 * What the compiler may assume about launch arguments besides constexprs (Triton specialises the
 * same way): integer scalars known to be 1 at this launch become the constant 1, so a unit stride
 * makes `ptr + offs * stride` contiguous and its loads wide. The harness compiles one variant per
 * specialisation.
 */
export interface Specialization {
  ones?: readonly string[];
}

export function lowerKernel(kernel: KernelSource, constexprs: Readonly<Record<string, number>>, target: Target, specialization: Specialization = {}): LowerResult {
  const lowerer = new Lowerer(kernel, target, specialization);
  return lowerer.run(constexprs);
}

class Lowerer implements IntrinsicContext {
  readonly log = new DiagnosticLog();
  readonly b = new IrBuilder();
  readonly values = new ValueFactory(this.b, this.log);
  private readonly scopes: Map<string, Binding>[] = [];
  private readonly written = new Set<string>();
  private readonly sf: ts.SourceFile;
  /** The node being lowered, where an internal error is reported. */
  private current: ts.Node;

  constructor(
    private readonly kernel: KernelSource,
    readonly target: Target,
    private readonly specialization: Specialization,
  ) {
    this.sf = kernel.sourceFile;
    this.current = kernel.fn;
  }

  run(constexprs: Readonly<Record<string, number>>): LowerResult {
    try {
      return this.lower(constexprs);
    } catch (error) {
      this.log.error(Codes.internal, this.span(this.current), `internal compiler error while compiling this: ${(error as Error).message}. This is a bug in Kernel Lab; please report it with this kernel.`);
      return { diagnostics: this.log.diagnostics };
    }
  }

  private lower(constexprs: Readonly<Record<string, number>>): LowerResult {
    const params = this.kernel.params;
    const scope = new Map<string, Binding>();
    this.scopes.push(scope);
    const used: Record<string, number> = {};
    for (const p of params) {
      const at = p.span;
      if (p.kind === "constexpr") {
        const value = constexprs[p.name];
        if (value === undefined) {
          this.log.error(Codes.constexprMissing, at, `constexpr '${p.name}' has no value; give it one in the run's constexprs, e.g. constexprs: { ${p.name}: 1024 }`);
          continue;
        }
        if (!Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) {
          this.log.error(Codes.constexprMissing, at, `constexpr '${p.name}' is ${value}; constexprs must be integers in the i32 range`);
          continue;
        }
        used[p.name] = value;
        scope.set(p.name, { kind: "value", value: this.b.constant(value, "i32", at), declaredAt: at, what: "parameter" });
      } else if (p.kind === "pointer") {
        if (p.dtype === "f16" && !this.target.shaderF16) {
          this.log.error(Codes.dtypeUnavailable, at, "Ptr<f16> needs the adapter feature 'shader-f16', which this GPU doesn't have; use Ptr<f32>");
        }
        const type: ValueType = { kind: "pointer", pointee: p.dtype, param: p.name, shape: [] };
        scope.set(p.name, { kind: "value", value: this.b.emit({ op: "param", name: p.name }, type, at), declaredAt: at, what: "parameter" });
      } else if ((p.dtype === "i32" || p.dtype === "u32") && this.specialization.ones?.includes(p.name)) {
        scope.set(p.name, { kind: "value", value: this.b.constant(1, p.dtype, at), declaredAt: at, what: "parameter" });
      } else {
        scope.set(p.name, { kind: "value", value: this.b.emit({ op: "param", name: p.name }, data(p.dtype, []), at), declaredAt: at, what: "parameter" });
      }
    }
    const body = this.kernel.fn.body;
    if (ts.isBlock(body)) this.statements(body.statements);
    else this.expressionStatement(body);
    if (this.log.hasErrors) return { diagnostics: this.log.diagnostics };
    return {
      ir: {
        name: this.kernel.name,
        span: this.kernel.span,
        params,
        constexprs: used,
        body: this.b.statements,
        writtenParams: this.written,
      },
      diagnostics: this.log.diagnostics,
    };
  }

  span(node: ts.Node): Span {
    return spanOf(node, this.sf);
  }

  // ── statements ──────────────────────────────────────────────────────────────────────────────

  private statements(list: readonly ts.Statement[]): void {
    for (const s of list) this.statement(s);
  }

  private scoped(fn: () => void): Stmt[] {
    return this.b.collect(() => {
      this.scopes.push(new Map());
      try {
        fn();
      } finally {
        this.scopes.pop();
      }
    });
  }

  private statement(node: ts.Statement): void {
    this.current = node;
    if (ts.isVariableStatement(node)) return this.variableStatement(node.declarationList);
    if (ts.isExpressionStatement(node)) return this.expressionStatement(node.expression);
    if (ts.isIfStatement(node)) return this.ifStatement(node);
    if (ts.isForStatement(node)) return this.forStatement(node);
    if (ts.isBlock(node)) {
      for (const s of this.scoped(() => this.statements(node.statements))) this.b.push(s);
      return;
    }
    if (ts.isEmptyStatement(node)) return;
    if (ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) return;
    const message = UNSUPPORTED_STATEMENTS[node.kind] ?? `this statement (${ts.SyntaxKind[node.kind]}) isn't supported in kernels`;
    this.log.error(Codes.unsupportedSyntax, this.span(node), message);
  }

  private variableStatement(list: ts.VariableDeclarationList): void {
    const isConstDecl = (list.flags & ts.NodeFlags.Const) !== 0;
    const isLet = (list.flags & ts.NodeFlags.Let) !== 0;
    if (!isConstDecl && !isLet) {
      this.log.error(Codes.declarationForm, this.span(list), "use 'const' or 'let' in kernels, not 'var'");
      return;
    }
    for (const decl of list.declarations) {
      this.current = decl;
      if (!ts.isIdentifier(decl.name)) {
        this.log.error(Codes.declarationForm, this.span(decl.name), "destructuring isn't supported in kernels; declare each value on its own");
        continue;
      }
      const name = decl.name.text;
      if (!decl.initializer) {
        this.log.error(Codes.declarationForm, this.span(decl), `'${name}' needs an initial value: its dtype and block shape come from it`);
        continue;
      }
      const value = this.expression(decl.initializer);
      if (!value) {
        // Bind a poisoned name so later uses don't report "not defined".
        this.scope().set(name, { kind: "value", value: this.b.constant(0, "i32", this.span(decl.name)), declaredAt: this.span(decl.name), what: "const" });
        continue;
      }
      if (isConstDecl) {
        this.scope().set(name, { kind: "value", value, declaredAt: this.span(decl.name), what: "const" });
      } else {
        const variable = this.b.variable(name, value.type, this.span(decl.name));
        this.b.push({ kind: "declare", span: this.span(decl), variable, init: value });
        this.scope().set(name, { kind: "variable", variable, counter: false });
      }
    }
  }

  private expressionStatement(expr: ts.Expression): void {
    this.current = expr;
    const e = skipParens(expr);
    if (ts.isBinaryExpression(e)) {
      const kind = e.operatorToken.kind;
      if (kind === ts.SyntaxKind.EqualsToken) return this.assign(e.left, () => this.expression(e.right), this.span(e));
      const fn = ASSIGN_OPS[kind];
      if (fn) return this.assign(e.left, (current) => current && this.withValue(this.expression(e.right), (rhs) => this.values.binary(fn, current, rhs, this.span(e))), this.span(e));
    }
    if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
      const fn: BinaryFn = e.operator === ts.SyntaxKind.PlusPlusToken ? "add" : "sub";
      return this.assign(e.operand, (current) => current && this.values.binary(fn, current, this.b.constant(1, "i32", this.span(e)), this.span(e)), this.span(e));
    }
    if (ts.isCallExpression(e)) {
      this.call(e, true);
      return;
    }
    this.expression(e);
  }

  /** `target = value` / `target op= value` for a `let` variable. */
  private assign(target: ts.Expression, compute: (current: Value | undefined) => Value | undefined, span: Span): void {
    if (!ts.isIdentifier(target)) {
      this.log.error(Codes.declarationForm, this.span(target), "only local 'let' variables can be assigned in kernels; memory is written with tl.store");
      compute(undefined);
      return;
    }
    const binding = this.lookup(target.text);
    if (!binding) {
      this.log.error(Codes.unknownName, this.span(target), `'${target.text}' is not defined in this kernel`);
      return;
    }
    if (binding.kind === "value") {
      const message =
        binding.what === "parameter"
          ? `'${target.text}' is a parameter and can't be reassigned; copy it into a variable first: let x = ${target.text};`
          : `'${target.text}' is a const; declare it with 'let' to reassign it`;
      this.log.error(Codes.constReassigned, this.span(target), message, [{ span: binding.declaredAt, message: "declared here" }]);
      return;
    }
    if (binding.counter) {
      this.log.error(Codes.counterAssigned, this.span(target), `the loop counter '${target.text}' can't be assigned inside the loop; the for statement steps it`);
      return;
    }
    const variable = binding.variable;
    const current = this.b.emit({ op: "readVar", variable }, variable.type, this.span(target));
    const value = compute(current);
    if (!value) return;
    const coerced = this.coerceToVariable(value, variable, span);
    if (coerced) this.b.push({ kind: "assign", span, variable, value: coerced });
  }

  /** A variable keeps its declared type; constants and scalars adapt to it, anything else is an error. */
  private coerceToVariable(value: Value, variable: Variable, span: Span): Value | undefined {
    const want = variable.type;
    const have = value.type;
    if (want.kind === "pointer" || have.kind === "pointer") {
      if (want.kind === "pointer" && have.kind === "pointer" && want.param === have.param && sameShape(want.shape, have.shape)) return value;
      this.typeChanged(value, variable, span);
      return undefined;
    }
    const dtypeOk = have.dtype === want.dtype || (isConst(value) && want.dtype !== "bool" && have.dtype !== "bool");
    const shapeOk = sameShape(have.shape, want.shape) || have.shape.length === 0;
    if (!dtypeOk || !shapeOk) {
      this.typeChanged(value, variable, span);
      return undefined;
    }
    return this.values.coerce(value, want.dtype, want.shape, span);
  }

  private typeChanged(value: Value, variable: Variable, span: Span): void {
    this.log.error(
      Codes.assignType,
      span,
      `'${variable.name}' is ${typeToString(variable.type)} but is assigned ${typeToString(value.type)}; a variable keeps the dtype and shape of its initial value — initialise it with the final type (e.g. tl.zeros([N], "f32") or 0.0)`,
      [{ span: variable.span, message: `'${variable.name}' declared here as ${typeToString(variable.type)}` }],
    );
  }

  private ifStatement(node: ts.IfStatement): void {
    const cond = this.scalarCondition(node.expression);
    const then = this.scoped(() => this.statement(node.thenStatement));
    const otherwise = node.elseStatement ? this.scoped(() => this.statement(node.elseStatement!)) : [];
    if (cond) this.b.push({ kind: "if", span: this.span(node), cond, then, else: otherwise });
  }

  private scalarCondition(expr: ts.Expression): Value | undefined {
    const cond = this.expression(expr);
    if (!cond) return undefined;
    if (cond.type.shape.length > 0) {
      this.log.error(Codes.blockCondition, this.span(expr), `'if' needs a scalar condition, but this is a block ${typeToString(cond.type)}; for blocks use masks in tl.load/tl.store or tl.where`);
      return undefined;
    }
    if (cond.type.kind === "pointer") {
      this.log.error(Codes.operandDtype, this.span(expr), "a pointer can't be a condition");
      return undefined;
    }
    if (cond.type.dtype !== "bool") return this.values.binary("ne", cond, this.b.constant(0, "i32", this.span(expr)), this.span(expr));
    return cond;
  }

  private forStatement(node: ts.ForStatement): void {
    const form = "loops must have the form for (let i = start; i < end; i += step) { … }";
    const init = node.initializer;
    if (!init || !ts.isVariableDeclarationList(init) || (init.flags & ts.NodeFlags.Let) === 0 || init.declarations.length !== 1) {
      this.log.error(Codes.forLoopForm, this.span(init ?? node), `${form}: declare one counter with 'let'`);
      return;
    }
    const decl = init.declarations[0];
    if (!ts.isIdentifier(decl.name) || !decl.initializer) {
      this.log.error(Codes.forLoopForm, this.span(decl), `${form}: the counter needs a name and a start value`);
      return;
    }
    const name = decl.name.text;
    const cond = node.condition && skipParens(node.condition);
    const cmp = cond && ts.isBinaryExpression(cond) && ts.isIdentifier(cond.left) && cond.left.text === name ? loopComparison(cond.operatorToken.kind) : undefined;
    if (!cond || !cmp || !ts.isBinaryExpression(cond)) {
      this.log.error(Codes.forLoopForm, this.span(node.condition ?? node), `${form}: the condition must compare '${name}' with a bound (<, <=, >, >= or !==)`);
      return;
    }
    const step = this.loopStep(node.incrementor, name);
    if (!step) {
      this.log.error(Codes.forLoopForm, this.span(node.incrementor ?? node), `${form}: step '${name}' with ${name}++, ${name}--, ${name} += s or ${name} -= s`);
      return;
    }
    const start = this.expression(decl.initializer);
    const end = this.expression(cond.right);
    let stepValue = step.amount ? this.expression(step.amount) : this.b.constant(1, "i32", this.span(node.incrementor!));
    if (!start || !end || !stepValue) return;
    for (const [v, what] of [[start, "start"], [end, "bound"], [stepValue, "step"]] as const) {
      if (v.type.kind !== "data" || v.type.shape.length > 0 || !isInt(v.type.dtype)) {
        this.log.error(Codes.operandDtype, v.span, `the loop ${what} must be an integer scalar, got ${typeToString(v.type)}`);
        return;
      }
    }
    if (isConst(stepValue) && stepValue.value === 0) {
      this.log.error(Codes.forLoopForm, stepValue.span, "the loop step is 0, so the loop would never end");
      return;
    }
    const dtype = start.type.kind === "data" && end.type.kind === "data" && !isConst(start) ? start.type.dtype : end.type.kind === "data" && !isConst(end) ? end.type.dtype : "i32";
    const s = this.values.cast(start, dtype, start.span);
    const e = this.values.cast(end, dtype, end.span);
    stepValue = this.values.cast(stepValue, dtype, stepValue.span);
    if (step.negate) stepValue = this.values.unary("neg", stepValue, stepValue.span);
    if (!stepValue) return;
    const counter = this.b.variable(name, data(dtype, []), this.span(decl.name));
    const body = this.b.collect(() => {
      this.scopes.push(new Map([[name, { kind: "variable", variable: counter, counter: true }]]));
      try {
        this.statement(node.statement);
      } finally {
        this.scopes.pop();
      }
    });
    this.b.push({ kind: "for", span: this.span(node), counter, start: s, end: e, step: stepValue, cmp, body });
  }

  private loopStep(inc: ts.Expression | undefined, name: string): { amount?: ts.Expression; negate: boolean } | undefined {
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

  // ── expressions ─────────────────────────────────────────────────────────────────────────────

  expression(node: ts.Expression): Value | undefined {
    const saved = this.current;
    this.current = node;
    try {
      return this.expressionInner(node);
    } finally {
      this.current = saved;
    }
  }

  private expressionInner(node: ts.Expression): Value | undefined {
    const span = this.span(node);
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isNonNullExpression(node) || ts.isSatisfiesExpression(node) || ts.isTypeAssertionExpression(node)) {
      return this.expression(node.expression);
    }
    // The source text, not node.text: TypeScript normalises `1.0` to "1", which would read as an integer.
    if (ts.isNumericLiteral(node)) return this.numericLiteral(node.getText(this.sf), span);
    if (node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword) {
      return this.b.constant(node.kind === ts.SyntaxKind.TrueKeyword ? 1 : 0, "bool", span);
    }
    if (ts.isIdentifier(node)) return this.identifier(node, span);
    if (ts.isPrefixUnaryExpression(node)) return this.prefixUnary(node, span);
    if (ts.isBinaryExpression(node)) return this.binaryExpression(node, span);
    if (ts.isCallExpression(node)) return this.call(node, false);
    if (ts.isPostfixUnaryExpression(node)) {
      this.log.error(Codes.unsupportedSyntax, span, "'++' and '--' can only be statements of their own in kernels");
      return undefined;
    }
    if (ts.isPropertyAccessExpression(node)) {
      const object = node.expression;
      const hint = ts.isIdentifier(object) && this.kernel.tlNames.has(object.text) ? `tl.${node.name.text} is a function; call it` : ts.isIdentifier(object) && object.text === "Math" ? "Math isn't available in kernels; write the constant as a literal or use the tl.* function" : "properties aren't supported in kernels";
      this.log.error(Codes.unsupportedSyntax, span, hint);
      return undefined;
    }
    const message = UNSUPPORTED_EXPRESSIONS[node.kind] ?? `this expression (${ts.SyntaxKind[node.kind]}) isn't supported in kernels`;
    this.log.error(Codes.unsupportedSyntax, span, message);
    return undefined;
  }

  private numericLiteral(text: string, span: Span): Value | undefined {
    const value = Number(text.replace(/_/g, ""));
    const isFloatText = /^[0-9_]*\.|[eE]/.test(text) && !/^0[xXbBoO]/.test(text);
    if (isFloatText || !Number.isInteger(value)) return this.b.constant(Math.fround(value), "f32", span);
    if (value <= 2147483647) return this.b.constant(value, "i32", span);
    if (value <= 4294967295) return this.b.constant(value, "u32", span);
    this.log.error(Codes.literalRange, span, `${text} doesn't fit in 32 bits; the integer dtypes are i32 and u32 (write a float literal like ${value}.0 for f32)`);
    return undefined;
  }

  private identifier(node: ts.Identifier, span: Span): Value | undefined {
    const name = node.text;
    if (name === "") return undefined; // a missing name the parser already reported
    const binding = this.lookup(name);
    if (!binding) {
      const moduleConst = moduleConstant(this.sf, name);
      if (moduleConst) {
        const value = this.numericLiteral(moduleConst.text, span);
        return value && moduleConst.negative ? this.values.unary("neg", value, span) : value;
      }
      if (name === "undefined" || name === "NaN" || name === "Infinity") {
        if (name === "undefined") {
          this.log.error(Codes.unsupportedSyntax, span, "'undefined' isn't a kernel value");
          return undefined;
        }
        return this.b.constant(name === "NaN" ? NaN : Infinity, "f32", span);
      }
      const hint = this.kernel.tlNames.has(name) ? "; call one of its functions, e.g. tl.load(…)" : "; kernels can use their parameters, their own const/let values, module-level numeric constants and tl.*";
      this.log.error(Codes.unknownName, span, `'${name}' is not defined in this kernel${hint}`);
      return undefined;
    }
    // The same value, located where it is used, so diagnostics point at the use.
    if (binding.kind === "value") return { ...binding.value, span };
    return this.b.emit({ op: "readVar", variable: binding.variable }, binding.variable.type, span);
  }

  private prefixUnary(node: ts.PrefixUnaryExpression, span: Span): Value | undefined {
    switch (node.operator) {
      case ts.SyntaxKind.PlusToken:
        return this.expression(node.operand);
      case ts.SyntaxKind.MinusToken:
        return this.withValue(this.expression(node.operand), (v) => this.values.unary("neg", v, span));
      case ts.SyntaxKind.ExclamationToken:
        return this.withValue(this.expression(node.operand), (v) => this.values.unary("not", v, span));
      case ts.SyntaxKind.TildeToken:
        return this.withValue(this.expression(node.operand), (v) => this.values.unary("bitnot", v, span));
      default:
        this.log.error(Codes.unsupportedSyntax, span, "'++' and '--' can only be statements of their own in kernels");
        return undefined;
    }
  }

  private binaryExpression(node: ts.BinaryExpression, span: Span): Value | undefined {
    const kind = node.operatorToken.kind;
    const fn = BINARY_OPS[kind];
    if (!fn) {
      const text = node.operatorToken.getText(this.sf);
      const message =
        kind === ts.SyntaxKind.EqualsToken || ASSIGN_OPS[kind]
          ? "assignments can only be statements of their own in kernels"
          : kind === ts.SyntaxKind.AsteriskAsteriskToken
            ? "'**' isn't supported in kernels; multiply, or use tl.exp(y * tl.log(x))"
            : `the '${text}' operator isn't supported in kernels`;
      this.log.error(Codes.unsupportedSyntax, span, message);
      return undefined;
    }
    const a = this.expression(node.left);
    const b = this.expression(node.right);
    if (!a || !b) return undefined;
    return this.values.binary(fn, a, b, span);
  }

  private call(node: ts.CallExpression, asStatement: boolean): Value | undefined {
    const span = this.span(node);
    const callee = node.expression;
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && this.kernel.tlNames.has(callee.expression.text) && !this.lookup(callee.expression.text)) {
      const name = callee.name.text;
      const intrinsic = INTRINSICS[name];
      if (!intrinsic) {
        this.log.error(Codes.unknownIntrinsic, this.span(callee.name), `tl.${name} doesn't exist; see the kernel language table in the docs for the tl.* functions`);
        return undefined;
      }
      const result = intrinsic(this, node.arguments, span, name);
      if (result === "void") {
        if (!asStatement) this.log.error(Codes.unsupportedSyntax, span, `tl.${name}(…) has no value; write it as a statement of its own`);
        return undefined;
      }
      return result;
    }
    let message = "kernels can only call tl.* functions; write the computation inline";
    if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Math" && INTRINSICS[callee.name.text]) {
      message = `Math.${callee.name.text} runs on the CPU; in a kernel use tl.${callee.name.text}`;
    } else if (ts.isIdentifier(callee) && callee.text === this.kernel.name) {
      message = "kernels can't call themselves (no recursion on the GPU)";
    } else if (ts.isIdentifier(callee)) {
      message = `'${callee.text}' isn't a tl.* function; kernels can only call tl.* functions — write the computation inline`;
    }
    this.log.error(Codes.unsupportedCall, span, message);
    return undefined;
  }

  // ── IntrinsicContext ────────────────────────────────────────────────────────────────────────

  markWritten(param: string): void {
    this.written.add(param);
  }

  withValue<T>(v: Value | undefined, fn: (v: Value) => T | undefined): T | undefined {
    return v ? fn(v) : undefined;
  }

  private scope(): Map<string, Binding> {
    return this.scopes[this.scopes.length - 1];
  }

  private lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return undefined;
  }
}

function skipParens(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  return e;
}

function loopComparison(kind: ts.SyntaxKind): "lt" | "le" | "gt" | "ge" | "ne" | undefined {
  switch (kind) {
    case ts.SyntaxKind.LessThanToken: return "lt";
    case ts.SyntaxKind.LessThanEqualsToken: return "le";
    case ts.SyntaxKind.GreaterThanToken: return "gt";
    case ts.SyntaxKind.GreaterThanEqualsToken: return "ge";
    case ts.SyntaxKind.ExclamationEqualsEqualsToken:
    case ts.SyntaxKind.ExclamationEqualsToken: return "ne";
    default: return undefined;
  }
}

/** `const NAME = 123;` at the top level of the file: usable inside kernels as a constant. */
function moduleConstant(sf: ts.SourceFile, name: string): { text: string; negative: boolean } | undefined {
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement) || (statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.name.text !== name || !decl.initializer) continue;
      let init: ts.Expression = decl.initializer;
      let negative = false;
      if (ts.isPrefixUnaryExpression(init) && init.operator === ts.SyntaxKind.MinusToken) {
        negative = true;
        init = init.operand;
      }
      if (ts.isNumericLiteral(init)) return { text: init.getText(sf), negative };
    }
  }
  return undefined;
}

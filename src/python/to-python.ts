// "Copy as Triton Python": a `.kernel.ts` file's kernels → `@triton.jit` Python (docs/LANGUAGE.md §2.2
// mapping the other way): camelCase tl.* → snake_case, the trailing keyword object → keyword
// arguments, `tl.expandDims(x, 1)` → `x[:, None]`, `tl.cast(x, "f16")` → `x.to(tl.float16)`, C-style
// loops → `range`. Where Python needs to know a type (`/` of integers is `//`; `!` of a block is
// `~`, `&&` of blocks `&`) it asks the checker, which lowers each kernel once for its types.

import ts from "typescript";
import type { ValueType } from "../ir/ir";
import { DEFAULT_TARGET } from "../ir/target";
import { lowerKernel } from "../semantics/lower";
import { parseKernelFile, spanOf, type KernelSource, type ParsedFile } from "../syntax/parse";
import { snakeCase, TRITON_DTYPES } from "./names";

export interface PythonText {
  text: string;
  /** Kernels that could not be converted, and why. */
  problems: { kernel: string; message: string }[];
}

/** Python precedence of each operator written (higher binds tighter). */
const PY_PRECEDENCE: Readonly<Record<string, number>> = {
  or: 1, and: 2, not: 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "|": 5, "^": 6, "&": 7,
  "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "//": 10, "%": 10, unary: 11,
};
const ATOM = 20;

export function kernelFileToPython(fileName: string, text: string): PythonText {
  const parsed = parseKernelFile(fileName, text);
  const types = checkerTypes(parsed);
  const out: string[] = ["import triton", "import triton.language as tl", ""];
  const problems: PythonText["problems"] = [];
  const combines: string[] = [];
  for (const kernel of parsed.kernels) {
    const writer = new PythonWriter(kernel, types, combines);
    try {
      const body = writer.function();
      out.push(...combines.splice(0), "", "@triton.jit", ...body, "");
    } catch (error) {
      problems.push({ kernel: kernel.name, message: (error as Error).message });
    }
  }
  return { text: `${out.join("\n").replace(/\n{3,}/g, "\n\n\n").trimEnd()}\n`, problems };
}

/** span → the checker's type, for every expression of every kernel the file launches (or could). */
function checkerTypes(parsed: ParsedFile): Map<string, ValueType> {
  const types = new Map<string, ValueType>();
  for (const kernel of parsed.kernels) {
    if (!kernel.ok || kernel.deviceOnly) continue;
    const literal = parsed.literalConstexprs.get(kernel.name)?.[0];
    const constexprs = literal ?? Object.fromEntries(kernel.params.filter((p) => p.kind === "constexpr").map((p) => [p.name, 16]));
    const seen = lowerKernel(kernel, constexprs, DEFAULT_TARGET).seen;
    for (const e of seen?.expressions ?? []) types.set(`${e.span.start}:${e.span.end}`, e.type);
  }
  return types;
}

class PythonWriter {
  private readonly sf: ts.SourceFile;
  private readonly lines: string[] = [];

  constructor(private readonly kernel: KernelSource, private readonly types: ReadonlyMap<string, ValueType>, private readonly combines: string[]) {
    this.sf = kernel.sourceFile;
  }

  function(): string[] {
    const params = this.kernel.fn.parameters.map((p) => {
      const name = p.name.getText(this.sf);
      const constexpr = p.type && ts.isTypeReferenceNode(p.type) && p.type.typeName.getText(this.sf) === "constexpr";
      return constexpr ? `${name}: tl.constexpr` : name;
    });
    this.lines.push(`def ${this.kernel.name}(${params.join(", ")}):`);
    const body = this.kernel.fn.body;
    if (ts.isBlock(body)) this.block(body.statements, "    ");
    else this.lines.push(`    return ${this.expr(body)}`);
    return this.lines;
  }

  private typeOf(node: ts.Node): ValueType | undefined {
    const s = spanOf(node, this.sf);
    return this.types.get(`${s.start}:${s.end}`);
  }

  private isBlock(node: ts.Node): boolean {
    const t = this.typeOf(node);
    return t !== undefined && t.shape.length > 0;
  }

  private isInteger(node: ts.Expression): boolean {
    const t = this.typeOf(node);
    if (t) return t.kind !== "pointer" && (t.dtype === "i32" || t.dtype === "u32");
    return ts.isNumericLiteral(node) && !/[.eE]/.test(node.text);
  }

  private block(statements: readonly ts.Statement[], indent: string): void {
    const before = this.lines.length;
    for (const s of statements) this.statement(s, indent);
    if (this.lines.length === before) this.lines.push(`${indent}pass`);
  }

  private statement(s: ts.Statement, indent: string): void {
    const line = (text: string): void => {
      this.lines.push(`${indent}${text}`);
    };
    if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (d.initializer) line(`${this.target(d.name)} = ${this.expr(d.initializer)}`);
      return;
    }
    if (ts.isExpressionStatement(s)) return line(this.expressionStatement(s.expression));
    if (ts.isReturnStatement(s)) {
      if (!s.expression) return line("return");
      return line(`return ${ts.isArrayLiteralExpression(s.expression) ? s.expression.elements.map((e) => this.expr(e)).join(", ") : this.expr(s.expression)}`);
    }
    if (ts.isBlock(s)) return this.block(s.statements, indent);
    if (ts.isIfStatement(s)) {
      let current: ts.IfStatement = s;
      line(`if ${this.expr(current.expression)}:`);
      for (;;) {
        this.nested(current.thenStatement, indent);
        const other = current.elseStatement;
        if (!other) return;
        if (ts.isIfStatement(other)) {
          current = other;
          line(`elif ${this.expr(current.expression)}:`);
          continue;
        }
        line("else:");
        return this.nested(other, indent);
      }
    }
    if (ts.isWhileStatement(s)) {
      line(`while ${this.expr(s.expression)}:`);
      return this.nested(s.statement, indent);
    }
    if (ts.isForStatement(s)) {
      line(`for ${this.rangeLoop(s)}:`);
      return this.nested(s.statement, indent);
    }
    if (ts.isForOfStatement(s)) {
      const decl = s.initializer;
      const name = ts.isVariableDeclarationList(decl) ? decl.declarations[0].name.getText(this.sf) : decl.getText(this.sf);
      line(`for ${name} in ${this.expr(s.expression)}:`);
      return this.nested(s.statement, indent);
    }
    if (ts.isBreakStatement(s)) return line("break");
    if (ts.isContinueStatement(s)) return line("continue");
    if (ts.isEmptyStatement(s)) return;
    throw new Error(`no Python for this statement: ${s.getText(this.sf).split("\n")[0]}`);
  }

  private nested(s: ts.Statement, indent: string): void {
    this.block(ts.isBlock(s) ? s.statements : [s], `${indent}    `);
  }

  /** `for (let i = a; i < b; i += s)` → `i in range(a, b, s)`. */
  private rangeLoop(s: ts.ForStatement): string {
    const init = s.initializer;
    const decl = init && ts.isVariableDeclarationList(init) ? init.declarations[0] : undefined;
    const cond = s.condition;
    if (!decl?.initializer || !cond || !ts.isBinaryExpression(cond) || !s.incrementor) throw new Error(`no Python for this loop: ${s.getText(this.sf).split("\n")[0]}`);
    const name = decl.name.getText(this.sf);
    const start = this.expr(decl.initializer);
    const inc = s.incrementor;
    let step = "1";
    if ((ts.isPostfixUnaryExpression(inc) || ts.isPrefixUnaryExpression(inc)) && inc.operator === ts.SyntaxKind.MinusMinusToken) step = "-1";
    else if (ts.isBinaryExpression(inc) && inc.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken) step = this.expr(inc.right);
    else if (ts.isBinaryExpression(inc) && inc.operatorToken.kind === ts.SyntaxKind.MinusEqualsToken) step = `-${this.operand(inc.right, PY_PRECEDENCE.unary, false)}`;
    let end = this.expr(cond.right);
    const op = cond.operatorToken.kind;
    if (op === ts.SyntaxKind.LessThanEqualsToken) end = `${this.operand(cond.right, PY_PRECEDENCE["+"], false)} + 1`;
    if (op === ts.SyntaxKind.GreaterThanEqualsToken) end = `${this.operand(cond.right, PY_PRECEDENCE["-"], false)} - 1`;
    return `${name} in range(${start}, ${end}${step === "1" ? "" : `, ${step}`})`;
  }

  private expressionStatement(e: ts.Expression): string {
    if ((ts.isPostfixUnaryExpression(e) || ts.isPrefixUnaryExpression(e)) && (e.operator === ts.SyntaxKind.PlusPlusToken || e.operator === ts.SyntaxKind.MinusMinusToken)) {
      return `${this.expr(e.operand)} ${e.operator === ts.SyntaxKind.PlusPlusToken ? "+=" : "-="} 1`;
    }
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.EqualsToken) return `${this.target(e.left)} = ${this.expr(e.right)}`;
    if (ts.isBinaryExpression(e) && e.operatorToken.kind >= ts.SyntaxKind.FirstCompoundAssignment && e.operatorToken.kind <= ts.SyntaxKind.LastCompoundAssignment) {
      let op = e.operatorToken.getText(this.sf);
      if (op === "/=" && this.isInteger(e.left) && this.isInteger(e.right)) op = "//=";
      return `${this.expr(e.left)} ${op} ${this.expr(e.right)}`;
    }
    return this.expr(e);
  }

  private target(t: ts.Node): string {
    if (ts.isArrayBindingPattern(t) || ts.isArrayLiteralExpression(t)) {
      return t.elements.map((e) => (ts.isOmittedExpression(e) ? "_" : ts.isBindingElement(e) ? this.target(e.name) : this.target(e))).join(", ");
    }
    return t.getText(this.sf);
  }

  private expr(e: ts.Expression): string {
    return this.operand(e, 0, false);
  }

  /** `e` as an operand of an operator of Python precedence `parent`, parenthesised where Python needs it. */
  private operand(e: ts.Expression, parent: number, right: boolean): string {
    const [text, p] = this.write(e);
    return p < parent || (right && p === parent && p < ATOM) ? `(${text})` : text;
  }

  private write(e: ts.Expression): [string, number] {
    if (ts.isParenthesizedExpression(e)) return this.write(e.expression);
    if (ts.isNumericLiteral(e)) return [e.getText(this.sf), ATOM];
    if (ts.isStringLiteral(e)) return [TRITON_DTYPES[e.text] ? `tl.${TRITON_DTYPES[e.text]}` : JSON.stringify(e.text), ATOM];
    if (e.kind === ts.SyntaxKind.TrueKeyword) return ["True", ATOM];
    if (e.kind === ts.SyntaxKind.FalseKeyword) return ["False", ATOM];
    if (ts.isIdentifier(e)) {
      if (e.text === "Infinity") return ['float("inf")', ATOM];
      if (e.text === "NaN") return ['float("nan")', ATOM];
      return [e.text, ATOM];
    }
    if (ts.isArrayLiteralExpression(e)) return [`[${e.elements.map((x) => this.expr(x)).join(", ")}]`, ATOM];
    if (ts.isElementAccessExpression(e)) return [`${this.operand(e.expression, ATOM, false)}[${this.expr(e.argumentExpression)}]`, ATOM];
    if (ts.isConditionalExpression(e)) return [`${this.operand(e.whenTrue, 1, false)} if ${this.operand(e.condition, 1, false)} else ${this.operand(e.whenFalse, 0, false)}`, 0];
    if (ts.isPrefixUnaryExpression(e)) {
      if (e.operator === ts.SyntaxKind.ExclamationToken) {
        return this.isBlock(e.operand) ? [`~${this.operand(e.operand, PY_PRECEDENCE.unary, false)}`, PY_PRECEDENCE.unary] : [`not ${this.operand(e.operand, PY_PRECEDENCE.not, false)}`, PY_PRECEDENCE.not];
      }
      if (ts.isNumericLiteral(e.operand) && e.operator === ts.SyntaxKind.MinusToken) return [`-${e.operand.getText(this.sf)}`, PY_PRECEDENCE.unary];
      if (ts.isIdentifier(e.operand) && e.operand.text === "Infinity" && e.operator === ts.SyntaxKind.MinusToken) return ['-float("inf")', PY_PRECEDENCE.unary];
      const op = e.operator === ts.SyntaxKind.MinusToken ? "-" : e.operator === ts.SyntaxKind.PlusToken ? "+" : e.operator === ts.SyntaxKind.TildeToken ? "~" : undefined;
      if (op) return [`${op}${this.operand(e.operand, PY_PRECEDENCE.unary, false)}`, PY_PRECEDENCE.unary];
    }
    if (ts.isBinaryExpression(e)) return this.binary(e);
    if (ts.isCallExpression(e)) return [this.call(e), ATOM];
    if (ts.isPropertyAccessExpression(e)) return [e.getText(this.sf), ATOM];
    throw new Error(`no Python for this expression: ${e.getText(this.sf)}`);
  }

  private binary(e: ts.BinaryExpression): [string, number] {
    const kind = e.operatorToken.kind;
    let op = e.operatorToken.getText(this.sf);
    if (op === "===") op = "==";
    if (op === "!==") op = "!=";
    if (kind === ts.SyntaxKind.AmpersandAmpersandToken || kind === ts.SyntaxKind.BarBarToken) {
      const blocks = this.isBlock(e) || this.isBlock(e.left) || this.isBlock(e.right);
      op = kind === ts.SyntaxKind.AmpersandAmpersandToken ? (blocks ? "&" : "and") : blocks ? "|" : "or";
    }
    if (op === "/" && this.isInteger(e.left) && this.isInteger(e.right)) op = "//";
    const p = PY_PRECEDENCE[op];
    if (p === undefined) throw new Error(`no Python for the operator ${op}`);
    // Python chains comparisons (a < b < c): a comparison operand of a comparison gets parentheses.
    const parent = p === 4 ? 5 : p;
    return [`${this.operand(e.left, parent, false)} ${op} ${this.operand(e.right, parent, true)}`, p];
  }

  private call(e: ts.CallExpression): string {
    const callee = e.expression;
    const args = [...e.arguments];
    const last = args[args.length - 1];
    const keywords = last && ts.isObjectLiteralExpression(last) ? (args.pop(), last) : undefined;
    const isTl = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && this.kernel.tlNames.has(callee.expression.text);
    const keywordText = (snake: boolean) =>
      keywords
        ? keywords.properties.map((p) => {
            if (ts.isShorthandPropertyAssignment(p)) return `${snake ? snakeCase(p.name.text) : p.name.text}=${p.name.text}`;
            if (ts.isPropertyAssignment(p)) return `${snake ? snakeCase(p.name.getText(this.sf)) : p.name.getText(this.sf)}=${this.expr(p.initializer)}`;
            throw new Error(`no Python for this keyword: ${p.getText(this.sf)}`);
          })
        : [];
    if (!isTl) {
      const name = callee.getText(this.sf);
      return `${name}(${[...args.map((a) => this.expr(a)), ...keywordText(false)].join(", ")})`;
    }
    const fn = (callee as ts.PropertyAccessExpression).name.text;
    if (fn === "cast" && args.length >= 2) {
      return `${this.operand(args[0], ATOM, false)}.to(${[...args.slice(1).map((a) => this.expr(a)), ...keywordText(true)].join(", ")})`;
    }
    if (fn === "expandDims" && args.length === 2 && !keywords) {
      const rank = this.typeOf(args[0])?.shape.length;
      const axes = ts.isArrayLiteralExpression(args[1]) ? args[1].elements.map((a) => Number(a.getText(this.sf))) : [Number(args[1].getText(this.sf))];
      if (rank !== undefined && axes.every((a) => Number.isInteger(a) && a >= 0)) {
        const slots = Array.from({ length: rank + axes.length }, (_, i) => (axes.includes(i) ? "None" : ":"));
        return `${this.operand(args[0], ATOM, false)}[${slots.join(", ")}]`;
      }
    }
    const pyArgs = args.map((a, i) => {
      if (ts.isArrowFunction(a)) return this.combine(a);
      // Triton's multi-operand tl.reduce / tl.associative_scan takes its blocks as a tuple.
      if (i === 0 && (fn === "reduce" || fn === "associativeScan") && ts.isArrayLiteralExpression(a)) return `(${a.elements.map((e) => this.expr(e)).join(", ")}${a.elements.length === 1 ? "," : ""})`;
      return this.expr(a);
    });
    return `tl.${snakeCase(fn)}(${[...pyArgs, ...keywordText(true)].join(", ")})`;
  }

  /** An inline combine function `(a, b) => expr` becomes a module-level @triton.jit function. */
  private combine(a: ts.ArrowFunction): string {
    const name = `_${this.kernel.name}_combine_${this.combines.length + 1}`;
    const params = a.parameters.map((p) => p.name.getText(this.sf));
    const body = ts.isBlock(a.body) ? undefined : a.body;
    if (!body) throw new Error("no Python for a combine function with a block body");
    // A combine function of a tuple of blocks returns its n results as Python's tuple.
    const returned = ts.isArrayLiteralExpression(body) ? body.elements.map((e) => this.expr(e)).join(", ") : this.expr(body);
    this.combines.push("", "@triton.jit", `def ${name}(${params.join(", ")}):`, `    return ${returned}`);
    return name;
  }
}

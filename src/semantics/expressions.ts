// Lowering of expressions: a table keyed by syntax kind, one entry per kind a kernel may use.
// A kind without an entry is reported as unsupported at the node (unsupported.ts says what to
// write instead). Every entry reports its own errors and yields undefined after one.

import { instanceOf } from "./tensor-descriptors";
import ts from "typescript";
import type { DiagnosticFix, Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { at, isAggregate, type Lowered } from "./aggregates";
import { readSlot } from "./assignment";
import { isConst } from "./values";
import type { LoweringContext } from "./context";
import { callHelper, helperCalled, plainFunctionMessage } from "./device-functions";
import { compileTimeCall } from "./compile-time-calls";
import { intrinsicNamed } from "./intrinsics";
import { conditionalExpression } from "./ternary";
import { ASSIGN_OPS, BINARY_OPS } from "./operators";
import { UNSUPPORTED_EXPRESSIONS } from "./unsupported";
import { suggestedIntrinsic, unknownIntrinsicMessage } from "./unknown-intrinsic";
import { splitArguments } from "./keywords";
import { checkStringOptions } from "./string-options";
import { readUnassigned } from "./definite-assignment";
import { compareDtypes, memberCall, propertyAccess } from "./members";
import { dtypeNamed, dtypeValue } from "./dtypes";
import { stringArg } from "./intrinsics-debug";

/** The node type of each syntax kind the table handles. */
interface ExpressionNodes {
  [ts.SyntaxKind.ParenthesizedExpression]: ts.ParenthesizedExpression;
  [ts.SyntaxKind.AsExpression]: ts.AsExpression;
  [ts.SyntaxKind.NonNullExpression]: ts.NonNullExpression;
  [ts.SyntaxKind.SatisfiesExpression]: ts.SatisfiesExpression;
  [ts.SyntaxKind.TypeAssertionExpression]: ts.TypeAssertion;
  [ts.SyntaxKind.NumericLiteral]: ts.NumericLiteral;
  [ts.SyntaxKind.TrueKeyword]: ts.TrueLiteral;
  [ts.SyntaxKind.FalseKeyword]: ts.FalseLiteral;
  [ts.SyntaxKind.Identifier]: ts.Identifier;
  [ts.SyntaxKind.PrefixUnaryExpression]: ts.PrefixUnaryExpression;
  [ts.SyntaxKind.PostfixUnaryExpression]: ts.PostfixUnaryExpression;
  [ts.SyntaxKind.BinaryExpression]: ts.BinaryExpression;
  [ts.SyntaxKind.CallExpression]: ts.CallExpression;
  [ts.SyntaxKind.PropertyAccessExpression]: ts.PropertyAccessExpression;
  [ts.SyntaxKind.ConditionalExpression]: ts.ConditionalExpression;
  [ts.SyntaxKind.ArrayLiteralExpression]: ts.ArrayLiteralExpression;
  [ts.SyntaxKind.ElementAccessExpression]: ts.ElementAccessExpression;
}

/** Each entry gives a value, a tuple or a block pointer (ctx.expression insists on a value where one is needed). */
type ExpressionLowering<N> = (ctx: LoweringContext, node: N, span: Span) => Lowered | undefined;
type ExpressionTable = { [K in keyof ExpressionNodes]: ExpressionLowering<ExpressionNodes[K]> };

/** Type-only wrappers: the value inside is lowered (TypeScript's types don't reach the GPU). */
const inner: ExpressionLowering<{ expression: ts.Expression }> = (ctx, node) => ctx.lowered(node.expression);

const EXPRESSIONS: ExpressionTable = {
  [ts.SyntaxKind.ParenthesizedExpression]: inner,
  [ts.SyntaxKind.AsExpression]: inner,
  [ts.SyntaxKind.NonNullExpression]: inner,
  [ts.SyntaxKind.SatisfiesExpression]: inner,
  [ts.SyntaxKind.TypeAssertionExpression]: inner,
  // The source text, not node.text: TypeScript normalises `1.0` to "1", which would read as an integer.
  [ts.SyntaxKind.NumericLiteral]: (ctx, node, span) => numericLiteral(ctx, node.getText(ctx.sf), span),
  [ts.SyntaxKind.TrueKeyword]: (ctx, _node, span) => ctx.b.constant(1, "bool", span),
  [ts.SyntaxKind.FalseKeyword]: (ctx, _node, span) => ctx.b.constant(0, "bool", span),
  [ts.SyntaxKind.Identifier]: identifier,
  [ts.SyntaxKind.PrefixUnaryExpression]: prefixUnary,
  [ts.SyntaxKind.PostfixUnaryExpression]: (ctx, _node, span) => {
    ctx.log.error(Codes.unsupportedSyntax, span, "'++' and '--' can only be statements of their own in kernels");
    return undefined;
  },
  [ts.SyntaxKind.BinaryExpression]: binaryExpression,
  [ts.SyntaxKind.CallExpression]: (ctx, node) => lowerCall(ctx, node, false),
  // tl.float32, x.dtype, p.dtype.element_ty, x.shape (members.ts).
  [ts.SyntaxKind.PropertyAccessExpression]: propertyAccess,
  [ts.SyntaxKind.ConditionalExpression]: (ctx, node, span) => conditionalExpression(ctx, node, span),
  // Triton's tuples: `[a, b]` is returned from a device function, destructured, passed on.
  [ts.SyntaxKind.ArrayLiteralExpression]: tupleLiteral,
  [ts.SyntaxKind.ElementAccessExpression]: tupleElement,
};

/** Lowers one expression by its kind (callers go through ctx.expression or ctx.lowered, which track the node). */
export function lowerExpression(ctx: LoweringContext, node: ts.Expression): Lowered | undefined {
  const span = ctx.span(node);
  const lower = EXPRESSIONS[node.kind as keyof ExpressionNodes] as ExpressionLowering<ts.Expression> | undefined;
  if (lower) return lower(ctx, node, span);
  const message = UNSUPPORTED_EXPRESSIONS[node.kind] ?? `this expression (${ts.SyntaxKind[node.kind]}) isn't supported in kernels`;
  ctx.log.error(Codes.unsupportedSyntax, span, message);
  return undefined;
}

export function numericLiteral(ctx: LoweringContext, text: string, span: Span): Value | undefined {
  const value = Number(text.replace(/_/g, ""));
  const isFloatText = /^[0-9_]*\.|[eE]/.test(text) && !/^0[xXbBoO]/.test(text);
  if (isFloatText || !Number.isInteger(value)) return ctx.b.constant(Math.fround(value), "f32", span);
  if (value <= 2147483647) return ctx.b.constant(value, "i32", span);
  if (value <= 4294967295) return ctx.b.constant(value, "u32", span);
  ctx.log.error(Codes.literalRange, span, `${text} doesn't fit in 32 bits; the integer dtypes are i32 and u32 (write a float literal like ${value}.0 for f32)`);
  return undefined;
}

function identifier(ctx: LoweringContext, node: ts.Identifier, span: Span): Lowered | undefined {
  const name = node.text;
  if (name === "") return undefined; // a missing name the parser already reported
  const binding = ctx.lookup(name);
  if (!binding) return unboundName(ctx, name, span);
  switch (binding.kind) {
    case "unknown":
      return undefined; // its declaration's error is reported
    case "unassigned":
      return readUnassigned(ctx, binding, span);
    case "value":
    case "aggregate":
      // The same value, located where it is used, so diagnostics point at the use.
      return at(binding.value, span);
    case "variable":
      return ctx.values.readVariable(binding.variable, span);
    case "slot":
      return readSlot(ctx, binding.slot, span);
  }
}

/** `[a, b]`: a tuple of its elements (each a value or an aggregate). */
function tupleLiteral(ctx: LoweringContext, node: ts.ArrayLiteralExpression, span: Span): Lowered | undefined {
  const elements: Lowered[] = [];
  let ok = true;
  for (const element of node.elements) {
    if (ts.isSpreadElement(element) || ts.isOmittedExpression(element)) {
      ctx.log.error(Codes.unsupportedSyntax, ctx.span(element), ts.isSpreadElement(element) ? "spread isn't supported in kernels; write each element of the tuple" : "a tuple can't have holes; write each element");
      ok = false;
      continue;
    }
    const lowered = ctx.lowered(element);
    if (lowered) elements.push(lowered);
    else ok = false;
  }
  return ok ? { kind: "tuple", elements, span } : undefined;
}

/** `t[i]`: element `i` (a compile-time integer) of a tuple. Memory is addressed with tl.load, not indexing. */
function tupleElement(ctx: LoweringContext, node: ts.ElementAccessExpression, span: Span): Lowered | undefined {
  const object = ctx.lowered(node.expression);
  if (!object) return undefined;
  if (!isAggregate(object) || object.kind !== "tuple") {
    const hint = !isAggregate(object) && object.type.kind === "pointer" ? "; address memory with tl.load(ptr + offsets)" : "; only tuples are indexed in kernels (t[0]); address memory with tl.load(ptr + offsets)";
    ctx.log.error(Codes.unsupportedSyntax, span, `indexing isn't supported on ${isAggregate(object) ? "a block pointer" : typeToString(object.type)}${hint}`);
    return undefined;
  }
  const index = ctx.expression(node.argumentExpression);
  if (!index) return undefined;
  const n = object.elements.length;
  if (!isConst(index) || !Number.isInteger(index.value) || index.value < -n || index.value >= n) {
    ctx.log.error(Codes.constantRequired, ctx.span(node.argumentExpression), `a tuple's index must be a compile-time integer from 0 to ${n - 1}`);
    return undefined;
  }
  return at(object.elements[(index.value + n) % n], span);
}

/** A name no scope binds: a module-level constant, NaN/Infinity, or an error. */
function unboundName(ctx: LoweringContext, name: string, span: Span): Value | undefined {
  const moduleConst = moduleConstant(ctx.sf, name);
  if (moduleConst) {
    const value = numericLiteral(ctx, moduleConst.text, span);
    return value && moduleConst.negative ? ctx.values.unary("neg", value, span) : value;
  }
  if (name === "undefined" || name === "NaN" || name === "Infinity") {
    if (name === "undefined") {
      ctx.log.error(Codes.unsupportedSyntax, span, "'undefined' isn't a kernel value");
      return undefined;
    }
    return ctx.b.constant(name === "NaN" ? NaN : Infinity, "f32", span);
  }
  const hint = ctx.kernel.tlNames.has(name) ? "; call one of its functions, e.g. tl.load(…)" : "; kernels can use their parameters, their own const/let values, module-level numeric constants and tl.*";
  ctx.log.error(Codes.unknownName, span, `'${name}' is not defined in this kernel${hint}`);
  return undefined;
}

function prefixUnary(ctx: LoweringContext, node: ts.PrefixUnaryExpression, span: Span): Value | undefined {
  switch (node.operator) {
    case ts.SyntaxKind.PlusToken:
      return ctx.expression(node.operand);
    case ts.SyntaxKind.MinusToken:
      return ctx.withValue(ctx.expression(node.operand), (v) => ctx.values.unary("neg", v, span));
    case ts.SyntaxKind.ExclamationToken:
      return ctx.withValue(ctx.expression(node.operand), (v) => ctx.values.unary("not", v, span));
    case ts.SyntaxKind.TildeToken:
      return ctx.withValue(ctx.expression(node.operand), (v) => ctx.values.unary("bitnot", v, span));
    default:
      ctx.log.error(Codes.unsupportedSyntax, span, "'++' and '--' can only be statements of their own in kernels");
      return undefined;
  }
}

/**
 * `a ** b` of two compile-time numbers (Triton's `2 ** (width - 1)` on constexprs, FlagGems'
 * limits.py): folded while compiling, an integer where both are and the exponent isn't negative
 * (i64 beyond 32 bits). Of run-time values it has no WGSL operator.
 */
function power(ctx: LoweringContext, node: ts.BinaryExpression, span: Span): Value | undefined {
  const a = ctx.expression(node.left);
  const b = ctx.expression(node.right);
  if (!a || !b) return undefined;
  if (!isConst(a) || !isConst(b)) {
    ctx.log.error(Codes.unsupportedSyntax, span, "'**' works on compile-time numbers (constexprs, literals); for run-time values multiply, or use tl.math.pow(x, y)");
    return undefined;
  }
  const ints = [a, b].every((v) => v.type.kind === "data" && (v.type.dtype === "i32" || v.type.dtype === "i64" || v.type.dtype === "u32")) && b.value >= 0;
  const value = a.value ** b.value;
  const dtype = !ints ? "f32" : value >= -(2 ** 31) && value < 2 ** 31 ? "i32" : "i64";
  return ctx.b.constant(value, dtype, span);
}

function binaryExpression(ctx: LoweringContext, node: ts.BinaryExpression, span: Span): Lowered | undefined {
  const kind = node.operatorToken.kind;
  if (kind === ts.SyntaxKind.InstanceOfKeyword) return instanceOf(ctx, node, span);
  if (kind === ts.SyntaxKind.AsteriskAsteriskToken) return power(ctx, node, span);
  const fn = BINARY_OPS[kind];
  if (!fn) {
    const text = node.operatorToken.getText(ctx.sf);
    const message =
      kind === ts.SyntaxKind.EqualsToken || ASSIGN_OPS[kind]
        ? "assignments can only be statements of their own in kernels"
        : `the '${text}' operator isn't supported in kernels`;
    ctx.log.error(Codes.unsupportedSyntax, span, message);
    return undefined;
  }
  if (fn === "eq" || fn === "ne") {
    // Dtypes compare while compiling (Python's `dtype is tl.float16`, `==`).
    const la = ctx.lowered(node.left);
    const lb = ctx.lowered(node.right);
    if (!la || !lb) return undefined;
    if ((isAggregate(la) && la.kind === "dtype") || (isAggregate(lb) && lb.kind === "dtype")) return compareDtypes(ctx, fn, la, lb, span);
    const tuples = compareTuples(ctx, fn, la, lb, span);
    if (tuples) return tuples;
    const a = ctx.valueOf(la, node.left);
    const b = ctx.valueOf(lb, node.right);
    return a && b && ctx.values.binary(fn, a, b, span);
  }
  const a = ctx.expression(node.left);
  const b = ctx.expression(node.right);
  if (!a || !b) return undefined;
  return ctx.values.binary(fn, a, b, span);
}

/**
 * Two tuples of compile-time numbers compare while compiling, as Python's lists and tuples do (test_core.py's
 * `tl.static_assert(a.shape == [128])`, `a.shape == []` of a scalar): equal where they have the same length and
 * equal elements. Undefined where either isn't such a tuple (a run-time element: compared as values, refused).
 */
function compareTuples(ctx: LoweringContext, fn: "eq" | "ne", la: Lowered, lb: Lowered, span: Span): Value | undefined {
  if (!isAggregate(la) || la.kind !== "tuple" || la.wide || !isAggregate(lb) || lb.kind !== "tuple" || lb.wide) return undefined;
  const numbers = (t: typeof la) => t.elements.map((e) => (!isAggregate(e) && isConst(e) ? e.value : undefined));
  const [xs, ys] = [numbers(la), numbers(lb)];
  if (xs.includes(undefined) || ys.includes(undefined)) return undefined;
  const equal = xs.length === ys.length && xs.every((x, i) => x === ys[i]);
  return ctx.b.constant(equal === (fn === "eq") ? 1 : 0, "bool", span);
}

/**
 * `tl.dtype(name)`: the dtype a name makes, while compiling (FlagGems' nanmedian: `tl.dtype(f"uint{BITS}")` of a
 * constexpr); the name a string or an f-string of constexprs.
 */
function dtypeCall(ctx: LoweringContext, node: ts.CallExpression, span: Span): Lowered | undefined {
  const example = 'tl.dtype("int32")';
  if (node.arguments.length !== 1) {
    ctx.log.error(Codes.intrinsicArgs, span, `tl.dtype takes one argument, a dtype's name: ${example}`);
    return undefined;
  }
  const name = stringArg(ctx, node.arguments[0], span, "tl.dtype's name", example, "a dtype is decided while compiling, so its name is made of constexprs (tl.dtype(f\"uint{BITS}\") with BITS a tl.constexpr)");
  if (name === undefined) return undefined;
  const dtype = dtypeNamed(name);
  if (!dtype) {
    ctx.log.error(Codes.unknownIntrinsic, ctx.span(node.arguments[0]), `tl.dtype("${name}") names no dtype; Triton's names are int1, int8 … int64, uint8 … uint64, fp8e4nv, fp8e5, fp16, bf16, fp32 and fp64`);
    return undefined;
  }
  return dtypeValue({ of: "scalar", name: dtype }, span);
}

/** A call: only tl.* intrinsics (intrinsics.ts); `asStatement` allows those without a value. */
export function lowerCall(ctx: LoweringContext, node: ts.CallExpression, asStatement: boolean): Lowered | undefined {
  const span = ctx.span(node);
  const callee = node.expression;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && ctx.kernel.tlNames.has(callee.expression.text) && !ctx.lookup(callee.expression.text)) {
    const name = callee.name.text;
    if (name === "dtype") return dtypeCall(ctx, node, span);
    const intrinsic = intrinsicNamed(name);
    if (!intrinsic) {
      const nameSpan = ctx.span(callee.name);
      const meant = suggestedIntrinsic(name);
      const fix = meant && { title: `Change to ${callee.expression.text}.${meant.name}`, edits: [{ span: nameSpan, text: meant.name }], preferred: meant.certain };
      ctx.log.error(Codes.unknownIntrinsic, nameSpan, unknownIntrinsicMessage(name), undefined, fix ? [fix] : undefined);
      return undefined;
    }
    const split = splitArguments(ctx.log, (n) => ctx.span(n), `tl.${name}`, intrinsic, node.arguments);
    if (!split) return undefined;
    checkStringOptions(ctx, `tl.${name}`, intrinsic, node.arguments, split.keywords);
    const result = intrinsic.lower(ctx, split.args, span, name, split.keywords);
    if (result === "void") {
      if (!asStatement) ctx.log.error(Codes.unsupportedSyntax, span, `tl.${name}(…) has no value; write it as a statement of its own`);
      return undefined;
    }
    return result;
  }
  const helper = helperCalled(ctx, callee);
  if (helper) return callHelper(ctx, helper, node, asStatement);
  const constant = compileTimeCall(ctx, node);
  if (constant !== "none") return constant;
  const isMath = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Math" && !ctx.lookup("Math");
  if (ts.isPropertyAccessExpression(callee) && !isMath) {
    // tl.math.rsqrt(x), libdevice.tanh(x), x.to(tl.float32), x.sum(0), x.dtype.is_floating() (members.ts).
    const member = memberCall(ctx, node, callee, span);
    if (member === "error") return undefined;
    if (member === "void") {
      if (!asStatement) ctx.log.error(Codes.unsupportedSyntax, span, `${callee.name.text}(…) has no value; write it as a statement of its own`);
      return undefined;
    }
    if (member !== "none") return member;
  }
  let message = "kernels can only call tl.* functions; write the computation inline";
  const math = ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === "Math" ? mathReplacement(ctx, callee, node.arguments.length) : undefined;
  if (math) {
    ctx.log.error(Codes.unsupportedCall, span, `${math.call} runs on the CPU; in a kernel use tl.${math.name}`, undefined, math.fix && [math.fix]);
    return undefined;
  }
  if (ts.isIdentifier(callee) && callee.text === ctx.kernel.name) {
    message = "kernels can't call themselves (no recursion on the GPU)";
  } else if (ts.isIdentifier(callee) && plainFunctionMessage(ctx, callee.text)) {
    message = plainFunctionMessage(ctx, callee.text)!;
  } else if (ts.isIdentifier(callee)) {
    message = `'${callee.text}' isn't a tl.* function; kernels can only call tl.* functions — write the computation inline`;
  }
  ctx.log.error(Codes.unsupportedCall, span, message);
  return undefined;
}

/**
 * Math.f(…) → the tl.* function that computes it on blocks: the same name (Math.exp → tl.exp), or
 * the element-wise one where Math's name is a reduction's in tl (Math.max(a, b) → tl.maximum(a, b)).
 * The fix only where the call would then compile (tl.maximum takes two arguments, Math.max any).
 */
function mathReplacement(ctx: LoweringContext, callee: ts.PropertyAccessExpression, argumentCount: number): { call: string; name: string; fix?: DiagnosticFix } | undefined {
  const elementwise: Record<string, { name: string; arity: number }> = { max: { name: "maximum", arity: 2 }, min: { name: "minimum", arity: 2 } };
  const name = elementwise[callee.name.text]?.name ?? callee.name.text;
  const arity = elementwise[callee.name.text]?.arity;
  if (!intrinsicNamed(name)) return undefined;
  const call = `Math.${callee.name.text}`;
  if (arity !== undefined && argumentCount !== arity) return { call, name };
  const tlName = [...ctx.kernel.tlNames][0] ?? "tl";
  return { call, name, fix: { title: `Change to ${tlName}.${name}`, edits: [{ span: ctx.span(callee), text: `${tlName}.${name}` }], preferred: true } };
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

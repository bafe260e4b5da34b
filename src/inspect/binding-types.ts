// The types the checker gave a file's kernel bodies, for the editor's inlay hints and hovers.
// A kernel is lowered (not compiled to WGSL) for the constexprs of its first `defineRun` with
// literal ones; without any, it is lowered twice with different placeholders, and an extent that
// follows a constexpr is shown by its name (`f32[BLOCK]`).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import type { Shape, ValueType } from "../ir/ir";
import { DEFAULT_TARGET } from "../ir/target";
import { lowerKernel } from "../semantics/lower";
import type { BoundName, TypesSeen } from "../semantics/types-seen";
import { parseKernelFile, spanOf, type KernelSource } from "../syntax/parse";

/** A block's extent: a number, or the name of the constexpr it equals. */
export type Extent = number | string;

export interface BindingType {
  name: string;
  span: Span;
  what: BoundName["what"];
  /** `i32`, `f32[128×256]`, `bool[BLOCK]`, `Ptr<f32>[1024]`. */
  type: string;
}

export interface TlCall {
  /** `sum` for `tl.sum(…)`. */
  name: string;
  /** The whole call, and the `tl.sum` callee. */
  span: Span;
  callee: Span;
  args: { text: string; type?: string; literal: boolean }[];
  /** Undefined for tl.store, or where the call didn't check. */
  result?: string;
}

export interface KernelTypes {
  kernel: string;
  /** The constexpr values the types are for; empty when shown by name. */
  constexprs: Readonly<Record<string, number>>;
  bindings: BindingType[];
  /** Every expression the checker typed; `name` when it is a plain name. */
  expressions: { span: Span; type: string; name?: string }[];
  calls: TlCall[];
}

/** Each kernel of the file whose body could be typed (kernels with parameter errors are left out). */
export function bindingTypes(fileName: string, text: string): KernelTypes[] {
  const parsed = parseKernelFile(fileName, text);
  const found: KernelTypes[] = [];
  for (const kernel of parsed.kernels) {
    if (!kernel.ok) continue;
    // Constexprs only the run knows (a function of the size) are shown by name, as without a run.
    const literal = parsed.runTimeConstexprs.has(kernel.name) ? undefined : parsed.literalConstexprs.get(kernel.name)?.[0];
    const typed = literal ? typesFor(kernel, literal) : symbolicTypes(kernel);
    if (typed) found.push(typed);
  }
  return found;
}

function typesFor(kernel: KernelSource, constexprs: Readonly<Record<string, number>>): KernelTypes | undefined {
  const seen = lowerKernel(kernel, constexprs, DEFAULT_TARGET).seen;
  return seen && collect(kernel, constexprs, seen, (type) => typeText(type, type.shape));
}

/**
 * Constexprs get values in two sets, A (16, 32, 64…) and B (each doubled): an extent that is a
 * constexpr's value in both lowerings is that constexpr; one that is the same in both is a number.
 * Others (a product, a quotient) are shown as `?`.
 */
function symbolicTypes(kernel: KernelSource): KernelTypes | undefined {
  const names = kernel.params.filter((p) => p.kind === "constexpr").map((p) => p.name);
  const a = Object.fromEntries(names.map((n, i) => [n, 16 << i]));
  const b = Object.fromEntries(names.map((n, i) => [n, 32 << i]));
  const seenA = lowerKernel(kernel, a, DEFAULT_TARGET).seen;
  const seenB = lowerKernel(kernel, b, DEFAULT_TARGET).seen;
  if (!seenA || !seenB) return undefined;
  const other = new Map<string, ValueType>();
  for (const e of seenB.expressions) other.set(`${e.span.start}:${e.span.end}`, e.type);
  for (const n of seenB.bindings) other.set(`${n.name}@${n.span.start}`, n.type);
  const extents = (typeA: ValueType, typeB: ValueType | undefined): Extent[] | undefined => {
    if (!typeB || typeB.shape.length !== typeA.shape.length) return undefined;
    return typeA.shape.map((x, i) => {
      const y = typeB.shape[i];
      if (x === y) return x;
      return names.find((n) => a[n] === x && b[n] === y) ?? "?";
    });
  };
  const typed = collect(kernel, {}, seenA, (type, key) => {
    const shape = extents(type, other.get(key));
    return shape && typeText(type, shape);
  });
  return typed;
}

function collect(kernel: KernelSource, constexprs: Readonly<Record<string, number>>, seen: TypesSeen, show: (type: ValueType, key: string) => string | undefined): KernelTypes {
  const bindings: BindingType[] = [];
  for (const n of seen.bindings) {
    const type = show(n.type, `${n.name}@${n.span.start}`);
    if (type !== undefined && n.what !== "parameter") bindings.push({ name: n.name, span: n.span, what: n.what, type });
  }
  const byNode = new Map<string, string>();
  const expressions: KernelTypes["expressions"] = [];
  for (const e of seen.expressions) {
    const key = `${e.span.start}:${e.span.end}`;
    const type = show(e.type, key);
    if (type === undefined || byNode.has(key)) continue;
    byNode.set(key, type);
    const text = kernel.sourceFile.text.slice(e.span.start, e.span.end);
    expressions.push({ span: e.span, type, ...(/^[A-Za-z_$][\w$]*$/.test(text) ? { name: text } : {}) });
  }
  return { kernel: kernel.name, constexprs, bindings, expressions, calls: tlCalls(kernel, byNode) };
}

/** The `tl.*` calls of the body, with the types the checker gave their arguments and result. */
function tlCalls(kernel: KernelSource, byNode: ReadonlyMap<string, string>): TlCall[] {
  const sf = kernel.sourceFile;
  const typeOf = (node: ts.Node) => {
    const s = spanOf(node, sf);
    return byNode.get(`${s.start}:${s.end}`);
  };
  const calls: TlCall[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && kernel.tlNames.has(node.expression.expression.text)) {
      calls.push({
        name: node.expression.name.text,
        span: spanOf(node, sf),
        callee: spanOf(node.expression, sf),
        args: node.arguments.map((arg) => ({ text: arg.getText(sf), type: typeOf(arg), literal: isLiteral(arg) })),
        result: typeOf(node),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(kernel.fn.body);
  return calls;
}

function isLiteral(node: ts.Expression): boolean {
  if (ts.isPrefixUnaryExpression(node)) return isLiteral(node.operand);
  if (ts.isIdentifier(node)) return node.text === "Infinity" || node.text === "NaN";
  return ts.isNumericLiteral(node) || ts.isStringLiteral(node) || ts.isArrayLiteralExpression(node) || node.kind === ts.SyntaxKind.TrueKeyword || node.kind === ts.SyntaxKind.FalseKeyword;
}

/** `f32[128×256]`: the dtype (or pointer) and the block's extents; a scalar is just its dtype. */
export function typeText(type: ValueType, shape: readonly Extent[] | Shape): string {
  const base = type.kind === "pointer" ? `Ptr<${type.pointee}>` : type.dtype;
  return shape.length === 0 ? base : `${base}[${shape.join("×")}]`;
}

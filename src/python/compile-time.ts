// What a Python expression is while compiling, before any TypeScript is written for it
// (expressions.ts writes it): an operator's text, a comparison decided on constexprs and None, a
// parameter's dtype a launch gives, a dtype named through `tl`, the and/or/not chain regrouped
// with Python's precedence.

import type { LowerContext } from "./context";
import { nodeText } from "./context";
import { DTYPES } from "./names";
import { isDtypeConst, type PyConst } from "./literals";
import { children, dottedName, stringValue, trailingDotFloat, type SyntaxNode } from "./tree";

export function operatorText(ctx: LowerContext, n: SyntaxNode): string {
  const kids = children(n);
  return kids.slice(1, -1).map((k) => nodeText(ctx, k)).join(" ");
}

/** `/` stays `/` where a side is a float literal (float division either way). */
export function trueDivisionIsPlain(ctx: LowerContext, n: SyntaxNode): boolean {
  const kids = children(n);
  const isFloat = (k: SyntaxNode) => {
    const inner = k.name === "UnaryExpression" ? children(k)[1] : k;
    if (inner && trailingDotFloat(ctx.text, inner) !== undefined) return true;
    return inner?.name === "Number" && /^[\d_]*\.[\d_]*(?:[eE][+-]?\d+)?$|^[\d_]+[eE][+-]?\d+$/.test(nodeText(ctx, inner));
  };
  return isFloat(kids[0]) || isFloat(kids[kids.length - 1]);
}

/** What a side of a comparison is while compiling: None, a string, a known constexpr; undefined for a run-time value. */
function staticValue(ctx: LowerContext, n: SyntaxNode): PyConst | undefined {
  if (n.name === "None") return null;
  if (n.name === "MemberExpression") {
    const dtype = paramDtype(ctx, n) ?? dtypeOf(ctx, n);
    return dtype === undefined ? undefined : { dtype };
  }
  if (n.name === "String") return stringValue(ctx.text, n);
  if (n.name === "VariableName") {
    const name = nodeText(ctx, n);
    if (ctx.noneNames.has(name)) return null;
    return ctx.known.has(name) ? ctx.known.get(name) : !ctx.params.has(name) && !ctx.plan.locals.has(name) ? ctx.file.constants.get(name)?.value : undefined;
  }
  return undefined;
}

/** `x is None`, `ACTIVATION == "relu"`: decided while compiling, as Triton decides them on constexprs. */
export function staticComparison(ctx: LowerContext, n: SyntaxNode): boolean | undefined {
  const kids = children(n);
  const op = operatorText(ctx, n);
  if (!["==", "!=", "is", "is not"].includes(op)) return undefined;
  const a = staticValue(ctx, kids[0]);
  const b = staticValue(ctx, kids[kids.length - 1]);
  const equal = op === "==" || op === "is";
  if (a !== undefined && b !== undefined) {
    // Dtypes compare by name, and a dtype is never None, a string or a number.
    if (isDtypeConst(a) || isDtypeConst(b)) return equal === (isDtypeConst(a) && isDtypeConst(b) && a.dtype === b.dtype);
    if (typeof a === "string" || typeof b === "string" || a === null || b === null) return equal === (a === b);
    if (Array.isArray(a) || Array.isArray(b)) return equal === (JSON.stringify(a) === JSON.stringify(b));
    return undefined; // two numbers: the TypeScript compiler folds them
  }
  // A run-time value (a block, a pointer) is never None; a string is never one either. Its dtype
  // (`x.dtype == tl.float16` of a loaded block) is the kernel language's to compare (members.ts).
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return !equal;
  return undefined;
}

export interface BooleanItem {
  nots: SyntaxNode[];
  expr: SyntaxNode;
}

/**
 * `and`/`or`/`not` as Python groups them. Lezer's Python grammar lets `not` take a whole
 * `b or c` (it parses `not b or c` as `not (b or c)`), so the chain is flattened and regrouped
 * here with Python's precedence: not, then and, then or.
 */
export function booleanChain(ctx: LowerContext, n: SyntaxNode): { items: BooleanItem[]; ops: ("and" | "or")[] } | undefined {
  const isAndOr = (x: SyntaxNode) => x.name === "BinaryExpression" && ["and", "or"].includes(operatorText(ctx, x));
  const isNot = (x: SyntaxNode) => x.name === "UnaryExpression" && children(x)[0]?.name === "not";
  if (!isAndOr(n) && !(isNot(n) && (isAndOr(children(n)[1]) || isNot(children(n)[1])))) return undefined;
  const flatten = (x: SyntaxNode): { items: BooleanItem[]; ops: ("and" | "or")[] } => {
    if (isAndOr(x)) {
      const kids = children(x);
      const l = flatten(kids[0]);
      const r = flatten(kids[kids.length - 1]);
      return { items: [...l.items, ...r.items], ops: [...l.ops, operatorText(ctx, x) as "and" | "or", ...r.ops] };
    }
    if (isNot(x)) {
      const inner = flatten(children(x)[1]);
      inner.items[0] = { nots: [children(x)[0], ...inner.items[0].nots], expr: inner.items[0].expr };
      return inner;
    }
    return { items: [{ nots: [], expr: x }], ops: [] };
  };
  return flatten(n);
}

/**
 * The dtype a launch gives a parameter, where the kernel asks for it: `X.dtype.element_ty` and
 * `X.type.element_ty` of a pointer, `n.dtype` of a scalar (decided while compiling, as in Triton).
 */
export function paramDtype(ctx: LowerContext, n: SyntaxNode): string | undefined {
  const name = dottedName(ctx.text, n);
  if (!name || ctx.plan.locals.has(name[0])) return undefined;
  const annotation = ctx.annotations.get(name[0]);
  if (!annotation) return undefined;
  const pointer = /^Ptr<(\w+)>$/.exec(annotation);
  if (pointer && name.length === 3 && (name[1] === "dtype" || name[1] === "type") && name[2] === "element_ty") return pointer[1];
  if (!pointer && annotation !== "constexpr" && name.length === 2 && name[1] === "dtype") return annotation;
  return undefined;
}

/** `tl.float16` (or `triton.language.float16`) → "f16"; undefined for anything else. */
export function dtypeOf(ctx: LowerContext, n: SyntaxNode): string | undefined {
  const name = dottedName(ctx.text, n);
  if (!name || name.length < 2) return undefined;
  const head = name.slice(0, -1).join(".");
  const isTl = ctx.file.imports.tl.has(head) || head === "triton.language" || (head === "tl" && ctx.file.imports.tl.size === 0);
  return isTl ? DTYPES[name[name.length - 1]] : undefined;
}

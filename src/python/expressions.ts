// Python expressions → TypeScript kernel expressions (docs/LANGUAGE.md §2.2): operators keep their meaning
// (`//` is Kernel Lab's truncating `/`; `/` is true division, `tl.fdiv` unless a side is a float
// literal), `and`/`or`/`not` → `&&`/`||`/`!`, `x[:, None]` → `tl.expandDims(x, 1)`, tuples →
// arrays, `a if c else b` → `c ? a : b`. Parentheses are added where TypeScript's precedence
// differs from Python's (`x & 1 == 0`). Each piece written is mapped back to its Python range.

import type { LowerContext } from "./context";
import { nodeText, unsupported } from "./context";
import { Codes } from "../diagnostics/codes";
import { lowerCall } from "./calls";
import { DTYPES, TRITON_DTYPES, tsName } from "./names";
import type { PyConst } from "./literals";
import { children, dottedName, parts, spanOf, stringValue, trailingDotFloat, type SyntaxNode } from "./tree";

/** Where each Python operator's TypeScript spelling binds (higher binds tighter). */
const PRECEDENCE: Readonly<Record<string, number>> = {
  "||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "===": 6, "!==": 6, "<": 7, "<=": 7, ">": 7, ">=": 7,
  "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10,
};
const UNARY = 11;
const PRIMARY = 20;

const COMPARE: Readonly<Record<string, string>> = { "==": "===", "!=": "!==", "<": "<", "<=": "<=", ">": ">", ">=": ">=", is: "===", "is not": "!==" };
const ARITH: Readonly<Record<string, string>> = { "+": "+", "-": "-", "*": "*", "%": "%", "//": "/", "&": "&", "|": "|", "^": "^", "<<": "<<", ">>": ">>" };

/** Constructs Lezer names that have no kernel meaning, and what to say about each. */
const UNSUPPORTED: Readonly<Record<string, [string, string]>> = {
  LambdaExpression: ["a lambda", "write a @triton.jit function and call it"],
  ComprehensionExpression: ["a generator expression", "write the loop out with tl.static_range"],
  ArrayComprehensionExpression: ["a list comprehension", "write the loop out with tl.static_range"],
  DictionaryExpression: ["a dict", "kernels work on scalars, blocks and tuples"],
  DictionaryComprehensionExpression: ["a dict comprehension", "kernels work on scalars, blocks and tuples"],
  SetExpression: ["a set", "kernels work on scalars, blocks and tuples"],
  SetComprehensionExpression: ["a set comprehension", "kernels work on scalars, blocks and tuples"],
  FormatString: ["an f-string", "tl.device_print takes a plain string prefix and the values"],
  ContinuedString: ["string concatenation", "write one string literal"],
  AwaitExpression: ["await", ""],
  YieldExpression: ["yield", ""],
  NamedExpression: ["the walrus operator :=", "assign in a statement of its own"],
  "...": ["the Ellipsis (...)", "write each axis: x[:, None]"],
};

export function lowerExpr(ctx: LowerContext, n: SyntaxNode): void {
  const { w } = ctx;
  const span = spanOf(n);
  switch (n.name) {
    case "VariableName":
      return lowerName(ctx, n);
    case "Number": {
      const raw = nodeText(ctx, n);
      if (/[jJ]$/.test(raw)) return unsupported(ctx, n, "a complex number", "");
      return w.token(raw, span, true);
    }
    case "String": {
      const value = stringValue(ctx.text, n);
      if (value === undefined) return unsupported(ctx, n, "a bytes or raw string", "write a plain string");
      return w.token(JSON.stringify(value), span);
    }
    case "Boolean":
      return w.token(nodeText(ctx, n) === "True" ? "true" : "false", span);
    case "None":
      return unsupported(ctx, n, "None as a value", "None is only compared with `is None` or left out as a keyword argument");
    case "ParenthesizedExpression": {
      const inner = parts(n)[0];
      if (!inner) return;
      return w.node(span, () => {
        w.write("(");
        lowerExpr(ctx, inner);
        w.write(")");
      });
    }
    case "TupleExpression":
    case "ArrayExpression":
      return w.node(span, () => lowerList(ctx, parts(n)));
    case "UnaryExpression":
      return lowerUnary(ctx, n);
    case "BinaryExpression":
      return lowerBinary(ctx, n);
    case "ConditionalExpression": {
      const [a, , cond, , b] = children(n);
      return w.node(span, () => {
        operand(ctx, cond, 1, false);
        w.write(" ? ");
        operand(ctx, a, 1, false);
        w.write(" : ");
        operand(ctx, b, 1, false);
      });
    }
    case "CallExpression":
      return lowerCall(ctx, n);
    case "MemberExpression":
      return lowerMember(ctx, n);
    default: {
      const known = UNSUPPORTED[n.name];
      if (known) return unsupported(ctx, n, known[0], known[1]);
      return unsupported(ctx, n, `this expression (${n.name})`, "");
    }
  }
}

export function lowerList(ctx: LowerContext, items: readonly SyntaxNode[]): void {
  ctx.w.write("[");
  items.forEach((item, i) => {
    if (i > 0) ctx.w.write(", ");
    lowerExpr(ctx, item);
  });
  ctx.w.write("]");
}

/** Writes `n` as an operand of an operator of precedence `parent`, in parentheses where TypeScript needs them. */
export function operand(ctx: LowerContext, n: SyntaxNode, parent: number, right: boolean): void {
  const p = precedence(ctx, n);
  if (p < parent || (right && p === parent)) {
    ctx.w.node(spanOf(n), () => {
      ctx.w.write("(");
      lowerExpr(ctx, n);
      ctx.w.write(")");
    });
  } else lowerExpr(ctx, n);
}

function precedence(ctx: LowerContext, n: SyntaxNode): number {
  if (n.name === "ConditionalExpression") return 0;
  const chain = booleanChain(ctx, n);
  if (chain) return chain.ops.includes("or") ? 1 : chain.ops.includes("and") ? 2 : UNARY;
  if (n.name === "UnaryExpression") return UNARY;
  if (n.name !== "BinaryExpression") return PRIMARY;
  const op = operatorText(ctx, n);
  if (op in COMPARE) return staticComparison(ctx, n) !== undefined ? PRIMARY : PRECEDENCE[COMPARE[op]];
  if (op === "/") return trueDivisionIsPlain(ctx, n) ? PRECEDENCE["/"] : PRIMARY;
  return PRECEDENCE[ARITH[op] ?? ""] ?? PRIMARY;
}

export function operatorText(ctx: LowerContext, n: SyntaxNode): string {
  const kids = children(n);
  return kids.slice(1, -1).map((k) => nodeText(ctx, k)).join(" ");
}

function lowerName(ctx: LowerContext, n: SyntaxNode): void {
  const name = nodeText(ctx, n);
  const span = spanOf(n);
  if (ctx.params.has(name) || ctx.plan.locals.has(name)) {
    const known = ctx.known.get(name);
    // A string or None constexpr has no value in the TypeScript language: only its truth.
    if (known === null || typeof known === "string") return ctx.w.token(known ? "true" : "false", span);
    return ctx.w.token(tsName(name), span, tsName(name) === name);
  }
  const constant = ctx.file.constants.get(name);
  if (constant) {
    if (!constant.constexpr) {
      ctx.log.warning(Codes.pythonGlobal, span, `the module-level '${name}' is read in a kernel but isn't a tl.constexpr (Triton refuses it); write ${name} = tl.constexpr(${constant.text})`);
    }
    return ctx.w.token(constantText(constant.value, constant.text), span);
  }
  ctx.w.token(tsName(name), span, tsName(name) === name);
}

/** A known value as TypeScript source: numbers keep how Python wrote them (so `2.0` stays a float). */
export function constantText(value: PyConst, written?: string): string {
  if (typeof value === "number") {
    if (written !== undefined && /^-?[\d.eE+_]+$/.test(written)) return written.replace(/_/g, "");
    return Number.isInteger(value) ? String(value) : String(value);
  }
  if (typeof value === "boolean") return String(value);
  if (value === null || typeof value === "string") return value ? "true" : "false";
  return String(value);
}

function lowerUnary(ctx: LowerContext, n: SyntaxNode): void {
  if (booleanChain(ctx, n)) return lowerBoolean(ctx, n);
  const [op, value] = children(n);
  const text = nodeText(ctx, op);
  ctx.w.node(spanOf(n), () => {
    ctx.w.write(text === "not" ? "!" : text);
    operand(ctx, value, UNARY, false);
  });
}

function lowerBinary(ctx: LowerContext, n: SyntaxNode): void {
  if (booleanChain(ctx, n)) return lowerBoolean(ctx, n);
  const kids = children(n);
  const left = kids[0];
  const right = kids[kids.length - 1];
  const op = operatorText(ctx, n);
  const span = spanOf(n);
  if (op in COMPARE) {
    if (left.name === "BinaryExpression" && operatorText(ctx, left) in COMPARE) {
      return unsupported(ctx, n, "a chained comparison (a < b < c)", "Triton doesn't take it either; write (a < b) & (b < c)");
    }
    const folded = staticComparison(ctx, n);
    if (folded !== undefined) return ctx.w.token(folded ? "true" : "false", span);
  }
  if (op === "in" || op === "not in") return unsupported(ctx, n, `'${op}'`, "compare with == instead");
  if (op === "**") return unsupported(ctx, n, "the power operator **", "use tl.math.pow(x, y) or multiply");
  if (op === "@") return unsupported(ctx, n, "the matrix product operator @", "use tl.dot(a, b)");
  if (op === "/" && !trueDivisionIsPlain(ctx, n)) {
    // Triton's `/` is true division: two integers give a float. tl.fdiv is that (and plain `/` on floats).
    return ctx.w.node(span, () => {
      ctx.w.write("tl.fdiv(");
      lowerExpr(ctx, left);
      ctx.w.write(", ");
      lowerExpr(ctx, right);
      ctx.w.write(")");
    });
  }
  const ts = op === "/" ? "/" : COMPARE[op] ?? ARITH[op];
  if (!ts) return unsupported(ctx, n, `the operator '${op}'`, "");
  const p = PRECEDENCE[ts];
  ctx.w.node(span, () => {
    operand(ctx, left, p, false);
    ctx.w.write(` ${ts} `);
    operand(ctx, right, p, true);
  });
}

/** `/` stays `/` where a side is a float literal (float division either way). */
function trueDivisionIsPlain(ctx: LowerContext, n: SyntaxNode): boolean {
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
  if (n.name === "MemberExpression") return paramDtype(ctx, n) ?? dtypeOf(ctx, n);
  if (n.name === "String") return stringValue(ctx.text, n);
  if (n.name === "VariableName") {
    const name = nodeText(ctx, n);
    if (ctx.known.has(name)) return ctx.known.get(name);
    if (!ctx.params.has(name) && !ctx.plan.locals.has(name)) return ctx.file.constants.get(name)?.value;
  }
  return undefined;
}

/** `x is None`, `ACTIVATION == "relu"`: decided while compiling, as Triton decides them on constexprs. */
function staticComparison(ctx: LowerContext, n: SyntaxNode): boolean | undefined {
  const kids = children(n);
  const op = operatorText(ctx, n);
  if (!["==", "!=", "is", "is not"].includes(op)) return undefined;
  const a = staticValue(ctx, kids[0]);
  const b = staticValue(ctx, kids[kids.length - 1]);
  const equal = op === "==" || op === "is";
  if (a !== undefined && b !== undefined) {
    if (typeof a === "string" || typeof b === "string" || a === null || b === null) return equal === (a === b);
    return undefined; // two numbers: the TypeScript compiler folds them
  }
  // A run-time value (a block, a pointer) is never None; a string is never one either.
  if (a === null || b === null || typeof a === "string" || typeof b === "string") return !equal;
  return undefined;
}

interface BooleanItem {
  nots: SyntaxNode[];
  expr: SyntaxNode;
}

/**
 * `and`/`or`/`not` as Python groups them. Lezer's Python grammar lets `not` take a whole
 * `b or c` (it parses `not b or c` as `not (b or c)`), so the chain is flattened and regrouped
 * here with Python's precedence: not, then and, then or.
 */
function booleanChain(ctx: LowerContext, n: SyntaxNode): { items: BooleanItem[]; ops: ("and" | "or")[] } | undefined {
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

function lowerBoolean(ctx: LowerContext, n: SyntaxNode): void {
  const chain = booleanChain(ctx, n)!;
  const itemSpan = (i: BooleanItem) => ({ start: (i.nots[0] ?? i.expr).from, end: i.expr.to });
  const writeItem = (item: BooleanItem, parent: number, right: boolean) =>
    ctx.w.node(itemSpan(item), () => {
      if (item.nots.length === 0) return operand(ctx, item.expr, parent, right);
      ctx.w.write("!".repeat(item.nots.length));
      operand(ctx, item.expr, UNARY, false);
    });
  // Split at `or`, then each part at `and`.
  const groups: BooleanItem[][] = [[chain.items[0]]];
  chain.ops.forEach((op, i) => {
    if (op === "or") groups.push([chain.items[i + 1]]);
    else groups[groups.length - 1].push(chain.items[i + 1]);
  });
  ctx.w.node(spanOf(n), () => {
    groups.forEach((group, g) => {
      if (g > 0) ctx.w.write(" || ");
      const span = { start: itemSpan(group[0]).start, end: itemSpan(group[group.length - 1]).end };
      ctx.w.node(span, () =>
        group.forEach((item, i) => {
          if (i > 0) ctx.w.write(" && ");
          writeItem(item, group.length > 1 ? 2 : groups.length > 1 ? 1 : 0, i > 0);
        }),
      );
    });
  });
}

/** The properties of values and dtypes the kernel language reads as Triton does. */
const MEMBERS: ReadonlySet<string> = new Set(["dtype", "type", "shape", "element_ty", "scalar", "primitive_bitwidth"]);

function lowerMember(ctx: LowerContext, n: SyntaxNode): void {
  const kids = children(n);
  const span = spanOf(n);
  const float = trailingDotFloat(ctx.text, n);
  if (float !== undefined) return ctx.w.token(float.replace(/_/g, ""), span);
  if (kids[1]?.name === ".") {
    // A dtype is a value of the kernel language (tl.float32, semantics/dtypes.ts): it may be held in
    // a name (`cdtype = tl.float32`) and chosen (`tl.float32 if … else x.dtype`), which a string can't.
    const dtype = dtypeOf(ctx, n) ?? paramDtype(ctx, n);
    if (dtype) return ctx.w.token(Object.hasOwn(TRITON_DTYPES, dtype) ? `tl.${TRITON_DTYPES[dtype]}` : JSON.stringify(dtype), span);
    const property = nodeText(ctx, kids[2]);
    if (property === "T") {
      return ctx.w.node(span, () => {
        ctx.w.write("tl.trans(");
        lowerExpr(ctx, kids[0]);
        ctx.w.write(")");
      });
    }
    // Triton's members the kernel language has (semantics/members.ts): x.dtype, p.dtype.element_ty, x.shape …
    if (MEMBERS.has(property)) {
      return ctx.w.node(span, () => {
        lowerExpr(ctx, kids[0]);
        ctx.w.write(`.${property}`);
      });
    }
    return unsupported(ctx, n, `the attribute '.${property}'`, "");
  }
  lowerSubscript(ctx, n, kids);
}

/**
 * The dtype a launch gives a parameter, where the kernel asks for it: `X.dtype.element_ty` and
 * `X.type.element_ty` of a pointer, `n.dtype` of a scalar (decided while compiling, as in Triton).
 */
function paramDtype(ctx: LowerContext, n: SyntaxNode): string | undefined {
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

function lowerSubscript(ctx: LowerContext, n: SyntaxNode, kids: SyntaxNode[]): void {
  const open = kids.findIndex((k) => k.name === "[");
  const object = kids[0];
  const inside = kids.slice(open + 1, -1);
  const slots: SyntaxNode[][] = [[]];
  for (const k of inside) {
    if (k.name === ",") slots.push([]);
    else slots[slots.length - 1].push(k);
  }
  if (slots[slots.length - 1].length === 0 && slots.length > 1) slots.pop();
  const kinds = slots.map((s) => (s.length === 1 && s[0].name === ":" ? "all" : s.length === 1 && s[0].name === "None" ? "new" : s.length === 1 ? "index" : "slice"));
  const span = spanOf(n);
  if (kinds.length === 1 && kinds[0] === "index") {
    return ctx.w.node(span, () => {
      operand(ctx, object, PRIMARY, false);
      ctx.w.write("[");
      lowerExpr(ctx, slots[0][0]);
      ctx.w.write("]");
    });
  }
  if (kinds.some((k) => k === "slice" || k === "index")) {
    return unsupported(ctx, n, "slicing a block", "blocks are indexed only to add axes (x[:, None]); index tuples with a constant (t[0])");
  }
  const axes = kinds.flatMap((k, i) => (k === "new" ? [i] : []));
  if (axes.length === 0) return lowerExpr(ctx, object);
  ctx.w.node(span, () => {
    ctx.w.write("tl.expandDims(");
    lowerExpr(ctx, object);
    ctx.w.write(axes.length === 1 ? `, ${axes[0]})` : `, [${axes.join(", ")}])`);
  });
}

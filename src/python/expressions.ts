// Python expressions → TypeScript kernel expressions (docs/LANGUAGE.md §2.2): operators keep their meaning
// (`//` is Kernel Lab's truncating `/`; `/` is true division, `tl.fdiv` unless a side is a float
// literal), `and`/`or`/`not` → `&&`/`||`/`!`, `x[:, None]` → `tl.expandDims(x, 1)`, tuples →
// arrays, `a if c else b` → `c ? a : b`. Parentheses are added where TypeScript's precedence
// differs from Python's (`x & 1 == 0`). Each piece written is mapped back to its Python range.

import type { Span } from "../diagnostics/diagnostic";
import type { LowerContext } from "./context";
import { nodeText, unsupported } from "./context";
import { Codes } from "../diagnostics/codes";
import { lowerCall, staticGetattr } from "./calls";
import { TRITON_DTYPES, tsName } from "./names";
import { isDtypeConst, literalValue, MATH_CONSTANTS, type PyConst } from "./literals";
import { children, dottedName, parts, spanOf, stringValue, trailingDotFloat, type SyntaxNode } from "./tree";
import { pickedSide } from "./none-names";
import { booleanChain, dtypeOf, operatorText, paramDtype, staticComparison, trueDivisionIsPlain, type BooleanItem } from "./compile-time";

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
  ContinuedString: ["string concatenation with an f-string or a bytes string", "write one string literal"],
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
    case "String":
    case "ContinuedString": {
      const value = stringValue(ctx.text, n);
      if (value === undefined && n.name === "ContinuedString" && isInlineAsmArgument(ctx, n)) return w.token(JSON.stringify(nodeText(ctx, n)), span);
      if (value === undefined && n.name === "ContinuedString") return unsupported(ctx, n, UNSUPPORTED.ContinuedString[0], UNSUPPORTED.ContinuedString[1]);
      if (value === undefined) return unsupported(ctx, n, "a bytes or raw string", "write a plain string");
      return w.token(JSON.stringify(value), span);
    }
    case "Boolean":
      return w.token(nodeText(ctx, n) === "True" ? "true" : "false", span);
    case "None":
      if (ctx.noneMasks.positional.has(n.from)) return w.token("true", span);
      if (ctx.noneMasks.axes.has(n.from)) return w.token("undefined", span);
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
      const picked = pickedSide(ctx, n);
      if (picked !== n) {
        return w.node(span, () => {
          w.write("(");
          lowerExpr(ctx, picked);
          w.write(")");
        });
      }
      const [a, , cond, , b] = children(n);
      return w.node(span, () => {
        operand(ctx, cond, 1, false);
        w.write(" ? ");
        operand(ctx, a, 1, false);
        w.write(" : ");
        operand(ctx, b, 1, false);
      });
    }
    case "CallExpression": {
      // `getattr(tl.PropagateNan, mode)` with mode known while compiling: the option, as `tl.PropagateNan.ALL` is written.
      const attribute = staticGetattr(ctx, n);
      const tlNames = ctx.file.imports.tl.size > 0 ? ctx.file.imports.tl : new Set(["tl"]);
      if (attribute && attribute.length === 3 && attribute[1] === "PropagateNan" && (tlNames.has(attribute[0]) || attribute[0] === "triton") && /^(ALL|NONE)$/.test(attribute[2])) return w.token(`"${attribute[2].toLowerCase()}"`, span);
      return lowerCall(ctx, n);
    }
    case "MemberExpression":
      return lowerMember(ctx, n);
    case "FormatString":
      // The assembly of tl.inline_asm_elementwise, which has no WGSL meaning (KL1005 where it runs): written as its
      // text, so a helper with it in a branch a constexpr drops (tritonbench's profile.py: `if IS_HIP: … f"""s_getreg_b32
      // …"""`) compiles; anywhere else an f-string is KL1101.
      if (isInlineAsmArgument(ctx, n)) return w.token(JSON.stringify(nodeText(ctx, n)), span);
      // The prefix of print / tl.device_print (flash-attention's bwd.py: `if DEBUG_TRITON: print(f"pid: {pid}")`):
      // a template literal, which the print formats while compiling if its values are constexprs, as Triton does,
      // and refuses where it runs otherwise; so a print in a branch a constexpr drops compiles.
      if (isPrintPrefix(ctx, n) || isDtypeName(ctx, n)) return writeTemplate(ctx, n);
      return unsupported(ctx, n, UNSUPPORTED.FormatString[0], UNSUPPORTED.FormatString[1]);
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

function lowerName(ctx: LowerContext, n: SyntaxNode): void {
  const name = nodeText(ctx, n);
  const span = spanOf(n);
  if (ctx.noneNames.has(name) && ctx.noneMasks.positional.has(n.from)) return ctx.w.token("true", span);
  // A branch a constexpr decides not taken is never compiled by Triton (`if HAS_BIAS: value += acc` with acc None): a placeholder.
  if (ctx.noneNames.has(name) && ctx.deadBranches > 0) return ctx.w.token("(0)", span);
  if (ctx.noneNames.has(name)) return unsupported(ctx, n, `'${name}', bound to None here, as a value`, "None is only compared with `is None` or passed as a keyword argument (mask=…) that it leaves out");
  if (ctx.params.has(name) || ctx.plan.locals.has(name)) {
    const known = ctx.known.get(name);
    // A string passed on as a call's argument is the string (a helper's `pad` given "zero", then
    // `tl.load(…, padding_option=pad)`: the AMD flash attention of applied-ai's flash_backward.py).
    if (typeof known === "string" && n.parent?.name === "ArgList") return ctx.w.token(JSON.stringify(known), span);
    // A True or False a specialized function was given (specialize.ts noneChoosers) is that value.
    if (typeof known === "boolean" && ctx.decided.has(name)) return ctx.w.token(known ? "true" : "false", span);
    // A string or None constexpr has no value in the TypeScript language: only its truth.
    if (known === null || typeof known === "string") return ctx.w.token(known ? "true" : "false", span);
    // A dtype constexpr is the dtype itself, as `tl.float32` written in the kernel would be.
    if (isDtypeConst(known)) return ctx.w.token(dtypeText(known.dtype), span);
    // A tuple constexpr is the tuple written out (test_core.py's test_reshape: `tl.reshape(x, out_tuple)`).
    if (Array.isArray(known)) return ctx.w.token(constantText(known), span);
    return ctx.w.token(tsName(name), span, tsName(name) === name);
  }
  const constant = ctx.file.constants.get(name);
  if (constant) {
    // Triton lets a kernel read a global that is a dtype (`DT = tl.float16`) as it reads a tl.constexpr.
    if (!constant.constexpr && !isDtypeConst(constant.value)) {
      ctx.log.warning(Codes.pythonGlobal, span, `the module-level '${name}' is read in a kernel but isn't a tl.constexpr (Triton refuses it); write ${name} = tl.constexpr(${constant.text})`);
    }
    return ctx.w.token(constantText(constant.value, constant.text), span);
  }
  // A @triton.jit function of another module's passed by name (tl.reduce's combine function in a helper
  // module: torch._inductor's triton_helpers.max2 passes `maximum`) is that module's, prefixed as its calls are.
  if (ctx.prefix !== "" && ctx.jitFunctions.has(name)) return ctx.w.token(`${ctx.prefix}${tsName(name)}`, span);
  // One taken by name (`from cut_cross_entropy.tl_utils import tl_and_reduce_fn`, then `tl.reduce(x, None,
  // tl_and_reduce_fn)`: apple/ml-cross-entropy's cce_backward.py) is its module's, as a call of it is.
  const named = !ctx.jitFunctions.has(name) ? ctx.file.imports.imported.get(name) : undefined;
  const external = named && ctx.externals.find(named.module, named.name, ctx.file);
  if (external) return ctx.w.token(ctx.externals.use(external.file, external.kernel, ctx.prefix === "" ? span : ctx.externals.lowering?.site ?? span), span);
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
  if (isDtypeConst(value)) return dtypeText(value.dtype);
  if (Array.isArray(value)) return `[${value.map((v) => constantText(v)).join(", ")}]`;
  return String(value);
}

/** A dtype (Kernel Lab's name) as the kernel language writes it: `tl.float32`; one it lacks stays a name its dtype check reports. */
function dtypeText(dtype: string): string {
  return Object.hasOwn(TRITON_DTYPES, dtype) ? `tl.${TRITON_DTYPES[dtype]}` : JSON.stringify(dtype);
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
  if (op === "**") {
    // Folded while compiling where both sides are constexprs (the kernel language refuses it on run-time values).
    return writeBetween(ctx, span, left, right, ["((", ") ** (", "))"]);
  }
  if (op === "@") return unsupported(ctx, n, "the matrix product operator @", "use tl.dot(a, b)");
  if (op === "/" && !trueDivisionIsPlain(ctx, n)) {
    // Triton's `/` is true division: two integers give a float. tl.fdiv is that (and plain `/` on floats).
    return writeBetween(ctx, span, left, right, ["tl.fdiv(", ", ", ")"]);
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
const MEMBERS: ReadonlySet<string> = new Set(["dtype", "type", "shape", "numel", "element_ty", "scalar", "primitive_bitwidth", "int_bitwidth", "value", "strides", "block_shape", "block_type", "load", "store",
  "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor"]);

function lowerMember(ctx: LowerContext, n: SyntaxNode): void {
  const kids = children(n);
  const span = spanOf(n);
  const float = trailingDotFloat(ctx.text, n);
  if (float !== undefined) return ctx.w.token(float.replace(/_/g, ""), span);
  if (kids[1]?.name === ".") {
    // A dtype is a value of the kernel language (tl.float32, semantics/dtypes.ts): it may be held in
    // a name (`cdtype = tl.float32`) and chosen (`tl.float32 if … else x.dtype`), which a string can't.
    const dtype = dtypeOf(ctx, n) ?? paramDtype(ctx, n);
    if (dtype) return ctx.w.token(dtypeText(dtype), span);
    const property = nodeText(ctx, kids[2]);
    // `tl.core.CONSTEXPR_0` (a helper parameter's default, passed where a call leaves it out): 0.
    if (property === "CONSTEXPR_0" && literalValue(ctx.text, n) === 0) return ctx.w.token("0", span);
    if (property === "T") {
      return ctx.w.node(span, () => {
        ctx.w.write("tl.trans(");
        lowerExpr(ctx, kids[0]);
        ctx.w.write(")");
      });
    }
    // `tl.PropagateNan.ALL` / `.NONE` (tl.maximum / minimum / clamp's propagate_nan; torchao's nvfp4 amax
    // kernels): the option as the kernel language spells it, "all" / "none".
    const nanOption = dottedName(ctx.text, n);
    if (nanOption && nanOption.length >= 3 && nanOption[nanOption.length - 2] === "PropagateNan" && (property === "ALL" || property === "NONE")) {
      const tlNames = ctx.file.imports.tl.size > 0 ? ctx.file.imports.tl : new Set(["tl"]);
      if (tlNames.has(nanOption[0]) || nanOption[0] === "triton") return ctx.w.token(`"${property.toLowerCase()}"`, span);
    }
    // Triton's members the kernel language has (semantics/members.ts): x.dtype, p.dtype.element_ty, x.shape …
    if (MEMBERS.has(property)) {
      return ctx.w.node(span, () => {
        lowerExpr(ctx, kids[0]);
        ctx.w.write(`.${property}`);
      });
    }
    // `tl.float` (no such dtype: gptq's h100_qlinear.py, under a constexpr `if fp8_fast_accum:` its
    // launch leaves False): written through, so the compiler says what it is where it is reached
    // (semantics/members.ts), and a branch Triton wouldn't compile doesn't stop the kernel.
    const object = nodeText(ctx, kids[0]);
    const tlNames = ctx.file.imports.tl.size > 0 ? ctx.file.imports.tl : new Set(["tl"]);
    if (kids[0].name === "VariableName" && tlNames.has(object) && !ctx.params.has(object) && !ctx.plan.locals.has(object) && /^[A-Za-z_]\w*$/.test(property)) {
      return ctx.w.token(`tl.${property}`, span);
    }
    const dotted = dottedName(ctx.text, n);
    if (dotted && !ctx.params.has(dotted[0]) && !ctx.plan.locals.has(dotted[0])) {
      // `Cls.combine` passed as a value (tl.reduce's combine function): a class-level @triton.jit function of this file.
      const name = dotted.join(".");
      if (ctx.jitFunctions.has(name)) return ctx.w.token(`${ctx.prefix}${tsName(name)}`, span);
      // `language.combine_softmax` (another module's @triton.jit function as a value), `language.eps` (its tl.constexpr).
      const external = ctx.externals.callee(dotted, ctx.file);
      if (external) return ctx.w.token(ctx.externals.use(external.file, external.kernel, ctx.prefix === "" ? span : ctx.externals.lowering?.site ?? span), span);
      const constant = ctx.externals.constant(dotted, ctx.file);
      if (constant) return ctx.w.token(constantText(constant.value, constant.text), span);
      // `math.e` / `math.pi` of Python's own math module: a float, as Triton reads a module's attribute while compiling
      // (lmdeploy's paged attention: `qk * tl_log2(math.e)`).
      const stdlibMath = dotted.length === 2 && ctx.file.imports.modules.get(dotted[0]) === "math" && !ctx.file.constants.has(dotted[0]);
      if (stdlibMath && Object.hasOwn(MATH_CONSTANTS, property) && Number.isFinite(MATH_CONSTANTS[property])) return ctx.w.token(String(MATH_CONSTANTS[property]), span);
    }
    return unsupported(ctx, n, `the attribute '.${property}'`, "");
  }
  lowerSubscript(ctx, n, kids);
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
    // Always a tuple: indexing a scalar (`s[:, None]`) gives it one axis, as Triton's does (intrinsics-blocks.ts).
    ctx.w.write(`, [${axes.join(", ")}])`);
  });
}

/** `before left between right after`, the two operands lowered in place. */
function writeBetween(ctx: LowerContext, span: Span, left: SyntaxNode, right: SyntaxNode, [before, between, after]: [string, string, string]): void {
  ctx.w.node(span, () => {
    ctx.w.write(before);
    lowerExpr(ctx, left);
    ctx.w.write(between);
    lowerExpr(ctx, right);
    ctx.w.write(after);
  });
}

/** Whether `n` is the first argument of `print(…)` or `tl.device_print(…)`. */
function isPrintPrefix(ctx: LowerContext, n: SyntaxNode): boolean {
  const callee = firstArgumentOf(n);
  return callee !== undefined && /^(print|(.+\.)?device_print)$/.test(nodeText(ctx, callee));
}

/** The callee of the call whose first argument `n` is, if it is one. */
function firstArgumentOf(n: SyntaxNode): SyntaxNode | undefined {
  const args = n.parent;
  const call = args?.name === "ArgList" ? args.parent : null;
  if (call?.name !== "CallExpression" || !call.firstChild || children(args!)[1]?.from !== n.from) return undefined;
  return call.firstChild;
}

/** The name of `tl.dtype(f"uint{BITS}")` (FlagGems' nanmedian and topk): formatted from constexprs while compiling. */
function isDtypeName(ctx: LowerContext, n: SyntaxNode): boolean {
  const callee = firstArgumentOf(n);
  if (callee?.name !== "MemberExpression") return false;
  const [object, , property] = children(callee);
  const tlNames = ctx.file.imports.tl.size > 0 ? ctx.file.imports.tl : new Set(["tl"]);
  return property !== undefined && nodeText(ctx, property) === "dtype" && (tlNames.has(nodeText(ctx, object)) || nodeText(ctx, object) === "triton.language");
}

/** An f-string as a TypeScript template literal: its text as written (`{{` `}}` undoubled), each `{expr}` lowered (a conversion or format spec dropped). */
function writeTemplate(ctx: LowerContext, n: SyntaxNode): void {
  const text = nodeText(ctx, n);
  const quote = /^([a-zA-Z]*)('\'\'|"""|'|")/.exec(text)!;
  const raw = /r/i.test(quote[1]);
  const literal = (from: number, to: number) => {
    const t = ctx.text.slice(from, to).replace(/\{\{/g, "{").replace(/\}\}/g, "}");
    return (raw ? t.replace(/\\/g, "\\\\") : t).replace(/`/g, "\\`").replace(/\$/g, "\\$");
  };
  ctx.w.node(spanOf(n), () => {
    ctx.w.write("`");
    let at = n.from + quote[0].length;
    for (const part of children(n)) {
      if (part.name !== "FormatReplacement") continue;
      ctx.w.write(literal(at, part.from));
      const expr = children(part).find((c) => !/^(\{|\}|FormatConversion|FormatSpec)$/.test(c.name));
      ctx.w.write("${");
      if (expr) lowerExpr(ctx, expr);
      ctx.w.write("}");
      at = part.to;
    }
    ctx.w.write(literal(at, n.to - quote[2].length));
    ctx.w.write("`");
  });
}

/** Whether `n` is an argument of a call of `inline_asm_elementwise` (`tl.inline_asm_elementwise(f"…", …)`). */
function isInlineAsmArgument(ctx: LowerContext, n: SyntaxNode): boolean {
  const args = n.parent;
  const call = args?.name === "ArgList" ? args.parent : null;
  if (call?.name !== "CallExpression" || !call.firstChild) return false;
  return /(^|\.)inline_asm_elementwise$/.test(nodeText(ctx, call.firstChild));
}

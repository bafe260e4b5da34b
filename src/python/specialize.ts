// A @triton.jit function called with a string or None for some of its parameters (attorch's
// `apply_act_func(x, None, None, None, param, act_func, False)` with `act_func == 'gelu'`): the
// kernel language has no strings and no None, so, as Triton does for every constexpr, the function
// is lowered once per set of such values, under a name of its own, with those parameters known
// (`if act_func == 'sigmoid':` decided while lowering, as it is in a kernel) and left out of its
// signature and of the call. Without this, a helper's string parameter was taken for a run-time
// value, which is never equal to a string: every `act_func == '…'` was False.

import type { LowerContext } from "./context";
import { nodeText } from "./context";
import type { PyConst } from "./literals";
import type { PythonKernel } from "./module";
import { pickedSide, staticBool } from "./none-names";
import { children, parts, stringValue, textOf, walk, type SyntaxNode } from "./tree";

export interface CallArgument {
  name: string;
  nameNode?: SyntaxNode;
  value: SyntaxNode;
}

/** A string or None an argument is while compiling (a literal, a known constexpr, a module-level constant); undefined for anything else. */
export function staticArgument(ctx: LowerContext, n: SyntaxNode): string | null | undefined {
  if (n.name === "None") return null;
  // `dEC + offs if KAHAN_E else None` (apple/ml-cross-entropy's cce_backward.py): the side the constexpr picks.
  const picked = pickedSide(ctx, n);
  if (picked !== n) return staticArgument(ctx, picked);
  if (n.name === "String") return stringValue(ctx.text, n);
  if (n.name !== "VariableName") return undefined;
  const name = nodeText(ctx, n);
  if (ctx.noneNames.has(name)) return null;
  const value: PyConst | undefined = ctx.params.has(name) || ctx.plan.locals.has(name) ? ctx.known.get(name) : ctx.file.constants.get(name)?.value;
  return value === null || typeof value === "string" ? value : undefined;
}

/**
 * The parameters of `callee` a call gives a string or None (positional arguments by place, keywords
 * by name, `defaults` for those it leaves out), and the arguments that remain; undefined when none is.
 */
export function knownArguments(
  ctx: LowerContext,
  callee: PythonKernel,
  positional: readonly SyntaxNode[],
  keywords: readonly CallArgument[],
  defaults: ReadonlyMap<string, PyConst | undefined> = new Map(),
  calleeText: string = ctx.text,
): { known: Map<string, string | null | boolean>; positional: SyntaxNode[]; keywords: CallArgument[] } | undefined {
  const known = new Map<string, string | null | boolean>();
  const choosers = noneChoosers(calleeText, callee);
  const restPositional: SyntaxNode[] = [];
  positional.forEach((p, i) => {
    const param = callee.params[i];
    const value = param ? givenValue(ctx, p, choosers.has(param.name)) : undefined;
    if (param && value !== undefined) known.set(param.name, value);
    else restPositional.push(p);
  });
  const restKeywords: CallArgument[] = [];
  for (const k of keywords) {
    const value = callee.params.some((p) => p.name === k.name) ? givenValue(ctx, k.value, choosers.has(k.name)) : undefined;
    if (value !== undefined) known.set(k.name, value);
    else restKeywords.push(k);
  }
  for (const [name, value] of defaults) {
    if ((value === null || typeof value === "string" || (typeof value === "boolean" && choosers.has(name))) && !known.has(name)) known.set(name, value);
  }
  return known.size === 0 ? undefined : { known, positional: restPositional, keywords: restKeywords };
}

/** The key a specialization is cached under: the function and its known values, in parameter order. */
export function specializationKey(file: string, callee: PythonKernel, known: ReadonlyMap<string, PyConst>): string {
  const values = callee.params.filter((p) => known.has(p.name)).map((p) => [p.name, known.get(p.name)]);
  return `${file}\0${callee.name}\0${JSON.stringify(values)}`;
}

/**
 * The parameters of `callee` that choose None or a value (`get_bounded_indices(offs_m, Q_LEN if CHECK_BLOCK_BOUNDARY
 * else None)` in inductor's flex attention, CHECK_BLOCK_BOUNDARY given True or its default False; scattermoe's
 * `_xty_and_bias(…, compute_bias=True)`, whose `if compute_bias: db_acc = tl.zeros(…) else: db_acc = None` decides
 * what a later `if compute_bias: tl.store(…, db_acc, …)` stores): a literal True or False passed to one is decided
 * while lowering too, as Triton specializes a function on every constexpr argument, so the None is never a value.
 */
function noneChoosers(text: string, callee: PythonKernel): Set<string> {
  const params = new Set(callee.params.map((p) => p.name));
  const choosers = new Set<string>();
  const choose = (cond: SyntaxNode | undefined) => {
    const name = cond && testedName(text, cond);
    if (name !== undefined && params.has(name)) choosers.add(name);
  };
  walk(callee.node, (n) => {
    if (n.name === "ConditionalExpression") {
      const [a, , cond, , b] = children(n);
      if (a?.name === "None" || b?.name === "None") choose(cond);
    } else if (n.name === "IfStatement" && bindsNone(text, n)) {
      const kids = children(n);
      kids.forEach((k, i) => {
        if (k.name === "if" || k.name === "elif") choose(kids[i + 1]);
      });
    }
  });
  return choosers;
}

/** The name a condition tests: `P`, `(P)` or `not P`; undefined for any other condition. */
function testedName(text: string, cond: SyntaxNode): string | undefined {
  if (cond.name === "VariableName") return textOf(text, cond);
  const kids = children(cond);
  if (cond.name === "ParenthesizedExpression" && parts(cond).length === 1) return testedName(text, parts(cond)[0]);
  if (cond.name === "UnaryExpression" && kids[0]?.name === "not" && kids[1]) return testedName(text, kids[1]);
  return undefined;
}

/** Whether an if statement's branches bind a name to None (`NAME = None`). */
function bindsNone(text: string, ifStatement: SyntaxNode): boolean {
  let found = false;
  walk(ifStatement, (n) => {
    if (found) return false;
    if (n.name !== "AssignStatement") return undefined;
    const kids = children(n);
    if (kids.length === 3 && kids[0].name === "VariableName" && kids[1].name === "AssignOp" && kids[2].name === "None") found = true;
    return undefined;
  });
  return found;
}

/**
 * A string or None given (staticArgument), or, for a parameter that chooses None (noneChoosers), a truth the caller
 * decides while lowering: True or False written at the call, a caller's constexpr bool (aiter's mha.py passes its
 * kernel's `PADDED_HEAD` and `MASK_STEPS` on to `_attn_fwd_inner`), or a comparison of decided numbers.
 */
function givenValue(ctx: LowerContext, n: SyntaxNode, chooser: boolean): string | null | boolean | undefined {
  const value = staticArgument(ctx, n);
  if (value !== undefined) return value;
  if (!chooser) return undefined;
  if (n.name === "VariableName") {
    const known = ctx.known.get(nodeText(ctx, n));
    return typeof known === "boolean" ? known : undefined;
  }
  return staticBool(ctx, n);
}

// Names bound to None in a kernel (attorch's `output_grad_mask = None`, then `if reduction == 'none':
// output_grad_mask = mask`, then `tl.load(p, mask=output_grad_mask)`): Triton makes such a name a
// constexpr None, so the load has no mask where the branch isn't taken. The kernel language has no
// None: the front end follows which names hold None through straight-line code and the ifs it
// decides while lowering (a constexpr string or None compared), and writes a keyword argument
// given one as left out, `x is None` as True; any other read of one is KL1101 ("None as a value").

import type { LowerContext } from "./context";
import { nodeText } from "./context";
import { intrinsicNamed } from "../semantics/intrinsics";
import { booleanChain, staticComparison } from "./compile-time";
import { children, parts, type SyntaxNode } from "./tree";

/**
 * A keyword argument's value that is None: the literal, a name bound to None here, or a constexpr parameter the launch
 * gave None (test_core.py's test_reduce: `tl.sum(x, axis=AXIS)` with AXIS=None reduces every axis; it was read as
 * axis 0, None's truth).
 */
export function isNoneValue(ctx: LowerContext, n: SyntaxNode): boolean {
  if (n.name === "None") return true;
  if (n.name !== "VariableName") return false;
  const name = nodeText(ctx, n);
  return ctx.noneNames.has(name) || (ctx.known.has(name) && ctx.known.get(name) === null);
}

/** A keyword argument of a call, as calls.ts reads them. */
export interface NamedArgument {
  name: string;
  nameNode?: SyntaxNode;
  value: SyntaxNode;
}

/**
 * How many leading parameters of a tl function have no default in Triton (1 where not listed): a None given to one of
 * them is still "None as a value" (`tl.store(p, None)`), not left out.
 */
const REQUIRED: Readonly<Record<string, number>> = {
  store: 2, atomicAdd: 2, atomicMax: 2, atomicMin: 2, atomicAnd: 2, atomicOr: 2, atomicXor: 2, atomicXchg: 2, atomicCas: 3,
  where: 3, maximum: 2, minimum: 2, clamp: 3, fma: 3, fdiv: 2, divRn: 2, pow: 2, umulhi: 2, dot: 2, join: 2, cat: 2,
  interleave: 2, full: 3, gather: 3, histogram: 2, topk: 2, cast: 2, reshape: 2, view: 2, broadcastTo: 2, expandDims: 2,
  permute: 2, advance: 2, makeBlockPtr: 6, swizzle2d: 5, reduce: 3, associativeScan: 3, rand: 2, randn: 2, randint: 2, randint4x: 2,
};

/**
 * A tl function's positional arguments from the first one that is None on (before `limit`), passed by name instead,
 * the None ones left out: in Triton a positional None is the parameter's default, as a keyword None is (`tl.sum(x,
 * None)` reduces every axis, `tl.atomic_add(p, v, None, SEM)` has no mask). tl.load's and tl.store's positional None
 * masks are none-masks.ts's (written True). Unchanged where a parameter before them takes the rest (`...shape`).
 */
export function positionalNoneAsKeywords(ctx: LowerContext, fn: string, positional: readonly SyntaxNode[], keywords: readonly NamedArgument[], limit = positional.length): { positional: readonly SyntaxNode[]; keywords: readonly NamedArgument[] } {
  const required = Object.hasOwn(REQUIRED, fn) ? REQUIRED[fn] : 1;
  const first = positional.findIndex((p, i) => i >= required && i < limit && isNoneValue(ctx, p) && !ctx.noneMasks.positional.has(p.from));
  const params = intrinsicNamed(fn)?.params;
  if (first < 0 || !params || params.slice(0, limit).some((p) => p.startsWith("..."))) return { positional, keywords };
  const moved = positional.slice(first, limit).map((value, i) => ({ name: params[first + i] ?? `_${first + i}`, value })).filter((k) => !isNoneValue(ctx, k.value));
  return { positional: [...positional.slice(0, first), ...positional.slice(limit)], keywords: [...moved, ...keywords] };
}

/** A condition's truth where it is decided while lowering (a comparison with a string or None, a known constexpr); undefined at run time. */
export function staticTruth(ctx: LowerContext, n: SyntaxNode): boolean | undefined {
  if (n.name === "ParenthesizedExpression") return parts(n).length === 1 ? staticTruth(ctx, parts(n)[0]) : undefined;
  if (n.name === "Boolean") return nodeText(ctx, n) === "True";
  if (n.name === "BinaryExpression") return staticComparison(ctx, n);
  if (n.name === "UnaryExpression" && children(n)[0]?.name === "not") {
    const inner = staticTruth(ctx, children(n)[1]);
    return inner === undefined ? undefined : !inner;
  }
  if (n.name === "VariableName") {
    const name = nodeText(ctx, n);
    if (ctx.noneNames.has(name)) return false;
    const known = ctx.known.get(name);
    if (known === null) return false;
    if (typeof known === "string" || typeof known === "boolean" || typeof known === "number") return Boolean(known);
  }
  return undefined;
}

/**
 * A `NAME: tl.constexpr = …` local's truth where it is decided while lowering: staticTruth, plus
 * numbers compared and and/or/not chains of decided parts (xformers' splitk kernel:
 * `INT4_QUANTIZED: tl.constexpr = PACKED_PER_VAL > 1 and not FP8_QUANTIZED`); undefined otherwise.
 */
export function staticBool(ctx: LowerContext, n: SyntaxNode): boolean | undefined {
  if (n.name === "ParenthesizedExpression") return parts(n).length === 1 ? staticBool(ctx, parts(n)[0]) : undefined;
  const chain = booleanChain(ctx, n);
  if (chain) {
    const truths = chain.items.map((item) => {
      const t = staticBool(ctx, item.expr);
      return t === undefined ? undefined : item.nots.length % 2 === 1 ? !t : t;
    });
    if (truths.some((t) => t === undefined)) return undefined;
    // Python's precedence: `and` binds tighter than `or`.
    let any = false;
    let all = truths[0]!;
    chain.ops.forEach((op, i) => {
      if (op === "and") all = all && truths[i + 1]!;
      else {
        any = any || all;
        all = truths[i + 1]!;
      }
    });
    return any || all;
  }
  if (n.name === "BinaryExpression") {
    const kids = children(n);
    const op = nodeText(ctx, kids[1] ?? n);
    const a = numberOf(ctx, kids[0]);
    const b = numberOf(ctx, kids[kids.length - 1]);
    if (a !== undefined && b !== undefined && kids.length === 3) {
      switch (op) {
        case "<": return a < b;
        case "<=": return a <= b;
        case ">": return a > b;
        case ">=": return a >= b;
        case "==": return a === b;
        case "!=": return a !== b;
      }
    }
  }
  return staticTruth(ctx, n);
}

function numberOf(ctx: LowerContext, n: SyntaxNode | undefined): number | undefined {
  if (!n) return undefined;
  if (n.name === "Number" && /^\d+$/.test(nodeText(ctx, n))) return Number(nodeText(ctx, n));
  if (n.name === "VariableName") {
    const known = ctx.known.get(nodeText(ctx, n));
    return typeof known === "number" ? known : typeof known === "boolean" ? Number(known) : undefined;
  }
  return undefined;
}

/**
 * Lowers one branch of an if: `taken` as decided while lowering (undefined: at run time). A branch
 * not taken leaves the None names as they were; a run-time one keeps what it rebound (then no longer None).
 */
export function noneInBranch(ctx: LowerContext, taken: boolean | undefined, lower: () => void): void {
  const before = new Set(ctx.noneNames);
  if (taken === false) ctx.deadBranches++;
  try {
    lower();
  } finally {
    if (taken === false) ctx.deadBranches--;
  }
  if (taken === false) ctx.noneNames = before;
}

/**
 * A conditional expression whose condition is decided while lowering, as the side it picks (through
 * parentheses; nested ones folded too): Triton evaluates only that side of `a if CONSTEXPR else b`,
 * so the other may be None (fla's chunk_o.py: `tl.zeros([BT, BK], …) if USE_DW else None`). Any
 * other node is itself.
 */
export function pickedSide(ctx: LowerContext, n: SyntaxNode): SyntaxNode {
  if (n.name === "ParenthesizedExpression" && parts(n).length === 1) {
    const inner = pickedSide(ctx, parts(n)[0]);
    return inner === parts(n)[0] ? n : inner;
  }
  if (n.name !== "ConditionalExpression") return n;
  const [a, , cond, , b] = children(n);
  const truth = cond ? staticTruth(ctx, cond) : undefined;
  return truth === undefined ? n : pickedSide(ctx, truth ? a : b);
}


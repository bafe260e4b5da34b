// Names bound to None in a kernel (attorch's `output_grad_mask = None`, then `if reduction == 'none':
// output_grad_mask = mask`, then `tl.load(p, mask=output_grad_mask)`): Triton makes such a name a
// constexpr None, so the load has no mask where the branch isn't taken. The kernel language has no
// None: the front end follows which names hold None through straight-line code and the ifs it
// decides while lowering (a constexpr string or None compared), and writes a keyword argument
// given one as left out, `x is None` as True; any other read of one is KL1101 ("None as a value").

import type { LowerContext } from "./context";
import { nodeText } from "./context";
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
  if (n.name === "ParenthesizedExpression") return parts(n).length === 1 ? numberOf(ctx, parts(n)[0]) : undefined;
  // Integer arithmetic of decided numbers (lmdeploy's flashattention.py: `if BLOCK_DK + BLOCK_DK1 == head_dim_k:`).
  const kids = children(n);
  if (n.name !== "BinaryExpression" || kids.length !== 3) return undefined;
  const a = numberOf(ctx, kids[0]);
  const b = numberOf(ctx, kids[2]);
  if (a === undefined || b === undefined || !Number.isInteger(a) || !Number.isInteger(b)) return undefined;
  switch (nodeText(ctx, kids[1])) {
    case "+": return a + b;
    case "-": return a - b;
    case "*": return a * b;
    case "//": return b === 0 ? undefined : Math.floor(a / b);
    case "%": return b === 0 ? undefined : a - b * Math.floor(a / b);
    default: return undefined;
  }
}

/**
 * Lowers one branch of an if: `taken` as decided while lowering (undefined: at run time). A branch
 * not taken leaves the None names as they were; a run-time one keeps what it rebound (then no longer None).
 */
export function noneInBranch(ctx: LowerContext, taken: boolean | undefined, lower: () => void): void {
  const before = new Set(ctx.noneNames);
  if (taken === false) ctx.deadBranches++;
  if (taken === undefined) ctx.runTimeBranches++;
  try {
    lower();
  } finally {
    if (taken === false) ctx.deadBranches--;
    if (taken === undefined) ctx.runTimeBranches--;
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


// Names bound to None in a kernel (attorch's `output_grad_mask = None`, then `if reduction == 'none':
// output_grad_mask = mask`, then `tl.load(p, mask=output_grad_mask)`): Triton makes such a name a
// constexpr None, so the load has no mask where the branch isn't taken. The kernel language has no
// None: the front end follows which names hold None through straight-line code and the ifs it
// decides while lowering (a constexpr string or None compared), and writes a keyword argument
// given one as left out, `x is None` as True; any other read of one is KL1101 ("None as a value").

import type { LowerContext } from "./context";
import { nodeText } from "./context";
import { staticComparison } from "./compile-time";
import { children, parts, type SyntaxNode } from "./tree";

/** A keyword argument's value that is None: the literal, or a name bound to None here. */
export function isNoneValue(ctx: LowerContext, n: SyntaxNode): boolean {
  return n.name === "None" || (n.name === "VariableName" && ctx.noneNames.has(nodeText(ctx, n)));
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


// A lint (KL2075, a warning): a tl.load or tl.store without a mask whose 1-D offsets come from
// both tl.programId and tl.arange — each program a block of a longer array — in a kernel with an
// integer scalar parameter that can bound it. Unless the size is a multiple of the block, the
// last program's block runs past the end of the array (a run then reports KL3101 at the access).
// Conservative on purpose: offsets read from a loop variable, wrapped by `%` or reached from the program id only
// through a product with a run-time scalar (a row's stride), several axes, or a
// kernel with no integer parameter are not flagged. The fix adds `offsets < n` as the mask, one per candidate n.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { DiagnosticFix, Span } from "../diagnostics/diagnostic";
import type { Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import type { Args, IntrinsicContext } from "./intrinsic-args";
import { isConst } from "./values";

/** Names that say "the number of elements", tried first. */
const BOUND_NAME = /^(n|N)(_|[A-Z0-9]|$)|elements|numel|size|count|len|total/i;

export function checkUnmaskedAccess(ctx: IntrinsicContext, name: "load" | "store", args: Args, span: Span, ptr: Value): void {
  const maskAt = name === "load" ? 1 : 2;
  // `args` are Triton's positional slots (a keyword argument fills its slot; semantics/keywords.ts).
  const before = args[maskAt - 1];
  if (args[maskAt] !== undefined || !before || !args[0] || ctx.calls.length > 0 || ptr.type.shape.length !== 1) return;
  const ops = opsUnder(ptr);
  if (!ops.has("programId") || !ops.has("arange")) return;
  const bounds = ctx.kernel.params.filter((p) => p.kind === "scalar" && (p.dtype === "i32" || p.dtype === "u32")).map((p) => p.name);
  if (bounds.length === 0) return;
  bounds.sort((a, b) => Number(BOUND_NAME.test(b)) - Number(BOUND_NAME.test(a)));
  const offsets = offsetsOf(ctx, args[0]);
  const bound = bounds[0];
  const example = offsets ? `${offsets.text} < ${bound}` : `offsets < ${bound}`;
  const at = before.end;
  const fixes: DiagnosticFix[] = offsets
    ? bounds.slice(0, 3).map((n, i) => ({
        title: `Add the mask ${offsets.text} < ${n}`,
        edits: [{ span: { start: at, end: at }, text: `, ${offsets.text} < ${n}` }],
        preferred: i === 0 && bounds.length === 1,
      }))
    : [];
  const what = name === "load" ? "reads" : "writes";
  ctx.log.warning(
    Codes.unmaskedAccess,
    span,
    `tl.${name} has no mask, yet its offsets come from tl.programId and tl.arange: unless the size is a multiple of the block, the last program ${what} past the end of the array. Give it a mask, e.g. ${example}`,
    fixes,
  );
}

/**
 * The kinds of IR op a value is computed from (not through variables: a loop's offsets aren't
 * followed), short of a remainder: offsets wrapped by `% M` (tutorial 03's and unsloth's fp8 matmul's
 * `(pid_m * BLOCK + tl.arange(0, BLOCK)) % M`) stay below M whatever the program, so what they are
 * computed from doesn't make the access run past the end.
 */
function opsUnder(value: Value): Set<string> {
  const seen = new Set<string>();
  const stack = [value];
  for (let v = stack.pop(); v; v = stack.pop()) {
    seen.add(v.op);
    if (v.op === "binary" && v.fn === "mod") continue;
    // A program's index times a run-time scalar (`cur_token_idx * stride_qt`, ColossalAI's decoding kernels) picks a
    // row; its block is the row's own axis (`tl.arange(0, HEAD_DIM)`), not a tile of a longer one.
    if (v.op === "binary" && v.fn === "mul" && v.type.shape.length === 0 && !operandsOf(v).some(isConst)) continue;
    stack.push(...operandsOf(v));
  }
  return seen;
}

/** `ptr + offsets` or `offsets + ptr` with `ptr` a pointer parameter: the offsets' text, parenthesised where `<` would bind tighter. */
function offsetsOf(ctx: IntrinsicContext, pointer: ts.Expression): { text: string } | undefined {
  let node = pointer;
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  if (!ts.isBinaryExpression(node) || node.operatorToken.kind !== ts.SyntaxKind.PlusToken) return undefined;
  const isPointerParam = (e: ts.Expression) => ts.isIdentifier(e) && ctx.kernel.params.some((p) => p.kind === "pointer" && p.name === e.text);
  const offsets = isPointerParam(node.left) ? node.right : isPointerParam(node.right) ? node.left : undefined;
  if (!offsets) return undefined;
  const text = offsets.getText(ctx.sf);
  return { text: bindsTighterThanLess(offsets) ? text : `(${text})` };
}

function bindsTighterThanLess(node: ts.Expression): boolean {
  if (ts.isIdentifier(node) || ts.isCallExpression(node) || ts.isParenthesizedExpression(node) || ts.isPropertyAccessExpression(node) || ts.isNumericLiteral(node)) return true;
  if (!ts.isBinaryExpression(node)) return false;
  const arithmetic = [ts.SyntaxKind.PlusToken, ts.SyntaxKind.MinusToken, ts.SyntaxKind.AsteriskToken, ts.SyntaxKind.SlashToken, ts.SyntaxKind.PercentToken, ts.SyntaxKind.LessThanLessThanToken, ts.SyntaxKind.GreaterThanGreaterThanToken];
  return arithmetic.includes(node.operatorToken.kind);
}

// A reshape to one axis more than a block holds, undone at once by the call around it:
// `tl.split(tl.reshape(x, [H, M, K, 2]))` and `tl.reshape(tl.join(a, b), [H, M, 2 * K])`, Triton's way
// to (de)interleave the last axis of 3-D blocks (flash-attention's interleaved rotary). Row-major
// order doesn't see how the leading axes are grouped, so each goes through [H·M·K, 2] instead.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import type { Lowered, Tuple } from "./aggregates";
import { MAX_RANK, checkBlockSize, constInt, requireData, type IntrinsicContext } from "./intrinsic-args";
import { isPowerOfTwo, shapeToString } from "./rules";

/** The arguments of `node` when it is a call of tl.`name` (tl not shadowed), without a trailing keyword object. */
function tlCallArguments(ctx: IntrinsicContext, node: ts.Expression | undefined, name: string): readonly ts.Expression[] | undefined {
  if (!node || !ts.isCallExpression(node)) return undefined;
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== name || !ts.isIdentifier(callee.expression)) return undefined;
  if (!ctx.kernel.tlNames.has(callee.expression.text) || ctx.lookupValue(callee.expression.text)) return undefined;
  const args = [...node.arguments];
  return args.length > 0 && ts.isObjectLiteralExpression(args[args.length - 1]) ? args.slice(0, -1) : args;
}

/**
 * `tl.split(tl.reshape(x, [H, M, K, 2]))` as the halves of x's elements taken in pairs, each [H, M, K];
 * "none" where split's argument isn't a reshape to MAX_RANK + 1 axes (lowered as usual), undefined after a diagnostic.
 */
export function splitOfWideReshape(ctx: IntrinsicContext, node: ts.Expression | undefined, span: Span): Lowered | undefined | "none" {
  const args = tlCallArguments(ctx, node, "reshape");
  if (!args || args.length < 2) return "none";
  const halves = wideReshape(ctx, args, ctx.span(node!), span);
  return halves === "none" || halves === undefined ? halves : { kind: "tuple", elements: halves.elements, span };
}

/**
 * `tl.reshape(x, [M, C, 2, 2])` (a shape, or its extents one by one, of MAX_RANK + 1 axes): x's
 * elements taken in pairs, held as the two halves, each [M, C, 2], in a tuple marked `wide` that
 * only tl.split takes apart (a name may hold it between: TransformerEngine's mHC kernels write
 * `x = tl.reshape(x, (BLOCK_SIZE_M, BLOCK_SIZE_C, 2, 2))`, then `x01, x23 = tl.split(x)`).
 * "none" for a shape of another rank; undefined after a diagnostic.
 */
export function wideReshape(ctx: IntrinsicContext, args: readonly ts.Expression[], reshapeSpan: Span, span: Span): Tuple | undefined | "none" {
  const elements = args.length === 2 && ts.isArrayLiteralExpression(args[1]) ? [...args[1].elements] : args.slice(1);
  if (elements.length !== MAX_RANK + 1) return "none";
  const dims: number[] = [];
  for (const e of elements) {
    const d = constInt(ctx, e, "a shape's extent");
    if (d === undefined) return undefined;
    if (!isPowerOfTwo(d)) {
      ctx.log.error(Codes.notPowerOfTwo, ctx.span(e), `block extents must be powers of two, got ${d}`);
      return undefined;
    }
    dims.push(d);
  }
  if (dims[MAX_RANK] !== 2) {
    ctx.log.error(Codes.intrinsicArgs, reshapeSpan, `blocks have at most ${MAX_RANK} axes; got ${dims.length} — a reshape to ${MAX_RANK + 1} axes is taken only by tl.split, with a last axis of 2`);
    return undefined;
  }
  const x = ctx.expression(args[0]);
  if (!x || !requireData(ctx, x, "tl.reshape")) return undefined;
  if (numel(dims) !== numel(x.type.shape)) {
    ctx.log.error(Codes.reshapeSize, reshapeSpan, `can't reshape ${typeToString(x.type)} (${numel(x.type.shape)} elements) to ${shapeToString(dims)} (${numel(dims)} elements)`);
    return undefined;
  }
  const lead = dims.slice(0, -1);
  if (!checkBlockSize(ctx, dims, reshapeSpan)) return undefined;
  const pairs = ctx.b.emit({ op: "reshape", value: x }, { ...x.type, shape: [numel(lead), 2] }, reshapeSpan);
  const half = (start: number): Value => {
    const piece = ctx.b.emit({ op: "slice", value: pairs, axis: 1, start }, { ...pairs.type, shape: [numel(lead), 1] }, span);
    return ctx.b.emit({ op: "reshape", value: piece }, { ...pairs.type, shape: lead }, span);
  };
  return { kind: "tuple", elements: [half(0), half(1)], span, wide: dims };
}

/** Whether the tl.join call whose first argument is `a` is the input of a tl.reshape, which then takes it as [N, 2] where [..., 2] would pass MAX_RANK axes. */
export function joinFeedsReshape(ctx: IntrinsicContext, a: ts.Expression | undefined): boolean {
  const joinCall = a?.parent;
  const outer = joinCall?.parent;
  if (!joinCall || !outer || !ts.isCallExpression(joinCall) || !ts.isCallExpression(outer) || outer.arguments[0] !== joinCall) return false;
  return tlCallArguments(ctx, outer, "reshape") !== undefined;
}

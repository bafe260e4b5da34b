// The string options of tl.load, tl.store and the atomics (cacheModifier, evictionPolicy, sem,
// scope): Kernel Lab accepts and ignores them (WGSL has no cache hints; its atomics are relaxed and
// device-wide), but Triton takes each as a `tl.constexpr` string and refuses a value computed
// while the kernel runs. So a run-time value there is KL1041 at the argument, as a kernel that
// runs here must also compile under Triton; a string literal, None, or a name that holds no
// run-time value (a constexpr) is fine.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { LoweringContext } from "./context";
import type { Intrinsic } from "./intrinsic-args";
import { keywordObject, type Keywords } from "./keywords";
import { skipParens } from "./operators";
import { isConst } from "./values";

/** The options Triton requires as compile-time strings, with an example of each. */
const STRING_OPTIONS: Readonly<Record<string, string>> = {
  cacheModifier: '".cg"',
  evictionPolicy: '"evict_last"',
  sem: '"relaxed"',
  scope: '"gpu"',
};

/** Reports each string option of a tl.* call given a run-time value (KL1041), at that argument. */
export function checkStringOptions(ctx: LoweringContext, callee: string, intrinsic: Intrinsic, raw: readonly ts.Expression[], keywords: Keywords): void {
  const positional = keywordObject(raw) ? raw.slice(0, -1) : raw;
  intrinsic.params.forEach((param, i) => {
    const example = STRING_OPTIONS[param];
    if (example === undefined) return;
    const node = keywords.get(param) ?? positional[i];
    if (!node) return;
    const why = runTimeValue(ctx, node);
    if (why) ctx.log.error(Codes.constantRequired, ctx.span(node), `${callee}'s ${param} must be known at compile time: a string such as ${example} (Triton takes it as a tl.constexpr str); ${why}`);
  });
}

/** Why `node` is not a compile-time string, or undefined when it may be one. */
function runTimeValue(ctx: LoweringContext, node: ts.Expression): string | undefined {
  const e = skipParens(node);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || e.kind === ts.SyntaxKind.NullKeyword) return undefined;
  if (ts.isConditionalExpression(e)) return runTimeValue(ctx, e.whenTrue) ?? runTimeValue(ctx, e.whenFalse);
  if (ts.isIdentifier(e)) {
    if (e.text === "undefined") return undefined;
    const value = ctx.lookupValue(e.text);
    if (value === undefined) return undefined;
    return isConst(value) ? `\`${e.text}\` is the number ${value.value}` : `\`${e.text}\` is a value computed while the kernel runs`;
  }
  if (ts.isNumericLiteral(e) || e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return `${ts.isNumericLiteral(e) ? e.text : String(e.kind === ts.SyntaxKind.TrueKeyword)} is not a string`;
  return "this expression is computed while the kernel runs";
}

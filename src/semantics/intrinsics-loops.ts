// tl.staticRange: the values of a loop unrolled at compile time. The for…of statement that unrolls
// it (control-flow.ts) lowers the call through this entry and takes the values; anywhere else the
// call has no value to give.

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Args, Intrinsic, IntrinsicContext } from "./intrinsic-args";
import type { Value } from "../ir/ir";
import { isConst } from "./values";
import { splitArguments } from "./keywords";

/** Trips a tl.staticRange may unroll to: each copies the body. */
export const MAX_UNROLL = 256;

/** The for…of headers being lowered, innermost last: where the call hands its values. */
const headers: { values?: Value[] }[] = [];

export const LOOP_INTRINSICS: Readonly<Record<string, Intrinsic>> = {
  /** Triton's tl.range: a run-time loop (control-flow.ts lowers `for (const i of tl.range(…))`); its tuning options are accepted. */
  range: {
    params: ["arg1", "arg2", "step", "numStages", "loopUnrollFactor", "disallowAccMultiBuffer", "flatten", "warpSpecialize"],
    ignored: ["numStages", "loopUnrollFactor", "disallowAccMultiBuffer", "flatten", "warpSpecialize"],
    produces: ["stmt:for", "cast", "unary:neg"],
    lower(ctx, _args, span) {
      ctx.log.error(Codes.staticRange, span, "tl.range(…) only names the values of a loop: for (const i of tl.range(0, n, 1, { numStages: 3 })) { … }");
      return undefined;
    },
  },

  staticRange: {
    params: ["arg1", "arg2", "step"],
    // The loop's values, as constants.
    produces: ["const"],
    lower(ctx, args, span) {
      const header = headers[headers.length - 1];
      if (!header) {
        ctx.log.error(Codes.staticRange, span, "tl.staticRange(…) only names the values of an unrolled loop: for (const i of tl.staticRange(0, 4)) { … }");
        return undefined;
      }
      // Each value is a constant the unrolled copies of the body share.
      header.values = staticValues(ctx, args, span)?.map((i) => ctx.b.constant(i, "i32", span));
      return "void";
    },
  },
};

/** The values of `for (… of tl.staticRange(…))`, or undefined after a diagnostic. */
export function staticRangeValues(ctx: IntrinsicContext, call: ts.CallExpression): Value[] | undefined {
  const header: { values?: Value[] } = {};
  headers.push(header);
  try {
    const split = splitArguments(ctx.log, (n) => ctx.span(n), "tl.staticRange", LOOP_INTRINSICS.staticRange, call.arguments);
    if (split) LOOP_INTRINSICS.staticRange.lower(ctx, split.args, ctx.span(call), "staticRange", split.keywords);
  } finally {
    headers.pop();
  }
  return header.values;
}

/** The values of tl.staticRange(end) / (start, end) / (start, end, step): compile-time integers. */
function staticValues(ctx: IntrinsicContext, args: Args, span: Span): number[] | undefined {
  if (args.length < 1 || args.length > 3 || args.some((a) => !a)) {
    ctx.log.error(Codes.staticRange, span, `tl.staticRange takes (end), (start, end) or (start, end, step), got ${args.filter((a) => a).length} arguments`);
    return undefined;
  }
  const numbers: number[] = [];
  for (const arg of args as ts.Expression[]) {
    const v = ctx.expression(arg);
    if (!v) return undefined;
    if (!isConst(v) || v.type.kind !== "data" || (v.type.dtype !== "i32" && v.type.dtype !== "u32")) {
      ctx.log.error(Codes.staticRange, ctx.span(arg), "tl.staticRange's bounds and step must be compile-time integers (literals, constexprs, module constants); for a run-time bound use for (let i = a; i < b; i += s)");
      return undefined;
    }
    numbers.push(v.value);
  }
  const [start, end, step] = numbers.length === 1 ? [0, numbers[0], 1] : [numbers[0], numbers[1], numbers[2] ?? 1];
  if (step === 0) {
    ctx.log.error(Codes.staticRange, span, "tl.staticRange's step is 0, so the loop would never end");
    return undefined;
  }
  const values: number[] = [];
  for (let i = start; step > 0 ? i < end : i > end; i += step) {
    if (values.length === MAX_UNROLL) {
      ctx.log.error(Codes.staticRange, span, `tl.staticRange unrolls no more than ${MAX_UNROLL} trips, since each copies the body; use for (let i = ${start}; i < ${end}; i += ${step}) for a loop that runs on the GPU`);
      return undefined;
    }
    values.push(i);
  }
  return values;
}

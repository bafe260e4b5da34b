// tl.sort and tl.topk (Triton's standard.py sort_impl): a block's lines along an axis put in order.
// tl.topk(x, k) is Triton 3.3's: the k largest of each line, largest first, a block whose axis has k
// elements. Triton builds both from bitonic merges on a hypercube; here tl.topk is the line sorted
// descending (the sort op, the same on the GPU and the CPU) and its first k kept (a slice).

import { Codes } from "../diagnostics/codes";
import { arity, constInt, type Intrinsic } from "./intrinsic-args";
import { flagArg } from "./intrinsics-reductions";
import { axisOf, block } from "./intrinsics-shapes";
import { isPowerOfTwo } from "./rules";

export const SORTING_INTRINSICS: Record<string, Intrinsic> = {
  sort: {
    params: ["x", "dim", "descending"],
    produces: ["sort"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 3, "(x, dim?, descending?)")) return undefined;
      const x = block(ctx, args[0], `tl.${name}`, false);
      if (!x) return undefined;
      const axis = axisOf(ctx, args[1], x.type.shape.length, `tl.${name}'s dim`, x.type.shape.length - 1);
      const descending = flagArg(ctx, args[2], `tl.${name}'s descending`);
      if (axis === undefined || descending === undefined) return undefined;
      return ctx.b.emit({ op: "sort", value: x, axis, descending }, x.type, span);
    },
  },

  // `descending` (True by default) is newer Triton's: False gives the k smallest, smallest first.
  topk: {
    params: ["x", "k", "dim", "descending"],
    produces: ["sort", "slice"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 4, "(x, k, dim?, descending?)")) return undefined;
      const x = block(ctx, args[0], `tl.${name}`, false);
      const k = constInt(ctx, args[1], `tl.${name}'s k`);
      if (!x || k === undefined) return undefined;
      const axis = axisOf(ctx, args[2], x.type.shape.length, `tl.${name}'s dim`, x.type.shape.length - 1);
      const descending = flagArg(ctx, args[3], `tl.${name}'s descending`, true);
      if (axis === undefined || descending === undefined) return undefined;
      const length = x.type.shape[axis];
      if (!isPowerOfTwo(k)) {
        ctx.log.error(Codes.notPowerOfTwo, ctx.span(args[1]!), `tl.${name}'s k is the result's extent along dim ${axis}, so it must be a power of two (as Triton's); got ${k}`);
        return undefined;
      }
      if (k > length) {
        ctx.log.error(Codes.intrinsicArgs, ctx.span(args[1]!), `tl.${name}'s k must be at most the block's extent along dim ${axis}, ${length}; got ${k}`);
        return undefined;
      }
      const sorted = ctx.b.emit({ op: "sort", value: x, axis, descending }, x.type, span);
      if (k === length) return sorted;
      const shape = x.type.shape.map((d, i) => (i === axis ? k : d));
      return ctx.b.emit({ op: "slice", value: sorted, axis, start: 0 }, { ...x.type, shape }, span);
    },
  },
};

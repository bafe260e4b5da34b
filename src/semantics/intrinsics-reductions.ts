// Reductions along an axis and tl.dot.

import { Codes } from "../diagnostics/codes";
import type { Dtype, ReduceFn, Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { all, arity, constInt, requireData, type Intrinsic } from "./intrinsic-args";
import { sameShape, shapeToString } from "./rules";
import { dtypeOf } from "./values";

function reduction(fn: ReduceFn): Intrinsic {
  return {
    produces: [`reduce:${fn}`],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 2, "(x, axis?)")) return undefined;
      const x = ctx.expression(args[0]);
      if (!x || !requireData(ctx, x, `tl.${name}`)) return undefined;
      const rank = x.type.shape.length;
      if (rank === 0) {
        ctx.log.error(Codes.badAxis, ctx.span(args[0]), `tl.${name} reduces a block, but this is a scalar`);
        return undefined;
      }
      let axis = 0;
      if (args[1]) {
        const a = constInt(ctx, args[1], `tl.${name}'s axis`);
        if (a === undefined) return undefined;
        axis = a < 0 ? a + rank : a;
        if (axis < 0 || axis >= rank) {
          ctx.log.error(Codes.badAxis, ctx.span(args[1]), `axis ${a} doesn't exist: the block ${typeToString(x.type)} has ${rank === 1 ? "only axis 0" : `axes 0..${rank - 1}`}`);
          return undefined;
        }
      } else if (rank > 1) {
        ctx.log.error(Codes.badAxis, span, `tl.${name} of a ${rank}-D block needs an axis: tl.${name}(x, 0) or tl.${name}(x, 1)`);
        return undefined;
      }
      const shape = x.type.shape.filter((_, i) => i !== axis);
      if (fn === "xorSum" && dtypeOf(x) !== "i32" && dtypeOf(x) !== "u32") {
        ctx.log.error(Codes.operandDtype, x.span, `tl.xorSum takes an integer block (i32 or u32), got ${typeToString(x.type)}`);
        return undefined;
      }
      const dtype: Dtype = fn === "argmax" || fn === "argmin" ? "i32" : dtypeOf(x);
      return ctx.b.emit({ op: "reduce", fn, value: x, axis }, data(dtype, shape), span);
    },
  };
}

export const REDUCTION_INTRINSICS: Record<string, Intrinsic> = {
  sum: reduction("sum"),
  max: reduction("max"),
  min: reduction("min"),
  argmax: reduction("argmax"),
  argmin: reduction("argmin"),
  xorSum: reduction("xorSum"),

  dot: {
    produces: ["dot", "cast"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 3, "(a, b, acc?)")) return undefined;
      const values = all(ctx, args);
      if (!values) return undefined;
      const [a, b, acc] = values;
      if (!values.every((v) => requireData(ctx, v, "tl.dot"))) return undefined;
      const [sa, sb] = [a.type.shape, b.type.shape];
      if (sa.length !== 2 || sb.length !== 2) {
        ctx.log.error(Codes.dotShape, span, `tl.dot multiplies 2-D blocks; got ${typeToString(a.type)} and ${typeToString(b.type)}`);
        return undefined;
      }
      if (sa[1] !== sb[0]) {
        ctx.log.error(Codes.dotShape, span, `tl.dot's inner sizes differ: ${shapeToString(sa)} × ${shapeToString(sb)} (the first block's columns must equal the second's rows)`, [
          { span: a.span, message: `${sa[1]} columns` },
          { span: b.span, message: `${sb[0]} rows` },
        ]);
        return undefined;
      }
      if (sa[0] < 16 || sa[1] < 16 || sb[1] < 16) {
        ctx.log.error(Codes.dotShape, span, `tl.dot needs every extent ≥ 16 (as in Triton); got ${shapeToString(sa)} × ${shapeToString(sb)}`);
        return undefined;
      }
      const out: Shape = [sa[0], sb[1]];
      // Two f16 operands stay f16 (staged as halves; tensor cores where the target has them,
      // codegen/mma.ts); any other pair is multiplied in f32. The products accumulate in f32.
      const operand = dtypeOf(a) === "f16" && dtypeOf(b) === "f16" ? "f16" : "f32";
      const fa = ctx.values.cast(a, operand, a.span);
      const fb = ctx.values.cast(b, operand, b.span);
      let c: Value | undefined;
      if (acc) {
        if (!sameShape(acc.type.shape, out)) {
          ctx.log.error(Codes.dotShape, acc.span, `the accumulator must have the product's shape ${shapeToString(out)}, got ${typeToString(acc.type)}`);
          return undefined;
        }
        c = ctx.values.cast(acc, "f32", acc.span);
      }
      return ctx.b.emit({ op: "dot", a: fa, b: fb, ...(c ? { acc: c } : {}) }, data("f32", out), span);
    },
  },
};

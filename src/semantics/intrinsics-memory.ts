// tl.load and tl.store: pointers, masks and the values that go through them.

import { Codes } from "../diagnostics/codes";
import type { Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, all, arity, requireData, type Intrinsic } from "./intrinsic-args";
import { broadcastShapes, sameShape, shapeToString } from "./rules";
import { checkUnmaskedAccess } from "./unmasked-access";

export const MEMORY_INTRINSICS: Record<string, Intrinsic> = {
  load: {
    produces: ["load", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 3, "(pointers, mask?, other?)")) return undefined;
      const values = all(ctx, args);
      if (!values) return undefined;
      const [ptr, rawMask, rawOther] = values as (Value | undefined)[];
      if (!ptr) return undefined;
      let mask = rawMask;
      let other = rawOther;
      if (ptr.type.kind !== "pointer") {
        ctx.log.error(Codes.notAPointer, ptr.span, `tl.load needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
        return undefined;
      }
      if (mask && (mask.type.kind === "pointer" || mask.type.dtype !== "bool")) {
        ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
        return undefined;
      }
      let shape: Shape | undefined = ptr.type.shape;
      if (mask) shape = ctx.values.commonShape(ptr, mask, span, "tl.load's pointers and mask");
      if (!shape) return undefined;
      const pointee = ptr.type.pointee;
      const p = ctx.values.toShape(ptr, shape, ptr.span);
      mask = mask && ctx.values.toShape(mask, shape, mask.span);
      if (other) {
        if (!requireData(ctx, other, "tl.load's other")) return undefined;
        other = ctx.values.coerce(other, pointee, shape, other.span);
        if (!other) return undefined;
      }
      if (!p || (args[1] && !mask)) return undefined;
      checkUnmaskedAccess(ctx, name as "load", args, span, ptr);
      return ctx.b.emit({ op: "load", ptr: p, ...(mask ? { mask } : {}), ...(other ? { other } : {}) }, data(pointee, shape), span);
    },
  },

  store: {
    produces: ["stmt:store", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 3, "(pointers, value, mask?)")) return undefined;
      const values = all(ctx, args);
      if (!values) return undefined;
      const [ptr, value, mask] = values;
      if (ptr.type.kind !== "pointer") {
        ctx.log.error(Codes.notAPointer, ptr.span, `tl.store needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
        return undefined;
      }
      if (!requireData(ctx, value, "tl.store's value")) return undefined;
      if (mask && (mask.type.kind === "pointer" || mask.type.dtype !== "bool")) {
        ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
        return undefined;
      }
      // The pointers decide the shape; value and mask must broadcast to it (Triton's rule).
      let shape: Shape = ptr.type.shape;
      if (mask) {
        const s = ctx.values.commonShape(ptr, mask, span, "tl.store's pointers and mask");
        if (!s) return undefined;
        shape = s;
      }
      const target = broadcastShapes(value.type.shape, shape);
      if (!target || !sameShape(target, shape)) {
        ctx.log.error(Codes.storeShape, value.span, `can't store a value of shape ${shapeToString(value.type.shape)} through pointers of shape ${shapeToString(shape)}`);
        return undefined;
      }
      const p = ctx.values.toShape(ptr, shape, ptr.span);
      const v = ctx.values.coerce(value, ptr.type.pointee, shape, value.span);
      const m = mask && ctx.values.toShape(mask, shape, mask.span);
      if (!p || !v || (mask && !m)) return undefined;
      checkUnmaskedAccess(ctx, name as "store", args, span, ptr);
      ctx.markWritten(ptr.type.param);
      ctx.b.push({ kind: "store", span, ptr: p, value: v, ...(m ? { mask: m } : {}) });
      return "void";
    },
  },
};

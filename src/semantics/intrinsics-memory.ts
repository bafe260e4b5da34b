// tl.load and tl.store: pointers, masks and the values that go through them.

import { Codes } from "../diagnostics/codes";
import type { Shape, Value } from "../ir/ir";
import { heldDtype, typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, arity, given, requireData, type Intrinsic } from "./intrinsic-args";
import { broadcastShapes, sameShape, shapeToString } from "./rules";
import { describeAggregate, isAggregate, type BlockPointer } from "./aggregates";
import { blockAccess, paddingArg } from "./block-pointers";
import type { Span } from "../diagnostics/diagnostic";
import type { Args, IntrinsicContext } from "./intrinsic-args";
import { checkUnmaskedAccess } from "./unmasked-access";
import { isConst } from "./values";

export const MEMORY_INTRINSICS: Record<string, Intrinsic> = {
  load: {
    params: ["pointer", "mask", "other", "boundaryCheck", "paddingOption", "cacheModifier", "evictionPolicy", "volatile"],
    ignored: ["cacheModifier", "evictionPolicy", "volatile"],
    produces: ["load", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 1, 5, "(pointers, mask?, other?)")) return undefined;
      const target = ctx.lowered(args[0]);
      if (target && isAggregate(target) && target.kind === "blockPtr") return loadThroughBlockPointer(ctx, target, args, span);
      if (!blockPointerOnly(ctx, args, [3, 4], "tl.load")) return undefined;
      const values = given(ctx, args.slice(1, 3));
      if (!values || !target) return undefined;
      if (isAggregate(target)) {
        ctx.log.error(Codes.notAPointer, ctx.span(args[0]!), `tl.load needs pointers (a Ptr parameter plus offsets) or a block pointer, got ${describeAggregate(target)}`);
        return undefined;
      }
      const [rawMask, rawOther] = values;
      const ptr = target;
      if (rawOther && !rawMask) {
        ctx.log.error(Codes.intrinsicArgs, rawOther.span, "tl.load's other is what masked-off lanes read, and there is no mask; give the mask too (as Triton requires)");
        return undefined;
      }
      let mask = rawMask && constexprMask(ctx, rawMask);
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
      const pointee = heldDtype(ptr.type.pointee);
      const p = ctx.values.toShape(ptr, shape, ptr.span);
      mask = mask && ctx.values.toShape(mask, shape, mask.span);
      if (other) {
        // A mask is cast to the element type, as Triton casts `other` (tritonbench's sum kernel: `other=mask`, 0 where masked off).
        if (!requireData(ctx, other, "tl.load's other", true)) return undefined;
        other = ctx.values.coerce(other, pointee, shape, other.span);
        if (!other) return undefined;
      }
      if (!p || (args[1] && !mask)) return undefined;
      checkUnmaskedAccess(ctx, name as "load", args, span, ptr);
      const loaded = ctx.b.emit({ op: "load", ptr: p, ...(mask ? { mask } : {}), ...(other ? { other } : {}) }, data(pointee, shape), span);
      // An int8 / uint8 element, held as an i32: Triton's arithmetic on it stays in 8 bits (values.ts bytes).
      const stored = ptr.type.pointee;
      if (stored === "f8e4m3" || stored === "f8e5m2") return ctx.values.markF8(loaded, stored);
      return stored === "i8" || stored === "u8" ? ctx.values.markByte(loaded, stored) : loaded;
    },
  },

  store: {
    params: ["pointer", "value", "mask", "boundaryCheck", "cacheModifier", "evictionPolicy"],
    ignored: ["cacheModifier", "evictionPolicy"],
    produces: ["stmt:store", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 4, "(pointers, value, mask?)")) return undefined;
      const target = ctx.lowered(args[0]);
      if (target && isAggregate(target) && target.kind === "blockPtr") return storeThroughBlockPointer(ctx, target, args, span);
      if (!blockPointerOnly(ctx, args, [3], "tl.store")) return undefined;
      const values = given(ctx, args.slice(1, 3));
      if (!values || !target) return undefined;
      if (isAggregate(target)) {
        ctx.log.error(Codes.notAPointer, ctx.span(args[0]!), `tl.store needs pointers (a Ptr parameter plus offsets) or a block pointer, got ${describeAggregate(target)}`);
        return undefined;
      }
      const [value, rawMask] = values as [Value, Value | undefined];
      const mask = rawMask && constexprMask(ctx, rawMask);
      const ptr = target;
      if (ptr.type.kind !== "pointer") {
        ctx.log.error(Codes.notAPointer, ptr.span, `tl.store needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
        return undefined;
      }
      // A mask is stored as 0 or 1: through a Ptr<bool> (torch.bool) as is, through any other pointer cast to its element type (as Triton casts a stored value; True → 1.0).
      if (!requireData(ctx, value, "tl.store's value", true)) return undefined;
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
      const stretched = broadcastShapes(value.type.shape, shape);
      // Triton's store broadcasts the value to the pointers' shape without adding axes: a block of another rank is
      // refused (test_core.py's test_index1d stores x[None, :] through [32, 32, 32] pointers and expects the error).
      const ranks = value.type.shape.length > 0 && value.type.shape.length !== shape.length;
      if (!stretched || !sameShape(stretched, shape) || ranks) {
        const why = stretched && sameShape(stretched, shape) ? ` (Triton's store adds no axes to a block: index the value with None, x[None, :], or tl.reshape it to ${shape.length} axes)` : "";
        ctx.log.error(Codes.storeShape, value.span, `can't store a value of shape ${shapeToString(value.type.shape)} through pointers of shape ${shapeToString(shape)}${why}`);
        return undefined;
      }
      const p = ctx.values.toShape(ptr, shape, ptr.span);
      const v = ctx.values.coerce(value, heldDtype(ptr.type.pointee), shape, value.span);
      const m = mask && ctx.values.toShape(mask, shape, mask.span);
      if (!p || !v || (mask && !m)) return undefined;
      checkUnmaskedAccess(ctx, name as "store", args, span, ptr);
      ctx.markWritten(ptr.type.param);
      ctx.b.push({ kind: "store", span, ptr: p, value: v, ...(m ? { mask: m } : {}) });
      return "void";
    },
  },
};

/**
 * A bool constexpr given as the mask (test_core.py's test_masked_load_scalar: `mask: tl.constexpr`, launched with
 * True or False) reaches the kernel as the number 1 or 0: the mask True or False, as Triton's int1 constant is.
 */
function constexprMask(ctx: IntrinsicContext, mask: Value): Value {
  if (!isConst(mask) || mask.type.kind !== "data" || mask.type.dtype !== "i32" || mask.type.shape.length > 0 || (mask.value !== 0 && mask.value !== 1)) return mask;
  return ctx.b.constant(mask.value, "bool", mask.span);
}

/** boundaryCheck and paddingOption (args at `at`) belong to block pointers; with plain pointers the mask says what to read. */
function blockPointerOnly(ctx: IntrinsicContext, args: Args, at: number[], what: string): boolean {
  const given = at.find((i) => args[i]);
  if (given === undefined) return true;
  ctx.log.error(Codes.intrinsicArgs, ctx.span(args[given]!), `${what}'s ${given === 3 ? "boundaryCheck" : "paddingOption"} applies to block pointers (tl.makeBlockPtr); with pointer arithmetic, mask the lanes instead: ${what}(ptrs, …, { mask: offs < n })`);
  return false;
}

const NO_MASK_WITH_BLOCK_POINTERS = "a block pointer's window is masked by the axes its boundaryCheck names, not by a mask: { boundaryCheck: [0, 1] }";

/** tl.load(bp, { boundaryCheck, paddingOption }): the window's pointers and mask (block-pointers.ts), loaded as any pointers. */
function loadThroughBlockPointer(ctx: IntrinsicContext, bp: BlockPointer, args: Args, span: Span): Value | undefined {
  const stray = args[1] ?? args[2];
  if (stray) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(stray), `tl.load through a block pointer takes no mask or other; ${NO_MASK_WITH_BLOCK_POINTERS}, and what out-of-bounds elements read by { paddingOption: "zero" } or "nan"`);
    return undefined;
  }
  const access = blockAccess(ctx, bp, args[3], span, "tl.load");
  const padding = paddingArg(ctx, args[4]);
  if (!access || !padding || access.pointers.type.kind !== "pointer") return undefined;
  const pointee = heldDtype(access.pointers.type.pointee);
  const other = access.mask && padding === "nan" ? ctx.values.coerce(ctx.b.constant(NaN, "f32", span), pointee, bp.blockShape, span) : undefined;
  const { pointers, mask } = access;
  return ctx.b.emit({ op: "load", ptr: pointers, ...(mask ? { mask } : {}), ...(other ? { other } : {}) }, data(pointee, bp.blockShape), span);
}

/** tl.store(bp, value, { boundaryCheck }): the value stretched to the window, stored where the checked axes are in bounds. */
function storeThroughBlockPointer(ctx: IntrinsicContext, bp: BlockPointer, args: Args, span: Span): "void" | undefined {
  if (args[2]) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(args[2]), `tl.store through a block pointer takes no mask; ${NO_MASK_WITH_BLOCK_POINTERS}`);
    return undefined;
  }
  const value = ctx.expression(args[1]);
  const access = value && blockAccess(ctx, bp, args[3], span, "tl.store");
  if (!value || !access || access.pointers.type.kind !== "pointer" || !requireData(ctx, value, "tl.store's value", true)) return undefined;
  const v = ctx.values.coerce(value, heldDtype(access.pointers.type.pointee), bp.blockShape, value.span);
  if (!v) return undefined;
  ctx.markWritten(access.pointers.type.param);
  ctx.b.push({ kind: "store", span, ptr: access.pointers, value: v, ...(access.mask ? { mask: access.mask } : {}) });
  return "void";
}

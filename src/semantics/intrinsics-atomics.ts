// tl.atomicAdd … tl.atomicCas: read-modify-writes through pointers (Triton's tl.atomic_*), each
// returning the old contents. WGSL has atomics on i32 and u32 only; tl.atomicAdd, tl.atomicMax and
// tl.atomicMin on Ptr<f32> are compare-and-swap loops on the bits in the generated WGSL
// (codegen/atomics.ts), max and min ordering the floats as Triton's lowering does (by their bits);
// tl.atomicXchg and tl.atomicCas on Ptr<f32> are the u32 word's exchange and compare-and-swap (the cas
// compares bits, as Triton's 32-bit cmpxchg); tl.atomicAdd and tl.atomicCas on Ptr<bf16> and Ptr<f16>
// ones on the word holding the element (codegen/bytes.ts).

import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { AtomicFn, Shape, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import { COERCIONS, arity, given, requireData, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";

/** Lowers tl.atomic<fn>(ptr, value, mask?) — or, for cas, (ptr, cmp, value, mask?). */
function lowerAtomic(fn: AtomicFn, ctx: IntrinsicContext, args: Args, span: Span, name: string): Value | undefined {
  const cas = fn === "cas";
  if (!arity(ctx, args, span, name, cas ? 3 : 2, cas ? 4 : 3, cas ? "(pointers, cmp, value, mask?)" : "(pointers, value, mask?)")) return undefined;
  const values = given(ctx, args);
  if (!values) return undefined;
  const [ptr, ...rest] = values as [Value, ...(Value | undefined)[]];
  const [cmp, value, mask] = cas ? rest : [undefined, ...rest];
  if (ptr.type.kind !== "pointer") {
    ctx.log.error(Codes.notAPointer, ptr.span, `tl.${name} needs pointers (a Ptr parameter plus offsets), got ${typeToString(ptr.type)}`);
    return undefined;
  }
  const pointee = atomicPointee(ctx, fn, ptr, `tl.${name}`);
  if (!pointee) return undefined;
  for (const [operand, what] of [[cmp, "cmp"], [value, "value"]] as const) {
    if (operand && !requireData(ctx, operand, `tl.${name}'s ${what}`)) return undefined;
  }
  if (mask && (mask.type.kind === "pointer" || mask.type.dtype !== "bool")) {
    ctx.log.error(Codes.operandDtype, mask.span, `the mask must be a comparison (a boolean block), got ${typeToString(mask.type)}`);
    return undefined;
  }
  // As in Triton, pointers, value, cmp and mask broadcast together.
  let shape: Shape | undefined = ptr.type.shape;
  for (const operand of [cmp, value, mask]) {
    if (operand && shape) shape = ctx.values.commonShape({ ...ptr, type: { ...ptr.type, shape } }, operand, span, `tl.${name}'s pointers and ${operand === mask ? "mask" : operand === cmp ? "cmp" : "value"}`);
  }
  if (!shape) return undefined;
  const p = ctx.values.toShape(ptr, shape, ptr.span);
  const v = ctx.values.coerce(value!, pointee, shape, value!.span);
  const c = cmp && ctx.values.coerce(cmp, pointee, shape, cmp.span);
  const m = mask && ctx.values.toShape(mask, shape, mask.span);
  if (!p || !v || (cmp && !c) || (mask && !m)) return undefined;
  ctx.markWritten(ptr.type.param);
  return ctx.b.emit({ op: "atomic", fn, ptr: p, value: v, ...(c ? { cmp: c } : {}), ...(m ? { mask: m } : {}) }, data(pointee, shape), span);
}

/**
 * Whether WGSL has `fn` on elements of `dtype`: i32 and u32, and f32 for add, max and min (compare-and-swap
 * loops on the bits) and xchg and cas (the word's own atomics on the bits; Triton has both on fp32:
 * semantic.py atomic_xchg, atomic_cas). A descriptor's atomics (Triton's TMA reductions) take f32 for add
 * only, as Triton's do.
 */
export function hasAtomic(fn: AtomicFn, dtype: string | undefined, descriptor = false): dtype is "i32" | "u32" | "f32" {
  return dtype === "i32" || dtype === "u32" || (dtype === "f32" && floatAtomic(fn, descriptor));
}

function floatAtomic(fn: AtomicFn, descriptor: boolean): boolean {
  return fn === "add" || (!descriptor && (fn === "max" || fn === "min" || fn === "xchg" || fn === "cas"));
}

/** How an f32 `fn` is built, as a diagnostic says it. */
function floatAtomicHow(fn: AtomicFn): string {
  return fn === "xchg" ? "an f32 exchange swaps its bits" : fn === "cas" ? "an f32 compare-and-swap compares its bits" : `an f32 ${fn} is a compare-and-swap loop on its bits`;
}

/** The dtypes `fn` works on, as a diagnostic names them. */
export function atomicDtypes(fn: AtomicFn, descriptor = false): string {
  return floatAtomic(fn, descriptor) ? "i32, u32 and f32" : "i32 and u32 (WGSL has atomics only on 32-bit integers)";
}

/**
 * What `ptr` points to where WGSL has `fn` on it; else undefined after a diagnostic at `ptr`. On bf16
 * and f16, Triton has the add (bf16 on sm90: Liger's group norm backward accumulates dW and dB so;
 * f16 everywhere, test_core.py's test_atomic_rmw) and the cas (any 16-bit element, semantic.py
 * atomic_cas): compare-and-swap loops on the element's word, its other half untouched
 * (codegen/bytes.ts packedAtomic), the sum rounded to the element's dtype. Triton refuses the others
 * on both (atom_red_typechecking_impl: "atomic_max does not support fp16" / "bf16"), and so does this.
 */
function atomicPointee(ctx: IntrinsicContext, fn: AtomicFn, ptr: Value, what: string): "i32" | "u32" | "f32" | "bf16" | "f16" | undefined {
  const pointee = ptr.type.kind === "pointer" ? ptr.type.pointee : undefined;
  if (hasAtomic(fn, pointee)) return pointee;
  const half = pointee === "bf16" || pointee === "f16";
  if ((fn === "add" || fn === "cas") && half) return pointee;
  const float = floatAtomic(fn, false);
  const halves = fn === "add" || fn === "cas" ? " (and Ptr<f16>, Ptr<bf16>)" : "";
  const allowed = float
    ? `Ptr<i32>, Ptr<u32> and Ptr<f32>${halves} (WGSL has atomics only on 32-bit words; ${floatAtomicHow(fn)})`
    : `Ptr<i32> and Ptr<u32> (WGSL has atomics only on 32-bit integers)`;
  const instead = float && half ? fn === "xchg" ? "; exchange through a float32 tensor" : "; reduce into a float32 tensor and convert it after the launch" : "";
  // Triton's own refusal (semantic.py atom_red_typechecking_impl), so nobody waits for Kernel Lab to add it.
  const triton = half ? ` (Triton refuses it too: "atomic_${fn} does not support ${pointee === "f16" ? "fp16" : "bf16"}"; on ${pointee === "f16" ? "fp16" : "bf16"} it has atomic_add and atomic_cas only)` : "";
  ctx.log.error(Codes.operandDtype, ptr.span, `${what} works on ${allowed}, got ${typeToString(ptr.type)}${instead}${triton}`);
  return undefined;
}

function atomicIntrinsic(fn: AtomicFn): Intrinsic {
  return {
    params: fn === "cas" ? ["pointer", "cmp", "val", "mask", "sem", "scope"] : ["pointer", "val", "mask", "sem", "scope"],
    // WGSL's atomics are relaxed and device-wide: Triton's memory-order and scope options are accepted.
    ignored: ["sem", "scope"],
    produces: [`atomic:${fn}`, "atomic", ...COERCIONS],
    lower: (ctx, args, span, name) => lowerAtomic(fn, ctx, args, span, name),
  };
}

export const ATOMIC_INTRINSICS: Record<string, Intrinsic> = {
  atomicAdd: atomicIntrinsic("add"),
  atomicMax: atomicIntrinsic("max"),
  atomicMin: atomicIntrinsic("min"),
  atomicAnd: atomicIntrinsic("and"),
  atomicOr: atomicIntrinsic("or"),
  atomicXor: atomicIntrinsic("xor"),
  atomicXchg: atomicIntrinsic("xchg"),
  atomicCas: atomicIntrinsic("cas"),
};

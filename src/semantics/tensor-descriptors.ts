// Triton's tensor descriptors: tl.makeTensorDescriptor(base, shape, strides, blockShape) describes a
// strided tensor to be read and written a `blockShape` block at a time; desc.load(offsets) reads the
// block at those element offsets, elements outside `shape` reading as 0 (or NaN with paddingOption
// "nan"), and desc.store(offsets, value) writes it, dropping the elements outside. On NVIDIA's
// Hopper that is the TMA copy engine; its meaning is a block pointer's load and store with every
// axis boundary-checked, and it is lowered exactly so (block-pointers.ts windowAccess): pointer
// arithmetic and a mask, which the launch's bounds checks see as any masked load (a masked-off
// element is never out of bounds). Its atomics (desc.atomic_add(offsets, value), _min, _max, _and,
// _or, _xor: Triton's TMA reductions) are the same window's tl.atomic* of the whole block, masked
// alike, returning nothing as Triton's do. A host TensorDescriptor argument is made one of these in
// the kernel's first line (src/python/descriptors.ts).

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { AtomicFn, Value } from "../ir/ir";
import { heldDtype, typeToString } from "../ir/ir";
import { data } from "./builder";
import { describeAggregate, isAggregate, type Lowered, type TensorDescriptor } from "./aggregates";
import { axisScalars, windowAccess } from "./block-pointers";
import { dtypeOfValue, dtypeValue, type TritonType } from "./dtypes";
import { atomicDtypes, hasAtomic } from "./intrinsics-atomics";
import { COERCIONS, MAX_RANK, arity, requireData, shapeArg, type Args, type Intrinsic, type IntrinsicContext } from "./intrinsic-args";
import { sameShape, shapeToString } from "./rules";
import { isConst } from "./values";

export const TENSOR_DESCRIPTOR_INTRINSICS: Record<string, Intrinsic> = {
  makeTensorDescriptor: {
    params: ["base", "shape", "strides", "blockShape", "paddingOption"],
    produces: ["cast", "const"],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 4, 5, "(base, shape, strides, blockShape, paddingOption?)")) return undefined;
      const base = ctx.expression(args[0]);
      if (!base) return undefined;
      if (base.type.kind !== "pointer" || base.type.shape.length > 0) {
        ctx.log.error(Codes.notAPointer, base.span, `tl.${name}'s base is one pointer (a Ptr parameter, plus an offset), got ${typeToString(base.type)}`);
        return undefined;
      }
      const blockShape = blockShapeArg(ctx, args[3]!, name);
      if (!blockShape) return undefined;
      const rank = blockShape.length;
      const shape = integers(ctx, args[1]!, `tl.${name}'s shape`, rank);
      const strides = shape && integers(ctx, args[2]!, `tl.${name}'s strides`, rank);
      const padding = strides && paddingOption(ctx, args[4], base, name);
      if (!shape || !strides || !padding) return undefined;
      const last = strides[rank - 1];
      if (!isConst(last) || last.value !== 1) {
        ctx.log.error(Codes.descriptorLastStride, strideSpan(ctx, args[2]!, rank), `a tensor descriptor's last stride must be the constant 1 (the innermost axis contiguous, as Triton requires), got ${isConst(last) ? last.value : `a run-time ${typeToString(last.type)}`}; make the tensor contiguous in its last axis and write 1`);
        return undefined;
      }
      return { kind: "tensorDesc", base, shape, strides, blockShape, padding, span } satisfies TensorDescriptor;
    },
  },

  loadTensorDescriptor: {
    params: ["desc", "offsets"],
    produces: ["load", "arange", "reshape", "ptrAdd", "binary:add", "binary:mul", "binary:lt", "binary:land", "math:maximum", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 2, 2, "(desc, offsets)")) return undefined;
      const desc = descriptorArg(ctx, args[0]!, `tl.${name}`);
      return desc && loadDescriptor(ctx, desc, args[1]!, span, `tl.${name}`);
    },
  },

  storeTensorDescriptor: {
    params: ["desc", "offsets", "value"],
    produces: ["stmt:store", "arange", "reshape", "ptrAdd", "binary:add", "binary:mul", "binary:lt", "binary:land", "math:maximum", ...COERCIONS],
    lower(ctx, args, span, name) {
      if (!arity(ctx, args, span, name, 3, 3, "(desc, offsets, value)")) return undefined;
      const desc = descriptorArg(ctx, args[0]!, `tl.${name}`);
      return desc && storeDescriptor(ctx, desc, args[1]!, args[2]!, span, `tl.${name}`);
    },
  },
};

/** `desc.load(offsets)` (members.ts) and tl.loadTensorDescriptor: the block, out-of-range elements read as the padding. */
export function loadDescriptor(ctx: IntrinsicContext, desc: TensorDescriptor, offsetsNode: ts.Expression, span: Span, what: string): Value | undefined {
  const offsets = integers(ctx, offsetsNode, `${what}'s offsets`, desc.blockShape.length);
  const access = offsets && windowAccess(ctx, { ...desc, offsets }, uncertainAxes(desc, offsets), span);
  if (!access || access.pointers.type.kind !== "pointer") return undefined;
  const pointee = heldDtype(access.pointers.type.pointee);
  const other = access.mask && desc.padding === "nan" ? ctx.values.coerce(ctx.b.constant(NaN, "f32", span), pointee, desc.blockShape, span) : undefined;
  return ctx.b.emit({ op: "load", ptr: access.pointers, ...(access.mask ? { mask: access.mask } : {}), ...(other ? { other } : {}) }, data(pointee, desc.blockShape), span);
}

/** `desc.store(offsets, value)` and tl.storeTensorDescriptor: the block written where it lies inside the shape. */
export function storeDescriptor(ctx: IntrinsicContext, desc: TensorDescriptor, offsetsNode: ts.Expression, valueNode: ts.Expression, span: Span, what: string): "void" | undefined {
  const offsets = integers(ctx, offsetsNode, `${what}'s offsets`, desc.blockShape.length);
  const value = offsets && ctx.expression(valueNode);
  if (!offsets || !value || !requireData(ctx, value, `${what}'s value`, true)) return undefined;
  if (!sameShape(value.type.shape, desc.blockShape)) {
    ctx.log.error(Codes.descriptorStoreShape, value.span, `${what} writes a whole block of the descriptor's block shape ${shapeToString(desc.blockShape)}, got a value of shape ${shapeToString(value.type.shape)}; Triton requires the two to be equal (tl.broadcastTo or tl.reshape it first)`);
    return undefined;
  }
  const access = windowAccess(ctx, { ...desc, offsets }, uncertainAxes(desc, offsets), span);
  if (!access || access.pointers.type.kind !== "pointer") return undefined;
  const v = ctx.values.coerce(value, heldDtype(access.pointers.type.pointee), desc.blockShape, value.span);
  if (!v) return undefined;
  ctx.markWritten(access.pointers.type.param);
  ctx.b.push({ kind: "store", span, ptr: access.pointers, value: v, ...(access.mask ? { mask: access.mask } : {}) });
  return "void";
}

/** A descriptor's atomic methods, in either spelling, and the read-modify-write each is. */
export const DESCRIPTOR_ATOMICS: Readonly<Record<string, AtomicFn>> = {
  atomic_add: "add", atomicAdd: "add",
  atomic_min: "min", atomicMin: "min",
  atomic_max: "max", atomicMax: "max",
  atomic_and: "and", atomicAnd: "and",
  atomic_or: "or", atomicOr: "or",
  atomic_xor: "xor", atomicXor: "xor",
};

/** `desc.atomic_add(offsets, value)` …: the block's elements inside the shape updated atomically, elementwise; nothing returned, as Triton's. */
export function atomicDescriptor(ctx: IntrinsicContext, desc: TensorDescriptor, fn: AtomicFn, offsetsNode: ts.Expression, valueNode: ts.Expression, span: Span, what: string): "void" | undefined {
  const offsets = integers(ctx, offsetsNode, `${what}'s offsets`, desc.blockShape.length);
  const value = offsets && ctx.expression(valueNode);
  if (!offsets || !value || !requireData(ctx, value, `${what}'s value`, true)) return undefined;
  const element = desc.base.type.kind === "pointer" ? desc.base.type.pointee : undefined;
  if (!hasAtomic(fn, element, true)) {
    ctx.log.error(Codes.operandDtype, desc.span, `${what} works on descriptors of ${atomicDtypes(fn, true)}; this one holds ${element ?? typeToString(desc.base.type)}`);
    return undefined;
  }
  if (!sameShape(value.type.shape, desc.blockShape)) {
    ctx.log.error(Codes.descriptorStoreShape, value.span, `${what} updates a whole block of the descriptor's block shape ${shapeToString(desc.blockShape)}, got a value of shape ${shapeToString(value.type.shape)}; Triton requires the two to be equal (tl.broadcastTo or tl.reshape it first)`);
    return undefined;
  }
  const access = windowAccess(ctx, { ...desc, offsets }, uncertainAxes(desc, offsets), span);
  if (!access || access.pointers.type.kind !== "pointer") return undefined;
  const v = ctx.values.coerce(value, element, desc.blockShape, value.span);
  if (!v) return undefined;
  ctx.markWritten(access.pointers.type.param);
  ctx.b.emit({ op: "atomic", fn, ptr: access.pointers, value: v, ...(access.mask ? { mask: access.mask } : {}) }, data(element, desc.blockShape), span);
  return "void";
}

/**
 * The axes whose bounds must be checked: all but those the block provably lies inside while
 * compiling (a constant offset and extent, tutorial 06's `[qo_offset_y, 0]` of a `[y_dim, HEAD_DIM]`
 * tensor), where the mask would be true everywhere.
 */
function uncertainAxes(desc: TensorDescriptor, offsets: readonly Value[]): number[] {
  return desc.blockShape.flatMap((block, d) => {
    const [offset, extent] = [offsets[d], desc.shape[d]];
    const inside = isConst(offset) && isConst(extent) && offset.value >= 0 && offset.value + block <= extent.value;
    return inside ? [] : [d];
  });
}

/** `desc.shape`, `desc.strides`, `desc.block_shape`, `desc.block_type`, `desc.dtype` (members.ts); undefined: no such member. */
export function descriptorProperty(ctx: IntrinsicContext, desc: TensorDescriptor, name: string, span: Span): Lowered | undefined {
  const tuple = (elements: Value[]): Lowered => ({ kind: "tuple", elements, span });
  const element = dtypeOfValue(desc.base) as Extract<TritonType, { of: "pointer" }>;
  const scalar = { of: "scalar" as const, name: element.pointee };
  switch (name) {
    case "shape":
      return tuple(desc.shape);
    case "strides":
      return tuple(desc.strides);
    case "block_shape":
    case "blockShape":
      return tuple(desc.blockShape.map((n) => ctx.b.constant(n, "i32", span)));
    case "block_type":
    case "blockType":
      return dtypeValue({ of: "block", element: scalar, shape: [...desc.blockShape] }, span);
    case "dtype":
      return dtypeValue(scalar, span);
  }
  return undefined;
}

/** Triton's classes `isinstance` tests in kernels, by their names under tl (either spelling): is `x` one? */
const CLASSES: Readonly<Record<string, (x: Lowered) => boolean>> = {
  tensorDescriptor: (x) => isAggregate(x) && x.kind === "tensorDesc",
  tensorDescriptorBase: (x) => isAggregate(x) && x.kind === "tensorDesc",
  tensor: (x) => !isAggregate(x),
  tuple: (x) => isAggregate(x) && x.kind === "tuple",
  dtype: (x) => isAggregate(x) && x.kind === "dtype",
};

/** The tl.* names that are classes for `instanceof`, not functions (types/kernel-lab.d.ts declares them as consts). */
export const TL_CLASSES: readonly string[] = Object.keys(CLASSES);

/**
 * `x instanceof tl.tensorDescriptor` (Python's `isinstance(x, tl.tensor_descriptor)`, tutorial 06's
 * `_maybe_make_tensor_desc`): decided while compiling, so an `if` on it keeps only the branch taken.
 */
export function instanceOf(ctx: IntrinsicContext, node: ts.BinaryExpression, span: Span): Value | undefined {
  const right = node.right;
  const isTl = ts.isPropertyAccessExpression(right) && ts.isIdentifier(right.expression) && ctx.kernel.tlNames.has(right.expression.text);
  const name = isTl ? right.name.text.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) : undefined;
  const test = name !== undefined && Object.hasOwn(CLASSES, name) ? CLASSES[name] : undefined;
  if (!test) {
    ctx.log.error(Codes.unsupportedSyntax, ctx.span(right), "isinstance in a kernel tests for one of tl.tensor_descriptor, tl.tensor, tl.tuple or tl.dtype (x instanceof tl.tensorDescriptor)");
    return undefined;
  }
  const x = ctx.lowered(node.left);
  return x && ctx.b.constant(test(x) ? 1 : 0, "bool", span);
}

export const DESCRIPTOR_PROPERTIES = ".shape, .strides, .block_shape, .block_type and .dtype";

function descriptorArg(ctx: IntrinsicContext, node: ts.Expression, what: string): TensorDescriptor | undefined {
  const lowered = ctx.lowered(node);
  if (!lowered) return undefined;
  if (!isAggregate(lowered) || lowered.kind !== "tensorDesc") {
    ctx.log.error(Codes.descriptorMisuse, ctx.span(node), `${what} takes a tensor descriptor (made by tl.makeTensorDescriptor, or a TensorDescriptor argument), got ${isAggregate(lowered) ? describeAggregate(lowered) : typeToString(lowered.type)}`);
    return undefined;
  }
  return lowered;
}

/** A descriptor's shape, strides or offsets: one integer scalar per axis of its block shape. */
function integers(ctx: IntrinsicContext, node: ts.Expression, what: string, rank: number): Value[] | undefined {
  return axisScalars(ctx, node, what, rank, { code: Codes.descriptorRank, holder: "the descriptor's block shape" });
}

/** The block shape: a list of compile-time powers of two (a literal, or a name holding one: tutorial 06 passes it through a helper). */
function blockShapeArg(ctx: IntrinsicContext, node: ts.Expression, name: string): number[] | undefined {
  let shape: number[] | undefined;
  if (ts.isArrayLiteralExpression(node)) {
    const written = shapeArg(ctx, node);
    shape = written && [...written];
  }
  else {
    const lowered = ctx.lowered(node);
    if (!lowered) return undefined;
    const ints = isAggregate(lowered) && lowered.kind === "tuple" ? lowered.elements.map((e) => (!isAggregate(e) && isConst(e) && Number.isInteger(e.value) ? e.value : undefined)) : undefined;
    if (!ints || ints.some((i) => i === undefined)) {
      ctx.log.error(Codes.constantRequired, ctx.span(node), `tl.${name}'s blockShape is a list of compile-time integers, e.g. [BLOCK_M, BLOCK_K]`);
      return undefined;
    }
    const bad = (ints as number[]).find((i) => i <= 0 || (i & (i - 1)) !== 0);
    if (bad !== undefined) {
      ctx.log.error(Codes.notPowerOfTwo, ctx.span(node), `tl.${name}'s block extents must be powers of two, got ${bad}`);
      return undefined;
    }
    shape = ints as number[];
  }
  if (!shape) return undefined;
  if (shape.length < 1 || shape.length > MAX_RANK) {
    ctx.log.error(Codes.descriptorRank, ctx.span(node), `a tensor descriptor has 1 to ${MAX_RANK} axes, got ${shape.length}`);
    return undefined;
  }
  return shape;
}

/** paddingOption: "zero" (the default) or "nan", a string literal; "nan" only for float elements, as Triton. */
function paddingOption(ctx: IntrinsicContext, node: ts.Expression | undefined, base: Value, name: string): "zero" | "nan" | undefined {
  if (!node) return "zero";
  if (!ts.isStringLiteralLike(node) || !["zero", "nan"].includes(node.text)) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `tl.${name}'s paddingOption is "zero" or "nan" (a string literal)`);
    return undefined;
  }
  const element = base.type.kind === "pointer" ? heldDtype(base.type.pointee) : "f32";
  if (node.text === "nan" && element !== "f32" && element !== "f16" && element !== "bf16") {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `tl.${name}'s paddingOption "nan" is for float tensors; this one holds ${element}`);
    return undefined;
  }
  return node.text as "zero" | "nan";
}

/** The last stride as written, where the strides are a list literal; else the whole argument. */
function strideSpan(ctx: IntrinsicContext, node: ts.Expression, rank: number): Span {
  return ts.isArrayLiteralExpression(node) && node.elements.length === rank ? ctx.span(node.elements[rank - 1]) : ctx.span(node);
}

export type { Args };

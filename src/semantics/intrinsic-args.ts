// What every tl.* function's lowering uses: the context it lowers in, the Intrinsic entry type,
// and the checks of arguments shared by many (arity, compile-time integers, dtypes, shapes, axes).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Dtype, F8Dtype, NumDtype, Shape, Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import type { IrOpName } from "../ir/ops";
import { F16_MISSING, type Target } from "../ir/target";
import type { KernelSource } from "../syntax/parse";
import { IrBuilder } from "./builder";
import type { Binding } from "./context";
import { ValueFactory, isConst } from "./values";
import { isPowerOfTwo, shapeToString } from "./rules";
import type { Args, Keywords, ParameterList } from "./keywords";
import { describeAggregate, isAggregate, type Lowered } from "./aggregates";
import { kernelDtype, typeText, type TritonDtypeName, type TritonType } from "./dtypes";

export interface IntrinsicContext {
  readonly log: DiagnosticLog;
  readonly b: IrBuilder;
  readonly values: ValueFactory;
  readonly target: Target;
  /** The kernel being lowered and its file: where lints and fixes read the source (unmasked-access.ts, arange-fix.ts). */
  readonly kernel: KernelSource;
  readonly sf: ts.SourceFile;
  /** The device functions being inlined (empty in the launched kernel's own body). */
  readonly calls: readonly unknown[];
  span(node: ts.Node): Span;
  /** Lowers an argument; one left out (a hole between keywords) is undefined, with no diagnostic. */
  expression(node: ts.Expression | undefined): Value | undefined;
  /** The value a name is bound to, if it is bound to one (no IR emitted, nothing reported). */
  lookupValue(name: string): Value | undefined;
  /** Lowers an argument that may be a tuple or a block pointer (tl.load's pointer, tl.advance's base). */
  lowered(node: ts.Expression | undefined): Lowered | undefined;
  /** `lowered` (lowered from `node`) as one value: a tuple, block pointer or dtype is reported. */
  valueOf(lowered: Lowered, node: ts.Expression): Value | undefined;
  markWritten(param: string): void;
  /** Runs `fn` in a new innermost scope holding `bindings` (a combine function's parameters). */
  inScope(fn: () => void, bindings?: Map<string, Binding>): void;
  /** The device function (a kernel(…) of the file) `name` names, unless a local name shadows it. */
  helperNamed(name: string): KernelSource | undefined;
  /** Inlines `helper` with `args` as its parameters (a combine function passed by name): its value, undefined after a diagnostic. */
  inlineHelper(helper: KernelSource, args: readonly Value[], span: Span): Lowered | undefined;
}

export type { Args, Keywords } from "./keywords";

/**
 * Checks a tl.* call's arguments and emits its IR: the value, "void" for tl.store, or undefined
 * after an error. `args` are in the order of the entry's `params` (keywords placed, holes where
 * left out, ignored ones removed: keywords.ts); `keywords` has every keyword given.
 */
export type IntrinsicLowering = (ctx: IntrinsicContext, args: Args, span: Span, name: string, keywords: Keywords) => Lowered | undefined | "void";

/**
 * One tl.* function: Triton's parameters (keywords.ts: the names a trailing object literal may
 * give, in Triton's positional order), its lowering, and the IR ops that lowering may produce
 * (each must be in codegen's and the interpreter's tables).
 */
export interface Intrinsic extends ParameterList {
  produces: readonly IrOpName[];
  lower: IntrinsicLowering;
}

/** The ops that implicit conversions add (constants, casts, splats and broadcasts; values.ts). */
export const COERCIONS: readonly IrOpName[] = ["const", "cast", "splat", "reshape", "broadcast"];

/** Largest block a kernel may create (elements); beyond it code size and registers explode. */
export const MAX_BLOCK_ELEMENTS = 1 << 16;

const DTYPE_NAMES: readonly NumDtype[] = ["f32", "i32", "u32", "f16", "bf16", "i64"];

/** Kernel Lab-style strings for Triton dtypes WGSL has no type for: each a KL2080 that says what to write. */
const STRING_SPELLINGS: Readonly<Record<string, TritonDtypeName>> = { f64: "float64", u64: "uint64", i8: "int8", i16: "int16", u8: "uint8", u16: "uint16", f8e4m3: "float8e4nv", f8e5m2: "float8e5" };

/** Between `min` and `max` arguments, the first `min` of them given (not left out between keywords). */
export function arity(ctx: IntrinsicContext, args: Args, span: Span, name: string, min: number, max: number, signature: string): boolean {
  const missing = args.slice(0, min).findIndex((a) => a === undefined);
  if (args.length < min || args.length > max || missing >= 0) {
    const count = args.filter((a) => a !== undefined).length;
    ctx.log.error(Codes.intrinsicArgs, span, `tl.${name} takes ${signature}; got ${count} argument${count === 1 ? "" : "s"}`);
    return false;
  }
  return true;
}

/** Every argument lowered; undefined if one is left out or has an error (its users then report nothing more). */
export function all(ctx: IntrinsicContext, args: Args): Value[] | undefined {
  const values = args.map((a) => a && ctx.expression(a));
  return values.every((v) => v !== undefined) ? (values as Value[]) : undefined;
}

/** The arguments given, lowered (a hole stays undefined); undefined if one of them has an error. */
export function given(ctx: IntrinsicContext, args: Args): (Value | undefined)[] | undefined {
  let ok = true;
  const values = args.map((a) => {
    const v = a && ctx.expression(a);
    if (a && !v) ok = false;
    return v;
  });
  return ok ? values : undefined;
}

/** A compile-time integer argument (literal, constexpr or folded expression). */
export function constInt(ctx: IntrinsicContext, node: ts.Expression | undefined, what: string): number | undefined {
  const v = ctx.expression(node);
  if (!v || !node) return undefined;
  if (!isConst(v) || !Number.isInteger(v.value)) {
    ctx.log.error(Codes.constantRequired, ctx.span(node), `${what} must be a compile-time integer (a literal or a constexpr parameter), got ${typeToString(v.type)}`);
    return undefined;
  }
  return v.value;
}

/**
 * An axis argument of a block of `rank` axes, as Triton takes it: a compile-time integer, negative
 * counting from the end. The axis in 0..rank-1, or undefined after a diagnostic (KL2012 at the
 * argument). `block`, when given, is named in the message.
 */
export function blockAxisArg(ctx: IntrinsicContext, node: ts.Expression, rank: number, what: string, block?: Value): number | undefined {
  const a = constInt(ctx, node, what);
  if (a === undefined) return undefined;
  const axis = a < 0 ? a + rank : a;
  if (axis < 0 || axis >= rank) {
    const axes = rank === 1 ? "only axis 0" : `axes 0..${rank - 1}`;
    ctx.log.error(Codes.badAxis, ctx.span(node), `axis ${a} doesn't exist: the block${block ? ` ${typeToString(block.type)}` : ""} has ${axes}`);
    return undefined;
  }
  return axis;
}

/**
 * A dtype argument: a dtype value (`tl.float32`, `x.dtype`, a const holding one: dtypes.ts) or
 * Kernel Lab's string ("f32"). One WGSL has no type for is KL2080, saying what to write instead.
 * `mask`: `tl.int1` is allowed too (a cast to it is a comparison with 0).
 */
/** `held`: `tl.int8` and `tl.uint8` (a loaded byte's `x.dtype`) as the i32 their values are held in (a reduction's `dtype=`). */
export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype, allow?: { held: true }): NumDtype | undefined;
export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype, allow: { mask: true }): Dtype | undefined;
/** `bytes`: `tl.int8` and `tl.uint8` too (a cast's: values held as i32, wrapped to 8 bits). */
export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype, allow: { mask: true; bytes: true }): Dtype | "i8" | "u8" | undefined;
/** `fp8`: `tl.float8e4nv` and `tl.float8e5` too (a cast's: an f32 holding the nearest fp8 value, ir/f8.ts). */
export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype, allow: { mask: true; bytes: true; fp8: true }): Dtype | "i8" | "u8" | F8Dtype | undefined;
export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype, allow?: { mask?: true; bytes?: true; held?: true; fp8?: true }): Dtype | "i8" | "u8" | F8Dtype | undefined {
  if (!node) return fallback;
  const expected = `a dtype such as tl.float32 or x.dtype, or one of "f32", "i32", "u32", "f16", "bf16", "i64"`;
  let type: TritonType | undefined;
  if (ts.isStringLiteralLike(node)) {
    if (DTYPE_NAMES.includes(node.text as NumDtype)) type = undefined;
    else if (Object.hasOwn(STRING_SPELLINGS, node.text)) type = { of: "scalar", name: STRING_SPELLINGS[node.text] };
    else {
      ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `the dtype must be ${expected}; got "${node.text}"`);
      return undefined;
    }
  } else {
    const lowered = ctx.lowered(node);
    if (!lowered) return undefined;
    if (!isAggregate(lowered) || lowered.kind !== "dtype") {
      ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `the dtype must be ${expected}; got ${isAggregate(lowered) ? describeAggregate(lowered) : typeToString(lowered.type)}`);
      return undefined;
    }
    type = lowered.type;
  }
  let dtype = (node as ts.StringLiteralLike).text as Dtype;
  if (type && allow?.bytes && type.of === "scalar" && (type.name === "int8" || type.name === "uint8")) return type.name === "int8" ? "i8" : "u8";
  if (type && allow?.held && type.of === "scalar" && (type.name === "int8" || type.name === "uint8")) return "i32";
  if (type && allow?.fp8 && type.of === "scalar" && (type.name === "float8e4nv" || type.name === "float8e5")) return type.name === "float8e4nv" ? "f8e4m3" : "f8e5m2";
  if (type) {
    const found = kernelDtype(type);
    if ("instead" in found) {
      ctx.log.error(Codes.dtypeMissing, ctx.span(node), `${typeText(type)} has no WGSL type: ${found.instead}`);
      return undefined;
    }
    dtype = found.dtype;
  }
  if (dtype === "bool" && !allow?.mask) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), "tl.int1 (a mask) isn't a dtype to fill a block with; make a mask with a comparison (o < n), or tl.zeros(shape, tl.int32) and compare it");
    return undefined;
  }
  if (dtype === "f16" && !ctx.target.shaderF16) {
    ctx.log.error(Codes.dtypeUnavailable, ctx.span(node), `f16 needs the adapter feature 'shader-f16', ${F16_MISSING}, or use "f32"`);
    return undefined;
  }
  return dtype;
}

/** Blocks have at most this many axes (docs/LANGUAGE.md §2.1). */
export const MAX_RANK = 3;

export function shapeArg(ctx: IntrinsicContext, node: ts.Expression): Shape | undefined {
  if (ts.isArrayLiteralExpression(node)) return extents(ctx, node.elements, ctx.span(node));
  // A tuple of constants held or read (`tl.full(x.shape, …)`, TransformerEngine's bitonic merge; a
  // `shape: tl.constexpr = [a, b]` local): its extents, as Triton takes any tuple of constexprs.
  const lowered = shapeTupleOf(ctx, node);
  if (lowered) return tupleShape(ctx, node, ctx.span(node));
  ctx.log.error(Codes.constantRequired, ctx.span(node), "a shape is an array literal of compile-time integers, e.g. [BLOCK_M, BLOCK_N]");
  return undefined;
}

/** Whether `node` is a name or property whose value is a tuple (lowered once more by tupleShape, which a name or `x.shape` allows). */
function shapeTupleOf(ctx: IntrinsicContext, node: ts.Expression): boolean {
  if (!ts.isIdentifier(node) && !ts.isPropertyAccessExpression(node)) return false;
  const lowered = ctx.lowered(node);
  return lowered !== undefined && isAggregate(lowered) && lowered.kind === "tuple";
}

/** A shape given as one array literal, or as its extents one argument each (Triton's `reshape(x, 32, 32)`). */
export function shapeArgs(ctx: IntrinsicContext, nodes: Args, span: Span): Shape | undefined {
  const first = nodes[0];
  if (nodes.length === 1 && first && ts.isArrayLiteralExpression(first)) return shapeArg(ctx, first);
  if (nodes.length === 1 && first) return tupleShape(ctx, first, span);
  if (nodes.some((n) => n === undefined)) return undefined;
  return extents(ctx, nodes as ts.Expression[], span);
}

/** One argument: a block's `.shape` (a tuple of constants: xformers' `tl.view(keep_mask, x.shape)`), or the one extent. */
function tupleShape(ctx: IntrinsicContext, node: ts.Expression, span: Span): Shape | undefined {
  const lowered = ctx.lowered(node);
  if (!lowered) return undefined;
  const parts = isAggregate(lowered) && lowered.kind === "tuple" ? lowered.elements : [lowered];
  const dims: number[] = [];
  for (const part of parts) {
    if (isAggregate(part) || !isConst(part) || !Number.isInteger(part.value)) {
      ctx.log.error(Codes.constantRequired, ctx.span(node), `a shape's extents must be compile-time integers (literals, constexprs or a block's .shape), got ${isAggregate(part) ? describeAggregate(part) : typeToString(part.type)}`);
      return undefined;
    }
    dims.push(part.value);
  }
  return checkedExtents(ctx, dims, dims.map(() => ctx.span(node)), span);
}

function extents(ctx: IntrinsicContext, elements: readonly ts.Expression[], span: Span): Shape | undefined {
  const dims: number[] = [];
  for (const element of elements) {
    const d = constInt(ctx, element, "a shape's extent");
    if (d === undefined) return undefined;
    dims.push(d);
  }
  return checkedExtents(ctx, dims, elements.map((e) => ctx.span(e)), span);
}

function checkedExtents(ctx: IntrinsicContext, dims: readonly number[], spans: readonly Span[], span: Span): Shape | undefined {
  for (const [i, d] of dims.entries()) {
    if (!isPowerOfTwo(d)) {
      ctx.log.error(Codes.notPowerOfTwo, spans[i]!, `block extents must be powers of two, got ${d}; round up to ${nextPowerOfTwo(d)} and mask the rest`);
      return undefined;
    }
  }
  if (dims.length > MAX_RANK) {
    ctx.log.error(Codes.intrinsicArgs, span, `blocks have at most ${MAX_RANK} axes; got ${dims.length}`);
    return undefined;
  }
  return checkBlockSize(ctx, dims, span);
}

export function checkBlockSize(ctx: IntrinsicContext, shape: Shape, span: Span): Shape | undefined {
  if (numel(shape) > MAX_BLOCK_ELEMENTS) {
    ctx.log.error(Codes.blockTooLarge, span, `a block of ${shapeToString(shape)} has ${numel(shape)} elements; the limit is ${MAX_BLOCK_ELEMENTS} — use a smaller block and more programs`);
    return undefined;
  }
  return shape;
}

export function nextPowerOfTwo(n: number): number {
  return n <= 1 ? 1 : 2 ** Math.ceil(Math.log2(n));
}

/** tl.programId / tl.numPrograms's axis: 0, 1 or 2 (the grid's), or undefined after a diagnostic. */
export function gridAxisArg(ctx: IntrinsicContext, node: ts.Expression | undefined, name: string): 0 | 1 | 2 | undefined {
  const axis = constInt(ctx, node, `tl.${name}'s axis`);
  if (axis === undefined) return undefined;
  if (axis < 0 || axis > 2) {
    ctx.log.error(Codes.badAxis, ctx.span(node!), `the grid has axes 0, 1 and 2; got ${axis}`);
    return undefined;
  }
  return axis as 0 | 1 | 2;
}

export function requireData(ctx: IntrinsicContext, v: Value, what: string, masksToo = false): boolean {
  if (v.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes values, not pointers; load them first with tl.load`);
    return false;
  }
  if (v.type.dtype === "bool" && !masksToo) {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes numbers, not masks; use tl.where(mask, 1, 0) or tl.cast(mask, "i32")`);
    return false;
  }
  return true;
}

// What every tl.* function's lowering uses: the context it lowers in, the Intrinsic entry type,
// and the checks of arguments shared by many (arity, compile-time integers, dtypes, shapes, axes).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { NumDtype, Shape, Value } from "../ir/ir";
import { numel, typeToString } from "../ir/ir";
import type { IrOpName } from "../ir/ops";
import type { Target } from "../ir/target";
import type { KernelSource } from "../syntax/parse";
import { IrBuilder } from "./builder";
import type { Binding } from "./context";
import { ValueFactory, isConst } from "./values";
import { isPowerOfTwo, shapeToString } from "./rules";

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
  expression(node: ts.Expression): Value | undefined;
  markWritten(param: string): void;
  /** Runs `fn` in a new innermost scope holding `bindings` (a combine function's parameters). */
  inScope(fn: () => void, bindings?: Map<string, Binding>): void;
}

export type Args = ts.NodeArray<ts.Expression>;
/** Checks a tl.* call's arguments and emits its IR: the value, "void" for tl.store, or undefined after an error. */
export type IntrinsicLowering = (ctx: IntrinsicContext, args: Args, span: Span, name: string) => Value | undefined | "void";

/** One tl.* function: its lowering, and the IR ops that lowering may produce (each must be in codegen's and the interpreter's tables). */
export interface Intrinsic {
  produces: readonly IrOpName[];
  lower: IntrinsicLowering;
}

/** The ops that implicit conversions add (constants, casts, splats and broadcasts; values.ts). */
export const COERCIONS: readonly IrOpName[] = ["const", "cast", "splat", "reshape", "broadcast"];

/** Largest block a kernel may create (elements); beyond it code size and registers explode. */
export const MAX_BLOCK_ELEMENTS = 1 << 16;

const DTYPE_NAMES: readonly NumDtype[] = ["f32", "i32", "u32", "f16"];

export function arity(ctx: IntrinsicContext, args: Args, span: Span, name: string, min: number, max: number, signature: string): boolean {
  if (args.length < min || args.length > max) {
    ctx.log.error(Codes.intrinsicArgs, span, `tl.${name} takes ${signature}; got ${args.length} argument${args.length === 1 ? "" : "s"}`);
    return false;
  }
  return true;
}

export function all(ctx: IntrinsicContext, args: readonly ts.Expression[]): Value[] | undefined {
  const values = args.map((a) => ctx.expression(a));
  return values.every((v) => v !== undefined) ? (values as Value[]) : undefined;
}

/** A compile-time integer argument (literal, constexpr or folded expression). */
export function constInt(ctx: IntrinsicContext, node: ts.Expression, what: string): number | undefined {
  const v = ctx.expression(node);
  if (!v) return undefined;
  if (!isConst(v) || !Number.isInteger(v.value)) {
    ctx.log.error(Codes.constantRequired, ctx.span(node), `${what} must be a compile-time integer (a literal or a constexpr parameter), got ${typeToString(v.type)}`);
    return undefined;
  }
  return v.value;
}

export function dtypeArg(ctx: IntrinsicContext, node: ts.Expression | undefined, fallback: NumDtype): NumDtype | undefined {
  if (!node) return fallback;
  if (!ts.isStringLiteralLike(node) || !DTYPE_NAMES.includes(node.text as NumDtype)) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `the dtype must be one of "f32", "i32", "u32", "f16" (a string literal)`);
    return undefined;
  }
  const dtype = node.text as NumDtype;
  if (dtype === "f16" && !ctx.target.shaderF16) {
    ctx.log.error(Codes.dtypeUnavailable, ctx.span(node), "f16 needs the adapter feature 'shader-f16', which this GPU doesn't have; use \"f32\"");
    return undefined;
  }
  return dtype;
}

export function shapeArg(ctx: IntrinsicContext, node: ts.Expression): Shape | undefined {
  if (!ts.isArrayLiteralExpression(node)) {
    ctx.log.error(Codes.constantRequired, ctx.span(node), "a shape is an array literal of compile-time integers, e.g. [BLOCK_M, BLOCK_N]");
    return undefined;
  }
  const dims: number[] = [];
  for (const element of node.elements) {
    const d = constInt(ctx, element, "a shape's extent");
    if (d === undefined) return undefined;
    if (!isPowerOfTwo(d)) {
      ctx.log.error(Codes.notPowerOfTwo, ctx.span(element), `block extents must be powers of two, got ${d}; round up to ${nextPowerOfTwo(d)} and mask the rest`);
      return undefined;
    }
    dims.push(d);
  }
  if (dims.length > 2) {
    ctx.log.error(Codes.intrinsicArgs, ctx.span(node), `blocks have one or two axes; got ${dims.length}`);
    return undefined;
  }
  return checkBlockSize(ctx, dims, ctx.span(node));
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

export function axisArg(ctx: IntrinsicContext, node: ts.Expression, name: string): 0 | 1 | 2 | undefined {
  const axis = constInt(ctx, node, `tl.${name}'s axis`);
  if (axis === undefined) return undefined;
  if (axis < 0 || axis > 2) {
    ctx.log.error(Codes.badAxis, ctx.span(node), `the grid has axes 0, 1 and 2; got ${axis}`);
    return undefined;
  }
  return axis as 0 | 1 | 2;
}

export function requireData(ctx: IntrinsicContext, v: Value, what: string): boolean {
  if (v.type.kind === "pointer") {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes values, not pointers; load them first with tl.load`);
    return false;
  }
  if (v.type.dtype === "bool") {
    ctx.log.error(Codes.operandDtype, v.span, `${what} takes numbers, not masks; use tl.where(mask, 1, 0) or tl.cast(mask, "i32")`);
    return false;
  }
  return true;
}

// Lowers one kernel's TypeScript body to checked IR, for one set of constexpr values.
// Statements and expressions are lowered by tables keyed by syntax kind (statements.ts,
// expressions.ts), tl.* calls by the intrinsics table (intrinsics.ts). Every error is reported
// at the node being lowered, and a node that failed yields `undefined` so its users don't report
// the same mistake again.

import ts from "typescript";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import { viewOffsetScalar, type KernelIR, type NumDtype, type Param, type PointerView, type Value, type ValueType } from "../ir/ir";
import { F16_MISSING, type Target } from "../ir/target";
import type { KernelSource } from "../syntax/parse";
import { data } from "./builder";
import { DIVISIBILITY, LoweringContext, type Specialization } from "./context";
import { checkLoopBarriers } from "./loop-barriers";
import { lowerExpressionStatement, lowerStatements } from "./statements";
import { promoteReassignedParameters } from "./device-functions";
import { needsReturnFlag } from "./returns";
import type { TypesSeen } from "./types-seen";

export type { Specialization } from "./context";

export interface LowerResult {
  ir?: KernelIR;
  diagnostics: Diagnostic[];
  /** What the checker typed, even when there are errors (the editor's hints). */
  seen?: TypesSeen;
}

export function lowerKernel(kernel: KernelSource, constexprs: Readonly<Record<string, number>>, target: Target, specialization: Specialization = {}): LowerResult {
  const ctx = new LoweringContext(kernel, target, specialization);
  if (kernel.deviceOnly) return { diagnostics: notLaunchable(kernel) };
  try {
    return lower(ctx, constexprs);
  } catch (error) {
    ctx.log.error(Codes.internal, ctx.span(ctx.current), `internal compiler error while compiling this: ${(error as Error).message}. This is a bug in Kernel Lab; please report it with this kernel.`);
    return { diagnostics: ctx.log.diagnostics, seen: ctx.seen };
  }
}

function lower(ctx: LoweringContext, constexprs: Readonly<Record<string, number>>): LowerResult {
  const kernel = ctx.kernel;
  const used: Record<string, number> = {};
  ctx.inScope(() => {
    for (const p of kernel.params) bindParam(ctx, p, constexprs, used);
    promoteReassignedParameters(ctx, kernel);
    const body = kernel.fn.body;
    if (ts.isBlock(body)) {
      if (needsReturnFlag(body.statements)) {
        // Early returns the statement lists can't place are remembered in a flag (returns.ts).
        const variable = ctx.b.variable("returned", data("bool", []), kernel.span);
        ctx.b.push({ kind: "declare", span: kernel.span, variable, init: ctx.b.constant(0, "bool", kernel.span) });
        ctx.returnFlag = variable;
      }
      lowerStatements(ctx, body.statements, true);
    } else {
      lowerExpressionStatement(ctx, body);
    }
  });
  if (!ctx.log.hasErrors) checkLoopBarriers(ctx.b.statements, ctx.log);
  if (ctx.log.hasErrors) return { diagnostics: ctx.log.diagnostics, seen: ctx.seen };
  return {
    ir: {
      name: kernel.name,
      span: kernel.span,
      params: ctx.specialization.views ? withStorages(kernel.params, ctx.specialization.views) : kernel.params,
      constexprs: used,
      body: ctx.b.statements,
      writtenParams: ctx.written,
      valueNames: ctx.valueNames,
      ...(ctx.specialization.views ? { views: ctx.specialization.views } : {}),
    },
    diagnostics: ctx.log.diagnostics,
    seen: ctx.seen,
  };
}

/** The largest finite f32 (torch.finfo(torch.float32).max). */
const F32_MAX = 3.4028234663852886e38;

/** Binds a parameter's name: a constexpr's value, a pointer, or a scalar read from the uniforms. */
function bindParam(ctx: LoweringContext, p: Param, constexprs: Readonly<Record<string, number>>, used: Record<string, number>): void {
  const at = p.span;
  const bindValue = (value: Value) => ctx.bind(p.name, { kind: "value", value, declaredAt: at, what: "parameter" });
  if (p.kind === "constexpr") {
    const value = constexprs[p.name];
    // Without a usable value the name stays quiet in the body: one mistake, one diagnostic.
    const unknown = () => ctx.bind(p.name, { kind: "unknown", declaredAt: at, what: "parameter" });
    if (value === undefined) {
      ctx.log.error(Codes.constexprMissing, at, `constexpr '${p.name}' has no value; give it one in the run's constexprs, e.g. constexprs: { ${p.name}: 1024 }`);
      return unknown();
    }
    if (!Number.isFinite(value) || Math.abs(value) > F32_MAX) {
      ctx.log.error(Codes.constexprMissing, at, `constexpr '${p.name}' is ${value}; a constexpr is an integer in the i32 range or a finite float`);
      return unknown();
    }
    used[p.name] = value;
    // As Triton's constexprs may be floats (Liger's JSD takes `beta: tl.constexpr` = 0.5): an
    // integer in the i32 range is an i32 constant, any other number an f32 one. A whole number past
    // the i32 range is a float here (aiter's topk: `FILL_VALUE=torch.finfo(torch.float32).min`): a
    // Python int that large stops at the launch (triton/_jit.py), since Kernel Lab's ints are 32-bit.
    const isI32 = Number.isInteger(value) && Math.abs(value) <= 2 ** 31 - 1;
    bindValue(isI32 ? ctx.b.constant(value, "i32", at) : ctx.b.constant(Math.fround(value), "f32", at));
  } else if (p.kind === "pointer") {
    if (p.dtype === "f16" && !ctx.target.shaderF16) {
      ctx.log.error(Codes.dtypeUnavailable, at, `Ptr<f16> needs the adapter feature 'shader-f16', ${F16_MISSING}, or use Ptr<f32>`);
    }
    const view = ctx.specialization.views?.[p.name];
    if (view) {
      // A view of a storage other pointer arguments share: its binding, from the view's first element on.
      const type: ValueType = { kind: "pointer", pointee: p.dtype, param: view.storage, shape: [], view: p.name };
      const start = ctx.b.emit({ op: "param", name: view.storage }, type, at);
      if (view.offset === 0) return bindValue(start);
      const offset = ctx.b.emit({ op: "param", name: viewOffsetScalar(p.name), ...(view.offset === "scalar16" ? { divisor: DIVISIBILITY } : {}) }, data("i32", []), at);
      return bindValue(ctx.b.emit({ op: "ptrAdd", ptr: start, offset }, type, at));
    }
    const type: ValueType = { kind: "pointer", pointee: p.dtype, param: p.name, shape: [] };
    bindValue(ctx.b.emit({ op: "param", name: p.name }, type, at));
  } else if ((p.dtype === "i32" || p.dtype === "u32") && ctx.specialization.ones?.includes(p.name)) {
    bindValue(ctx.b.constant(1, p.dtype, at));
  } else {
    const divisor = (p.dtype === "i32" || p.dtype === "u32") && ctx.specialization.divisible?.includes(p.name) ? DIVISIBILITY : undefined;
    bindValue(ctx.b.emit({ op: "param", name: p.name, ...(divisor ? { divisor } : {}) }, data(p.dtype as NumDtype, []), at));
  }
}

/**
 * The parameters with the views of each shared storage replaced by one pointer parameter, the
 * storage's binding, where the first of them was; the views' offsets that aren't 0 are i32 scalars after them.
 */
function withStorages(params: readonly Param[], views: Readonly<Record<string, PointerView>>): Param[] {
  const result: Param[] = [];
  const offsets: Param[] = [];
  for (const p of params) {
    const view = p.kind === "pointer" ? views[p.name] : undefined;
    if (!view) result.push(p);
    else if (!result.some((q) => q.name === view.storage)) result.push({ ...p, name: view.storage });
    if (view && view.offset !== 0) offsets.push({ name: viewOffsetScalar(p.name), kind: "scalar", dtype: "i32", span: p.span });
  }
  return [...result, ...offsets];
}

/** A device function with generic parameters is only ever inlined; launching it needs their types. */
function notLaunchable(kernel: KernelSource): Diagnostic[] {
  return kernel.signature
    .filter((p) => !p.type)
    .map((p) => ({
      code: Codes.paramAnnotation,
      severity: "error" as const,
      span: p.span,
      message: `parameter '${p.name}' has no kernel type, so ${kernel.name} can only be called from another kernel; to launch it, annotate it: Ptr<f32>, Ptr<i32>, Ptr<u32>, Ptr<f16>, Ptr<bf16>, Ptr<i64>, Ptr<bool>, Ptr<i8>, Ptr<u8>, f32, f16, bf16, i32, u32, i64 or constexpr`,
    }));
}

// `c ? a : b` with a scalar condition: only the chosen branch runs (it may load), so it becomes an
// `if` that assigns a variable of the branches' promoted type. A constant condition picks its
// branch at compile time. A block condition is tl.where's job.

import type ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Stmt, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { data } from "./builder";
import type { LoweringContext } from "./context";
import { promote } from "./rules";
import { isConst, operandOf } from "./values";
import { at, describeAggregate, isAggregate, type Lowered } from "./aggregates";

export function conditionalExpression(ctx: LoweringContext, node: ts.ConditionalExpression, span: Span): Lowered | undefined {
  const cond = ctx.expression(node.condition);
  if (!cond) return undefined;
  if (cond.type.kind === "pointer" || cond.type.shape.length > 0) {
    const what = cond.type.kind === "pointer" ? "a pointer" : `a block ${typeToString(cond.type)}`;
    ctx.log.error(Codes.blockCondition, cond.span, `c ? a : b needs a scalar condition, but this is ${what}; for blocks use tl.where(cond, a, b)`);
    return undefined;
  }
  const test = ctx.values.nonzero(cond, cond.span);
  if (!test) return undefined;
  if (isConst(test)) {
    // A constexpr condition picks its branch at compile time, a tuple too (Triton's `lo, hi = (a, b) if STAGE == 1 else (c, d)`).
    // The other branch isn't compiled, as in Triton: it may read a name only the chosen case assigns
    // (mamba's `x_hat = (x - mean) * rstd if not IS_RMS_NORM else x * rstd`, `mean` unassigned for RMS).
    const chosen = ctx.lowered(test.value !== 0 ? node.whenTrue : node.whenFalse);
    return chosen && at(chosen, span);
  }
  let la: Lowered | undefined;
  let lb: Lowered | undefined;
  const then = ctx.b.collect(() => (la = ctx.lowered(node.whenTrue)));
  const otherwise = ctx.b.collect(() => (lb = ctx.lowered(node.whenFalse)));
  if (!la || !lb) return undefined;
  const aggregate = [la, lb].find(isAggregate);
  if (aggregate) {
    ctx.log.error(Codes.blockCondition, cond.span, `c ? a : b chooses ${describeAggregate(aggregate)} only when c is a compile-time constant (a constexpr); at run time choose each value: [c ? a0 : b0, c ? a1 : b1]`);
    return undefined;
  }
  const [a, b] = [la, lb] as Value[];
  if (a.type.kind === "pointer" || b.type.kind === "pointer") return pointerChoice(ctx, test, [then, a], [otherwise, b], span);
  const bothBool = dtypeIs(a, "bool") && dtypeIs(b, "bool");
  if (!bothBool && (dtypeIs(a, "bool") || dtypeIs(b, "bool"))) {
    ctx.log.error(Codes.operandDtype, span, `the branches of c ? a : b must both be masks or both numbers, got ${typeToString(a.type)} and ${typeToString(b.type)}`);
    return undefined;
  }
  const dtype = bothBool ? "bool" : promote(operandOf(a), operandOf(b));
  const shape = ctx.values.commonShape(a, b, span, "the branches of c ? a : b");
  if (!shape) return undefined;
  const result = ctx.b.variable("choice", data(dtype, shape), span);
  const init = ctx.values.coerce(ctx.b.constant(0, dtype, span), dtype, shape, span);
  const branch = (stmts: Stmt[], v: Value): Stmt[] | undefined => {
    let coerced: Value | undefined;
    const tail = ctx.b.collect(() => (coerced = ctx.values.coerce(v, dtype, shape, v.span)));
    return coerced && [...stmts, ...tail, { kind: "assign", span, variable: result, value: coerced }];
  };
  const thenBody = branch(then, a);
  const elseBody = branch(otherwise, b);
  if (!init || !thenBody || !elseBody) return undefined;
  ctx.b.push({ kind: "declare", span, variable: result, init });
  ctx.b.push({ kind: "if", span, cond: test, then: thenBody, else: elseBody });
  return ctx.b.emit({ op: "readVar", variable: result }, result.type, span);
}

/**
 * `c ? p + i : p + j` with pointers into one parameter's buffer (flash-linear-attention's TTT kernels:
 * `p_eta_last = eta + … if i_t == NT-1 else eta + …`): a pointer variable assigned in each branch, as an `if`
 * that rebinds a pointer makes one. Pointers into two parameters can't be chosen at run time: each is its
 * own binding, fixed while compiling.
 */
function pointerChoice(ctx: LoweringContext, test: Value, [then, a]: [Stmt[], Value], [otherwise, b]: [Stmt[], Value], span: Span): Value | undefined {
  if (a.type.kind !== "pointer" || b.type.kind !== "pointer") {
    const number = a.type.kind === "pointer" ? b : a;
    ctx.log.error(Codes.operandDtype, number.span, `the branches of c ? a : b are a pointer and ${typeToString(number.type)}; both must be pointers, or both values`);
    return undefined;
  }
  if (a.type.param !== b.type.param || a.type.view !== b.type.view || a.type.pointee !== b.type.pointee) {
    ctx.log.error(Codes.operandDtype, b.span, `the branches of c ? a : b point into ${a.type.view ?? a.type.param} and ${b.type.view ?? b.type.param}: a pointer points into one parameter's buffer, fixed while compiling; choose between loads instead (tl.load(p) if c else tl.load(q))`);
    return undefined;
  }
  const shape = ctx.values.commonShape(a, b, span, "the branches of c ? a : b");
  if (!shape) return undefined;
  const type = { ...a.type, shape };
  const result = ctx.b.variable("choice", type, span);
  let init: Value | undefined;
  const start = ctx.b.collect(() => (init = ctx.values.toShape(ctx.b.emit({ op: "param", name: type.param }, { ...type, shape: [] }, span), shape, span)));
  const branch = (stmts: Stmt[], v: Value): Stmt[] | undefined => {
    let shaped: Value | undefined;
    const tail = ctx.b.collect(() => (shaped = ctx.values.toShape(v, shape, v.span)));
    return shaped && [...stmts, ...tail, { kind: "assign", span, variable: result, value: shaped }];
  };
  const thenBody = branch(then, a);
  const elseBody = branch(otherwise, b);
  if (!init || !thenBody || !elseBody) return undefined;
  for (const s of start) ctx.b.push(s);
  ctx.b.push({ kind: "declare", span, variable: result, init });
  ctx.b.push({ kind: "if", span, cond: test, then: thenBody, else: elseBody });
  return ctx.b.emit({ op: "readVar", variable: result }, result.type, span);
}

function dtypeIs(v: Value, dtype: string): boolean {
  return v.type.kind === "data" && v.type.dtype === dtype;
}

// `c ? a : b` with a scalar condition: only the chosen branch runs (it may load), so it becomes an
// `if` that assigns a variable of the branches' promoted type. A constant condition picks its
// branch at compile time. A block condition is tl.where's job.

import type ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Stmt, Value, ValueType, Variable } from "../ir/ir";
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
  return choose(ctx, test, [then, a], [otherwise, b], data(dtype, shape), span);
}

/** The `if` that assigns each branch's value to a variable of `type` (joinedVariable), and the read of it after. */
function choose(ctx: LoweringContext, test: Value, [then, a]: [Stmt[], Value], [otherwise, b]: [Stmt[], Value], type: ValueType, span: Span): Value | undefined {
  const joined = joinedVariable(ctx, "choice", type, a, b, span);
  if (!joined) return undefined;
  ctx.b.push({ kind: "if", span, cond: test, then: [...then, ...joined.assignA], else: [...otherwise, ...joined.assignB] });
  return ctx.b.emit({ op: "readVar", variable: joined.variable }, type, span);
}

/**
 * A variable of `type` that holds `a` on one path and `b` on the other (a run-time `c ? a : b`, a device function's
 * returns on either side of a run-time if): declared here, with the statements that end each path by assigning its
 * value, converted to `type` (a number's dtype and shape; a pointer into one parameter, broadcast to the shape).
 */
export function joinedVariable(ctx: LoweringContext, name: string, type: ValueType, a: Value, b: Value, span: Span): { variable: Variable; assignA: Stmt[]; assignB: Stmt[] } | undefined {
  const variable = ctx.b.variable(name, type, span);
  const convert = (v: Value, at: Span) => (type.kind === "pointer" ? ctx.values.toShape(v, type.shape, at) : ctx.values.coerce(v, type.dtype, type.shape, at));
  // Its value before either path assigns it, which no path reads: a zero, or the parameter's start.
  const init = convert(type.kind === "pointer" ? ctx.b.emit({ op: "param", name: type.param }, { ...type, shape: [] }, span) : ctx.b.constant(0, type.dtype, span), span);
  const assign = (v: Value): Stmt[] | undefined => {
    let converted: Value | undefined;
    const tail = ctx.b.collect(() => (converted = convert(v, v.span)));
    return converted && [...tail, { kind: "assign", span, variable, value: converted }];
  };
  const assignA = assign(a);
  const assignB = assign(b);
  if (!init || !assignA || !assignB) return undefined;
  ctx.b.push({ kind: "declare", span, variable, init });
  return { variable, assignA, assignB };
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
  return choose(ctx, test, [then, a], [otherwise, b], { ...a.type, shape }, span);
}

function dtypeIs(v: Value, dtype: string): boolean {
  return v.type.kind === "data" && v.type.dtype === dtype;
}

// Which `let x;` names have a value where they are read (Triton's rule for names first assigned
// inside an `if`: after it, a name is defined only if every branch assigned it, with one type).
//
// A `let x;` first assigned inside a run-time if or loop becomes a variable declared just before
// the outermost such statement (initialised with a zero no path reads), as `let x = init;` followed
// by `if (c) { x = a } else { x = b }` is. `ctx.assigned` holds the names assigned on every path
// to the statement being lowered: each branch starts from the set before the if, and after it the
// set is what the branches that go on (those that don't return) have in common. A loop may run no
// trips, so after it the set is the one before it.

import type ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Stmt, Value, ValueType, Variable } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { LoweringContext, Skipped, Unassigned } from "./context";

/** Lowers a run-time if's branches (`ends`: whether each always returns); after it, `ctx.assigned` is what the branches that go on share. */
export function runtimeIf(ctx: LoweringContext, node: ts.IfStatement, lowerThen: () => Stmt[], lowerElse: () => Stmt[], ends: readonly [boolean, boolean]): [Stmt[], Stmt[]] {
  const before = ctx.assigned;
  ctx.assigned = new Set(before);
  const then = lowerThen();
  const afterThen = ctx.assigned;
  ctx.assigned = new Set(before);
  const otherwise = lowerElse();
  const afterElse = ctx.assigned;
  const goOn = [ends[0] ? undefined : afterThen, ends[1] ? undefined : afterElse];
  const [a, b] = goOn;
  if (!a || !b) {
    // A branch that returns never reaches what follows; when both do, nothing follows.
    ctx.assigned = a ?? b ?? new Set([...afterThen, ...afterElse]);
    return [then, otherwise];
  }
  ctx.assigned = new Set([...a].filter((u) => b.has(u)));
  for (const u of a) if (!b.has(u)) skipped(ctx, u, node, "else");
  for (const u of b) if (!a.has(u)) skipped(ctx, u, node, "then");
  return [then, otherwise];
}

/** Records why `u` may have no value after `node`: its `lacking` branch doesn't assign it. */
function skipped(ctx: LoweringContext, u: Unassigned, node: ts.IfStatement, lacking: "then" | "else"): void {
  const branch = lacking === "then" ? node.thenStatement : node.elseStatement;
  if (branch && u.skipped && within(u.skipped.span, ctx.span(branch))) return; // an else-if inside says it more precisely
  const assigning = lacking === "then" ? "else" : "then";
  const fix = "assign it in every branch of the if";
  u.skipped = branch
    ? { span: ctx.span(branch), why: `the run-time if before it assigns it in its ${assigning} branch but not in its ${lacking} branch`, fix, related: `this ${lacking} branch doesn't assign '${u.name}'` }
    : { span: ctx.span(node.expression), why: "the run-time if before it assigns it but has no else branch", fix: `${fix} (add an else)`, related: `where this is false, '${u.name}' isn't assigned (the if has no else)` };
}

/** A loop's body: the names it assigns may still have no value after it, where it ran no trips. */
export function loopBody<T>(ctx: LoweringContext, span: Span, fn: () => T): T {
  const before = ctx.assigned;
  ctx.assigned = new Set(before);
  try {
    return fn();
  } finally {
    for (const u of ctx.assigned) {
      if (!before.has(u)) u.skipped = { span, why: "it is assigned inside a loop before it, which may run no trips", fix: "assign it before the loop as well", related: `'${u.name}' is assigned inside this loop` };
    }
    ctx.assigned = before;
  }
}

function within(inner: Span, outer: Span): boolean {
  return inner.start >= outer.start && inner.end <= outer.end;
}

/** The variable of a `let x;` first assigned inside a run-time if or loop, declared before the outermost one with a zero of `type`. */
export function declareBefore(ctx: LoweringContext, u: Unassigned, type: ValueType): Variable {
  const at = u.declaredAt;
  const variable = ctx.b.variable(u.name, type, at);
  let init: Value | undefined;
  const code = ctx.b.collect(() => {
    init = zeroOf(ctx, type, at);
  });
  ctx.runtimeLists[u.depth].push(...code, { kind: "declare", span: at, variable, init: init! });
  ctx.seen.bound(u.name, { kind: "variable", variable, counter: false });
  return variable;
}

/** A value of `type` that no path reads (a zero, or a pointer parameter's start). */
function zeroOf(ctx: LoweringContext, type: ValueType, span: Span): Value {
  const scalar =
    type.kind === "data"
      ? ctx.b.constant(0, type.dtype, span)
      : ctx.b.emit({ op: "param", name: type.param }, { ...type, shape: [] }, span);
  return ctx.values.toShape(scalar, type.shape, span)!;
}

/** A read of a `let x;`: its variable where every path to here assigned it, else KL1022 saying which path didn't. */
export function readUnassigned(ctx: LoweringContext, u: Unassigned, span: Span): Value | undefined {
  if (u.first && ctx.assigned.has(u)) return ctx.values.readVariable(u.first.variable, span);
  const declared = { span: u.declaredAt, message: "declared here" };
  if (!u.first || !u.skipped) {
    const where = u.first ? "on this path" : "";
    ctx.log.error(Codes.unassignedLet, span, `'${u.name}' has no value here: it is declared without one and not yet assigned${where ? ` ${where}` : ""}; assign it first (in straight-line code, in every branch of an if, or in every constexpr branch), or give it an initial value where it is declared`, [declared]);
    return undefined;
  }
  const s: Skipped = u.skipped;
  ctx.log.error(
    Codes.unassignedLet,
    span,
    `'${u.name}' may have no value here: ${s.why}; ${s.fix}, or give it an initial value where it is declared, e.g. let ${u.name} = ${initialValue(u.first.variable.type)}`,
    [{ span: s.span, message: s.related }, { span: u.first.span, message: `first assigned here, as ${typeToString(u.first.variable.type)}` }, declared],
  );
  return undefined;
}

/** What to write as the initial value of a variable of `type`. */
function initialValue(type: ValueType): string {
  if (type.kind === "pointer") return type.param;
  if (type.shape.length > 0) return `tl.zeros([${type.shape.join(", ")}], "${type.dtype}")`;
  if (type.dtype === "f32") return "0.0";
  if (type.dtype === "i32") return "0";
  return `tl.cast(0, "${type.dtype}")`;
}

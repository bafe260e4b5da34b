// Which scalar values steer control flow (an `if` condition or a loop bound). WGSL only allows a
// barrier under control flow that every invocation of the workgroup takes alike, and its
// uniformity analysis doesn't know that a reduction's result is the same everywhere — so such
// results are handed out with workgroupUniformLoad (reductions.ts), which it accepts.

import type { Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { bodiesOf, forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";

export function valuesSteeringControl(body: readonly Stmt[]): ReadonlySet<number> {
  const roots: Value[] = [];
  forEachStmt(body, (s) => {
    // The values a branch or a loop's trip count depends on (valuesOfStmt: cond; start, end, step).
    if (s.kind === "if" || s.kind === "for" || s.kind === "while") roots.push(...valuesOfStmt(s));
  });
  return dependencies(body, roots);
}

/**
 * The values that steer a barrier (a reduction or tl.dot): an `if` holding one, a loop holding one
 * (its bounds, its condition, and every branch inside it, as a break's). A scalar load among them is
 * read once and handed out with workgroupUniformLoad (memory.ts), as Triton's scalar is one value a
 * program: unsloth's grouped GEMM walks its experts' `m_size = tl.load(m_sizes_ptr + e)` in a
 * while loop around tl.dot.
 */
export function valuesSteeringBarriers(body: readonly Stmt[]): ReadonlySet<number> {
  const roots: Value[] = [];
  const holdsBarrier = (s: Stmt) => {
    let found = false;
    forEachValue([s], (v) => { if (v.op === "dot" || v.op === "reduce") found = true; });
    return found;
  };
  forEachStmt(body, (s) => {
    if (!(s.kind === "if" || s.kind === "for" || s.kind === "while") || !holdsBarrier(s)) return;
    roots.push(...valuesOfStmt(s));
    if (s.kind !== "if") for (const b of bodiesOf(s)) forEachStmt(b, (t) => { if (t.kind === "if" || t.kind === "for" || t.kind === "while") roots.push(...valuesOfStmt(t)); });
  });
  return dependencies(body, roots);
}

/** The roots and every value they depend on, through operands and the values assigned to the variables they read. */
function dependencies(body: readonly Stmt[], roots: readonly Value[]): ReadonlySet<number> {
  const assigned = new Map<number, Value[]>();
  forEachStmt(body, (s) => {
    if (s.kind === "declare" || s.kind === "assign") {
      const values = assigned.get(s.variable.id) ?? [];
      values.push(s.kind === "declare" ? s.init : s.value);
      assigned.set(s.variable.id, values);
    }
  });
  const steering = new Set<number>();
  const seenVariables = new Set<number>();
  const mark = (v: Value) => {
    if (steering.has(v.id)) return;
    steering.add(v.id);
    operandsOf(v).forEach(mark);
    if (v.op === "readVar" && !seenVariables.has(v.variable.id)) {
      seenVariables.add(v.variable.id);
      (assigned.get(v.variable.id) ?? []).forEach(mark);
    }
  };
  roots.forEach(mark);
  return steering;
}

/**
 * Whether WGSL's uniformity analysis takes `v` as the same in every invocation (a conservative
 * yes): literals, parameters, program ids, and the values handed out with workgroupUniformLoad
 * (a reduction's or a scalar atomic's that steers control, a scalar load of an atomic buffer: memory.ts),
 * as `handedOut` says, and scalars computed from them only. A variable is taken as non-uniform: a
 * barrier is then left out under it (atomics.ts).
 */
export function uniformInWgsl(v: Value, handedOut: (v: Value) => boolean): boolean {
  switch (v.op) {
    case "const":
    case "param":
    case "programId":
    case "numPrograms":
      return true;
    case "reduce":
    case "atomic":
    case "load":
      return handedOut(v);
    case "readVar":
      return false;
    default:
      // A block's elements differ between invocations (an arange has no operands yet varies by lid).
      return v.type.shape.length === 0 && operandsOf(v).every((o) => uniformInWgsl(o, handedOut));
  }
}

/**
 * Whether a scalar is the same in every invocation as WGSL's uniformity analysis sees it, variables
 * included (uniformInWgsl takes every variable as not): a variable whose every value is, as
 * attention's `hi` (N_CTX, or a minimum of program ids); no reduction's, atomic's or load's value.
 * A loop's counter starting and stepping so is too (codegen/whole-trips.ts tests it).
 */
export function uniformWithVariables(body: readonly Stmt[]): (v: Value) => boolean {
  const values = new Map<number, Value[]>();
  forEachStmt(body, (s) => {
    if (s.kind === "declare" || s.kind === "assign") values.set(s.variable.id, [...(values.get(s.variable.id) ?? []), s.kind === "declare" ? s.init : s.value]);
  });
  const assumed = new Set<number>();
  const steady = (v: Value): boolean => {
    if (v.type.shape.length > 0) return false;
    if (v.op !== "readVar") return uniformInWgsl(v, () => false) || (!["reduce", "atomic", "load"].includes(v.op) && operandsOf(v).length > 0 && operandsOf(v).every(steady));
    // A variable read while its own values are checked is taken as steady (a loop-carried `x = x + step`).
    if (assumed.has(v.variable.id)) return true;
    assumed.add(v.variable.id);
    const ok = (values.get(v.variable.id) ?? []).every(steady);
    assumed.delete(v.variable.id);
    return ok;
  };
  return steady;
}

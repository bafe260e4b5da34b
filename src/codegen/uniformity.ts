// Which scalar values steer control flow (an `if` condition or a loop bound). WGSL only allows a
// barrier under control flow that every invocation of the workgroup takes alike, and its
// uniformity analysis doesn't know that a reduction's result is the same everywhere — so such
// results are handed out with workgroupUniformLoad (collective.ts), which it accepts.

import type { Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";

export function valuesSteeringControl(body: readonly Stmt[]): ReadonlySet<number> {
  const assigned = new Map<number, Value[]>();
  const roots: Value[] = [];
  const walk = (list: readonly Stmt[]) => {
    for (const s of list) {
      if (s.kind === "declare" || s.kind === "assign") {
        const values = assigned.get(s.variable.id) ?? [];
        values.push(s.kind === "declare" ? s.init : s.value);
        assigned.set(s.variable.id, values);
      } else if (s.kind === "if") {
        roots.push(s.cond);
        walk(s.then);
        walk(s.else);
      } else if (s.kind === "for") {
        roots.push(s.start, s.end, s.step);
        walk(s.body);
      }
    }
  };
  walk(body);
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

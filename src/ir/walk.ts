// Traversal of a kernel's statements and of the values they read: the one place that knows
// which fields of each statement hold values or nested bodies (ir.ts's operandsOf does the same
// for values). Analyses elsewhere visit through these instead of switching over every kind.

import { mapOperands, operandsOf, type Stmt, type Value } from "./ir";
import { assertNever } from "./never";

/** The values `s` reads itself, not those of the statements nested in it. */
export function valuesOfStmt(s: Stmt): Value[] {
  switch (s.kind) {
    case "let":
      return [s.value];
    case "store":
      return s.mask ? [s.ptr, s.value, s.mask] : [s.ptr, s.value];
    case "declare":
      return [s.init];
    case "assign":
      return [s.value];
    case "for":
      return [s.start, s.end, s.step];
    case "if":
      return [s.cond];
    case "while":
      return [s.cond];
    case "break":
    case "continue":
    case "barrier":
      return [];
    case "print":
      return s.values;
    case "assert":
      return [s.cond];
    default:
      return assertNever(s, "statement");
  }
}

/** The statement lists nested in `s` (a loop's body, an if's two branches). */
export function bodiesOf(s: Stmt): readonly Stmt[][] {
  switch (s.kind) {
    case "for":
      return [s.body];
    case "if":
      return [s.then, s.else];
    case "while":
      return [s.head, s.body];
    case "break":
    case "continue":
    case "barrier":
    case "let":
    case "store":
    case "declare":
    case "assign":
    case "print":
    case "assert":
      return [];
    default:
      return assertNever(s, "statement");
  }
}

/** Calls `visit` on every statement of `body`, each before the statements nested in it. */
export function forEachStmt(body: readonly Stmt[], visit: (s: Stmt) => void): void {
  for (const s of body) {
    visit(s);
    for (const nested of bodiesOf(s)) forEachStmt(nested, visit);
  }
}

/** Calls `visit` once on every value reachable from `body`'s statements, a value before its operands. */
export function forEachValue(body: readonly Stmt[], visit: (v: Value) => void): void {
  const seen = new Set<number>();
  const walk = (v: Value): void => {
    if (seen.has(v.id)) return;
    seen.add(v.id);
    visit(v);
    for (const operand of operandsOf(v)) walk(operand);
  };
  forEachStmt(body, (s) => valuesOfStmt(s).forEach(walk));
}

/** `s` with each value it reads replaced by `value(v)` and each nested body by `body(list)`. */
export function mapStmt(s: Stmt, value: (v: Value) => Value, body: (list: Stmt[]) => Stmt[]): Stmt {
  switch (s.kind) {
    case "let":
      return { ...s, value: value(s.value) };
    case "store":
      return { ...s, ptr: value(s.ptr), value: value(s.value), ...(s.mask ? { mask: value(s.mask) } : {}) };
    case "declare":
      return { ...s, init: value(s.init) };
    case "assign":
      return { ...s, value: value(s.value) };
    case "for":
      return { ...s, start: value(s.start), end: value(s.end), step: value(s.step), body: body(s.body) };
    case "if":
      return { ...s, cond: value(s.cond), then: body(s.then), else: body(s.else) };
    case "while": {
      const head = body(s.head);
      return { ...s, head, cond: value(s.cond), body: body(s.body) };
    }
    case "break":
    case "continue":
    case "barrier":
      return s;
    case "print":
      return { ...s, values: s.values.map((v) => value(v)) };
    case "assert":
      return { ...s, cond: value(s.cond) };
    default:
      return assertNever(s, "statement");
  }
}

/** `stmts` with the `replaced` values (by id) swapped in, and every value that reads one rebuilt (ids kept). */
export function substituteValues(stmts: Stmt[], replaced: ReadonlyMap<number, Value>): Stmt[] {
  const memo = new Map<number, Value>(replaced);
  const rebuild = (v: Value): Value => {
    let result = memo.get(v.id);
    if (!result) memo.set(v.id, (result = operandsOf(v).length === 0 ? v : mapOperands(v, rebuild)));
    return result;
  };
  const statements = (list: Stmt[]): Stmt[] => list.map((s) => mapStmt(s, rebuild, statements));
  return statements(stmts);
}

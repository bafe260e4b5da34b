// Names for what a back end must implement: each value op, each statement kind, and each
// function of the ops that carry one (`math:exp`, `reduce:sum`…). The intrinsics declare the names
// their lowering produces; codegen and the interpreter list the names their tables implement, and
// test/unit/intrinsics-complete.test.ts checks that every produced name is implemented by both.

import type { AtomicFn, BinaryFn, MathFn, ReduceFn, Stmt, UnaryFn, Value } from "./ir";

export type IrOpName =
  | Value["op"]
  | `stmt:${Stmt["kind"]}`
  | `unary:${UnaryFn}`
  | `binary:${BinaryFn}`
  | `math:${MathFn}`
  | `reduce:${ReduceFn}`
  | `atomic:${AtomicFn}`;

/** The tables of one back end, each keyed by every member of its union (so a missing one is a type error). */
export interface BackEndTables {
  values: Record<Value["op"], unknown>;
  statements: Record<Stmt["kind"], unknown>;
  unary: Record<UnaryFn, unknown>;
  binary: Record<BinaryFn, unknown>;
  math: Record<MathFn, unknown>;
  reduce: Record<ReduceFn, unknown>;
  atomic: Record<AtomicFn, unknown>;
}

/** Every op name a back end's tables implement. */
export function implementedOps(tables: BackEndTables): ReadonlySet<IrOpName> {
  const names: string[] = [
    ...Object.keys(tables.values),
    ...Object.keys(tables.statements).map((k) => `stmt:${k}`),
    ...Object.keys(tables.unary).map((k) => `unary:${k}`),
    ...Object.keys(tables.binary).map((k) => `binary:${k}`),
    ...Object.keys(tables.math).map((k) => `math:${k}`),
    ...Object.keys(tables.reduce).map((k) => `reduce:${k}`),
    ...Object.keys(tables.atomic).map((k) => `atomic:${k}`),
  ];
  return new Set(names as IrOpName[]);
}

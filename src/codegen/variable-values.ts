// The value a variable holds where it is read, when straight-line code shows it: the last
// `declare` or `assign` before the read in the same block, or in a block around it with no loop
// or branch between that writes the variable. Python names are function-scoped, so a kernel's
// `n_offsets = start_n + tl.arange(0, TILE_N)` inside a loop, or set in both branches of an `if`
// on a constexpr, is an IR variable (FlagGems' non-inner reductions); its read right after is
// still the arange. A broadcast of that read can then be recomputed where it is needed
// (rearrange.ts `rematerialize`) instead of moved through workgroup memory.

import type { Stmt, Value } from "../ir/ir";
import { assertNever } from "../ir/never";
import { bodiesOf, forEachStmt } from "../ir/walk";

/** For each `readVar` value, by id, the value its variable holds there, where straight-line code shows it. */
export function knownReads(body: readonly Stmt[]): Map<number, Value> {
  const reads = new Map<number, Value>();
  visit(body, new Map(), reads);
  return reads;
}

/** Walks `body` with `known` (variable id → value held) as it enters; returns what is known as it leaves. */
function visit(body: readonly Stmt[], entering: ReadonlyMap<number, Value>, reads: Map<number, Value>): Map<number, Value> {
  const known = new Map(entering);
  for (const s of body) {
    switch (s.kind) {
      case "let":
        if (s.value.op === "readVar") {
          const held = known.get(s.value.variable.id);
          if (held) reads.set(s.value.id, held);
        }
        break;
      case "declare":
        known.set(s.variable.id, s.init);
        break;
      case "assign":
        known.set(s.variable.id, s.value);
        break;
      case "for":
      case "while": {
        // A trip starts with what earlier trips left: only variables the loop never writes are known inside.
        const written = writtenIn(s);
        const inside = new Map([...known].filter(([id]) => !written.has(id)));
        for (const nested of bodiesOf(s)) visit(nested, inside, reads);
        for (const id of written) known.delete(id);
        break;
      }
      case "if": {
        for (const nested of bodiesOf(s)) visit(nested, known, reads);
        for (const id of writtenIn(s)) known.delete(id);
        break;
      }
      case "store":
      case "break":
      case "continue":
      case "barrier":
      case "print":
      case "assert":
        break;
      default:
        assertNever(s, "statement");
    }
  }
  return known;
}

/** The variables a statement's nested bodies declare or assign (and a loop's counter). */
function writtenIn(s: Stmt): Set<number> {
  const written = new Set<number>();
  if (s.kind === "for") written.add(s.counter.id);
  for (const nested of bodiesOf(s)) {
    forEachStmt(nested, (x) => {
      if (x.kind === "declare" || x.kind === "assign") written.add(x.variable.id);
      if (x.kind === "for") written.add(x.counter.id);
    });
  }
  return written;
}

/** What the emitters ask of a variable's read: the value it holds there, when known. */
export interface VariableFacts {
  knownRead(read: Value): Value | undefined;
}

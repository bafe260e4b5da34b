// Which tl.dot calls may stage their operands without the barrier before the writes
// (CodegenOptions.privateDotTiles). That barrier keeps a dot from overwriting the shared scratch arrays
// while an invocation may still read them — for this dot's previous execution or another dot's.
// A dot with arrays of its own only needs its previous execution's reads to be over, and they are
// when every trip of the loop around it also runs another tl.dot, whose barriers every invocation
// passes between the two: attention's Q·Kᵀ and P·V (bench/NOTES.md §17). Between the last trip
// and the loop's next entry the other dot runs too (before or after it in the body), so the rule
// holds for loops inside loops as well.

import type { Stmt, Value } from "../ir/ir";
import { bodiesOf } from "../ir/walk";

/** The ids of the tl.dot values that may skip the barrier before staging into arrays of their own. */
export function dotsWithoutLeadingBarrier(body: readonly Stmt[]): Set<number> {
  const found = new Set<number>();
  const visit = (list: readonly Stmt[]) => {
    for (const s of list) {
      if (s.kind === "for" || s.kind === "while") {
        const every = everyTripDots(s.body);
        if (every && every.length >= 2) every.forEach((id) => found.add(id));
      }
      for (const inner of bodiesOf(s)) visit(inner);
    }
  };
  visit(body);
  return found;
}

/**
 * The dots a loop body runs on every trip: its own top-level ones and those of loops in it that
 * run exactly once. Undefined when a break or continue may cut a trip short.
 */
function everyTripDots(body: readonly Stmt[]): number[] | undefined {
  const ids: number[] = [];
  for (const s of body) {
    if (s.kind === "break" || s.kind === "continue") return undefined;
    if (s.kind === "let" && s.value.op === "dot") ids.push(s.value.id);
    if (s.kind === "for" && runsOnce(s)) {
      const inner = everyTripDots(s.body);
      if (!inner) return undefined;
      ids.push(...inner);
    } else if (s.kind !== "let" && bodiesOf(s).some(cutsShort)) {
      return undefined;
    }
  }
  return ids;
}

/** A break or continue that may leave the enclosing loop's trip (not one inside a nested loop). */
function cutsShort(list: readonly Stmt[]): boolean {
  return list.some((s) => s.kind === "break" || s.kind === "continue" || (s.kind === "if" && bodiesOf(s).some(cutsShort)));
}

/** `for (c = a; c < b; c += s)` with constants that make exactly one trip (BLOCK_D = HEAD_DIM). */
function runsOnce(s: Extract<Stmt, { kind: "for" }>): boolean {
  const value = (v: Value) => (v.op === "const" ? v.value : undefined);
  const [start, end, step] = [value(s.start), value(s.end), value(s.step)];
  if (start === undefined || end === undefined || step === undefined || step <= 0) return false;
  return s.cmp === "lt" && start < end && start + step >= end;
}

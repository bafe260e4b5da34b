// Masked f16 loads tested once per tile (CodegenOptions.halfLoadForm "tile"): where a load's mask is
// made of `x < n` tests and scalar conditions (tutorial 03's `offs_m[:, None] < M &&
// offs_k[None, :] < K - k * BLOCK_K`), one test on scalars says whether the whole tile is inside it
// (mma-store.ts tileInside). On that way the runs are read unmasked; on the other, each run under
// its own mask. Loads whose runs are not known aligned (1000 × 1001 × 1003) are read element by
// element: on the test's way with no per-element test. The per-element masks are then needed on the other way only, and they are emitted
// there: the block values that nothing but such masks use are left out where the IR defines them
// and written into each load's other way instead (unless CodegenOptions.tileMasksInPlace), as the
// hand-written kernel that isolated the masks' cost has them (37% faster than per-element masks on
// the H100). Generated, moving them did not add to the tile test's gain, and lost at one config
// (bench/NOTES.md §41).

import type { Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import { knownWhole, readsShifted, readsWide, type AccessFacts } from "./load-forms";
import { addUse, keepOnlyAmongThemselves, PURE_BLOCK_OPS, tileBounded, type Users } from "./mma-store";

/** The loads tested per tile, each with the values its other way emits (in the IR's order), and every such value. */
export interface TileMasks {
  readonly loads: ReadonlyMap<number, readonly Value[]>;
  readonly deferred: ReadonlySet<number>;
}

export const NO_TILE_MASKS: TileMasks = { loads: new Map(), deferred: new Set() };

export function planTileMasks(body: readonly Stmt[], facts: AccessFacts): TileMasks {
  if (facts.options.halfLoadForm !== "tile" || facts.options.instrument) return NO_TILE_MASKS;
  const tested: (Value & { op: "load" })[] = [];
  forEachValue(body, (v) => {
    if (v.op !== "load" || !v.mask || v.ptr.type.kind !== "pointer" || v.ptr.type.pointee !== "f16") return;
    // Runs read as vec4s, or every element on its own (runs not known aligned: memory.ts tiledElementLoad).
    const wide = readsWide(facts, v);
    if (((wide && !readsShifted(facts, v) && knownWhole(facts, v)) || (!wide && facts.options.divisibility !== false)) && tileBounded(v.mask)) tested.push(v);
  });
  if (tested.length === 0) return NO_TILE_MASKS;
  // In place: each load tests its tile, and its mask's values stay where the IR computes them.
  if (facts.options.tileMasksInPlace === true) return { loads: new Map(tested.map((l) => [l.id, []])), deferred: new Set() };
  // Where each `let` stands in the kernel, and who uses each value: a value, or a statement that is not its `let`.
  const order = new Map<number, number>();
  forEachStmt(body, (s) => {
    if (s.kind === "let") order.set(s.value.id, order.size);
  });
  const users: Users = new Map();
  const maskOf = new Map(tested.map((l) => [l.id, l.mask!.id]));
  forEachValue(body, (v) => {
    // A tested load's mask is read on its other way only: that use does not keep the mask in place.
    for (const o of operandsOf(v)) if (maskOf.get(v.id) !== o.id) addUse(users, o.id, v.id);
  });
  forEachStmt(body, (s) => {
    if (s.kind !== "let") for (const v of valuesOfStmt(s)) addUse(users, v.id, "statement");
  });
  // Candidates: pure block values with a `let`; dropped until every user is a candidate (or a tested load's mask).
  const candidates = new Set<number>();
  forEachValue(body, (v) => {
    if (v.type.shape.length > 0 && PURE_BLOCK_OPS.has(v.op) && order.has(v.id)) candidates.add(v.id);
  });
  keepOnlyAmongThemselves(candidates, users);
  const loads = new Map<number, Value[]>();
  const deferred = new Set<number>();
  for (const l of tested) {
    const needed = new Map<number, Value>();
    const walk = (v: Value) => {
      if (!candidates.has(v.id) || needed.has(v.id)) return;
      needed.set(v.id, v);
      operandsOf(v).forEach(walk);
    };
    walk(l.mask!);
    loads.set(l.id, [...needed.values()].sort((a, b) => order.get(a.id)! - order.get(b.id)!));
    for (const id of needed.keys()) deferred.add(id);
  }
  return { loads, deferred };
}

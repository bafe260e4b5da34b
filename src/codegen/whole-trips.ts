// Loops whose masks are whole in most trips, peeled (CodegenOptions.wholeTrips): attention's
// key loop tests `start_n + offs_n < N_CTX` (the K and V loads, the scores' `where`) in every trip,
// though only the last trip can reach past N_CTX; the causal mask `offs_m >= start_n + offs_n` holds
// for every key of every block below the diagonal. The loop is peeled, as hand-written kernels peel
// their edge tiles: a first loop runs the trips while a test on scalars says every such comparison
// holds for the whole block, with them `true` (the driver then drops the selects and the masked
// loads' tests); a second runs the rest as written, from where the first stopped. Exact whatever
// the trips' order: the second loop's masks decide any trip the first did not take. On an H100 the
// comparisons with N_CTX cost the attention leader 6% (bench/NOTES.md §54, WGSL edit
// `no-n-ctx-masks`); the test inside one loop, each trip branching to one of two bodies, lost
// instead (§56).
//
// A comparison qualifies where it is a `let` of the loop's own body, both sides are affine in the
// block's indices (constant steps) with scalars known before the loop or the loop's counter
// (mma-store.ts `affine`), and the counter is among them: a comparison the trip does not move is
// true or false in every trip alike. The test is min(rhs − lhs) > 0 (≥ 0 for `<=`) over the block,
// on scalars the same in every invocation (the loop's start and step uniform, variables included,
// the rest from parameters and program ids), so the loops may hold barriers and subgroup matrices. A loop that a `break` leaves
// is not peeled (the first loop's break would start the second).

import type { Stmt, Value, Variable } from "../ir/ir";
import type { CodegenOptions } from "../ir/target";
import { forEachStmt, forEachValue } from "../ir/walk";
import type { MmaPlan } from "./mma-plan";
import { affine, uniform, type Sym } from "./mma-store";
import { uniformWithVariables } from "./uniformity";

/** One loop's test: each comparison's smallest margin over the block, and the least it must be. */
export interface WholeTrip {
  readonly counter: Variable;
  readonly margins: readonly { min: Sym; atLeast: 0 | 1 }[];
  /** The comparisons that hold on the test's way, by value id. */
  readonly comparisons: ReadonlySet<number>;
}

const COMPARISON = new Set(["lt", "le", "gt", "ge"]);

/**
 * The loops peeled for these options (none where instrumented: the checks see every trip as
 * written): every one that can be where `wholeTrips` is true, none where false; by default those
 * whose every dot on matrices multiplies afresh each trip, as attention's two products do (on an
 * H100 peeling its key loop gained 5–24% at every setting timed), not into a loop's accumulator
 * (the f16 matmul's K loop, which it moved by −9% to +26%: bench/NOTES.md §56).
 */
export function wholeTripsOf(body: readonly Stmt[], options: Pick<CodegenOptions, "wholeTrips" | "instrument">, mma: ReadonlyMap<number, Pick<MmaPlan, "kind">>): Map<Stmt, WholeTrip> {
  if (options.wholeTrips === false || options.instrument) return new Map();
  const all = planWholeTrips(body, true, (loop) => matrixProducts(loop.body, mma) === "accumulating");
  if (options.wholeTrips === true) return all;
  return new Map([...all].filter(([loop]) => loop.kind === "for" && matrixProducts(loop.body, mma) === "fresh"));
}

/**
 * Whether `wholeTrips` changes anything here, and its default: undefined where no loop that runs a
 * dot on matrices can be peeled; else whether one peeled by default (the tuner's knob, knobs.ts).
 */
export function wholeTripsDefault(body: readonly Stmt[], mma: ReadonlyMap<number, Pick<MmaPlan, "kind">>): boolean | undefined {
  const kinds = [...planWholeTrips(body, true).keys()].map((loop) => (loop.kind === "for" ? matrixProducts(loop.body, mma) : "none"));
  return kinds.every((k) => k === "none") ? undefined : kinds.includes("fresh");
}

/** Whether `body` has dots on matrices, and whether one of them accumulates across the loop's trips. */
function matrixProducts(body: readonly Stmt[], mma: ReadonlyMap<number, Pick<MmaPlan, "kind">>): "none" | "fresh" | "accumulating" {
  let dots = 0;
  let accumulating = false;
  forEachValue(body, (v) => {
    const plan = v.op === "dot" ? mma.get(v.id) : undefined;
    if (!plan) return;
    dots++;
    accumulating ||= plan.kind === "loop";
  });
  return dots === 0 ? "none" : accumulating ? "accumulating" : "fresh";
}

/**
 * Every loop that can be peeled, by its `for` statement; none unless `enabled`. Where `scalars` says
 * so of a loop (the matmul's, whose dots accumulate), its scalar comparisons with the counter join
 * the test too: the pipelined loads' `next trip exists`, which else leaves a select on every element
 * the next trip reads.
 */
export function planWholeTrips(body: readonly Stmt[], enabled: boolean, scalars: (loop: Stmt & { kind: "for" }) => boolean = () => false): Map<Stmt, WholeTrip> {
  const out = new Map<Stmt, WholeTrip>();
  if (!enabled) return out;
  const steady = uniformWithVariables(body);
  forEachStmt(body, (s) => {
    // The counter the same in every invocation (its end need not be: a trip runs in all or none, else nothing here may hold barriers).
    if (s.kind !== "for" || !steady(s.start) || !steady(s.step)) return;
    // What the body defines (its values are not known before the loop) and whether it moves the counter.
    const inside = new Set<number>();
    let moved = false;
    forEachStmt(s.body, (t) => {
      if (t.kind === "let") inside.add(t.value.id);
      if (t.kind === "assign" && t.variable.id === s.counter.id) moved = true;
    });
    if (moved || breaks(s.body)) return;
    const margins: WholeTrip["margins"][number][] = [];
    const comparisons = new Set<number>();
    const seen = new Set<string>();
    const scalar = scalars(s);
    for (const t of s.body) {
      if (t.kind !== "let" || (!scalar && t.value.type.shape.length === 0)) continue;
      const margin = wholeMargin(t.value, s.counter, inside);
      if (!margin) continue;
      comparisons.add(t.value.id);
      const key = JSON.stringify(margin, (_, x) => (x && typeof x === "object" && "id" in x ? `v${x.id}` : x));
      if (!seen.has(key)) margins.push(margin);
      seen.add(key);
    }
    if (comparisons.size > 0) out.set(s, { counter: s.counter, margins, comparisons });
  });
  return out;
}

/** For a comparison the trip moves (of blocks, or of scalars): the smallest of (greater side − smaller side) over the block, and the least that makes it hold. */
function wholeMargin(v: Value, counter: Variable, inside: ReadonlySet<number>): WholeTrip["margins"][number] | undefined {
  if (v.op !== "binary" || !COMPARISON.has(v.fn)) return undefined;
  let moves = false;
  const visible = (x: Value) => {
    if (x.op === "readVar" && x.variable.id === counter.id) return (moves = true);
    return !inside.has(x.id) && uniform(x);
  };
  const [small, great] = v.fn === "lt" || v.fn === "le" ? [v.lhs, v.rhs] : [v.rhs, v.lhs];
  const a = affine(small, visible, true);
  const b = affine(great, visible, true);
  const shape = v.lhs.type.shape;
  if (!a || !b || !moves || a.coefs.length !== shape.length || b.coefs.length !== shape.length) return undefined;
  let min: Sym = difference(b.base, a.base);
  for (let k = 0; k < shape.length; k++) {
    const step = difference(b.coefs[k], a.coefs[k]);
    if (typeof step !== "number") return undefined;
    if (step < 0) min = difference(min, -step * (shape[k] - 1));
  }
  return { min, atLeast: v.fn === "lt" || v.fn === "gt" ? 1 : 0 };
}

function difference(a: Sym, b: Sym): Sym {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return b === 0 ? a : { sym: "-", a, b };
}

/** Whether a `break` of this loop (not of a loop inside it) is in `body`. */
function breaks(body: readonly Stmt[]): boolean {
  return body.some((s) => s.kind === "break" || (s.kind === "if" && (breaks(s.then) || breaks(s.else))));
}

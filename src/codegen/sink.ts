// Loads of a loop-invariant tl.dot operand moved into the loop that multiplies by them, as an IR
// rewrite before code generation. Tutorial 06 as Triton writes it loads the query block once,
// before the key loop, and multiplies by it in every trip:
//
//   q = tl.load(Q_block_ptr, …);  for (…) { k = tl.load(K_block_ptr, …); qk = tl.dot(q, k); … acc = tl.dot(p, v, acc); }
//
// Held across the loop, q costs each invocation BLOCK_M × HEAD_DIM / invocations registers (32
// at 128 × 64 and 256 invocations) beside the accumulator and the scores; the hand-written
// example loads its q inside the loop instead (from L1/L2, where it stays), and on the H200 the
// as-written kernel ran 22% slower (bench/RESULTS.md, issue 23). Rewritten, the loop computes
// its own copy of the load where it first uses it, together with the pure block values its
// pointer and mask are made of (offsets, masks: recomputing them is cheaper than holding them),
// so nothing block-sized lives across the trips:
//
//   for (…) { q' = tl.load(Q_block_ptr, …); k = …; qk = tl.dot(q', k); … }
//
// It is exactly equivalent: the buffer is never written by the kernel, so every trip reads what
// the load before the loop read, and only values computed before the loop feed the copy. Only
// loops with two or more dots on the generic path are rewritten (attention's nest: there the
// registers are short); a dot on subgroup matrices stages an invariant A once (mma.ts) instead.
// CodegenOptions.sinkInvariantDotLoads = false keeps the load where it was written.

import type { KernelIR, Stmt, Value } from "../ir/ir";
import { mapOperands, operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, mapStmt, substituteValues, valuesOfStmt } from "../ir/walk";

type Loop = Stmt & { kind: "for" };

/** Ops a copy recomputes inside the loop: pure, elementwise or index-building, one value each. */
const RECOMPUTED = new Set<Value["op"]>(["arange", "splat", "broadcast", "reshape", "cast", "unary", "binary", "ptrAdd", "where"]);

/** The kernel with its invariant dot-operand loads moved into attention-like loops (else `ir` itself). */
export function sinkInvariantDotLoads(ir: KernelIR, matrixDots: ReadonlySet<number> = new Set()): KernelIR {
  const lets = new Map<number, Value>();
  forEachStmt(ir.body, (s) => {
    if (s.kind === "let") lets.set(s.value.id, s.value);
  });
  const ids = { next: 0, sunk: new Set<number>() };
  forEachValue(ir.body, (v) => (ids.next = Math.max(ids.next, v.id + 1)));
  // Innermost loops first: a load sinks into the innermost loop with the dots that read it.
  const visit = (list: Stmt[]): Stmt[] =>
    list.map((s) => {
      const inner = mapStmt(s, (v) => v, visit);
      return inner.kind === "for" ? sinkInto(inner, ir, lets, matrixDots, ids) : inner;
    });
  const body = visit(ir.body);
  return ids.sunk.size === 0 ? ir : { ...ir, body: withoutUnread(body, ids.sunk) };
}

/** `body` without the lets of `loads` that nothing reads any more (each loop now loads its own). */
function withoutUnread(body: Stmt[], loads: ReadonlySet<number>): Stmt[] {
  const read = new Set<number>();
  const walk = (v: Value): void => {
    if (read.has(v.id)) return;
    read.add(v.id);
    operandsOf(v).forEach(walk);
  };
  forEachStmt(body, (s) => (s.kind === "let" ? operandsOf(s.value) : valuesOfStmt(s)).forEach(walk));
  const prune = (list: Stmt[]): Stmt[] =>
    list.filter((s) => !(s.kind === "let" && loads.has(s.value.id) && !read.has(s.value.id))).map((s) => mapStmt(s, (v) => v, prune));
  return prune(body);
}

function sinkInto(loop: Loop, ir: KernelIR, lets: ReadonlyMap<number, Value>, matrixDots: ReadonlySet<number>, ids: { next: number; sunk: Set<number> }): Loop {
  const inside = new Set<number>();
  const dots: (Value & { op: "dot" })[] = [];
  forEachStmt(loop.body, (s) => {
    if (s.kind !== "let") return;
    inside.add(s.value.id);
    if (s.value.op === "dot" && !matrixDots.has(s.value.id)) dots.push(s.value);
  });
  if (dots.length < 2) return loop;
  // The operands loaded before the loop from a buffer the kernel never writes.
  const invariant = new Map<number, Value & { op: "load" }>();
  for (const d of dots) {
    for (const o of [d.a, d.b]) {
      const l = lets.get(o.id);
      if (l && l.op === "load" && !inside.has(l.id) && l.ptr.type.kind === "pointer" && !ir.writtenParams.has(l.ptr.type.param)) invariant.set(l.id, l);
    }
  }
  if (invariant.size === 0) return loop;

  let body = loop.body;
  for (const load of invariant.values()) {
    const at = body.findIndex((s) => reaches(s, load.id, lets, inside));
    if (at < 0) continue;
    const copies: Stmt[] = [];
    const memo = new Map<number, Value>();
    const copy = (v: Value, root = false): Value => {
      const known = memo.get(v.id);
      if (known) return known;
      // Scalars, inline values and whatever isn't cheap to recompute stay what was computed before the loop.
      const recomputed = root || (lets.has(v.id) && v.type.shape.length > 0 && RECOMPUTED.has(v.op));
      const result = recomputed ? { ...mapOperands(v, (o) => copy(o)), id: ids.next++ } : v;
      if (recomputed) copies.push({ kind: "let", value: result });
      memo.set(v.id, result);
      return result;
    };
    const replacement = copy(load, true);
    ids.sunk.add(load.id);
    body = [...body.slice(0, at), ...copies, ...substituteValues(body.slice(at), new Map([[load.id, replacement]]))];
  }
  return { ...loop, body };
}

/** Whether `s` (or a statement nested in it) reads value `id`, looking through the loop's own values only. */
function reaches(s: Stmt, id: number, lets: ReadonlyMap<number, Value>, inside: ReadonlySet<number>): boolean {
  const seen = new Set<number>();
  const walk = (v: Value): boolean => {
    if (v.id === id) return true;
    if (seen.has(v.id) || (lets.has(v.id) && !inside.has(v.id))) return false;
    seen.add(v.id);
    return operandsOf(v).some(walk);
  };
  let found = false;
  forEachStmt([s], (t) => (found ||= valuesOfStmt(t).some(walk)));
  return found;
}

// A row sum carried across a loop, added up once after it (CodegenOptions.deferRowSums), as an IR
// rewrite before code generation. Tutorial 06's online softmax keeps the running sum of each
// score row:
//
//   l_i = tl.zeros([BLOCK_M]);  for (…) { …; l_i = l_i * alpha + tl.sum(p, 1); … }  …  acc / l_i[:, None]
//
// Each trip's tl.sum(p, 1) combines the row's columns across the invocations that hold them (four
// shuffle steps for each of four rows at 64 × 64 over 256 invocations, half of the softmax's
// shuffles). Nothing in the loop reads l_i but its own update, and the update is linear in the
// columns, so the loop can carry the sum's terms instead, one per element of p, each scaled the
// same way:
//
//   l_rows = tl.zeros([BLOCK_M, BLOCK_N]);  for (…) { …; l_rows = l_rows * alpha[:, None] + p; … }  l_i = tl.sum(l_rows, 1)
//
// and combine them once, after the loop. Σ_n (l_rows[m, n] · alpha[m] + p[m, n]) = alpha[m] · Σ_n
// l_rows[m, n] + Σ_n p[m, n]: the same sums in another order (float rounding differs, as a
// reduction's order does). Rewritten only where it is that exactly: the variable is f32, declared
// zero just before the loop in the same statement list, assigned only by this update (at the
// loop's top level), and read in the loop only by it; the tl.sum along a 2-D block's last axis is
// read by nothing else. The rewrite costs each invocation one register per element of p it holds.

import type { KernelIR, Stmt, Value, ValueOp, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";

type Loop = Stmt & { kind: "for" };

/** One update `l = l · scale + tl.sum(terms, 1)` (scale absent: `l = l + tl.sum(terms, 1)`). */
interface RowSumUpdate {
  variable: Variable;
  at: number;
  terms: Value;
  scale?: Value;
  /** The update's own values: the new value, the sum, the product (with a scale), the read of `l`. */
  chain: Value[];
}

/** The kernel with each deferrable row sum carried as its terms and added up after its loop (else `ir` itself). */
export function deferRowSums(ir: KernelIR): KernelIR {
  const ids = { value: 0, variable: 0 };
  forEachValue(ir.body, (v) => (ids.value = Math.max(ids.value, v.id + 1)));
  const assigned = new Map<number, number>();
  forEachStmt(ir.body, (s) => {
    if (s.kind === "declare") ids.variable = Math.max(ids.variable, s.variable.id + 1);
    if (s.kind === "for") ids.variable = Math.max(ids.variable, s.counter.id + 1);
    if (s.kind === "assign") assigned.set(s.variable.id, (assigned.get(s.variable.id) ?? 0) + 1);
  });
  let changed = false;
  const rewrite = (list: Stmt[]): Stmt[] => {
    const out: Stmt[] = [];
    for (const s of list) {
      if (s.kind === "for") {
        const loop: Loop = { ...s, body: rewrite(s.body) };
        const uses = usesIn(loop.body);
        const updates = loop.body.flatMap((b, at) => {
          const u = b.kind === "assign" ? rowSumUpdate(b, at) : undefined;
          return u && assigned.get(u.variable.id) === 1 && declaredZeroIn(out, u.variable) && onlyItsOwn(loop.body, u, uses) ? [u] : [];
        });
        if (updates.length === 0) {
          out.push(loop);
          continue;
        }
        changed = true;
        out.push(...deferred(loop, updates, ids));
        continue;
      }
      const nested = s.kind === "if" ? { ...s, then: rewrite(s.then), else: rewrite(s.else) } : s.kind === "while" ? { ...s, body: rewrite(s.body) } : s;
      out.push(nested);
    }
    return out;
  };
  const body = rewrite(ir.body);
  return changed ? { ...ir, body } : ir;
}

/** `l = l · a + tl.sum(p, 1)` or `l = l + tl.sum(p, 1)` (either operand order), f32, p 2-D. */
function rowSumUpdate(s: Stmt & { kind: "assign" }, at: number): RowSumUpdate | undefined {
  const v = s.value;
  const l = s.variable;
  if (l.type.kind !== "data" || l.type.dtype !== "f32" || l.type.shape.length !== 1) return undefined;
  if (v.op !== "binary" || v.fn !== "add") return undefined;
  for (const [carried, summed] of [[v.lhs, v.rhs], [v.rhs, v.lhs]] as const) {
    if (summed.op !== "reduce" || summed.fn !== "sum" || summed.axis !== 1) continue;
    const terms = summed.value;
    if (terms.type.kind !== "data" || terms.type.dtype !== "f32" || terms.type.shape.length !== 2) continue;
    if (isRead(carried, l)) return { variable: l, at, terms, chain: [v, summed, carried] };
    if (carried.op === "binary" && carried.fn === "mul") {
      for (const [read, scale] of [[carried.lhs, carried.rhs], [carried.rhs, carried.lhs]] as const) {
        if (isRead(read, l) && !readsVariable(scale, l)) return { variable: l, at, terms, scale, chain: [v, summed, carried, read] };
      }
    }
  }
  return undefined;
}

const isRead = (v: Value, l: Variable) => v.op === "readVar" && v.variable.id === l.id;

function readsVariable(v: Value, l: Variable): boolean {
  let found = false;
  forEachValue([{ kind: "let", value: v }], (x) => (found ||= isRead(x, l)));
  return found;
}

/** Whether the statements before the loop, in its own list, declare `l` as zeros. */
function declaredZeroIn(before: readonly Stmt[], l: Variable): boolean {
  const d = before.find((s) => s.kind === "declare" && s.variable.id === l.id);
  if (!d || d.kind !== "declare") return false;
  const init = d.init.op === "splat" ? d.init.value : d.init;
  return init.op === "const" && init.value === 0;
}

/** How many readers each value has in `body`: values (as operands) and statements other than its own `let`. */
function usesIn(body: readonly Stmt[]): Map<number, number> {
  const uses = new Map<number, number>();
  const use = (v: Value) => uses.set(v.id, (uses.get(v.id) ?? 0) + 1);
  forEachValue(body, (v) => operandsOf(v).forEach(use));
  forEachStmt(body, (s) => {
    if (s.kind !== "let") valuesOfStmt(s).forEach(use);
  });
  return uses;
}

/**
 * Whether the update's values are read once each, by the update itself, and nothing else in the
 * loop reads `l`: then no value of `l` but its final one is seen outside the update.
 */
function onlyItsOwn(body: readonly Stmt[], u: RowSumUpdate, uses: ReadonlyMap<number, number>): boolean {
  if (!u.chain.every((v) => uses.get(v.id) === 1)) return false;
  let otherReads = false;
  // A read nothing uses (lowering leaves some) is no read.
  forEachValue(body, (v) => (otherReads ||= isRead(v, u.variable) && !u.chain.some((c) => c.id === v.id) && (uses.get(v.id) ?? 0) > 0));
  return !otherReads;
}

/** The loop with each update carried as its terms: the terms' variable declared zero before it, added up after it. */
function deferred(loop: Loop, updates: readonly RowSumUpdate[], ids: { value: number; variable: number }): Stmt[] {
  const before: Stmt[] = [];
  const after: Stmt[] = [];
  const body = [...loop.body];
  // The old updates' values, read by nothing else (onlyItsOwn), go with them.
  const dropped = new Set(updates.flatMap((u) => u.chain.map((v) => v.id)));
  // Later updates first, so that each `at` still points at its statement.
  for (const u of [...updates].sort((a, b) => b.at - a.at)) {
    const terms = u.terms.type as Value["type"] & { kind: "data" };
    const span = u.variable.span;
    const make = (type: Value["type"], op: ValueOp): Value => ({ id: ids.value++, span, type, ...op });
    const rows: Variable = { id: ids.variable++, name: `${u.variable.name}_terms`, type: terms, span };
    const scalar = { kind: "data", dtype: "f32", shape: [] } as const;
    const zero = make(scalar, { op: "const", value: 0 });
    const zeros = make(terms, { op: "splat", value: zero });
    before.push({ kind: "let", value: zero }, { kind: "let", value: zeros }, { kind: "declare", span, variable: rows, init: zeros });

    const lets: Stmt[] = [];
    const let_ = (v: Value) => (lets.push({ kind: "let", value: v }), v);
    const carried = let_(make(terms, { op: "readVar", variable: rows }));
    let next = carried;
    if (u.scale) {
      const column = let_(make({ kind: "data", dtype: "f32", shape: [terms.shape[0], 1] }, { op: "reshape", value: u.scale }));
      const scale = let_(make(terms, { op: "broadcast", value: column }));
      next = let_(make(terms, { op: "binary", fn: "mul", lhs: carried, rhs: scale }));
    }
    const sum = let_(make(terms, { op: "binary", fn: "add", lhs: next, rhs: u.terms }));
    const written = body[u.at] as Stmt & { kind: "assign" };
    body.splice(u.at, 1, ...lets, { kind: "assign", span: written.span, variable: rows, value: sum });

    const read = make(terms, { op: "readVar", variable: rows });
    const total = make(u.variable.type, { op: "reduce", fn: "sum", value: read, axis: 1 });
    after.push({ kind: "let", value: read }, { kind: "let", value: total }, { kind: "assign", span, variable: u.variable, value: total });
  }
  return [...before, { ...loop, body: body.filter((s) => !(s.kind === "let" && dropped.has(s.value.id))) }, ...after];
}

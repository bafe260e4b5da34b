// A running row maximum that moves only when it must (CodegenOptions.lazyRowMax): the online
// softmax's reference, found in the IR before code generation and used by reductions.ts. Tutorial
// 06's loop carries m_i, the maximum of each score row so far, and every trip combines the block's
// row maxima across the invocations that hold each row (4 shuffle steps a row at 64 × 64 over 256
// invocations) before anything else can go on:
//
//   m_ij = tl.maximum(m_i, tl.max(qk, 1));  p = tl.exp2(qk - m_ij[:, None]);  alpha = tl.exp2(m_i - m_ij)
//   l_i = l_i * alpha + tl.sum(p, 1);  acc = tl.dot(p, v, acc * alpha[:, None]);  m_i = m_ij
//   …after the loop: acc / l_i[:, None]
//
// m_i is only a reference: with any other one m', p and alpha change by the factor c = 2^(m − m')
// of their row, l_i and acc by the same factor (they are sums of p's terms rescaled by alpha as the
// reference moves), and acc / l_i not at all. So the reference may stay where it is as long as
// no score passes it by much: a subgroup whose invocations find every score of theirs at most
// LAZY_SLACK (8, in log2 units) above their rows' m_i keeps m_i, with no shuffle (p ≤ 2^8: safe in
// f16 and in the f32 sums); one where some score does combines its rows' maxima as before. The
// vote is subgroupAny, one instruction where the shuffles were 4 steps a row, and after the first
// key blocks of a row it almost never passes. FlashAttention-4 moves its reference the same way
// (bench/NOTES.md §54).
//
// Applied only where that argument holds, checked on the IR (else the kernel is left as it is):
// m_i is an f32 row vector assigned once, in the loop, to maximum(m_i, tl.max(X, 1)) of a 2-D f32
// X; m_i is read only there and in `m_i - m_ij`; m_ij only by that, by `X - m_ij[:, None]` (X's
// own scores) and by the assignment; nothing reads m_i after the loop. What p and alpha reach is
// followed: through element-wise products with unscaled values, sums of equally scaled values,
// row sums, casts, row broadcasts, and tl.dot as its left operand and accumulator, into variables
// declared zero before the loop and assigned once in it; after the loop those variables may only
// be summed, scaled and broadcast along rows, assigned to others of their kind, and divided one by
// another, where the factor cancels. Anything else that touches them (a store, a comparison, a
// branch) leaves the kernel as it is.

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";

/** How far (log2 units) a score may pass the reference before a subgroup moves it: p ≤ 2^8. */
export const LAZY_SLACK = 8;

/** How a value scales with its row's reference: not, by this trip's factor, last trip's, or their ratio (alpha). */
type Scale = "none" | "new" | "old" | "ratio";

/** The row maxima that may stay at their floor: the reduction's value id → the read of m_i it compares with. */
export type LazyMaxima = ReadonlyMap<number, Value>;

/** Each tl.max(X, 1) of an online softmax whose reference may move lazily, with the read of m_i it stays at. */
export function lazyRowMaxima(ir: KernelIR): LazyMaxima {
  const found = new Map<number, Value>();
  ir.body.forEach((s, at) => {
    if (s.kind !== "for") return;
    for (const b of s.body) {
      if (b.kind !== "assign") continue;
      const hit = candidate(ir, at, s, b);
      if (hit) found.set(hit.reduce.id, hit.floor);
    }
  });
  return found;
}

type Loop = Stmt & { kind: "for" };

const isRead = (v: Value, x: Variable) => v.op === "readVar" && v.variable.id === x.id;
const isRowVector = (v: Value) => v.type.kind === "data" && v.type.dtype === "f32" && v.type.shape.length === 1;

/** `assign m := maximum(m, tl.max(X, 1))` where everything the module comment asks holds, else undefined. */
function candidate(ir: KernelIR, at: number, loop: Loop, assign: Stmt & { kind: "assign" }): { reduce: Value; floor: Value } | undefined {
  const m = assign.variable;
  const M = assign.value;
  if (!isRowVector(M) || M.op !== "math" || M.fn !== "maximum" || M.args.length !== 2) return undefined;
  const [a, b] = M.args;
  const [floor, R] = isRead(a, m) ? [a, b] : isRead(b, m) ? [b, a] : [];
  if (!floor || !R || R.op !== "reduce" || R.fn !== "max" || R.axis !== 1) return undefined;
  const X = R.value;
  if (X.type.kind !== "data" || X.type.dtype !== "f32" || X.type.shape.length !== 2) return undefined;

  const uses = consumers(loop.body);
  const usedBy = (v: Value) => uses.values.get(v.id) ?? [];
  if (assignmentsTo(ir.body, m.id) !== 1 || !loop.body.includes(assign)) return undefined;
  if (usedBy(R).length !== 1) return undefined;

  // m_ij's readers: the assignment, `m_i − m_ij` (alpha's exponent), `X − m_ij[:, None]` (p's).
  let alpha: Value | undefined;
  let p: Value | undefined;
  for (const u of usedBy(M)) {
    if (u.op === "binary" && u.fn === "sub" && u.rhs.id === M.id && u.lhs.op === "readVar" && isRead(u.lhs, m) && !alpha) {
      const e = only(usedBy(u));
      if (!e || e.op !== "math" || e.fn !== "exp2") return undefined;
      alpha = e;
      continue;
    }
    if (u.op === "reshape" && !p) {
      const column = u;
      const broadcast = only(usedBy(column));
      if (!broadcast || broadcast.op !== "broadcast" || !sameShape(broadcast, X)) return undefined;
      const d = only(usedBy(broadcast));
      if (!d || d.op !== "binary" || d.fn !== "sub" || d.rhs.id !== broadcast.id || !sameScores(loop.body, d.lhs, X)) return undefined;
      const e = only(usedBy(d));
      if (!e || e.op !== "math" || e.fn !== "exp2") return undefined;
      p = e;
      continue;
    }
    return undefined;
  }
  if (!alpha || !p || uses.statements.get(M.id) !== 1) return undefined;
  // Reads of m: `floor` (M's) and alpha's, in the loop; none elsewhere that anything reads.
  const alphaRead = (alpha.op === "math" ? alpha.args[0] : alpha) as Value & { op: "binary" };
  const allowed = new Set([floor.id, alphaRead.lhs.id]);
  let stray = false;
  const everywhere = consumers(ir.body);
  forEachValue(ir.body, (v) => (stray ||= isRead(v, m) && !allowed.has(v.id) && (everywhere.values.get(v.id)?.length ?? 0) + (everywhere.statements.get(v.id) ?? 0) > 0));
  if (stray) return undefined;
  if (!scaledFlowIsHomogeneous(ir, at, loop, m, alpha, p, uses)) return undefined;
  return { reduce: R, floor };
}

/** How many statements in `body` (nested ones too) assign variable `id`. */
function assignmentsTo(body: readonly Stmt[], id: number): number {
  let n = 0;
  forEachStmt(body, (s) => (n += s.kind === "assign" && s.variable.id === id ? 1 : 0));
  return n;
}

function only<T>(xs: readonly T[]): T | undefined {
  return xs.length === 1 ? xs[0] : undefined;
}

function sameShape(a: Value, b: Value): boolean {
  return a.type.shape.length === b.type.shape.length && a.type.shape.every((n, i) => n === b.type.shape[i]);
}

/** `y` is `x`, or reads the variable `x` reads with no assignment to it between the two reads. */
function sameScores(body: readonly Stmt[], y: Value, x: Value): boolean {
  if (y.id === x.id) return true;
  if (x.op !== "readVar" || y.op !== "readVar" || x.variable.id !== y.variable.id) return false;
  const at = (v: Value) => body.findIndex((s) => s.kind === "let" && s.value.id === v.id);
  const [i, j] = [at(x), at(y)].sort((p, q) => p - q);
  if (i < 0) return false;
  let assigned = false;
  forEachStmt(body.slice(i, j + 1), (s) => (assigned ||= s.kind === "assign" && s.variable.id === x.variable.id));
  return !assigned;
}

/** Who reads each value in `body`: values (as operands), and how many statements other than its `let`. */
function consumers(body: readonly Stmt[]): { values: Map<number, Value[]>; statements: Map<number, number> } {
  const values = new Map<number, Value[]>();
  const statements = new Map<number, number>();
  forEachValue(body, (v) => {
    for (const o of operandsOf(v)) {
      const readers = values.get(o.id);
      if (readers) readers.push(v);
      else values.set(o.id, [v]);
    }
  });
  forEachStmt(body, (s) => {
    if (s.kind !== "let") valuesOfStmt(s).forEach((v) => statements.set(v.id, (statements.get(v.id) ?? 0) + 1));
  });
  return { values, statements };
}

/**
 * Whether everything alpha and p reach scales consistently with the reference (the module
 * comment's rules): in the loop into variables declared zero before it and assigned once in it,
 * after it only into others of their kind and ratios of them.
 */
function scaledFlowIsHomogeneous(ir: KernelIR, at: number, loop: Loop, m: Variable, alpha: Value, p: Value, uses: ReturnType<typeof consumers>): boolean {
  // Values in statement order: a `let` defines its value after its operands' lets.
  const order: Value[] = [];
  forEachStmt(loop.body, (s) => s.kind === "let" && order.push(s.value));
  const scalesWith = (carried: ReadonlySet<number>) => {
    const scale = new Map<number, Scale | "bad">([[alpha.id, "ratio"], [p.id, "new"]]);
    const read = (v: Value): Scale | "bad" => scale.get(v.id) ?? (v.op === "readVar" && carried.has(v.variable.id) ? "old" : "none");
    for (const v of order) {
      if (v.id === alpha.id || v.id === p.id || v.op === "readVar") continue;
      const operands = operandsOf(v);
      const scales = operands.map(read);
      if (scales.every((x) => x === "none")) continue;
      scale.set(v.id, scales.includes("bad") ? "bad" : combine(v, operands, scales as Scale[], "in") ?? "bad");
    }
    return read;
  };
  // The carried sums: every variable the loop assigns at its top, less each whose new value isn't
  // this trip's scale, until none is dropped (a sum's update reads it as last trip's).
  const assigns = loop.body.filter((s): s is Stmt & { kind: "assign" } => s.kind === "assign" && s.variable.type.kind === "data" && s.variable.type.dtype === "f32" && s.variable.id !== m.id);
  let carried = new Set(assigns.map((s) => s.variable.id));
  for (;;) {
    const read = scalesWith(carried);
    const next = new Set(assigns.filter((s) => carried.has(s.variable.id) && read(s.value) === "new").map((s) => s.variable.id));
    if (next.size === carried.size) break;
    carried = next;
  }
  const read = scalesWith(carried);
  // Nothing fails the rules, and only assignments of this trip's scale, at the loop's top, read a scaled value.
  if (order.some((v) => read(v) === "bad")) return false;
  let bad = false;
  forEachStmt(loop.body, (s) => {
    if (s.kind === "let") return;
    for (const v of valuesOfStmt(s)) {
      const k = read(v);
      if (k !== "none" && !(s.kind === "assign" && k === "new" && loop.body.includes(s) && carried.has(s.variable.id))) bad = true;
    }
  });
  if (bad) return false;
  // Each carried sum: declared zero before the loop and not assigned there, assigned once in the
  // loop, not read after that assignment in it (what follows the loop, afterTheLoop checks).
  for (const id of carried) {
    if (assignmentsTo(loop.body, id) !== 1 || assignmentsTo(ir.body.slice(0, at), id) !== 0 || !declaredZero(ir.body.slice(0, at), id) || readAfterAssigned(loop.body, id, uses)) return false;
  }
  return carried.size > 0 && afterTheLoop(ir.body.slice(at + 1), carried);
}

/** The scale of `v` from its operands', or undefined where the rules don't allow it. */
function combine(v: Value, operands: readonly Value[], scales: readonly Scale[], where: "in" | "after"): Scale | undefined {
  const scaled = scales.filter((s) => s !== "none");
  const rowsKept = (x: Value, y: Value) => x.type.shape[0] === y.type.shape[0];
  switch (v.op) {
    case "reshape":
      // [M] ↔ [M, 1] only: the rows stay rows.
      return (v.type.shape.length === 2 && v.type.shape[1] === 1) || v.type.shape.length === 1 ? (rowsKept(v, operands[0]) ? scales[0] : undefined) : undefined;
    case "broadcast":
      return operands[0].type.shape.length === 2 && operands[0].type.shape[1] === 1 && rowsKept(v, operands[0]) ? scales[0] : undefined;
    case "cast":
      return v.type.kind === "data" && (v.type.dtype === "f32" || v.type.dtype === "f16") ? scales[0] : undefined;
    case "reduce":
      return v.fn === "sum" && v.axis === 1 && v.value.type.shape.length === 2 ? scales[0] : undefined;
    case "binary": {
      const [x, y] = scales;
      if (v.fn === "mul") {
        if (where === "in" && ((x === "old" && y === "ratio") || (x === "ratio" && y === "old"))) return "new";
        if (scaled.length === 1 && scaled[0] !== "ratio") return scaled[0];
        return undefined;
      }
      if (v.fn === "add") return x === y ? x : undefined;
      if (v.fn === "div") {
        // A ratio of two equally scaled values: the factor cancels (acc / l_i[:, None]).
        if (where === "after" && x === y && x !== "none") return "none";
        if (y === "none" && x !== "ratio") return x;
        return undefined;
      }
      return undefined;
    }
    case "dot":
      // P (left) scaled, V unscaled, the accumulator scaled alike or absent.
      if (where === "in" && scales[0] === "new" && scales[1] === "none" && (operands.length === 2 || scales[2] === "new")) return "new";
      return undefined;
    default:
      return undefined;
  }
}

/** Whether the loop reads variable `id` (where anything uses the read) after its assignment: that read is this trip's, not the last. */
function readAfterAssigned(body: readonly Stmt[], id: number, uses: ReturnType<typeof consumers>): boolean {
  const assigned = body.findIndex((s) => s.kind === "assign" && s.variable.id === id);
  return body.some((s, i) => i > assigned && s.kind === "let" && s.value.op === "readVar" && s.value.variable.id === id &&
    ((uses.values.get(s.value.id)?.length ?? 0) + (uses.statements.get(s.value.id) ?? 0)) > 0);
}

/** Whether the statements before the loop declare variable `id` as zeros. */
function declaredZero(before: readonly Stmt[], id: number): boolean {
  const d = before.find((s) => s.kind === "declare" && s.variable.id === id);
  if (!d || d.kind !== "declare") return false;
  const init = d.init.op === "splat" ? d.init.value : d.init;
  return init.op === "const" && init.value === 0;
}

/**
 * After the loop the carried sums are all scaled alike (by the last trip's factor): they may be
 * combined as in the loop and assigned to variables that become of their kind, and they leave
 * only as a ratio of two of them.
 */
function afterTheLoop(after: readonly Stmt[], carried: ReadonlySet<number>): boolean {
  const kind = new Set(carried);
  const scale = new Map<number, Scale>();
  const read = (v: Value): Scale => scale.get(v.id) ?? (v.op === "readVar" && kind.has(v.variable.id) ? "new" : "none");
  let ok = true;
  forEachStmt(after, (s) => {
    if (s.kind === "let") {
      const v = s.value;
      if (v.op === "readVar") return;
      const operands = operandsOf(v);
      const scales = operands.map(read);
      if (scales.every((x) => x === "none")) return;
      const k = combine(v, operands, scales, "after");
      if (!k) ok = false;
      else if (k !== "none") scale.set(v.id, k);
      return;
    }
    for (const v of valuesOfStmt(s)) {
      const k = read(v);
      if (k === "none") continue;
      // A variable given a scaled value joins them; one given an unscaled value is no longer one.
      if (s.kind === "assign") kind.add(s.variable.id);
      else ok = false;
    }
    if (s.kind === "assign" && read(s.value) === "none") kind.delete(s.variable.id);
  });
  return ok;
}

// A loop's tl.dot operands read past the edges the store masks off (CodegenOptions.unmaskedDotEdges),
// as an IR rewrite before code generation. Tutorial 03 in Kernel Lab's spelling masks its loads
// along M and N as well as K:
//
//   a = tl.load(a_ptrs, offs_m[:, None] < M && offs_k[None, :] < k_left, 0.0)
//   b = tl.load(b_ptrs, offs_k[:, None] < k_left && offs_n[None, :] < N, 0.0)
//   acc = tl.dot(a, b, acc)  …  tl.store(c_ptrs, acc, offs_m[:, None] < M && offs_n[None, :] < N)
//
// Row i of the product is made of row i of `a` alone, column j of column j of `b`; the store
// writes neither row i where `offs_m[i] < M` fails nor column j where `offs_n[j] < N` does. So
// what those loads read there never reaches memory, and the M and N terms of their masks can go:
// the K term stays (its zeros do reach the product). Triton's own tutorial writes the same by
// hand, `offs_am = (… + tl.arange(0, BLOCK_M)) % M` with K masks alone. A read past the buffer is
// bounded by WebGPU (an element of the buffer, or zero), so this is for code generation only: the
// CPU interpreter and instrumented runs, which check every address, see the kernel as written.
//
// Rewritten only where it is that exactly: the dot's accumulator is a variable assigned only by
// `acc = tl.dot(a, b, acc)` in the loop and read nowhere else in it; every other read of it goes,
// through casts alone, into a store's value whose mask has the same row (or column) comparison as
// a conjunct (the same comparison of the same values, broadcast the same way); `a` and `b` are
// loads read by the dot alone; and the mask left is one side of the load's `&&` (or none).

import type { KernelIR, Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, mapStmt, substituteValues, valuesOfStmt } from "../ir/walk";

/** The kernel with the M and N terms of its dot operands' load masks dropped where the store masks them off (else `ir` itself). */
export function unmaskDotEdges(ir: KernelIR): KernelIR {
  const readers = new Map<number, (Value | Stmt)[]>();
  const read = (v: Value, by: Value | Stmt) => readers.set(v.id, [...(readers.get(v.id) ?? []), by]);
  forEachValue(ir.body, (v) => operandsOf(v).forEach((o) => read(o, v)));
  // A `let` defines its value; the statements that read one are the others.
  forEachStmt(ir.body, (s) => s.kind !== "let" && valuesOfStmt(s).forEach((v) => read(v, s)));
  const reads = new Map<number, Value[]>();
  forEachValue(ir.body, (v) => {
    if (v.op === "readVar") reads.set(v.variable.id, [...(reads.get(v.variable.id) ?? []), v]);
  });
  const assigned = new Map<number, number>();
  forEachStmt(ir.body, (s) => {
    if (s.kind === "assign") assigned.set(s.variable.id, (assigned.get(s.variable.id) ?? 0) + 1);
  });
  const replaced = new Map<number, Value>();
  forEachStmt(ir.body, (loop) => {
    if (loop.kind !== "for") return;
    for (const s of loop.body) {
      if (s.kind !== "assign" || s.value.op !== "dot") continue;
      const dot = s.value;
      const acc = dot.acc;
      if (dot.type.shape.length !== 2 || acc?.op !== "readVar" || acc.variable.id !== s.variable.id || assigned.get(s.variable.id) !== 1) continue;
      // The accumulator's other reads, each into stores: their masks' conjuncts.
      const stores: Stmt[] = [];
      const others = (reads.get(s.variable.id) ?? []).filter((r) => r !== acc);
      if ((readers.get(acc.id) ?? []).length !== 1 || !others.every((r) => intoStores(r, readers, stores))) continue;
      const guards = stores.map((st) => new Set(st.kind === "store" && st.mask ? conjuncts(st.mask).map(key) : []));
      const held = (term: Value) => guards.length > 0 && guards.every((g) => g.has(key(term)));
      // A's terms that vary along its rows alone, B's along its columns alone.
      for (const [operand, along] of [[dot.a, 0], [dot.b, 1]] as const) {
        if (operand.op !== "load" || !operand.mask || (readers.get(operand.id) ?? []).length !== 1) continue;
        const kept = dropped(operand.mask, (term) => edgeOnly(term, along) && held(term));
        if (kept === operand.mask) continue;
        replaced.set(operand.id, kept ? { ...operand, mask: kept } : { ...operand, mask: undefined, other: undefined });
      }
    }
  });
  if (replaced.size === 0) return ir;
  // The masks' terms the loads no longer read: their `let`s go where nothing else reads them.
  const terms = new Set<number>();
  const collect = (v: Value) => {
    if (terms.has(v.id)) return;
    terms.add(v.id);
    operandsOf(v).forEach(collect);
  };
  forEachValue(ir.body, (v) => {
    if (replaced.has(v.id) && v.op === "load" && v.mask) collect(v.mask);
  });
  return { ...ir, body: withoutUnread(substituteValues(ir.body, replaced), terms) };
}

/** `body` without the `let`s of `candidates` (by id) that nothing reads, and then of those that only they read. */
function withoutUnread(body: Stmt[], candidates: ReadonlySet<number>): Stmt[] {
  for (;;) {
    const read = new Set<number>();
    forEachValue(body, (v) => operandsOf(v).forEach((o) => read.add(o.id)));
    forEachStmt(body, (s) => s.kind !== "let" && valuesOfStmt(s).forEach((v) => read.add(v.id)));
    const unread = (s: Stmt) => s.kind === "let" && candidates.has(s.value.id) && !read.has(s.value.id);
    let removed = false;
    const statements = (list: Stmt[]): Stmt[] =>
      list.filter((s) => !(unread(s) && (removed = true))).map((s) => mapStmt(s, (v) => v, statements));
    body = statements(body);
    if (!removed) return body;
  }
}

/** Whether `v` is read by nothing, or reaches through casts read by nothing else a store as its value (collected in `stores`). */
function intoStores(v: Value, readers: ReadonlyMap<number, (Value | Stmt)[]>, stores: Stmt[]): boolean {
  const by = readers.get(v.id) ?? [];
  if (by.length === 0) return true;
  if (by.length !== 1) return false;
  const [r] = by;
  if ("op" in r) return r.op === "cast" && intoStores(r, readers, stores);
  if (r.kind !== "store" || r.value !== v || r.mask === undefined) return false;
  stores.push(r);
  return true;
}

/** The terms of a mask's `&&`, each without the broadcasts around it. */
function conjuncts(mask: Value): Value[] {
  if (mask.op === "binary" && mask.fn === "land") return [...conjuncts(mask.lhs), ...conjuncts(mask.rhs)];
  return [unbroadcast(mask)];
}

function unbroadcast(v: Value): Value {
  return v.op === "broadcast" ? unbroadcast(v.value) : v;
}

/** A comparison of a 2-D block of extent 1 on every axis but `along`: an edge of rows (0) or columns (1). */
function edgeOnly(term: Value, along: 0 | 1): boolean {
  const shape = term.type.shape;
  return term.op === "binary" && ["lt", "le", "gt", "ge"].includes(term.fn) && shape.length === 2 && shape[1 - along] === 1;
}

/** A comparison's identity: the same comparison of the same values, reshaped and splatted alike. */
function key(v: Value): string {
  const shape = `[${v.type.shape.join(",")}]`;
  if (v.op === "binary") return `${v.fn}(${key(v.lhs)},${key(v.rhs)})${shape}`;
  if (v.op === "reshape" || v.op === "splat" || v.op === "broadcast") return `${v.op}(${key(v.value)})${shape}`;
  return `v${v.id}`;
}

/**
 * The mask without the terms `drop` accepts: the mask itself where none goes, one side of its top
 * `&&` where the other side goes whole, undefined where all of it goes; the mask itself otherwise
 * (a term deeper in, whose removal would need a new value).
 */
function dropped(mask: Value, drop: (term: Value) => boolean): Value | undefined {
  const gone = (v: Value) => conjuncts(v).every(drop);
  if (gone(mask)) return undefined;
  if (mask.op !== "binary" || mask.fn !== "land") return mask;
  if (gone(mask.lhs) && !conjuncts(mask.rhs).some(drop)) return mask.rhs;
  if (gone(mask.rhs) && !conjuncts(mask.lhs).some(drop)) return mask.lhs;
  return mask;
}

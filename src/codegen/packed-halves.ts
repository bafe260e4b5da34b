// f16 runs held two halves to a 32-bit register, and f16 runs read from rows not known aligned.
//
// Packed prefetch (CodegenOptions.mmaPackedPrefetch). The pipelining rewrite (pipeline.ts) carries
// the next trip's operand tiles of a tl.dot in loop variables, one register per element: a half in
// a 32-bit register, so at 128×128×32 over 4 subgroups A and B held 64 registers through the
// multiplies where the hand-written kernel (bench/mma-kernels.ts) holds the same halves in 32
// (`vec4<u32>`, 8 halves each; bench/NOTES.md §21 item 3). Here each run of 4 halves of such a
// variable, of the loads that fill it and of its read is one `vec2<u32>`: the loads move their
// `vec4<f16>` in whole, the variable carries them, and the staging stores (mma-transfer.ts) take
// each half out with a bitcast, as the hand-written kernel does. The pointer variables the loop
// advances (`a_ptrs`) were kept one register per run of 4 (generator.ts runStride): with the
// packing they keep one, the others offsets of the strides (8 + 8 → 1 + 1 at that shape; §28).
//
// Shifted runs (CodegenOptions.shiftedHalfRows). A run of 4 halves that may start anywhere (a row
// stride not a multiple of 4, as K = 1003 gives A) is read as the two aligned vec4<f16> that
// cover it, and the run taken out of their 8 halves with the shift p mod 4 in 32-bit words:
// 2 loads of 8 bytes per 4 halves instead of 4 of 2 bytes (bench/NOTES.md §25 end). In runs of 8
// (shiftedHalfRows "chunks", load-forms.ts readsChunks) a run of 8 is read as the two aligned 16-byte
// chunks that cover it and held packed as one vec4<u32>, as runs known aligned are.

import type { Stmt, Value, ValueType, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import type { Emitter } from "./emitter";
import { knownWhole, readsChunks, readsOctets, readsShifted, readsWide, type AccessFacts } from "./load-forms";
import { staged, type MmaPlan } from "./mma-plan";
import { affine, render, uniform, type Sym } from "./mma-store";
import { tileOffset } from "./layout";

/** What is held packed: prefetch variables, and the loads and reads of them (by id). */
export interface PackedHalves {
  readonly variables: ReadonlySet<number>;
  readonly values: ReadonlySet<number>;
  /**
   * Of those, the ones whose loads read 8 halves at a time (runs of 8, load-forms.ts readsOctets):
   * held one vec4<u32> per run of 8, so the 16-byte load lands in the variable's own registers.
   */
  readonly octets: ReadonlySet<number>;
  /**
   * Of the octets, the variables and loads read in shifted chunks (load-forms.ts readsChunks): each run
   * of 8 carried as the two aligned chunks that cover it and its start mod 8 (`chunkRegisters`), and
   * shifted where the variable is read, on the next trip, so the loads are not waited on where they
   * are issued (bench/NOTES.md §78).
   */
  readonly shifts: ReadonlySet<number>;
  /**
   * With them, the loop's pointer variables (`a_ptrs`) kept as their first register alone, by
   * variable id: register j is it plus Δrow_j · row + Δcol_j · col, the strides scalars known before
   * the variable, so the loop carries one register per operand, not one per run of 4.
   */
  readonly bases: ReadonlyMap<number, { row: Sym; col: Sym }>;
}

export const NO_PACKED: PackedHalves = { variables: new Set(), values: new Set(), octets: new Set(), shifts: new Set(), bases: new Map() };

/**
 * The four registers of a run of 8 carried in shifted chunks (PackedHalves.shifts), from the run's
 * own register name: the chunk it starts in and the next (`vec4<u32>`), its start mod 8 (`u32`), and
 * the mask of its halves after the shift (`vec4<u32>`, 0xffff a half kept), so a masked load is not
 * waited on where it is issued either (memory.ts chunkRunLoad). Their types are CHUNK_REGISTER_TYPES.
 */
export function chunkRegisters(name: string): [string, string, string, string] {
  return [name, `${name}q`, `${name}s`, `${name}m`];
}

export const CHUNK_REGISTER_TYPES = ["vec4<u32>", "vec4<u32>", "u32", "vec4<u32>"] as const;

/** A run carried in shifted chunks, read: shifted, and its masked halves zeroed. */
export function chunkRead(name: string): string {
  const [p, q, s, m] = chunkRegisters(name);
  return `(kl_shifted8(${p}, ${q}, ${s}) & ${m})`;
}

/** Halves per packed register of a packed variable or value: 8 (a vec4<u32>) or 4 (a vec2<u32>). */
export function packedRun(packed: PackedHalves, id: number): 4 | 8 {
  return packed.octets.has(id) ? 8 : 4;
}

type Load = Value & { op: "load" };

/**
 * The loop variables that carry a loop plan's staged operand from one trip to the next (the
 * pipelining rewrite's `prefetch_…`), packed where: the variable is f16, declared from a load and
 * assigned once, at its loop's top level, from a load; both loads read every run whole (known
 * aligned and masked per run, or shifted); and its one read feeds that dot's staging alone.
 */
export function planPackedHalves(body: readonly Stmt[], plans: ReadonlyMap<number, MmaPlan>, facts: AccessFacts): PackedHalves {
  if (facts.options.mmaPackedPrefetch !== true) return NO_PACKED;
  const declared = new Map<number, Value>();
  const assigned = new Map<number, Value[]>();
  const reads = new Map<number, Value[]>();
  const users = new Map<number, Set<number | "statement">>();
  const use = (id: number, by: number | "statement") => (users.get(id) ?? users.set(id, new Set()).get(id)!).add(by);
  forEachStmt(body, (s) => {
    if (s.kind === "declare") declared.set(s.variable.id, s.init);
    if (s.kind === "assign") (assigned.get(s.variable.id) ?? assigned.set(s.variable.id, []).get(s.variable.id)!).push(s.value);
    if (s.kind !== "let" && s.kind !== "declare" && s.kind !== "assign") valuesOfStmt(s).forEach((v) => use(v.id, "statement"));
  });
  forEachValue(body, (v) => {
    if (v.op === "readVar") (reads.get(v.variable.id) ?? reads.set(v.variable.id, []).get(v.variable.id)!).push(v);
    operandsOf(v).forEach((o) => use(o.id, v.id));
  });
  const readsWhole = (v: Value | undefined): v is Load =>
    v?.op === "load" && ((readsWide(facts, v) && (knownWhole(facts, v) || readsShifted(facts, v))) || readsChunks(facts, v)) && facts.layout(v.type).vec === 4 && facts.layout(v.type).ept % 4 === 0;
  const readsEights = (v: Load) => readsOctets(facts, v) || readsChunks(facts, v);
  const onlyUsedBy = (v: Value, allowed: readonly number[]) => [...(users.get(v.id) ?? [])].every((u) => u !== "statement" && allowed.includes(u));
  const variables = new Set<number>();
  const values = new Set<number>();
  const octets = new Set<number>();
  const shifts = new Set<number>();
  for (const plan of plans.values()) {
    if (plan.kind !== "loop" || !plan.loop) continue;
    const dot = plan.dot;
    for (const operand of [dot.a, dot.b]) {
      const read = staged(operand).value;
      if (read.op !== "readVar" || read.type.kind !== "data" || read.type.dtype !== "f16") continue;
      const variable: Variable = read.variable;
      const init = declared.get(variable.id);
      const fills = assigned.get(variable.id) ?? [];
      const inLoop = plan.loop.body.some((s) => s.kind === "assign" && s.variable.id === variable.id);
      if (!readsWhole(init) || fills.length !== 1 || !inLoop || !readsWhole(fills[0]) || (reads.get(variable.id) ?? []).length !== 1) continue;
      // The read feeds the dot (or the tl.trans it stages) and nothing else; the loads fill the variable only.
      if (!onlyUsedBy(read, operand === read ? [dot.id] : [operand.id]) || (operand !== read && !onlyUsedBy(operand, [dot.id]))) continue;
      if (!onlyUsedBy(init, []) || !onlyUsedBy(fills[0], [])) continue;
      variables.add(variable.id);
      for (const v of [init, fills[0], read]) values.add(v.id);
      if (readsEights(init) && readsEights(fills[0])) for (const id of [variable.id, init.id, fills[0].id, read.id]) octets.add(id);
      if (readsChunks(facts, init) && readsChunks(facts, fills[0])) for (const id of [variable.id, init.id, fills[0].id]) shifts.add(id);
    }
  }
  return { variables, values, octets, shifts, bases: variables.size > 0 ? baseCarried(body, facts) : new Map() };
}

/**
 * The top-level 2-D pointer or i32 variables of a tiled layout declared affine in the block's
 * indices (element (i, j) at base + i · row + j · col, row and col scalars from parameters and
 * program ids defined before the declaration) and only ever assigned themselves plus the same
 * amount for every element (`a_ptrs += BLOCK_K * stride_ak`): their registers keep their distances.
 */
function baseCarried(body: readonly Stmt[], facts: AccessFacts): Map<number, { row: Sym; col: Sym }> {
  const out = new Map<number, { row: Sym; col: Sym }>();
  const position = new Map<number, number>();
  body.forEach((s, i) => (s.kind === "let" ? position.set(s.value.id, i) : undefined));
  const assigns = new Map<number, Value[]>();
  forEachStmt(body, (s) => (s.kind === "assign" ? (assigns.get(s.variable.id) ?? assigns.set(s.variable.id, []).get(s.variable.id)!).push(s.value) : undefined));
  body.forEach((s, at) => {
    if (s.kind !== "declare" || s.variable.type.shape.length !== 2) return;
    const type = s.variable.type;
    if (type.kind === "data" && type.dtype !== "i32") return;
    const layout = facts.layout(type);
    if (!layout.tile || layout.ept < 2) return;
    const visible = (v: Value) => (position.get(v.id) ?? Infinity) < at && uniform(v);
    const init = affine(s.init, visible);
    if (!init || init.coefs.length !== 2) return;
    const uniformStep = (v: Value) => {
      if (v.op !== "ptrAdd" && !(v.op === "binary" && v.fn === "add")) return false;
      const [l, r] = v.op === "ptrAdd" ? [v.ptr, v.offset] : [v.lhs, v.rhs];
      const self = (x: Value) => x.op === "readVar" && x.variable.id === s.variable.id;
      const step = self(l) ? r : self(r) ? l : undefined;
      const a = step && affine(step, () => true);
      return !!a && a.coefs.every((c) => c === 0);
    };
    if ((assigns.get(s.variable.id) ?? []).every(uniformStep)) out.set(s.variable.id, { row: init.coefs[0], col: init.coefs[1] });
  });
  return out;
}

/** Register j of a base-carried variable (`first`: its register 0), in its tiled layout. */
export function baseCarriedRegister(ctx: Emitter, type: ValueType, strides: { row: Sym; col: Sym }, first: string, j: number): string {
  const layout = ctx.layout(type);
  const offset = tileOffset(layout.tile!, ctx.workgroupSize, j);
  const cols = type.shape[1];
  const term = (n: number, s: Sym) => (n === 0 || s === 0 ? "" : typeof s === "number" ? `${n * s}i` : n === 1 ? render(ctx, s) : `${n}i * ${render(ctx, s)}`);
  const terms = [term(Math.floor(offset / cols), strides.row), term(offset % cols, strides.col)].filter(Boolean);
  return terms.length === 0 ? first : `(${first} + ${terms.join(" + ")})`;
}

/** Whether some loop plan stages an f16 operand carried from the trip before (pipeline.ts): what `mmaPackedPrefetch` may pack. */
export function stagesPrefetchedHalves(plans: ReadonlyMap<number, MmaPlan>): boolean {
  return [...plans.values()].some((p) => p.kind === "loop" && [p.dot.a, p.dot.b].some((o) => {
    const v = staged(o).value;
    return v.op === "readVar" && v.type.kind === "data" && v.type.dtype === "f16";
  }));
}

/** Half `lane` of a run held as a vec2<u32> (lanes 0–3) or, with runs of 8, a vec4<u32> (lanes 0–7). */
export function packedHalf(run: string, lane: number): string {
  return `bitcast<vec2<f16>>(${run}.${"xyzw"[lane >> 1]}).${"xy"[lane & 1]}`;
}

/** Four halves (WGSL f16 expressions) as one vec2<u32>. */
export function packHalves(halves: readonly string[]): string {
  return `bitcast<vec2<u32>>(vec4<f16>(${halves.join(", ")}))`;
}

/**
 * Emits the read of the 4 halves from element `ptr` (an i32 expression; any alignment) of
 * `b_<param>` (bound as vec4<f16>) and returns the name of a vec2<u32> holding them. With
 * `masks` (4 WGSL bools), a run with every lane off reads vec4 0, and the upper vec4 is read only
 * within the buffer (a run whose lanes past the end are off); those lanes' halves are garbage and
 * the caller selects `other` for them.
 */
export function emitShiftedRun(ctx: Emitter, param: string, ptr: string, masks?: readonly string[]): string {
  const [q, h, lo, hi, s, up, t, r] = ["sq", "sh", "slo", "shi", "ss", "sup", "st", "srun"].map((p) => ctx.fresh(p));
  const array = `b_${param}`;
  if (masks) {
    const any = ctx.fresh("sany");
    ctx.emit(`let ${any} = ${masks.join(" | ")};`);
    ctx.emit(`let ${q} = select(0i, ${ptr} >> 2u, ${any});`);
    ctx.emit(`let ${h} = select(${q}, min((${ptr} + 3i) >> 2u, i32(arrayLength(&${array})) - 1i), ${any});`);
  } else {
    // Every half of the run is inside the buffer: so is the vec4 of its last, which is the first's where the run is aligned.
    ctx.emit(`let ${q} = ${ptr} >> 2u;`);
    ctx.emit(`let ${h} = (${ptr} + 3i) >> 2u;`);
  }
  ctx.emit(`let ${lo} = bitcast<vec2<u32>>(${array}[${q}]);`);
  ctx.emit(`let ${hi} = bitcast<vec2<u32>>(${array}[${h}]);`);
  // Halves s … s + 3 of lo ‖ hi: whole words from word s / 2, then half a word more where s is odd.
  ctx.emit(`let ${s} = u32(${ptr}) & 3u;`);
  ctx.emit(`let ${up} = ${s} >= 2u;`);
  ctx.emit(`let ${t} = vec3(select(${lo}.x, ${lo}.y, ${up}), select(${lo}.y, ${hi}.x, ${up}), select(${hi}.x, ${hi}.y, ${up}));`);
  ctx.emit(`let ${r} = select(${t}.xy, (${t}.xy >> vec2(16u)) | (${t}.yz << vec2(16u)), (${s} & 1u) == 1u);`);
  return r;
}

/**
 * 8 halves from half `a` mod 8 (its low 3 bits alone are read) of the 16 halves of two consecutive
 * 16-byte chunks p ‖ q, as one vec4<u32> (readsChunks, memory.ts): shifted down by 4 halves (two
 * words), then by 2 (one word), each by select, then by 1 where `a` is odd (a funnel shift of 16
 * bits). Where `a` is 0 mod 8, q is not used. As bench/mma-kernels.ts `shifted8` (bench/NOTES.md §75).
 */
export const SHIFTED8_WGSL = `fn kl_shifted8(p: vec4<u32>, q: vec4<u32>, a: u32) -> vec4<u32> {
  let four = (a & 4u) != 0u;
  let two = (a & 2u) != 0u;
  let t = select(p.xyz, vec3<u32>(p.zw, q.x), four);
  let u = select(vec3<u32>(p.w, q.xy), q.yzw, four);
  let lo = select(vec4<u32>(t, u.x), vec4<u32>(t.yz, u.xy), two);
  let hi = select(vec4<u32>(t.yz, u.xy), vec4<u32>(t.z, u), two);
  return select(lo, (lo >> vec4<u32>(16u)) | (hi << vec4<u32>(16u)), (a & 1u) != 0u);
}
`;

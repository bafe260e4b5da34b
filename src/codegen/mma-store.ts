// The accumulator of a loop on subgroup matrices stored straight from the matrices into the output
// buffer (subgroupMatrixStore), where tutorial 03 writes `tl.store(c_ptrs, acc, mask)` after the loop.
// Moving the accumulator into registers first goes through workgroup memory a few rows at a time
// (mma-transfer.ts `transfer`, two barriers per chunk); on the H200 a hand-written 128×128×32 f16 matmul ran at
// 154 TFLOP/s that way against 229–241 storing from the matrices (bench/NOTES.md §21).
//
// It applies when, at the kernel's top level, `tl.store(ptr, acc, mask)` follows the loop with the
// loop plan's accumulator itself (started as tl.zeros, read nowhere else after the loop), when the
// pointers are affine in the block's indices — element (i, j) at base + i·rowStride + j, with base and
// rowStride scalars (Triton's stride_cn = 1, known from the launch's specialisation) — and the mask
// is a conjunction of `affine < scalar` tests. At run time, when the whole tile is inside the mask and
// base and rowStride are multiples of 4 (16-byte rows), every subgroup stores its matrices; any other
// tile (the edges; a misaligned C) stores from the matrices too, one matrix a subgroup at a time
// through a slice of workgroup memory, element by element where the mask holds; or, where the
// mask's tests are not per element or CodegenOptions.mmaEdgeSlices is false, moves the accumulator
// into registers and stores as written. The slices take 1 KiB a subgroup where the transfer array
// took 8–33 KiB: beside the operands' 18.5 KiB, 16.5 KiB of it cost the H100 44% at 128×128 over
// 4 subgroups (bench/NOTES.md §44).
// The output buffer is then addressed element by element (no vec4 binding): its only other stores
// are those edge tiles'.

import type { Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachValue, valuesOfStmt } from "../ir/walk";
import type { Emitter } from "./emitter";
import type { MmaPlan } from "./mma-plan";
import { uniformInWgsl } from "./uniformity";

/** A scalar WGSL i32 expression: a number, a top-level scalar value, or a sum, difference or product. */
export type Sym = number | Value | { sym: "+" | "-" | "*"; a: Sym; b: Sym };
/** A block's elements: element (i₀, i₁, …) = base + Σ coef_k · i_k. */
export interface Affine { base: Sym; coefs: Sym[] }

/**
 * One conjunct of a mask over a whole tile: `x < n` as the largest x and the bound, or a scalar (the
 * same for every element). `x`, where the test is on the tile's own axes (not a mask broadcast from
 * another rank or reshaped), is x of element (i₀, i₁, …): what the edge tiles' store tests per element.
 */
export type TileBound = { max: Sym; bound: Sym; inclusive: boolean; x?: { base: Sym; coefs: number[] } } | { cond: Value };

/** A store the loop plan's matrices write themselves: the pointers' row stride and the mask's tests. */
export interface DirectStore {
  plan: MmaPlan;
  base: Sym;
  rowStride: Sym;
  /** Each `x < n` (or ≤) of the mask as: the largest x over the tile, the bound, inclusive or not; or a scalar condition. */
  bounds: TileBound[];
  /**
   * The blocks between the loop and the store that only the store uses (its pointers and mask, one
   * register each): emitted on the fallback way only, so that their registers are not live beside
   * the matrices (on the H200 they raised the kernel's registers: 138.6 → 114.7 TFLOP/s at 128×128×32).
   */
  deferred: Value[];
  /**
   * The edge tiles' way stores from the matrices too, one matrix a subgroup at a time through its own
   * slice of workgroup memory, each element where the mask holds (mma.ts storeEdgeMatrices): no
   * registers, and no transfer array beside the operands' (CodegenOptions.mmaEdgeSlices). Otherwise
   * the accumulator moves into registers and the store runs as written.
   */
  slices: boolean;
}

/** The top-level stores of `body` that the loop plans' matrices can write directly, by statement. */
export function planDirectStores(body: readonly Stmt[], plans: ReadonlyMap<number, MmaPlan>, instrumented: boolean, slices = true): Map<Stmt, DirectStore> {
  const out = new Map<Stmt, DirectStore>();
  if (instrumented) return out;
  const topLevel = new Set<number>();
  for (const s of body) if (s.kind === "let") topLevel.add(s.value.id);
  for (const plan of plans.values()) {
    if (plan.kind !== "loop" || !plan.zeroInit) continue;
    const at = body.indexOf(plan.loop!);
    if (at < 0) continue;
    const variable = plan.variable!;
    // Every read of the accumulator outside its loop.
    const reads: Value[] = [];
    body.forEach((s, i) => {
      if (i === at) return;
      forEachValue([s], (v) => {
        if (v.op === "readVar" && v.variable.id === variable.id && !reads.some((r) => r.id === v.id)) reads.push(v);
      });
    });
    if (reads.length !== 1) continue;
    const store = body.slice(at + 1).find((s): s is Stmt & { kind: "store" } => s.kind === "store" && s.value.id === reads[0].id);
    if (!store || store.ptr.type.kind !== "pointer" || store.ptr.type.pointee !== "f32") continue;
    // The read feeds the store alone: its registers are written only on the way that needs them.
    let shared = false;
    forEachValue(body, (v) => (shared ||= operandsOf(v).some((o) => o.id === reads[0].id)));
    if (shared) continue;
    // Nothing between the loop and the store assigns the accumulator.
    const between = body.slice(at + 1, body.indexOf(store));
    if (between.some((s) => s.kind === "assign" && s.variable.id === variable.id)) continue;
    const visible = (v: Value) => topLevel.has(v.id) && body.findIndex((s) => s.kind === "let" && s.value.id === v.id) < body.indexOf(store) && uniform(v);
    const ptr = affine(store.ptr, visible);
    if (!ptr || ptr.coefs.length !== 2 || ptr.coefs[1] !== 1) continue;
    const bounds = store.mask ? maskBounds(store.mask, visible) : [];
    if (!bounds) continue;
    out.set(store, { plan, base: ptr.base, rowStride: ptr.coefs[0], bounds, deferred: onlyForStore(body, at, store), slices: slices && elementTested({ bounds }) });
  }
  return out;
}

/**
 * A scalar computed from constants, parameters and program ids only: the same in every invocation,
 * and provably so to Dawn's uniformity analysis and the driver's (a branch on it may hold barriers
 * and matrix operations).
 */
export function uniform(v: Value): boolean {
  return v.type.shape.length === 0 && uniformInWgsl(v, () => false);
}

/** Pure block values of `let`s between the loop (at `loop`) and `store` that nothing but the store uses, in order. */
function onlyForStore(body: readonly Stmt[], loop: number, store: Stmt & { kind: "store" }): Value[] {
  const end = body.indexOf(store);
  const candidates = new Set<number>();
  for (let i = loop + 1; i < end; i++) {
    const s = body[i];
    if (s.kind === "let" && s.value.type.shape.length > 0 && PURE_BLOCK_OPS.has(s.value.op)) candidates.add(s.value.id);
  }
  // Users of each value: other values (as operands) and statements other than `let` (the store's own uses are allowed).
  const users: Users = new Map();
  forEachValue(body, (v) => operandsOf(v).forEach((o) => addUse(users, o.id, v.id)));
  for (const s of body) if (s.kind !== "let" && s !== store) valuesOfStmt(s).forEach((v) => addUse(users, v.id, "statement"));
  keepOnlyAmongThemselves(candidates, users);
  return body.slice(loop + 1, end).flatMap((s) => (s.kind === "let" && candidates.has(s.value.id) ? [s.value] : []));
}

/** Block values computed from their operands alone: they can move to where they are used. */
export const PURE_BLOCK_OPS: ReadonlySet<string> = new Set(["binary", "unary", "cast", "splat", "broadcast", "reshape", "arange", "ptrAdd", "const", "math", "where"]);

/** The users of each value id: other values' ids, or "statement" (a statement other than its `let`). */
export type Users = Map<number, Set<number | "statement">>;

export function addUse(users: Users, id: number, by: number | "statement"): void {
  (users.get(id) ?? users.set(id, new Set()).get(id)!).add(by);
}

/** Drops from `candidates`, until nothing changes, every value a statement or a value outside them uses. */
export function keepOnlyAmongThemselves(candidates: Set<number>, users: Users): void {
  for (let changed = true; changed;) {
    changed = false;
    for (const id of candidates) {
      if ([...(users.get(id) ?? [])].some((u) => u === "statement" || !candidates.has(u))) {
        candidates.delete(id);
        changed = true;
      }
    }
  }
}

function sum(fn: "+" | "-", a: Sym, b: Sym): Sym {
  if (typeof a === "number" && typeof b === "number") return fn === "+" ? a + b : a - b;
  if (b === 0) return a;
  if (a === 0 && fn === "+") return b;
  return { sym: fn, a, b };
}

function product(a: Sym, b: Sym): Sym {
  if (typeof a === "number" && typeof b === "number") return a * b;
  if (a === 0 || b === 0) return 0;
  if (a === 1) return b;
  if (b === 1) return a;
  return { sym: "*", a, b };
}

const integer = (v: Value) => v.type.kind === "pointer" || v.type.dtype === "i32";

/**
 * `v` as an affine function of its block's indices, or undefined. `visible`: a scalar whose WGSL name
 * the store can use; `expand`: a scalar that is not is taken apart as blocks are (sums, products, casts).
 */
export function affine(v: Value, visible: (v: Value) => boolean, expand = false): Affine | undefined {
  if (!integer(v)) return undefined;
  const rank = v.type.shape.length;
  if (rank === 0) {
    if (v.op === "const") return { base: v.value, coefs: [] };
    if (v.op === "param" && v.type.kind === "pointer") return { base: 0, coefs: [] };
    if (visible(v)) return { base: v, coefs: [] };
    if (!expand || (v.op !== "binary" && v.op !== "cast")) return undefined;
  }
  const of = (x: Value) => affine(x, visible, expand);
  switch (v.op) {
    case "arange":
      return rank === 1 ? { base: v.start, coefs: [1] } : undefined;
    case "splat": {
      const s = of(v.value);
      return s && { base: s.base, coefs: new Array<Sym>(rank).fill(0) };
    }
    case "cast":
      return of(v.value);
    case "reshape": {
      // Only axes of extent 1 added or removed ([n] → [n, 1] / [1, n]): the other axes keep their steps, in order.
      const inner = of(v.value);
      if (!inner) return undefined;
      const steps = inner.coefs.filter((_, k) => v.value.type.shape[k] !== 1);
      const wide = v.type.shape.filter((d) => d !== 1);
      if (wide.length !== steps.length || wide.some((d, k) => d !== v.value.type.shape.filter((e) => e !== 1)[k])) return undefined;
      let k = 0;
      return { base: inner.base, coefs: v.type.shape.map((d) => (d === 1 ? 0 : steps[k++])) };
    }
    case "broadcast": {
      // Axes of extent 1 widened (shapes aligned on the right, as numpy's): they add nothing.
      const inner = of(v.value);
      if (!inner) return undefined;
      const from = v.value.type.shape;
      const lead = rank - from.length;
      if (lead < 0) return undefined;
      return { base: inner.base, coefs: v.type.shape.map((_, a) => (a < lead || from[a - lead] === 1 ? 0 : inner.coefs[a - lead])) };
    }
    case "ptrAdd":
    case "binary": {
      const [l, r] = v.op === "ptrAdd" ? [v.ptr, v.offset] : [v.lhs, v.rhs];
      if (v.op === "binary" && v.fn !== "add" && v.fn !== "sub" && v.fn !== "mul") return undefined;
      const a = of(l);
      const b = of(r);
      if (!a || !b || a.coefs.length !== rank || b.coefs.length !== rank) return undefined;
      if (v.op === "ptrAdd" || v.fn === "add" || v.fn === "sub") {
        const fn = v.op === "binary" && v.fn === "sub" ? "-" : "+";
        return { base: sum(fn, a.base, b.base), coefs: a.coefs.map((c, k) => sum(fn, c, b.coefs[k])) };
      }
      // A product is affine where one side is the same for every element.
      if (b.coefs.every((c) => c === 0)) return { base: product(a.base, b.base), coefs: a.coefs.map((c) => product(c, b.base)) };
      if (a.coefs.every((c) => c === 0)) return { base: product(a.base, b.base), coefs: b.coefs.map((c) => product(a.base, c)) };
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * The tests of a mask made of `x < n`, `x <= n` (or mirrored) and scalar conditions (a splat of a
 * scalar: the pipelined loop's "a next trip exists") joined by `&&`, or undefined.
 */
function maskBounds(mask: Value, visible: (v: Value) => boolean, aligned = true): TileBound[] | undefined {
  // A broadcast keeping the rank widens axes of extent 1 only: an element's x is still the same affine function.
  if (mask.op === "broadcast") return maskBounds(mask.value, visible, aligned && mask.value.type.shape.length === mask.type.shape.length);
  if (mask.op === "reshape") return maskBounds(mask.value, visible, false);
  if (mask.op === "splat" && mask.value.type.shape.length === 0) return visible(mask.value) ? [{ cond: mask.value }] : undefined;
  if (mask.op !== "binary") return undefined;
  if (mask.fn === "land" || mask.fn === "and") {
    const [a, b] = [maskBounds(mask.lhs, visible, aligned), maskBounds(mask.rhs, visible, aligned)];
    return a && b ? [...a, ...b] : undefined;
  }
  const flip = mask.fn === "gt" || mask.fn === "ge";
  if (mask.fn !== "lt" && mask.fn !== "le" && !flip) return undefined;
  const [x, n] = flip ? [affine(mask.rhs, visible), affine(mask.lhs, visible)] : [affine(mask.lhs, visible), affine(mask.rhs, visible)];
  // x grows along each axis (non-negative constant steps), n is the same for every element.
  if (!x || !n || !n.coefs.every((c) => c === 0) || !x.coefs.every((c) => typeof c === "number" && c >= 0)) return undefined;
  const shape = (flip ? mask.rhs : mask.lhs).type.shape;
  const max = x.coefs.reduce<Sym>((acc, c, k) => sum("+", acc, (c as number) * (shape[k] - 1)), x.base);
  // An axis of extent 1 (widened by a broadcast above) adds nothing to any element's x.
  const perElement = aligned ? { x: { base: x.base, coefs: x.coefs.map((c, k) => (shape[k] === 1 ? 0 : (c as number))) } } : {};
  return [{ max, bound: n.base, inclusive: mask.fn === "le" || mask.fn === "ge", ...perElement }];
}

/** Whether every test of the store's mask can be made per element (the edge tiles' store from the matrices). */
export function elementTested(d: Pick<DirectStore, "bounds">): boolean {
  return d.bounds.every((b) => "cond" in b || (b.x !== undefined && b.x.coefs.length === 2));
}

/** The store's mask at the element in row `row`, column `col` of the tile (i32 expressions); elementTested must hold. */
export function elementTest(gen: Emitter, d: DirectStore, row: string, col: string): string {
  const tests = d.bounds.map((b) => {
    if ("cond" in b) return gen.reg(b.cond, 0);
    const [cr, cc] = b.x!.coefs;
    const terms = [render(gen, b.x!.base), ...(cr ? [cr === 1 ? row : `${cr}i * ${row}`] : []), ...(cc ? [cc === 1 ? col : `${cc}i * ${col}`] : [])];
    return `(${terms.join(" + ")}) ${b.inclusive ? "<=" : "<"} ${render(gen, b.bound)}`;
  });
  return tests.length ? tests.join(" && ") : "true";
}

/**
 * A test, on scalars only, that every element of a load's tile is inside its mask (the mask's
 * `x < n` tests at the tile's largest x), or undefined where the mask is not made of such tests.
 * Correct in each invocation whatever the scalars are: it implies each of its own elements' masks.
 * Where the scalars are the same in every invocation (program ids, parameters, loop counters) the
 * branch on it is too, and the per-element masks are needed on its other way only.
 */
export function tileInside(gen: Emitter, mask: Value): string | undefined {
  const bounds = maskBounds(mask, scalar);
  return bounds && bounds.length > 0 ? bounds.map((b) => boundTest(gen, b)).join(" && ") : undefined;
}

/** Whether tileInside has a test for `mask`. */
export function tileBounded(mask: Value): boolean {
  return (maskBounds(mask, scalar)?.length ?? 0) > 0;
}

const scalar = (v: Value) => v.type.shape.length === 0 && v.op !== "const";

function boundTest(gen: Emitter, b: TileBound): string {
  return "cond" in b ? gen.reg(b.cond, 0) : `${render(gen, b.max)} ${b.inclusive ? "<=" : "<"} ${render(gen, b.bound)}`;
}

export function render(gen: Emitter, s: Sym): string {
  if (typeof s === "number") return `${s}i`;
  if ("sym" in s) return `(${render(gen, s.a)} ${s.sym} ${render(gen, s.b)})`;
  return gen.reg(s, 0);
}

/**
 * The direct store: a test, the same in every invocation, that the whole tile is inside the mask and
 * aligned; then each subgroup's matrices; otherwise `fallback` (the accumulator into registers, the
 * store). The test is on program ids and parameters only (`uniform`): the H200's driver wrote wrong
 * values when the branch was on a value read back from workgroup memory (workgroupUniformLoad),
 * the fallback's barriers and matrix stores included (bench/NOTES.md §21).
 */
export function emitDirectStore(gen: Emitter, d: DirectStore, storeMatrices: (base: string, rowStride: string) => void, fallback: (base: string, rowStride: string) => void): void {
  const base = gen.fresh("cbase");
  const stride = gen.fresh("cstride");
  gen.emit(`let ${base} = ${render(gen, d.base)};`);
  gen.emit(`let ${stride} = ${render(gen, d.rowStride)};`);
  const tests = [`${base} >= 0i`, `${stride} >= 0i`, `(${base} & 3i) == 0i`, `(${stride} & 3i) == 0i`,
    ...d.bounds.map((b) => boundTest(gen, b))];
  const whole = gen.fresh("cwhole");
  gen.emit(`let ${whole} = ${tests.join(" && ")};`);
  gen.emit(`if (${whole}) {`);
  gen.nested(() => storeMatrices(`u32(${base})`, `u32(${stride})`));
  gen.emit("} else {");
  gen.nested(() => fallback(base, stride));
  gen.emit("}");
}

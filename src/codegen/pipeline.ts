// Software pipelining of the loads in a loop around tl.dot (Triton's num_stages = 2), as an IR
// rewrite before code generation. In a loop such as the matmul's
//
//   for (k …) { a = tl.load(a_ptrs, …); b = tl.load(b_ptrs, …); acc = tl.dot(a, b, acc); a_ptrs += …; }
//
// every trip waits for its loads, stages them in workgroup memory and multiplies: no load is in
// flight while the multiply runs. Rewritten, the loads of trip k + 1 are issued right after trip
// k's own (before its tl.dot), into loop-carried registers that the next trip uses:
//
//   pa = tl.load(<a_ptrs at the first trip>); pb = …              (before the loop)
//   for (k …) { a = pa; b = pb; pa = tl.load(<a_ptrs at trip k + 1>); pb = …; acc = tl.dot(a, b, acc); a_ptrs += …; }
//
// "a_ptrs at trip k + 1" is the value the loop assigns to a_ptrs, computed early; the counter
// becomes counter + step. A load is prefetched only where that is exactly equivalent: it sits at
// the loop's top level, its inputs are pure (indices, pointers, masks: no other load, reduction or
// dot), each variable they read is assigned once per trip, at the top level after the insertion
// point, from pure values, and the loop stores nothing into its buffer. Each prefetch is masked
// with the loop's own condition for that trip, so the one for the trip after the last (and, for a
// loop that runs no trip, the one before it) reads nothing. The interpreter and the launch checks
// run the kernel as written (compile.ts keeps that IR).
//
// Only loops that contain a tl.dot are rewritten; by default only while the dot's outputs and the
// prefetched elements per invocation fit PIPELINE_REGISTERS, and not loop nests with two or more
// dots (attention). num_stages = 2 asked for explicitly lifts both limits. On the H200 (bench/NOTES.md §5, §9):
// 128×128×16 tiles with 64 outputs + 16 prefetched per invocation ran 10–13% faster pipelined;
// with 128 outputs + 32 prefetched, 45% slower (spilled registers); layer norm's loops (no dot)
// 20–40% slower, so they are left to the driver.

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { mapOperands, numel, operandsOf } from "../ir/ir";
import { forEachStmt, substituteValues } from "../ir/walk";

interface Ids {
  value: number;
  variable: number;
  /** Dots whose accumulator lives in subgroup matrices (mma.ts): their outputs hold no registers in the loop. */
  readonly matrixDots: ReadonlySet<number>;
  /**
   * num_stages = 2 was asked for explicitly: loop nests with two or more dots are pipelined too, and
   * loops whose outputs and prefetched elements exceed PIPELINE_REGISTERS. By default neither is.
   */
  readonly explicit: boolean;
}

/** Registers per invocation (dot outputs + prefetched tile elements) up to which a loop is pipelined. */
export const PIPELINE_REGISTERS = 96;

/**
 * The kernel with its dot-operand loads pipelined where that is exactly equivalent and fits
 * the registers of `workgroupSize` invocations (else `ir` itself).
 */
export function pipelineDotLoads(ir: KernelIR, workgroupSize: number, matrixDots: ReadonlySet<number> = new Set(), explicit = false): KernelIR {
  const ids = { value: 0, variable: 0, matrixDots, explicit };
  forEachStmt(ir.body, (s) => {
    if (s.kind === "let") ids.value = Math.max(ids.value, s.value.id + 1);
    if (s.kind === "declare") ids.variable = Math.max(ids.variable, s.variable.id + 1);
    if (s.kind === "for") ids.variable = Math.max(ids.variable, s.counter.id + 1);
  });
  const body = rewrite(ir.body, ids, workgroupSize);
  return body === ir.body ? ir : { ...ir, body };
}

function rewrite(stmts: Stmt[], ids: Ids, w: number): Stmt[] {
  let changed = false;
  const out: Stmt[] = [];
  for (const s of stmts) {
    if (s.kind === "for" && !ids.explicit && dotsIn(s.body) >= 2) {
      // Attention's loop nest (Q·Kᵀ and P·V): its scores, accumulator and operands already fill
      // the registers, and prefetching made all four timed shapes 7–50% slower on the H200
      // (bench/NOTES.md §17), so loops with two or more dots are left as written.
      out.push(s);
    } else if (s.kind === "for") {
      const inner = rewrite(s.body, ids, w);
      const loop = inner === s.body ? s : { ...s, body: inner };
      const piped = pipelineLoop(loop, ids, w);
      changed ||= loop !== s || piped !== undefined;
      out.push(...(piped ?? [loop]));
    } else if (s.kind === "if") {
      const then = rewrite(s.then, ids, w);
      const otherwise = rewrite(s.else, ids, w);
      const same = then === s.then && otherwise === s.else;
      changed ||= !same;
      out.push(same ? s : { ...s, then, else: otherwise });
    } else {
      out.push(s);
    }
  }
  return changed ? out : stmts;
}

/** The tl.dot calls anywhere in `body`, nested loops and branches included. */
function dotsIn(body: Stmt[]): number {
  let n = 0;
  forEachStmt(body, (s) => {
    if (s.kind === "let" && s.value.op === "dot") n++;
  });
  return n;
}

class NotPipelinable extends Error {}

type Loop = Stmt & { kind: "for" };
type Load = Value & { op: "load" };
type ReadVar = Value & { op: "readVar" };

/** What the rewrite needs to know about a loop's body. */
interface LoopFacts {
  /** The body's top-level values by id (a reference to a named value may be a copy with its own span). */
  defined: Map<number, Value>;
  /** The top-level statement index of each of them. */
  position: Map<number, number>;
  /** Where each variable is assigned within the loop (any depth): how often, and the top-level assignment. */
  assignments: Map<number, { count: number; top?: number; value?: Value }>;
  /** The buffers the loop stores into. */
  stored: Set<string>;
  /**
   * Variables the body declares (any depth): a new one each trip, so no trip's value exists before
   * the loop (FlagGems' bmm: `mask_a` declared in the loop, its value chosen by constexpr branches).
   */
  declared: Set<number>;
}

function loopFacts(body: readonly Stmt[]): LoopFacts {
  const defined = new Map<number, Value>();
  const position = new Map<number, number>();
  body.forEach((s, i) => {
    if (s.kind !== "let") return;
    defined.set(s.value.id, s.value);
    position.set(s.value.id, i);
  });
  const assignments = new Map<number, { count: number; top?: number; value?: Value }>();
  const stored = new Set<string>();
  const declared = new Set<number>();
  body.forEach((s, i) =>
    forEachStmt([s], (t) => {
      if (t.kind === "store" && t.ptr.type.kind === "pointer") stored.add(t.ptr.type.param);
      if (t.kind === "declare") declared.add(t.variable.id);
      if (t.kind !== "assign") return;
      const a = assignments.get(t.variable.id) ?? { count: 0 };
      a.count++;
      if (t === s) Object.assign(a, { top: i, value: t.value });
      assignments.set(t.variable.id, a);
    }),
  );
  return { defined, position, assignments, stored, declared };
}

interface Cloner {
  lets: Stmt[];
  clone: (v: Value, root?: Value) => Value;
}

/** Copies of a loop body's pure values, emitted as new lets with fresh ids. */
class Cloners {
  constructor(
    private readonly loop: Loop,
    private readonly facts: LoopFacts,
    private readonly ids: Ids,
  ) {}

  fresh(v: Value): Value {
    return { ...v, id: this.ids.value++ };
  }

  readVar(v: ReadVar, lets: Stmt[]): Value {
    const r = this.fresh(v);
    lets.push({ kind: "let", value: r });
    return r;
  }

  /** Clones pure values of the body as lets (the one load `root` included), reading variables as `read` says. */
  cloner(read: (v: ReadVar) => Value): Cloner {
    const lets: Stmt[] = [];
    const memo = new Map<number, Value>();
    const clone = (v: Value, root?: Value): Value => {
      const known = memo.get(v.id);
      if (known) return known;
      let result: Value;
      if (!this.facts.defined.has(v.id)) result = v;
      else if (v.op === "readVar") result = read(v);
      else if (v.op === "reduce" || v.op === "dot" || v.op === "scan" || v.op === "reduceWith" || v.op === "concat" || v.op === "gather" || v.op === "histogram" || v.op === "sort" || (v.op === "load" && v.id !== root?.id)) throw new NotPipelinable();
      else {
        result = this.fresh(mapOperands(v, (o) => clone(o, root)));
        lets.push({ kind: "let", value: result });
      }
      memo.set(v.id, result);
      return result;
    };
    return { lets, clone };
  }

  /** Trip k + 1's values, computed at top-level index `at` (NotPipelinable when they can't be, exactly). */
  next(at: number): Cloner {
    const { loop, ids } = this;
    const assignments = this.facts.assignments;
    const nextValues = new Map<number, Value>();
    const next = this.cloner((v) => {
      if (v.variable.id === loop.counter.id) {
        const counter = this.readVar(v, next.lets);
        const sum: Value = { id: ids.value++, span: v.span, type: v.type, op: "binary", fn: "add", lhs: counter, rhs: loop.step };
        next.lets.push({ kind: "let", value: sum });
        return sum;
      }
      // A variable of the body's own holds nothing before the loop or between trips to read early.
      if (this.facts.declared.has(v.variable.id)) throw new NotPipelinable();
      const a = assignments.get(v.variable.id);
      if (!a) return this.readVar(v, next.lets);
      if (a.count !== 1 || a.top === undefined || a.top < at || !a.value) throw new NotPipelinable();
      const known = nextValues.get(v.variable.id);
      if (known) return known;
      // The assigned value, computed now: its own reads of this variable see the current value.
      const own = this.cloner((u) => {
        if (u.variable.id === v.variable.id || (u.variable.id !== loop.counter.id && !assignments.has(u.variable.id))) return this.readVar(u, own.lets);
        throw new NotPipelinable();
      });
      const value = own.clone(a.value);
      next.lets.push(...own.lets);
      nextValues.set(v.variable.id, value);
      return value;
    });
    return next;
  }

  /**
   * A clone of load `l` masked with the loop's own condition for `counter`, so a prefetch for a
   * trip that doesn't run reads nothing (as Triton's pipeliner does).
   */
  guarded(cloner: Cloner, l: Load, counter: Value): Value {
    const { loop, ids } = this;
    const lets = cloner.lets;
    const c = cloner.clone(l, l) as Load;
    const unguarded = lets.findIndex((s) => s.kind === "let" && s.value === c);
    if (unguarded >= 0) lets.splice(unguarded, 1); // replaced by the guarded load below
    const span = l.span;
    const cond: Value = { id: ids.value++, span, type: { kind: "data", dtype: "bool", shape: [] }, op: "binary", fn: loop.cmp, lhs: counter, rhs: loop.end };
    const block: Value = l.type.shape.length === 0 ? cond : { id: ids.value++, span, type: { kind: "data", dtype: "bool", shape: l.type.shape }, op: "splat", value: cond };
    const mask: Value = c.mask ? { id: ids.value++, span, type: block.type, op: "binary", fn: "land", lhs: c.mask, rhs: block } : block;
    const load: Value = { ...c, id: ids.value++, mask };
    lets.push(...[cond, block, mask].filter((v, i, all) => all.indexOf(v) === i && v !== c.mask).map((value): Stmt => ({ kind: "let", value })), { kind: "let", value: load });
    return load;
  }
}

/**
 * The loads to prefetch: at the loop's top level, from buffers the loop doesn't store into, with
 * inputs computable one trip early (they are issued right after the last of them).
 */
function prefetchable(body: readonly Stmt[], facts: LoopFacts, cloners: Cloners): Load[] {
  const candidates = body.flatMap((s) => (s.kind === "let" && s.value.op === "load" && s.value.ptr.type.kind === "pointer" && !facts.stored.has(s.value.ptr.type.param) ? [s.value] : []));
  if (candidates.length === 0) return [];
  const lastCandidate = Math.max(...candidates.map((l) => facts.position.get(l.id)!));
  const feasible = (l: Value) => {
    try {
      cloners.next(lastCandidate).clone(l, l);
      return true;
    } catch (e) {
      if (e instanceof NotPipelinable) return false;
      throw e;
    }
  };
  return candidates.filter(feasible) as Load[];
}

/** The statements replacing `loop` (a preheader, then the rewritten loop), or undefined. */
function pipelineLoop(loop: Loop, ids: Ids, w: number): Stmt[] | undefined {
  const body = loop.body;
  const facts = loopFacts(body);
  if (facts.assignments.has(loop.counter.id)) return undefined;
  // A break or continue would skip the hand-over of the prefetched operands to the next trip.
  if (leavesEarly(body)) return undefined;
  const cloners = new Cloners(loop, facts, ids);
  const loads = prefetchable(body, facts, cloners);
  if (loads.length === 0) return undefined;
  const at = Math.max(...loads.map((l) => facts.position.get(l.id)!)) + 1;
  const registers = (v: Value) => Math.ceil(numel(v.type.shape) / w);
  // Only loops around tl.dot: there a trip's loads wait behind two barriers and a multiply, and
  // prefetching measured +13% on the H200. Layer norm's loops ran 20–40% slower prefetched (the
  // driver overlaps their loads itself), so other loops are left as written (bench/NOTES.md §9).
  const dots = body.flatMap((s) => (s.kind === "let" && s.value.op === "dot" ? [s.value] : []));
  if (dots.length === 0) return undefined;
  const held = [...dots.filter((d) => !ids.matrixDots.has(d.id)), ...loads].reduce((sum, v) => sum + registers(v), 0);
  if (held > PIPELINE_REGISTERS && !ids.explicit) return undefined;

  // Trip 1's loads, before the loop: the counter is `start`; variables hold their initial values.
  const pre = cloners.cloner((v) => (v.variable.id === loop.counter.id ? loop.start : cloners.readVar(v, pre.lets)));
  const next = cloners.next(at);
  try {
    const preLoads = loads.map((l) => cloners.guarded(pre, l, loop.start));
    const counterNow: Value = { id: ids.value++, span: loop.span, type: loop.counter.type, op: "readVar", variable: loop.counter };
    const counterNext: Value = { id: ids.value++, span: loop.span, type: loop.counter.type, op: "binary", fn: "add", lhs: counterNow, rhs: loop.step };
    next.lets.push({ kind: "let", value: counterNow }, { kind: "let", value: counterNext });
    const nextLoads = loads.map((l) => cloners.guarded(next, l, counterNext));

    const buffers: Variable[] = loads.map((l) => ({ id: ids.variable++, name: `prefetch_${l.id}`, type: l.type, span: l.span }));
    const preheader: Stmt[] = [...pre.lets, ...buffers.map((variable, i): Stmt => ({ kind: "declare", span: loads[i].span, variable, init: preLoads[i] }))];
    const prefetch: Stmt[] = [...next.lets, ...buffers.map((variable, i): Stmt => ({ kind: "assign", span: loads[i].span, variable, value: nextLoads[i] }))];

    // Each load becomes a read of its prefetch register (same id, so its users need no change).
    const replaced = new Map<number, Value>(loads.map((l, i) => [l.id, { id: l.id, span: l.span, type: l.type, op: "readVar", variable: buffers[i] } as Value]));
    const newBody = substituteValues(body, replaced);
    newBody.splice(at, 0, ...prefetch);
    return [...preheader, { ...loop, body: newBody }];
  } catch (e) {
    if (e instanceof NotPipelinable) return undefined;
    throw e;
  }
}

function leavesEarly(body: readonly Stmt[]): boolean {
  let found = false;
  forEachStmt(body, (s) => {
    found ||= s.kind === "break" || s.kind === "continue";
  });
  return found;
}

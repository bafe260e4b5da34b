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
// Only loops that contain a tl.dot are rewritten, and only while the dot's outputs and the
// prefetched elements per invocation fit PIPELINE_REGISTERS. On the H200 (bench/NOTES.md §5, §9):
// 128×128×16 tiles with 64 outputs + 16 prefetched per invocation ran 10–13% faster pipelined;
// with 128 outputs + 32 prefetched, 45% slower (spilled registers); layer norm's loops (no dot)
// 20–40% slower, so they are left to the driver.

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { mapOperands, numel, operandsOf } from "../ir/ir";
import { forEachStmt, mapStmt } from "../ir/walk";

interface Ids {
  value: number;
  variable: number;
}

/** Registers per invocation (dot outputs + prefetched tile elements) up to which a loop is pipelined. */
export const PIPELINE_REGISTERS = 96;

/**
 * The kernel with its dot-operand loads pipelined where that is exactly equivalent and fits
 * the registers of `workgroupSize` invocations (else `ir` itself).
 */
export function pipelineDotLoads(ir: KernelIR, workgroupSize: number): KernelIR {
  const ids = { value: 0, variable: 0 };
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
    if (s.kind === "for") {
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

class NotPipelinable extends Error {}

/** The statements replacing `loop` (a preheader, then the rewritten loop), or undefined. */
function pipelineLoop(loop: Stmt & { kind: "for" }, ids: Ids, w: number): Stmt[] | undefined {
  const body = loop.body;
  // Values are identified by id: a reference to a named value may be a copy with its own span.
  const defined = new Map<number, Value>();
  const position = new Map<number, number>();
  body.forEach((s, i) => {
    if (s.kind !== "let") return;
    defined.set(s.value.id, s.value);
    position.set(s.value.id, i);
  });

  // Where each variable is assigned within the loop (any depth), and which buffers it stores to.
  const assignments = new Map<number, { count: number; top?: number; value?: Value }>();
  const stored = new Set<string>();
  body.forEach((s, i) =>
    forEachStmt([s], (t) => {
      if (t.kind === "store" && t.ptr.type.kind === "pointer") stored.add(t.ptr.type.param);
      if (t.kind !== "assign") return;
      const a = assignments.get(t.variable.id) ?? { count: 0 };
      a.count++;
      if (t === s) Object.assign(a, { top: i, value: t.value });
      assignments.set(t.variable.id, a);
    }),
  );
  if (assignments.has(loop.counter.id)) return undefined;

  const fresh = (v: Value): Value => ({ ...v, id: ids.value++ });
  const readVar = (v: Value & { op: "readVar" }, lets: Stmt[]): Value => {
    const r = fresh(v);
    lets.push({ kind: "let", value: r });
    return r;
  };
  /** Clones pure values of the body as lets (the one load `root` included), reading variables as `read` says. */
  const cloner = (read: (v: Value & { op: "readVar" }) => Value) => {
    const lets: Stmt[] = [];
    const memo = new Map<number, Value>();
    const clone = (v: Value, root?: Value): Value => {
      const known = memo.get(v.id);
      if (known) return known;
      let result: Value;
      if (!defined.has(v.id)) result = v;
      else if (v.op === "readVar") result = read(v);
      else if (v.op === "reduce" || v.op === "dot" || (v.op === "load" && v.id !== root?.id)) throw new NotPipelinable();
      else {
        result = fresh(mapOperands(v, (o) => clone(o, root)));
        lets.push({ kind: "let", value: result });
      }
      memo.set(v.id, result);
      return result;
    };
    return { lets, clone };
  };
  /** Trip k + 1's value of a variable, computed at `at` (undefined when it can't be, exactly). */
  const nextCloner = (at: number) => {
    const nextValues = new Map<number, Value>();
    const next = cloner((v) => {
      if (v.variable.id === loop.counter.id) {
        const counter = readVar(v, next.lets);
        const sum: Value = { id: ids.value++, span: v.span, type: v.type, op: "binary", fn: "add", lhs: counter, rhs: loop.step };
        next.lets.push({ kind: "let", value: sum });
        return sum;
      }
      const a = assignments.get(v.variable.id);
      if (!a) return readVar(v, next.lets);
      if (a.count !== 1 || a.top === undefined || a.top < at || !a.value) throw new NotPipelinable();
      const known = nextValues.get(v.variable.id);
      if (known) return known;
      // The assigned value, computed now: its own reads of this variable see the current value.
      const own = cloner((u) => {
        if (u.variable.id === v.variable.id || (u.variable.id !== loop.counter.id && !assignments.has(u.variable.id))) return readVar(u, own.lets);
        throw new NotPipelinable();
      });
      const value = own.clone(a.value);
      next.lets.push(...own.lets);
      nextValues.set(v.variable.id, value);
      return value;
    });
    return next;
  };

  // The loads to prefetch: at the loop's top level, from buffers the loop doesn't store into,
  // with inputs computable one trip early. They are issued right after the last of them.
  const candidates = body.flatMap((s) => (s.kind === "let" && s.value.op === "load" && s.value.ptr.type.kind === "pointer" && !stored.has(s.value.ptr.type.param) ? [s.value] : []));
  if (candidates.length === 0) return undefined;
  const lastCandidate = Math.max(...candidates.map((l) => position.get(l.id)!));
  const feasible = (l: Value) => {
    try {
      nextCloner(lastCandidate).clone(l, l);
      return true;
    } catch (e) {
      if (e instanceof NotPipelinable) return false;
      throw e;
    }
  };
  const loads = candidates.filter(feasible) as (Value & { op: "load" })[];
  if (loads.length === 0) return undefined;
  const at = Math.max(...loads.map((l) => position.get(l.id)!)) + 1;
  const registers = (v: Value) => Math.ceil(numel(v.type.shape) / w);
  // Only loops around tl.dot: there a trip's loads wait behind two barriers and a multiply, and
  // prefetching measured +13% on the H200. Layer norm's loops ran 20–40% slower prefetched (the
  // driver overlaps their loads itself), so other loops are left as written (bench/NOTES.md §9).
  const dots = body.flatMap((s) => (s.kind === "let" && s.value.op === "dot" ? [s.value] : []));
  if (dots.length === 0) return undefined;
  if ([...dots, ...loads].reduce((sum, v) => sum + registers(v), 0) > PIPELINE_REGISTERS) return undefined;

  // Trip 1's loads, before the loop: the counter is `start`; variables hold their initial values.
  const pre = cloner((v) => (v.variable.id === loop.counter.id ? loop.start : readVar(v, pre.lets)));
  const next = nextCloner(at);
  // A prefetch for a trip that doesn't run is masked off entirely (as Triton's pipeliner does),
  // so it reads nothing: the loop's own condition, for `start` before the loop and k + 1 in it.
  const guarded = (clone: (v: Value, root: Value) => Value, lets: Stmt[], l: Value & { op: "load" }, counter: Value): Value => {
    const c = clone(l, l) as Value & { op: "load" };
    const unguarded = lets.findIndex((s) => s.kind === "let" && s.value === c);
    if (unguarded >= 0) lets.splice(unguarded, 1); // replaced by the guarded load below
    const span = l.span;
    const cond: Value = { id: ids.value++, span, type: { kind: "data", dtype: "bool", shape: [] }, op: "binary", fn: loop.cmp, lhs: counter, rhs: loop.end };
    const block: Value = l.type.shape.length === 0 ? cond : { id: ids.value++, span, type: { kind: "data", dtype: "bool", shape: l.type.shape }, op: "splat", value: cond };
    const mask: Value = c.mask ? { id: ids.value++, span, type: block.type, op: "binary", fn: "land", lhs: c.mask, rhs: block } : block;
    const load: Value = { ...c, id: ids.value++, mask };
    lets.push(...[cond, block, mask].filter((v, i, all) => all.indexOf(v) === i && v !== c.mask).map((value): Stmt => ({ kind: "let", value })), { kind: "let", value: load });
    return load;
  };
  try {
    const preLoads = loads.map((l) => guarded(pre.clone, pre.lets, l, loop.start));
    const counterNow: Value = { id: ids.value++, span: loop.span, type: loop.counter.type, op: "readVar", variable: loop.counter };
    const counterNext: Value = { id: ids.value++, span: loop.span, type: loop.counter.type, op: "binary", fn: "add", lhs: counterNow, rhs: loop.step };
    next.lets.push({ kind: "let", value: counterNow }, { kind: "let", value: counterNext });
    const nextLoads = loads.map((l) => guarded(next.clone, next.lets, l, counterNext));

    const buffers: Variable[] = loads.map((l) => ({ id: ids.variable++, name: `prefetch_${l.id}`, type: l.type, span: l.span }));
    const preheader: Stmt[] = [...pre.lets, ...buffers.map((variable, i): Stmt => ({ kind: "declare", span: loads[i].span, variable, init: preLoads[i] }))];
    const prefetch: Stmt[] = [...next.lets, ...buffers.map((variable, i): Stmt => ({ kind: "assign", span: loads[i].span, variable, value: nextLoads[i] }))];

    // Each load becomes a read of its prefetch register (same id, so its users need no change).
    const replaced = new Map<number, Value>(loads.map((l, i) => [l.id, { id: l.id, span: l.span, type: l.type, op: "readVar", variable: buffers[i] } as Value]));
    const newBody = substitute(body, replaced);
    newBody.splice(at, 0, ...prefetch);
    return [...preheader, { ...loop, body: newBody }];
  } catch (e) {
    if (e instanceof NotPipelinable) return undefined;
    throw e;
  }
}

/** `stmts` with `replaced` values swapped in, and every value that reads one rebuilt (ids kept). */
function substitute(stmts: Stmt[], replaced: Map<number, Value>): Stmt[] {
  const memo = new Map<number, Value>(replaced);
  const rebuild = (v: Value): Value => {
    let result = memo.get(v.id);
    if (!result) memo.set(v.id, (result = operandsOf(v).length === 0 ? v : mapOperands(v, rebuild)));
    return result;
  };
  const statements = (list: Stmt[]): Stmt[] => list.map((s) => mapStmt(s, rebuild, statements));
  return statements(stmts);
}

// The WGSL of each IR statement kind, one entry per kind. Emission stops at the first error
// reported into the generator's log (the module is then not used).

import type { Stmt, Variable } from "../ir/ir";
import type { WgslGenerator } from "./generator";
import { varName } from "./generator";
import { emitStore } from "./memory";
import { enterMma, leaveMma, stageInvariantA, stageMmaEarly, stagedValues, storeEdgeMatrices, storeMatrices } from "./mma";
import type { MmaPlan } from "./mma-plan";
import { elementTest, emitDirectStore, type Sym } from "./mma-store";
import { CHUNK_REGISTER_TYPES, chunkRegisters, packedRun } from "./packed-halves";
import { emitAssert, emitPrint } from "./print";
import { emitValue } from "./values";
import { uniformInWgsl } from "./uniformity";
import { forEachStmt } from "../ir/walk";

type StatementEmitters = { [K in Stmt["kind"]]: (gen: WgslGenerator, s: Extract<Stmt, { kind: K }>) => void };

const COMPARISONS = { lt: "<", le: "<=", gt: ">", ge: ">=", ne: "!=" } as const;

export const STATEMENT_WGSL: StatementEmitters = {
  // The accumulator read that a direct store writes from its matrices is emitted on its fallback way only (below).
  // A mask value only a per-tile-tested load reads is emitted on that load's other way (tile-masks.ts).
  let: (gen, s) => (directRead(gen, s.value.id) || gen.tileMasks.deferred.has(s.value.id) ? undefined : emitValue(gen, s.value)),
  store: (gen, s) => {
    const direct = gen.directStores.get(s);
    if (!direct) return emitStore(gen, s);
    const plan = direct.plan;
    const array = `b_${(s.ptr.type as { param: string }).param}`;
    emitDirectStore(gen, direct, (base, stride) => storeMatrices(gen, plan, array, base, stride), (base, stride) => {
      if (direct.slices) return storeEdgeMatrices(gen, plan, array, base, stride, (row, col) => elementTest(gen, direct, row, col));
      leaveMma(gen, plan, (j) => varName(plan.variable!, j, plan.variable!.type));
      for (const v of direct.deferred) emitValue(gen, v);
      emitValue(gen, s.value);
      emitStore(gen, s);
    });
  },
  declare: (gen, s) => {
    // A prefetched f16 tile held packed (packed-halves.ts): one vec2<u32> per run of 4 halves (vec4<u32> per run of 8).
    if (gen.packed.variables.has(s.variable.id)) {
      // In shifted chunks: the run's two chunks, its start and its mask, shifted where the variable is read.
      if (gen.packed.shifts.has(s.variable.id)) {
        return eachRun(gen, s.variable, (name, j) => {
          const from = chunkRegisters(gen.valueName(s.init, j));
          chunkRegisters(name).forEach((r, i) => gen.emit(`var ${r}: ${CHUNK_REGISTER_TYPES[i]} = ${from[i]};`));
        });
      }
      const t = packedRun(gen.packed, s.variable.id) === 8 ? "vec4<u32>" : "vec2<u32>";
      return eachRun(gen, s.variable, (name, j) => gen.emit(`var ${name}: ${t} = ${gen.valueName(s.init, j)};`));
    }
    // A pointer variable carried as its first register alone (packed-halves.ts): the others are offsets from it.
    if (gen.packed.bases.has(s.variable.id)) return gen.emit(`var ${varName(s.variable, 0, s.variable.type)}: ${gen.typeOf(s.variable.type)} = ${gen.reg(s.init, 0)};`);
    const t = gen.typeOf(s.variable.type);
    const runs = gen.runStride(s.variable);
    gen.registers(s.variable.type, (j) => {
      if (runs === undefined || j % 4 === 0) gen.emit(`var ${varName(s.variable, j, s.variable.type)}: ${t} = ${gen.reg(s.init, j)};`);
    });
  },
  assign: (gen, s) => {
    // The accumulator of a dot on subgroup matrices stays in them for the loop (mma.ts).
    if (gen.mma.get(s.value.id)?.variable?.id === s.variable.id) return;
    if (gen.packed.shifts.has(s.variable.id)) {
      return eachRun(gen, s.variable, (name, j) => {
        const from = chunkRegisters(gen.valueName(s.value, j));
        chunkRegisters(name).forEach((r, i) => gen.emit(`${r} = ${from[i]};`));
      });
    }
    if (gen.packed.variables.has(s.variable.id)) return eachRun(gen, s.variable, (name, j) => gen.emit(`${name} = ${gen.valueName(s.value, j)};`));
    if (gen.packed.bases.has(s.variable.id)) return gen.emit(`${varName(s.variable, 0, s.variable.type)} = ${gen.reg(s.value, 0)};`);
    const runs = gen.runStride(s.variable);
    gen.registers(s.variable.type, (j) => {
      if (runs === undefined || j % 4 === 0) gen.emit(`${varName(s.variable, j, s.variable.type)} = ${gen.reg(s.value, j)};`);
    });
  },
  for: (gen, s) => {
    const plans = [...gen.mma.values()].filter((p) => p.kind === "loop" && p.loop === s);
    const register = (v: Variable) => (j: number) => varName(v, j, v.type);
    for (const p of plans) enterMma(gen, p, register(p.variable!));
    for (const p of gen.mma.values()) if (p.invariantA === s) stageInvariantA(gen, p);
    const c = varName(s.counter, 0, s.counter.type);
    const t = gen.typeOf(s.counter.type);
    const [end, step] = [gen.reg(s.end, 0), gen.reg(s.step, 0)];
    const uniform = [s.start, s.end, s.step].every((v) => uniformInWgsl(v, (x) => gen.handedOut(x)));
    gen.loopDepth++;
    if (!uniform) gen.nonUniformDepth++;
    /** One loop over the body: `init; counter < end [&& also]; counter += step`. */
    const loop = (init: string, also?: string) => {
      gen.emit(`for (${init}; ${c} ${COMPARISONS[s.cmp]} ${end}${also ? ` && ${also}` : ""}; ${c} = ${c} + ${step}) {`);
      gen.nested(() => emitLoopBody(gen, s.body, plans));
      gen.emit("}");
    };
    const whole = gen.plan.wholeTrips.get(s);
    if (!whole && plans.length > 0 && gen.options.unrollPairs === true && s.cmp === "lt" && s.step.op === "const" && s.step.value > 0 && !movesOrLeaves(s)) {
      // Two trips a pass, each its own scope, the counter stepped between them; the last odd trip
      // after (CodegenOptions.unrollPairs).
      gen.emit("{");
      gen.nested(() => {
        gen.emit(`var ${c}: ${t} = ${gen.reg(s.start, 0)};`);
        gen.emit(`for (; ${c} + ${step} ${COMPARISONS[s.cmp]} ${end}; ${c} = ${c} + ${step}) {`);
        gen.nested(() => {
          for (const pass of [0, 1]) {
            if (pass === 1) gen.emit(`${c} = ${c} + ${step};`);
            gen.emit("{");
            gen.nested(() => emitLoopBody(gen, s.body, plans));
            gen.emit("}");
          }
        });
        gen.emit("}");
        loop("");
      });
      gen.emit("}");
    } else if (whole) {
      // The whole trips first, while every comparison the trip moves holds for the whole block, with
      // them true; the rest as written, from where the first loop stopped (whole-trips.ts).
      const test = whole.margins.map((m) => `${renderAt(gen, m.min, s.counter, c)} >= ${m.atLeast}i`).join(" && ");
      gen.emit("{");
      gen.nested(() => {
        gen.emit(`var ${c}: ${t} = ${gen.reg(s.start, 0)};`);
        for (const id of whole.comparisons) gen.holding.add(id);
        loop("", test);
        for (const id of whole.comparisons) gen.holding.delete(id);
        loop("");
      });
      gen.emit("}");
    } else {
      loop(`var ${c}: ${t} = ${gen.reg(s.start, 0)}`);
    }
    if (!uniform) gen.nonUniformDepth--;
    gen.loopDepth--;
    // A plan whose accumulator a direct store writes leaves its matrices there (mma-store.ts).
    const direct = new Set([...gen.directStores.values()].map((d) => d.plan));
    for (const p of plans) if (!direct.has(p)) leaveMma(gen, p, register(p.variable!));
  },
  if: (gen, s) => {
    const uniform = uniformInWgsl(s.cond, (x) => gen.handedOut(x));
    if (!uniform) gen.nonUniformDepth++;
    gen.emit(`if (${gen.reg(s.cond, 0)}) {`);
    gen.nested(() => emitStatements(gen, s.then));
    if (s.else.length > 0) {
      gen.emit("} else {");
      gen.nested(() => emitStatements(gen, s.else));
    }
    gen.emit("}");
    if (!uniform) gen.nonUniformDepth--;
  },
  // WGSL's loop: the head re-evaluates the condition before every trip, a continue included.
  while: (gen, s) => {
    gen.emit("loop {");
    const uniform = uniformInWgsl(s.cond, (x) => gen.handedOut(x));
    gen.loopDepth++;
    if (!uniform) gen.nonUniformDepth++;
    gen.nested(() => {
      emitStatements(gen, s.head);
      gen.emit(`if (!(${gen.reg(s.cond, 0)})) { break; }`);
      emitStatements(gen, s.body);
    });
    if (!uniform) gen.nonUniformDepth--;
    gen.loopDepth--;
    gen.emit("}");
  },
  break: (gen) => gen.emit("break;"),
  barrier: (gen) => gen.emit("workgroupBarrier();"),
  continue: (gen) => gen.emit("continue;"),
  print: emitPrint,
  assert: emitAssert,
};

/**
 * A loop's body; a loop plan's operands (mma.ts) are staged as soon as they are defined when a
 * load comes between them and the dot (the next trip's, pipeline.ts): their registers are then
 * free before the next operands arrive.
 */
function emitLoopBody(gen: WgslGenerator, body: readonly Stmt[], plans: readonly MmaPlan[]): void {
  const pending = new Map(plans.map((p) => [p.dot.id, { plan: p, needs: new Set(stagedValues(p).map((v) => v.id)) }]));
  const defined = new Set<number>();
  for (const s of body) {
    if (gen.log.hasErrors) return;
    if (s.kind === "let" && s.value.op === "load") {
      for (const [id, { plan, needs }] of pending) {
        if ([...needs].every((v) => defined.has(v))) {
          stageMmaEarly(gen, plan);
          pending.delete(id);
        }
      }
    }
    if (s.kind === "let") {
      defined.add(s.value.id);
      if (s.value.op === "dot") pending.delete(s.value.id);
    }
    // Another dot may stage into the same arrays: nothing is staged early past it.
    if (s.kind === "let" && s.value.op === "dot") pending.clear();
    (STATEMENT_WGSL[s.kind] as (gen: WgslGenerator, s: Stmt) => void)(gen, s);
  }
}

/** Calls `fn` with the name of each run's first register of a packed variable and that register's index. */
export function eachRun(gen: WgslGenerator, variable: Variable, fn: (name: string, j: number) => void): void {
  const run = packedRun(gen.packed, variable.id);
  gen.registers(variable.type, (j) => {
    if (j % run === 0) fn(varName(variable, j, variable.type), j);
  });
}

/** A scalar expression at the top of a trip: the loop's counter read from its variable, every other scalar known before the loop. */
function renderAt(gen: WgslGenerator, s: Sym, counter: Variable, name: string): string {
  if (typeof s === "number") return `${s}i`;
  if ("sym" in s) return `(${renderAt(gen, s.a, counter, name)} ${s.sym} ${renderAt(gen, s.b, counter, name)})`;
  return s.op === "readVar" && s.variable.id === counter.id ? name : gen.reg(s, 0);
}

/** Whether a loop's body assigns its counter, or a `break` or `continue` leaves a trip (then no trips are paired). */
function movesOrLeaves(loop: Stmt & { kind: "for" }): boolean {
  let found = false;
  forEachStmt(loop.body, (t) => {
    found ||= t.kind === "break" || t.kind === "continue" || (t.kind === "assign" && t.variable.id === loop.counter.id);
  });
  return found;
}

function directRead(gen: WgslGenerator, id: number): boolean {
  for (const [s, d] of gen.directStores) if ((s.kind === "store" && s.value.id === id) || d.deferred.some((v) => v.id === id)) return true;
  return false;
}

export function emitStatements(gen: WgslGenerator, body: readonly Stmt[]): void {
  for (const s of body) {
    if (gen.log.hasErrors) return;
    (STATEMENT_WGSL[s.kind] as (gen: WgslGenerator, s: Stmt) => void)(gen, s);
  }
}

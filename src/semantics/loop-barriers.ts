// A loop with a barrier (a reduction or tl.dot synchronises the workgroup) must be left by every
// invocation alike: WGSL rejects the barrier if a break, continue or while condition depends on a
// value it can't prove uniform. Loaded values are the ones it can't (reductions' results are handed
// out uniformly, uniformity.ts); such an exit is reported at the break. A while loop's condition may
// read an unmasked scalar load: codegen hands it out where WGSL can't see it uniform (memory.ts).

import { Codes } from "../diagnostics/codes";
import type { DiagnosticLog } from "../diagnostics/diagnostic";
import type { Stmt, Value } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import { forEachStmt, forEachValue } from "../ir/walk";

export function checkLoopBarriers(body: readonly Stmt[], log: DiagnosticLog): void {
  const assigned = new Map<number, Value[]>();
  forEachStmt(body, (s) => {
    if (s.kind === "declare" || s.kind === "assign") assigned.set(s.variable.id, [...(assigned.get(s.variable.id) ?? []), s.kind === "declare" ? s.init : s.value]);
  });
  const loaded = (v: Value, scalarsHandedOut = false): Value | undefined => loadedFrom(v, assigned, new Set(), scalarsHandedOut);
  forEachStmt(body, (s) => {
    if (s.kind !== "for" && s.kind !== "while") return;
    const barrier = firstBarrier(s.body);
    if (!barrier) return;
    const what = barrier.op === "reduce" ? `tl.${barrier.fn}` : "tl.dot";
    const report = (at: Stmt & { span: { start: number; end: number } }, load: Value, how: string) =>
      log.error(Codes.divergentBarrier, at.span, `${how} depends on a value loaded from memory, which WGSL can't prove is the same in every invocation, and the loop contains ${what}, which they must all reach together; compute the condition from parameters, tl.programId, constexprs or a reduction (e.g. tl.max(x, 0)), or move ${what} out of the loop`, [
        { span: load.span, message: "loaded here" },
        { span: barrier.span, message: `${what} here` },
      ]);
    if (s.kind === "while") {
      const load = loaded(s.cond, true);
      if (load) report(s, load, "this while loop's condition");
    }
    exitsOf(s.body, [], (exit, conds) => {
      for (const c of conds) {
        const load = loaded(c);
        if (load) return report(exit, load, `this ${exit.kind}`);
      }
    });
  });
}

function firstBarrier(body: readonly Stmt[]): (Value & ({ op: "reduce" } | { op: "dot" })) | undefined {
  let found: (Value & ({ op: "reduce" } | { op: "dot" })) | undefined;
  forEachValue(body, (v) => {
    if (!found && (v.op === "reduce" || v.op === "dot")) found = v;
  });
  return found;
}

/** The break/continue statements leaving this loop (not nested ones), with the if conditions over each. */
function exitsOf(body: readonly Stmt[], conds: Value[], visit: (exit: Stmt & { kind: "break" | "continue" }, conds: Value[]) => void): void {
  for (const s of body) {
    if (s.kind === "break" || s.kind === "continue") visit(s, conds);
    else if (s.kind === "if") {
      exitsOf(s.then, [...conds, s.cond], visit);
      exitsOf(s.else, [...conds, s.cond], visit);
    }
  }
}

/** A load `v` depends on (through operands and variables), stopping at reductions. */
function loadedFrom(v: Value, assigned: ReadonlyMap<number, Value[]>, seen: Set<number>, scalarsHandedOut: boolean): Value | undefined {
  if (seen.has(v.id)) return undefined;
  seen.add(v.id);
  // With scalarsHandedOut (a while condition), a scalar read with no mask is one value a program, as
  // Triton's: codegen reads it once and hands it to every invocation with workgroupUniformLoad where it
  // steers a barrier (memory.ts); its address is still followed (unsloth's grouped GEMM:
  // `m_size = tl.load(m_sizes_ptr + expert_idx)`, then `while tidx < processed_tiles + tiles(m_size)`).
  if (v.op === "load" && (!scalarsHandedOut || v.type.shape.length > 0 || v.mask)) return v;
  if (v.op === "reduce") return undefined;
  const next = v.op === "readVar" ? (seen.has(-1 - v.variable.id) ? [] : (seen.add(-1 - v.variable.id), assigned.get(v.variable.id) ?? [])) : operandsOf(v);
  for (const o of next) {
    const found = loadedFrom(o, assigned, seen, scalarsHandedOut);
    if (found) return found;
  }
  return undefined;
}

// `while`, `break` and `continue` on the CPU. A break or continue unwinds to its loop as a thrown
// LoopExit (the statements between are nested bodies run by recursion); the loop catches it.

import type { Span } from "../diagnostics/diagnostic";
import type { Stmt } from "../ir/ir";
import type { Machine } from "./machine";

export class LoopExit {
  constructor(readonly kind: "break" | "continue") {}
}

/** One trip of a loop's body: false when a break ended the loop. */
export function runTrip(m: Machine, body: readonly Stmt[]): boolean {
  try {
    m.runStatements(body);
    return true;
  } catch (exit) {
    if (!(exit instanceof LoopExit)) throw exit;
    return exit.kind === "continue";
  }
}

/** while (cond): the head recomputes the condition before every trip; each trip costs a step. */
export function runWhile(m: Machine, s: Extract<Stmt, { kind: "while" }>): void {
  m.loops.push(s.span);
  for (;;) {
    m.runStatements(s.head);
    if (m.scalar(s.cond, s.span) === 0) break;
    m.charge(1, s.span);
    if (!runTrip(m, s.body)) break;
  }
  m.loops.pop();
}

export function runLoopExit(kind: "break" | "continue", _span: Span): never {
  throw new LoopExit(kind);
}

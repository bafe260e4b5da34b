// tl.devicePrint and tl.deviceAssert on the CPU: a print hands each element to the launch's
// record sink (interpret's `onDebugRecord`); a false lane of an assertion stops the run with an
// InterpreterError at the call, with the same message the harness gives for the GPU's records.

import type { AssertStmt, PrintStmt } from "../ir/ir";
import { assertionMessage } from "../ir/debug";
import { InterpreterError } from "./errors";
import type { Machine } from "./machine";

export function runPrint(m: Machine, s: PrintStmt): void {
  const sink = m.onDebugRecord;
  s.values.forEach((v, operand) => {
    const block = m.value(v);
    m.charge(block.length, s.span);
    if (!sink) return;
    for (let index = 0; index < block.length; index++) sink({ site: s.span.start, programId: m.programId, index, operand, value: block[index] });
  });
}

export function runAssert(m: Machine, s: AssertStmt): void {
  const block = m.value(s.cond);
  m.charge(block.length, s.span);
  const index = block.findIndex((lane) => lane === 0);
  if (index < 0) return;
  const message = assertionMessage(m.ir.name, s.message, m.programId, s.cond.type.shape, index);
  throw new InterpreterError("assertion", message, m.ir.name, s.span, m.programId);
}

// What each IR statement kind does on the CPU, one entry per kind.

import { numel, type Stmt } from "../ir/ir";
import { binaryOp } from "../ir/arithmetic";
import { f16ToBits } from "../ir/f16";
import { bf16ToBits } from "../ir/bf16";
import { f8e4m3ToBits, f8e5m2ToBits } from "../ir/f8";
import { runLoopExit, runTrip, runWhile } from "./loops";
import { dtypeOf, type Machine } from "./machine";
import { runAssert, runPrint } from "./print";

type StatementRunners = { [K in Stmt["kind"]]: (m: Machine, s: Extract<Stmt, { kind: K }>) => void };

export const STATEMENT_CPU: StatementRunners = {
  let: (m, s) => {
    m.values.set(s.value.id, m.evaluate(s.value));
  },
  store: runStore,
  declare: (m, s) => {
    m.variables.set(s.variable.id, m.sized(m.value(s.init), numel(s.variable.type.shape), s.span));
  },
  assign: (m, s) => {
    m.variables.set(s.variable.id, m.sized(m.value(s.value), numel(s.variable.type.shape), s.span));
  },
  for: runFor,
  if: (m, s) => m.runStatements(m.scalar(s.cond, s.span) !== 0 ? s.then : s.else),
  while: runWhile,
  break: (_m, s) => runLoopExit("break", s.span),
  // One program runs at a time here: there is no one to wait for.
  barrier: () => {},
  continue: (_m, s) => runLoopExit("continue", s.span),
  print: runPrint,
  assert: runAssert,
};

export function runStatement(m: Machine, s: Stmt): void {
  (STATEMENT_CPU[s.kind] as (m: Machine, s: Stmt) => void)(m, s);
}

/** for (counter = start; counter <cmp> end; counter += step): bounds and step read once. */
function runFor(m: Machine, s: Extract<Stmt, { kind: "for" }>): void {
  const dtype = dtypeOf(s.counter.type);
  const start = m.scalar(s.start, s.span);
  const end = m.scalar(s.end, s.span);
  const step = m.scalar(s.step, s.span);
  const add = m.scalarFn(binaryOp("add", dtype), `loop counters of ${dtype}`, s.span);
  const keepGoing = m.scalarFn(binaryOp(s.cmp, dtype), `loop counters of ${dtype}`, s.span);
  m.variables.set(s.counter.id, Float64Array.of(start));
  m.loops.push(s.span);
  for (;;) {
    const counter = m.readVariable(s.counter.id, s.counter.name, s.span)[0];
    if (keepGoing(counter, end) === 0) break;
    m.charge(1, s.span);
    if (!runTrip(m, s.body)) break;
    // Read again: the body may have assigned the counter, as it could in WGSL.
    const after = m.readVariable(s.counter.id, s.counter.name, s.span)[0];
    m.variables.set(s.counter.id, Float64Array.of(add(after, step)));
  }
  m.loops.pop();
}

function runStore(m: Machine, s: Extract<Stmt, { kind: "store" }>): void {
  const buffer = m.bufferOf(s.ptr.type, s.span);
  const ptr = m.value(s.ptr);
  const n = ptr.length;
  const data = m.sized(m.value(s.value), n, s.span);
  const mask = s.mask ? m.sized(m.value(s.mask), n, s.span) : undefined;
  m.charge(n, s.span);
  // Check every lane first, so a failing store writes nothing.
  for (let i = 0; i < n; i++) {
    if (!mask || mask[i] !== 0) m.checkIndex(buffer, ptr[i], "store", s.span, i);
  }
  const array = buffer.array;
  const f16 = buffer.dtype === "f16";
  const bf16 = buffer.dtype === "bf16";
  const f8 = buffer.dtype === "f8e4m3" ? f8e4m3ToBits : buffer.dtype === "f8e5m2" ? f8e5m2ToBits : undefined;
  const onAccess = m.onAccess;
  for (let i = 0; i < n; i++) {
    onAccess?.("store", buffer.param, ptr[i], m.programId, i, s.span, !mask || mask[i] !== 0, data[i]);
    if (mask && mask[i] === 0) continue;
    // A byte buffer's typed array keeps the low 8 bits, as the GPU's store does (codegen/bytes.ts).
    // An fp8 store rounds as Triton's implicit conversion (saturating: ±448, ±57344; ir/f8.ts).
    array[ptr[i]] = f16 ? f16ToBits(data[i]) : bf16 ? bf16ToBits(data[i]) : f8 ? f8(data[i], true) : data[i];
    m.onStore?.({ param: buffer.param, index: ptr[i], programId: m.programId, lane: i, span: s.span });
  }
}

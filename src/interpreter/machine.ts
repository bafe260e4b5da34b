// The state of one launch on the CPU: its arguments, the step budget, and the running program's
// values and variables. What each statement and value does is in statements.ts and values.ts.

import { type Dtype, type KernelIR, type Stmt, type Value, type ValueType } from "../ir/ir";
import type { Span } from "../diagnostics/diagnostic";
import type { DebugRecord } from "../ir/debug";
import { roundTo, type ScalarFn1, type ScalarFn2, type ScalarFn3 } from "../ir/arithmetic";
import { fitsIn32 } from "../ir/int64";

/** Ops whose i64 values are a constant or another value's, not the result of arithmetic. */
const COPIES: ReadonlySet<Value["op"]> = new Set(["const", "splat", "broadcast", "reshape", "trans", "permute"]);
import type { Block } from "./block-ops";
import { InterpreterError, outOfBoundsMessage, type OutOfBounds, type ProgramId } from "./errors";
import type { BoundArgs, BoundBuffer } from "./kernel-args";
import { runStatement } from "./statements";
import { evaluate } from "./values";

/** What a statement hook sees of the running program: values by id, variables by id. */
export interface ProgramState {
  readonly programId: ProgramId;
  readonly values: ReadonlyMap<number, Block>;
  readonly variables: ReadonlyMap<number, Block>;
}

export type StatementHook = (statement: Stmt, state: ProgramState) => void;

/** The state of one launch: arguments, the step budget, and the running program's values. */
export class Machine implements ProgramState {
  private steps = 0;
  programId: ProgramId = [0, 0, 0];
  /** Values by id, as their `let` statements defined them in the running program. */
  readonly values = new Map<number, Block>();
  readonly variables = new Map<number, Block>();
  /** Spans of the loops being run, innermost last: where a step-limit error points. */
  loops: Span[] = [];
  /** Where tl.devicePrint's elements go (a record's `site` is the call's span start); none: dropped. */
  onDebugRecord?: (record: DebugRecord) => void;
  /** Addresses only: tl.dot returns its accumulator (or zeros) unmultiplied. */
  skipDots = false;

  constructor(
    readonly ir: KernelIR,
    readonly grid: readonly [number, number, number],
    private readonly args: BoundArgs,
    private readonly maxSteps: number,
    /** Called for each element a tl.store writes (harness/debug/provenance.ts records who wrote what). */
    readonly onStore?: StoreHook,
    private readonly onStatement?: StatementHook,
    /** Called for each lane of every tl.load, tl.store and tl.atomic*, masked-off lanes too (harness/debug/races.ts, harness/debug/access-map.ts). */
    readonly onAccess?: AccessHook,
  ) {}

  runProgram(programId: ProgramId): void {
    this.programId = programId;
    this.values.clear();
    this.variables.clear();
    this.loops = [];
    this.runStatements(this.ir.body);
  }

  runStatements(statements: readonly Stmt[]): void {
    const hook = this.onStatement;
    for (const statement of statements) {
      hook?.(statement, this);
      runStatement(this, statement);
    }
  }

  // ---- values ----

  /** An operand: as its `let` defined it, or evaluated in place if no `let` did. */
  value(v: Value): Block {
    return this.values.get(v.id) ?? this.evaluate(v);
  }

  scalar(v: Value, span: Span): number {
    return this.sized(this.value(v), 1, span)[0];
  }

  evaluate(v: Value): Block {
    const block = evaluate(this, v);
    // Constants were checked while compiling (KL2090: outside 32 bits only as operands of & | ^), and copies where made.
    if (v.type.kind === "data" && v.type.dtype === "i64" && !COPIES.has(v.op)) this.checkInt64(block, v.span);
    return block;
  }

  /** The GPU holds an i64 in 32 bits (ir/int64.ts): a value past them would differ there, so it stops here. */
  private checkInt64(block: Block, span: Span): void {
    const lane = block.findIndex((x) => !fitsIn32(x));
    if (lane < 0) return;
    const message =
      `${this.ir.name}: program (${this.programId.join(",")}), lane ${lane}: an i64 value is ${block[lane]}, outside 32 bits. ` +
      `Kernel Lab computes int64 in 32 bits (WGSL has none wider), so the GPU would hold another value; ` +
      `keep offsets within the buffers (they always fit), or compute the wide value as two u32 words`;
    throw new InterpreterError("int64-overflow", message, this.ir.name, span, this.programId);
  }

  param(name: string, type: ValueType, span: Span): number {
    // A pointer parameter is offset 0 into its own buffer.
    if (type.kind === "pointer") return 0;
    const scalar = this.args.scalars.get(name);
    if (scalar !== undefined) return scalar;
    const constexpr = this.ir.constexprs[name];
    if (constexpr !== undefined) return roundTo(type.dtype)(constexpr);
    return this.internal(`no parameter '${name}'`, span);
  }

  readVariable(id: number, name: string, span: Span): Block {
    return this.variables.get(id) ?? this.internal(`variable '${name}' read before it was declared`, span);
  }

  // ---- memory ----

  bufferOf(type: ValueType, span: Span): BoundBuffer {
    if (type.kind !== "pointer") return this.internal("load or store through a value that is not a pointer", span);
    return this.args.buffers.get(type.param) ?? this.internal(`no buffer for pointer parameter '${type.param}'`, span);
  }

  /** `lane`: the element's flat index in its block. */
  checkIndex(buffer: BoundBuffer, index: number, access: OutOfBounds["access"], span: Span, lane: number): void {
    if (index >= 0 && index < buffer.array.length) return;
    const oob = { param: buffer.param, access, index, length: buffer.array.length };
    throw new InterpreterError("out-of-bounds", outOfBoundsMessage(this.ir.name, this.programId, lane, oob), this.ir.name, span, this.programId, oob);
  }

  // ---- bookkeeping ----

  charge(steps: number, span: Span): void {
    this.steps += steps;
    if (this.steps <= this.maxSteps) return;
    const [x, y, z] = this.programId;
    throw new InterpreterError(
      "step-limit",
      `${this.ir.name}: kernel did not finish after ${this.maxSteps} steps (endless loop?) in program (${x}, ${y}, ${z})`,
      this.ir.name,
      this.loops[this.loops.length - 1] ?? span,
      this.programId,
    );
  }

  /** Checks that a block has the element count its use expects (the IR guarantees it). */
  sized(block: Block, n: number, span: Span): Block {
    return block.length === n ? block : this.internal(`a block of ${block.length} elements where ${n} were expected`, span);
  }

  scalarFn<F extends ScalarFn1 | ScalarFn2 | ScalarFn3>(fn: F | undefined, what: string, span: Span): F {
    return fn ?? this.internal(`${what} is not an operation WGSL has`, span);
  }

  internal(message: string, span: Span): never {
    const [x, y, z] = this.programId;
    throw new InterpreterError(
      "internal",
      `internal: ${this.ir.name}: ${message} (program (${x}, ${y}, ${z})); this is a bug in Kernel Lab`,
      this.ir.name,
      span,
      this.programId,
    );
  }
}

/** What a lane of a memory access did: `active` false for a masked-off lane (its address is not touched); `value` what a store wrote. */
export type AccessKind = "load" | "store" | "atomic";
export type AccessHook = (kind: AccessKind, param: string, index: number, programId: ProgramId, lane: number, span: Span, active: boolean, value: number) => void;

export type StoreHook = (store: { param: string; index: number; programId: ProgramId; lane: number; span: Span }) => void;

/** The dtype a value computes in; pointers are i32 offsets. */
export function dtypeOf(type: ValueType): Dtype {
  return type.kind === "pointer" ? "i32" : type.dtype;
}

export function shapeText(type: ValueType): string {
  return `[${type.shape.join(", ")}]`;
}


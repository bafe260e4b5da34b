// The CPU interpreter behind `kernel-lab run --cpu`: runs a kernel's IR for every program instance
// of a grid, one instance after another (x fastest), with WGSL's arithmetic so the CPU and the GPU
// give the same answers. Each instance walks the structured statements with whole-block
// semantics: every value is a flat row-major Float64Array of its static shape (a scalar is one
// element, a bool 0 or 1, a pointer an i32 element offset into its parameter's buffer).
// Blocks are never mutated once made, so variables share them instead of copying.
//
// Where the GPU would be silent — an unmasked out-of-bounds index is clamped, an endless loop
// hangs — the CPU run throws an InterpreterError at the IR node's span instead.

import { numel, type Dtype, type KernelIR, type Stmt, type Value, type ValueType } from "../ir/ir";
import { assertNever } from "../ir/never";
import type { Span } from "../diagnostics/diagnostic";
import { broadcastBlock, dotBlock, reduceBlock, transposeBlock, type Block } from "./block-ops";
import { InterpreterError, type ProgramId } from "./errors";
import { f16FromBits, f16ToBits } from "../ir/f16";
import { bindArgs, type BoundArgs, type BoundBuffer, type KernelArgs } from "./kernel-args";
import {
  binaryOp,
  castOp,
  extremumOp,
  fmaOp,
  roundTo,
  unaryMathOp,
  unaryOp,
  type ScalarFn1,
  type ScalarFn2,
  type ScalarFn3,
} from "../ir/arithmetic";

export type { KernelArgs, KernelBuffer } from "./kernel-args";
export { InterpreterError } from "./errors";
export type { InterpreterErrorKind, OutOfBounds, ProgramId } from "./errors";

export interface InterpretOptions {
  /** Element operations allowed over the whole launch before the run is called endless. */
  maxSteps?: number;
  /** Run only these program ids (e.g. the first and the last, to check bounds cheaply). */
  programs?: readonly ProgramId[];
}

export const DEFAULT_MAX_STEPS = 5e8;

/**
 * Runs `ir` on the CPU for every program of `grid`, reading and writing the typed arrays of
 * `args` in place (pointer parameters by name; scalars as numbers).
 */
export function interpret(
  ir: KernelIR,
  grid: readonly [number, number, number],
  args: KernelArgs,
  opts: InterpretOptions = {},
): void {
  for (const extent of grid) {
    if (!Number.isInteger(extent) || extent < 0) {
      throw new InterpreterError(
        "bad-argument",
        `${ir.name}: the grid must be three non-negative integers, got [${grid.join(", ")}]`,
        ir.name,
        ir.span,
      );
    }
  }
  const machine = new Machine(ir, grid, bindArgs(ir, args), opts.maxSteps ?? DEFAULT_MAX_STEPS);
  if (opts.programs) {
    for (const pid of opts.programs) machine.runProgram(pid);
    return;
  }
  for (let z = 0; z < grid[2]; z++) {
    for (let y = 0; y < grid[1]; y++) {
      for (let x = 0; x < grid[0]; x++) machine.runProgram([x, y, z]);
    }
  }
}

/** The state of one launch: arguments, the step budget, and the running program's values. */
class Machine {
  private steps = 0;
  private programId: ProgramId = [0, 0, 0];
  /** Values by id, as their `let` statements defined them in the running program. */
  private values = new Map<number, Block>();
  private variables = new Map<number, Block>();
  /** Spans of the loops being run, innermost last: where a step-limit error points. */
  private loops: Span[] = [];

  constructor(
    private readonly ir: KernelIR,
    private readonly grid: readonly [number, number, number],
    private readonly args: BoundArgs,
    private readonly maxSteps: number,
  ) {}

  runProgram(programId: ProgramId): void {
    this.programId = programId;
    this.values.clear();
    this.variables.clear();
    this.loops = [];
    this.runStatements(this.ir.body);
  }

  // ---- statements ----

  private runStatements(statements: readonly Stmt[]): void {
    for (const statement of statements) this.runStatement(statement);
  }

  private runStatement(s: Stmt): void {
    switch (s.kind) {
      case "let":
        this.values.set(s.value.id, this.evaluate(s.value));
        return;
      case "store":
        this.store(s);
        return;
      case "declare":
        this.variables.set(s.variable.id, this.sized(this.value(s.init), numel(s.variable.type.shape), s.span));
        return;
      case "assign":
        this.variables.set(s.variable.id, this.sized(this.value(s.value), numel(s.variable.type.shape), s.span));
        return;
      case "for":
        this.runFor(s);
        return;
      case "if":
        this.runStatements(this.scalar(s.cond, s.span) !== 0 ? s.then : s.else);
        return;
      default:
        assertNever(s, "statement");
    }
  }

  /** for (counter = start; counter <cmp> end; counter += step): bounds and step read once. */
  private runFor(s: Extract<Stmt, { kind: "for" }>): void {
    const dtype = dtypeOf(s.counter.type);
    const start = this.scalar(s.start, s.span);
    const end = this.scalar(s.end, s.span);
    const step = this.scalar(s.step, s.span);
    const add = this.scalarFn(binaryOp("add", dtype), `loop counters of ${dtype}`, s.span);
    const keepGoing = this.scalarFn(binaryOp(s.cmp, dtype), `loop counters of ${dtype}`, s.span);
    this.variables.set(s.counter.id, Float64Array.of(start));
    this.loops.push(s.span);
    for (;;) {
      const counter = this.readVariable(s.counter.id, s.counter.name, s.span)[0];
      if (keepGoing(counter, end) === 0) break;
      this.charge(1, s.span);
      this.runStatements(s.body);
      // Read again: the body may have assigned the counter, as it could in WGSL.
      const after = this.readVariable(s.counter.id, s.counter.name, s.span)[0];
      this.variables.set(s.counter.id, Float64Array.of(add(after, step)));
    }
    this.loops.pop();
  }

  private store(s: Extract<Stmt, { kind: "store" }>): void {
    const buffer = this.bufferOf(s.ptr.type, s.span);
    const ptr = this.value(s.ptr);
    const n = ptr.length;
    const data = this.sized(this.value(s.value), n, s.span);
    const mask = s.mask ? this.sized(this.value(s.mask), n, s.span) : undefined;
    this.charge(n, s.span);
    // Check every lane first, so a failing store writes nothing.
    for (let i = 0; i < n; i++) {
      if (!mask || mask[i] !== 0) this.checkIndex(buffer, ptr[i], "store", s.span);
    }
    const array = buffer.array;
    const f16 = buffer.dtype === "f16";
    for (let i = 0; i < n; i++) {
      if (mask && mask[i] === 0) continue;
      array[ptr[i]] = f16 ? f16ToBits(data[i]) : data[i];
    }
  }

  // ---- values ----

  /** An operand: as its `let` defined it, or evaluated in place if no `let` did. */
  private value(v: Value): Block {
    return this.values.get(v.id) ?? this.evaluate(v);
  }

  private scalar(v: Value, span: Span): number {
    return this.sized(this.value(v), 1, span)[0];
  }

  private evaluate(v: Value): Block {
    const n = numel(v.type.shape);
    this.charge(n, v.span);
    const dtype = dtypeOf(v.type);
    switch (v.op) {
      case "const":
        return Float64Array.of(roundTo(dtype)(v.value));
      case "param":
        return Float64Array.of(this.param(v.name, v.type, v.span));
      case "programId":
        return Float64Array.of(this.programId[v.axis]);
      case "numPrograms":
        return Float64Array.of(this.grid[v.axis]);
      case "arange": {
        const out = new Float64Array(v.end - v.start);
        for (let i = 0; i < out.length; i++) out[i] = v.start + i;
        return this.sized(out, n, v.span);
      }
      case "splat":
        return new Float64Array(n).fill(this.scalar(v.value, v.span));
      case "broadcast": {
        const out = broadcastBlock(this.value(v.value), v.value.type.shape, v.type.shape);
        return out ?? this.internal(`cannot broadcast ${shapeText(v.value.type)} to ${shapeText(v.type)}`, v.span);
      }
      case "reshape":
        return this.sized(this.value(v.value), n, v.span);
      case "trans": {
        const shape = v.value.type.shape;
        const src = this.value(v.value);
        if (shape.length < 2) return src;
        if (shape.length > 2) return this.internal(`trans of a ${shape.length}-D block`, v.span);
        return transposeBlock(src, shape[0], shape[1]);
      }
      case "cast":
        return map1(this.sized(this.value(v.value), n, v.span), castOp(dtypeOf(v.value.type), dtype), n);
      case "unary": {
        const operandDtype = dtypeOf(v.value.type);
        const fn = this.scalarFn(unaryOp(v.fn, operandDtype), `'${v.fn}' on ${operandDtype}`, v.span);
        return map1(this.sized(this.value(v.value), n, v.span), fn, n);
      }
      case "binary": {
        const operandDtype = dtypeOf(v.lhs.type);
        const fn = this.scalarFn(binaryOp(v.fn, operandDtype), `'${v.fn}' on ${operandDtype}`, v.span);
        return map2(this.sized(this.value(v.lhs), n, v.span), this.sized(this.value(v.rhs), n, v.span), fn, n);
      }
      case "ptrAdd": {
        const add = binaryOp("add", "i32") as ScalarFn2;
        return map2(this.sized(this.value(v.ptr), n, v.span), this.sized(this.value(v.offset), n, v.span), add, n);
      }
      case "math":
        return this.math(v, n, dtype);
      case "where": {
        const cond = this.sized(this.value(v.cond), n, v.span);
        const a = this.sized(this.value(v.a), n, v.span);
        const b = this.sized(this.value(v.b), n, v.span);
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = cond[i] !== 0 ? a[i] : b[i];
        return out;
      }
      case "load":
        return this.load(v, n);
      case "readVar":
        return this.readVariable(v.variable.id, v.variable.name, v.span);
      case "reduce": {
        const shape = v.value.type.shape;
        if (!(v.axis >= 0 && v.axis < shape.length)) return this.internal(`reduce along axis ${v.axis} of ${shapeText(v.value.type)}`, v.span);
        this.charge(numel(shape), v.span);
        const out = reduceBlock(this.value(v.value), shape, v.axis, v.fn, v.fn === "argmax" ? dtypeOf(v.value.type) : dtype);
        return out ?? this.internal(`'${v.fn}' reduction of ${dtypeOf(v.value.type)}`, v.span);
      }
      case "dot":
        return this.dot(v, dtype);
      default:
        return assertNever(v, "value op");
    }
  }

  private param(name: string, type: ValueType, span: Span): number {
    // A pointer parameter is offset 0 into its own buffer.
    if (type.kind === "pointer") return 0;
    const scalar = this.args.scalars.get(name);
    if (scalar !== undefined) return scalar;
    const constexpr = this.ir.constexprs[name];
    if (constexpr !== undefined) return roundTo(type.dtype)(constexpr);
    return this.internal(`no parameter '${name}'`, span);
  }

  private math(v: Extract<Value, { op: "math" }>, n: number, dtype: Dtype): Block {
    const operand = (i: number) => {
      const arg = v.args[i];
      return arg ? this.sized(this.value(arg), n, v.span) : this.internal(`'${v.fn}' is missing argument ${i + 1}`, v.span);
    };
    const what = `'${v.fn}' on ${dtype}`;
    const fn = v.fn;
    if (fn === "maximum" || fn === "minimum") return map2(operand(0), operand(1), this.scalarFn(extremumOp(fn, dtype), what, v.span), n);
    if (fn === "fma") return map3(operand(0), operand(1), operand(2), this.scalarFn(fmaOp(dtype), what, v.span), n);
    return map1(operand(0), this.scalarFn(unaryMathOp(fn, dtype), what, v.span), n);
  }

  private load(v: Extract<Value, { op: "load" }>, n: number): Block {
    const buffer = this.bufferOf(v.ptr.type, v.span);
    const ptr = this.sized(this.value(v.ptr), n, v.span);
    const mask = v.mask ? this.sized(this.value(v.mask), n, v.span) : undefined;
    const other = v.other ? this.sized(this.value(v.other), n, v.span) : undefined;
    const array = buffer.array;
    const f16 = buffer.dtype === "f16";
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      if (mask && mask[i] === 0) {
        out[i] = other ? other[i] : 0;
        continue;
      }
      const index = ptr[i];
      this.checkIndex(buffer, index, "load", v.span);
      out[i] = f16 ? f16FromBits(array[index]) : array[index];
    }
    return out;
  }

  private dot(v: Extract<Value, { op: "dot" }>, dtype: Dtype): Block {
    const [m, k] = v.a.type.shape;
    const [k2, n] = v.b.type.shape;
    if (v.a.type.shape.length !== 2 || v.b.type.shape.length !== 2 || k !== k2) {
      return this.internal(`dot of ${shapeText(v.a.type)} and ${shapeText(v.b.type)}`, v.span);
    }
    const a = this.sized(this.value(v.a), m * k, v.span);
    const b = this.sized(this.value(v.b), k * n, v.span);
    const acc = v.acc ? this.sized(this.value(v.acc), m * n, v.span) : undefined;
    this.charge(m * n * k, v.span);
    return dotBlock(a, b, acc, m, k, n, dtype);
  }

  private readVariable(id: number, name: string, span: Span): Block {
    return this.variables.get(id) ?? this.internal(`variable '${name}' read before it was declared`, span);
  }

  // ---- memory ----

  private bufferOf(type: ValueType, span: Span): BoundBuffer {
    if (type.kind !== "pointer") return this.internal("load or store through a value that is not a pointer", span);
    return this.args.buffers.get(type.param) ?? this.internal(`no buffer for pointer parameter '${type.param}'`, span);
  }

  private checkIndex(buffer: BoundBuffer, index: number, access: "load" | "store", span: Span): void {
    if (index >= 0 && index < buffer.array.length) return;
    const [x, y, z] = this.programId;
    throw new InterpreterError(
      "out-of-bounds",
      `${this.ir.name}: ${access} ${access === "load" ? "from" : "to"} '${buffer.param}' at element ${index}, ` +
        `outside its ${buffer.array.length} elements, in program (${x}, ${y}, ${z}); ` +
        `mask the lanes past the end (the GPU would silently clamp this index)`,
      this.ir.name,
      span,
      this.programId,
      { param: buffer.param, access, index, length: buffer.array.length },
    );
  }

  // ---- bookkeeping ----

  private charge(steps: number, span: Span): void {
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
  private sized(block: Block, n: number, span: Span): Block {
    return block.length === n ? block : this.internal(`a block of ${block.length} elements where ${n} were expected`, span);
  }

  private scalarFn<F extends ScalarFn1 | ScalarFn2 | ScalarFn3>(fn: F | undefined, what: string, span: Span): F {
    return fn ?? this.internal(`${what} is not an operation WGSL has`, span);
  }

  private internal(message: string, span: Span): never {
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

/** The dtype a value computes in; pointers are i32 offsets. */
function dtypeOf(type: ValueType): Dtype {
  return type.kind === "pointer" ? "i32" : type.dtype;
}

function shapeText(type: ValueType): string {
  return `[${type.shape.join(", ")}]`;
}

function map1(x: Block, fn: ScalarFn1, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i]);
  return out;
}

function map2(x: Block, y: Block, fn: ScalarFn2, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i], y[i]);
  return out;
}

function map3(x: Block, y: Block, z: Block, fn: ScalarFn3, n: number): Block {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = fn(x[i], y[i], z[i]);
  return out;
}

// The CPU interpreter behind `kernel-lab run --cpu`: runs a kernel's IR for every program instance
// of a grid, one instance after another (x fastest), with WGSL's arithmetic so the CPU and the GPU
// give the same answers. Each instance walks the structured statements with whole-block
// semantics: every value is a flat row-major Float64Array of its static shape (a scalar is one
// element, a bool 0 or 1, a pointer an i32 element offset into its parameter's buffer).
// Blocks are never mutated once made, so variables share them instead of copying.
//
// Where the GPU would be silent — an unmasked out-of-bounds index is clamped, an endless loop
// hangs — the CPU run throws an InterpreterError at the IR node's span instead.
//
// machine.ts holds a launch's state; statements.ts and values.ts run each statement kind and
// value op, one table entry each.

import type { KernelIR } from "../ir/ir";
import type { DebugRecord } from "../ir/debug";
import { InterpreterError, type ProgramId } from "./errors";
import { bindArgs, type KernelArgs } from "./kernel-args";
import { Machine, type AccessHook, type StatementHook, type StoreHook } from "./machine";
import { BINARY_ARITHMETIC, MATH_ARITHMETIC, UNARY_ARITHMETIC } from "../ir/arithmetic";
import { implementedOps } from "../ir/ops";
import { REDUCE_CPU } from "./block-ops";
import { ATOMIC_CPU } from "./atomics";
import { STATEMENT_CPU } from "./statements";
import { VALUE_CPU } from "./values";

export type { KernelArgs, KernelBuffer } from "./kernel-args";
export { InterpreterError } from "./errors";
export type { InterpreterErrorKind, OutOfBounds, ProgramId } from "./errors";
export type { AccessHook, AccessKind, ProgramState, StatementHook, StoreHook } from "./machine";

export interface InterpretOptions {
  /** Element operations allowed over the whole launch before the run is called endless. */
  maxSteps?: number;
  /** Run only these program ids (e.g. the first and the last, to check bounds cheaply). */
  programs?: readonly ProgramId[];
  /** Called before each statement runs (the debugger records its trace here); absent, it costs nothing. */
  onStatement?: StatementHook;
  /** Receives each element tl.devicePrint prints (its `site` is the call's span start). */
  onDebugRecord?: (record: DebugRecord) => void;
  /** Called for each element a tl.store writes: which program and lane, at which tl.store. */
  onStore?: StoreHook;
  /** Called for each lane of every load, store and atomic, masked-off lanes too (before a store writes). */
  onAccess?: AccessHook;
  /** tl.dot gives its accumulator (or zeros) without multiplying: for tracing addresses only (harness/debug/access-trace.ts), which don't depend on products. */
  skipDots?: boolean;
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
  const machine = new Machine(ir, grid, bindArgs(ir, args), opts.maxSteps ?? DEFAULT_MAX_STEPS, opts.onStore, opts.onStatement, opts.onAccess);
  machine.onDebugRecord = opts.onDebugRecord;
  machine.skipDots = opts.skipDots ?? false;
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

/** Every IR op the interpreter's tables implement (test/unit/intrinsics-complete.test.ts). */
export const INTERPRETED_OPS = implementedOps({
  values: VALUE_CPU,
  statements: STATEMENT_CPU,
  unary: UNARY_ARITHMETIC,
  binary: BINARY_ARITHMETIC,
  math: MATH_ARITHMETIC,
  reduce: REDUCE_CPU,
  atomic: ATOMIC_CPU,
});

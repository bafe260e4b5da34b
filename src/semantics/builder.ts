// Emits IR: every value gets an id and a `let` in the statement list being built, so the order in
// which the source evaluates things is the order in the IR.

import type { Span } from "../diagnostics/diagnostic";
import type { Dtype, Shape, Stmt, Value, ValueOp, ValueType, Variable } from "../ir/ir";
import { emitViaF32 } from "./bf16-ops";

export class IrBuilder {
  private nextValueId = 0;
  private nextVariableId = 0;
  private current: Stmt[] = [];

  /** Emits `op`; one that computes with or to bf16 is emitted as f32 arithmetic and a rounding (bf16-ops.ts). */
  emit(op: ValueOp, type: ValueType, span: Span): Value {
    // A conversion of a transposed 2-D block is the transpose of the converted block (a cast is
    // elementwise): `tl.dot(tl.trans(p).to(q.dtype), do)` (FlagAttention's and applied-ai's flash
    // backward) then hands the dot a tl.trans, which it stages from the registers of what it
    // transposes, instead of a cast of a transpose staged once more in workgroup memory of its own.
    if (op.op === "cast" && op.value.op === "trans" && op.value.type.shape.length === 2 && type.kind === "data") {
      const source = op.value.value;
      const converted = this.emit({ ...op, value: source }, { ...type, shape: source.type.shape }, span);
      return this.emitAsIs({ op: "trans", value: converted }, type, span);
    }
    return emitViaF32((o, t, s) => this.emitAsIs(o, t, s), op, type, span) ?? this.emitAsIs(op, type, span);
  }

  private emitAsIs(op: ValueOp, type: ValueType, span: Span): Value {
    const value = { id: this.nextValueId++, span, type, ...op } as Value;
    this.current.push({ kind: "let", value });
    return value;
  }

  constant(value: number, dtype: Dtype, span: Span): Value {
    return this.emit({ op: "const", value }, data(dtype, []), span);
  }

  variable(name: string, type: ValueType, span: Span): Variable {
    return { id: this.nextVariableId++, name, type, span };
  }

  push(stmt: Stmt): void {
    this.current.push(stmt);
  }

  /** Runs `fn` with a fresh statement list and returns it (a loop or branch body). */
  collect(fn: () => void): Stmt[] {
    const saved = this.current;
    this.current = [];
    try {
      fn();
      return this.current;
    } finally {
      this.current = saved;
    }
  }

  get statements(): Stmt[] {
    return this.current;
  }
}

export function data(dtype: Dtype, shape: Shape): ValueType {
  return { kind: "data", dtype, shape };
}

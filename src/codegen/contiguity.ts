// Axis analysis, reduced to what wide memory access needs (Triton: lib/Analysis/AxisInfo.cpp):
// how an integer or pointer block changes from one element to the next along its last axis.
// `pid * BLOCK + tl.arange(0, BLOCK)` has stride 1, so `ptr + offsets` addresses a run of
// consecutive elements and a run of 4 registers (layout.ts) can be one vec4 load or store.

import type { Stmt, Value } from "../ir/ir";
import { forEachStmt } from "../ir/walk";

/** Elements per step of the flat index, or undefined when it isn't a constant. */
export type Stride = number | undefined;

export class ContiguityAnalysis {
  private readonly memo = new Map<number, Stride>();
  /** Every value a `let` variable is given (its initial value first), by variable id. */
  private readonly assigned = new Map<number, Value[]>();
  private readonly variableStrides = new Map<number, Stride>();

  constructor(body: readonly Stmt[]) {
    forEachStmt(body, (s) => {
      if (s.kind !== "declare" && s.kind !== "assign") return;
      const values = this.assigned.get(s.variable.id) ?? [];
      values.push(s.kind === "declare" ? s.init : s.value);
      this.assigned.set(s.variable.id, values);
    });
  }

  /**
   * A variable's stride: its initial value's, if every assignment keeps it — e.g.
   * `a_ptrs += BLOCK_K * stride_ak` adds the same amount to every element. Assumed first, then
   * checked, so a variable that depends on itself resolves.
   */
  variableStride(id: number): Stride {
    if (this.variableStrides.has(id)) return this.variableStrides.get(id);
    const values = this.assigned.get(id) ?? [];
    if (values.length === 0) return undefined;
    const assumed = this.stride(values[0]);
    this.variableStrides.set(id, assumed);
    const holds = assumed !== undefined && values.slice(1).every((v) => this.stride(v) === assumed);
    if (!holds) {
      this.variableStrides.set(id, undefined);
      this.memo.clear(); // strides derived under the failed assumption
    }
    return this.variableStrides.get(id);
  }

  stride(v: Value): Stride {
    if (this.memo.has(v.id)) return this.memo.get(v.id);
    const s = this.compute(v);
    this.memo.set(v.id, s);
    return s;
  }

  private compute(v: Value): Stride {
    if (v.type.shape.length === 0) return 0;
    if (v.type.kind === "data" && v.type.dtype !== "i32" && v.type.dtype !== "u32") return undefined;
    switch (v.op) {
      case "splat":
        return 0;
      case "arange":
        return 1;
      case "reshape": {
        // Same elements in the same flat order: the last axis keeps its stride if it keeps its extent.
        const from = v.value.type.shape;
        const to = v.type.shape;
        if (to[to.length - 1] === 1) return 0;
        return from[from.length - 1] === to[to.length - 1] ? this.stride(v.value) : undefined;
      }
      case "broadcast": {
        const from = v.value.type.shape;
        return from[from.length - 1] === 1 ? 0 : this.stride(v.value);
      }
      case "cast":
        return this.stride(v.value);
      case "ptrAdd":
        return add(this.stride(v.ptr), this.stride(v.offset));
      case "binary": {
        const a = this.stride(v.lhs);
        const b = this.stride(v.rhs);
        if (v.fn === "add") return add(a, b);
        if (v.fn === "sub") return a === undefined || b === undefined ? undefined : a - b;
        if (v.fn === "mul") {
          const ca = constantOf(v.lhs);
          const cb = constantOf(v.rhs);
          if (a === 0 && b === 0) return 0;
          if (cb !== undefined && a !== undefined) return a * cb;
          if (ca !== undefined && b !== undefined) return b * ca;
          return undefined;
        }
        return a === 0 && b === 0 ? 0 : undefined;
      }
      case "param":
        return 0;
      case "readVar":
        return this.variableStride(v.variable.id);
      default:
        return undefined;
    }
  }
}

function add(a: Stride, b: Stride): Stride {
  return a === undefined || b === undefined ? undefined : a + b;
}

/** The compile-time value every element of `v` has, if any. */
function constantOf(v: Value): number | undefined {
  if (v.op === "const") return v.value;
  if (v.op === "splat" || v.op === "broadcast" || v.op === "reshape") return constantOf(v.value);
  return undefined;
}

// Axis analysis, reduced to what wide memory access needs (Triton: lib/Analysis/AxisInfo.cpp):
// how an integer or pointer block changes from one element to the next along its last axis.
// `pid * BLOCK + tl.arange(0, BLOCK)` has stride 1, so `ptr + offsets` addresses a run of
// consecutive elements and a run of 4 registers (layout.ts) can be one vec4 load or store.
// Divisibility (Triton's `divisibility`, from scalar arguments specialised as multiples of 16:
// compile.ts specializationFor) and constancy over runs of 4 tell when such a run is aligned and
// its mask the same for all 4 elements, so the load needs no check at run time (memory.ts).
// A stride holds within each run of 4 elements that starts at a multiple of 4 along the last axis
// (the only runs a layout gives an invocation, layout.ts), which is all `offs % n` keeps when offs
// has stride 1 and n is a multiple of 4 (Triton's `contiguity = gcd(lhs contiguity, rhs
// divisibility)` for RemSI): tutorial 03 wraps its row and column offsets so (`% M`, `% N`).

import type { Stmt, Value } from "../ir/ir";
import { forEachStmt } from "../ir/walk";

/** Elements per step of the flat index, or undefined when it isn't a constant. */
export type Stride = number | undefined;

export class ContiguityAnalysis {
  private readonly memo = new Map<number, Stride>();
  /** Every value a `let` variable is given (its initial value first), by variable id. */
  private readonly assigned = new Map<number, Value[]>();
  private readonly variableStrides = new Map<number, Stride>();
  private readonly divisors = new Map<number, number>();
  private readonly variableDivisors = new Map<number, number>();
  /** A `for` loop's counter: start + i × step. */
  private readonly counters = new Map<number, { start: Value; step: Value }>();
  private readonly bounds = new Map<number, number>();
  private readonly variableBounds = new Map<number, number>();

  /**
   * `run`: the runs the facts hold over (4, or 8 where the layouts hold runs of 8: layout.ts). A
   * fact over runs of 8 that start at multiples of 8 holds over the runs of 4 inside them too.
   */
  constructor(body: readonly Stmt[], readonly run: 4 | 8 = 4) {
    forEachStmt(body, (s) => {
      if (s.kind === "for") this.counters.set(s.counter.id, { start: s.start, step: s.step });
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

  /**
   * The largest power of two (up to MAX_DIVISOR) known to divide every element of `v` less its
   * stride times its index along the last axis: for `ptr + rows * stride_am + tl.arange(0, K)`
   * with stride_am a multiple of 16, 16, so each run of 4 that starts at a multiple of 4 along the
   * last axis starts at a multiple of 4 elements. 1 where nothing is known.
   */
  divisor(v: Value): number {
    const known = this.divisors.get(v.id);
    if (known !== undefined) return known;
    const d = this.stride(v) === undefined ? 1 : this.computeDivisor(v);
    this.divisors.set(v.id, d);
    return d;
  }

  /** A variable's divisor: the least of every value it is given's, assumed from the first and checked. */
  private variableDivisor(id: number): number {
    const known = this.variableDivisors.get(id);
    if (known !== undefined) return known;
    const counter = this.counters.get(id);
    const values = [...(counter ? [counter.start, counter.step] : []), ...(this.assigned.get(id) ?? [])];
    if (values.length === 0) return 1;
    let assumed = this.divisor(values[0]);
    for (;;) {
      this.variableDivisors.set(id, assumed);
      const least = Math.min(assumed, ...values.slice(1).map((x) => this.divisor(x)));
      if (least === assumed) return assumed;
      assumed = least;
      this.divisors.clear(); // divisors derived under the failed assumption
    }
  }

  private computeDivisor(v: Value): number {
    switch (v.op) {
      case "const":
        return powerOfTwoIn(v.value);
      case "param":
        // A pointer parameter is offset 0; a scalar specialised as a multiple of 16 says so.
        return v.type.kind === "pointer" ? MAX_DIVISOR : (v.divisor ?? 1);
      case "arange":
        return powerOfTwoIn(v.start);
      case "splat":
      case "broadcast":
      case "cast":
        return isInteger(v.value) ? this.divisor(v.value) : 1;
      case "reshape": {
        const from = v.value.type.shape;
        const to = v.type.shape;
        // [n] → [n, 1]: each element is the value's, whose index along its last axis varies.
        if (to[to.length - 1] === 1 && from[from.length - 1] !== 1) return Math.min(this.divisor(v.value), powerOfTwoIn(this.stride(v.value) ?? 1));
        return this.divisor(v.value);
      }
      case "ptrAdd":
        return Math.min(this.divisor(v.ptr), this.divisor(v.offset));
      case "binary": {
        if (v.fn === "add" || v.fn === "sub") return Math.min(this.divisor(v.lhs), this.divisor(v.rhs));
        // x % n = x - n·trunc(x / n), whatever the signs: less its stride × index, a multiple of both.
        if (v.fn === "mod") return Math.min(this.divisor(v.lhs), this.divisor(v.rhs));
        if (v.fn !== "mul") return 1;
        const [a, b] = [this.stride(v.lhs), this.stride(v.rhs)];
        const [ca, cb] = [constantOf(v.lhs), constantOf(v.rhs)];
        if (a === 0 && b === 0) return Math.min(MAX_DIVISOR, this.divisor(v.lhs) * this.divisor(v.rhs));
        if (cb !== undefined) return Math.min(MAX_DIVISOR, this.divisor(v.lhs) * powerOfTwoIn(cb));
        if (ca !== undefined) return Math.min(MAX_DIVISOR, this.divisor(v.rhs) * powerOfTwoIn(ca));
        return 1;
      }
      case "readVar":
        return this.variableDivisor(v.variable.id);
      default:
        return 1;
    }
  }

  /**
   * Whether `v` is the same across each run of 4 elements that starts at a multiple of 4 along
   * its last axis (Triton's constancy): `offs < n` is, when offs has stride 1 and both offs's
   * base and n are multiples of 4; so is anything that does not change along the last axis.
   */
  runConstant(v: Value): boolean {
    if (isInteger(v) && this.stride(v) === 0) return true;
    switch (v.op) {
      case "const":
      case "param":
      case "splat":
        return true;
      case "broadcast": {
        const from = v.value.type.shape;
        return from[from.length - 1] === 1 || this.runConstant(v.value);
      }
      case "reshape": {
        const from = v.value.type.shape;
        const to = v.type.shape;
        return from[from.length - 1] === to[to.length - 1] && this.runConstant(v.value);
      }
      case "unary":
        return v.fn === "not" && this.runConstant(v.value);
      case "binary": {
        if (v.fn === "land" || v.fn === "lor" || v.fn === "and" || v.fn === "or" || v.fn === "xor") return this.runConstant(v.lhs) && this.runConstant(v.rhs);
        const [a, b] = [this.stride(v.lhs), this.stride(v.rhs)];
        if (a === 0 && b === 0) return true;
        // i < n and i >= n (n < i, n >= i mirrored) over i = 4q … 4q + 3 with n a multiple of 4 (8 for runs of 8).
        const steps = (i: Value, n: Value) => this.stride(i) === 1 && this.stride(n) === 0 && this.divisor(i) >= this.run && this.divisor(n) >= this.run;
        if (v.fn === "lt" || v.fn === "ge") return steps(v.lhs, v.rhs);
        if (v.fn === "gt" || v.fn === "le") return steps(v.rhs, v.lhs);
        return false;
      }
      default:
        return false;
    }
  }

  /**
   * Whether every element of the integer `v` is known to be ≥ 0 (lowerBound): what `offs % n`
   * needs to keep its runs.
   */
  nonNegative(v: Value): boolean {
    return this.lowerBound(v) >= 0;
  }

  /**
   * A number every element of the integer `v` is known to be at least, or -Infinity: program ids,
   * aranges, constants, arguments specialised as multiples of 16 (non-negative ones only, compile.ts
   * specializationFor), and what sums, differences by a constant (tl.cdiv's `- 1`), products,
   * quotients, minima, maxima and remainders make of them; a variable's, the least of every value
   * it is given (assumed from the first, then checked).
   */
  lowerBound(v: Value): number {
    const known = this.bounds.get(v.id);
    if (known !== undefined) return known;
    const result = this.computeLowerBound(v);
    this.bounds.set(v.id, result);
    return result;
  }

  private computeLowerBound(v: Value): number {
    if (v.type.kind !== "data") return -Infinity;
    switch (v.op) {
      case "const":
        return v.value;
      case "param":
        return v.type.dtype === "u32" || (v.divisor ?? 1) > 1 ? 0 : -Infinity;
      case "programId":
      case "numPrograms":
        return 0;
      case "arange":
        return v.start;
      case "splat":
      case "broadcast":
      case "reshape":
        return this.lowerBound(v.value);
      case "cast":
        // An i32 keeps its value in i32, u32 and i64; nothing else is followed.
        return v.value.type.kind === "data" && v.value.type.dtype === "i32" ? this.lowerBound(v.value) : -Infinity;
      case "binary": {
        const [a, b] = [this.lowerBound(v.lhs), this.lowerBound(v.rhs)];
        switch (v.fn) {
          case "add":
            return a + b;
          case "sub": {
            const c = constantOf(v.rhs);
            return c === undefined ? -Infinity : a - c;
          }
          case "mul":
            return a >= 0 && b >= 0 ? a * b : -Infinity;
          case "div":
            // A divisor whose sign isn't known is taken as positive, as Triton's axis analysis
            // takes every index: the grouped order's `(pid % n) / group_size_m`, where
            // group_size_m = min(num_pid_m - first_pid_m, GROUP_M) is ≥ 1 for every program of the
            // grid the tutorial launches; a program past it gets negative offsets, which the checked
            // launch reports (KL3101) before any program is timed.
            return a >= 0 && b >= 0 ? 0 : a >= 0 && b === -Infinity ? 0 : -Infinity;
          case "mod": // C's remainder takes the dividend's sign
          case "shr":
            return a >= 0 ? 0 : -Infinity;
          case "and": // the sign bit is set only where both have it
            return a >= 0 || b >= 0 ? 0 : -Infinity;
          default:
            return -Infinity;
        }
      }
      case "math": {
        const bounds = v.args.map((x) => this.lowerBound(x));
        if (v.fn === "minimum") return Math.min(...bounds);
        if (v.fn === "maximum") return Math.max(...bounds);
        return -Infinity;
      }
      case "readVar":
        return this.variableLowerBound(v.variable.id);
      default:
        return -Infinity;
    }
  }

  private variableLowerBound(id: number): number {
    const known = this.variableBounds.get(id);
    if (known !== undefined) return known;
    const counter = this.counters.get(id);
    // A counter runs from its start by steps known not to be negative.
    if (counter && this.lowerBound(counter.step) < 0) return this.settle(id, -Infinity);
    const values = [...(counter ? [counter.start] : []), ...(this.assigned.get(id) ?? [])];
    if (values.length === 0) return -Infinity;
    const assumed = this.lowerBound(values[0]);
    this.variableBounds.set(id, assumed);
    if (values.slice(1).every((x) => this.lowerBound(x) >= assumed)) return assumed;
    // Bounds derived under the failed assumption go too.
    this.bounds.clear();
    this.variableBounds.clear();
    return this.settle(id, -Infinity);
  }

  private settle(id: number, bound: number): number {
    this.variableBounds.set(id, bound);
    return bound;
  }

  private compute(v: Value): Stride {
    if (v.type.shape.length === 0) return 0;
    if (v.type.kind === "data" && v.type.dtype !== "i32" && v.type.dtype !== "u32" && v.type.dtype !== "i64") return undefined;
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
        if (a === 0 && b === 0) return 0;
        // (offs % n) over a run offs = 4q … 4q + 3 with n a multiple of 4 (8 for runs of 8): the
        // wrap to 0 falls on the run's first element or outside it — for offs ≥ 0 only (C's
        // remainder of a negative offs jumps from 0 to 1 - n inside a run).
        if (v.fn === "mod" && a === 1 && b === 0 && this.divisor(v.lhs) >= this.run && this.divisor(v.rhs) >= this.run && this.nonNegative(v.lhs)) return 1;
        return undefined;
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

/** What divisor() reports for 0 and anything it knows to be a multiple of at least this. */
export const MAX_DIVISOR = 1024;

/** The largest power of two (up to MAX_DIVISOR) dividing an integer; 1 for anything else. */
function powerOfTwoIn(n: number): number {
  if (!Number.isInteger(n)) return 1;
  let d = 1;
  while (d < MAX_DIVISOR && n % (2 * d) === 0) d *= 2;
  return d;
}

function isInteger(v: Value): boolean {
  return v.type.kind === "pointer" || v.type.dtype === "i32" || v.type.dtype === "u32" || v.type.dtype === "i64";
}

/** The compile-time value every element of `v` has, if any. */
function constantOf(v: Value): number | undefined {
  if (v.op === "const") return v.value;
  if (v.op === "splat" || v.op === "broadcast" || v.op === "reshape") return constantOf(v.value);
  return undefined;
}

// bf16 arithmetic, made explicit as f32 arithmetic and a rounding (ir/bf16.ts says how a bf16 is
// held). Decision: an operation whose Triton result dtype is bf16 (`x + y` of two bf16 blocks,
// `tl.exp(x)` of one, `x * 2.0`) rounds its result to bf16 after each operation, as Triton's does on
// sm90, where bf16 ops are native (or computed in f32 and truncated back, for the math functions):
// Kernel Lab computes each one in f32 and casts the result to bf16 (round to nearest even). Since two
// bf16 operands are exact in f32, and an f32 add, sub or mul of them rounded to bf16 is the bf16
// result (f32 has more than twice bf16's precision), this matches native bf16 arithmetic.
// Reductions (tl.sum of a bf16 block) accumulate in f32 and round once at the end: closer to the
// exact sum than Triton's tree of bf16 adds, and order-independent like none of them.
// Comparisons, tl.dot (whose result is f32 anyway) and every other computing op see f32 operands.
// Ops that only move values (loads, stores, tl.where, broadcasts, reshapes, casts) keep bf16, so
// codegen and the interpreter only convert and move bf16s, never compute on them.

import type { Span } from "../diagnostics/diagnostic";
import type { Value, ValueOp, ValueType } from "../ir/ir";

type Emit = (op: ValueOp, type: ValueType, span: Span) => Value;

const isBf16 = (v: Value | undefined) => v !== undefined && v.type.kind === "data" && v.type.dtype === "bf16";

/** The operands of a computing op, or undefined for an op that only moves values. */
function computedOperands(op: ValueOp): readonly (Value | undefined)[] | undefined {
  switch (op.op) {
    case "binary":
      return op.fn === "land" || op.fn === "lor" ? undefined : [op.lhs, op.rhs];
    case "unary":
      return op.fn === "neg" ? [op.value] : undefined;
    case "math":
      return op.args;
    case "reduce":
      return [op.value];
    case "dot":
      return [op.a, op.b, op.acc];
    default:
      return undefined;
  }
}

/** The op with its bf16 operands replaced by f32 ones (`wide` maps each operand). */
function withOperands(op: ValueOp, wide: (v: Value) => Value): ValueOp {
  switch (op.op) {
    case "binary":
      return { ...op, lhs: wide(op.lhs), rhs: wide(op.rhs) };
    case "unary":
      return { ...op, value: wide(op.value) };
    case "math":
      return { ...op, args: op.args.map(wide) };
    case "reduce":
      return { ...op, value: wide(op.value) };
    case "dot":
      return { ...op, a: wide(op.a), b: wide(op.b), ...(op.acc ? { acc: wide(op.acc) } : {}) };
    default:
      return op;
  }
}

/**
 * `op` emitted in f32 where it computes with or to bf16 (then its result cast to bf16), or undefined
 * where it neither takes nor gives a bf16 (the caller emits it as it is).
 */
export function emitViaF32(emit: Emit, op: ValueOp, type: ValueType, span: Span): Value | undefined {
  const operands = computedOperands(op);
  if (!operands) return undefined;
  const gives = type.kind === "data" && type.dtype === "bf16";
  if (!gives && !operands.some(isBf16)) return undefined;
  // A bf16 value is exact in f32: a constant is the same number, anything else a cast (codegen: the register itself).
  const wide = (v: Value): Value => {
    if (!isBf16(v)) return v;
    if (v.op === "const") return emit({ op: "const", value: v.value }, { ...v.type, dtype: "f32" } as ValueType, v.span);
    return emit({ op: "cast", value: v }, { ...v.type, dtype: "f32" } as ValueType, v.span);
  };
  const f32Type = gives ? ({ ...type, dtype: "f32" } as ValueType) : type;
  const computed = emit(withOperands(op, wide), f32Type, span);
  return gives ? emit({ op: "cast", value: computed }, type, span) : computed;
}

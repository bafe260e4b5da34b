// The checked kernel IR: what the semantics pass produces from TypeScript syntax and what the
// code generator and the CPU interpreter consume. Every node records its source span.
//
// Shape: statements in structured control flow; each value is defined once by a `let` statement
// and used only after it (so evaluation order, e.g. a load before a store, is explicit).
// Operands of an op already agree in shape and dtype: the semantics pass inserts `splat`,
// `broadcast` and `cast` nodes (Triton's implicit broadcasting and promotion made explicit).

import type { Span } from "../diagnostics/diagnostic";
import { assertNever } from "./never";

export type NumDtype = "f32" | "f16" | "bf16" | "i32" | "u32" | "i64";
export type Dtype = NumDtype | "bool";
/**
 * 8-bit elements a pointer may point to (torch.bool, int8, uint8, float8_e4m3fn): bytes in memory,
 * held in a register as a bool (`bool`), an i32 (`i8` sign-extended, `u8` zero-extended), as Triton
 * does, or an f32 holding an fp8 value (`f8e4m3`, `f8e5m2`: ir/f8.ts).
 */
export type ByteDtype = "bool" | "i8" | "u8" | F8Dtype;
/** fp8 formats (ir/f8.ts): e4m3fn (torch.float8_e4m3fn, tl.float8e4nv) and e5m2 (torch.float8_e5m2, tl.float8e5). */
export type F8Dtype = "f8e4m3" | "f8e5m2";
/** What a pointer points to: a dtype held as itself, or bytes (ByteDtype). */
export type PointeeDtype = NumDtype | ByteDtype;
/**
 * Elements narrower than a 32-bit word, packed in u32 words in a buffer (codegen/bytes.ts): bytes 4
 * to a word, bf16 (held in an f32 register, ir/bf16.ts) 2 to a word.
 */
export type PackedDtype = ByteDtype | "bf16";

export function isByteDtype(d: PointeeDtype | Dtype): d is ByteDtype {
  return d === "bool" || d === "i8" || d === "u8" || d === "f8e4m3" || d === "f8e5m2";
}

export function isPackedDtype(d: PointeeDtype | Dtype): d is PackedDtype {
  return isByteDtype(d) || d === "bf16";
}

/** The dtype a pointee is held as in a register (what tl.load gives and tl.store takes). */
export function heldDtype(d: PointeeDtype): Dtype {
  return d === "i8" || d === "u8" ? "i32" : d === "f8e4m3" || d === "f8e5m2" ? "f32" : d;
}
/** Static block shape; `[]` is a scalar. Every extent is a power of two. */
export type Shape = readonly number[];

/**
 * A value is either data of a dtype, or a pointer into one pointer parameter's buffer.
 * Pointers are always derived from exactly one parameter (`param`), known statically;
 * their run-time representation is an i32 element offset into that buffer.
 */
export type ValueType =
  | { kind: "data"; dtype: Dtype; shape: Shape }
  /**
   * `view`: in a launch specialised for pointer arguments sharing memory (KernelIR.views), the
   * pointer parameter this pointer came from; `param` is then their shared storage's binding.
   */
  | { kind: "pointer"; pointee: PointeeDtype; param: string; shape: Shape; view?: string };

export type UnaryFn = "neg" | "not" | "bitnot";
export type ArithFn = "add" | "sub" | "mul" | "div" | "mod";
export type BitFn = "and" | "or" | "xor" | "shl" | "shr";
export type CompareFn = "lt" | "le" | "gt" | "ge" | "eq" | "ne";
export type LogicFn = "land" | "lor";
export type BinaryFn = ArithFn | BitFn | CompareFn | LogicFn;
export type MathFn =
  | "exp" | "log" | "sqrt" | "rsqrt" | "abs" | "sin" | "cos" | "floor" | "ceil" | "sigmoid"
  | "maximum" | "minimum" | "fma"
  | SpecialMathFn;
/** Issue 11's math (ir/special-math.ts, codegen/special-math.ts): tl.exp2 … tl.clamp; issue 23's correctly rounded division and square root. */
export type SpecialMathFn = "exp2" | "log2" | "tanh" | "erf" | "pow" | "umulhi" | "clamp" | "divRn" | "sqrtRn" | InverseTrigFn | "log1p" | "expm1" | "roundF8e4m3" | "roundF8e5m2" | LibdeviceFn;
/** libdevice's special functions (lgamma, erfc, erfcx on floats) and bit counts (popc, clz, ffs on 32-bit integers, giving i32): semantics/libdevice.ts. */
export type LibdeviceFn = "lgamma" | "erfc" | "erfcx" | "popc" | "clz" | "ffs";
/** libdevice's inverse trigonometric functions (Triton tutorial 07's `libdevice.asin`): WGSL builtins. */
export type InverseTrigFn = "asin" | "acos" | "atan";
/** What tl.rand/randn/randint/randint4x draw from Philox's four words (ir/philox.ts). */
export type RandomKind = "uniform" | "normal" | "int";
export type ReduceFn = "sum" | "max" | "min" | "argmax" | "argmin" | "xorSum";
/** Read-modify-write functions of tl.atomic* (`cas` compares with `cmp` first). */
export type AtomicFn = "add" | "max" | "min" | "and" | "or" | "xor" | "xchg" | "cas";

/** A `let` binding or a loop counter. Variable ids and value ids are separate numberings. */
export interface Variable {
  id: number;
  name: string;
  type: ValueType;
  span: Span;
}

interface ValueBase {
  id: number;
  span: Span;
  type: ValueType;
}

export type Value = ValueBase & ValueOp;

export type ValueOp =
  /** A compile-time number (literal, constexpr, or folded); `type.shape` is []. */
  | { op: "const"; value: number }
  /**
   * A scalar parameter, or a pointer parameter (offset 0). `divisor`: the launch's value is a
   * multiple of it, and not negative (an i32/u32 argument specialised as a non-negative multiple of 16,
   * compile.ts specializationFor).
   */
  | { op: "param"; name: string; divisor?: number }
  | { op: "programId"; axis: 0 | 1 | 2 }
  | { op: "numPrograms"; axis: 0 | 1 | 2 }
  /** i32 block [end - start] holding start, start+1, … */
  | { op: "arange"; start: number; end: number }
  /** A scalar stretched to `type.shape`. */
  | { op: "splat"; value: Value }
  /** A block whose size-1 axes stretch to `type.shape` (same rank). */
  | { op: "broadcast"; value: Value }
  /** Same elements, new shape (same count); expandDims is a reshape that adds a 1. */
  | { op: "reshape"; value: Value }
  /** 2-D transpose. */
  | { op: "trans"; value: Value }
  /** Axes reordered: axis i of the result is axis `dims[i]` of the value (tl.permute, tl.trans of 3-D blocks). */
  | { op: "permute"; value: Value; dims: readonly number[] }
  /** The two values, of equal shapes but along `axis`, one after the other along it (tl.cat, tl.join, tl.interleave). */
  | { op: "concat"; values: readonly [Value, Value]; axis: number }
  /** The elements `start` … `start + type.shape[axis] - 1` along `axis` (tl.split's halves). */
  | { op: "slice"; value: Value; axis: number; start: number }
  /** The elements in reverse order along `axis` (tl.flip). */
  | { op: "flip"; value: Value; axis: number }
  /** Element e is the value's element with its coordinate along `axis` replaced by `index`'s element e, clamped to the axis (tl.gather). */
  | { op: "gather"; value: Value; index: Value; axis: number }
  /** i32 counts of the value's elements equal to 0 … bins - 1 (others, and masked-off ones, not counted: tl.histogram). */
  | { op: "histogram"; value: Value; mask?: Value; bins: number }
  /**
   * The value's lines along `axis` sorted, stably, in ascending (or descending) order of a total
   * order on the bits: floats as IEEE totalOrder (-NaN < -inf < … < -0 < +0 < … < +inf < NaN), integers as numbers (tl.sort).
   */
  | { op: "sort"; value: Value; axis: number; descending: boolean }
  /** Element-wise conversion to `type.dtype`. */
  | { op: "cast"; value: Value }
  /** The same 32 bits read as `type.dtype` (tl.cast(x, dtype, { bitcast: true })): f32, i32 and u32. */
  | { op: "bitcast"; value: Value }
  | { op: "unary"; fn: UnaryFn; value: Value }
  /** Operands have equal shapes and dtypes; comparisons give bool, shifts take the lhs dtype. */
  | { op: "binary"; fn: BinaryFn; lhs: Value; rhs: Value }
  /** Pointer plus i32 element offsets of the same shape. */
  | { op: "ptrAdd"; ptr: Value; offset: Value }
  | { op: "math"; fn: MathFn; args: Value[] }
  | { op: "where"; cond: Value; a: Value; b: Value }
  /** Masked-off lanes read `other` (already splatted/cast to the result type), default 0. */
  | { op: "load"; ptr: Value; mask?: Value; other?: Value }
  | { op: "readVar"; variable: Variable }
  /** Reduction along `axis` of a block (the axis is removed from the shape). */
  | { op: "reduce"; fn: ReduceFn; value: Value; axis: number }
  /**
   * [M,K] x [K,N] (+ acc [M,N]) -> [M,N], f32 accumulate; a and b both f32 or both f16. With a
   * leading batch axis, [B,M,K] x [B,K,N] -> [B,M,N]: one product per batch (Triton's 3-D tl.dot).
   */
  | { op: "dot"; a: Value; b: Value; acc?: Value }
  /**
   * tl.atomic*: per lane, old = *ptr; *ptr = fn(old, value) (cas: only where old == cmp); the
   * value is the old contents. Operands share the pointers' shape and pointee dtype; masked-off
   * lanes touch nothing and give 0.
   */
  | { op: "atomic"; fn: AtomicFn; ptr: Value; value: Value; cmp?: Value; mask?: Value }
  /**
   * Philox 4×32 on counter (offset, 0, 0, 0) and key (seed, its sign): `int` is word `word`
   * (u32), `uniform` word 0 as f32 in [0, 1), `normal` Box–Muller on words 0 and 1. `seed` is a
   * scalar i32/u32, `offset` i32/u32 of the value's shape. `counters` (tl.philox's c1, c2, c3,
   * u32 of the value's shape) replace the three zeros; `rounds` (Triton's n_rounds) is 10 when absent.
   */
  | { op: "random"; kind: RandomKind; word: 0 | 1 | 2 | 3; seed: Value; offset: Value; counters?: readonly [Value, Value, Value]; rounds?: number }
  /**
   * Inclusive scan along `axis` (tl.cumsum, tl.cumprod, tl.associativeScan) of one block or of a
   * tuple of blocks of one shape scanned together (Triton's multi-operand form); the value is the
   * scan's result `index` (one op per result, each computing the same scan); same shape.
   */
  | { op: "scan"; values: readonly Value[]; index: number; axis: number; reverse: boolean; combine: Combine }
  /** Reduction along `axis` with a combine function (tl.reduce), of one block or a tuple of them as `scan`; the axis is removed. */
  | { op: "reduceWith"; values: readonly Value[]; index: number; axis: number; combine: Combine }
  /** Parameter `index` of a combine function; only inside a `Combine` template, never in a body. */
  | { op: "combineArg"; index: number };

/**
 * A combine function of n operands as a template: `args` are its 2·n parameters (combineArg 0 … 2n-1:
 * the left side's n scalars, then the right side's), `results` its n results, built from `args`,
 * constants and element-wise ops only (semantics/combine.ts checks); code generation and the
 * interpreter evaluate it once per combine step with the operands substituted. n is 1 but for
 * Triton's multi-operand tl.reduce / tl.associative_scan (Welford's mean, m2 and count).
 */
export interface Combine {
  args: readonly Value[];
  results: readonly Value[];
}

export type Stmt =
  | { kind: "let"; value: Value }
  | { kind: "store"; span: Span; ptr: Value; value: Value; mask?: Value }
  | { kind: "declare"; span: Span; variable: Variable; init: Value }
  | { kind: "assign"; span: Span; variable: Variable; value: Value }
  /**
   * for (counter = start; counter <cmp> end; counter += step). Bounds and step are scalars of the
   * counter's dtype, computed once before the loop (as Triton's range), not re-read per iteration.
   */
  | {
      kind: "for";
      span: Span;
      counter: Variable;
      start: Value;
      end: Value;
      step: Value;
      cmp: "lt" | "le" | "gt" | "ge" | "ne";
      body: Stmt[];
    }
  /** `cond` is a scalar bool. */
  | { kind: "if"; span: Span; cond: Value; then: Stmt[]; else: Stmt[] }
  /** while (cond) { body }: `head` computes the scalar bool `cond` before every trip (also after a continue). */
  | { kind: "while"; span: Span; head: Stmt[]; cond: Value; body: Stmt[] }
  /** Leaves, or goes to the next trip of, the innermost `for` or `while`. */
  | { kind: "break"; span: Span }
  | { kind: "continue"; span: Span }
  /** tl.debugBarrier: every invocation of the program waits here for the others (nothing on the CPU, which runs a program as one). */
  | { kind: "barrier"; span: Span }
  /** tl.devicePrint / tl.deviceAssert (ir/debug.ts: their site table, the records they leave). */
  | PrintStmt
  | AssertStmt;

/** tl.devicePrint: one line per element of each value, per program. `names` are the values' source text. */
export interface PrintStmt { kind: "print"; span: Span; prefix: string; values: Value[]; names: string[] }
/** tl.deviceAssert: the run fails where `cond` (a bool scalar or block) is false. */
export interface AssertStmt { kind: "assert"; span: Span; cond: Value; message: string }

export type ParamKind = "pointer" | "scalar" | "constexpr";

export interface Param {
  name: string;
  kind: ParamKind;
  /** Pointee dtype for pointers (the only kind with a ByteDtype), the dtype for scalars, i32 for constexprs. */
  dtype: PointeeDtype;
  span: Span;
}

/** A kernel specialised for one set of constexpr values. */
export interface KernelIR {
  name: string;
  span: Span;
  params: Param[];
  constexprs: Readonly<Record<string, number>>;
  body: Stmt[];
  /** The pointer parameters the kernel stores through (the others are read-only). */
  writtenParams: ReadonlySet<string>;
  /** The user's names of values (parameters, consts), for the debugger; `let` variables carry their own. */
  valueNames?: readonly ValueName[];
  /**
   * Pointer parameters compiled as views of one storage (Specialization.views): each is its
   * storage's binding (a pointer parameter of `params` in their place) plus an element offset.
   */
  views?: Readonly<Record<string, PointerView>>;
}

/**
 * A pointer parameter as a view of a storage other parameters share: its element i is element
 * `offset + i` of `storage`. The offset is 0 or the launch's i32 scalar `viewOffsetScalar(param)`
 * ("scalar16": known a non-negative multiple of 16, as Specialization.divisible), so one compile
 * serves every launch whose views start alike.
 */
export interface PointerView {
  storage: string;
  offset: 0 | "scalar" | "scalar16";
}

/** The uniform scalar that holds a view's offset in its storage (PointerView), set by the launch. */
export function viewOffsetScalar(param: string): string {
  return `kl_offset_${param}`;
}

/** `name` (written at `span`) stands for the value of id `value` from there on, in its scope. */
export interface ValueName {
  name: string;
  span: Span;
  value: number;
}


export function numel(shape: Shape): number {
  return shape.reduce((a, b) => a * b, 1);
}

export function typeToString(type: ValueType): string {
  const shape = type.shape.length === 0 ? "" : `[${type.shape.join(", ")}]`;
  return type.kind === "pointer" ? `Ptr<${type.pointee}>${shape}` : `${type.dtype}${shape}`;
}

/** The values an op reads (not through variables), in a fixed order. */
export function operandsOf(v: Value): Value[] {
  const operands: Value[] = [];
  withOperands(v, (o) => {
    operands.push(o);
    return o;
  });
  return operands;
}

/** `v` with each operand replaced by `f(operand)` (the same object when none changes). */
export function mapOperands(v: Value, f: (operand: Value) => Value): Value {
  const before = operandsOf(v);
  const after = before.map(f);
  if (after.every((o, i) => o === before[i])) return v;
  let next = 0;
  return withOperands(v, () => after[next++]);
}

/** A copy of `v` whose operands are `f(operand)`, called once per operand in operandsOf's order. */
function withOperands(v: Value, f: (operand: Value) => Value): Value {
  switch (v.op) {
    case "const":
    case "param":
    case "programId":
    case "numPrograms":
    case "arange":
    case "readVar":
    case "combineArg":
      return v;
    case "splat":
    case "broadcast":
    case "reshape":
    case "trans":
    case "bitcast":
    case "permute":
    case "slice":
    case "flip":
    case "sort":
    case "cast":
    case "unary":
    case "reduce":
      return { ...v, value: f(v.value) };
    case "scan":
    case "reduceWith":
      return { ...v, values: v.values.map((x) => f(x)) };
    case "binary": {
      const lhs = f(v.lhs);
      return { ...v, lhs, rhs: f(v.rhs) };
    }
    case "ptrAdd": {
      const ptr = f(v.ptr);
      return { ...v, ptr, offset: f(v.offset) };
    }
    case "math":
      return { ...v, args: v.args.map((a) => f(a)) };
    case "where": {
      const cond = f(v.cond);
      const a = f(v.a);
      return { ...v, cond, a, b: f(v.b) };
    }
    case "load": {
      const ptr = f(v.ptr);
      const mask = v.mask ? f(v.mask) : undefined;
      const other = v.other ? f(v.other) : undefined;
      return { ...v, ptr, ...(mask ? { mask } : {}), ...(other ? { other } : {}) };
    }
    case "concat": {
      const a = f(v.values[0]);
      return { ...v, values: [a, f(v.values[1])] };
    }
    case "gather": {
      const value = f(v.value);
      return { ...v, value, index: f(v.index) };
    }
    case "histogram": {
      const value = f(v.value);
      const mask = v.mask ? f(v.mask) : undefined;
      return { ...v, value, ...(mask ? { mask } : {}) };
    }
    case "random": {
      const seed = f(v.seed);
      const offset = f(v.offset);
      if (!v.counters) return { ...v, seed, offset };
      const c1 = f(v.counters[0]);
      const c2 = f(v.counters[1]);
      return { ...v, seed, offset, counters: [c1, c2, f(v.counters[2])] };
    }
    case "dot": {
      const a = f(v.a);
      const b = f(v.b);
      const acc = v.acc ? f(v.acc) : undefined;
      return { ...v, a, b, ...(acc ? { acc } : {}) };
    }
    case "atomic": {
      const ptr = f(v.ptr);
      const value = f(v.value);
      const cmp = v.cmp ? f(v.cmp) : undefined;
      const mask = v.mask ? f(v.mask) : undefined;
      return { ...v, ptr, value, ...(cmp ? { cmp } : {}), ...(mask ? { mask } : {}) };
    }
    default:
      return assertNever(v, "value");
  }
}

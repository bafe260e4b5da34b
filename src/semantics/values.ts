// Typed value construction shared by the statement/expression lowering and the intrinsics:
// implicit broadcasting and promotion become explicit `splat`/`reshape`/`broadcast`/`cast` nodes
// here, and operations on constants are folded.

import type { Span } from "../diagnostics/diagnostic";
import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { BinaryFn, Dtype, F8Dtype, NumDtype, Shape, UnaryFn, Value, ValueType, Variable } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { IrBuilder, data } from "./builder";
import { convert, foldBinary, foldUnary } from "./fold";
import { fitsIn32 } from "../ir/int64";
import { broadcastShapes, isFloat, isInt, promote, sameShape, shapeToString, type Operand } from "./rules";

const COMPARE: ReadonlySet<BinaryFn> = new Set(["lt", "le", "gt", "ge", "eq", "ne"]);
const BITWISE: ReadonlySet<BinaryFn> = new Set(["and", "or", "xor", "shl", "shr"]);

export const OPERATOR_TEXT: Record<BinaryFn, string> = {
  add: "+", sub: "-", mul: "*", div: "/", mod: "%",
  and: "&", or: "|", xor: "^", shl: "<<", shr: ">>",
  lt: "<", le: "<=", gt: ">", ge: ">=", eq: "===", ne: "!==",
  land: "&&", lor: "||",
};

export function isConst(v: Value): v is Value & { op: "const"; value: number } {
  return v.op === "const";
}

export function dtypeOf(v: Value): Dtype {
  return v.type.kind === "data" ? v.type.dtype : "i32";
}

/** Arithmetic that can leave an 8-bit range (add, sub, mul, div, shl): wrapped back to 8 bits after it. */
const LEAVES_BYTES: ReadonlySet<BinaryFn> = new Set(["add", "sub", "mul", "div", "shl"]);
/** Arithmetic whose 8-bit operands give an 8-bit result with no wrap (and, or, xor, shr, mod). */
const KEEPS_BYTES: ReadonlySet<BinaryFn> = new Set(["and", "or", "xor", "shr", "mod"]);

/** Whether `v` is a constant an int8 / uint8 holds (Triton's scalar then takes the tensor's dtype). */
function holdsByte(kind: "i8" | "u8", v: Value): boolean {
  return isConst(v) && Number.isInteger(v.value) && (kind === "u8" ? v.value >= 0 && v.value <= 255 : v.value >= -128 && v.value <= 127);
}

export class ValueFactory {
  /**
   * The values that are int8 / uint8 in Triton, held as i32 (ir.ts heldDtype): a load through a
   * Ptr<i8> / Ptr<u8>, `.to(tl.int8)` / `.to(tl.uint8)`, and integer arithmetic of them with each
   * other or with a constant, which Triton computes in 8 bits: `(q << 4) >> 4` of a uint8 q wraps
   * there, so each result that can leave the 8 bits is wrapped back (wrapByte), as Triton's would.
   * By value id; a value made any other way (a variable read, a reshape) is taken as an i32.
   */
  private readonly bytes = new Map<number, "i8" | "u8">();

  constructor(
    readonly b: IrBuilder,
    readonly log: DiagnosticLog,
  ) {}

  /**
   * The variables declared with an int8 / uint8 (by variable id): a loop's carried value keeps its
   * dtype in Triton, so the variable's reads are 8-bit values too, and a value stored in it inside a
   * loop or branch is wrapped to 8 bits (`q = q * 3` in a loop wraps at each trip, as Triton's does).
   */
  private readonly byteVariables = new Map<number, "i8" | "u8">();

  /**
   * Values Triton holds as fp8 (a load through a float8 pointer, a cast to a float8 dtype), held as the f32 of the
   * same value: `x.dtype` is their fp8 dtype, so `y.to(x.dtype)` rounds to it as Triton's does.
   */
  private readonly f8s = new Map<number, F8Dtype>();

  /** The fp8 dtype a value holds (undefined: any other value). */
  f8Kind(v: Value): F8Dtype | undefined {
    return this.f8s.get(v.id);
  }

  /** Marks an f32 value as holding an fp8 dtype's value. */
  markF8(v: Value, kind: F8Dtype): Value {
    if (v.type.kind === "data" && v.type.dtype === "f32") this.f8s.set(v.id, kind);
    return v;
  }

  /** The 8-bit kind of a value (undefined: an i32 or any other value). */
  byteKind(v: Value): "i8" | "u8" | undefined {
    return this.bytes.get(v.id);
  }

  /** The 8-bit kind a variable holds (declared with an int8 / uint8). */
  variableByteKind(variable: Variable): "i8" | "u8" | undefined {
    return this.byteVariables.get(variable.id);
  }

  /** A variable declared with `init`: it holds 8-bit values where `init` is one. */
  declareVariable(variable: Variable, init: Value): void {
    const kind = this.bytes.get(init.id);
    if (kind) this.byteVariables.set(variable.id, kind);
  }

  /** A read of `variable`, marked 8-bit where the variable holds 8 bits. */
  readVariable(variable: Variable, span: Span): Value {
    const read = this.b.emit({ op: "readVar", variable }, variable.type, span);
    const kind = this.byteVariables.get(variable.id);
    return kind ? this.markByte(read, kind) : read;
  }

  /** A value about to be stored in `variable`: wrapped to its 8 bits where it holds them and the value may leave them. */
  storedInVariable(variable: Variable, value: Value, span: Span): Value | undefined {
    const kind = this.byteVariables.get(variable.id);
    if (!kind || this.bytes.get(value.id) === kind || holdsByte(kind, value)) return value;
    return this.wrapByte(value, kind, span);
  }

  /** Marks an i32 value as an int8 / uint8 of Triton's (a load of one, a cast to one). */
  markByte(v: Value, kind: "i8" | "u8"): Value {
    if (v.type.kind === "data" && v.type.dtype === "i32" && !isConst(v)) this.bytes.set(v.id, kind);
    return v;
  }

  /**
   * `x.to(tl.int32)`: an int8 / uint8 (held as an i32 already) as a new i32 value that is no longer
   * one, so arithmetic on it is 32-bit again; any other value converted as cast does.
   */
  widenByte(v: Value, span: Span): Value {
    if (!this.bytes.has(v.id)) return this.cast(v, "i32", span);
    return this.b.emit({ op: "cast", value: v }, data("i32", v.type.shape), span);
  }

  /** An i32's low 8 bits, sign-extended (int8) or zero-extended (uint8), marked so. */
  wrapByte(v: Value, kind: "i8" | "u8", span: Span): Value | undefined {
    const c = (n: number) => this.constant(n, "i32", span);
    if (kind === "u8") {
      const low = this.emitBinary("and", "i32", "i32", v, c(0xff), span, "&");
      return low && this.markByte(low, kind);
    }
    const high = this.emitBinary("shl", "i32", "i32", v, c(24), span, "<<");
    const back = high && this.emitBinary("shr", "i32", "i32", high, c(24), span, ">>");
    return back && this.markByte(back, kind);
  }

  /**
   * Of an operation on a and b (b undefined: unary), the 8-bit kind Triton gives its result: both of
   * it, or it and a constant it holds (Triton's scalar takes the tensor's dtype; one outside it is an
   * error there, and an i32 here, as before).
   */
  private resultByteKind(a: Value, b?: Value): "i8" | "u8" | undefined {
    const ka = this.bytes.get(a.id);
    const kb = b && this.bytes.get(b.id);
    if (!b) return ka;
    if (ka && (kb === ka || holdsByte(ka, b))) return ka;
    if (kb && holdsByte(kb, a)) return kb;
    return undefined;
  }

  constant(value: number, dtype: Dtype, span: Span): Value {
    return this.b.constant(value, dtype, span);
  }

  /** Converts a data value to `dtype` (a no-op when it already has it). */
  cast(v: Value, dtype: Dtype, span: Span): Value {
    if (v.type.kind !== "data" || v.type.dtype === dtype) return v;
    if (isConst(v)) return this.constant(convert(v.type.dtype, dtype, v.value), dtype, span);
    return this.b.emit({ op: "cast", value: v }, data(dtype, v.type.shape), span);
  }

  /**
   * Stretches a value to `shape` (rules in rules.ts): a scalar is splatted; a lower-rank block is
   * reshaped with leading 1s; size-1 axes are broadcast. Reports and returns undefined if impossible.
   */
  toShape(v: Value, shape: Shape, span: Span): Value | undefined {
    const from = v.type.shape;
    if (sameShape(from, shape)) return v;
    if (from.length === 0) return this.b.emit({ op: "splat", value: v }, withShape(v.type, shape), span);
    const target = broadcastShapes(from, shape);
    if (!target || !sameShape(target, shape)) {
      this.log.error(Codes.shapeMismatch, span, `a block of shape ${shapeToString(from)} can't be broadcast to ${shapeToString(shape)}`);
      return undefined;
    }
    let out = v;
    if (from.length < shape.length) {
      const padded = [...Array(shape.length - from.length).fill(1), ...from];
      out = this.b.emit({ op: "reshape", value: out }, withShape(v.type, padded), span);
    }
    if (!sameShape(out.type.shape, shape)) out = this.b.emit({ op: "broadcast", value: out }, withShape(v.type, shape), span);
    return out;
  }

  coerce(v: Value, dtype: Dtype, shape: Shape, span: Span): Value | undefined {
    const cast = this.cast(v, dtype, span);
    return this.toShape(cast, shape, span);
  }

  /** The broadcast shape of operands, or a KL2001 naming both shapes. */
  commonShape(a: Value, b: Value, span: Span, what: string): Shape | undefined {
    const shape = broadcastShapes(a.type.shape, b.type.shape);
    if (!shape) {
      this.log.error(
        Codes.shapeMismatch,
        span,
        `${what}: shapes ${shapeToString(a.type.shape)} and ${shapeToString(b.type.shape)} don't match (extents must be equal or 1)`,
        [
          { span: a.span, message: `this is ${typeToString(a.type)}` },
          { span: b.span, message: `this is ${typeToString(b.type)}` },
        ],
      );
    }
    return shape;
  }

  unary(fn: UnaryFn, v: Value, span: Span): Value | undefined {
    if (v.type.kind === "pointer") {
      this.log.error(Codes.pointerArithmetic, span, "pointers only support adding or subtracting integer offsets");
      return undefined;
    }
    const dtype = v.type.dtype;
    // `~mask` is how Triton negates a mask (bitwise not of i1): the same as `!mask`.
    if (fn === "bitnot" && dtype === "bool") fn = "not";
    // `!n` / Python's `not n` on a number is not `n != 0` (nonzero: NaN is true, so `not NaN` is false), as in
    // JavaScript and in Triton (`if not BACKWARD_PASS:` on a bool constexpr, which reaches here as 1 or 0);
    // folded when n is a constant.
    if (fn === "not" && dtype !== "bool") {
      const truth = this.nonzero(v, span);
      return truth && this.unary("not", truth, span);
    }
    if (fn === "bitnot" && !isInt(dtype)) {
      this.log.error(Codes.operandDtype, span, `'~' needs an integer or a mask, got ${typeToString(v.type)}`);
      return undefined;
    }
    if (fn === "neg" && dtype === "bool") {
      this.log.error(Codes.operandDtype, span, "unary '-' on a mask; cast it first with tl.cast(m, \"i32\")");
      return undefined;
    }
    const folded = isConst(v) ? foldUnary(fn, dtype, v.value) : undefined;
    if (folded !== undefined) return this.constant(folded, dtype, span);
    const out = this.b.emit({ op: "unary", fn, value: v }, v.type, span);
    // An int8 / uint8 negated, or a uint8's bits flipped, leaves 8 bits: wrapped back (bytes, above).
    const kind = dtype === "i32" && (fn === "neg" || fn === "bitnot") ? this.resultByteKind(v) : undefined;
    if (!kind) return out;
    return fn === "bitnot" && kind === "i8" ? this.markByte(out, kind) : this.wrapByte(out, kind, span);
  }

  /**
   * A number's truth (`if x:`, `not x`, `x and y`, tl.where's condition, `.to(tl.int1)`): `x != 0` as in
   * Python, Triton and torch, so NaN is true. A float's is read from its bits (any but ±0's): a shader
   * compiler may assume floats are never NaN, and lavapipe's `NaN != 0.0` was false. An f16 is widened to
   * f32 first (WGSL has no 16-bit integer to read its bits as). A mask is its own truth; a constant folds.
   */
  nonzero(v: Value, span: Span): Value | undefined {
    if (v.type.kind !== "data" || v.type.dtype === "bool") return v;
    const dtype = v.type.dtype;
    if (!isFloat(dtype) || isConst(v)) return this.binary("ne", v, this.constant(0, dtype, span), span);
    const magnitude = this.magnitudeBits(v, span);
    return magnitude && this.binary("ne", magnitude, this.constant(0, "i32", span), span);
  }

  /** A float's bits as an i32 (an f16's or bf16's widened to f32 first: WGSL has no 16-bit integer to read them as). */
  floatBits(v: Value, span: Span): Value {
    const wide = this.cast(v, "f32", span);
    return this.b.emit({ op: "bitcast", value: wide }, data("i32", v.type.shape), span);
  }

  /** A float's bits with the sign cleared: 0 for ±0, 0x7f800000 for ±∞, above it for NaN (libdevice's predicates, nonzero). */
  magnitudeBits(v: Value, span: Span): Value | undefined {
    return this.binary("and", this.floatBits(v, span), this.constant(0x7fffffff, "i32", span), span);
  }

  /** `a && b` / `a || b` of scalar bools where a constant side decides it: that constant, or the other side. */
  private shortCircuit(fn: "land" | "lor", a: Value, b: Value): Value | undefined {
    for (const [c, other] of [[a, b], [b, a]] as const) {
      if (!isConst(c)) continue;
      const truth = c.value !== 0;
      // false && x is false, true || x is true; true && x and false || x are x.
      return (fn === "land") === truth ? other : c;
    }
    return undefined;
  }

  binary(fn: BinaryFn, a: Value, b: Value, span: Span): Value | undefined {
    const text = OPERATOR_TEXT[fn];
    if (a.type.kind === "pointer" || b.type.kind === "pointer") return this.pointerArithmetic(fn, a, b, span);
    const da = a.type.dtype;
    const db = b.type.dtype;

    // `a || b` / Python's `a or b` on numbers takes each as `x != 0` (nonzero: NaN is true), as JavaScript's
    // truthiness and Triton's logical_or do (`if RETURN_ACCURACY or RETURN_TOKENS:` on bool constexprs, 1 or 0 here).
    if ((fn === "land" || fn === "lor") && (da !== "bool" || db !== "bool")) {
      const ta = this.nonzero(a, span);
      const tb = this.nonzero(b, span);
      return ta && tb ? this.binary(fn, ta, tb, span) : undefined;
    }

    // `x * mask` (FlagGems' dropout: `y0 = x0 * p * mask0`): in arithmetic with a number Triton
    // widens a mask to the number's dtype, 1 or 0.
    if ((fn === "add" || fn === "sub" || fn === "mul" || fn === "div") && (da === "bool") !== (db === "bool")) {
      const to = da === "bool" ? db : da;
      const widen = (v: Value) => (v.type.kind === "data" && v.type.dtype === "bool" ? this.cast(v, to, span) : v);
      return this.binary(fn, widen(a), widen(b), span);
    }

    // `N_LOAD_MASK_NEEDED & (not IS_MATRIX_MASK)` (kernl's attention.py, a bool constexpr taken as 1 or 0
    // and a mask): Triton's & | ^ promote a mask (int1) to the other integer operand's dtype, so the
    // result is that integer, as here.
    if ((fn === "and" || fn === "or" || fn === "xor") && (da === "bool") !== (db === "bool") && isInt(da === "bool" ? db : da)) {
      const to = da === "bool" ? db : da;
      const widen = (v: Value) => (v.type.kind === "data" && v.type.dtype === "bool" ? this.cast(v, to, span) : v);
      return this.binary(fn, widen(a), widen(b), span);
    }

    // `masked_blocks > 0` with a mask (applied-ai's AMD flash attention, `masked_blocks = padded_block_k`):
    // a comparison of a mask and a number promotes the mask (int1) to the number's dtype, as Triton's does.
    if ((fn === "lt" || fn === "le" || fn === "gt" || fn === "ge" || fn === "eq" || fn === "ne") && (da === "bool") !== (db === "bool")) {
      const to = da === "bool" ? db : da;
      const widen = (v: Value) => (v.type.kind === "data" && v.type.dtype === "bool" ? this.cast(v, to, span) : v);
      return this.binary(fn, widen(a), widen(b), span);
    }

    // `(n < size_n)[None, :] * (m < size_m)[:, None]` (lightllm's silu_and_mul): Triton keeps int1 * int1
    // an int1, and the product of two bits is their and.
    if (fn === "mul" && da === "bool" && db === "bool") return this.emitBinary("land", "bool", "bool", a, b, span, text);

    // Masks: && and || (and & | ^, as Triton writes them) combine bools element-wise.
    if (da === "bool" || db === "bool" || fn === "land" || fn === "lor") {
      const logical = fn === "land" || fn === "and" ? "land" : fn === "lor" || fn === "or" ? "lor" : fn === "xor" || fn === "ne" ? "ne" : fn === "eq" ? "eq" : undefined;
      if (!logical || da !== "bool" || db !== "bool") {
        const bad = da === "bool" ? b : a;
        const hint = da === "bool" && db === "bool" ? " masks combine with && and ||" : ` '${text}' ${fn === "land" || fn === "lor" ? "needs masks (comparisons) on both sides" : "can't take a mask"}`;
        this.log.error(Codes.operandDtype, span, `${hint.trim()}; got ${typeToString(a.type)} ${text} ${typeToString(b.type)}`, [
          { span: bad.span, message: `this is ${typeToString(bad.type)}` },
        ]);
        return undefined;
      }
      // `DEBUG and start_n == 256` (aiter's MHA backward, `if DEBUG_TRITON_DETAIL and …: print(f"…{qT.shape}")`): a
      // constexpr decides Python's `and` / `or` of scalars, as Triton's code generator short-circuits a constexpr
      // operand, so the if is decided while compiling and the branch it drops isn't code.
      const decided = (logical === "land" || logical === "lor") && a.type.shape.length === 0 && b.type.shape.length === 0 ? this.shortCircuit(logical, a, b) : undefined;
      if (decided) return decided;
      return this.emitBinary(logical, "bool", "bool", a, b, span, text);
    }

    // Bytes loaded from 8-bit tensors (int8, uint8), held as i32s.
    const ka = this.bytes.get(a.id);
    const kb = this.bytes.get(b.id);

    // `/`, `//` and `%` between integers of different signedness (i32 with u32, int8 with uint8), neither a
    // constant: Triton refuses them (computation_type_impl; test_core.py's test_bin_op), the answer being unlikely
    // the one meant. As there, a scalar beside a block of a kind no lower (unsigned < signed) takes the block's dtype.
    if ((fn === "div" || fn === "mod") && !isConst(a) && !isConst(b) && isInt(da) && isInt(db)) {
      const [ua, ub] = [ka ? ka === "u8" : da === "u32", kb ? kb === "u8" : db === "u32"];
      const scalar = (v: Value) => v.type.kind === "data" && v.type.shape.length === 0;
      const adopts = scalar(a) !== scalar(b) && (scalar(a) ? ua || !ub : ub || !ua);
      if (ua !== ub && !adopts) {
        const name = (k: typeof ka, d: Dtype) => (k ? (k === "u8" ? "uint8" : "int8") : d);
        this.log.error(Codes.operandDtype, span, `'${text}' of ${name(ka, da)} and ${name(kb, db)}: integers of different signedness, which Triton refuses for /, // and % (the answer is unlikely the one meant); cast one to the other's signedness, e.g. x.to(tl.uint32) or x.to(tl.int32)`);
        return undefined;
      }
    }

    // An int8 with a uint8 (neither a constant): Triton's integer promotion (C's: of one width the unsigned
    // wins) makes both uint8, so `x > y` of -17 and 238 compares 239 with 238 (test_core.py's test_compare_op,
    // a loaded scalar beside a block too). Shifts keep the shifted operand's dtype.
    if (ka && kb && ka !== kb && fn !== "shl" && fn !== "shr") {
      const wa = ka === "u8" ? a : this.wrapByte(a, "u8", span);
      const wb = kb === "u8" ? b : this.wrapByte(b, "u8", span);
      return wa && wb && this.binary(fn, wa, wb, span);
    }

    let dtype: NumDtype;
    if (fn === "shl" || fn === "shr") {
      // The result has the shifted operand's dtype; the amount is converted to it.
      dtype = (isConst(a) && !isConst(b) ? db : da) as NumDtype;
    } else {
      dtype = promote(operandOf(a), operandOf(b), fn === "div" || fn === "mod");
    }
    if (BITWISE.has(fn) && !isInt(dtype)) {
      this.log.error(Codes.operandDtype, span, `'${text}' needs integers, got ${typeToString(a.type)} ${text} ${typeToString(b.type)}; convert with tl.cast(x, "i32")`);
      return undefined;
    }
    const out = this.emitBinary(fn, dtype, COMPARE.has(fn) ? "bool" : dtype, a, b, span, text);
    // Two int8s / uint8s, or one and a constant: an 8-bit result in Triton (bytes, above).
    const kind = out && !isConst(out) && dtype === "i32" && (LEAVES_BYTES.has(fn) || KEEPS_BYTES.has(fn)) ? this.resultByteKind(a, b) : undefined;
    if (!out || !kind) return out;
    return LEAVES_BYTES.has(fn) ? this.wrapByte(out, kind, span) : this.markByte(out, kind);
  }

  private emitBinary(fn: BinaryFn, operandDtype: Dtype, resultDtype: Dtype, a: Value, b: Value, span: Span, text: string): Value | undefined {
    const shape = this.commonShape(a, b, span, `'${text}'`);
    if (!shape) return undefined;
    if (operandDtype === "i64" && !this.int64Constants(fn, a, b, text)) return undefined;
    const ca = this.coerce(a, operandDtype, shape, a.span);
    const cb = this.coerce(b, operandDtype, shape, b.span);
    if (!ca || !cb) return undefined;
    if (isConst(ca) && isConst(cb)) {
      const folded = foldBinary(fn, operandDtype, ca.value, cb.value);
      if (folded === undefined) {
        this.log.error(Codes.divisionByZero, span, `integer ${fn === "div" ? "division" : "remainder"} by zero`);
        return undefined;
      }
      return this.constant(folded, resultDtype, span);
    }
    return this.b.emit({ op: "binary", fn, lhs: ca, rhs: cb }, data(resultDtype, shape), span);
  }

  /**
   * An i64 is held in 32 bits (ir/int64.ts): a constant outside them is only its low word there,
   * which is its meaning in `&`, `|`, `^` (`offset & 0xFFFFFFFF`, as FlagGems writes it), and
   * KL2090 anywhere else. False after the diagnostic.
   */
  private int64Constants(fn: BinaryFn, a: Value, b: Value, text: string): boolean {
    if (fn === "and" || fn === "or" || fn === "xor") return true;
    for (const v of [a, b]) {
      if (isConst(v) && !fitsIn32(convert(v.type.kind === "data" ? v.type.dtype : "i32", "i64", v.value))) {
        this.log.error(Codes.int64Constant, v.span, `${v.value} is outside 32 bits: Kernel Lab computes int64 in 32 bits (WGSL has none wider), so '${text}' can't use it; only \`&\`, \`|\` and \`^\` may (their result's low word is exact)`);
        return false;
      }
    }
    return true;
  }

  /** ptr + ints, ints + ptr, ptr - ints: a block of pointers into the same parameter's buffer. */
  private pointerArithmetic(fn: BinaryFn, a: Value, b: Value, span: Span): Value | undefined {
    const ptrFirst = a.type.kind === "pointer";
    const ptr = ptrFirst ? a : b;
    const offset = ptrFirst ? b : a;
    if ((fn !== "add" && !(fn === "sub" && ptrFirst)) || offset.type.kind === "pointer") {
      this.log.error(Codes.pointerArithmetic, span, `pointers only support 'ptr + offsets' and 'ptr - offsets'; got ${typeToString(a.type)} ${OPERATOR_TEXT[fn]} ${typeToString(b.type)}`);
      return undefined;
    }
    if (!isInt(offset.type.dtype)) {
      this.log.error(Codes.pointerArithmetic, offset.span, `pointer offsets must be integers, got ${typeToString(offset.type)}; convert with tl.cast(x, "i32")`);
      return undefined;
    }
    const shape = this.commonShape(ptr, offset, span, "pointer offset");
    if (!shape || ptr.type.kind !== "pointer") return undefined;
    let off = this.coerce(offset, "i32", shape, offset.span);
    const base = this.toShape(ptr, shape, ptr.span);
    if (!off || !base) return undefined;
    if (fn === "sub") off = this.unary("neg", off, offset.span);
    if (!off) return undefined;
    return this.b.emit({ op: "ptrAdd", ptr: base, offset: off }, { ...ptr.type, shape }, span);
  }
}

/** How promotion sees a value: constants are weak (rules.ts, rule 1). */
export function operandOf(v: Value): Operand {
  const dtype = dtypeOf(v);
  return isConst(v) ? { dtype, weak: true, integral: Number.isInteger(v.value) && !isFloat(dtype) } : { dtype, weak: false };
}

function withShape(type: ValueType, shape: Shape): ValueType {
  return { ...type, shape };
}

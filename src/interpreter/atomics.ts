// tl.atomic* on the CPU. The interpreter runs program instances one after another (x fastest),
// and the lanes of a block in order, so each atomic is a plain read-modify-write: the final
// contents are what the GPU gives for commutative functions (add, max, min, and, or, xor), but
// which program sees which old value differs from the GPU's order. Tests and references must not
// depend on that order (a histogram, a sum, the set of values an exchange returns).

import { bf16FromBits, bf16ToBits } from "../ir/bf16";
import { f16FromBits, f16ToBits } from "../ir/f16";
import type { AtomicFn, Dtype, Value } from "../ir/ir";
import type { Block } from "./block-ops";
import type { Machine } from "./machine";

/** The new contents of an element from its old contents, the operand and (cas) the comparand; wrapping is the typed array's. */
type AtomicUpdate = (old: number, value: number, cmp: number, dtype: Dtype) => number;

export const ATOMIC_CPU: Record<AtomicFn, AtomicUpdate> = {
  // i32/u32 wrap when stored into the Int32Array/Uint32Array; f32 rounds when stored into a Float32Array.
  add: (old, value) => old + value,
  max: (old, value, _cmp, dtype) => (dtype === "f32" ? (floatWins("max", value, old) ? value : old) : Math.max(old, value)),
  min: (old, value, _cmp, dtype) => (dtype === "f32" ? (floatWins("min", value, old) ? value : old) : Math.min(old, value)),
  and: (old, value, _cmp, dtype) => unsigned(old & value, dtype),
  or: (old, value, _cmp, dtype) => unsigned(old | value, dtype),
  xor: (old, value, _cmp, dtype) => unsigned(old ^ value, dtype),
  xchg: (_old, value) => value,
  // f32 compares the bits, as Triton's 32-bit cmpxchg and the WGSL do (-0.0 is not +0.0, a NaN matches itself).
  cas: (old, value, cmp, dtype) => ((dtype === "f32" ? bitsOf(old) === bitsOf(cmp) : old === cmp) ? value : old),
};

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

function bitsOf(x: number): number {
  F32[0] = x;
  return U32[0];
}

/**
 * Whether an f32 `value` replaces `old` under tl.atomicMax/Min, as in the WGSL (codegen/atomics.ts) and
 * Triton's lowering: by the bits, an i32 max (min) when the value's sign bit is clear, a u32 min (max)
 * when it is set; -0.0 is below +0.0, a NaN above +inf or below -inf by its sign bit.
 */
function floatWins(fn: "max" | "min", value: number, old: number): boolean {
  const v = bitsOf(value);
  const m = bitsOf(old);
  if (v >= 0x80000000) return fn === "max" ? v < m : v > m;
  return fn === "max" ? (v | 0) > (m | 0) : (v | 0) < (m | 0);
}

/** The bits of a value a register holds as a bf16 (already one: its f32's top half, a NaN's kept as the GPU keeps them). */
function bf16Bits(x: number): number {
  F32[0] = x;
  return U32[0] >>> 16;
}

function unsigned(bits: number, dtype: Dtype): number {
  return dtype === "u32" ? bits >>> 0 : bits;
}

/** Runs one tl.atomic* over a block: lane by lane, the old contents come back (0 where masked off). */
export function atomic(m: Machine, v: Extract<Value, { op: "atomic" }>, n: number, dtype: Dtype): Block {
  const buffer = m.bufferOf(v.ptr.type, v.span);
  const ptr = m.sized(m.value(v.ptr), n, v.span);
  const value = m.sized(m.value(v.value), n, v.span);
  const cmp = v.cmp ? m.sized(m.value(v.cmp), n, v.span) : undefined;
  const mask = v.mask ? m.sized(m.value(v.mask), n, v.span) : undefined;
  const update = ATOMIC_CPU[v.fn];
  const array = buffer.array;
  const out = new Float64Array(n);
  const onAccess = m.onAccess;
  // A 16-bit float buffer holds bit patterns (a Uint16Array): read from them, written back rounded.
  const half = buffer.dtype === "bf16" ? { fromBits: bf16FromBits, toBits: bf16ToBits, bits: bf16Bits } : buffer.dtype === "f16" ? { fromBits: f16FromBits, toBits: f16ToBits, bits: f16ToBits } : undefined;
  for (let i = 0; i < n; i++) {
    if (mask && mask[i] === 0) {
      onAccess?.("atomic", buffer.param, ptr[i], m.programId, i, v.span, false, value[i]);
      continue;
    }
    const index = ptr[i];
    m.checkIndex(buffer, index, "atomic", v.span, i);
    onAccess?.("atomic", buffer.param, index, m.programId, i, v.span, true, value[i]);
    // On a bf16 or f16 (add and cas only, semantics) the sum is rounded back once; the cas compares
    // the bits, as Triton's 16-bit cmpxchg and the WGSL do.
    if (half && v.fn === "cas") {
      out[i] = half.fromBits(array[index]);
      if (array[index] === half.bits(cmp![i])) array[index] = half.bits(value[i]);
      continue;
    }
    const old = half ? half.fromBits(array[index]) : array[index];
    out[i] = old;
    const next = update(old, value[i], cmp ? cmp[i] : 0, dtype);
    array[index] = half ? half.toBits(next) : next;
  }
  return out;
}

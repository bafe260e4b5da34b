// Tensor elements as torch keeps them, in JS typed arrays over SharedArrayBuffers (a launch on the
// main thread reads and writes them in place). float16 and bfloat16 are their bits in a
// Uint16Array, float8_e4m3fn and float8_e5m2 their bits in a Uint8Array; int64 is stored as int32 (Kernel Lab's kernels have no 64-bit integers: the README
// says so); bool is a byte. Reading gives a number, writing rounds it as the dtype does.

import { f16FromBits, f16ToBits } from "../../ir/f16";
import { bf16FromBits, bf16ToBits } from "../../ir/bf16";
import { f8e4m3FromBits, f8e4m3ToBits, f8e5m2FromBits, f8e5m2ToBits } from "../../ir/f8";
import type { TensorDtype, TensorStorage } from "./protocol";

type Constructor = { new (buffer: ArrayBufferLike, offset?: number, length?: number): TensorStorage; BYTES_PER_ELEMENT: number };

const STORAGE: Record<TensorDtype, Constructor> = {
  float32: Float32Array,
  float16: Uint16Array,
  bfloat16: Uint16Array,
  int32: Int32Array,
  int64: Int32Array,
  int8: Int8Array,
  uint8: Uint8Array,
  uint32: Uint32Array,
  bool: Uint8Array,
  // Its bit patterns (ir/f8.ts), as torch's storage and a kernel's Ptr<f8e4m3> hold them.
  float8_e4m3fn: Uint8Array,
  float8_e5m2: Uint8Array,
};

export const DTYPES = Object.keys(STORAGE) as TensorDtype[];

export function isFloating(dtype: TensorDtype): boolean {
  return dtype === "float32" || dtype === "float16" || dtype === "bfloat16" || dtype === "float8_e4m3fn" || dtype === "float8_e5m2";
}

/**
 * Zeroed storage for `n` elements, shared with the main thread. A browser's worker has no
 * SharedArrayBuffer (the page is not cross-origin isolated), and needs none: Python and the GPU
 * side run on its one thread there (web-python.ts).
 */
const Buffer: new (bytes: number) => ArrayBufferLike = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : ArrayBuffer;

export function allocate(dtype: TensorDtype, n: number): TensorStorage {
  const Storage = STORAGE[dtype];
  return new Storage(new Buffer(Math.max(1, n) * Storage.BYTES_PER_ELEMENT), 0, n);
}

export type Reader = (data: TensorStorage, i: number) => number;
export type Writer = (data: TensorStorage, i: number, value: number) => void;

export function reader(dtype: TensorDtype): Reader {
  switch (dtype) {
    case "float16":
      return (d, i) => f16FromBits(d[i]);
    case "bfloat16":
      return (d, i) => bf16FromBits(d[i]);
    case "float8_e4m3fn":
      return (d, i) => f8e4m3FromBits(d[i]);
    case "float8_e5m2":
      return (d, i) => f8e5m2FromBits(d[i]);
    default:
      return (d, i) => d[i];
  }
}

/** Writes as torch converts: floats round, integers truncate toward zero and wrap, bool is value != 0 (so NaN is true, as in torch). */
export function writer(dtype: TensorDtype): Writer {
  switch (dtype) {
    case "float16":
      return (d, i, v) => void (d[i] = f16ToBits(v));
    case "bfloat16":
      return (d, i, v) => void (d[i] = bf16ToBits(v));
    case "float8_e4m3fn":
      // torch's conversion: past 448 (|v| >= 480, infinities) is NaN, not saturated as in a kernel.
      return (d, i, v) => void (d[i] = f8e4m3ToBits(v, false));
    case "float8_e5m2":
      // torch's: past 57344 (|v| >= 61440) is ±inf, as IEEE rounding gives.
      return (d, i, v) => void (d[i] = f8e5m2ToBits(v, false));
    case "bool":
      return (d, i, v) => void (d[i] = v !== 0 ? 1 : 0);
    case "float32":
      return (d, i, v) => void (d[i] = v);
    default:
      // NaN and infinities have no integer value; torch gives an unspecified one, Kernel Lab 0.
      return (d, i, v) => void (d[i] = Number.isFinite(v) ? Math.trunc(v) : 0);
  }
}

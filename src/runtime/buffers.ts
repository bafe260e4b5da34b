// Storage buffers: created from typed arrays with their byte size rounded up to a multiple of 16
// (codegen/abi.ts: any binding may be read as array<vec4<T>>), and read back into typed arrays.

import type { PointeeDtype } from "../ir/ir";
import { GpuError } from "./errors";
import { BufferUsage, MapMode, type Gpu } from "./gpu";

/** f16 and bf16 data travel as their raw bits in a Uint16Array; 8-bit elements (bool, u8, i8, fp8's bits) one byte each. */
export type StorageArray = Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;

export type ArrayFor<D extends PointeeDtype> = D extends "f32"
  ? Float32Array
  : D extends "i32" | "i64"
    ? Int32Array
    : D extends "u32"
      ? Uint32Array
      : D extends "bool" | "u8" | "f8e4m3" | "f8e5m2"
        ? Uint8Array
        : D extends "i8"
          ? Int8Array
          : Uint16Array;

/** Bytes per element on the GPU: an i64 is held as its i32 low word (README "64-bit integers"), 8-bit elements 4 to a word, bf16s 2. */
export const BYTES_PER_ELEMENT: Record<PointeeDtype, number> = { f32: 4, i32: 4, u32: 4, f16: 2, bf16: 2, i64: 4, bool: 1, u8: 1, i8: 1, f8e4m3: 1, f8e5m2: 1 };

/** Bytes allocated for `byteLength` bytes of data: a multiple of 16, at least 16. */
export function storageByteSize(byteLength: number): number {
  return Math.max(16, Math.ceil(byteLength / 16) * 16);
}

const STORAGE_USAGE = BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST;

function checkSize(gpu: Gpu, bytes: number, label: string): void {
  const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
  const { maxBufferSize, maxStorageBufferBindingSize } = gpu.limits;
  if (bytes > maxBufferSize) {
    throw new GpuError(
      "buffer-too-large",
      `Buffer '${label}' needs ${mib(bytes)}, more than this adapter's maxBufferSize (${mib(maxBufferSize)}). Use a smaller size.`,
      label,
    );
  }
  if (bytes > maxStorageBufferBindingSize) {
    throw new GpuError(
      "buffer-too-large",
      `Buffer '${label}' needs ${mib(bytes)}, more than this adapter binds as one storage buffer ` +
        `(maxStorageBufferBindingSize ${mib(maxStorageBufferBindingSize)}). Use a smaller size.`,
      label,
    );
  }
}

/** A storage buffer holding a copy of `data` (padding bytes are zero). */
export async function createStorageBuffer(gpu: Gpu, data: StorageArray, label: string): Promise<GPUBuffer> {
  const size = storageByteSize(data.byteLength);
  checkSize(gpu, size, label);
  return gpu.scoped(label, () => {
    const buffer = gpu.device.createBuffer({ label, size, usage: STORAGE_USAGE, mappedAtCreation: true });
    new Uint8Array(buffer.getMappedRange()).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    buffer.unmap();
    return buffer;
  });
}

/** A zero-filled storage buffer for `length` elements of `dtype`. */
export async function createEmptyBuffer(gpu: Gpu, dtype: PointeeDtype, length: number, label: string): Promise<GPUBuffer> {
  const size = storageByteSize(length * BYTES_PER_ELEMENT[dtype]);
  checkSize(gpu, size, label);
  return gpu.scoped(label, () => gpu.device.createBuffer({ label, size, usage: STORAGE_USAGE }));
}

/** Overwrites the start of `buffer` with `data`. */
export async function writeStorageBuffer(gpu: Gpu, buffer: GPUBuffer, data: StorageArray): Promise<void> {
  await gpu.scoped(buffer.label, () => {
    // writeBuffer wants a multiple of 4 bytes; an odd count of f16 (or of bytes) is padded with zeros.
    if (data.byteLength % 4 === 0) {
      gpu.device.queue.writeBuffer(buffer, 0, data.buffer, data.byteOffset, data.byteLength);
    } else {
      const padded = new Uint8Array(Math.ceil(data.byteLength / 4) * 4);
      padded.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
      gpu.device.queue.writeBuffer(buffer, 0, padded);
    }
  });
}

const ARRAYS = { f32: Float32Array, i32: Int32Array, u32: Uint32Array, f16: Uint16Array, bf16: Uint16Array, i64: Int32Array, bool: Uint8Array, u8: Uint8Array, i8: Int8Array, f8e4m3: Uint8Array, f8e5m2: Uint8Array } as const;

/**
 * Staging buffers kept for the next readback, one per device: creating a MAP_READ buffer for each
 * read cost ~1.1 ms of a 16 KiB readBuffer on the H200 (bench/NOTES.md §11). Reads run one at a
 * time (gpu.scoped), so one buffer serves them all; it grows to the largest read up to
 * KEPT_STAGING_BYTES, and larger reads get a buffer of their own, destroyed after.
 */
const staging = new WeakMap<Gpu, { buffer: GPUBuffer; busy: boolean }>();
const KEPT_STAGING_BYTES = 64 * 2 ** 20;

function takeStaging(gpu: Gpu, size: number, label: string): { buffer: GPUBuffer; release: () => void } {
  const make = (bytes: number) => gpu.device.createBuffer({ label, size: bytes, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  if (size > KEPT_STAGING_BYTES) {
    const buffer = make(size);
    return { buffer, release: () => buffer.destroy() };
  }
  let kept = staging.get(gpu);
  if (kept?.busy) {
    const buffer = make(size);
    return { buffer, release: () => buffer.destroy() };
  }
  if (!kept || kept.buffer.size < size) {
    kept?.buffer.destroy();
    const bytes = Math.min(KEPT_STAGING_BYTES, Math.max(4096, 2 ** Math.ceil(Math.log2(size))));
    kept = { buffer: make(bytes), busy: false };
    staging.set(gpu, kept);
  }
  const entry = kept;
  entry.busy = true;
  return {
    buffer: entry.buffer,
    release: () => {
      if (entry.buffer.mapState !== "unmapped") entry.buffer.unmap();
      entry.busy = false;
    },
  };
}

/** Reads the first `length` elements of `buffer` as `dtype`. */
export async function readBuffer<D extends PointeeDtype>(gpu: Gpu, buffer: GPUBuffer, dtype: D, length: number): Promise<ArrayFor<D>> {
  const byteLength = length * BYTES_PER_ELEMENT[dtype];
  if (byteLength > buffer.size) {
    throw new GpuError(
      "bad-launch",
      `Cannot read ${length} ${dtype} elements (${byteLength} bytes) from buffer '${buffer.label}' of ${buffer.size} bytes.`,
      buffer.label,
    );
  }
  const copySize = Math.ceil(byteLength / 4) * 4;
  const label = `${buffer.label} (readback)`;
  return gpu.scoped(buffer.label, async () => {
    const mapped = Math.max(4, copySize);
    const stage = takeStaging(gpu, mapped, label);
    try {
      const encoder = gpu.device.createCommandEncoder({ label });
      if (copySize > 0) encoder.copyBufferToBuffer(buffer, 0, stage.buffer, 0, copySize);
      gpu.device.queue.submit([encoder.finish()]);
      await gpu.idle(stage.buffer.mapAsync(MapMode.READ, 0, mapped));
      const out = new ARRAYS[dtype](length);
      new Uint8Array(out.buffer).set(new Uint8Array(stage.buffer.getMappedRange(0, mapped), 0, byteLength));
      stage.buffer.unmap();
      return out as ArrayFor<D>;
    } finally {
      stage.release();
    }
  });
}

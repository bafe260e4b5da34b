// The GPU buffers that tensors on the GPU device live in between launches (lib/torch/_resident.py is
// Python's side): one per storage id, made on the first launch that binds the storage, refreshed
// from its CPU copy only when Python says that copy changed, read back only when the script reads
// the elements. A buffer Python lets go of is freed at once, unless do_bench has recorded a launch on
// it (the recorded launches run when the benchmark stops: it is freed after). Everything left goes
// when the run ends. Counts every byte copied between the CPU and the GPU (the run's report).

import type { PointeeDtype } from "../../ir/ir";
import { createEmptyBuffer, createStorageBuffer, readBuffer, writeStorageBuffer, type Gpu, type StorageArray } from "../../runtime";
import type { TensorStorage } from "./protocol";

/** Bytes copied to and from the GPU in one run, and how many copies (`--json`'s `gpuCopies`). */
export interface CopyCounts {
  toGpuBytes: number;
  toGpu: number;
  fromGpuBytes: number;
  fromGpu: number;
}

export function noCopies(): CopyCounts {
  return { toGpuBytes: 0, toGpu: 0, fromGpuBytes: 0, fromGpu: 0 };
}

/** How a storage's typed array is read back (its bytes are the kernel's elements: f16 and bf16 as bits). */
export function elementDtype(data: TensorStorage): PointeeDtype {
  if (data instanceof Float32Array) return "f32";
  // bool and uint8 are both a byte each, read back as they are.
  if (data instanceof Uint8Array) return "u8";
  if (data instanceof Int8Array) return "i8";
  if (data instanceof Int32Array) return "i32";
  if (data instanceof Uint16Array) return "f16";
  throw new Error(`a ${(data as { constructor: { name: string } }).constructor.name} storage has no GPU buffer`);
}

export class ResidentBuffers {
  private readonly buffers = new Map<number, GPUBuffer>();
  /** While do_bench records: the buffers its launches bind, and those freed meanwhile (destroyed when it stops). */
  private recording: { bound: Set<GPUBuffer>; freed: GPUBuffer[] } | undefined;

  constructor(readonly copies: CopyCounts) {}

  /**
   * The storage's buffer, filled from `data` (the whole storage) when `upload`; made without
   * filling where Python says the launch writes every element (a torch op's result: _resident.filled_on_gpu).
   */
  async bind(gpu: Gpu, storage: number, data: TensorStorage, upload: boolean, label: string): Promise<GPUBuffer> {
    let buffer = this.buffers.get(storage);
    if (!buffer) {
      buffer = upload ? await createStorageBuffer(gpu, data as StorageArray, label) : await createEmptyBuffer(gpu, elementDtype(data), data.length, label);
      this.buffers.set(storage, buffer);
      if (upload) this.counted(data);
    } else if (upload) {
      // Dawn's writeBuffer takes no SharedArrayBuffer (the CPU copy's memory is shared with the Python thread).
      await writeStorageBuffer(gpu, buffer, data.slice() as StorageArray);
      this.counted(data);
    }
    this.recording?.bound.add(buffer);
    return buffer;
  }

  /** Copies the storage's buffer into its CPU copy `data`. */
  async download(gpu: Gpu, storage: number, data: TensorStorage): Promise<void> {
    const buffer = this.buffers.get(storage);
    if (!buffer) throw new Error(`Kernel Lab lost the GPU buffer of a tensor (storage ${storage})`);
    data.set(await readBuffer(gpu, buffer, elementDtype(data), data.length));
    this.copies.fromGpu++;
    this.copies.fromGpuBytes += data.byteLength;
  }

  free(storage: number): void {
    const buffer = this.buffers.get(storage);
    if (!buffer) return;
    this.buffers.delete(storage);
    if (this.recording?.bound.has(buffer)) this.recording.freed.push(buffer);
    else buffer.destroy();
  }

  startRecording(): void {
    this.stopRecording();
    this.recording = { bound: new Set(), freed: [] };
  }

  stopRecording(): void {
    for (const b of this.recording?.freed ?? []) b.destroy();
    this.recording = undefined;
  }

  /** The run ended: every buffer goes. */
  release(): void {
    this.stopRecording();
    for (const b of this.buffers.values()) b.destroy();
    this.buffers.clear();
  }

  private counted(data: TensorStorage): void {
    this.copies.toGpu++;
    this.copies.toGpuBytes += data.byteLength;
  }
}

// The record buffer of a kernel with tl.devicePrint/tl.deviceAssert (codegen/abi.ts DebugAbi):
// the harness binds a fresh zeroed one to the launch whose records it reads; any other launch of
// such a kernel (an autotuner's candidate, a sequence) writes into one scratch buffer per device.

import type { DebugAbi } from "../codegen/abi";
import { GpuError } from "./errors";
import { BufferUsage, type Gpu } from "./gpu";

const scratch = new WeakMap<Gpu, GPUBuffer>();

/** A zeroed record buffer for `debug`, readable back with readBuffer. */
export function createDebugBuffer(gpu: Gpu, debug: DebugAbi, label: string): GPUBuffer {
  return gpu.device.createBuffer({ label, size: debug.words * 4, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST });
}

/** The buffer bound at `debug.binding`: the launch's own, or the device's scratch one. */
export function debugBufferFor(gpu: Gpu, kernel: string, debug: DebugAbi, given: GPUBuffer | undefined): GPUBuffer {
  if (given) {
    if (given.size < debug.words * 4) throw new GpuError("bad-launch", `Kernel '${kernel}': its print buffer needs ${debug.words * 4} bytes.`, kernel);
    return given;
  }
  let buffer = scratch.get(gpu);
  if (!buffer || buffer.size < debug.words * 4) {
    buffer = createDebugBuffer(gpu, debug, "kl_print (scratch)");
    scratch.set(gpu, buffer);
  }
  return buffer;
}

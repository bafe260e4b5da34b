// Running and timing hand-written WGSL on the device Kernel Lab opens (bench/mma-probe.ts and
// bench/flash-probe.ts): storage buffers, a pipeline with its compilation errors as an Error, and
// the median time of a dispatch measured with timestamp queries around groups of dispatches.

import type { Gpu } from "../src/runtime";
import { BufferUsage, MapMode } from "../src/runtime/gpu";
import { halfBitsOf } from "./f16-cases";

export function buffer(gpu: Gpu, data: Uint16Array | Float32Array, label: string): GPUBuffer {
  const size = Math.ceil(data.byteLength / 16) * 16;
  const b = gpu.device.createBuffer({ label, size, usage: BufferUsage.STORAGE | BufferUsage.COPY_SRC | BufferUsage.COPY_DST });
  gpu.device.queue.writeBuffer(b, 0, data.buffer, data.byteOffset, data.byteLength);
  return b;
}

export async function readFloats(gpu: Gpu, b: GPUBuffer, n: number): Promise<Float32Array> {
  const read = gpu.device.createBuffer({ size: n * 4, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const enc = gpu.device.createCommandEncoder();
  enc.copyBufferToBuffer(b, 0, read, 0, n * 4);
  gpu.device.queue.submit([enc.finish()]);
  await read.mapAsync(MapMode.READ);
  const out = new Float32Array(read.getMappedRange().slice(0));
  read.unmap();
  read.destroy();
  return out;
}

/** `code`'s entry point `main` as a compute pipeline (layout "auto"); throws the WGSL's errors. */
export async function computePipeline(gpu: Gpu, code: string): Promise<GPUComputePipeline> {
  const device = gpu.device;
  device.pushErrorScope("validation");
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter((m) => m.type === "error");
  if (errors.length) {
    await device.popErrorScope();
    throw new Error(`WGSL: ${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join("; ")}`);
  }
  const made = await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "main" } });
  const err = await device.popErrorScope();
  if (err) throw new Error(err.message);
  return made;
}

export async function pipeline(gpu: Gpu, code: string, buffers: GPUBuffer[]): Promise<{ pipeline: GPUComputePipeline; group: GPUBindGroup }> {
  const made = await computePipeline(gpu, code);
  const device = gpu.device;
  device.pushErrorScope("validation");
  const group = device.createBindGroup({ layout: made.getBindGroupLayout(0), entries: buffers.map((b, binding) => ({ binding, resource: { buffer: b } })) });
  const err = await device.popErrorScope();
  if (err) throw new Error(err.message);
  return { pipeline: made, group };
}

/**
 * The first kernel a process times warms the GPU for 1.5 s, the rest for 0.3 s: on a machine just
 * started the H100's SM clock read 345 MHz, and the first kernel timed after 0.3 s ran at 84.5
 * TFLOP/s against 230–233 later (bench/NOTES.md §44). suite.ts heats for 1.5 s the same way.
 */
let heated = false;

/** Median ms per dispatch: `group` dispatches between two timestamps, after the warm-up above. */
export async function time(gpu: Gpu, p: { pipeline: GPUComputePipeline; group: GPUBindGroup }, grid: [number, number], samples = 15): Promise<number> {
  const device = gpu.device;
  const run = async (count: number, stamp: boolean): Promise<number> => {
    const qs = stamp ? device.createQuerySet({ type: "timestamp", count: 2 }) : undefined;
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass(qs ? { timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {});
    pass.setPipeline(p.pipeline);
    pass.setBindGroup(0, p.group);
    for (let i = 0; i < count; i++) pass.dispatchWorkgroups(grid[0], grid[1]);
    pass.end();
    if (!qs) {
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      return 0;
    }
    const resolved = device.createBuffer({ size: 16, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
    enc.resolveQuerySet(qs, 0, 2, resolved, 0);
    enc.copyBufferToBuffer(resolved, 0, read, 0, 16);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(MapMode.READ);
    const ns = new BigInt64Array(read.getMappedRange().slice(0));
    read.unmap();
    [qs, resolved, read].forEach((x) => x.destroy());
    return Number(ns[1] - ns[0]) / 1e6 / count;
  };
  const first = await run(1, true);
  const start = performance.now();
  const warmMs = heated ? 300 : 1500;
  heated = true;
  while (performance.now() - start < warmMs) await run(Math.max(1, Math.ceil(20 / Math.max(first, 0.01))), false);
  const per = Math.max(1, Math.min(20, Math.ceil(2 / Math.max(first, 0.001))));
  const got: number[] = [];
  for (let i = 0; i < samples; i++) got.push(await run(per, true));
  got.sort((a, b) => a - b);
  return got[got.length >> 1];
}

export function randnHalves(n: number): Uint16Array {
  const floats = new Float32Array(n);
  for (let i = 0; i < n; i++) floats[i] = Math.sqrt(-2 * Math.log(Math.random() || 1e-12)) * Math.cos(2 * Math.PI * Math.random());
  return halfBitsOf(floats);
}


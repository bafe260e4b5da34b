// A measurement probe for bench/NOTES.md: why does a vector add reach less bandwidth through
// Dawn than through CUDA? Times the same programs several ways on the same buffers:
//   per-pass   — timeLaunches as the harness does (timestamps around each pass, short warm-up)
//   warm       — the same after ~300 ms of warm-up launches (clocks up)
//   one-pass   — 200 dispatches in one compute pass, one timestamp pair, divided by 200
//   passes     — 200 passes back to back, timestamps at the first begin and the last end
// with random inputs and with zeros (compressible), for builtins.add and the compiled example.
//   node bench/dist/probe.js
//   node bench/dist/probe.js --floor   the fixed cost of a timed pass: a 1024-element add and the
//                                      softmax/add sizes below the L2, per pass vs. many per pass
//   node bench/dist/probe.js --cold    softmax 4096×1024 timed as the suite does vs. with the L2
//                                      flushed before every launch (as Triton's do_bench does)

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "./case";
import { compileKernel, parseKernelFile } from "../src/compile";
import { acquireGpu, createStorageBuffer, getPipeline, timeLaunches, type Gpu, type LaunchArgs } from "../src/runtime";
import { BufferUsage, MapMode } from "../src/runtime/gpu";
import { encodeDispatch, prepareLaunch } from "../src/runtime/launch";
import { coldLaunchMs } from "./cold";
import { BUILTINS } from "../src/builtins";
import { foldGrid } from "../src/codegen/abi";
import type { KernelProgram } from "../src/runtime/pipelines";

const root = repositoryRoot(__dirname);

async function stamped(gpu: Gpu, program: KernelProgram, grid: [number, number, number], args: LaunchArgs, mode: "one-pass" | "passes", count: number): Promise<number> {
  const compiled = await getPipeline(gpu, program);
  const prepared = prepareLaunch(gpu, compiled, grid, args);
  const device = gpu.device;
  const querySet = device.createQuerySet({ type: "timestamp", count: 2 });
  const resolved = device.createBuffer({ size: 16, usage: BufferUsage.QUERY_RESOLVE | BufferUsage.COPY_SRC });
  const readback = device.createBuffer({ size: 16, usage: BufferUsage.MAP_READ | BufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  if (mode === "one-pass") {
    const pass = encoder.beginComputePass({ timestampWrites: { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } });
    for (let i = 0; i < count; i++) encodeDispatch(pass, prepared);
    pass.end();
  } else {
    for (let i = 0; i < count; i++) {
      const tw = i === 0 ? { querySet, beginningOfPassWriteIndex: 0 } : i === count - 1 ? { querySet, endOfPassWriteIndex: 1 } : undefined;
      const pass = encoder.beginComputePass(tw ? { timestampWrites: tw } : {});
      encodeDispatch(pass, prepared);
      pass.end();
    }
  }
  encoder.resolveQuerySet(querySet, 0, 2, resolved, 0);
  encoder.copyBufferToBuffer(resolved, 0, readback, 0, 16);
  device.queue.submit([encoder.finish()]);
  await readback.mapAsync(MapMode.READ);
  const ns = new BigInt64Array(readback.getMappedRange().slice(0));
  readback.unmap();
  prepared.uniforms.destroy();
  return Number(ns[1] - ns[0]) / 1e6 / count;
}

function random(n: number): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.random() * 2 - 1;
  return a;
}

/** Per-dispatch times of small launches: each in its own timed pass, and many in one pass. */
async function floor(gpu: Gpu): Promise<void> {
  const add = parseKernelFile("vector-add.kernel.ts", readFileSync(join(root, "examples", "vector-add.kernel.ts"), "utf8")).kernels[0];
  const softmax = parseKernelFile("softmax.kernel.ts", readFileSync(join(root, "examples", "softmax.kernel.ts"), "utf8")).kernels[0];
  const cases: { name: string; program: KernelProgram; grid: [number, number, number]; args: () => Promise<LaunchArgs>; bytes: number }[] = [];
  for (const n of [1024, 2 ** 20]) {
    cases.push({
      name: `add ${n}`, program: compileKernel(add, { BLOCK_SIZE: 1024 }, gpu.target).kernel!, grid: [Math.ceil(n / 1024), 1, 1], bytes: 12 * n,
      args: async () => ({ buffers: { x_ptr: await createStorageBuffer(gpu, random(n), "x"), y_ptr: await createStorageBuffer(gpu, random(n), "y"), output_ptr: await createStorageBuffer(gpu, new Float32Array(n), "o") }, scalars: { n_elements: n } }),
    });
  }
  const rows = 4096, cols = 1024;
  cases.push({
    name: "softmax 4096x1024", program: compileKernel(softmax, { BLOCK_SIZE: 1024 }, gpu.target).kernel!, grid: [rows, 1, 1], bytes: 8 * rows * cols,
    args: async () => ({ buffers: { input_ptr: await createStorageBuffer(gpu, random(rows * cols), "x"), output_ptr: await createStorageBuffer(gpu, new Float32Array(rows * cols), "o") }, scalars: { input_row_stride: cols, output_row_stride: cols, n_cols: cols } }),
  });
  for (const c of cases) {
    const args = await c.args();
    const perPass = await timeLaunches(gpu, c.program, c.grid, [args], { warmupMs: 300, minReps: 100, maxReps: 300 });
    const onePass = await stamped(gpu, c.program, c.grid, args, "one-pass", 200);
    const passes = await stamped(gpu, c.program, c.grid, args, "passes", 200);
    const us = (ms: number) => `${(ms * 1000).toFixed(2)} µs (${(c.bytes / (ms * 1e6)).toFixed(0)} GB/s)`;
    console.log(`${c.name.padEnd(20)} per-pass median ${us(perPass.medianMs)}  min ${us(perPass.minMs)}  200 in one pass ${us(onePass)}  200 passes ${us(passes)}`);
    for (const b of Object.values(args.buffers)) b.destroy();
  }
}

/** Softmax 4096×1024 as the suite times it, one launch per stamped pass, and with a cold L2 before every launch. */
async function cold(gpu: Gpu): Promise<void> {
  const softmax = parseKernelFile("softmax.kernel.ts", readFileSync(join(root, "examples", "softmax.kernel.ts"), "utf8")).kernels[0];
  const rows = 4096, cols = 1024, bytes = 8 * rows * cols;
  const program = compileKernel(softmax, { BLOCK_SIZE: 1024 }, gpu.target).kernel!;
  const out = await createStorageBuffer(gpu, new Float32Array(rows * cols), "o");
  const sets: LaunchArgs[] = [];
  for (let i = 0; i < 8; i++) sets.push({ buffers: { input_ptr: await createStorageBuffer(gpu, random(rows * cols), `x${i}`), output_ptr: out }, scalars: { input_row_stride: cols, output_row_stride: cols, n_cols: cols } });
  const gbps = (ms: number) => `${(ms * 1000).toFixed(2)} µs = ${(bytes / (ms * 1e6)).toFixed(0)} GB/s`;
  for (let round = 0; round < 2; round++) {
    const suite = await timeLaunches(gpu, program, [rows, 1, 1], sets, { warmupMs: 300, minReps: 100, maxReps: 200 });
    const single = await timeLaunches(gpu, program, [rows, 1, 1], sets, { warmupMs: 300, minReps: 100, maxReps: 200, launchesPerSample: 1 });
    const coldMs = await coldLaunchMs(gpu, program, [rows, 1, 1], sets, 50);
    console.log(`softmax 4096x1024 round ${round}: suite (groups of ${suite.launchesPerSample}) ${gbps(suite.medianMs)}; one per stamped pass ${gbps(single.medianMs)}; L2 flushed before each launch ${gbps(coldMs)}`);
  }
}

async function main(): Promise<void> {
  const gpu = await acquireGpu();
  console.log(`adapter: ${gpu.adapter.vendor} ${gpu.adapter.device} ${gpu.adapter.description}`);
  if (process.argv.includes("--floor")) return floor(gpu);
  if (process.argv.includes("--cold")) return cold(gpu);
  const text = readFileSync(join(root, "examples", "vector-add.kernel.ts"), "utf8");
  const kernel = parseKernelFile("vector-add.kernel.ts", text).kernels[0];
  for (const log2 of [24, 26]) {
    const n = 2 ** log2;
    for (const data of ["random", "zeros"] as const) {
      const x = data === "random" ? random(n) : new Float32Array(n);
      const y = data === "random" ? random(n) : new Float32Array(n);
      const bx = await createStorageBuffer(gpu, x, "x");
      const by = await createStorageBuffer(gpu, y, "y");
      const bo = await createStorageBuffer(gpu, new Float32Array(n), "out");
      const variants: { name: string; program: KernelProgram; grid: [number, number, number]; args: LaunchArgs }[] = [
        { name: "builtins.add W256", program: BUILTINS["builtins.add"].program(n), grid: BUILTINS["builtins.add"].grid(n), args: { buffers: { a: bx, b: by, out: bo }, scalars: { n } } },
      ];
      for (const [block, pref] of [[1024, 256], [2048, 512], [4096, 1024]]) {
        const compiled = compileKernel(kernel, { BLOCK_SIZE: block }, gpu.target, {}, { preferredWorkgroupSize: pref }).kernel!;
        variants.push({ name: `compiled B${block} W${compiled.abi.workgroupSize}`, program: compiled, grid: [Math.ceil(n / block), 1, 1], args: { buffers: { x_ptr: bx, y_ptr: by, output_ptr: bo }, scalars: { n_elements: n } } });
      }
      for (const v of variants) {
        const gbps = (ms: number) => ((12 * n) / (ms * 1e6)).toFixed(0);
        const perPass = await timeLaunches(gpu, v.program, v.grid, [v.args], { warmup: 5, minReps: 50, maxReps: 100 });
        const warm = await timeLaunches(gpu, v.program, v.grid, [v.args], { warmup: Math.ceil(300 / perPass.medianMs), minReps: 50, maxReps: 100 });
        const onePass = await stamped(gpu, v.program, v.grid, v.args, "one-pass", 200);
        const passes = await stamped(gpu, v.program, v.grid, v.args, "passes", 200);
        console.log(
          `2^${log2} ${data.padEnd(6)} ${v.name.padEnd(24)} dispatch ${JSON.stringify(foldGrid(v.grid, gpu.limits.maxComputeWorkgroupsPerDimension))} ` +
            `per-pass ${gbps(perPass.medianMs)}  warm ${gbps(warm.medianMs)}  one-pass ${gbps(onePass)}  passes ${gbps(passes)} GB/s`,
        );
      }
      bx.destroy();
      by.destroy();
      bo.destroy();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(4);
});

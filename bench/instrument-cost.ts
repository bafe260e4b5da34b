// What the instrumented correctness launch costs (issue 12 item 2): the same kernel, arguments and
// timing (GPU timestamps, warm-up, median) as its plain variant, for vector add, matmul and a
// histogram (atomics); and each variant's compile time (IR → WGSL, then Dawn's pipeline).
//
//   npx tsx bench/instrument-cost.ts [kernel…]     (e.g. histogram_kernel; default: all)
//
// The instrumented variant (codegen/instrument.ts) adds a bounds check per unmasked lane of every
// tl.load/tl.store/tl.atomic*, 2 shadow words per stored element swapped in atomically (a stamp of
// another program is a race, KL3104), 2 more per element of a buffer it loads and stores (atomic
// maxima of the loaders, KL3105), and runs without vec4 accesses. `own_block_kernel` (stores,
// loads back and stores its block) is the case with those reads words.
// To compare with the instrumentation before races were checked (issue 29), run this script in a
// `git archive` of d0939bd (main before it): the plain medians should agree, the instrumented within 2×.

import { readFileSync } from "node:fs";
import { compileKernel, parseKernelFile, type CompiledKernel } from "../src/compile";
import { acquireGpu, createEmptyBuffer, createStorageBuffer, getPipeline, timeLaunches, type Gpu, type LaunchArgs } from "../src/runtime";

type Args = Record<string, Float32Array | Int32Array | number>;

const CASES: { file: string; kernel: string; constexprs: Record<string, number>; size: number; grid: (n: number) => number[]; args: (n: number) => Args }[] = [
  { file: "examples/vector-add.kernel.ts", kernel: "add_kernel", constexprs: { BLOCK_SIZE: 1024 }, size: 1 << 20,
    grid: (n: number) => [Math.ceil(n / 1024)],
    args: (n: number) => ({ x_ptr: new Float32Array(n).fill(1), y_ptr: new Float32Array(n).fill(2), output_ptr: new Float32Array(n), n_elements: n }) },
  { file: "examples/matmul.kernel.ts", kernel: "matmul_kernel", constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, size: 256,
    grid: (s: number) => [Math.ceil(s / 32), Math.ceil(s / 32)],
    args: (s: number) => ({ a_ptr: new Float32Array(s * s).fill(1), b_ptr: new Float32Array(s * s).fill(1), c_ptr: new Float32Array(s * s), M: s, N: s, K: s,
      stride_am: s, stride_ak: 1, stride_bk: s, stride_bn: 1, stride_cm: s, stride_cn: 1 }) },
  { file: "examples/histogram.kernel.ts", kernel: "histogram_kernel", constexprs: { BLOCK: 256 }, size: 1 << 20,
    grid: (n: number) => [Math.ceil(n / 256)],
    args: (n: number) => ({ x_ptr: Int32Array.from({ length: n }, (_, i) => (i * 7919) % 2048 - 1024), hist_ptr: new Int32Array(37), n, num_bins: 37 }) },
  { file: "test/fixtures/races.kernel.ts", kernel: "own_block_kernel", constexprs: { BLOCK: 1024 }, size: 1 << 20,
    grid: (n: number) => [Math.ceil(n / 1024)],
    args: (n: number) => ({ x_ptr: new Float32Array(n).fill(1), out_ptr: new Float32Array(n), n }) },
];

/** Median of 5 cold pipeline compiles (a distinct trailing comment each, so no cache answers). */
async function pipelineMs(gpu: Gpu, program: CompiledKernel): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await getPipeline(gpu, { ...program, wgsl: `${program.wgsl}\n// compile ${i}\n` });
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[2];
}

async function main(): Promise<void> {
  const gpu = await acquireGpu();
  const only = process.argv.slice(2);
  for (const c of CASES.filter((c) => only.length === 0 || only.includes(c.kernel))) {
    const parsed = parseKernelFile(c.file, readFileSync(c.file, "utf8"));
    const source = parsed.kernels.find((k) => k.name === c.kernel)!;
    const compile = (instrument: boolean) => compileKernel(source, c.constexprs, gpu.target, {}, { instrument }).kernel as CompiledKernel;
    const args = c.args(c.size);
    compile(false), compile(true); // the compiler's own warm-up (JIT), not timed
    const medians: number[] = [];
    for (const instrument of [false, true]) {
      const started = performance.now();
      const program = compile(instrument);
      const generated = performance.now();
      const compileMs = `WGSL ${(generated - started).toFixed(1)} ms, pipeline ${(await pipelineMs(gpu, program)).toFixed(1)} ms`;
      const set: LaunchArgs = { buffers: {}, scalars: {} };
      for (const [name, v] of Object.entries(args)) {
        if (typeof v === "number") set.scalars[name] = v;
        else set.buffers[name] = await createStorageBuffer(gpu, v, name);
      }
      const extra = program.abi.instrument;
      if (extra) {
        for (const [param, scalar] of Object.entries(extra.lengths)) set.scalars[scalar] = (args[param] as Float32Array | Int32Array).length;
        set.buffers[extra.debugBuffer] = await createEmptyBuffer(gpu, "u32", extra.debugWords, "kl_debug");
        for (const [param, shadow] of [...Object.entries(extra.provenance), ...Object.entries(extra.reads ?? {})]) set.buffers[shadow] = await createEmptyBuffer(gpu, "u32", 2 * (args[param] as Float32Array | Int32Array).length, shadow);
      }
      const t = await timeLaunches(gpu, program, c.grid(c.size), [set], { maxReps: 50, minReps: 10 });
      medians.push(t.medianMs);
      console.log(`${c.kernel} size ${c.size} ${instrument ? "instrumented" : "plain       "}: median ${t.medianMs.toFixed(3)} ms (min ${t.minMs.toFixed(3)}, ${t.reps} reps, ${t.source}); compile: ${compileMs}`);
    }
    console.log(`  instrumented / plain: ${(medians[1] / medians[0]).toFixed(2)}×`);
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });

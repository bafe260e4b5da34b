// How long lavapipe takes to compile tutorial 03's matmul kernel, plain and instrumented (the
// correctness launch's variant, codegen/instrument.ts), at one autotune config: WGSL size, Dawn's
// pipeline, and the first dispatch of one program (llvmpipe compiles the shader to machine code
// there, not at pipeline creation). Run it with Mesa's cache empty to measure cold:
//
//   MESA_SHADER_CACHE_DISABLE=true npx tsx bench/instrument-compile.ts FILE.py [BM BN BK WARPS] [plain|instrumented]
//
// FILE.py: Triton's tutorial 03 as published (03-matrix-multiplication.py); default config 128 256 16 4,
// the first of its HIP list (our backend is "webgpu"). bench/NOTES.md §40.

import { readFileSync } from "node:fs";
import { compilePythonKernel, readPythonFile } from "../src/python";
import { acquireGpu, createEmptyBuffer, createStorageBuffer, getPipeline, launch, readBuffer, type LaunchArgs } from "../src/runtime";
import type { CompiledKernel } from "../src/compile";

async function main(): Promise<void> {
  const [file, bm = "128", bn = "256", bk = "16", warps = "4", only] = process.argv.slice(2);
  const gpu = await acquireGpu();
  const parsed = readPythonFile(file, readFileSync(file, "utf8"));
  const size = 512;
  const f16 = { kind: "pointer", dtype: "f16" } as const;
  const i32 = { kind: "scalar", dtype: "i32" } as const;
  const types = { a_ptr: f16, b_ptr: f16, c_ptr: f16, M: i32, N: i32, K: i32, stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32 };
  const constexprs = { BLOCK_SIZE_M: +bm, BLOCK_SIZE_N: +bn, BLOCK_SIZE_K: +bk, GROUP_SIZE_M: 1, ACTIVATION: "", num_warps: +warps, num_stages: 2 };
  // As the tutorial's first launch (512², contiguous) specialises it (compile.ts specializationFor).
  const specialization = { ones: ["stride_ak", "stride_bn", "stride_cn"], divisible: ["M", "N", "K", "stride_am", "stride_bk", "stride_cm"] };
  for (const instrument of [false, true]) {
    if (only && (only === "instrumented") !== instrument) continue;
    const started = performance.now();
    const result = compilePythonKernel(parsed, "matmul_kernel", types, constexprs, gpu.target, specialization, { instrument });
    const program = result.kernel as CompiledKernel;
    if (!program) throw new Error(result.diagnostics.map((d) => d.message).join("\n"));
    const generated = performance.now();
    const pipeline = await getPipeline(gpu, program);
    void pipeline;
    const piped = performance.now();
    const scalars: Record<string, number> = { M: size, N: size, K: size, stride_am: size, stride_ak: 1, stride_bk: size, stride_bn: 1, stride_cm: size, stride_cn: 1 };
    const set: LaunchArgs = { buffers: {}, scalars };
    const halves = (n: number) => new Uint16Array(n).fill(0x3c00);
    for (const p of ["a_ptr", "b_ptr", "c_ptr"]) set.buffers[p] = await createStorageBuffer(gpu, halves(size * size) as never, p);
    const extra = program.abi.instrument;
    if (extra) {
      for (const scalar of Object.values(extra.lengths)) set.scalars[scalar] = size * size;
      set.buffers[extra.debugBuffer] = await createEmptyBuffer(gpu, "u32", extra.debugWords, "kl_debug");
      for (const shadow of [...Object.values(extra.provenance), ...Object.values(extra.reads ?? {})]) set.buffers[shadow] = await createEmptyBuffer(gpu, "u32", 2 * size * size, shadow);
    }
    await launch(gpu, program, [1, 1, 1], set);
    await readBuffer(gpu, set.buffers.c_ptr, "u32", 4);
    const dispatched = performance.now();
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(`${bm}×${bn}×${bk}/${warps} ${instrument ? "instrumented" : "plain"}: WGSL ${program.wgsl.length} chars (${program.wgsl.split("\n").length} lines) in ${s(generated - started)}; pipeline ${s(piped - generated)}; first dispatch ${s(dispatched - piped)}`);
  }
}

main().then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });

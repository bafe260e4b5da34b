// The hand-written f16 matmuls of bench/mma-kernels.ts timed inside the suite's process, through the
// suite's own harness (NOTES §85): the same device, input sets, poisoned C, check and timeLaunches as
// the generated kernel beside them. The same WGSL moves by up to 22% from one process to the next on the
// H100 (NOTES §84), so a ratio to the ceiling taken across two processes says little; this one is taken
// within one.
//
// A hand-written kernel is made to take the generated kernel's bindings: the uniform block at binding 0
// (declared, not read), A, B and C at 1, 2 and 3, as a_ptr, b_ptr and c_ptr are. The runtime launches
// every grid 1-D (abi.ts foldGrid), so a kernel whose programs walk C row by row (a 2-D grid) takes its
// workgroup's x and y from the linear id: a modulo and a quotient by a constant, once a program.
// Only cubes of a multiple of 256 (C unpadded), C in f32 (the case's c_ptr).

import { encodeUniforms, getPipeline, type Gpu, type LaunchArgs } from "../src/runtime";
import { BufferUsage } from "../src/runtime/gpu";
import type { KernelProgram } from "../src/runtime/pipelines";
import { time } from "./hand-run";
import { handCShape, handFits, handGrid, handName, handVariants, handWgsl, type HandMatmul } from "./mma-kernels";

export interface HandProgram {
  name: string;
  program: KernelProgram;
  /** The launch's grid, 1-D. */
  grid: [number];
  /** Invocations per workgroup. */
  workgroupSize: number;
}

/**
 * The hand-written kernels matching `match` at M×N×K whose tiles divide the sizes, as programs with the
 * generated kernel's ABI (`like`). C is M × N at row stride N, as the case's c_ptr is.
 */
export function handPrograms(like: KernelProgram, M: number, N: number, K: number, match: RegExp, emulate: boolean): HandProgram[] {
  // C unpadded (handCShape: sizes that are multiples of 256), as the case's c_ptr is.
  if (M !== N || N !== K || handCShape(M, N).stride !== N) return [];
  const fits = (s: HandMatmul) => handFits(s, M, N, K) && M % s.bm === 0 && N % s.bn === 0 && s.acc !== "f16" && !s.isolate;
  return handVariants(M, emulate).filter((s) => fits(s) && match.test(handName(s))).map((s) => {
    const [gx, gy] = handGrid(s, M, N);
    return { name: handName(s), program: { abi: like.abi, wgsl: withSuiteAbi(handWgsl(s, M, N, K, emulate), gx, gy) }, grid: [gx * gy], workgroupSize: 32 * s.sm * s.sn };
  });
}

/** `wgsl` (bindings A, B, C at 0–2; workgroup ids over gx × gy) with the generated kernel's bindings and a 1-D launch. */
export function withSuiteAbi(wgsl: string, gx: number, gy: number): string {
  let bound = 0;
  const rebound = wgsl.replace(/@group\(0\) @binding\((\d)\) var<storage/g, (_, b: string) => {
    bound++;
    return `@group(0) @binding(${Number(b) + 1}) var<storage`;
  });
  if (bound !== 3) throw new Error(`hand-in-suite: expected the bindings A, B and C, found ${bound}`);
  const entry = "fn main(@builtin(workgroup_id) wid: vec3<u32>,";
  if (!rebound.includes(entry)) throw new Error("hand-in-suite: no entry point taking wid");
  const at = rebound.indexOf("@group(0)");
  const uniform = "@group(0) @binding(0) var<uniform> kl_params: vec4<u32>; // the generated kernel's uniform block, unread\n";
  // z stays the launch's (0, unknown to the compiler): the kernels with run-time sizes add it to theirs.
  const ids = gy === 1 ? "let wid = wid_1d;" : `let wid = vec3<u32>(wid_1d.x % ${gx}u, wid_1d.x / ${gx}u, wid_1d.z);`;
  return `${rebound.slice(0, at)}${uniform}${rebound.slice(at)}`.replace(entry, "fn main(@builtin(workgroup_id) wid_1d: vec3<u32>,").replace(/(fn main\([^\n]*\{\n)/, `$1  ${ids}\n`);
}

/** Samples timeOnePass takes (each a group of dispatches between two timestamps); it returns their median. */
export const ONE_PASS_SAMPLES = 15;

/**
 * `program` timed as bench/hand-run.ts times the hand-written kernels in mma-probe: every dispatch of a sample in one
 * compute pass, one bind group, one input set (`set`), against the suite's timeLaunches (a pass a dispatch, input
 * sets rotated). The same kernel runs up to 9% faster so at 1024³ (NOTES §85): a ratio between the two harnesses
 * measures them, not the kernels. Median ms a dispatch.
 */
export async function timeOnePass(gpu: Gpu, program: KernelProgram, grid: [number], set: LaunchArgs): Promise<number> {
  const compiled = await getPipeline(gpu, program);
  const words = encodeUniforms(program.abi, [grid[0], 1, 1], set.scalars);
  const uniforms = gpu.device.createBuffer({ label: "one-pass uniforms", size: words.byteLength, usage: BufferUsage.UNIFORM | BufferUsage.COPY_DST });
  gpu.device.queue.writeBuffer(uniforms, 0, words.buffer, words.byteOffset, words.byteLength);
  const group = gpu.device.createBindGroup({
    layout: compiled.bindGroupLayout,
    entries: [{ binding: 0, resource: { buffer: uniforms } }, ...program.abi.buffers.map((b) => ({ binding: b.binding, resource: { buffer: set.buffers[b.name] } }))],
  });
  try {
    return await time(gpu, { pipeline: compiled.pipeline, group }, [grid[0], 1], ONE_PASS_SAMPLES);
  } finally {
    uniforms.destroy();
  }
}

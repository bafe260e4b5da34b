// Test support: compile a kernel from source, run it on the GPU (lavapipe in CI) and on the CPU
// interpreter with the same inputs, and hand back both sets of outputs.

import { parseKernelFile, compileKernel, specializationFor, type CompiledKernel } from "../../src/compile";
import { acquireGpu, createStorageBuffer, launch, readBuffer } from "../../src/runtime";
import { interpret } from "../../src/interpreter/interpret";
import type { PointeeDtype } from "../../src/ir/ir";
import { locate } from "../../src/diagnostics/position";
import type { CodegenOptions, Target } from "../../src/ir/target";

export type HostArray = Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;

export const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, f16, i32, u32, constexpr } from "kernel-lab";\n';

export interface KernelRun {
  source: string;
  constexprs?: Record<string, number>;
  grid: number[];
  args: Record<string, HostArray | number>;
  outputs: string[];
  /** Adapter facts and code-generation switches overridden (e.g. { subgroups: false } to test the workgroup-memory paths, { tiledLayouts: true }). */
  target?: Overrides;
  /** Specialise on the scalar arguments as the harness does (compile.ts specializationFor: ones, multiples of 16). */
  specialize?: boolean;
}

/**
 * One kernel of a table-driven GPU test (test/gpu/scans, blocks2d, blocks3d, triton-functions,
 * multi-operand-reduce): its parameters and body, launched on the GPU and the interpreter, each
 * output checked against `expected` (computed on the CPU in higher precision).
 */
export interface KernelCase {
  name: string;
  params: string;
  body: string;
  constexprs: Record<string, number>;
  grid: number[];
  args: Record<string, HostArray | number>;
  outputs: string[];
  expected: Record<string, ArrayLike<number>>;
  atol?: number;
  rtol?: number;
  target?: Overrides;
  /** Device functions (combine functions passed by name), defined after the kernel: the runner launches a file's first. */
  helpers?: string;
}

/** Launches a KernelCase on the GPU and the interpreter and checks every output against its expected values. */
export async function runKernelCase(c: KernelCase): Promise<void> {
  const source = `${PRELUDE}export const k = kernel(function k(${c.params}) {\n${c.body}\n});\n${c.helpers ?? ""}`;
  const { gpu, cpu } = await runBoth({ source, constexprs: c.constexprs, grid: c.grid, args: c.args, outputs: c.outputs, target: c.target });
  for (const o of c.outputs) {
    assertClose(gpu[o], c.expected[o], `GPU ${o}`, c.atol, c.rtol);
    assertClose(cpu[o], c.expected[o], `CPU ${o}`, c.atol, c.rtol);
  }
}

/** 0, 1, …, n − 1. */
export const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** The smallest power of two at least n (and at least 1): a block covering n elements. */
export const pow2 = (n: number): number => 2 ** Math.ceil(Math.log2(Math.max(n, 1)));

export interface KernelOutputs {
  gpu: Record<string, HostArray>;
  cpu: Record<string, HostArray>;
  kernel: CompiledKernel;
}

function dtypeOf(a: HostArray): PointeeDtype {
  if (a instanceof Float32Array) return "f32";
  // Bytes come back as bytes (a Ptr<bool>'s 0 and 1 too).
  if (a instanceof Uint8Array) return "u8";
  if (a instanceof Int8Array) return "i8";
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  return "f16";
}

/** What a test overrides: some of the adapter's facts and some code-generation switches, written together. */
export type Overrides = Partial<Target> & CodegenOptions;

/** The keys of Target's facts (a new fact is a type error here until listed). */
const FACTS = { shaderF16: true, subgroups: true, subgroupMinSize: true, subgroupMaxSize: true, subgroupMatrixConfigs: true, maxWorkgroupSize: true, maxWorkgroupStorageBytes: true } satisfies Record<keyof Target, true>;

/** Overrides taken apart: the adapter's facts, and the options. */
export function splitOverrides(overrides: Overrides): { facts: Partial<Target>; options: CodegenOptions } {
  const entries = Object.entries(overrides);
  return { facts: Object.fromEntries(entries.filter(([k]) => k in FACTS)), options: Object.fromEntries(entries.filter(([k]) => !(k in FACTS))) };
}

export async function compileForGpu(source: string, constexprs: Record<string, number> = {}, overrides: Overrides = {}, scalars?: Record<string, unknown>): Promise<CompiledKernel> {
  const gpu = await acquireGpu();
  const parsed = parseKernelFile("test.kernel.ts", source);
  const kernel = parsed.kernels[0];
  const specialization = kernel && scalars ? specializationFor(kernel, scalars) : {};
  const result = kernel ? compileKernel(kernel, constexprs, { ...gpu.target, ...splitOverrides(overrides).facts }, specialization, splitOverrides(overrides).options) : { diagnostics: parsed.diagnostics };
  const errors = [...parsed.diagnostics, ...result.diagnostics].filter((d) => d.severity === "error");
  if (!("kernel" in result) || !result.kernel || errors.length > 0) {
    const shown = locate("test.kernel.ts", source, errors).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    throw new Error(`kernel did not compile:\n${shown.join("\n")}`);
  }
  return result.kernel;
}

export async function runBoth(run: KernelRun): Promise<KernelOutputs> {
  const scalarArgs = Object.fromEntries(Object.entries(run.args).filter(([, v]) => typeof v === "number"));
  const kernel = await compileForGpu(run.source, run.constexprs, run.target, run.specialize ? scalarArgs : undefined);
  return runCompiled(kernel, run);
}

/** A compiled kernel (a Python one's, say) run on the GPU and on the interpreter, as runBoth runs its own. */
export async function runCompiled(kernel: CompiledKernel, run: Pick<KernelRun, "grid" | "args" | "outputs">): Promise<KernelOutputs> {
  const gpu = await acquireGpu();
  const grid: [number, number, number] = [run.grid[0], run.grid[1] ?? 1, run.grid[2] ?? 1];

  const buffers: Record<string, GPUBuffer> = {};
  const scalars: Record<string, number> = {};
  const cpuArgs: Record<string, HostArray | number> = {};
  for (const [name, value] of Object.entries(run.args)) {
    if (typeof value === "number") {
      scalars[name] = value;
      cpuArgs[name] = value;
    } else {
      buffers[name] = await createStorageBuffer(gpu, value, name);
      cpuArgs[name] = value.slice();
    }
  }
  await launch(gpu, kernel, grid, { buffers, scalars });
  const out: Record<string, HostArray> = {};
  for (const name of run.outputs) {
    const host = run.args[name] as HostArray;
    out[name] = await readBuffer(gpu, buffers[name], dtypeOf(host), host.length);
  }
  for (const b of Object.values(buffers)) b.destroy();

  interpret(kernel.ir, grid, cpuArgs as never);
  const cpu: Record<string, HostArray> = {};
  for (const name of run.outputs) cpu[name] = cpuArgs[name] as HostArray;
  return { gpu: out, cpu, kernel };
}

/** Uniform random floats in [lo, hi). */
export function randomFloats(n: number, lo = -1, hi = 1): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + Math.random() * (hi - lo);
  return a;
}

export function randomInts(n: number, lo = -1000, hi = 1000): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + Math.floor(Math.random() * (hi - lo));
  return a;
}

/** Output buffers start as NaN (floats) or a poison pattern (ints), so unwritten elements show. */
export function poisoned(n: number, dtype: "f32" | "i32" | "u32" = "f32"): HostArray {
  if (dtype === "f32") return new Float32Array(n).fill(NaN);
  if (dtype === "i32") return new Int32Array(n).fill(0x7fbadbad);
  return new Uint32Array(n).fill(0xdeadbeef);
}

/** Max |a - b| / (atol + rtol |b|) over all elements; NaN anywhere in `got` where `want` isn't NaN fails. */
export function assertClose(got: ArrayLike<number>, want: ArrayLike<number>, what: string, atol = 0, rtol = 0): void {
  if (got.length !== want.length) throw new Error(`${what}: length ${got.length}, expected ${want.length}`);
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    if (Number.isNaN(w) && Number.isNaN(g)) continue;
    if (Number.isNaN(g) || Math.abs(g - w) > atol + rtol * Math.abs(w) || (Number.isNaN(w) && !Number.isNaN(g))) {
      throw new Error(`${what}: element ${i} is ${g}, expected ${w} (atol ${atol}, rtol ${rtol})`);
    }
  }
}

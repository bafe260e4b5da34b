// Compute pipelines, compiled once per process and cached.
//
// Cache key: `<kernel>@<16 hex digits of a hash of the WGSL and the binding layout>` (hash.ts), e.g.
// `add_kernel@3f2a9c0d11e4b7a2`. The kernel name keeps keys readable in labels and logs; the hash
// covers everything that changes the pipeline (each constexpr specialisation is its own WGSL).
// The bind group layout is explicit, built from the KernelAbi, so a binding the shader never
// touches still binds (an "auto" layout would drop it).

import { storageBindingCount, type KernelAbi } from "../codegen/abi";
import { GpuError, ShaderCompileError, type WgslMessage } from "./errors";
import { ShaderStage, type Gpu } from "./gpu";
import { hash64 } from "./hash";

export interface KernelProgram {
  abi: KernelAbi;
  wgsl: string;
}

/** A kernel's WGSL made into a compute pipeline on one device, with its bind group layout (compile.ts's CompiledKernel is the compiler's result). */
export interface GpuPipeline {
  key: string;
  abi: KernelAbi;
  pipeline: GPUComputePipeline;
  bindGroupLayout: GPUBindGroupLayout;
}

const caches = new WeakMap<Gpu, Map<string, Promise<GpuPipeline>>>();

function layoutSignature(abi: KernelAbi): string {
  return abi.buffers.map((b) => `${b.binding}:${b.access}`).join(",") + (abi.debug ? `,${abi.debug.binding}:debug` : "");
}

export function pipelineKey(program: KernelProgram): string {
  return `${program.abi.kernel}@${hash64(`${program.wgsl}\0${layoutSignature(program.abi)}`)}`;
}

/** The compiled pipeline for `program`, from the cache when it was compiled before. */
export function getPipeline(gpu: Gpu, program: KernelProgram): Promise<GpuPipeline> {
  let cache = caches.get(gpu);
  if (!cache) caches.set(gpu, (cache = new Map()));
  const key = pipelineKey(program);
  let entry = cache.get(key);
  if (!entry) {
    const made = compile(gpu, program, key);
    cache.set(key, made);
    made.catch(() => cache.delete(key));
    entry = made;
  }
  return entry;
}

/** Number of pipelines compiled and cached on this device (for tests and logs). */
export function cachedPipelineCount(gpu: Gpu): number {
  return caches.get(gpu)?.size ?? 0;
}

async function compile(gpu: Gpu, program: KernelProgram, key: string): Promise<GpuPipeline> {
  const { abi, wgsl } = program;
  const label = abi.kernel;
  const bound = storageBindingCount(abi);
  if (bound > gpu.limits.maxStorageBuffersPerShaderStage) {
    const debug = abi.debug ? " and the record buffer of its tl.device_print / tl.device_assert" : "";
    throw new GpuError(
      "bad-launch",
      `Kernel '${label}' binds ${bound} storage buffers (${abi.buffers.length} for its pointer parameters${debug}); this adapter binds at most ` +
        `${gpu.limits.maxStorageBuffersPerShaderStage} per kernel. ` +
        `${abi.debug ? "Take its print and assert calls out, pass" : "Pass"} fewer tensors (several in one), or run it with --cpu.`,
      label,
    );
  }
  const device = gpu.device;
  let messages: WgslMessage[] = [];
  const compileError = () => new ShaderCompileError(label, messages.filter((m) => m.severity === "error"));
  const module = await gpu
    .scoped(label, async () => {
      const made = device.createShaderModule({ label, code: wgsl });
      const info = await gpu.idle(made.getCompilationInfo());
      messages = info.messages.map((m) => ({ severity: m.type, line: m.lineNum, column: m.linePos, message: m.message }));
      return made;
    })
    .catch((err) => {
      // The error scope reports a compile error too; the compilation messages say more.
      throw messages.some((m) => m.severity === "error") ? compileError() : err;
    });
  if (messages.some((m) => m.severity === "error")) throw compileError();

  return gpu.scoped(label, async () => {
    const bindGroupLayout = device.createBindGroupLayout({
      label,
      entries: [
        { binding: 0, visibility: ShaderStage.COMPUTE, buffer: { type: "uniform" } },
        ...abi.buffers.map(
          (b): GPUBindGroupLayoutEntry => ({
            binding: b.binding,
            visibility: ShaderStage.COMPUTE,
            buffer: { type: b.access === "read" ? "read-only-storage" : "storage" },
          }),
        ),
        ...(abi.debug ? [{ binding: abi.debug.binding, visibility: ShaderStage.COMPUTE, buffer: { type: "storage" as const } }] : []),
      ],
    });
    const layout = device.createPipelineLayout({ label, bindGroupLayouts: [bindGroupLayout] });
    try {
      const pipeline = await gpu.idle(
        device.createComputePipelineAsync({
          label,
          layout,
          compute: { module, entryPoint: abi.entryPoint },
        }),
      );
      return { key, abi, pipeline, bindGroupLayout };
    } catch (err) {
      throw new GpuError("validation", `Kernel '${label}' could not be made into a compute pipeline: ${(err as Error).message.trim()}`, label);
    }
  });
}

/// <reference types="@webgpu/types" />
// One WebGPU instance and one device per process (or browser worker). In Node the instance is
// Dawn's, returned by `create()`, and must stay reachable for as long as the device lives, or GC
// frees it under the device and the process dies at random (docs/ENVIRONMENT.md §2). It is held in a
// module variable and on globalThis. In a browser it is `navigator.gpu` (host.ts).

import { NO_NEEDS, type HalfPrecisionNeeds, type SubgroupMatrixConfig, type Target } from "../ir/target";
import { togglesToAsk, withToggles } from "./dawn-toggles";
import { GpuError, NoAdapterError, type GpuErrorKind } from "./errors";
import { host } from "./host";

/** WebGPU's numeric flags (not globals in Node). */
export const BufferUsage = {
  MAP_READ: 0x1,
  MAP_WRITE: 0x2,
  COPY_SRC: 0x4,
  COPY_DST: 0x8,
  UNIFORM: 0x40,
  STORAGE: 0x80,
  QUERY_RESOLVE: 0x200,
} as const;
export const MapMode = { READ: 0x1, WRITE: 0x2 } as const;
export const ShaderStage = { COMPUTE: 0x4 } as const;

export interface AdapterSummary {
  vendor: string;
  device: string;
  architecture: string;
  /** "vulkan", "metal", "d3d12", … */
  backend: string;
  description: string;
}

export interface GpuLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxComputeWorkgroupsPerDimension: number;
  maxStorageBuffersPerShaderStage: number;
}

/** Limits raised from WebGPU's defaults to what the adapter offers. */
const RAISED_LIMITS = [
  "maxStorageBufferBindingSize",
  "maxBufferSize",
  "maxComputeWorkgroupStorageSize",
  "maxComputeInvocationsPerWorkgroup",
  "maxComputeWorkgroupSizeX",
  "maxComputeWorkgroupsPerDimension",
  "maxStorageBuffersPerShaderStage",
] as const;

// Subgroup matrices (tensor cores for tl.dot, codegen/mma.ts) are offered by Dawn only with
// allow_unsafe_apis (and, on NVIDIA, f16 only with vulkan_enable_f16_on_nvidia): acquireGpu asks
// for both when the kernels need f16 (dawn-toggles.ts).
const SUBGROUP_MATRIX = "chromium-experimental-subgroup-matrix" as GPUFeatureName;
const WANTED_FEATURES: GPUFeatureName[] = ["timestamp-query", "subgroups", "shader-f16", SUBGROUP_MATRIX];

/** What the adapter's info says about subgroups (Dawn's fields beyond the WebGPU types). */
export interface SubgroupInfo {
  minSize: number;
  maxSize: number;
  matrixConfigs: SubgroupMatrixConfig[];
}

export class Gpu {
  readonly target: Target;
  readonly limits: GpuLimits;
  readonly hasTimestamps: boolean;
  /** A software adapter (lavapipe, SwiftShader, WARP): the CPU does the GPU's work. */
  readonly software: boolean;
  /** Errors reported by the device outside any error scope, thrown by the next operation. */
  private uncaptured: GpuError[] = [];
  private lostError: GpuError | undefined;

  constructor(
    readonly device: GPUDevice,
    readonly adapter: AdapterSummary,
    // Kept so the adapter (and through it the instance) is reachable as long as the device.
    readonly gpuAdapter: GPUAdapter,
    subgroupInfo: SubgroupInfo,
    /** The Dawn toggles Kernel Lab asked for itself (dawn-toggles.ts); the user's own flags are not listed. */
    readonly dawnToggles: readonly string[] = [],
  ) {
    const l = device.limits;
    const has = (f: GPUFeatureName) => device.features.has(f);
    this.hasTimestamps = has("timestamp-query");
    this.software = isSoftwareAdapter(adapter);
    this.target = {
      shaderF16: has("shader-f16"),
      subgroups: has("subgroups"),
      subgroupMinSize: subgroupInfo.minSize,
      subgroupMaxSize: subgroupInfo.maxSize,
      ...(has(SUBGROUP_MATRIX) ? { subgroupMatrixConfigs: subgroupInfo.matrixConfigs } : {}),
      maxWorkgroupSize: Math.min(l.maxComputeInvocationsPerWorkgroup, l.maxComputeWorkgroupSizeX),
      maxWorkgroupStorageBytes: l.maxComputeWorkgroupStorageSize,
    };
    this.limits = {
      maxBufferSize: l.maxBufferSize,
      maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
      maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
      maxStorageBuffersPerShaderStage: l.maxStorageBuffersPerShaderStage,
    };
    device.addEventListener("uncapturederror", (event) => {
      // preventDefault keeps Dawn from printing the error on stdout (it would corrupt --json).
      event.preventDefault();
      this.uncaptured.push(toGpuError(event.error));
    });
    void device.lost.then((info) => {
      const why = info.reason === "destroyed" ? "it was destroyed" : info.message.trim() || "unknown reason";
      this.lostError = new GpuError(
        "device-lost",
        `The GPU device was lost (${why}). Its buffers are gone; the next acquireGpu() makes a new device.`,
      );
    });
  }

  /**
   * Awaits the device's work (a submitted queue's completion, a buffer's mapping). On a software
   * adapter the waiting thread sleeps between Dawn's event polls (host.yieldWhile), leaving the
   * CPU to the adapter's threads: lavapipe's shaders ran on two cores instead of one and a half.
   */
  idle<T>(pending: Promise<T>): Promise<T> {
    return this.software ? host.yieldWhile(pending) : pending;
  }

  get isLost(): boolean {
    return this.lostError !== undefined;
  }

  /** Throws the device's loss, or the oldest error it reported outside an error scope. */
  throwIfFailed(): void {
    if (this.lostError) throw this.lostError;
    const first = this.uncaptured.shift();
    if (first) {
      this.uncaptured.length = 0;
      throw first;
    }
  }

  /**
   * Runs `body` inside validation, out-of-memory and internal error scopes and throws the first
   * error the device reports for it (after any earlier uncaptured error or device loss).
   * Scopes are a stack on the device, so operations run one after another: a second caller waits
   * for the first. A `scoped` call inside another's body runs at once, nested.
   */
  scoped<T>(subject: string, body: () => T | Promise<T>): Promise<T> {
    if (insideScope.getStore() === this) return this.runScoped(subject, body);
    const run = this.queue.then(() => insideScope.run(this, () => this.runScoped(subject, body)));
    this.queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private queue: Promise<void> = Promise.resolve();

  private async runScoped<T>(subject: string, body: () => T | Promise<T>): Promise<T> {
    this.throwIfFailed();
    const device = this.device;
    device.pushErrorScope("internal");
    device.pushErrorScope("out-of-memory");
    device.pushErrorScope("validation");
    let result: T | undefined;
    let thrown: unknown;
    let failed = false;
    try {
      result = await body();
    } catch (err) {
      failed = true;
      thrown = err;
    }
    // Popped together: one wait for the device instead of three.
    const popped = await this.idle(Promise.all([0, 1, 2].map(() => device.popErrorScope().catch(() => null))));
    const reported = popped.find((error) => error !== null) ?? null;
    // A lost device explains everything that failed after it (e.g. an aborted mapAsync).
    if (this.lostError) throw this.lostError;
    if (reported) throw failed && thrown instanceof GpuError ? withCause(thrown, reported) : toGpuError(reported, subject);
    if (failed) throw thrown;
    this.throwIfFailed();
    return result as T;
  }
}

const insideScope = host.asyncLocal<Gpu>();

/**
 * `thrown` with the scope's first error where that says what `thrown` doesn't: a pipeline refused "due to a previous
 * error" (Dawn's words) names the layout, the scope's error why the layout was invalid.
 */
function withCause(thrown: GpuError, first: GPUError): GpuError {
  const cause = first.message.trim();
  if (!/due to a previous error/.test(thrown.message) || thrown.message.includes(cause)) return thrown;
  return new GpuError(thrown.kind, `${thrown.message}\nThe first error: ${cause}`, thrown.subject);
}

function toGpuError(error: GPUError, subject?: string): GpuError {
  const kind: GpuErrorKind =
    error.constructor.name === "GPUOutOfMemoryError"
      ? "out-of-memory"
      : error.constructor.name === "GPUInternalError"
        ? "internal"
        : "validation";
  const what = kind === "out-of-memory" ? "GPU out of memory" : kind === "internal" ? "GPU internal error" : "GPU validation error";
  const where = subject ? ` in '${subject}'` : "";
  return new GpuError(kind, `${what}${where}: ${error.message.trim()}`, subject);
}

// ---- the one instance and device of this process ----

// On globalThis, so the instance is always reachable, and so two bundled copies of this module in
// one process (say the CLI and the harness) still share one instance and one device.
interface ProcessGpu {
  /** Every Dawn instance made, by its flags: each stays reachable for the life of the process. */
  instances?: Map<string, GPU | undefined>;
  current?: Promise<Gpu>;
}
const shared: ProcessGpu = ((globalThis as Record<symbol, ProcessGpu | undefined>)[Symbol.for("kernel-lab.gpu")] ??= {});

/**
 * Dawn's instance flags: precise timestamps, plus any in KERNEL_LAB_DAWN_FLAGS (separated by
 * spaces), e.g. `enable-dawn-features=vulkan_enable_f16_on_nvidia`, which makes Dawn offer
 * `shader-f16` on NVIDIA drivers it blocklists (bench/NOTES.md §12; Dawn calls it unsafe).
 */
export function dawnFlags(flagsVariable: string | undefined = host.env("KERNEL_LAB_DAWN_FLAGS")): string[] {
  const extra = (flagsVariable ?? "").split(/\s+/).filter(Boolean);
  return ["disable-dawn-features=timestamp_quantization", ...extra];
}

function gpuInstance(flags: string[]): GPU | undefined {
  const instances = (shared.instances ??= new Map());
  const key = flags.join(" ");
  if (!instances.has(key)) instances.set(key, host.gpu(flags));
  return instances.get(key);
}

/**
 * Whether `gpu` serves kernels with these needs: it has what they use, or it was made with every
 * toggle they would ask for (an adapter that lacks f16 even so truly lacks it).
 */
function serves(gpu: Gpu, needs: HalfPrecisionNeeds): boolean {
  const has = gpu.target.shaderF16 && (!needs.f16Dot || (gpu.target.subgroupMatrixConfigs ?? []).some((c) => c.componentType === "f16"));
  return has || askedToggles(needs, dawnFlags()).every((t) => gpu.dawnToggles.includes(t));
}

/** The toggles Kernel Lab asks for (none where the WebGPU entry point takes no Dawn flags: a browser's). */
function askedToggles(needs: HalfPrecisionNeeds, userFlags: readonly string[]): string[] {
  return host.takesDawnFlags ? togglesToAsk(needs, userFlags) : [];
}

/**
 * The process's GPU: created on first use, then shared. A lost device is replaced by a fresh one
 * on the next call. `needs`: what the kernels to run use; for f16, Dawn's instance is made with
 * the toggles that unlock it (dawn-toggles.ts) — where the shared GPU was made without them, a
 * second instance and device with them replace it for the rest of the process (the first stays
 * reachable). Throws `NoAdapterError` when Dawn finds no adapter.
 */
export function acquireGpu(needs: HalfPrecisionNeeds = NO_NEEDS): Promise<Gpu> {
  const pending = shared.current;
  if (pending) {
    return pending.then((gpu) => {
      if (!gpu.isLost && serves(gpu, needs)) return gpu;
      if (shared.current === pending) shared.current = undefined;
      return acquireGpu(needs);
    });
  }
  const made = createGpu(needs);
  shared.current = made;
  made.catch(() => {
    if (shared.current === made) shared.current = undefined;
  });
  return made;
}

async function createGpu(needs: HalfPrecisionNeeds): Promise<Gpu> {
  const userFlags = dawnFlags();
  const toggles = askedToggles(needs, userFlags);
  const gpu = gpuInstance(withToggles(userFlags, toggles));
  if (!gpu) throw new NoAdapterError("this browser has no WebGPU: navigator.gpu is undefined");
  const adapter = await host.requestAdapter(gpu, { powerPreference: "high-performance" });
  if (!adapter) throw new NoAdapterError();
  const requiredFeatures = WANTED_FEATURES.filter((f) => adapter.features.has(f));
  const requiredLimits: Record<string, number> = {};
  for (const name of RAISED_LIMITS) requiredLimits[name] = adapter.limits[name];
  const device = await adapter.requestDevice({ label: "kernel-lab", requiredFeatures, requiredLimits });
  return new Gpu(device, summarise(adapter.info), adapter, subgroupInfo(adapter.info), toggles);
}

function subgroupInfo(adapterInfo: GPUAdapterInfo): SubgroupInfo {
  const info = adapterInfo as GPUAdapterInfo & { subgroupMinSize?: number; subgroupMaxSize?: number; subgroupMatrixConfigs?: readonly Record<string, unknown>[] };
  const minSize = info.subgroupMinSize ?? 4;
  // Dawn's config objects keep their fields as getters: read them by name.
  const matrixConfigs = (info.subgroupMatrixConfigs ?? []).map((c) => ({
    componentType: String(c.componentType),
    resultComponentType: String(c.resultComponentType),
    M: Number(c.M),
    N: Number(c.N),
    K: Number(c.K),
  }));
  return { minSize, maxSize: info.subgroupMaxSize ?? minSize, matrixConfigs };
}

function summarise(info: GPUAdapterInfo): AdapterSummary {
  const description = info.description ?? "";
  return {
    vendor: info.vendor || "unknown",
    // Browsers give the architecture ("swiftshader") and withhold the device's name.
    device: info.device || info.architecture || "unknown",
    architecture: info.architecture || "unknown",
    backend: backendOf(description),
    description,
  };
}

/** Dawn does not report its backend; the description sometimes names it, else the platform decides. */
export function backendOf(description: string, platform: string = host.platform): string {
  const named = /\b(vulkan|metal|d3d12|d3d11|opengl ?es|opengl)\b/i.exec(description);
  if (named) return named[1].toLowerCase().replace(/\s+/g, "");
  switch (platform) {
    case "browser":
      return "webgpu";
    case "darwin":
      return "metal";
    case "win32":
      return "d3d12";
    default:
      return "vulkan";
  }
}

/** Whether the adapter is the CPU doing a GPU's work, by the names drivers give it. */
export function isSoftwareAdapter(a: AdapterSummary): boolean {
  return /llvmpipe|lavapipe|swiftshader|software|\bwarp\b|basic render/i.test(`${a.vendor} ${a.device} ${a.architecture} ${a.description}`);
}

/** One line for logs: `mesa llvmpipe-… (software, vulkan): llvmpipe: Mesa 25.0.7 …`. */
export function describeAdapter(a: AdapterSummary): string {
  return `${a.vendor} ${a.device} (${a.architecture}, ${a.backend})${a.description ? `: ${a.description}` : ""}`;
}

// The Dawn runtime: one device per process, storage buffers, cached pipelines, launches, timing.
export { acquireGpu, describeAdapter, Gpu, type AdapterSummary, type GpuLimits } from "./gpu";
export { togglesNote, togglesToAsk, namedToggles, F16_TOGGLE, UNSAFE_APIS_TOGGLE } from "./dawn-toggles";
export { GpuError, NoAdapterError, ShaderCompileError, type GpuErrorKind, type WgslMessage } from "./errors";
export {
  createStorageBuffer,
  createEmptyBuffer,
  writeStorageBuffer,
  readBuffer,
  storageByteSize,
  BYTES_PER_ELEMENT,
  type StorageArray,
  type ArrayFor,
} from "./buffers";
export { getPipeline, pipelineKey, cachedPipelineCount, type KernelProgram, type GpuPipeline } from "./pipelines";
export {
  launch,
  launchSequence,
  recordLaunches,
  LaunchSequence,
  checkGrid,
  encodeUniforms,
  type Grid,
  type LaunchArgs,
  type LaunchOptions,
  type LaunchStep,
} from "./launch";
export { createDebugBuffer } from "./debug-buffer";
export { timeLaunches, type Timing, type TimingOptions } from "./timing";

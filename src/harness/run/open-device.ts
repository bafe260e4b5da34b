// Where the kernels run: the GPU (opened while the file loads; Dawn's start-up is
// synchronous work) or, with --cpu, the interpreter. Either way, the Target compiled for.

import { cpuExecutor } from "./cpu-executor";
import type { Executor } from "./executor";
import { gpuExecutor } from "./gpu-executor";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import { DEFAULT_TARGET, type Target } from "../../ir/target";
import type { HalfPrecisionNeeds } from "../../ir/target";
import { acquireGpu, NoAdapterError, togglesNote, type Gpu } from "../../runtime";
import { located } from "../load/load";
import type { Progress } from "../progress";
import type { AdapterReport, Outcome } from "../report";
import { codeOf, messageOf } from "./to-diagnostics";
import { trace } from "../trace";

export const CPU_ADAPTER: AdapterReport = {
  vendor: "kernel-lab",
  device: "cpu-interpreter",
  backend: "cpu",
  description: "Kernel Lab's IR interpreter (--cpu)",
};

export interface Device {
  /** Undefined with --cpu. */
  gpu: Gpu | undefined;
  /** What runs a run's launches: the GPU, or the interpreter with --cpu. */
  executor: Executor;
  target: Target;
  adapter: AdapterReport;
}

/**
 * Starts opening the GPU; a failure is reported only by openDevice, once the file is known to be
 * well-formed. `needs` (read off the file's kernels): f16 opens it with Dawn's toggles for f16.
 */
export function requestGpu(progress: (p: Progress) => void, needs: HalfPrecisionNeeds): Promise<Gpu> {
  progress({ phase: "adapter", message: "Opening the GPU" });
  const gpuReady = acquireGpu(needs);
  gpuReady.catch(() => {}); // awaited in openDevice
  trace("GPU requested");
  return gpuReady;
}

/** The device to run on: the requested GPU, or the interpreter when none was requested. `needs` as given to requestGpu. */
export async function openDevice(
  gpuReady: Promise<Gpu> | undefined,
  file: string,
  needs: HalfPrecisionNeeds,
): Promise<Device | { diagnostic: LocatedDiagnostic; outcome: Outcome }> {
  // The interpreter has every feature; f16 kernels run on the CPU whatever the GPU offers.
  if (!gpuReady) return { gpu: undefined, executor: cpuExecutor, target: { ...DEFAULT_TARGET, shaderF16: true }, adapter: CPU_ADAPTER };
  let gpu: Gpu;
  try {
    gpu = await gpuReady;
  } catch (err) {
    return { diagnostic: located(file, codeOf(err, "KL4001"), messageOf(err)), outcome: err instanceof NoAdapterError ? "no-adapter" : "failure" };
  }
  trace("GPU ready");
  const { vendor, device, backend, description } = gpu.adapter;
  // The toggles are the process's (a worker or test process may have asked for them before): said where this file uses f16.
  const note = needs.f16 ? togglesNote(gpu.dawnToggles) : undefined;
  return { gpu, executor: gpuExecutor(gpu), target: gpu.target, adapter: { vendor, device, backend, description, ...(note ? { note } : {}) } };
}

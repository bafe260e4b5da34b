// Where a prepared size (prepare.ts) runs: the GPU (gpu-executor.ts) or, with --cpu, the
// interpreter (cpu-executor.ts). Both run the launches once on the run's arrays, checking every
// access, and give back the outputs, what the kernels printed and who stored each element; the
// GPU also times the sequence. run-size.ts does the rest the same way for both. A Python script's
// launch (python/launch.ts) is the other kind of work they do: one launch on arrays its caller
// keeps, run in place and checked (`launchInPlace`; in-place-launch.ts on the GPU).

import type { CompiledKernel, LaunchableKernel } from "../../compile";
import type { Diagnostic } from "../../diagnostics/diagnostic";
import type { Gpu, StorageArray } from "../../runtime";
import type { PointerView } from "../../ir/ir";
import type { LineMap } from "../../diagnostics/position";
import type { StoreProvenance } from "../debug/provenance";
import type { PrintedLines } from "../debug/prints";
import type { Lines } from "../debug/races";
import type { Progress } from "../progress";
import type { BaselineReport, RunReport, TimingReport } from "../report";
import type { CheckedRun, RunLimits } from "./args";
import type { PreparedSize } from "./prepare";

/** What one size of a run is told, whichever executor runs it. */
export interface SizeContext {
  /** Most timed repetitions (`--reps`); 0: check only, no timing. */
  reps: number | undefined;
  /** The interpreter's step budget (`--max-steps`). */
  maxSteps?: number;
  progress: (p: Progress) => void;
  onChecked: (run: RunReport) => void;
  /** The file's lines: where a mismatch's tl.store is. */
  lines: LineMap;
  /** The program whose accesses go into the report's `accessMap` (`--program`). */
  program?: readonly [number, number, number];
  /** Trace a bounded set of programs into the report's `accessMaps` (the results panel). */
  accessMaps?: boolean;
  /** A warning about this size (KL3105), into the report's diagnostics. */
  warn?: (diagnostic: Diagnostic) => void;
  /**
   * A candidate of the autotuner (autotune.ts): launched as it will be timed (no prints, no
   * instrumented variant or corner checks: its check is the comparison), timed with these options
   * and only when correct; where its bytes go traced, timed or not, when `traceBytes` (once per
   * set of constexprs: the knobs don't move them).
   */
  candidate?: { timing: TimingOptions; traceBytes: boolean };
}

/** The launches run once, checked. */
export interface CheckedSize {
  got: Map<string, ArrayLike<number>>;
  printed?: PrintedLines;
  /** Who stored each output element, read only on a mismatch; undefined where it isn't recorded. */
  provenance?: () => Promise<StoreProvenance>;
  /** The interpreter's wall clock, the sequence's and each launch's (a sequence of several): its only timing. */
  cpuTiming?: { total: TimingReport; launches?: TimingReport[] };
}

export interface TimedSize {
  timing: TimingReport;
  /** Each launch of a sequence of several on its own. */
  launches?: TimingReport[];
  /**
   * The outputs of the program(s) timed, launched once on fresh inputs, where they are not the
   * program(s) the check ran (the instrumented variant, or one that prints): run-size.ts compares
   * them with the reference too, so the time shown is of a program that matched.
   */
  got?: Map<string, ArrayLike<number>>;
}

/** One size on an executor: check, then (on the GPU) time; release frees what it made. */
export interface SizeExecution {
  check(): Promise<CheckedSize>;
  /** Undefined on the interpreter, whose timing is the check's. */
  time?(opts: TimingOptions): Promise<TimedSize>;
  /** The run's built-in `baseline` on the kernel's own buffers (a run of one launch, on the GPU). */
  baseline?(run: CheckedRun, kernelMedianMs: number, opts: TimingOptions): Promise<BaselineReport>;
  release(): void;
}

export interface TimingOptions {
  maxReps: number;
  minReps: number;
  /** How long to keep timing and to warm up (runtime/timing.ts's defaults where absent). */
  budgetMs?: number;
  warmupMs?: number;
}

export interface Executor {
  /** The device's limits on grids and buffers; undefined for the interpreter. */
  readonly limits: RunLimits | undefined;
  start(prepared: PreparedSize, ctx: SizeContext): SizeExecution;
  /** One launch on its caller's arrays, in place, every access checked (an out-of-bounds one throws the interpreter's KL3101 at it). */
  launchInPlace(launch: InPlaceLaunch, kept: KeptBuffers): Promise<InPlaceResult>;
}

/** One launch on arrays its caller keeps (a Python script's tensors): a kernel of the script's, checked, or one of Kernel Lab's own as compiled. */
export type InPlaceLaunch = CheckedInPlaceLaunch | OwnKernelLaunch;

interface InPlaceArgs {
  grid: [number, number, number];
  scalars: Record<string, number>;
  /** Pointer parameter → its elements, shared with the caller (read and written in place); `kept`: the storage has a device copy kept between launches. */
  arrays: Map<string, { data: StorageArray; kept?: { storage: number; upload: boolean } }>;
}

export interface CheckedInPlaceLaunch extends InPlaceArgs {
  unchecked?: false;
  /** The program as compiled for the launch's types. */
  program: CompiledKernel;
  /**
   * Its variants, compiled when the executor asks: for the launch's scalars (compile.ts
   * specializationFor), bounds-checked; with `views`, its pointer arguments that share memory
   * compiled as views of one binding (Specialization.views); undefined where none compiles.
   */
  variant: (which: "specialised" | "instrumented", views?: Readonly<Record<string, PointerView>>) => CompiledKernel | undefined;
  /** The kernel's source lines, for the lines a race's or a hazard's message names (KL3104, KL3105). */
  lines?: Lines;
}

/**
 * Kernel Lab's own kernel (torch's ops on GPU tensors, python/lib/torch/_on_gpu.py), its accesses
 * masked by construction and tested: launched on the GPU as compiled, with no bounds-checked
 * variant (one compile a specialisation, one dispatch), as torch's own kernels run. Only its
 * launchable part is at hand (python/own-kernels.ts caches no IR), so the interpreter can't run it.
 */
export interface OwnKernelLaunch extends InPlaceArgs {
  unchecked: true;
  program: LaunchableKernel;
}

/** What one in-place launch printed, the pointer parameters it wrote through (their device copy or their elements changed), its warnings. */
export interface InPlaceResult {
  prints: string[];
  written: string[];
  /** KL3105: a program loaded an element another program of the launch stored (spans the kernel's, lines in the messages `lines`'). */
  warnings: Diagnostic[];
}

/** The device copies an in-place caller keeps between its launches (python/resident.ts), and the copies made. */
export interface KeptBuffers {
  bind(gpu: Gpu, storage: number, data: ArrayBufferView, upload: boolean, label: string): Promise<GPUBuffer>;
  download(gpu: Gpu, storage: number, data: ArrayBufferView): Promise<void>;
  readonly copies: { toGpu: number; toGpuBytes: number; fromGpu: number; fromGpuBytes: number };
}

/** A run's warning, named as its errors are ("Run 'name': …"). */
export function warnRun(ctx: SizeContext, run: string, w: Diagnostic): void {
  ctx.warn?.({ ...w, message: `Run '${run}': ${w.message}` });
}

/** Each pointer argument's element count. */
export function lengthsOf(args: Record<string, unknown>): Map<string, number> {
  const lengths = new Map<string, number>();
  for (const [name, value] of Object.entries(args)) if (typeof value === "object" && value !== null && "length" in value) lengths.set(name, (value as ArrayLike<number>).length);
  return lengths;
}

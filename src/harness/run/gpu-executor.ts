// The GPU runs a prepared size: the run's arrays uploaded once (every launch binds the same
// buffers), the correctness launch checked, outputs and prints read back; then the sequence timed
// on fresh copies (a sequence of one is timed as its launch), and a run's `baseline` on its buffers.
//
// The correctness launch of a run of one launch is its instrumented variant where the device can
// bind it (instrumented-launch.ts: every program checked, who stored what, races); otherwise, and
// for a sequence, the corner programs are interpreted first (corners.ts), those of a launch that
// reads an earlier launch's buffers on what the earlier launches left there.

import type { CompiledKernel } from "../../compile";
import type { PointeeDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import { createStorageBuffer, launch, launchSequence, readBuffer, timeLaunches, type Gpu, type KernelProgram, type LaunchArgs, type LaunchStep } from "../../runtime";
import { gpuPrintBuffer, readGpuPrints, sequencePrints, type PrintedLines } from "../debug/prints";
import type { StoreProvenance } from "../debug/provenance";
import { timeBaseline } from "../timing/baseline";
import { timeSequence } from "../timing/time-sequence";
import { copyArgs, runLimits, type CheckedRun, type KernelArgs } from "./args";
import type { BaselineReport } from "../report";
import { timingCopies } from "./buffers";
import { checkCornersOnCpu } from "./corners";
import { warnRun, type CheckedSize, type Executor, type SizeContext, type SizeExecution, type TimedSize, type TimingOptions } from "./executor";
import { fromStorage, toStorage } from "./gpu-args";
import { fitsDevice, instrumentedLaunch } from "./instrumented-launch";
import { launchInPlaceOnGpu } from "./in-place-launch";
import type { PreparedSize } from "./prepare";
import { raceExplainer } from "./race-explainer";
import { trace } from "../trace";

export function gpuExecutor(gpu: Gpu): Executor {
  return { limits: runLimits(gpu.limits), start: (prepared, ctx) => new GpuSize(gpu, prepared, ctx), launchInPlace: (launch, kept) => launchInPlaceOnGpu(gpu, launch, kept) };
}

class GpuSize implements SizeExecution {
  /** Every buffer made for this size, destroyed by release(). */
  private readonly made: GPUBuffer[] = [];
  /** Per launch, the program launched: specialised for its scalars where that differs (integer scalars equal to 1 compile as constants, as in Triton). */
  private readonly programs: KernelProgram[];
  /** Per launch, the program it is timed with: compiled without tl.devicePrint/tl.deviceAssert. */
  private readonly quiet: KernelProgram[];
  /** The copies of the run's arrays timing rotates over; the first is the checked one. */
  private readonly copies: LaunchStep[][] = [];
  /** Per launch, the WGSL the check launched (its instrumented variant, or the program with its prints). */
  private checkedWgsl: string[] = [];

  constructor(
    private readonly gpu: Gpu,
    private readonly p: PreparedSize,
    private readonly ctx: SizeContext,
  ) {
    const specialized = p.launches.map((l): CompiledKernel => l.specialize?.(l.args) ?? l.program);
    const printing = specialized.map((program) => ({ abi: program.abi, wgsl: program.wgsl }));
    this.quiet = specialized.map((program, i) => program.quiet ?? printing[i]);
    // A tuner's candidate is checked as it is timed: without tl.devicePrint/tl.deviceAssert.
    this.programs = ctx.candidate ? this.quiet : printing;
  }

  async check(): Promise<CheckedSize> {
    const { gpu, p } = this;
    const one = p.launches.length === 1;
    const names = p.launches.map((l) => l.program.name);
    const where = one ? `size ${p.size}, grid [${p.launches[0].grid.join(", ")}]` : `size ${p.size}`;
    this.ctx.progress({ phase: "launch", run: p.run, size: p.size, message: `Launching ${names.join(", ")} (${where})` });
    const first = await this.upload(p.runArgs, "");
    this.copies.push(first);
    const provenance = await this.correctnessLaunch(first);
    trace("launched");
    const printed = sequencePrints(await Promise.all(first.map((step, i) => readLaunchPrints(gpu, names[i], step))));
    const got = await this.outputs(first);
    trace("read back");
    return { got, printed, provenance };
  }

  async time(opts: TimingOptions): Promise<TimedSize> {
    const { gpu, p } = this;
    const names = p.launches.map((l) => l.program.name);
    this.ctx.progress({ phase: "time", run: p.run, size: p.size, message: p.launches.length === 1 ? `Timing ${names[0]}` : `Timing ${p.run}'s ${names.length} launches` });
    const got = await this.timedOutputs();
    for (let c = 1; c < timingCopies(p.runArgs); c++) this.copies.push(await this.upload(copyArgs(p.runArgs), `#${c}`));
    const quiet = this.copies.map((steps) => steps.map((step, i) => ({ ...step, program: this.quiet[i] })));
    const alone = (i: number) => timeLaunches(gpu, this.quiet[i], p.launches[i].grid, quiet.map((steps) => steps[i].args), opts);
    if (p.launches.length === 1) return { timing: await alone(0), ...(got ? { got } : {}) };
    const timing = await timeSequence(gpu, quiet, p.run, opts);
    const launches = [];
    for (let i = 0; i < p.launches.length; i++) launches.push(await alone(i));
    return { timing, launches, ...(got ? { got } : {}) };
  }

  /**
   * Where the programs timed are not the ones the check ran (a run of one launch is checked by its
   * instrumented variant, which reads and writes element by element; a kernel that prints is timed
   * without its prints), they are launched once on fresh copies of the run's arrays and their
   * outputs read back: what the time is of must match too. Undefined where they are the same
   * programs, and for a tuner's candidate (checked as it is timed).
   */
  private async timedOutputs(): Promise<Map<string, ArrayLike<number>> | undefined> {
    const { gpu, p } = this;
    if (this.ctx.candidate || this.quiet.every((program, i) => program.wgsl === this.checkedWgsl[i])) return undefined;
    const fresh = (await this.upload(copyArgs(p.runArgs), "#timed")).map((step, i) => ({ ...step, program: this.quiet[i] }));
    if (fresh.length === 1) await launch(gpu, fresh[0].program, fresh[0].grid, fresh[0].args);
    else await launchSequence(gpu, fresh);
    const got = await this.outputs(fresh);
    trace("timed program launched once and read back");
    return got;
  }

  /** The run's outputs as `steps` left them in their buffers. */
  private async outputs(steps: LaunchStep[]): Promise<Map<string, ArrayLike<number>>> {
    const { gpu, p } = this;
    const got = new Map<string, ArrayLike<number>>();
    for (const o of p.outputs) {
      const dtype = p.dtypes.get(o) as PointeeDtype;
      got.set(o, fromStorage(await readBuffer(gpu, this.bufferOf(steps, o), dtype, (p.runArgs[o] as HostArray).length), dtype));
    }
    return got;
  }

  async baseline(run: CheckedRun, kernelMedianMs: number, opts: TimingOptions): Promise<BaselineReport> {
    this.ctx.progress({ phase: "baseline", run: run.name, size: this.p.size, message: `Timing ${run.baseline}` });
    const argSets = this.copies.map((steps) => steps[0].args);
    return timeBaseline(this.gpu, run, this.p.launches[0].program, argSets, this.p.runArgs, this.p.expected, kernelMedianMs, opts);
  }

  release(): void {
    for (const b of this.made) b.destroy();
  }

  /** The run's arrays as buffers (a run of one launch labels them `kernel.param`, a sequence `run.arg`), and each launch's arguments bound to them. */
  private async upload(values: KernelArgs, suffix: string): Promise<LaunchStep[]> {
    const { gpu, p } = this;
    const one = p.launches.length === 1;
    const prefix = one ? p.launches[0].program.name : p.run;
    const buffers = new Map<string, GPUBuffer>();
    for (const [name, dtype] of p.dtypes) {
      const buffer = await createStorageBuffer(gpu, toStorage(values[name] as HostArray, dtype), `${prefix}.${name}${suffix}`);
      this.made.push(buffer);
      buffers.set(name, buffer);
    }
    return p.launches.map((l, i) => {
      const args: LaunchArgs = { buffers: {}, scalars: {} };
      for (const [param, value] of Object.entries(l.args)) {
        const runArg = l.bound.get(param);
        if (runArg !== undefined) args.buffers[param] = buffers.get(runArg) as GPUBuffer;
        else args.scalars[param] = value as number;
      }
      if (suffix === "") args.debug = gpuPrintBuffer(gpu, this.programs[i].abi.debug, one ? prefix : `${prefix}.${i}`, this.made);
      return { program: this.programs[i], grid: l.grid, args };
    });
  }

  /** The buffer of the run's array `name` in the first launch that binds it. */
  private bufferOf(steps: LaunchStep[], name: string): GPUBuffer {
    const i = this.p.launches.findIndex((l) => [...l.bound.values()].includes(name));
    const param = [...this.p.launches[i].bound].find(([, runArg]) => runArg === name)?.[0] as string;
    return steps[i].args.buffers[param];
  }

  /** The instrumented variant where the device can bind it (it checks every program), else the corner checks and the plain programs. */
  private async correctnessLaunch(steps: LaunchStep[]): Promise<(() => Promise<StoreProvenance>) | undefined> {
    const { gpu, p } = this;
    const only = p.launches.length === 1 ? p.launches[0] : undefined;
    if (this.ctx.candidate) {
      // Its check is the comparison alone (the picked candidate's run then checks every access).
      await (only ? launch(gpu, steps[0].program, steps[0].grid, steps[0].args) : launchSequence(gpu, steps));
      return undefined;
    }
    this.checkedWgsl = steps.map((step) => step.program.wgsl);
    const instrumented = only?.instrumented?.(only.args);
    if (only && instrumented && fitsDevice(gpu, instrumented)) {
      this.checkedWgsl = [instrumented.wgsl];
      const result = await instrumentedLaunch(gpu, instrumented, only.grid, steps[0].args, only.args, this.made, raceExplainer(only, p.dtypes, this.ctx));
      for (const w of result.warnings) warnRun(this.ctx, p.run, w);
      return result.provenance;
    }
    let pending: LaunchStep[] = [];
    const flush = async () => {
      if (pending.length === 0) return;
      // A run of one launch is launched as one; a sequence in one submit.
      if (only) await launch(gpu, pending[0].program, pending[0].grid, pending[0].args);
      else await launchSequence(gpu, pending);
      pending = [];
    };
    for (const [i, step] of steps.entries()) {
      const l = p.launches[i];
      const dtypes = new Map([...l.bound].map(([param, runArg]) => [param, p.dtypes.get(runArg) as PointeeDtype] as const));
      if (!this.readsEarlierLaunch(i)) checkCornersOnCpu(l.program, l.grid, l.args, dtypes);
      else {
        // What it reads there (and the addresses it computes from it) is what the earlier launches leave.
        await flush();
        const args: KernelArgs = { ...l.args };
        for (const [param, dtype] of dtypes) {
          const length = (p.runArgs[l.bound.get(param) as string] as HostArray).length;
          args[param] = fromStorage(await readBuffer(gpu, step.args.buffers[param], dtype, length), dtype) as HostArray;
        }
        checkCornersOnCpu(l.program, l.grid, args, dtypes);
      }
      pending.push(step);
    }
    await flush();
    return undefined;
  }

  /** Whether launch `i` binds a buffer an earlier launch binds. */
  private readsEarlierLaunch(i: number): boolean {
    const earlier = new Set(this.p.launches.slice(0, i).flatMap((l) => [...l.bound.values()]));
    return [...this.p.launches[i].bound.values()].some((runArg) => earlier.has(runArg));
  }
}

/** The records of one launch, when its kernel prints or asserts. */
async function readLaunchPrints(gpu: Gpu, kernel: string, step: LaunchStep): Promise<PrintedLines | undefined> {
  const debug = step.program.abi.debug;
  return debug && step.args.debug ? readGpuPrints(gpu, kernel, debug, step.args.debug) : undefined;
}

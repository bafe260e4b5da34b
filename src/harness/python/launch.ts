// One `kernel[grid](…)` of a Python script, on the main thread: the kernel compiled for the
// launch's argument types and constexprs (kernel-compiler.ts), then run checked — on the GPU the
// instrumented variant (an out-of-bounds lane is KL3101 at the Python line of the access), with
// --cpu the interpreter — on the tensors' own storage: their elements are read from and written
// back into the shared memory the Python thread's tensors live in. Inside do_bench the launch is
// recorded for timing instead (bench.ts).

import { specializationFor, specializationKey, type CompiledKernel } from "../../compile";
import { formatDiagnostic, locate, LineMap, type LocatedDiagnostic } from "../../diagnostics/position";
import { interpret, InterpreterError } from "../../interpreter/interpret";
import type { NumDtype } from "../../ir/ir";
import { checkGrid, createStorageBuffer, launch, readBuffer, type Gpu, type LaunchArgs, type StorageArray } from "../../runtime";
import { checkCornersOnCpu } from "../corners";
import { fitsDevice, instrumentedLaunch } from "../instrumented-launch";
import type { Device } from "../open-device";
import { CpuPrints, gpuPrintBuffer, readGpuPrints } from "../prints";
import { BenchRecorder } from "./bench";
import type { ConstexprValue, KernelArgType, PythonKernelCompiler } from "./kernel-compiler";
import type { LaunchArg, LaunchRequest, Reply, Request, TensorDtype } from "./protocol";
import { MAX_LISTED, type PythonFileReport } from "./report";
import { assertNever } from "../../ir/never";

/** How a torch dtype's elements reach a kernel: int64 as int32 (Kernel Lab's kernels have no 64-bit integers). */
const POINTER_DTYPE: Record<TensorDtype, NumDtype | undefined> = {
  float32: "f32",
  float16: "f16",
  int32: "i32",
  int64: "i32",
  bfloat16: undefined,
  int8: undefined,
  uint8: undefined,
  bool: undefined,
};

export class Launcher {
  readonly diagnostics: LocatedDiagnostic[] = [];
  private readonly programs = new Map<string, CompiledKernel | string>();
  private readonly bench: BenchRecorder;
  private listed = 0;

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly device: Device,
    private readonly report: PythonFileReport,
    private readonly compiler: PythonKernelCompiler,
  ) {
    this.bench = new BenchRecorder(device.gpu);
  }

  async handle(request: Request): Promise<Reply> {
    switch (request.kind) {
      case "launch":
        return this.launch(request);
      case "bench-start":
        this.bench.start();
        return { kind: "ok" };
      case "bench-stop":
        return { kind: "ok", value: await this.bench.stop(request) };
      case "device-properties":
        return { kind: "ok", value: this.deviceProperties() };
      default:
        return assertNever(request);
    }
  }

  private async launch(request: LaunchRequest): Promise<Reply> {
    const types: Record<string, KernelArgType> = {};
    const constexprs: Record<string, ConstexprValue> = { ...request.options };
    for (const arg of request.args) {
      if (arg.kind === "constexpr") {
        constexprs[arg.name] = arg.value;
        continue;
      }
      const typed = this.typeOf(arg, request);
      if ("error" in typed) return { kind: "error", error: "not-implemented", message: typed.error };
      types[arg.name] = typed;
    }
    const compiled = this.compile(request.kernel, types, constexprs, false, {});
    if (typeof compiled === "string") return { kind: "error", error: "compile", message: compiled };
    let grid: [number, number, number];
    try {
      grid = checkGrid(request.kernel, request.grid, this.device.gpu?.limits.maxComputeWorkgroupsPerDimension ?? 2 ** 31 - 1);
    } catch (err) {
      return { kind: "error", error: "runtime", message: `${this.file}:${request.callLine}: ${(err as Error).message}` };
    }
    const scalars = Object.fromEntries(request.args.flatMap((a) => (a.kind === "int" || a.kind === "float" ? [[a.name, a.value]] : a.kind === "bool" ? [[a.name, a.value ? 1 : 0]] : [])));
    const tensors = new Map(request.args.flatMap((a) => (a.kind === "tensor" ? [[a.name, a.data] as const] : [])));
    if (request.record && this.device.gpu) {
      const specialised = this.compile(request.kernel, types, constexprs, false, scalars);
      await this.bench.record(this.device.gpu, typeof specialised === "string" ? compiled : specialised, grid, tensors, scalars);
      return { kind: "ok" };
    }
    const started = performance.now();
    try {
      const printed = this.device.gpu
        ? await this.onGpu(this.device.gpu, request, compiled, types, constexprs, grid, tensors, scalars)
        : this.onCpu(compiled, grid, tensors, scalars);
      this.list(request, grid, compiled, performance.now() - started);
      return { kind: "ok", value: { prints: printed } };
    } catch (err) {
      if (err instanceof InterpreterError) {
        const at = new LineMap(this.text).at(err.span.start);
        const message = `${this.file}:${at.line}:${at.column}: ${err.code}: ${err.message}`;
        return { kind: "error", error: err.kind === "out-of-bounds" ? "out-of-bounds" : err.kind === "assertion" ? "assert" : "runtime", message };
      }
      throw err;
    }
  }

  /** A parameter's type for the compiler, or why the argument can't be passed. */
  private typeOf(arg: Exclude<LaunchArg, { kind: "constexpr" }>, request: LaunchRequest): KernelArgType | { error: string } {
    switch (arg.kind) {
      case "tensor": {
        const dtype = POINTER_DTYPE[arg.dtype];
        return dtype ? { kind: "pointer", dtype } : { error: `${this.file}:${request.callLine}: a torch.${arg.dtype} tensor can't be passed to a Kernel Lab kernel yet (float32, float16, int32 and int64 can)` };
      }
      case "int":
        return { kind: "scalar", dtype: "i32" };
      case "float":
        return { kind: "scalar", dtype: "f32" };
      case "bool":
        return { kind: "scalar", dtype: "i32" };
      case "none":
        return { error: `${this.file}:${request.callLine}: argument '${arg.name}' of ${request.kernel} is None; Kernel Lab passes None only to a tl.constexpr parameter` };
      default:
        return assertNever(arg);
    }
  }

  /** The program, or the message of its compile errors (each diagnostic also goes into the report once). */
  private compile(kernel: string, types: Record<string, KernelArgType>, constexprs: Record<string, ConstexprValue>, instrument: boolean, scalars: Record<string, unknown>): CompiledKernel | string {
    const target = instrument ? { ...this.device.target, instrument: true } : this.device.target;
    const probe = this.compiler.compile.bind(this.compiler);
    // The specialisation (unit strides, multiples of 16) needs the kernel's parameters: from a plain compile first.
    const plainKey = `${kernel}:${JSON.stringify(types)}:${JSON.stringify(constexprs)}`;
    let plain = this.programs.get(plainKey);
    if (plain === undefined) {
      const result = probe(kernel, types, constexprs, this.device.target);
      const located = locate(this.file, this.text, result.diagnostics);
      const errors = located.filter((d) => d.severity === "error");
      for (const d of located) if (!this.diagnostics.some((s) => formatDiagnostic(s) === formatDiagnostic(d))) this.diagnostics.push(d);
      plain = result.kernel && errors.length === 0 ? result.kernel : errors.map((d) => formatDiagnostic(d, this.text)).join("\n") || `${kernel} did not compile`;
      this.programs.set(plainKey, plain);
    }
    if (typeof plain === "string" || (!instrument && Object.keys(scalars).length === 0)) return plain;
    const specialization = specializationFor({ params: plain.params } as Parameters<typeof specializationFor>[0], scalars);
    const key = `${plainKey}${instrument ? ":instrumented" : ""}${specializationKey(specialization)}`;
    const known = this.programs.get(key);
    if (known !== undefined) return known;
    const result = probe(kernel, types, constexprs, target, specialization);
    const program = result.kernel ?? plain;
    this.programs.set(key, program);
    return program;
  }

  private onCpu(program: CompiledKernel, grid: [number, number, number], tensors: Map<string, StorageArray | Uint8Array | Int8Array>, scalars: Record<string, number>): string[] {
    const prints = new CpuPrints(program);
    const args: Record<string, StorageArray | number> = { ...scalars };
    for (const [name, data] of tensors) args[name] = data as StorageArray;
    interpret(program.ir, grid, args, { onDebugRecord: prints.onDebugRecord });
    return prints.lines()?.lines ?? [];
  }

  private async onGpu(
    gpu: Gpu,
    request: LaunchRequest,
    program: CompiledKernel,
    types: Record<string, KernelArgType>,
    constexprs: Record<string, ConstexprValue>,
    grid: [number, number, number],
    tensors: Map<string, StorageArray | Uint8Array | Int8Array>,
    scalars: Record<string, number>,
  ): Promise<string[]> {
    const made: GPUBuffer[] = [];
    try {
      const set: LaunchArgs = { buffers: {}, scalars };
      const hostArgs: Record<string, StorageArray | number> = { ...scalars };
      for (const [name, data] of tensors) {
        // Dawn copies from a plain array buffer; the tensor's memory is shared with the Python thread.
        const copy = (data as StorageArray).slice() as StorageArray;
        hostArgs[name] = copy;
        const buffer = await createStorageBuffer(gpu, copy, `${request.kernel}.${name}`);
        made.push(buffer);
        set.buffers[name] = buffer;
      }
      const instrumented = this.compile(request.kernel, types, constexprs, true, scalars);
      const specialised = this.compile(request.kernel, types, constexprs, false, scalars);
      const plain = typeof specialised === "string" ? program : specialised;
      const shown = typeof instrumented !== "string" && fitsDevice(gpu, instrumented) ? instrumented : plain;
      set.debug = gpuPrintBuffer(gpu, shown.abi.debug, request.kernel, made);
      if (typeof instrumented !== "string" && fitsDevice(gpu, instrumented)) {
        await instrumentedLaunch(gpu, instrumented, grid, set, hostArgs as never, made);
      } else {
        const dtypes = new Map(Object.entries(types).flatMap(([k, t]) => (t.kind === "pointer" ? [[k, t.dtype] as const] : [])));
        checkCornersOnCpu(program, grid, hostArgs as never, dtypes);
        await launch(gpu, plain, grid, set);
      }
      const printed = set.debug && shown.abi.debug ? await readGpuPrints(gpu, request.kernel, shown.abi.debug, set.debug) : undefined;
      for (const [name, data] of tensors) {
        const t = types[name];
        if (t.kind !== "pointer") continue;
        data.set(await readBuffer(gpu, set.buffers[name], t.dtype, data.length) as never);
      }
      return printed?.lines ?? [];
    } finally {
      for (const b of made) b.destroy();
    }
  }

  private list(request: LaunchRequest, grid: [number, number, number], program: CompiledKernel, ms: number): void {
    if (this.listed++ >= MAX_LISTED) {
      this.report.launchesNotListed = (this.report.launchesNotListed ?? 0) + 1;
      return;
    }
    const constexprs = Object.fromEntries(request.args.flatMap((a) => (a.kind === "constexpr" ? [[a.name, a.value]] : [])));
    this.report.launches.push({ kernel: program.name, line: request.callLine, grid, constexprs: { ...constexprs, ...request.options }, ms });
  }

  private deviceProperties(): Record<string, number | string> {
    const gpu = this.device.gpu;
    return {
      // WebGPU tells neither; stand-ins documented in the README (Triton in Python).
      multiprocessor_count: 1,
      max_shared_mem: this.device.target.maxWorkgroupStorageBytes,
      max_num_regs: 65536,
      warpSize: 32,
      name: this.device.adapter.description || this.device.adapter.device,
    };
  }
}

// One `kernel[grid](…)` of a Python script, on the main thread: the kernel compiled for the
// launch's argument types and constexprs (kernel-compiler.ts), then run checked — on the GPU the
// instrumented variant (an out-of-bounds lane is KL3101 at the Python line of the access), with
// --cpu the interpreter: the device's Executor either way (run/executor.ts `launchInPlace`) — on
// the tensors' own storage: a GPU tensor's resident buffer (resident.ts), any other tensor's CPU
// copy, the shared memory the Python thread's tensors live in. Inside do_bench the launch is
// recorded for timing instead (bench.ts). Kernel Lab's own kernels (torch's ops on GPU tensors)
// launch as compiled, from own-kernels.ts's cache of their compiled code.

import { specializationFor, specializationKey, type CompiledKernel, type LaunchableKernel } from "../../compile";
import { formatDiagnostic, locate, LineMap, type LocatedDiagnostic } from "../../diagnostics/position";
import { InterpreterError } from "../../interpreter/interpret";
import type { PointeeDtype, PointerView } from "../../ir/ir";
import { assertNever } from "../../ir/never";
import { checkGrid, type Gpu, type StorageArray } from "../../runtime";
import type { InPlaceLaunch } from "../run/executor";
import { SharedViewsRefused } from "../run/shared-views";
import { RunCodes } from "../codes";
import { Codes } from "../../diagnostics/codes";
import type { Lines } from "../debug/races";
import { ownKernels, type OwnModule } from "./own-kernels";
import type { Device } from "../run/open-device";
import { BenchRecorder } from "./bench";
import { noCopies, ResidentBuffers } from "./resident";
import type { BoundArgs, Program } from "./program";
import { compilerFor, type ConstexprValue, type KernelArgType, type PythonKernelCompiler } from "./kernel-compiler";
import { pythonText } from "../../python";
import { descriptorScalars } from "../../python/descriptors";
import type { LaunchArg, LaunchRequest, Reply, Request, TensorDtype, TensorStorage } from "./protocol";
import { MAX_LISTED, type PythonFileReport } from "./report";
import { knobsKey, type KnobSetting } from "../../ir/knobs";
import type { CodegenOptions } from "../../ir/target";
import { tuneLaunch, type TuneAccess } from "./autotune";
import { callThatRan, LaunchWarnings, scriptCall } from "./launch-warnings";
import { autotuneResults } from "./autotune-results";

/** How a torch dtype's elements reach a kernel: int64 as int32 (Kernel Lab's kernels have no 64-bit integers), 8-bit ones as bytes. */
const POINTER_DTYPE: Record<TensorDtype, PointeeDtype | undefined> = {
  float32: "f32",
  float16: "f16",
  int32: "i32",
  int64: "i32",
  bfloat16: "bf16",
  int8: "i8",
  uint8: "u8",
  uint32: "u32",
  bool: "bool",
  float8_e4m3fn: "f8e4m3",
  float8_e5m2: "f8e5m2",
};

/**
 * A module beside the script, read for Python's import: its file as shown, its text, whether it is
 * a package's __init__.py; or a namespace package (a folder without __init__.py, as CPython 3
 * imports one: `file` the folder, no text).
 */
/**
 * A module beside the script as the main thread read it. A package's `data`: the files beside its modules that
 * aren't Python (its folder's and its sub-folders' that hold no .py file: gemlite's configs/*.json, which its
 * core.py lists with os.listdir at import), by their paths relative to the package's folder; each file's text is
 * asked for on its own (`{ text }`: a reply holds 1 MiB at most, gemlite's configs are 4.5 MB).
 */
export type ModuleSource = { file: string; text: string; package: boolean; data?: string[] } | { file: string; namespace: true } | { text: string };

/** A file kernels are compiled from: the script, or a module (beside it, or Kernel Lab's torch's). */
interface KernelFile {
  file: string;
  text: string;
  /** A module's jitLines as sent (JSON), which its compiler read it with. */
  bound?: string;
  lines: LineMap;
  compiler: PythonKernelCompiler;
  /** A module's programs, per target, kept for the process (the script's are the run's own). */
  programs?: WeakMap<object, Map<string, Program | string>>;
}

/**
 * The modules kernels are compiled from other than the script (beside it; Kernel Lab's torch's only
 * under --cpu, where the interpreter needs the IR, which own-kernels.ts does not keep), parsed and
 * compiled once per process, text and target.
 */
const moduleFiles = new Map<string, KernelFile>();

/** A launch of one of Kernel Lab's torch's own kernels (a torch op on GPU tensors), not of the script's or a module's beside it. */
function torchOp(request: LaunchRequest): boolean {
  return request.module !== undefined && !request.module.user;
}

export class Launcher {
  readonly diagnostics: LocatedDiagnostic[] = [];
  private readonly programs = new Map<string, Program | string>();
  /** Compile failures (their messages) that were only for want of workgroup memory: Triton's OutOfResources. */
  private readonly outOfResources = new Set<string>();
  private readonly bench: BenchRecorder;
  /** Bytes copied between the CPU and the GPU in this run (the report's gpuCopies). */
  readonly copies = noCopies();
  private readonly resident = new ResidentBuffers(this.copies);
  private readonly script: KernelFile;
  private readonly modules = new Map<string, KernelFile>();
  private listed = 0;
  private readonly warnings = new LaunchWarnings(this.diagnostics);

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly device: Device,
    private readonly report: PythonFileReport,
    private readonly compiler: PythonKernelCompiler,
    /** Reads a module beside the script, or in `root`, a folder the script put on sys.path (`pkg.mod` → pkg/mod.py or pkg/mod/__init__.py); absent where nothing can (a browser). */
    private readonly readModule?: (module: string, data?: string, root?: string) => Promise<ModuleSource | null>,
    /** `--tune-codegen` and `--retune` for @triton.autotune (autotune.ts), and the code generator's options every kernel is compiled with (tests: matrices emulated). */
    private readonly tuning: { tuneCodegen: boolean; retune: boolean; codegen: CodegenOptions } = { tuneCodegen: false, retune: false, codegen: {} },
  ) {
    this.bench = new BenchRecorder(device.gpu, this.resident, this.copies);
    this.script = { file, text, lines: new LineMap(text), compiler };
  }

  /** Python let go of a storage: its GPU buffer goes. */
  free(storage: number): void {
    this.resident.free(storage);
  }

  /** The run ended: the GPU buffers its tensors lived in go, and torch's kernels compiled in it are kept for the next process. */
  dispose(): void {
    this.resident.release();
    ownKernels().save();
  }

  /** The file a launch's kernel compiles from, with the modules and run-time names its request brings (sent once a kernel, with its first request). */
  private sourceOf(request: LaunchRequest): KernelFile {
    const source = this.kernelFile(request);
    if (request.imports) source.compiler.addModules(request.imports);
    if (request.mathNames) source.compiler.addMathNames(request.mathNames);
    return source;
  }

  private kernelFile(request: LaunchRequest): KernelFile {
    const module = request.module;
    if (!module) return this.script;
    // One file may send several texts: each kernel defined inside a function is its own (lib/triton/_jit.py `_in_place`).
    const key = `${module.file}\n${module.text}`;
    let known = this.modules.get(key);
    if (!known) {
      known = moduleFiles.get(module.file);
      const bound = JSON.stringify(module.jitLines ?? null);
      if (known?.text !== module.text || known.bound !== bound) {
        known = { file: module.file, text: module.text, bound, lines: new LineMap(module.text), compiler: compilerFor(module.file, module.text, module.name, module.jitLines), programs: new WeakMap() };
        moduleFiles.set(module.file, known);
      }
      this.modules.set(key, known);
    }
    return known;
  }

  async handle(request: Request): Promise<Reply> {
    switch (request.kind) {
      case "launch":
        return this.launch(request);
      case "autotune":
        if (!this.tuning.tuneCodegen || !this.device.gpu) {
          // Untuned here, but the kernel's first request (its configs') is the one that carries its modules (lib/triton/_jit.py sends them once).
          for (const config of request.configs) this.sourceOf(config);
          return { kind: "ok", value: null };
        }
        return { kind: "ok", value: request.hooks ? "hooks" : await tuneLaunch(request, this.tuneAccess(this.device.gpu)) };
      case "autotune-results":
        return { kind: "ok", value: this.device.gpu ? autotuneResults(request, { adapter: this.device.adapter, scriptText: this.text, retune: this.tuning.retune }) : null };
      case "bench-start":
        this.bench.start();
        return { kind: "ok" };
      case "bench-stop":
        return { kind: "ok", value: await this.bench.stop(request) };
      case "device-properties":
        return { kind: "ok", value: this.deviceProperties() };
      case "module-source":
        return { kind: "ok", value: this.readModule ? await this.readModule(request.module, request.data, request.root) : null };
      case "download":
        if (!this.device.gpu) return { kind: "error", error: "runtime", message: "Kernel Lab has no GPU in this run to read a tensor back from" };
        await this.resident.download(this.device.gpu, request.storage, request.data);
        return { kind: "ok" };
      default:
        return assertNever(request);
    }
  }

  private async launch(request: LaunchRequest): Promise<Reply> {
    const bound = bindLaunch(this.file, request, this.compiler.paramName);
    if ("error" in bound) return { kind: "error", error: "not-implemented", message: bound.error };
    const gpu = this.device.gpu;
    if (request.module && torchOp(request) && gpu) return this.launchOwn(request, request.module, bound, gpu);
    const source = this.sourceOf(request);
    const program = this.compile(source, request.kernel, bound, "plain", request.codegen, undefined, request.probe);
    if (typeof program === "string") return { kind: "error", error: this.outOfResources.has(program) ? "out-of-resources" : "compile", message: program };
    if (request.warmup) return warmedUp(program.kernel);
    const grid = this.grid(request);
    if (!Array.isArray(grid)) return grid;
    if (request.record && gpu) {
      const specialised = this.compile(source, request.kernel, bound, "specialised", request.codegen);
      return this.record(gpu, typeof specialised === "string" ? program.kernel : specialised.kernel, grid, bound);
    }
    const started = performance.now();
    try {
      const variant = (which: "specialised" | "instrumented", views?: Readonly<Record<string, PointerView>>) => {
        const compiled = this.compile(source, request.kernel, bound, which, request.codegen, views);
        return typeof compiled === "string" ? undefined : compiled.kernel;
      };
      const launched = await this.device.executor.launchInPlace({ program: program.kernel, variant, grid, scalars: bound.scalars, arrays: arraysOf(bound), lines: pythonLines(source.lines, program) }, this.resident);
      // torch's own ops (a kernel of Kernel Lab's torch module, here under --cpu) are the script's torch calls, not launches of its kernels.
      if (!torchOp(request)) this.list(request, grid, program.kernel, performance.now() - started);
      this.warnings.add(source.file, source.text, program, launched.warnings);
      // Triton's launch gives back the compiled kernel (applied-ai's qlinear prints `k.n_regs`, `k.shared`): its stand-in counts, as warmup's.
      return { kind: "ok", value: { prints: launched.prints, written: launched.written.map((name) => bound.tensors.get(name)!.python), ...compiledCounts(program.kernel) } };
    } catch (err) {
      if (err instanceof SharedViewsRefused) return { kind: "error", error: "runtime", message: `${this.file}:${request.callLine}: ${RunCodes.sharedMemoryDtypes}: ${err.message}` };
      if (err instanceof InterpreterError) {
        // Inside another module's @triton.jit function: at its own line, with the kernel's call that leads there.
        // Inside a helper of the script: at the helper's line, with the call that inlined it.
        const call = source.lines.at(callThatRan(program, err.span).start);
        const origin = program.origin?.(err.span);
        const caller = origin ? undefined : scriptCall(program, err.span);
        const from = caller && source.lines.at(caller.start);
        const message = origin
          ? `${origin.file}:${origin.line}:${origin.column}: ${err.code}: ${err.message} (called at ${source.file}:${call.line}:${call.column})`
          : `${source.file}:${call.line}:${call.column}: ${err.code}: ${err.message}${from ? ` (called at ${source.file}:${from.line}:${from.column})` : ""}`;
        return { kind: "error", error: err.kind === "out-of-bounds" ? "out-of-bounds" : err.kind === "assertion" ? "assert" : "runtime", message };
      }
      throw err;
    }
  }

  /**
   * A kernel of Kernel Lab's own (torch's ops) on the GPU: launched as compiled, from the process's
   * and the cache folder's compiled kernels (own-kernels.ts), so a warm start parses and compiles none.
   */
  private async launchOwn(request: LaunchRequest, module: OwnModule, bound: BoundArgs, gpu: Gpu): Promise<Reply> {
    const kernel = ownKernels().kernel(module, request.kernel, bound.types, bound.constexprs, this.device.target, { ...this.tuning.codegen, ...request.codegen });
    if (typeof kernel === "string") return { kind: "error", error: "compile", message: kernel };
    if (request.warmup) return warmedUp(kernel);
    const grid = this.grid(request);
    if (!Array.isArray(grid)) return grid;
    // Recorded as compiled too: its scalars (sizes, strides) change from call to call.
    if (request.record) return this.record(gpu, kernel, grid, bound);
    const launched = await this.device.executor.launchInPlace({ program: kernel, unchecked: true, grid, scalars: bound.scalars, arrays: arraysOf(bound) }, this.resident);
    return { kind: "ok", value: { prints: launched.prints, written: launched.written.map((name) => bound.tensors.get(name)!.python) } };
  }

  /** The launch's grid checked against the device's limits, or the error reply. */
  private grid(request: LaunchRequest): [number, number, number] | Reply {
    try {
      return checkGrid(request.kernel, request.grid, this.device.gpu?.limits.maxComputeWorkgroupsPerDimension ?? 2 ** 31 - 1);
    } catch (err) {
      return { kind: "error", error: "runtime", message: `${this.file}:${request.callLine}: ${(err as Error).message}` };
    }
  }

  /** Inside do_bench: the launch recorded for timing (bench.ts), the tensors it writes named. */
  private async record(gpu: Gpu, kernel: LaunchableKernel, grid: [number, number, number], bound: BoundArgs): Promise<Reply> {
    await this.bench.record(gpu, kernel, grid, bound.tensors, bound.scalars);
    // The timed launches write the resident buffers, as Triton's do; the copies are left as they were.
    const stored = new Set(kernel.abi.buffers.filter((b) => b.access === "read_write").map((b) => b.name));
    return { kind: "ok", value: { written: [...bound.tensors].filter(([name, arg]) => arg.storage !== undefined && stored.has(name)).map(([, arg]) => arg.python) } };
  }

  /**
   * The program for a launch: "plain" as compiled for its types and constexprs, "specialised" for
   * its scalars too (unit strides, multiples of 16: compile.ts specializationFor), "instrumented"
   * the bounds-checked variant, specialised likewise; `codegen`: the knobs @triton.autotune picked
   * with --tune-codegen (none: the defaults); `views`: pointer arguments sharing memory, compiled
   * as views of one binding (Specialization.views; keyed as the other specialisations are, so a
   * launch of distinct tensors compiles as before). A string: the compile errors, formatted (each
   * diagnostic also goes into the report once).
   */
  /**
   * `probe`: the autotuner trying whether a config fits (LaunchRequest.probe): where it doesn't, only
   * for want of workgroup memory, its diagnostics aren't the run's, as Triton's autotuner drops such
   * a config without a word.
   */
  private compile(source: KernelFile, kernel: string, bound: BoundArgs, variant: "plain" | "specialised" | "instrumented", codegen?: KnobSetting, views?: Readonly<Record<string, PointerView>>, probe = false): Program | string {
    const plainKey = `${source.file}:${kernel}:${JSON.stringify(bound.types)}:${JSON.stringify(bound.constexprs)}${knobsKey(codegen)}`;
    const options: CodegenOptions = { ...this.tuning.codegen, ...codegen };
    const programs = this.programsOf(source);
    let plain = programs.get(plainKey);
    if (plain === undefined) {
      const result = source.compiler.compile(kernel, bound.types, bound.constexprs, this.device.target, {}, options);
      const located = locate(source.file, source.text, result.diagnostics);
      const errors = located.filter((d) => d.severity === "error");
      // Triton's OutOfResources: the kernel is right but its blocks don't fit the adapter's workgroup memory.
      const outOfResources = errors.length > 0 && errors.every((d) => d.code === Codes.workgroupMemory);
      if (!(probe && outOfResources)) for (const d of located) if (!this.diagnostics.some((s) => formatDiagnostic(s) === formatDiagnostic(d))) this.diagnostics.push(d);
      plain = result.kernel && errors.length === 0
        ? { kernel: result.kernel, toPython: result.toPython, ...(result.origin ? { origin: result.origin } : {}), ...(result.source ? { source: result.source } : {}) }
        : errors.map((d) => formatDiagnostic(d, source.text, source.file)).join("\n") || `${kernel} did not compile`;
      if (typeof plain === "string" && outOfResources) this.outOfResources.add(plain);
      programs.set(plainKey, plain);
    }
    if (typeof plain === "string" || variant === "plain" || !plain.source) return plain;
    const specialization = { ...specializationFor(plain.source, bound.scalars), ...(views ? { views } : {}) };
    const which = specializationKey(specialization);
    if (variant === "specialised" && !which) return plain;
    const key = `${plainKey}:${variant}${which}`;
    const known = programs.get(key);
    if (known !== undefined) return known;
    const result = source.compiler.compile(kernel, bound.types, bound.constexprs, this.device.target, specialization, variant === "instrumented" ? { ...options, instrument: true } : options);
    const program: Program | string = result.kernel ? { kernel: result.kernel, toPython: result.toPython, ...(result.origin ? { origin: result.origin } : {}) } : plain;
    programs.set(key, program);
    return program;
  }

  /** What the autotuner needs of this run (autotune.ts): its compiles, its resident buffers, its report. */
  private tuneAccess(gpu: NonNullable<Device["gpu"]>): TuneAccess {
    return {
      gpu,
      executor: this.device.executor,
      adapter: this.device.adapter,
      target: this.device.target,
      codegen: this.tuning.codegen,
      retune: this.tuning.retune,
      bench: this.report.bench.mode,
      scriptText: this.text,
      resident: this.resident,
      report: this.report,
      bind: (request) => bindLaunch(this.file, request, this.compiler.paramName),
      compile: (request, bound, variant, codegen) => this.compile(this.sourceOf(request), request.kernel, bound, variant, codegen),
    };
  }

  private programsOf(source: KernelFile): Map<string, Program | string> {
    if (!source.programs) return this.programs;
    let programs = source.programs.get(this.device.target);
    if (!programs) {
      programs = new Map();
      source.programs.set(this.device.target, programs);
    }
    return programs;
  }

  private list(request: LaunchRequest, grid: [number, number, number], program: CompiledKernel, ms: number): void {
    if (this.listed++ >= MAX_LISTED) {
      this.report.launchesNotListed = (this.report.launchesNotListed ?? 0) + 1;
      return;
    }
    // A dtype constexpr is listed as Python writes it (`tl.float32`).
    const constexprs = Object.fromEntries(request.args.flatMap((a) => (a.kind === "constexpr" ? [[a.name, typeof a.value === "object" && a.value !== null ? pythonText(a.value) : a.value]] : [])));
    this.report.launches.push({ kernel: request.kernel, grid, constexprs: { ...constexprs, ...request.options }, ms: Math.round(ms * 1000) / 1000, line: request.callLine });
    void program;
  }

  /** triton's get_device_properties: what WebGPU tells, and the README's stand-ins for what it doesn't. */
  private deviceProperties(): Record<string, number | string> {
    return {
      multiprocessor_count: 8,
      max_shared_mem: this.device.target.maxWorkgroupStorageBytes,
      max_num_regs: 65536,
      warpSize: 32,
      max_threads_per_sm: 2048,
      name: this.device.adapter.description || this.device.adapter.device,
    };
  }
}

/** What `kernel.warmup(…)` answers: the compiled kernel's name, stand-in counts (README) and WGSL. */
function warmedUp(kernel: LaunchableKernel): Reply {
  return { kind: "ok", value: { ...compiledCounts(kernel), wgsl: kernel.wgsl } };
}

/** The compiled kernel's name and stand-in counts (README), as a launch and warmup give them back. */
function compiledCounts(kernel: LaunchableKernel): { name: string; n_regs: number; shared: number } {
  return { name: kernel.name, n_regs: 32, shared: Math.max(kernel.abi.workgroupBytes, 1) };
}

/** The launch's tensors as the executor takes them: their storage, and its kept device copy where the tensor is on the GPU. */
function arraysOf(bound: BoundArgs): InPlaceLaunch["arrays"] {
  return new Map([...bound.tensors].map(([name, arg]) => [name, { data: arg.data as StorageArray, ...(arg.storage !== undefined ? { kept: { storage: arg.storage, upload: arg.upload ?? true } } : {}) }] as const));
}

/** A launch's arguments under the compiled kernel's parameter names (`paramName`), or why one can't be passed. */
export function bindLaunch(file: string, request: LaunchRequest, paramName: (name: string) => string): BoundArgs | { error: string } {
  const bound: BoundArgs = { types: {}, constexprs: { ...request.options }, tensors: new Map(), scalars: {} };
  for (const arg of request.args) {
    if (arg.kind === "constexpr") {
      // A constexpr passed None (attorch's act_func=None) crosses from Pyodide as undefined: it is None, not missing.
      bound.constexprs[arg.name] = arg.value === undefined ? null : arg.value;
      continue;
    }
    const typed = argType(file, arg, request);
    if ("error" in typed) return typed;
    bound.types[arg.name] = typed;
    const name = paramName(arg.name);
    if (arg.kind === "tensor") bound.tensors.set(name, { python: arg.name, data: arg.data, ...(arg.storage !== undefined ? { storage: arg.storage, upload: arg.upload ?? true } : {}) });
    if (arg.kind === "tensor" && arg.descriptor) {
      // A TensorDescriptor: its extents and leading strides are scalar parameters of their own.
      const { shape, strides } = descriptorScalars(name, arg.descriptor.shape.length);
      shape.forEach((p, i) => (bound.scalars[p] = arg.descriptor!.shape[i]));
      strides.forEach((p, i) => (bound.scalars[p] = arg.descriptor!.strides[i]));
    }
    else if ((arg.kind === "int" && !arg.equalTo1) || arg.kind === "float") bound.scalars[name] = arg.value;
    else if (arg.kind === "bool") bound.scalars[name] = arg.value ? 1 : 0;
  }
  return bound;
}

/** A parameter's type for the compiler, or why the argument can't be passed. */
function argType(file: string, arg: Exclude<LaunchArg, { kind: "constexpr" }>, request: LaunchRequest): KernelArgType | { error: string } {
  switch (arg.kind) {
    case "tensor": {
      const dtype = POINTER_DTYPE[arg.dtype];
      if (!dtype) return { error: `${file}:${request.callLine}: a torch.${arg.dtype} tensor can't be passed to a Kernel Lab kernel yet (float32, float16, bfloat16, int32, int64, int8, uint8, uint32, bool, float8_e4m3fn and float8_e5m2 can)` };
      const d = arg.descriptor;
      return d ? { kind: "descriptor", dtype, blockShape: d.blockShape, padding: d.padding } : { kind: "pointer", dtype };
    }
    case "int":
      return arg.equalTo1 ? { kind: "one" } : { kind: "scalar", dtype: "i32" };
    case "bool":
      return { kind: "scalar", dtype: "i32" };
    case "float":
      return { kind: "scalar", dtype: "f32" };
    case "none":
      return { kind: "none" };
    default:
      return assertNever(arg);
  }
}

/** A race's lines (races.ts) read in the script: its spans are the kernel's translation's. */
function pythonLines(lines: LineMap, program: Program): Lines {
  return { at: (offset) => lines.at(program.toPython({ start: offset, end: offset }).start) };
}

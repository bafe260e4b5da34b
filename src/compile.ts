// The compiler's front door: source text -> kernels -> specialised IR -> WGSL.
// Used by the command line, the harness and the editor; nothing here touches the GPU.

import { distinctDiagnostics, type Diagnostic } from "./diagnostics/diagnostic";
import type { KernelIR, Param } from "./ir/ir";
import type { KernelAbi } from "./codegen/abi";
import type { CodegenOptions, Target } from "./ir/target";
import { parseKernelFile, type KernelSource, type ParsedFile, type RunTimeConstexprs } from "./syntax/parse";
import { lowerKernel, type Specialization } from "./semantics/lower";
import { DIVISIBILITY } from "./semantics/context";
import { generateWgsl } from "./codegen/wgsl";
import { DEFAULT_TARGET } from "./ir/target";
import { Codes } from "./diagnostics/codes";
import { hasDebugOutput, withoutDebugOutput } from "./ir/debug";
import { kernelFacts, type KernelFacts } from "./ir/kernel-facts";

export type { KernelSource, ParsedFile, Specialization };
export { parseKernelFile };
export { halfPrecisionNeeds } from "./syntax/needs";
import { tunableKnobs } from "./codegen/knobs";
import type { KnobChoice } from "./ir/knobs";
export { bindingTypes, type KernelTypes, type BindingType, type TlCall } from "./inspect/binding-types";
export { hoverAt, type KernelHover } from "./inspect/hover-text";

export interface CompiledKernel {
  name: string;
  params: Param[];
  constexprs: Readonly<Record<string, number>>;
  ir: KernelIR;
  wgsl: string;
  abi: KernelAbi;
  /** For a kernel with tl.devicePrint/tl.deviceAssert: the same kernel compiled without them, which is timed. */
  quiet?: { wgsl: string; abi: KernelAbi };
  /** What the harness needs to know of it (loaded parameters, atomic and debug sites), read off the IR once. */
  facts: KernelFacts;
}

/**
 * What a GPU launch of a compiled kernel reads (runtime/launch.ts, the bench): the IR and the facts
 * serve the interpreter and the harness's checks. Kernel Lab's own kernels, launched as compiled,
 * are cached as this (harness/python/own-kernels.ts).
 */
export type LaunchableKernel = Pick<CompiledKernel, "name" | "params" | "wgsl" | "abi" | "quiet">;

export interface CompileResult {
  /** Undefined when there are errors. */
  kernel?: CompiledKernel;
  diagnostics: Diagnostic[];
}

/**
 * `num_warps` among a run's constexprs or configs (unless the kernel has a constexpr of that name)
 * sets the invocations per program instance to 32 × num_warps, as Triton's num_warps sets the
 * threads per program; the autotuner can then pick it like a block size.
 */
export const NUM_WARPS = "num_warps";
/** Likewise `num_stages`: 1 turns off the pipelining of tl.dot's operand loads (CodegenOptions.numStages). */
export const NUM_STAGES = "num_stages";

/**
 * Specialises one kernel of a parsed file for constexpr values and a target, and generates WGSL
 * with these options (a run's num_warps and num_stages among the constexprs set theirs).
 */
export function compileKernel(
  kernel: KernelSource,
  constexprs: Readonly<Record<string, number>>,
  target: Target = DEFAULT_TARGET,
  specialization: Specialization = {},
  options: CodegenOptions = {},
): CompileResult {
  options = withRunOptions(kernel, constexprs, target, options);
  const lowered = lowerKernel(kernel, constexprs, target, specialization);
  if (!lowered.ir) return { diagnostics: distinctDiagnostics(lowered.diagnostics) };
  const generated = generateWgsl(lowered.ir, target, options);
  const diagnostics = distinctDiagnostics([...lowered.diagnostics, ...generated.diagnostics]);
  if (!generated.wgsl || !generated.abi) return { diagnostics };
  return {
    kernel: {
      name: kernel.name,
      params: kernel.params,
      constexprs: lowered.ir.constexprs,
      ir: lowered.ir,
      wgsl: generated.wgsl,
      abi: generated.abi,
      facts: kernelFacts(lowered.ir),
      ...quietVariant(lowered.ir, target, options),
    },
    diagnostics,
  };
}

/** `options` with what a run's num_warps and num_stages among the constexprs set. */
function withRunOptions(kernel: KernelSource, constexprs: Readonly<Record<string, number>>, target: Target, options: CodegenOptions): CodegenOptions {
  const warps = kernel.params.some((p) => p.name === NUM_WARPS) ? undefined : constexprs[NUM_WARPS];
  if (warps !== undefined) options = { ...options, workgroupSize: Math.min(32 * warps, target.maxWorkgroupSize) };
  const stages = kernel.params.some((p) => p.name === NUM_STAGES) ? undefined : constexprs[NUM_STAGES];
  if (stages !== undefined) options = { ...options, numStages: stages };
  return options;
}

/**
 * The code generator's knobs a compiled kernel uses at these constexprs on `target`, each with the
 * values worth trying (codegen/knobs.ts): what the autotuner may cross with a run's configs.
 */
export function kernelKnobs(kernel: KernelSource, constexprs: Readonly<Record<string, number>>, compiled: CompiledKernel, target: Target = DEFAULT_TARGET, options: CodegenOptions = {}): KnobChoice[] {
  return tunableKnobs(compiled.ir, target, withRunOptions(kernel, constexprs, target, options));
}

/** The specialisation a launch with these scalar arguments allows (see Specialization). */
export function specializationFor(kernel: KernelSource, scalars: Readonly<Record<string, unknown>>): Specialization {
  const integers = kernel.params.filter((p) => p.kind === "scalar" && (p.dtype === "i32" || p.dtype === "u32"));
  const ones = integers.filter((p) => scalars[p.name] === 1).map((p) => p.name);
  // Non-negative multiples only: a divisible argument is also known not to be negative, which
  // `offs % n` needs to keep its runs (codegen/contiguity.ts nonNegative); a negative stride loses
  // the specialisation, nothing else.
  const divisible = integers.filter((p) => Number.isInteger(scalars[p.name]) && (scalars[p.name] as number) >= 0 && (scalars[p.name] as number) % DIVISIBILITY === 0).map((p) => p.name);
  return { ...(ones.length > 0 ? { ones } : {}), ...(divisible.length > 0 ? { divisible } : {}) };
}

/** A key for a specialisation: "" for none. */
export function specializationKey(s: Specialization): string {
  const views = Object.entries(s.views ?? {}).map(([param, v]) => `${param}@${v.storage}+${v.offset}`);
  return `${s.ones?.length ? `:ones=${s.ones.join(",")}` : ""}${s.divisible?.length ? `:div16=${s.divisible.join(",")}` : ""}${views.length ? `:views=${views.join(",")}` : ""}`;
}

/**
 * Every diagnostic of a file, without running any of its TypeScript: kernels are specialised
 * with the constexpr values written literally in the file's `defineRun` calls (or a placeholder
 * when there are none). This is what `kernel-lab check` and the editor show.
 *
 * A constexpr whose value only running the file gives (a function of the size, a run made by a
 * function) is checked with `runValues`, the sets the file's runs give for their sizes, where the
 * caller could run the file (`kernel-lab check`); else with two stand-in values, keeping only the
 * diagnostics both give, word for word: what doesn't depend on the value (the editor, as you type).
 */
export function checkFile(fileName: string, text: string, target: Target = DEFAULT_TARGET, runValues?: RunValues): Diagnostic[] {
  const parsed = parseKernelFile(fileName, text);
  // Without an adapter, f16 is taken as available: a run opens the GPU with Dawn's toggles for it
  // and says at run time, offering --cpu, where the adapter truly lacks it (KL2010).
  const checked = target === DEFAULT_TARGET ? NO_ADAPTER_TARGET : target;
  const diagnostics = [...parsed.diagnostics];
  const compile = (kernel: KernelSource, constexprs: Readonly<Record<string, number>>) =>
    compileKernel(kernel, constexprs, checked).diagnostics.map((found) => adapterDependent(found, checked));
  for (const kernel of parsed.kernels) {
    if (!kernel.ok) continue;
    const variants = parsed.literalConstexprs.get(kernel.name) ?? [];
    // A device function no run launches is checked where it is called, with its arguments.
    if (kernel.called && variants.length === 0 && !parsed.launched.has(kernel.name)) continue;
    const runTime = parsed.runTimeConstexprs.get(kernel.name);
    const given = runTime && runValues?.get(kernel.name);
    if (given && given.length > 0) {
      for (const constexprs of distinctSets(given)) diagnostics.push(...compile(kernel, constexprs));
    } else if (runTime) {
      for (const constexprs of variants.length > 0 ? variants : [{}]) {
        const [a, b] = STAND_INS.map((value) => compile(kernel, withStandIns(kernel, constexprs, runTime, value)));
        const inB = new Set(b.map(diagnosticKey));
        diagnostics.push(...a.filter((d) => inB.has(diagnosticKey(d))));
      }
    } else {
      for (const constexprs of variants.length > 0 ? variants : [placeholderConstexprs(kernel)]) diagnostics.push(...compile(kernel, constexprs));
    }
  }
  return distinctDiagnostics(diagnostics);
}

/** Kernel name → the constexpr sets the file's runs give (each size of each run), from running the file. */
export type RunValues = ReadonlyMap<string, readonly Readonly<Record<string, number>>[]>;

/** Two values for a constexpr only the run knows: powers of two (block sizes), different enough that a check on the value tells them apart. */
const STAND_INS = [16, 128] as const;

function withStandIns(kernel: KernelSource, literal: Readonly<Record<string, number>>, runTime: RunTimeConstexprs, value: number): Record<string, number> {
  const filled = { ...literal };
  for (const p of kernel.params) {
    if (p.kind === "constexpr" && !(p.name in filled) && (runTime.unlisted || runTime.names.has(p.name))) filled[p.name] = value;
  }
  return filled;
}

function diagnosticKey(d: Diagnostic): string {
  return `${d.code}:${d.severity}:${d.span.start}:${d.span.end}:${d.message}`;
}

function distinctSets(sets: readonly Readonly<Record<string, number>>[]): Readonly<Record<string, number>>[] {
  return [...new Map(sets.map((c) => [JSON.stringify(Object.entries(c).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))), c])).values()];
}

/** What `check` and the editor compile for: WebGPU's default limits, f16 allowed. */
export const NO_ADAPTER_TARGET: Target = { ...DEFAULT_TARGET, shaderF16: true };

/**
 * Without a GPU, limits are the target's (WebGPU's defaults unless told otherwise): going over
 * them is a warning here, since the adapter a run uses may allow more; `run` decides.
 */
export function adapterDependent(d: Diagnostic, target: Target): Diagnostic {
  if (d.code !== Codes.workgroupMemory || (target !== DEFAULT_TARGET && target !== NO_ADAPTER_TARGET)) return d;
  return { ...d, severity: "warning", message: `${d.message} (checked against WebGPU's default limits; an adapter that allows more runs it)` };
}

function placeholderConstexprs(kernel: KernelSource): Record<string, number> {
  const values: Record<string, number> = {};
  for (const p of kernel.params) if (p.kind === "constexpr") values[p.name] = 16;
  return values;
}

/** The variant of a kernel that prints or asserts compiled without it (timing must not pay for the records). */
function quietVariant(ir: KernelIR, target: Target, options: CodegenOptions): Pick<CompiledKernel, "quiet"> {
  if (!hasDebugOutput(ir.body)) return {};
  const quiet = generateWgsl({ ...ir, body: withoutDebugOutput(ir.body) }, target, options);
  return quiet.wgsl && quiet.abi ? { quiet: { wgsl: quiet.wgsl, abi: quiet.abi } } : {};
}

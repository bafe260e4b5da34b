// A file's kernels compiled for its runs, each kernel and set of constexprs once per process:
// the program a run launches, its variants specialised to the launch's scalars, and the
// autotuner's candidates (whose compile errors are their own, not the file's).

import { compileKernel, specializationFor, specializationKey, kernelKnobs, type CompiledKernel, type KernelSource } from "../../compile";
import { locate, type LocatedDiagnostic } from "../../diagnostics/position";
import type { Target } from "../../ir/target";
import { knobsKey, type KnobChoice, type KnobSetting } from "../../ir/knobs";
import type { Progress } from "../progress";
import { trace } from "../trace";

/** A candidate compiled, or the diagnostics that stopped it. */
export type CandidateProgram = { program: CompiledKernel } | { diagnostics: LocatedDiagnostic[] };

export class KernelPrograms {
  private readonly compiled = new Map<string, CompiledKernel>();
  private readonly candidates = new Map<string, CandidateProgram>();

  constructor(
    private readonly file: string,
    private readonly text: string,
    private readonly target: Target,
    private readonly progress: (p: Progress) => void,
  ) {}

  /** The code generator's knobs a kernel compiled for these constexprs uses on this adapter (the autotuner's `tuneCodegen`). */
  knobsOf(kernel: KernelSource, constexprs: Record<string, number>, program: CompiledKernel): KnobChoice[] {
    return kernelKnobs(kernel, constexprs, program, this.target);
  }

  /** A run's program; the compiler's diagnostics (warnings too) come with its first compile only. */
  forRun(kernel: KernelSource, constexprs: Record<string, number>, run: string): { program?: CompiledKernel; diagnostics: LocatedDiagnostic[] } {
    const key = `${kernel.name}:${constexprsKey(constexprs)}`;
    const known = this.compiled.get(key);
    if (known) return { program: known, diagnostics: [] };
    this.progress({ phase: "compile", run, message: `Compiling ${kernel.name}` });
    const result = compileKernel(kernel, constexprs, this.target);
    trace("compiled");
    const diagnostics = locate(this.file, this.text, result.diagnostics);
    if (!result.kernel || result.diagnostics.some((d) => d.severity === "error")) return { diagnostics };
    this.compiled.set(key, result.kernel);
    return { program: result.kernel, diagnostics };
  }

  /**
   * Specialised variants (compile.ts specializationFor); undefined where the plain program serves.
   * `codegen`: the knobs the autotuner picked or tries (none: the defaults).
   */
  specializer(kernel: KernelSource, constexprs: Record<string, number>, codegen?: KnobSetting): (scalars: Record<string, unknown>) => CompiledKernel | undefined {
    return (scalars) => {
      const specialization = specializationFor(kernel, scalars);
      const which = specializationKey(specialization);
      if (!which) return undefined;
      const key = `${kernel.name}:${constexprsKey(constexprs)}${which}${knobsKey(codegen)}`;
      if (!this.compiled.has(key)) {
        const result = compileKernel(kernel, constexprs, this.target, specialization, codegen);
        if (!result.kernel) return undefined;
        this.compiled.set(key, result.kernel);
      }
      return this.compiled.get(key);
    };
  }

  /** The instrumented variant of a run's program for the correctness launch (CodegenOptions.instrument), specialised as the launch is. */
  instrumented(kernel: KernelSource, constexprs: Record<string, number>, codegen?: KnobSetting): (scalars: Record<string, unknown>) => CompiledKernel | undefined {
    return (scalars) => {
      const specialization = specializationFor(kernel, scalars);
      const key = `${kernel.name}:${constexprsKey(constexprs)}:instrumented${specializationKey(specialization)}${knobsKey(codegen)}`;
      if (!this.compiled.has(key)) {
        const result = compileKernel(kernel, constexprs, this.target, specialization, { ...codegen, instrument: true });
        if (!result.kernel) return undefined;
        this.compiled.set(key, result.kernel);
      }
      return this.compiled.get(key);
    };
  }

  /** A candidate of the autotuner, with the code generator's knobs set as `codegen` says. */
  candidate(kernel: KernelSource, constexprs: Record<string, number>, codegen?: KnobSetting): CandidateProgram {
    const key = `${kernel.name}:${constexprsKey(constexprs)}${knobsKey(codegen)}`;
    let entry = this.candidates.get(key);
    if (!entry) {
      const knobs = codegen ? Object.entries(codegen).map(([k, v]) => `${k}=${String(v)}`) : [];
      this.progress({ phase: "compile", message: `Compiling ${kernel.name} (${[...Object.entries(constexprs).map(([k, v]) => `${k}=${v}`), ...knobs].join(", ")})` });
      const result = compileKernel(kernel, constexprs, this.target, {}, codegen);
      const ok = result.kernel && !result.diagnostics.some((d) => d.severity === "error");
      entry = ok ? { program: result.kernel as CompiledKernel } : { diagnostics: locate(this.file, this.text, result.diagnostics) };
      this.candidates.set(key, entry);
    }
    return entry;
  }
}

/** The same set of constexprs gives the same key, whatever order its names were written in. */
function constexprsKey(constexprs: Readonly<Record<string, number>>): string {
  return JSON.stringify(Object.entries(constexprs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

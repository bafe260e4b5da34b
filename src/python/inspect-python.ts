// What the editor shows of a Python file's kernels — inlay hints, hovers, Show WGSL — from the same
// compile the diagnostics make: each kernel lowered to the TypeScript kernel language with the
// launch's types and constexprs as `check` assumes them (infer.ts), its checker types read off the
// lowered text (inspect/binding-types.ts) and every range moved back onto the Python through the
// lowering's map, so a hint sits after the Python name and a hover covers the Python call.

import type { Span } from "../diagnostics/diagnostic";
import { bindingTypes, hoverAt, NO_ADAPTER_TARGET, type KernelHover, type KernelTypes } from "../compile";
import type { Target } from "../ir/target";
import { compilePythonKernel, type PythonCompileResult } from "./compile-python";
import { assumedArgTypes, assumedConstexprs } from "./infer";
import type { PyConst } from "./literals";
import { readPythonFile, type PythonFile } from "./module";
import { tsName } from "./names";

export interface PythonKernelProgram {
  kernel: string;
  constexprs: Readonly<Record<string, PyConst>>;
  result: PythonCompileResult;
}

/** The file's kernels (not helpers only called by others), compiled as `check` compiles them. */
export function pythonKernelPrograms(file: PythonFile, target: Target = NO_ADAPTER_TARGET): PythonKernelProgram[] {
  const programs: PythonKernelProgram[] = [];
  for (const kernel of file.kernels) {
    if (kernel.called && !file.launches.some((l) => l.kernel === kernel.name)) continue;
    const constexprs = assumedConstexprs(file, kernel)[0] ?? {};
    programs.push({ kernel: kernel.name, constexprs, result: compilePythonKernel(file, kernel.name, assumedArgTypes(file, kernel), constexprs, target) });
  }
  return programs;
}

/**
 * The checker's types of each kernel body, at Python ranges. Constexprs are shown by name
 * (`offsets: i32[BLOCK_SIZE]`), as for a `.kernel.ts` kernel without a literal run. A range the
 * map can't put on the same name in the Python text is left out rather than shown in the wrong place.
 */
export function pythonBindingTypes(fileName: string, text: string): KernelTypes[] {
  const file = readPythonFile(fileName, text);
  if (file.diagnostics.some((d) => d.severity === "error")) return [];
  const found: KernelTypes[] = [];
  for (const program of pythonKernelPrograms(file)) {
    const { typescript, toPython } = program.result;
    if (!typescript) continue;
    const sameName = (span: Span, name: string) => tsName(text.slice(span.start, span.end)) === name;
    for (const typed of bindingTypes(fileName.replace(/\.py$/, ".kernel.ts"), typescript)) {
      if (typed.kernel !== tsName(program.kernel)) continue;
      found.push({
        kernel: program.kernel,
        constexprs: typed.constexprs,
        bindings: typed.bindings.flatMap((b) => {
          const span = toPython(b.span);
          return sameName(span, b.name) ? [{ ...b, span }] : [];
        }),
        expressions: typed.expressions.flatMap((e) => {
          const span = toPython(e.span);
          return e.name === undefined || sameName(span, e.name) ? [{ ...e, span }] : [];
        }),
        calls: typed.calls.map((c) => ({ ...c, span: toPython(c.span), callee: toPython(c.callee) })),
      });
    }
  }
  return found;
}

/** The hover at `offset` of a Python file: a `tl.*` call as written in Python with the shape it gives, or a name's type. */
export function pythonHoverAt(text: string, kernels: readonly KernelTypes[], offset: number): KernelHover | undefined {
  for (const k of kernels) {
    const call = k.calls.find((c) => c.callee.start <= offset && offset <= c.callee.end);
    if (!call) continue;
    const written = text.slice(call.span.start, call.span.end).replace(/\s+/g, " ");
    const shown = written.length <= 100 ? written : `${text.slice(call.callee.start, call.callee.end)}(…)`;
    const args = call.args.filter((a) => !a.literal && a.type !== undefined).map((a) => `${a.text}: ${a.type}`);
    const lines = [`\`${shown}${call.result ? ` → ${call.result}` : ""}\``];
    if (args.length > 0) lines.push(`arguments: ${args.map((a) => `\`${a}\``).join(", ")}`);
    return { span: call.callee, text: lines.join("\n\n") };
  }
  return hoverAt(kernels.map((k) => ({ ...k, calls: [] })), offset);
}

export interface PythonWgsl {
  kernel: string;
  constexprs: Record<string, number>;
  text: string;
}

/** Show WGSL for a Python file: each kernel specialised as `check` assumes (its launch's constexprs), or why it has none. */
export function pythonWgsl(file: PythonFile): { entries: PythonWgsl[]; failed: string[] } {
  if (file.diagnostics.some((d) => d.severity === "error")) return { entries: [], failed: file.kernels.map((k) => k.name) };
  const entries: PythonWgsl[] = [];
  const failed: string[] = [];
  for (const program of pythonKernelPrograms(file)) {
    const compiled = program.result.kernel;
    if (compiled) entries.push({ kernel: program.kernel, constexprs: { ...compiled.constexprs }, text: compiled.wgsl });
    else failed.push(program.kernel);
  }
  return { entries, failed };
}

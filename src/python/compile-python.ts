// The API the Python runtime calls for each launch, and `check` for each kernel of a file:
// specialise one @triton.jit kernel for its arguments' types and constexpr values, through the
// same TypeScript front end, semantics, IR and code generator as a `.kernel.ts` kernel.

import type { Diagnostic, FilePlace, Span } from "../diagnostics/diagnostic";
import { distinctDiagnostics } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { PointeeDtype } from "../ir/ir";
import type { CodegenOptions, Target } from "../ir/target";
import { DEFAULT_TARGET } from "../ir/target";
import { compileKernel, NUM_STAGES, NUM_WARPS, parseKernelFile, type CompiledKernel, type KernelSource, type Specialization } from "../compile";
import type { PyConst } from "./literals";
import { pythonText } from "./literals";
import { lowerFunctions, type FunctionToLower } from "./lower";
import { helpersOf, type PythonFile, type PythonKernel } from "./module";
import { SCALAR_ANNOTATIONS, TRITON_DTYPES, tsName } from "./names";
import { inPythonSpelling } from "./spelling";
import { RAISED } from "./statements";
import type { SourceMap } from "./writer";
import type { DescriptorArg } from "./descriptors";
import { Externals } from "./externals";

/** What a launch passes for a non-constexpr parameter. */
export type PythonArgType =
  | { kind: "pointer"; dtype: PointeeDtype }
  | { kind: "scalar"; dtype: "i32" | "u32" | "f32" }
  /** `None` for a pointer parameter: Triton makes it a constexpr None (`if bias_ptr is not None:`). */
  | { kind: "none" }
  /** An int argument equal to 1: Triton specializes it as the constant 1 (a constexpr here), unless do_not_specialize names it. */
  | { kind: "one" }
  /** A host TensorDescriptor (descriptors.ts): its base pointer's dtype, block shape and padding. */
  | DescriptorArg;

export interface PythonCompileResult {
  /** Undefined when there are errors. */
  kernel?: CompiledKernel;
  /** Every diagnostic, at Python ranges of the file. */
  diagnostics: Diagnostic[];
  /** The TypeScript the kernel was lowered to, and the kernel as the TypeScript front end read it. */
  typescript?: string;
  source?: KernelSource;
  /** Moves a range of `typescript` (an IR span, a run-time error's) onto the Python text (inside another module's function: the call that leads there). */
  toPython: (span: Span) => Span;
  /** Where a range of `typescript` is in another module's file (a cross-module helper's line); undefined in the kernel's own file. */
  origin?: (span: Span) => FilePlace | undefined;
  /** Another module's function's name in `typescript` as Python writes it (`pkg.mod.helper`); undefined for this file's. */
  externalName?: (tsName: string) => string | undefined;
}

/**
 * Why a scalar parameter annotated `dtype` can't take the number given (a float for an integer, as Triton's
 * launcher refuses), or has a dtype Kernel Lab's scalars don't have (int8, int16, float64, …); else undefined.
 */
function annotationProblem(name: string, dtype: string, given: string): { code: Diagnostic["code"]; message: string } | undefined {
  const triton = `tl.${TRITON_DTYPES[dtype] ?? dtype}`;
  if (!SCALAR_ANNOTATIONS.has(dtype)) {
    return { code: Codes.paramAnnotation, message: `'${name}: ${triton}': Kernel Lab's scalar parameters are tl.float32, tl.float16, tl.bfloat16, tl.int32, tl.uint32 and tl.int64; annotate '${name}' with one of those (or pass a tensor)` };
  }
  if (given === "f32" && dtype !== "f32" && dtype !== "f16" && dtype !== "bf16") {
    return { code: Codes.pythonLaunchArgs, message: `'${name}: ${triton}' is an integer parameter but the launch passes a float; pass an int (Triton's launcher refuses a float there too)` };
  }
  return undefined;
}

/**
 * Compiles `kernelName` for one launch: `argTypes` for each non-constexpr parameter, `constexprs`
 * for the `tl.constexpr` ones (and `num_warps` / `num_stages` of an autotune config, as for a
 * `.kernel.ts` run). Booleans become 1 / 0; strings and None are decided while lowering.
 */
export function compilePythonKernel(
  file: PythonFile,
  kernelName: string,
  argTypes: Readonly<Record<string, PythonArgType>>,
  constexprs: Readonly<Record<string, PyConst>>,
  target: Target = DEFAULT_TARGET,
  specialization: Specialization = {},
  options: CodegenOptions = {},
): PythonCompileResult {
  const identity = (s: Span) => s;
  const kernel = file.kernels.find((k) => k.name === kernelName);
  if (!kernel) {
    const names = file.kernels.map((k) => k.name).join(", ") || "none";
    return { diagnostics: [{ code: Codes.pythonKernelMissing, severity: "error", message: `no @triton.jit function named '${kernelName}' in this file (found: ${names})`, span: { start: 0, end: 0 } }], toPython: identity };
  }
  const problems: Diagnostic[] = [];
  const annotations = new Map<string, string>();
  const known = new Map<string, PyConst>();
  const descriptors = new Map<string, DescriptorArg>();
  const numeric: Record<string, number> = {};
  for (const p of kernel.params) {
    if (p.constexpr) {
      const value = p.name in constexprs ? constexprs[p.name] : p.default;
      annotations.set(p.name, "constexpr");
      if (value === undefined) {
        problems.push({ code: Codes.pythonLaunchArgs, severity: "error", message: `the constexpr '${p.name}' has no value: pass it as a keyword at the launch (${p.name}=…) or give it a default`, span: p.span });
        continue;
      }
      known.set(p.name, value);
      numeric[p.name] = typeof value === "number" ? value : value === true ? 1 : 0;
      continue;
    }
    const arg = argTypes[p.name];
    if (!arg) {
      problems.push({ code: Codes.pythonLaunchArgs, severity: "error", message: `the launch passes nothing for '${p.name}'`, span: p.span });
      continue;
    }
    switch (arg.kind) {
      case "pointer":
        annotations.set(p.name, `Ptr<${arg.dtype}>`);
        break;
      case "scalar": {
        // A dtype annotation (`s: tl.bfloat16`, `n: tl.int64`, `x: tl.float16`) makes the number that type, as
        // Triton's jit.py (KernelParam.annotation_type) and its launcher (driver.py pack_*: a bf16 keeps the f32's
        // top 16 bits, ir/bf16.ts; an f16 is rounded to a half, runtime/launch.ts); else the number's own type.
        const problem = p.annotation === undefined ? undefined : annotationProblem(p.name, p.annotation, arg.dtype);
        if (problem) problems.push({ code: problem.code, severity: "error", message: problem.message, span: p.span });
        annotations.set(p.name, p.annotation !== undefined && SCALAR_ANNOTATIONS.has(p.annotation) ? p.annotation : arg.dtype);
        break;
      }
      case "none":
        annotations.set(p.name, "constexpr");
        known.set(p.name, null);
        numeric[p.name] = 0;
        break;
      case "one":
        annotations.set(p.name, "constexpr");
        known.set(p.name, 1);
        numeric[p.name] = 1;
        break;
      case "descriptor":
        annotations.set(p.name, `Ptr<${arg.dtype}>`);
        descriptors.set(p.name, arg);
        break;
    }
  }
  for (const name of [NUM_WARPS, NUM_STAGES]) {
    const v = constexprs[name];
    if (typeof v === "number" && !kernel.params.some((p) => p.name === name)) numeric[name] = v;
  }
  if (problems.length > 0) return { diagnostics: problems, toPython: identity };
  const functions: FunctionToLower[] = [{ kernel, annotations, known, descriptors }];
  for (const helper of helpersThroughAliases(file, kernel)) {
    // Helpers stay generic: Triton passes blocks to their constexpr parameters too (tutorial 06's offs_m).
    functions.push({ kernel: helper, annotations: new Map(), known: new Map() });
  }
  const lowered = lowerFunctions(file, functions);
  // A range inside another module's function is the call in this file that led there (externals.ts).
  const toPython = (span: Span) => lowered.externals.toMain(lowered.map.toPython(span));
  const origin = (span: Span) => lowered.externals.origin(lowered.map.toPython(span));
  const externalName = (name: string) => lowered.externals.pythonName(name);
  const parsed = parseKernelFile(file.fileName.replace(/\.py$/, ".kernel.ts"), lowered.typescript);
  const source = parsed.kernels.find((k) => k.name === tsName(kernel.name));
  const mapped = (ds: readonly Diagnostic[]) =>
    ds.map((d) => {
      const relocated = lowered.externals.relocate(mapDiagnostic(d, lowered.map));
      return raised(relocated.origin ? relocated : mathAsWritten(relocated, file.text));
    });
  // A construct outside the language is the one mistake to report: what follows from it is noise.
  if (lowered.diagnostics.some((d) => d.severity === "error")) return { diagnostics: distinctDiagnostics(lowered.diagnostics), typescript: lowered.typescript, toPython, origin, externalName };
  if (!source || parsed.diagnostics.some((d) => d.severity === "error")) {
    return { diagnostics: distinctDiagnostics([...lowered.diagnostics, ...mapped(parsed.diagnostics)]), typescript: lowered.typescript, ...(source ? { source } : {}), toPython, origin, externalName };
  }
  const result = compileKernel(source, numeric, target, specialization, options);
  return {
    ...(result.kernel ? { kernel: result.kernel } : {}),
    diagnostics: distinctDiagnostics([...lowered.diagnostics, ...mapped(parsed.diagnostics), ...mapped(result.diagnostics)]),
    typescript: lowered.typescript,
    source,
    toPython,
    origin,
    externalName,
  };
}

/** `Softmax$forward` (a class-level function's TypeScript name, names.ts tsName) in a message → `Softmax.forward`. */
function qualifiedNames(message: string): string {
  return message.replace(/\b([A-Za-z_]\w*)\$([A-Za-z_]\w*)\b/g, "$1.$2");
}

/** A diagnostic of the lowered TypeScript, at its Python range and in Python's spelling (spelling.ts). */
function mapDiagnostic(d: Diagnostic, map: SourceMap): Diagnostic {
  // Fixes edit TypeScript text: they don't apply to the Python file.
  const { fixes: _fixes, ...rest } = d;
  return {
    ...rest,
    message: qualifiedNames(Externals.unspecialized(inPythonSpelling(d.message))),
    span: map.toPython(d.span),
    ...(d.related ? { related: d.related.map((r) => ({ ...r, message: inPythonSpelling(r.message), span: map.toPython(r.span) })) } : {}),
  };
}

export { pythonText };

/** A `raise` the kernel compiles (statements.ts writes it as a failing static assertion): KL1101, as a construct outside the language. */
function raised(d: Diagnostic): Diagnostic {
  const at = d.code === Codes.staticAssert ? d.message.indexOf(RAISED) : -1;
  return at < 0 ? d : { ...d, code: Codes.pythonUnsupported, message: d.message.slice(at).replace(/ \(with [^()]*\)$/, "") };
}

/**
 * A math name's message with the namespace as the file writes it: `tl_math.expp doesn't exist` for
 * `tl_math.expp(x)` (torch._inductor's `from …triton_helpers import math as tl_math`), where the lowered
 * call is `tl.extra.libdevice.expp`.
 */
function mathAsWritten(d: Diagnostic, text: string): Diagnostic {
  const said = /^(tl\.extra\.libdevice|tl\.math|libdevice)\.(\w+) /.exec(d.message);
  // The range is the name; the namespace is written just before it.
  const namespace = /([A-Za-z_][\w.]*)\.$/.exec(text.slice(Math.max(0, d.span.start - 200), d.span.start))?.[1];
  if (!said || !namespace || said[2] !== text.slice(d.span.start, d.span.end) || said[1] === namespace) return d;
  return { ...d, message: d.message.split(`${said[1]}.`).join(`${namespace}.`) };
}

/**
 * helpersOf, and the functions a module-level alias the kernel or a helper calls is bound to (`round_triton =
 * round_triton_nvidia`: PythonFile.jitAliases), with theirs in turn.
 */
function helpersThroughAliases(file: PythonFile, kernel: PythonKernel): PythonKernel[] {
  const out = helpersOf(file, kernel);
  const queue = [kernel, ...out];
  while (queue.length > 0) {
    const k = queue.shift()!;
    for (const [alias, target] of file.jitAliases) {
      if (!k.names.has(alias)) continue;
      const bound = file.kernels.find((x) => x.name === target);
      if (!bound) continue;
      for (const h of [bound, ...helpersOf(file, bound)]) {
        if (h === kernel || out.includes(h)) continue;
        out.push(h);
        queue.push(h);
      }
    }
  }
  return out;
}

// What must hold for every input the compiler is given, however broken: `checkFile` and
// `compileKernel` (for each kernel, with each of the file's literal constexprs) return instead of
// throwing; every diagnostic has a KL code, a message and a range inside the file; one input
// compiles in bounded time; and no diagnostic is KL9000 (an internal error is a bug).
// Used by `npm run fuzz` (test/fuzz/compiler.fuzz.ts) and the CI slice (test/unit/compiler-fuzz.test.ts).

import { checkFile, compileKernel, parseKernelFile } from "../../src/compile";
import type { Diagnostic } from "../../src/diagnostics/diagnostic";
import { formatDiagnostic, locate } from "../../src/diagnostics/position";
import { DEFAULT_TARGET } from "../../src/ir/target";

/** One input's compile must finish within this. */
export const TIME_LIMIT_MS = 2000;

export interface InputOutcome {
  /** Diagnostics from checkFile plus every compileKernel call. */
  diagnostics: number;
  errors: number;
  /** compileKernel calls that produced WGSL. */
  compiledKernels: number;
  compileCalls: number;
  codes: string[];
  internalErrors: Diagnostic[];
  ms: number;
}

/** A broken property: what was wrong, with the input to reproduce it. */
export class PropertyViolation extends Error {
  override name = "PropertyViolation";
}

function checkDiagnostic(d: Diagnostic, text: string, where: string): void {
  const bad = (why: string) => new PropertyViolation(`${where}: ${why}: ${JSON.stringify(d).slice(0, 400)}`);
  if (typeof d.code !== "string" || !/^KL\d{4}$/.test(d.code)) throw bad("not a KL code");
  if (typeof d.message !== "string" || d.message.length === 0) throw bad("no message");
  const spans = [d.span, ...(d.related ?? []).map((r) => r.span)];
  for (const s of spans) {
    if (!s || !Number.isInteger(s.start) || !Number.isInteger(s.end)) throw bad("a span that is not integers");
    if (!(0 <= s.start && s.start <= s.end && s.end <= text.length)) throw bad(`a span outside the file (length ${text.length})`);
  }
}

/**
 * Compiles one file every way the product does and checks every property but the internal-error
 * one, which it counts instead (the caller decides). Throws PropertyViolation, or whatever the
 * compiler let escape.
 */
export function compileEveryWay(text: string, fileName = "fuzz.kernel.ts"): InputOutcome {
  const started = performance.now();
  const all: Diagnostic[] = [];
  const checked = checkFile(fileName, text);
  for (const d of checked) checkDiagnostic(d, text, "checkFile");
  all.push(...checked);
  // Positions and the caret printer must cope with every range (CLI and editor both use them).
  for (const d of locate(fileName, text, checked)) formatDiagnostic(d, text);

  let compiledKernels = 0;
  let compileCalls = 0;
  const parsed = parseKernelFile(fileName, text);
  // As the harness and `kernel-lab wgsl` do: a kernel whose header has errors is not lowered.
  for (const kernel of parsed.kernels.filter((k) => k.ok)) {
    const variants = parsed.literalConstexprs.get(kernel.name) ?? [];
    for (const constexprs of variants.length > 0 ? variants : [{}]) {
      for (const target of [DEFAULT_TARGET, { ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152 }]) {
        compileCalls++;
        const result = compileKernel(kernel, constexprs, target);
        for (const d of result.diagnostics) checkDiagnostic(d, text, `compileKernel(${kernel.name}, ${JSON.stringify(constexprs)})`);
        all.push(...result.diagnostics);
        if (result.kernel) {
          compiledKernels++;
          if (typeof result.kernel.wgsl !== "string" || !result.kernel.wgsl.includes("@compute")) {
            throw new PropertyViolation(`compileKernel(${kernel.name}) returned a kernel without a compute entry point`);
          }
        }
      }
    }
  }
  const ms = performance.now() - started;
  if (ms > TIME_LIMIT_MS) throw new PropertyViolation(`compiling took ${ms.toFixed(0)} ms (limit ${TIME_LIMIT_MS} ms)`);
  return {
    diagnostics: all.length,
    errors: all.filter((d) => d.severity === "error").length,
    compiledKernels,
    compileCalls,
    codes: all.map((d) => d.code),
    internalErrors: all.filter((d) => d.code === "KL9000"),
    ms,
  };
}

/** The strict property: everything above, and no internal error. */
export function compilesCleanly(text: string): void {
  const outcome = compileEveryWay(text);
  if (outcome.internalErrors.length > 0) {
    throw new PropertyViolation(`internal compiler error: ${outcome.internalErrors.map((d) => d.message).join(" | ")}`);
  }
}

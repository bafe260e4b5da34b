// `kernel-lab wgsl file.py`: the WGSL of a Python file's kernels, specialised as `check` assumes
// (src/python/infer.ts), with `--constexpr NAME=VALUE` over the launch's values.

import type { Command } from "./args";
import { formatDiagnostic, locate } from "../diagnostics/position";
import { EXIT_CODES } from "../harness/report";
import { NO_ADAPTER_TARGET } from "../compile";
import { readFileSync, writeFileSync } from "node:fs";
import { assumedArgTypes, assumedConstexprs, compilePythonKernel, kernelFileToPython, pythonFileToTypeScript, type PythonFile } from "../python";

/** `python`: the file read with the modules it imports (main.ts readPythonBesideModules), as `check` reads it. */
export async function wgslPython(file: string, text: string, cmd: Extract<Command, { kind: "wgsl" }>, python: PythonFile): Promise<number> {
  const errors = python.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0) {
    process.stderr.write(locate(file, text, errors).map((d) => formatDiagnostic(d)).join("\n") + "\n");
    return EXIT_CODES["compile-error"];
  }
  // Without --kernel, helpers are shown inlined in the kernels that call them.
  const kernels = cmd.kernel === undefined ? python.kernels.filter((k) => !k.called || python.launches.some((l) => l.kernel === k.name)) : python.kernels.filter((k) => k.name === cmd.kernel);
  if (kernels.length === 0) {
    const found = python.kernels.map((k) => k.name).join(", ") || "none";
    process.stderr.write(`kernel-lab: ${cmd.kernel === undefined ? "no @triton.jit kernel in this file" : `no @triton.jit function named '${cmd.kernel}'`} (found: ${found}).\n`);
    return EXIT_CODES.failure;
  }
  const out: string[] = [];
  let failed = false;
  for (const kernel of kernels) {
    const constexprs = { ...assumedConstexprs(python, kernel)[0], ...cmd.constexprs };
    const result = compilePythonKernel(python, kernel.name, assumedArgTypes(python, kernel), constexprs, NO_ADAPTER_TARGET);
    if (result.diagnostics.length > 0) process.stderr.write(locate(file, text, result.diagnostics).map((d) => formatDiagnostic(d)).join("\n") + "\n");
    if (!result.kernel) {
      failed = true;
      continue;
    }
    const values = Object.entries(result.kernel.constexprs).map(([k, v]) => `${k}=${v}`).join(", ");
    if (kernels.length > 1) out.push(`// ---- kernel ${kernel.name}${values ? ` (${values})` : ""} ----`);
    out.push(result.kernel.wgsl.trimEnd());
  }
  if (out.length > 0) await new Promise<void>((resolve) => process.stdout.write(`${out.join("\n\n")}\n`, () => resolve()));
  return failed ? EXIT_CODES["compile-error"] : 0;
}

/** `kernel-lab convert FILE`: Python → .kernel.ts, or .kernel.ts → Python; to stdout or --out. */
export async function convertCommand(cmd: Extract<Command, { kind: "convert" }>): Promise<number> {
  let text: string;
  try {
    text = readFileSync(cmd.file, "utf8");
  } catch (err) {
    process.stderr.write(`kernel-lab: cannot read ${cmd.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return EXIT_CODES.failure;
  }
  let converted: string;
  let failed = false;
  if (cmd.file.endsWith(".py")) {
    const result = pythonFileToTypeScript(cmd.file, text);
    converted = result.text;
    const errors = result.diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) {
      process.stderr.write(locate(cmd.file, text, errors).map((d) => formatDiagnostic(d)).join("\n") + "\n");
      failed = true;
    }
  } else {
    const result = kernelFileToPython(cmd.file, text);
    converted = result.text;
    for (const p of result.problems) process.stderr.write(`kernel-lab: ${p.kernel} was left out: ${p.message}\n`);
    failed = result.problems.length > 0;
  }
  if (cmd.out) writeFileSync(cmd.out, converted);
  else await new Promise<void>((resolve) => process.stdout.write(converted, () => resolve()));
  return failed ? EXIT_CODES["compile-error"] : 0;
}

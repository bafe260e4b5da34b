// `kernel-lab check file.py` and the editor's diagnostics for a Python file: every @triton.jit
// kernel (a function no other one calls) compiled with what the file says about its launches
// (infer.ts), its device functions checked through the kernels that call them.

import type { Diagnostic } from "../diagnostics/diagnostic";
import { distinctDiagnostics } from "../diagnostics/diagnostic";
import type { Target } from "../ir/target";
import { DEFAULT_TARGET } from "../ir/target";
import { adapterDependent, NO_ADAPTER_TARGET } from "../compile";
import { Codes } from "../diagnostics/codes";
import { compilePythonKernel } from "./compile-python";
import { assumedArgTypes, assumedConstexprs } from "./infer";
import { readPythonFile, type PythonFile } from "./module";

export function checkPythonFile(fileName: string, text: string, target: Target = DEFAULT_TARGET): Diagnostic[] {
  return checkPython(readPythonFile(fileName, text), target);
}

export function checkPython(file: PythonFile, target: Target = DEFAULT_TARGET): Diagnostic[] {
  const checked = target === DEFAULT_TARGET ? NO_ADAPTER_TARGET : target;
  const diagnostics = [...file.diagnostics];
  // With a syntax error, Lezer's recovery leaves a tree whose kernels would report noise.
  if (file.diagnostics.some((d) => d.code === Codes.pythonSyntax)) return diagnostics;
  for (const kernel of file.kernels) {
    const launched = file.launches.some((l) => l.kernel === kernel.name);
    if (kernel.called && !launched) continue;
    const types = assumedArgTypes(file, kernel);
    for (const constexprs of assumedConstexprs(file, kernel)) {
      for (const d of compilePythonKernel(file, kernel.name, types, constexprs, checked).diagnostics) diagnostics.push(adapterDependent(d, checked));
    }
  }
  return distinctDiagnostics(diagnostics);
}

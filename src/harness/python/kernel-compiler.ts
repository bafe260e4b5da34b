// The seam between a launch and the Python kernel compiler (src/python/): a `@triton.jit`
// function has no types of its own, so each launch compiles it for its arguments' types (a
// tensor is a pointer of its dtype, an int an i32, a float an f32, None a constexpr None) and its
// constexpr values, once per distinct set, as Triton specialises per signature.

import type { Specialization } from "../../compile";
import type { CodegenOptions, Target } from "../../ir/target";
import { compilePythonKernel, readPythonFile, type PythonArgType, type PythonCompileResult, type PyConst } from "../../python";
import { addMathNames } from "../../python/module";
import { tsName } from "../../python/names";
import type { ImportedModule, MathName } from "./protocol";

export type KernelArgType = PythonArgType;
export type ConstexprValue = PyConst;

export interface PythonKernelCompiler {
  compile(kernel: string, argTypes: Record<string, KernelArgType>, constexprs: Record<string, ConstexprValue>, target: Target, specialization?: Specialization, options?: CodegenOptions): PythonCompileResult;
  /** Modules the file imports (their dotted names): a kernel's call to one of their @triton.jit functions compiles from them. */
  addModules(modules: readonly ImportedModule[]): void;
  /** Names the file binds at run time to libdevice / tl.math modules and functions, or to tl dtypes (LaunchRequest.mathNames). */
  addMathNames(names: Readonly<Record<string, MathName>>): void;
  /** The name a Python parameter has in the compiled kernel (its ABI's buffers and scalars). */
  paramName(name: string): string;
}

/**
 * The compiler for one file's text (read once; every launch compiles from it); `moduleName` for a module's (its
 * relative imports resolve against it); `jitLines` where the run said which of its definitions Python bound
 * (ImportedModule.jitLines: a definition in a module-level `if` is read only where it is the one bound).
 */
export function compilerFor(file: string, text: string, moduleName?: string, jitLines?: Readonly<Record<string, number>>): PythonKernelCompiler {
  const parsed = readPythonFile(file, text, moduleName, jitLines);
  // Each module as last read: its text and the definitions the run bound (a new run may bind others).
  const readAs = new Map<string, string>();
  return {
    compile: (kernel, types, constexprs, target, specialization, options) => compilePythonKernel(parsed, kernel, types, constexprs, target, specialization, options),
    addModules: (modules) => {
      for (const m of modules) {
        const key = `${m.text}\0${JSON.stringify(m.jitLines ?? null)}`;
        if (readAs.get(m.name) === key) continue;
        readAs.set(m.name, key);
        const module = readPythonFile(m.file, m.text, m.name, m.jitLines);
        if (m.mathNames) addMathNames(module, m.mathNames);
        parsed.modules.set(m.name, module);
      }
    },
    addMathNames: (names) => addMathNames(parsed, names),
    paramName: tsName,
  };
}

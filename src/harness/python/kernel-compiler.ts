// The seam between a launch and the Python kernel compiler (src/python/): a `@triton.jit`
// function has no types of its own, so each launch compiles it for its arguments' types (a
// tensor is a pointer of its dtype, an int an i32, a float an f32) and its constexpr values,
// once per distinct set, as Triton specialises per signature.

import type { CompileResult, Specialization } from "../../compile";
import type { NumDtype } from "../../ir/ir";
import type { Target } from "../../ir/target";

export type KernelArgType = { kind: "pointer"; dtype: NumDtype } | { kind: "scalar"; dtype: NumDtype };

export type ConstexprValue = number | boolean | string | null;

export interface PythonKernelCompiler {
  /** Names of the file's `@triton.jit` functions that can be launched. */
  kernels(): string[];
  compile(kernel: string, argTypes: Record<string, KernelArgType>, constexprs: Record<string, ConstexprValue>, target: Target, specialization?: Specialization): CompileResult;
}

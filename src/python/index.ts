// Triton's own Python (docs/LANGUAGE.md §2.2): read a `.py` file's @triton.jit kernels, compile one for a
// launch, check a whole file. Everything the runtime, the command line and the editor use.

export { readPythonFile, isTritonFile, helpersOf, type PythonFile, type PythonKernel, type LaunchSite, type PythonImports, type ModuleConstant } from "./module";
export type { PythonParam, AutotuneConfig, Heuristic } from "./signature";
export type { PyConst } from "./literals";
export { compilePythonKernel, pythonText, type PythonArgType, type PythonCompileResult } from "./compile-python";
export { checkPythonFile, checkPython, pythonCheckAssumptions } from "./check";
export { assumedArgTypes, assumedConstexprs, pointerParams } from "./infer";
export { kernelFileToPython, type PythonText } from "./to-python";
export { pythonFileToTypeScript, type TypeScriptText } from "./to-typescript";
export { pythonBindingTypes, pythonHoverAt, pythonWgsl, pythonKernelPrograms, type PythonKernelProgram, type PythonWgsl } from "./inspect-python";
export { KERNEL_LAB_MODULES, readImportedModules, type ModuleReader } from "./imported-modules";

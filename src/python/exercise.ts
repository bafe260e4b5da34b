// An exercise in Triton's own Python (the setting kernelLab.exerciseLanguage = "python"). The file
// is the exercise's kernel spelled by to-python.ts, its body a TODO, and one last line that names
// the exercise: `kernel_lab.check_exercise("tutorial-01")` (the Python spelling of the TypeScript
// file's `reference: exerciseReference("tutorial-01")`). Running it runs the exercise's own run —
// its sizes, arguments, grid and hidden reference, from the TypeScript template — on the learner's
// Python kernel, lowered by the same compiler that checks the file (`exerciseRunText`).

import type { Diagnostic } from "../diagnostics/diagnostic";
import { NO_ADAPTER_TARGET } from "../compile";
import { compilePythonKernel, type PythonArgType } from "./compile-python";
import type { NumDtype } from "../ir/ir";
import { assumedArgTypes, assumedConstexprs } from "./infer";
import { readPythonFile } from "./module";
import { tsName } from "./names";
import { kernelFileToPython } from "./to-python";
import { exerciseHeader } from "../exercises/course";
import { BODY, type Exercise } from "../exercises/exercise";

const CHECK = /kernel_lab\.check_exercise\(\s*["']([\w-]+)["']\s*\)/;

/** The id a Python exercise file names in its `kernel_lab.check_exercise("…")`, if it does. */
export function pythonExerciseId(text: string): string | undefined {
  return CHECK.exec(text)?.[1];
}

export function pythonExerciseFileName(exercise: Exercise): string {
  return exercise.file.replace(/\.kernel\.ts$/, ".py");
}

/** The learner's Python file (`solution`: the solved one, as Show Solution shows it). */
export function pythonExerciseFile(exercise: Exercise, solution = false): string {
  const typescript = exercise.template.replace(BODY, () => (solution ? exercise.solution : ""));
  let python = kernelFileToPython(exercise.file, typescript).text;
  if (!solution) {
    // The stub's TODO in place of the empty body's `pass` (the body is still valid Python).
    const todo = exercise.stub.split("\n").map((l) => `    ${l.trim().replace(/^\/\/\s?/, "# ")}`).join("\n");
    python = python.replace(/\n {4}pass\n/, () => `\n${todo}\n    pass\n`);
  }
  python = python.replace(/^(import triton\.language as tl\n)/m, "$1import kernel_lab\n");
  const footer = [
    "",
    "",
    "# The exercise's own run (its sizes, arguments and grid) on your kernel, checked against its",
    "# hidden reference: Kernel Lab reads this line when you run the file (▶ Run File).",
    `kernel_lab.check_exercise("${exercise.id}")`,
    "",
  ].join("\n");
  return `${exerciseHeader(exercise, "#", solution)}\n${python.trimEnd()}\n${footer}`;
}

/**
 * The exercise's TypeScript file with the learner's kernel in it: the body of their Python kernel
 * as the Python front end lowers it, in the template's signature (its parameter types), with any
 * @triton.jit helpers it calls before it. Errors: the file's Python diagnostics (the editor shows them too).
 */
/**
 * The editor's diagnostics of a Python exercise file: its kernel checked with the exercise's own
 * parameter types (check.ts would guess them from launches, and the file has none).
 */
export function checkPythonExercise(exercise: Exercise, pythonFile: string, pythonText: string): Diagnostic[] {
  const run = exerciseRunText(exercise, pythonFile, pythonText);
  return "diagnostics" in run ? run.diagnostics : run.warnings;
}

export function exerciseRunText(exercise: Exercise, pythonFile: string, pythonText: string): { file: string; text: string; warnings: Diagnostic[] } | { diagnostics: Diagnostic[] } {
  const signature = new RegExp(`export const (\\w+) = kernel\\(function (\\w+)\\(([^)]*)\\) \\{\\n\\${BODY}\\n\\}\\);`).exec(exercise.template);
  const name = signature?.[2];
  const python = readPythonFile(pythonFile, pythonText);
  const kernel = python.kernels.find((k) => tsName(k.name) === name);
  const missing = (message: string): { diagnostics: Diagnostic[] } => ({ diagnostics: [{ code: "KL1104", severity: "error", message, span: { start: 0, end: 0 } }] });
  if (!signature || !name) return missing(`exercise ${exercise.id} has no kernel body to fill`);
  if (python.diagnostics.some((d) => d.severity === "error")) return { diagnostics: python.diagnostics };
  if (!kernel) return missing(`exercise ${exercise.id} needs a @triton.jit function named '${name}'`);
  // The template's parameter types, not the ones `check` would guess (puzzle 12's int32 pointers).
  const types = { ...assumedArgTypes(python, kernel), ...templateTypes(signature[3]) };
  const result = compilePythonKernel(python, kernel.name, types, assumedConstexprs(python, kernel)[0] ?? {}, NO_ADAPTER_TARGET);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (errors.length > 0 || !result.typescript) return { diagnostics: errors.length > 0 ? errors : result.diagnostics };
  const lowered = result.typescript;
  const start = lowered.indexOf(`export const ${name} = kernel(function ${name}(`);
  const open = lowered.indexOf(") {\n", start);
  const end = lowered.indexOf("\n});", open);
  if (start < 0 || open < 0 || end < 0) return missing(`the lowered kernel '${name}' could not be read back`);
  const body = lowered.slice(open + 4, end);
  // Helpers (device functions) come between the imports and the kernel.
  const helpers = lowered.slice(0, start).split("\n").filter((l) => !/^import\b/.test(l)).join("\n").trim();
  const text = exercise.template.replace(signature[0], () => `${helpers ? `${helpers}\n\n` : ""}${signature[0].replace(BODY, () => body)}`);
  return { file: pythonFile.replace(/\.py$/, ".exercise.kernel.ts"), text, warnings: [...python.diagnostics, ...result.diagnostics] };
}

/** `x_ptr: Ptr<f32>, N0: i32, B0: constexpr` → the types of the pointer and scalar parameters. */
function templateTypes(params: string): Record<string, PythonArgType> {
  const types: Record<string, PythonArgType> = {};
  for (const param of params.split(",")) {
    const [name, type] = param.split(":").map((s) => s.trim());
    const pointer = /^Ptr<(\w+)>$/.exec(type ?? "");
    if (pointer) types[name] = { kind: "pointer", dtype: pointer[1] as NumDtype };
    else if (type === "i32" || type === "u32" || type === "f32") types[name] = { kind: "scalar", dtype: type };
  }
  return types;
}

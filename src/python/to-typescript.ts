// "Convert to TypeScript kernel": a Python file's @triton.jit functions → a `.kernel.ts` file, with
// the types `check` assumes (infer.ts) written as annotations, and for each launch written in the
// file a `defineRun` with what the launch says: its constexprs, its grid where it is the usual
// `lambda meta: (triton.cdiv(n, meta['BLOCK']), )`, inputs and outputs. What it can't know (the
// problem size, what the outputs should hold) is left for the user to write, and says so.

import { Codes } from "../diagnostics/codes";
import type { Diagnostic } from "../diagnostics/diagnostic";
import { assumedArgTypes, assumedConstexprs, pointerParams } from "./infer";
import { lowerFunctions, type FunctionToLower } from "./lower";
import type { LaunchSite, PythonFile, PythonKernel } from "./module";
import { readPythonFile } from "./module";
import { SCALAR_ANNOTATIONS, tsName } from "./names";
import { LineMap } from "../diagnostics/position";

export interface TypeScriptText {
  text: string;
  /** Constructs that have no TypeScript (at their Python ranges): the text has `0` in their place. */
  diagnostics: Diagnostic[];
}

export function pythonFileToTypeScript(fileName: string, text: string): TypeScriptText {
  const file = readPythonFile(fileName, text);
  const functions: FunctionToLower[] = file.kernels.map((kernel) => {
    if (kernel.called && !file.launches.some((l) => l.kernel === kernel.name)) return { kernel, annotations: new Map(), known: new Map() };
    const annotations = new Map<string, string>();
    const types = assumedArgTypes(file, kernel);
    const constexprs = assumedConstexprs(file, kernel)[0] ?? {};
    const known = new Map(Object.entries(constexprs).filter(([, v]) => v === null || typeof v === "string"));
    for (const p of kernel.params) {
      const t = types[p.name];
      // A scalar's dtype annotation is its type (`n: tl.int64` → `n: i64`), as a run compiles it (compile-python.ts).
      const annotated = t?.kind === "scalar" && p.annotation !== undefined && SCALAR_ANNOTATIONS.has(p.annotation) ? p.annotation : undefined;
      annotations.set(p.name, p.constexpr || !t || t.kind === "none" || t.kind === "one" ? "constexpr" : t.kind === "pointer" ? `Ptr<${t.dtype}>` : annotated ?? t.dtype);
    }
    return { kernel, annotations, known };
  });
  const lowered = lowerFunctions(file, functions);
  const lines = new LineMap(text);
  const runs = file.launches.map((launch) => defineRun(file, launch, lines.at(launch.span.start).line)).filter((r): r is string => r !== undefined);
  const header = lowered.typescript
    .replace('import { kernel, tl } from "kernel-lab";', `import { kernel, tl${runs.length > 0 ? ", defineRun, rand, empty, cdiv" : ""}${["nextPowerOf2", "log2Floor", "intDtype"].filter((f) => new RegExp(`\\b${f}\\(`).test(lowered.typescript)).map((f) => `, ${f}`).join("")} } from "kernel-lab";`)
    .replace(/^import type .*$/m, "import type { Ptr, f32, f16, i32, u32, constexpr } from \"kernel-lab\";");
  const intro = `// Converted by Kernel Lab from ${fileName.split(/[\\/]/).pop()} (Triton's Python): the same kernels in the TypeScript kernel language.\n`;
  return { text: `${intro}${header}${runs.join("")}`, diagnostics: [...file.diagnostics, ...lowered.diagnostics] };
}

function defineRun(file: PythonFile, launch: LaunchSite, line: number): string | undefined {
  const kernel = file.kernels.find((k) => k.name === launch.kernel);
  if (!kernel) return undefined;
  const constexprs = Object.fromEntries(Object.entries(assumedConstexprs(file, kernel)[0] ?? {}).filter(([, v]) => typeof v === "number" || typeof v === "boolean"));
  const pointers = pointerParams(file, kernel);
  const stored = storedParams(file, kernel);
  const argText = new Map(kernel.params.map((p, i) => [p.name, launch.args[i]?.text]));
  const grid = gridText(launch.grid, kernel, argText);
  const size = kernel.params.find((p) => !p.constexpr && !pointers.has(p.name) && grid.sizeFrom === argText.get(p.name));
  const args = kernel.params
    .filter((p) => !p.constexpr)
    .map((p) => {
      if (pointers.has(p.name)) return `${tsName(p.name)}: ${stored.has(p.name) ? "empty(n)" : "rand(n)"}`;
      if (p === size) return `${tsName(p.name)}: n`;
      const value = launch.args[kernel.params.indexOf(p)]?.value ?? launch.keywords[p.name];
      return `${tsName(p.name)}: ${typeof value === "number" ? value : `0 /* ${argText.get(p.name) ?? p.name} at the launch */`}`;
    });
  const outputs = kernel.params.filter((p) => stored.has(p.name)).map((p) => JSON.stringify(tsName(p.name)));
  return `
// From the launch at line ${line}: ${launch.kernel}[${launch.grid}](…). The size n, the grid and the
// arguments are Kernel Lab's guess from it; the reference is yours to write.
export const ${tsName(launch.kernel)}_run = defineRun({
  kernel: ${tsName(launch.kernel)},
  sizes: [4096],
  constexprs: { ${Object.entries(constexprs).map(([k, v]) => `${k}: ${v}`).join(", ")} },
  grid: ${grid.text},
  args: (n) => ({ ${args.join(", ")} }),
  outputs: [${outputs.join(", ")}],
  reference: () => {
    throw new Error("write the reference: what each output should hold, computed on the CPU from the inputs");
  },
});
`;
}

/** `lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )` → `(n, c) => [cdiv(n, c.BLOCK_SIZE)]`. */
function gridText(grid: string, kernel: PythonKernel, argText: ReadonlyMap<string, string | undefined>): { text: string; sizeFrom?: string } {
  const m = /^(?:lambda\s+(\w+)\s*:\s*)?\(?\s*triton\.cdiv\(\s*(\w+)\s*,\s*(?:(\w+)\[\s*['"](\w+)['"]\s*\]|(\d+))\s*\)\s*,?\s*\)?$/.exec(grid.trim());
  if (m) {
    const block = m[4] ? `c.${m[4]}` : m[5];
    const known = [...argText.values()].includes(m[2]);
    if (known) return { text: `(n, c) => [cdiv(n, ${block})]`, sizeFrom: m[2] };
  }
  void kernel;
  return { text: `() => [1] /* the launch's grid: ${grid.replace(/\*\//g, "* /")} */` };
}

/** Pointer parameters the kernel stores through (its outputs). */
function storedParams(file: PythonFile, kernel: PythonKernel): Set<string> {
  const all = pointerParams(file, kernel);
  const loadsOnly = pointerParams(file, kernel, new Set(), new Set(["store", "atomicAdd", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor", "atomicXchg", "atomicCas"]));
  return new Set([...all].filter((p) => loadsOnly.has(p)));
}

export { Codes };

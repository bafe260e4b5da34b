// Loads a kernel file from anywhere: read it and the files it imports by relative path
// (modules.ts), turn each into CommonJS with TypeScript's own transpiler (the compiler carries it
// already; no native bundler, so the same code runs in Node and in a browser worker), run them with
// a `require` that hands the file this package's own `kernel-lab` module (so branded values and
// `builtins.add` are the ones the harness knows, and no node_modules is needed near the file), and
// collect the runs it exports.

import * as path from "node:path";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import * as language from "../../language";
import { host } from "../../runtime/host";
import { RunCodes } from "../codes";
import { collectModules, type SourceModule } from "./modules";

export interface LoadedRun {
  /** `definition.name`, else the export's name. */
  name: string;
  exportName: string;
  definition: language.RunDefinition;
}

export interface LoadedFile {
  /** Absolute path of the file. */
  file: string;
  runs: LoadedRun[];
  /** Every kernel value the file made, in creation order, anonymous ones named after their export. */
  kernels: language.KernelHandle[];
  /** Load failures (KL3001: a file that can't be read, an import that does not resolve, a syntax error; KL3002: the file threw); `runs` is empty when there are any. */
  diagnostics: LocatedDiagnostic[];
}

/** The display path of a file: relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const rel = path.relative(host.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

/** The file's text, or why it cannot be read (`shown`: its display path). */
export async function readKernelText(file: string, shown: string): Promise<string | LocatedDiagnostic> {
  try {
    return await host.readText(file);
  } catch (err) {
    return located(shown, RunCodes.bundleFailed, `Cannot read the file: ${(err as Error).message}`);
  }
}

/** `text`: the file's contents where the caller has read them already. */
export async function loadKernelFile(fileArg: string, text?: string): Promise<LoadedFile> {
  const file = path.resolve(fileArg);
  const collected = await collectModules(file, text);
  if ("diagnostics" in collected) {
    const diagnostics = collected.diagnostics.map((d) => ({ ...d, file: displayPath(d.file) }));
    return { file, runs: [], kernels: [], diagnostics };
  }

  const kernels: language.KernelHandle[] = [];
  const exports = execute(collected.modules, file, kernels);
  if (exports instanceof Error) {
    return {
      file,
      runs: [],
      kernels,
      diagnostics: [located(displayPath(file), RunCodes.loadThrew, `The file threw while loading: ${exports.message}. Fix the top level of the file; kernels run only through kernel-lab.`)],
    };
  }

  const runs: LoadedRun[] = [];
  for (const [exportName, value] of Object.entries(exports)) {
    if (language.isKernelHandle(value) && value.name === "") value.name = exportName;
    if (language.isRunHandle(value)) runs.push(loadedRun(value, exportName, exportName));
    // Runs made by a function, e.g. `export const runs = [128, 1000].map(mk)`: each element, named
    // `runs[0]`, `runs[1]`… unless it names itself; `--run runs` picks them all.
    if (Array.isArray(value) && value.length > 0 && value.every(language.isRunHandle)) {
      value.forEach((run, i) => runs.push(loadedRun(run, `${exportName}[${i}]`, exportName)));
    }
  }
  return { file, runs, kernels, diagnostics: [] };
}

function loadedRun(run: language.RunHandle, fallbackName: string, exportName: string): LoadedRun {
  const given = run.definition.name;
  return { name: typeof given === "string" && given !== "" ? given : fallbackName, exportName, definition: run.definition };
}

/**
 * Runs the entry module (and, as it requires them, the modules it imports) in this realm (typed
 * arrays must be this realm's) and returns its exports or what it threw.
 */
function execute(modules: ReadonlyMap<string, SourceModule>, entry: string, kernels: language.KernelHandle[]): Record<string, unknown> | Error {
  // Wraps `kernel` so this load sees exactly the kernels its files make, in order.
  const localKernel = (fn: (...args: never[]) => unknown, name?: string) => {
    const made = language.kernel(fn, name);
    const handle = { ...made, ordinal: kernels.length } as language.KernelHandle;
    kernels.push(handle);
    return handle;
  };
  const kernelLab = Object.freeze({ ...language, kernel: localKernel });
  const loaded = new Map<string, { exports: Record<string, unknown> }>();

  const load = (file: string): Record<string, unknown> => {
    const done = loaded.get(file);
    // A cycle gets the exports as far as they are (as Node's CommonJS does).
    if (done) return done.exports;
    const source = modules.get(file)!;
    const module = { exports: {} as Record<string, unknown> };
    loaded.set(file, module);
    const require = (id: string): unknown => {
      if (id === "kernel-lab") return kernelLab;
      const local = source.imports.get(id);
      return local !== undefined ? load(local) : host.requireFrom(file, id);
    };
    if (source.json !== undefined) module.exports = source.json as Record<string, unknown>;
    else host.compileModule(source.code, file)(module.exports, require, module, file, path.dirname(file));
    return module.exports;
  };

  try {
    return load(entry);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

export function located(file: string, code: string, message: string, line = 1, column = 1): LocatedDiagnostic {
  return { file, line, column, endLine: line, endColumn: column + 1, severity: "error", code, message };
}

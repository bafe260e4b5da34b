// Loads a kernel file from anywhere on disk: bundle it with esbuild, run the bundle with a
// `require` that hands it this package's own `kernel-lab` module (so branded values and
// `builtins.add` are the ones the harness knows, and no node_modules is needed near the file),
// and collect the runs it exports.

import { build, type Message } from "esbuild";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import type { LocatedDiagnostic } from "../diagnostics/position";
import * as language from "../language";
import { RunCodes } from "./codes";

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
  /** Bundle or load failures (KL3001, KL3002); `runs` is empty when there are any. */
  diagnostics: LocatedDiagnostic[];
}

/** The display path of a file: relative to the working directory when inside it. */
export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

/** The file's text, or why it cannot be read (`shown`: its display path). */
export function readKernelText(file: string, shown: string): string | LocatedDiagnostic {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    return located(shown, RunCodes.bundleFailed, `Cannot read the file: ${(err as Error).message}`);
  }
}

/** Bundling runs in esbuild's own process, so the caller can do other work until it is awaited. */
export async function loadKernelFile(fileArg: string): Promise<LoadedFile> {
  const file = path.resolve(fileArg);
  const shown = displayPath(file);
  let code: string;
  try {
    const result = await build({
      entryPoints: [file],
      bundle: true,
      write: false,
      platform: "node",
      format: "cjs",
      target: "node20",
      external: ["kernel-lab"],
      // Keeps `function add_kernel` named add_kernel even where bundling renames symbols.
      keepNames: true,
      logLevel: "silent",
      sourcemap: false,
    });
    code = result.outputFiles[0].text;
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors) throw err;
    return { file, runs: [], kernels: [], diagnostics: errors.map((m) => bundleDiagnostic(m, shown)) };
  }

  const kernels: language.KernelHandle[] = [];
  const exports = executeBundle(code, file, kernels);
  if (exports instanceof Error) {
    return {
      file,
      runs: [],
      kernels,
      diagnostics: [located(shown, RunCodes.loadThrew, `The file threw while loading: ${exports.message}. Fix the top level of the file; kernels run only through kernel-lab.`)],
    };
  }

  const runs: LoadedRun[] = [];
  for (const [exportName, value] of Object.entries(exports)) {
    if (language.isKernelHandle(value) && value.name === "") value.name = exportName;
    if (language.isRunHandle(value)) {
      const given = value.definition.name;
      runs.push({ name: typeof given === "string" && given !== "" ? given : exportName, exportName, definition: value.definition });
    }
  }
  return { file, runs, kernels, diagnostics: [] };
}

/** Runs the CommonJS bundle in this realm (typed arrays must be this realm's) and returns its exports or what it threw. */
function executeBundle(code: string, file: string, kernels: language.KernelHandle[]): Record<string, unknown> | Error {
  const nodeRequire = createRequire(file);
  // Wraps `kernel` so this load sees exactly the kernels this file makes, in order.
  const localKernel = (fn: (...args: never[]) => unknown, name?: string) => {
    const made = language.kernel(fn, name);
    const handle = { ...made, ordinal: kernels.length } as language.KernelHandle;
    kernels.push(handle);
    return handle;
  };
  const kernelLab = Object.freeze({ ...language, kernel: localKernel });
  const fileRequire = Object.assign((id: string) => (id === "kernel-lab" ? kernelLab : nodeRequire(id)), nodeRequire);
  const module = { exports: {} as Record<string, unknown> };
  try {
    const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${code}\n})`, { filename: file });
    wrapper(module.exports, fileRequire, module, file, path.dirname(file));
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
  return module.exports;
}

function bundleDiagnostic(m: Message, fallbackFile: string): LocatedDiagnostic {
  const loc = m.location;
  const line = loc?.line ?? 1;
  const column = (loc?.column ?? 0) + 1;
  return {
    file: loc?.file ? displayPath(path.resolve(loc.file)) : fallbackFile,
    line,
    column,
    endLine: line,
    endColumn: column + Math.max(1, loc?.length ?? 1),
    severity: "error",
    code: RunCodes.bundleFailed,
    message: `${m.text}. The file could not be bundled; fix this import or syntax error.`,
  };
}

export function located(file: string, code: string, message: string, line = 1, column = 1): LocatedDiagnostic {
  return { file, line, column, endLine: line, endColumn: column + 1, severity: "error", code, message };
}

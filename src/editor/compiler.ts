// The compiler (and with it the TypeScript compiler API, several MB) is loaded on first use,
// when a kernel document is first seen, never at activation.

type CompileModule = typeof import("../compile");

let loaded: CompileModule | undefined;

export function compiler(): CompileModule {
  // A require (not an import) so esbuild keeps the module's initialisation lazy.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require("../compile") as CompileModule;
  return loaded;
}

type PythonModule = typeof import("../python");

let python: PythonModule | undefined;

/** The Python front end (Lezer's grammar and the lowering), loaded when a Python kernel file is first seen. */
export function pythonCompiler(): PythonModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  python ??= require("../python") as PythonModule;
  return python;
}

// The Python kernel compiler of a file (src/python/, py-frontend's part of issue 27), behind the
// seam launch.ts uses (kernel-compiler.ts).

import type { PythonKernelCompiler } from "./kernel-compiler";

export function compilerFor(file: string, text: string): PythonKernelCompiler {
  return {
    kernels: () => [],
    compile: (kernel) => ({
      diagnostics: [{ code: "KL3121", severity: "error", span: { start: 0, end: 1 }, message: `${file}: the Python kernel compiler is not in this build yet, so '${kernel}' can't be compiled (${text.length} characters read)` }],
    }),
  };
}

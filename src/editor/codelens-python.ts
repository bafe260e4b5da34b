// `▶ Run File` above a Python file's first line and above each `@triton.jit` kernel it launches:
// the whole script runs (python-run.ts), as `kernel-lab run FILE.py` would. Each such kernel also
// gets Show WGSL and Debug program… (debug/provider.ts: the script runs up to its first launch). Only files with a
// `@triton.jit` function get them; other Python is left to the Python extension.

import * as vscode from "vscode";
import { pythonCompiler } from "./compiler";
import { isTritonPythonDocument } from "./kernel-document";

export class PythonCodeLensProvider implements vscode.CodeLensProvider {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    if (!isTritonPythonDocument(document)) return [];
    const run = (range: vscode.Range, tooltip: string) =>
      new vscode.CodeLens(range, { title: "▶ Run File", tooltip, command: "kernelLab.runPythonFile", arguments: [document.uri] });
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [run(top, "Run the whole script on Kernel Lab's embedded Python, every kernel launch checked on the GPU")];
    try {
      const file = pythonCompiler().readPythonFile(document.fileName, document.getText());
      for (const kernel of file.kernels) {
        if (kernel.called && !file.launches.some((l) => l.kernel === kernel.name)) continue;
        const at = document.positionAt(kernel.span.start);
        const range = new vscode.Range(at, at);
        const launches = file.launches.filter((l) => l.kernel === kernel.name).length;
        lenses.push(run(range, `Run the whole script; ${kernel.name} is launched ${launches === 1 ? "once" : `${launches} times`} in it`));
        lenses.push(new vscode.CodeLens(range, { title: "Show WGSL", tooltip: `The WGSL of ${kernel.name} for its launch's constexprs`, command: "kernelLab.showWgsl", arguments: [document.uri, kernel.name] }));
        lenses.push(
          new vscode.CodeLens(range, {
            title: "Debug program…",
            tooltip: `Run the script up to ${kernel.name}'s first launch, then one program instance of that launch in the CPU interpreter, stopping at breakpoints in the kernel`,
            command: "kernelLab.debugProgram",
            arguments: [document.uri, kernel.name],
          }),
        );
      }
    } catch (error) {
      this.log.error(`could not read the kernels of ${document.fileName}:`, String(error));
    }
    return lenses;
  }
}

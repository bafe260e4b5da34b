// `▶ Run | Sweep | Debug program…` above each exported `defineRun(…)` of a kernel file.

import * as vscode from "vscode";
import { findRuns } from "./find-runs";

export class RunCodeLensProvider implements vscode.CodeLensProvider {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    try {
      return findRuns(document.fileName, document.getText()).flatMap((run) => {
        const start = document.positionAt(run.span.start);
        const range = new vscode.Range(start, start);
        const sweep = run.sizeCount !== undefined && run.sizeCount > 1 ? `Sweep (${run.sizeCount} sizes)` : "Sweep";
        return [
          new vscode.CodeLens(range, {
            title: "▶ Run",
            tooltip: `Run ${run.name} at its first size, check it against its reference and time it`,
            command: "kernelLab.runKernel",
            arguments: [document.uri, run.name],
          }),
          new vscode.CodeLens(range, {
            title: sweep,
            tooltip: `Run ${run.name} at every size and plot its throughput`,
            command: "kernelLab.sweepKernel",
            arguments: [document.uri, run.name],
          }),
          new vscode.CodeLens(range, {
            title: "Debug program…",
            tooltip: `Run one program instance of ${run.name} in the CPU interpreter, stopping at breakpoints in the kernel`,
            command: "kernelLab.debugProgram",
            arguments: [document.uri, run.name],
          }),
        ];
      });
    } catch (error) {
      this.log.error(`could not find the runs of ${document.fileName}:`, String(error));
      return [];
    }
  }
}

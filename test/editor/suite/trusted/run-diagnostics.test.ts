/// <reference types="mocha" />
// A run's own diagnostics (KL3xxx) land on its file in the Problems panel. The worker reports the
// file relative to its working folder (the workspace folder), as the command line prints it; the
// editor resolves it there, not against the extension host's working folder (src/editor/same-file.ts).
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { RunCommandResult } from "../../../../src/editor/run-controller";
import { describeDiagnostics, kernelLabDiagnostics, openFixture, rangeOf, waitFor } from "../editor-wait";

describe("run diagnostics", function () {
  this.timeout(120_000);

  it("a bad run definition's KL3017 is shown on its file, at its run", async () => {
    const document = await openFixture("faults/bad-run.kernel.ts");
    const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, "missingArg");
    assert.equal(result.kind, "completed", JSON.stringify(result).slice(0, 300));
    if (result.kind === "completed") assert.equal(result.report.diagnostics[0]?.file, "faults/bad-run.kernel.ts", "relative, as the CLI shows it");
    const code = (d: vscode.Diagnostic) => (typeof d.code === "object" ? d.code.value : d.code);
    const shown = await waitFor(`KL3017 among ${describeDiagnostics(kernelLabDiagnostics(document.uri))}`, () =>
      kernelLabDiagnostics(document.uri).find((d) => code(d) === "KL3017"),
    );
    assert.equal(shown.range.start.line, rangeOf(document, "missingArg").start.line);
    assert.match(shown.message, /Run 'missingArg'/);
  });
});

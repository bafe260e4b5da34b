/// <reference types="mocha" />
// Restricted mode: the workspace is not trusted. Highlighting and diagnostics still work (the
// extension declares limited support); running or debugging a kernel is refused and nothing runs.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PanelState } from "../../../../src/editor/results-panel";
import type { RunCommandResult } from "../../../../src/editor/run-controller";
import type { PythonRunCommandResult } from "../../../../src/editor/python-run";
import { kernelLabDiagnostics, openFixture, waitFor } from "../editor-wait";
import { extensionId } from "../kernel-lab";

describe("an untrusted workspace", () => {
  it("is opened in restricted mode", () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it("still activates the extension", async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension, `${extensionId} is not loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it("still shows diagnostics", async () => {
    const document = await openFixture("math-call.kernel.ts");
    const diagnostics = await waitFor("KL1004 on math-call.kernel.ts", () => {
      const found = kernelLabDiagnostics(document.uri);
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(diagnostics.map((d) => (typeof d.code === "object" ? d.code.value : d.code)), ["KL1004"]);
  });

  it("refuses Run Kernel and Sweep Kernel, and runs nothing", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    for (const command of ["kernelLab.runKernel", "kernelLab.sweepKernel", "kernelLab.retuneKernel"]) {
      const result = await vscode.commands.executeCommand<RunCommandResult>(command, document.uri, "smallAdd");
      assert.deepEqual(result, { kind: "refused", reason: "untrusted" }, command);
    }
    const state = await vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
    assert.equal(state.lastMessage, undefined, `the results panel got ${JSON.stringify(state.lastMessage)?.slice(0, 200)}`);
  });

  it("refuses Run File on a Python file (it would run its Python), and runs nothing", async () => {
    const document = await openFixture("vector-add.py");
    const result = await vscode.commands.executeCommand<PythonRunCommandResult>("kernelLab.runPythonFile", document.uri);
    assert.deepEqual(result, { kind: "refused", reason: "untrusted" });
    const state = await vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
    assert.equal(state.lastMessage, undefined, `the results panel got ${JSON.stringify(state.lastMessage)?.slice(0, 200)}`);
  });

  it("refuses Debug program… (its args would run the file's TypeScript)", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    assert.equal(await vscode.commands.executeCommand<boolean>("kernelLab.debugProgram", document.uri, "smallAdd"), false);
    assert.equal(vscode.debug.activeDebugSession, undefined);
  });

  it("refuses Debug program… on a Python kernel (the script would run up to its launch)", async () => {
    const document = await openFixture("vector-add.py");
    const lenses = await waitFor("the Python file's Debug program… lens", async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", document.uri);
      return found?.some((l) => l.command?.title === "Debug program…") ? found : undefined;
    });
    const debug = lenses.find((l) => l.command?.title === "Debug program…");
    assert.equal(debug?.command?.command, "kernelLab.debugProgram");
    assert.equal(await vscode.commands.executeCommand<boolean>("kernelLab.debugProgram", ...(debug?.command?.arguments ?? [])), false);
    assert.equal(vscode.debug.activeDebugSession, undefined);
  });
});

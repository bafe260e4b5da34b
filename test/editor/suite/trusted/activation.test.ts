/// <reference types="mocha" />
import * as assert from "node:assert/strict";
import { realpathSync } from "node:fs";
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../../src/editor/extension";
import { extensionId } from "../kernel-lab";

const commands = ["kernelLab.runKernel", "kernelLab.sweepKernel", "kernelLab.retuneKernel", "kernelLab.showWgsl", "kernelLab.showResults", "kernelLab.debugProgram", "kernelLab.openExercise", "kernelLab.showHint", "kernelLab.showSolution"];

describe("activation", () => {
  it("the extension is loaded under the id in package.json", () => {
    assert.ok(vscode.extensions.getExtension(extensionId), `${extensionId} is not loaded`);
  });

  it("is the copy under test: the folder installed from the .vsix when the run installed one", () => {
    // test/editor/run.mjs says which folder it passed as extensionDevelopmentPath.
    const expected = process.env.KERNEL_LAB_EXTENSION_UNDER_TEST;
    assert.ok(expected, "KERNEL_LAB_EXTENSION_UNDER_TEST is not set (run the suites through test/editor/run.mjs)");
    const loaded = vscode.extensions.all.filter((e) => e.id.toLowerCase() === extensionId.toLowerCase());
    assert.deepEqual(loaded.map((e) => realpathSync(e.extensionPath)), [realpathSync(expected)]);
    console.log(`      loaded from ${loaded[0].extensionPath}`);
  });

  it("activates in a workspace with *.kernel.ts files and reports its activation time", async () => {
    const extension = vscode.extensions.getExtension<KernelLabApi>(extensionId)!;
    const api = await extension.activate();
    assert.equal(extension.isActive, true);
    assert.equal(typeof api?.activationMs, "number", `activate() returned ${JSON.stringify(api)}`);
    console.log(`      activation took ${api.activationMs.toFixed(1)} ms`);
  });

  it("registers the Kernel Lab commands", async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(commands.filter((c) => !registered.has(c)), []);
  });
});

/// <reference types="mocha" />
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../../src/editor/extension";
import { extensionId } from "../kernel-lab";

const commands = ["kernelLab.runKernel", "kernelLab.sweepKernel", "kernelLab.retuneKernel", "kernelLab.showWgsl", "kernelLab.showResults", "kernelLab.debugProgram"];

describe("activation", () => {
  it("the extension is loaded under the id in package.json", () => {
    assert.ok(vscode.extensions.getExtension(extensionId), `${extensionId} is not loaded`);
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

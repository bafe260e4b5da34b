/// <reference types="mocha" />
// Run Kernel and Sweep Kernel through their commands, on lavapipe (or whatever GPU Dawn finds):
// the command returns the run's outcome, and the results webview acknowledges what it drew.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PanelState } from "../../../../src/editor/results-panel";
import type { RunCommandResult } from "../../../../src/editor/run-controller";
import { openFixture, waitFor } from "../editor-wait";

async function renderedResults(runs: number): Promise<NonNullable<PanelState["lastRendered"]>> {
  return waitFor(`the results panel to draw ${runs} run(s)`, async () => {
    const state = await vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
    const rendered = state?.lastRendered;
    return rendered?.messageType === "results" && rendered.runs === runs ? rendered : undefined;
  });
}

describe("Run Kernel", function () {
  this.timeout(120_000);

  it("runs vector-add.kernel.ts: correct, timed, and drawn in the results panel", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, "smallAdd");
    assert.equal(result?.kind, "completed", `outcome: ${JSON.stringify(result).slice(0, 600)}`);
    if (result.kind !== "completed") return;
    assert.equal(result.outcome, "ok", `report: ${JSON.stringify(result.report).slice(0, 1500)}`);
    const [run] = result.report.runs;
    assert.equal(run.name, "smallAdd");
    assert.equal(run.size, 10_000);
    assert.equal(run.correct, true);
    assert.equal(run.mismatches, 0);
    assert.ok(run.timing && run.timing.medianMs > 0, `timing: ${JSON.stringify(run.timing)}`);
    console.log(`      ${result.report.adapter?.device}: median ${run.timing?.medianMs} ms`);

    const rendered = await renderedResults(1);
    assert.deepEqual(rendered.verdicts, ["match"]);
    const state = await vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
    assert.equal(state.visible, true);
  });

  it("sweeps every size of the run and draws the plot", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.sweepKernel", document.uri, "smallAdd");
    assert.equal(result?.kind, "completed", `outcome: ${JSON.stringify(result).slice(0, 600)}`);
    if (result.kind !== "completed") return;
    assert.deepEqual(result.report.runs.map((r) => r.size), [10_000, 1_000, 33_333]);
    assert.ok(result.report.runs.every((r) => r.correct));
    const rendered = await renderedResults(3);
    assert.deepEqual(rendered.verdicts, ["match", "match", "match"]);
    assert.equal(rendered.chart, true);
  });

  it("Retune Kernel times every config again; Run Kernel then takes the cached choice", async () => {
    const document = await openFixture("tuned-add.kernel.ts");
    const autotuneOf = async (command: string) => {
      const result = await vscode.commands.executeCommand<RunCommandResult>(command, document.uri, "tunedAdd");
      assert.equal(result?.kind, "completed", `outcome: ${JSON.stringify(result).slice(0, 600)}`);
      if (result.kind !== "completed") throw new Error("not completed");
      const [run] = result.report.runs;
      assert.equal(run.correct, true);
      assert.ok(run.autotune, `no autotune in ${JSON.stringify(run).slice(0, 600)}`);
      return run.autotune;
    };
    const retuned = await autotuneOf("kernelLab.retuneKernel");
    assert.equal(retuned.cached, false);
    assert.equal(retuned.candidates.length, 2);
    assert.ok(retuned.candidates.every((c) => c.correct && c.medianMs !== null && c.medianMs > 0), JSON.stringify(retuned.candidates));
    const cached = await autotuneOf("kernelLab.runKernel");
    assert.equal(cached.cached, true, "the next Run Kernel takes the choice Retune Kernel wrote");
    assert.deepEqual(cached.picked, retuned.picked);
    assert.equal((await autotuneOf("kernelLab.retuneKernel")).cached, false, "Retune Kernel ignores the cached choice");
    await renderedResults(1);
  });

  it("keeps a history: the second run of a kernel says how it compares with the first", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    for (let i = 0; i < 2; i++) {
      const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, "smallAdd");
      assert.equal(result?.kind, "completed", `outcome: ${JSON.stringify(result).slice(0, 600)}`);
    }
    const rendered = await renderedResults(1);
    assert.equal(rendered.history?.length, 1, JSON.stringify(rendered));
    assert.match(rendered.history?.[0] ?? "", /^(\d+\.\d+× (faster|slower) than|as fast as) the last run \(\d\d:\d\d\)$/);
  });

  it("Show WGSL returns the generated WGSL of the file's kernel", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const shown = await vscode.commands.executeCommand<{ text: string } | undefined>("kernelLab.showWgsl", document.uri);
    assert.ok(shown?.text.includes("@compute"), `showWgsl returned ${JSON.stringify(shown)?.slice(0, 300)}`);
  });
});

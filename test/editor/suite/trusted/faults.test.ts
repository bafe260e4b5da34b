/// <reference types="mocha" />
// Faults inside the real editor, through the extension's commands: an endless loop stopped at
// kernelLab.timeoutSeconds, the worker killed with SIGKILL mid-run, a cancelled run — each
// reported, no process left behind, and the next run works without restarting anything. Running
// never modifies the kernel file; the results on screen stay until a run replaces them; the
// results panel ignores (and logs) malformed messages from its webview.
import * as assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { ResultsPanel, type PanelState } from "../../../../src/editor/results-panel";
import type { RunCommandResult } from "../../../../src/editor/run-controller";
import { openFixture, waitFor } from "../editor-wait";
import { alive, workerPids } from "../workers";

const Global = vscode.ConfigurationTarget.Global;

function sha(uri: vscode.Uri): string {
  return createHash("sha256").update(readFileSync(uri.fsPath)).digest("hex");
}

function run(document: vscode.TextDocument, runName: string): Thenable<RunCommandResult> {
  return vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, runName);
}

async function panelState(): Promise<PanelState> {
  return vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
}

/** The editor still works: vector-add runs, matches, and is drawn. */
async function nextRunWorks(): Promise<void> {
  const document = await openFixture("vector-add.kernel.ts");
  const result = await run(document, "smallAdd");
  assert.equal(result?.kind, "completed", `the next run: ${JSON.stringify(result).slice(0, 400)}`);
  if (result.kind === "completed") assert.equal(result.outcome, "ok");
  await waitFor("the panel to draw the next run", async () => (await panelState()).lastRendered?.messageType === "results" || undefined);
}

describe("faults in the editor", function () {
  this.timeout(180_000);

  afterEach(async () => {
    await vscode.workspace.getConfiguration("kernelLab").update("timeoutSeconds", undefined, Global);
  });

  it("an endless loop is stopped at kernelLab.timeoutSeconds and reported; the next run works", async () => {
    await vscode.workspace.getConfiguration("kernelLab").update("timeoutSeconds", 3, Global);
    const document = await openFixture("faults/endless-loop.kernel.ts");
    const before = sha(document.uri);
    const started = Date.now();
    const result = await run(document, "endless");
    // The worker stops the launch itself and answers (KL3900); were it hung in the driver, the
    // editor would kill it 2 s later and report "timed-out".
    assert.ok(result.kind === "completed" || result.kind === "timed-out", JSON.stringify(result).slice(0, 400));
    if (result.kind === "completed") {
      assert.equal(result.outcome, "failure");
      assert.equal(result.report.diagnostics[0]?.code, "KL3900");
      assert.match(result.report.diagnostics[0].message, /^Run 'endless' \(size 256\) did not finish within 3 s/);
    }
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
    await waitFor("the worker to be gone", () => workerPids().length === 0 || undefined, 10_000);
    assert.equal(sha(document.uri), before);
    await nextRunWorks();
  });

  it("a worker killed with SIGKILL mid-run is reported as crashed; the next run works", async () => {
    const document = await openFixture("faults/endless-loop.kernel.ts");
    const pending = run(document, "endless");
    const pid = await waitFor("the worker to start", () => workerPids()[0]);
    // Let it reach the GPU, then kill it as a driver crash would.
    await waitFor("the launch", async () => ((await panelState()).lastMessage?.type === "running" ? true : undefined));
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(pid, "SIGKILL");
    const result = await pending;
    assert.equal(result.kind, "crashed", JSON.stringify(result).slice(0, 400));
    if (result.kind === "crashed") assert.equal(result.signal, "SIGKILL");
    const state = await panelState();
    assert.equal(state.lastMessage?.type, "failed");
    if (state.lastMessage?.type === "failed") assert.match(state.lastMessage.title, /crashed/);
    assert.equal(alive(pid), false);
    await nextRunWorks();
  });

  it("Cancel Run stops the worker: no process is left, the file is unchanged", async () => {
    const document = await openFixture("faults/endless-loop.kernel.ts");
    const before = sha(document.uri);
    const pending = run(document, "endless");
    const pid = await waitFor("the worker to start", () => workerPids()[0]);
    await new Promise((r) => setTimeout(r, 1000));
    await vscode.commands.executeCommand("kernelLab.cancelRun");
    assert.deepEqual(await pending, { kind: "cancelled" });
    await waitFor(`worker ${pid} to be gone`, () => !alive(pid) || undefined, 5_000);
    assert.deepEqual(workerPids(), []);
    assert.equal(sha(document.uri), before);
    await nextRunWorks();
  });

  it("running never modifies the kernel file: a good run, a compile error, a bad run definition", async () => {
    for (const [file, runName, outcome] of [
      ["vector-add.kernel.ts", "smallAdd", "ok"],
      ["faults/compile-error.kernel.ts", "loopRun", "compile-error"],
      ["faults/bad-run.kernel.ts", "missingArg", "failure"],
    ] as const) {
      const document = await openFixture(file);
      const before = sha(document.uri);
      const result = await run(document, runName);
      assert.equal(result.kind, "completed", `${file}: ${JSON.stringify(result).slice(0, 300)}`);
      if (result.kind === "completed") assert.equal(result.outcome, outcome, file);
      assert.equal(sha(document.uri), before, `${file} changed on disk`);
      assert.equal(document.isDirty, false, `${file} is dirty`);
    }
  });

  it("results stay on screen until a run replaces them", async () => {
    await nextRunWorks();
    const shown = (await panelState()).lastMessage;
    assert.equal(shown?.type, "results");
    // A refused run (not a kernel file) and reopening the panel leave them as they were.
    const refused = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", vscode.Uri.file("/nonexistent/readme.md"));
    assert.equal(refused.kind, "refused");
    assert.deepEqual((await panelState()).lastMessage, shown);
  });

  it("the results panel ignores malformed messages from its webview, and logs them", async () => {
    const warnings: string[] = [];
    const log = { warn: (m: string) => warnings.push(m), debug: () => {}, info: () => {}, error: () => {}, trace: () => {} } as unknown as vscode.LogOutputChannel;
    const extension = vscode.extensions.all.find((e) => e.packageJSON.name === "kernel-lab");
    assert.ok(extension);
    // This bundle's own copy of the class: a second, real webview panel with a log we can read.
    const panel = ResultsPanel.show(extension.extensionUri, log, () => assert.fail("a malformed reveal was obeyed"));
    try {
      const receive = (m: unknown) => (panel as unknown as { receive(m: unknown): void }).receive(m);
      const malformed: unknown[] = [
        null,
        "ready",
        42,
        { type: "nope" },
        { type: "reveal", line: "1", column: 1 },
        { type: "reveal" },
        { type: "rendered", messageType: "results", runs: "3", verdicts: [], chart: false },
        { type: "rendered", messageType: "evil", runs: 1, verdicts: [], chart: false },
        { type: "__proto__" },
        { type: "toString" },
      ];
      for (const m of malformed) receive(m);
      assert.equal(warnings.length, malformed.length, warnings.join("\n"));
      assert.ok(warnings.every((w) => w.startsWith("results panel: ignored a malformed message")));
      assert.equal(ResultsPanel.state().lastRendered, undefined);
      receive({ type: "rendered", messageType: "results", runs: 1, verdicts: ["match"], chart: false });
      assert.equal(ResultsPanel.state().lastRendered?.runs, 1);
    } finally {
      panel.dispose();
    }
  });
});

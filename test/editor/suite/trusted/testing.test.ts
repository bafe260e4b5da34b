/// <reference types="mocha" />
// The Testing view: items discovered from the workspace's kernel files, runs started the way a
// person starts them (Run Test at Cursor, through the workbench's test service), and what each
// item was told — read back through the extension's API, since the Testing API can't.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../../src/editor/extension";
import type { KernelTestsProbe, TestItemSnapshot } from "../../../../src/editor/kernel-tests";
import type { RecordedResult } from "../../../../src/editor/test-results";
import { openFixture, rangeOf, waitFor } from "../editor-wait";
import { extensionId } from "../kernel-lab";
import { alive, workerPids } from "../workers";

let probe: KernelTestsProbe;

function find(items: readonly TestItemSnapshot[], label: string): TestItemSnapshot | undefined {
  for (const item of items) {
    if (item.label === label) return item;
    const inner = find(item.children, label);
    if (inner) return inner;
  }
  return undefined;
}

function describeResult(id: string): string {
  return JSON.stringify(probe.results()[id] ?? "no result");
}

/** Puts the cursor on `snippet` in the document and runs the test there, as Ctrl+; C does. */
async function runAtCursor(document: vscode.TextDocument, snippet: string): Promise<void> {
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const at = rangeOf(document, snippet).start;
  editor.selection = new vscode.Selection(at, at);
  const before = probe.runsEnded();
  await vscode.commands.executeCommand("testing.runAtCursor");
  await waitFor("the test run to end", () => probe.runsEnded() > before || undefined, 90_000);
}

async function settled(id: string): Promise<RecordedResult> {
  return waitFor(`a final result for ${id}`, () => {
    const result = probe.results()[id];
    return result && !["enqueued", "started"].includes(result.state) ? result : undefined;
  });
}

describe("Testing view", function () {
  this.timeout(120_000);

  before(async () => {
    const api = await vscode.extensions.getExtension<KernelLabApi>(extensionId)!.activate();
    assert.ok(api.tests, "the extension's API has no tests probe");
    probe = api.tests;
  });

  it("discovers every defineRun of the workspace's kernel files, a child per literal size", async () => {
    // Opening the view makes it ask for every test (resolveHandler(undefined)).
    await vscode.commands.executeCommand("workbench.view.testing.focus");
    const items = await waitFor("the Testing view to list the workspace's kernel files", () => {
      const now = probe.items();
      return ["vector-add.kernel.ts", "testing/scale.kernel.ts", "testing/wrong-sign.kernel.ts", "testing/two-stores.kernel.ts", "broken/math-call.kernel.ts"].every((l) => find(now, l))
        ? now
        : undefined;
    });
    const labels = items.map((i) => i.label);
    for (const expected of ["tuned-add.kernel.ts", "faults/bad-run.kernel.ts", "broken/while-loop.kernel.ts"]) {
      assert.ok(labels.includes(expected), `no ${expected} among ${JSON.stringify(labels)}`);
    }

    const vectorAdd = await openFixture("vector-add.kernel.ts");
    const smallAdd = find(items, "smallAdd")!;
    assert.equal(smallAdd.line, rangeOf(vectorAdd, "defineRun(").start.line, "the run's item starts at its defineRun (the gutter button)");
    assert.equal(smallAdd.description, "3 sizes");
    assert.deepEqual(smallAdd.children.map((c) => c.label), ["n = 10000", "n = 1000", "n = 33333"]);
    assert.ok(smallAdd.children.every((c) => c.line === rangeOf(vectorAdd, "sizes:").start.line), "size items sit on the sizes line");

    const scaleComputed = find(items, "scaleComputed")!;
    assert.deepEqual(scaleComputed.children, [], "computed sizes are not known before a run");
    assert.equal(find(items, "wrongSign")?.description, "n = 1000");
  });

  it("runs a passing run from its defineRun: each size passes, with its duration", async () => {
    const document = await openFixture("testing/scale.kernel.ts");
    await runAtCursor(document, "kernel: scale_kernel,\n  sizes: [1000, 4097]");
    const sweep = find(probe.items(), "scaleSweep")!;
    for (const child of sweep.children) {
      const result = await settled(child.id);
      assert.equal(result.state, "passed", describeResult(child.id));
      assert.ok(result.durationMs !== undefined && result.durationMs > 0, `duration of ${child.label}: ${result.durationMs}`);
    }
    assert.equal(sweep.children.length, 2);
  });

  it("a run whose sizes are computed gets a child item per size after its first run", async () => {
    const document = await openFixture("testing/scale.kernel.ts");
    await runAtCursor(document, "sizes: COMPUTED_SIZES");
    const computed = await waitFor("scaleComputed's size items", () => {
      const item = find(probe.items(), "scaleComputed");
      return item && item.children.length > 0 ? item : undefined;
    });
    assert.deepEqual(computed.children.map((c) => c.label), ["n = 301", "n = 601"]);
    for (const child of computed.children) assert.equal((await settled(child.id)).state, "passed", describeResult(child.id));
    assert.equal((await settled(computed.id)).state, "passed");
  });

  it("a mismatching run fails with got/expected, the output and its index, at the tl.store", async () => {
    const document = await openFixture("testing/wrong-sign.kernel.ts");
    await runAtCursor(document, "kernel: add_kernel");
    const item = find(probe.items(), "wrongSign")!;
    const result = await settled(item.id);
    assert.equal(result.state, "failed", describeResult(item.id));
    const [message] = result.messages;
    // Most of the 1000 elements differ: x - y against x + y, with y from rand(); an element whose y is
    // within the tolerance of 0 (about one run in twenty has one) matches.
    assert.match(message.text, /^out_ptr\[\d+\] = -?[\d.e-]+, expected [\d.e-]+ \(n = 1000\)\n(99\d|1000) elements differ/, message.text);
    assert.equal(message.file, document.uri.fsPath);
    assert.equal(message.line, rangeOf(document, "tl.store(out, x - y, mask)").start.line, "the message sits at the store that wrote the output");
  });

  it("of two tl.store calls to one output, the message sits at the second, which wrote the wrong element", async () => {
    const document = await openFixture("testing/two-stores.kernel.ts");
    await runAtCursor(document, "kernel: two_stores_kernel");
    const item = find(probe.items(), "secondStoreWrong")!;
    const result = await settled(item.id);
    assert.equal(result.state, "failed", describeResult(item.id));
    const [message] = result.messages;
    const differ = /^out_ptr\[256\] = [\d.e-]+, expected [\d.e-]+ \(n = 1000\)\n(\d+) elements differ/.exec(message.text);
    assert.ok(differ, message.text);
    // 744 elements are written ×3 where ×2 is expected; one whose rand() x is within the tolerance of 0 matches (CI saw 743).
    assert.ok(Number(differ[1]) >= 730 && Number(differ[1]) <= 744, message.text);
    assert.equal(message.file, document.uri.fsPath);
    const first = rangeOf(document, "tl.store(out_ptr + offsets, x * 2, mask && pid < 2)");
    const second = rangeOf(document, "tl.store(out_ptr + offsets, x * 3, mask && pid >= 2)");
    assert.notEqual(first.start.line, second.start.line);
    assert.deepEqual([message.line, message.character], [second.start.line, second.start.character], "the message sits at the second store");
  });

  it("a kernel that does not compile is errored with its diagnostic at its range", async () => {
    const document = await openFixture("broken/math-call.kernel.ts");
    await runAtCursor(document, "kernel: exp_kernel");
    const item = find(probe.items(), "expRun")!;
    const result = await settled(item.id);
    assert.equal(result.state, "errored", describeResult(item.id));
    const diagnostic = result.messages.find((m) => m.text.startsWith("KL1004:"));
    assert.ok(diagnostic, JSON.stringify(result.messages));
    const range = rangeOf(document, "Math.exp(x)");
    assert.deepEqual([diagnostic.line, diagnostic.character], [range.start.line, range.start.character]);
    // In its own file: the worker reports it relative to the workspace folder.
    assert.equal(diagnostic.file, document.uri.fsPath);
  });

  it("Cancel Test Run stops the run's worker and leaves its item skipped", async () => {
    const document = await openFixture("faults/endless-loop.kernel.ts");
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const at = rangeOf(document, "kernel: spin_kernel").start;
    editor.selection = new vscode.Selection(at, at);
    const item = find(probe.items(), "endless")!;
    const before = probe.runsEnded();
    const running = vscode.commands.executeCommand("testing.runAtCursor");
    await waitFor("the endless run to start", () => probe.results()[item.id]?.state === "started" || undefined);
    const [pid] = await waitFor("its worker", () => (workerPids().length > 0 ? workerPids() : undefined));
    await vscode.commands.executeCommand("testing.cancelRun");
    await waitFor("the test run to end", () => probe.runsEnded() > before || undefined, 10_000);
    await running;
    assert.equal(probe.results()[item.id]?.state, "skipped", describeResult(item.id));
    await waitFor(`worker ${pid} to be gone`, () => !alive(pid) || undefined, 5_000);
  });

  it("follows the text as it is typed: a size added to a sweep is a new item", async () => {
    const document = await openFixture("testing/scale.kernel.ts");
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, rangeOf(document, "[1000, 4097]"), "[1000, 4097, 77]");
    assert.ok(await vscode.workspace.applyEdit(edit));
    try {
      const sweep = await waitFor("the new size's item", () => {
        const item = find(probe.items(), "scaleSweep");
        return item?.children.length === 3 ? item : undefined;
      });
      assert.equal(sweep.children[2].label, "n = 77");
    } finally {
      await vscode.commands.executeCommand("workbench.action.files.revert");
    }
    await waitFor("the items after the revert", () => find(probe.items(), "scaleSweep")?.children.length === 2 || undefined);
  });
});

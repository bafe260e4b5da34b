/// <reference types="mocha" />
// The Testing view in restricted mode: the items are there (found from the text, nothing runs).
// Before it runs a test the workbench itself asks for trust (a dialog, which tests can't answer),
// so the run profile's handler is called directly: it runs nothing and errors each item with why.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../../src/editor/extension";
import { openFixture, rangeOf, waitFor } from "../editor-wait";
import { extensionId } from "../kernel-lab";

describe("the Testing view in an untrusted workspace", function () {
  this.timeout(60_000);

  it("lists the runs, and running one errors with the reason instead of running it", async () => {
    const api = await vscode.extensions.getExtension<KernelLabApi>(extensionId)!.activate();
    const probe = api.tests!;
    const document = await openFixture("vector-add.kernel.ts");
    const item = await waitFor("smallAdd's item", () => probe.items().flatMap((f) => f.children).find((r) => r.label === "smallAdd"));
    assert.equal(item.children.length, 3);

    const at = rangeOf(document, "defineRun(").start;
    await probe.run([item.id]);
    for (const size of item.children) {
      const result = probe.results()[size.id];
      assert.equal(result?.state, "errored", JSON.stringify(result));
      assert.match(result.messages[0].text, /only in a trusted workspace/);
      assert.equal(result.messages[0].line, at.line);
    }
  });
});

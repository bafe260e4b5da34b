/// <reference types="mocha" />
// What the editor shows inside a kernel body, through VS Code's own provider commands: inlay hints
// with the checker's dtype and block shape of each binding, the hover over a tl.* call with the
// shapes it got here, and TypeScript's completion and signature help of `tl.` from the package types.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { openFixture, rangeOf, waitFor } from "../editor-wait";

const SOFTMAX = "inspect/softmax.kernel.ts";

const hoverText = (hovers: vscode.Hover[]) =>
  hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : "value" in c ? c.value : ""))).join("\n---\n");

describe("inlay hints and hovers", () => {
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("softmax: an inlay hint after each binding with its dtype and block shape", async () => {
    const document = await openFixture(SOFTMAX);
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const hints = await waitFor("inlay hints", async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>("vscode.executeInlayHintProvider", document.uri, whole);
      return found.length > 0 ? found : undefined;
    });
    const shown = hints.map((h) => `${document.getText(document.getWordRangeAtPosition(h.position.translate(0, -1)))}${typeof h.label === "string" ? h.label : h.label.map((p) => p.value).join("")}`);
    for (const want of ["row_idx: i32", "col_offsets: i32[1024]", "input_ptrs: Ptr<f32>[1024]", "mask: bool[1024]", "row: f32[1024]", "denominator: f32"]) {
      assert.ok(shown.includes(want), `${want} in ${JSON.stringify(shown)}`);
    }
    const mask = hints.find((h) => h.position.isEqual(rangeOf(document, "mask =").start.translate(0, 4)));
    assert.ok(mask, "the hint sits right after the name");
    assert.equal(mask.kind, vscode.InlayHintKind.Type);
  });

  it("the hints follow an edit: a wider block after changing the run's BLOCK_SIZE", async () => {
    const document = await openFixture(SOFTMAX);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, rangeOf(document, "BLOCK_SIZE: 1024 }"), "BLOCK_SIZE: 2048 }");
    assert.ok(await vscode.workspace.applyEdit(edit));
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    await waitFor("a hint with 2048", async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>("vscode.executeInlayHintProvider", document.uri, whole);
      return found.some((h) => h.label === ": i32[2048]") || undefined;
    });
  });

  it("hover over tl.max: the shapes it got here and its Triton name", async () => {
    const document = await openFixture(SOFTMAX);
    const at = rangeOf(document, "tl.max").start.translate(0, 4);
    const text = await waitFor("a hover with the shapes", async () => {
      const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", document.uri, at));
      return t.includes("tl.max(row: f32[1024], 0) → f32") ? t : undefined;
    });
    assert.match(text, /Triton `tl\.max`/);
    // What it does is TypeScript's own hover, from the doc comment in types/kernel-lab.d.ts.
    await waitFor("TypeScript's hover with the doc comment", async () => {
      const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", document.uri, at));
      return t.includes("Maximum along `axis`") || undefined;
    }, 60_000);
  });

  it("hover over a use of a binding shows its type", async () => {
    const document = await openFixture(SOFTMAX);
    const at = rangeOf(document, "row_minus_max)").start.translate(0, 2);
    await waitFor("a hover with row_minus_max's type", async () => {
      const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", document.uri, at));
      return t.includes("row_minus_max: f32[1024]") || undefined;
    });
  });

  it("completion after `tl.` and signature help come from the package's types", async () => {
    const document = await openFixture(SOFTMAX);
    const line = rangeOf(document, "const numerator").start.line;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(document.uri, new vscode.Position(line, 0), "  tl.\n");
    assert.ok(await vscode.workspace.applyEdit(edit));
    const after = new vscode.Position(line, 5);
    // tsserver starts on the first TypeScript document; give it time.
    const labels = await waitFor(
      "tl.* completions from TypeScript",
      async () => {
        const list = await vscode.commands.executeCommand<vscode.CompletionList>("vscode.executeCompletionItemProvider", document.uri, after, ".");
        const names = list.items.map((i) => (typeof i.label === "string" ? i.label : i.label.label));
        return names.includes("programId") ? names : undefined;
      },
      60_000,
    );
    for (const want of ["programId", "arange", "load", "store", "sum", "max"]) assert.ok(labels.includes(want), `${want} in ${labels.join(", ")}`);

    const call = new vscode.WorkspaceEdit();
    call.insert(document.uri, after, "sum(");
    assert.ok(await vscode.workspace.applyEdit(call));
    const help = await waitFor("signature help of tl.sum", async () => {
      const h = await vscode.commands.executeCommand<vscode.SignatureHelp | undefined>("vscode.executeSignatureHelpProvider", document.uri, after.translate(0, 4), "(");
      return h && h.signatures.length > 0 ? h : undefined;
    });
    // Triton's parameter names (`input`, then `axis`, which also takes the keyword object).
    assert.match(help.signatures[0].label, /sum\(input: number, axis\?: number\b/);
  });
});

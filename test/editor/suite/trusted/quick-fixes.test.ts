/// <reference types="mocha" />
// Quick fixes in the real editor: the light bulb's actions for a Kernel Lab diagnostic, asked for
// as VS Code asks (vscode.executeCodeActionProvider) and applied as it applies them
// (workspace.applyEdit); the file then checks clean. Which fixes exist, and their edits, are
// test/unit/quick-fixes.test.ts's table; this is the path through the editor.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { describeDiagnostics, kernelLabDiagnostics, openFixture, waitFor } from "../editor-wait";

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === "object" ? d.code.value : d.code);

async function diagnosticsWith(document: vscode.TextDocument, code: string, count = 1): Promise<vscode.Diagnostic[]> {
  return waitFor(`${count} ${code} on ${document.fileName}`, () => {
    const found = kernelLabDiagnostics(document.uri).filter((d) => codeOf(d) === code);
    return found.length === count ? found : undefined;
  });
}

async function quickFixes(document: vscode.TextDocument, diagnostic: vscode.Diagnostic): Promise<vscode.CodeAction[]> {
  const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", document.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
  // Ours run kernelLab.quickFixApplied after their edit (TypeScript's own fixes may be listed too).
  return actions.filter((a) => a.command?.command === "kernelLab.quickFixApplied" && a.command.arguments?.[0] === codeOf(diagnostic));
}

async function apply(action: vscode.CodeAction): Promise<void> {
  assert.ok(action.edit, `${action.title} has no edit`);
  assert.ok(await vscode.workspace.applyEdit(action.edit), `${action.title} was not applied`);
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

describe("quick fixes", function () {
  this.timeout(60_000);

  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  it("Math.exp in a kernel: 'Change to tl.exp', preferred, and the file checks clean", async () => {
    const document = await openFixture("broken/math-call.kernel.ts");
    const [diagnostic] = await diagnosticsWith(document, "KL1004");
    const actions = await quickFixes(document, diagnostic);
    assert.deepEqual(actions.map((a) => [a.title, a.isPreferred]), [["Change to tl.exp", true]]);
    await apply(actions[0]);
    assert.match(document.getText(), /tl\.store\(out_ptr \+ offsets, tl\.exp\(x\), mask\);/);
    await waitFor("no diagnostics after the fix", () => (kernelLabDiagnostics(document.uri).length === 0 ? true : undefined));
  });

  it("loads and a store without their mask: KL2075 on each, 'Add the mask offsets < n_elements' on each, then clean", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const edit = new vscode.WorkspaceEdit();
    const text = document.getText();
    for (let at = text.indexOf(", mask)"); at >= 0; at = text.indexOf(", mask)", at + 1)) {
      edit.delete(document.uri, new vscode.Range(document.positionAt(at), document.positionAt(at + ", mask".length)));
    }
    assert.ok(await vscode.workspace.applyEdit(edit));
    for (let left = 3; left > 0; left--) {
      const [diagnostic] = await diagnosticsWith(document, "KL2075", left);
      assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Warning);
      const actions = await quickFixes(document, diagnostic);
      assert.deepEqual(actions.map((a) => a.title), ["Add the mask offsets < n_elements"], describeDiagnostics([diagnostic]));
      await apply(actions[0]);
    }
    await waitFor("no diagnostics once every access is masked", () => (kernelLabDiagnostics(document.uri).length === 0 ? true : undefined));
    assert.equal((document.getText().match(/offsets < n_elements\)/g) ?? []).length, 3);
  });
});

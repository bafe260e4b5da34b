/// <reference types="mocha" />
// Live diagnostics in the real editor: each broken fixture shows its diagnostic with the
// compiler's code, message and exact range, and it clears once an edit fixes the mistake; a Python
// kernel's diagnostic inside another module follows that module's saves.
import * as assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import { describeDiagnostics, kernelLabDiagnostics, openFixture, rangeOf, waitFor } from "../editor-wait";

interface BrokenFixture {
  file: string;
  code: string;
  message: RegExp;
  /** The source text the diagnostic must cover exactly. */
  at: string;
  /** Related locations, each by the text it covers (`at`, first found inside the first `within`). */
  related?: { within: string; at: string; message: RegExp }[];
  /** An edit that fixes the mistake: replace `at` with this. */
  fix: string;
}

const broken: BrokenFixture[] = [
  {
    file: "broken/math-call.kernel.ts",
    code: "KL1004",
    message: /^Math\.exp runs on the CPU; in a kernel use tl\.exp$/,
    at: "Math.exp(x)",
    fix: "tl.exp(x)",
  },
  {
    file: "broken/shape-mismatch.kernel.ts",
    code: "KL2001",
    message: /shapes \[64\] and \[128\] don't match/,
    at: "x + y",
    related: [
      { within: "x + y", at: "x", message: /^this is f32\[64\]$/ },
      { within: "x + y", at: "y", message: /^this is f32\[128\]$/ },
    ],
    fix: "x + x",
  },
  {
    file: "broken/while-loop.kernel.ts",
    code: "KL1003",
    message: /^do…while loops aren't supported in kernels; use while \(cond\)/,
    at: "do {\n    i += 1;\n  } while (i < n);",
    fix: "while (i < n) {\n    i += 1;\n  }",
  },
  {
    // A kernel file as torch.compile writes it: its helpers come from Kernel Lab's own torch._inductor (the
    // extension's dist/python-lib/), so a name that module lacks is named with the nearest, and the rest of
    // the file (libdevice, tl_math, the @triton_heuristics decorator) has nothing to say.
    file: "inductor/softmax-typo.py",
    code: "KL1104",
    message: /^triton_helpers \(\S*python-lib\S*triton_helpers\.py\) has no @triton\.jit function 'max3'; did you mean triton_helpers\.max2\?$/,
    at: "triton_helpers.max3",
    fix: "triton_helpers.max2",
  },
];

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === "object" ? d.code.value : d.code);
const sameRange = (a: vscode.Range, b: vscode.Range) => a.isEqual(b);

describe("diagnostics", () => {
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });

  for (const fixture of broken) {
    it(`${fixture.file}: ${fixture.code} at ${JSON.stringify(fixture.at.split("\n")[0])}, cleared by a fix`, async () => {
      const document = await openFixture(fixture.file);
      const expectedRange = rangeOf(document, fixture.at);
      const [diagnostic] = await waitFor(`${fixture.code} on ${fixture.file}`, () => {
        const found = kernelLabDiagnostics(document.uri).filter((d) => codeOf(d) === fixture.code);
        return found.length > 0 ? found : undefined;
      });
      const all = kernelLabDiagnostics(document.uri);
      assert.equal(all.length, 1, `exactly one diagnostic expected, got ${describeDiagnostics(all)}`);
      assert.match(diagnostic.message, fixture.message);
      assert.ok(sameRange(diagnostic.range, expectedRange), `range: got ${describeDiagnostics([diagnostic])}, want ${JSON.stringify(fixture.at)}`);
      assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);
      for (const related of fixture.related ?? []) {
        const within = rangeOf(document, related.within);
        const offset = document.offsetAt(within.start) + related.within.indexOf(related.at);
        const want = new vscode.Range(document.positionAt(offset), document.positionAt(offset + related.at.length));
        const match = diagnostic.relatedInformation?.find((r) => sameRange(r.location.range, want) && related.message.test(r.message));
        assert.ok(match, `no related location at ${JSON.stringify(related.at)}: ${JSON.stringify(diagnostic.relatedInformation)}`);
      }

      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, expectedRange, fixture.fix);
      assert.ok(await vscode.workspace.applyEdit(edit), "the fixing edit was not applied");
      await waitFor(`the diagnostics of ${fixture.file} to clear after the fix`, () =>
        kernelLabDiagnostics(document.uri).length === 0 ? true : undefined,
      );
    });
  }

  it("a Python kernel calling another module's broken @triton.jit function: the call squiggled, the helper's place in front and as the related location", async () => {
    const document = await openFixture("xmod/broken-call.py");
    const [diagnostic] = await waitFor("KL1005 on xmod/broken-call.py", () => {
      const found = kernelLabDiagnostics(document.uri).filter((d) => codeOf(d) === "KL1005");
      return found.length > 0 ? found : undefined;
    });
    assert.equal(kernelLabDiagnostics(document.uri).length, 1, describeDiagnostics(kernelLabDiagnostics(document.uri)));
    assert.ok(sameRange(diagnostic.range, rangeOf(document, "helpers.program_id")), describeDiagnostics([diagnostic]));
    assert.match(diagnostic.message, /^xmod\/xmod_broken\/helpers\.py:8:12: tl\.program_idx doesn't exist/);
    const [related] = diagnostic.relatedInformation ?? [];
    assert.ok(related?.location.uri.path.endsWith("/xmod/xmod_broken/helpers.py"), JSON.stringify(diagnostic.relatedInformation));
    assert.ok(related.location.range.isEqual(new vscode.Range(7, 11, 7, 25)), JSON.stringify(related.location.range));
  });

  it("saving an imported module re-checks the open Python kernel that imports it: the helper fixed and saved clears the kernel's diagnostic, broken and saved brings it back", async () => {
    // A copy outside the workspace, so the saves leave the fixtures as they are.
    const folder = mkdtempSync(path.join(os.tmpdir(), "kernel-lab-xmod-save-"));
    try {
      cpSync(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, "xmod").fsPath, folder, { recursive: true });
      const script = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, "broken-call.py")));
      await vscode.window.showTextDocument(script, { preview: false });
      const kl1005 = () => {
        const found = kernelLabDiagnostics(script.uri).filter((d) => codeOf(d) === "KL1005");
        return found.length > 0 ? found : undefined;
      };
      await waitFor("KL1005 on the copy of xmod/broken-call.py", kl1005);
      const helper = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(folder, "xmod_broken", "helpers.py")));
      await vscode.window.showTextDocument(helper, { preview: false });
      const replace = async (from: string, to: string) => {
        const edit = new vscode.WorkspaceEdit();
        edit.replace(helper.uri, rangeOf(helper, from), to);
        assert.ok(await vscode.workspace.applyEdit(edit), `the edit ${from} → ${to} was not applied`);
        assert.ok(await helper.save(), "the helper was not saved");
      };
      await replace("tl.program_idx(axis)", "tl.program_id(axis)");
      await waitFor("the kernel's diagnostics to clear after the helper's fix was saved", () =>
        kernelLabDiagnostics(script.uri).length === 0 ? true : undefined,
      );
      await replace("tl.program_id(axis)", "tl.program_idx(axis)");
      await waitFor("KL1005 back on the kernel after the helper was broken again and saved", kl1005);
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      await vscode.window.showTextDocument(script, { preview: false });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("Show WGSL of a Python kernel calling another module's helpers compiles them from that module (inductor's triton_helpers, from the extension)", async () => {
    const document = await openFixture("inductor/softmax-typo.py");
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, rangeOf(document, "triton_helpers.max3"), "triton_helpers.max2");
    assert.ok(await vscode.workspace.applyEdit(edit), "the edit was not applied");
    const shown = await vscode.commands.executeCommand<{ text: string } | undefined>("kernelLab.showWgsl", document.uri);
    assert.match(shown?.text ?? "", /@compute/, JSON.stringify(shown)?.slice(0, 300));
    await vscode.commands.executeCommand("workbench.action.closeEditorsInOtherGroups");
    await vscode.window.showTextDocument(document);
  });

  it("a valid kernel file has no kernel-lab diagnostics", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    // Give the checker time to run: the absence of diagnostics must not just be "not checked yet".
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(describeDiagnostics(kernelLabDiagnostics(document.uri)), "[]");
  });
});

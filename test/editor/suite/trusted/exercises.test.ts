/// <reference types="mocha" />
// Exercises: Open Exercise writes the stub into the workspace's exercises/ folder and never over a
// learner's file; a run of the stub fails against the hidden reference, a run of the solved file
// passes and marks the exercise solved (kept in the workspace state, read through the API); Show
// Hint gives one hint at a time and remembers them; Show Solution opens the solution read-only.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { exerciseNamed, solutionFile } from "../../../../src/exercises/course";
import type { KernelLabApi } from "../../../../src/editor/extension";
import type { OpenExerciseResult } from "../../../../src/editor/exercises/commands";
import type { ExercisesProbe } from "../../../../src/editor/exercises/progress";
import type { RunCommandResult } from "../../../../src/editor/run-controller";
import { waitFor } from "../editor-wait";
import { extensionId } from "../kernel-lab";

const ID = "puzzle-02";
const exercise = exerciseNamed(ID)!;

describe("Exercises", function () {
  this.timeout(120_000);
  let probe: ExercisesProbe;
  let uri: vscode.Uri;

  before(async () => {
    const api = await vscode.extensions.getExtension<KernelLabApi>(extensionId)!.activate();
    assert.ok(api.exercises, "the extension's API has no exercises probe");
    probe = api.exercises;
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const folder = vscode.workspace.workspaceFolders![0].uri;
    await vscode.workspace.fs.delete(vscode.Uri.joinPath(folder, "exercises"), { recursive: true, useTrash: false }).then(undefined, () => undefined);
  });

  it("Open Exercise writes the exercise into exercises/ and opens it; opened again, the learner's file is kept", async () => {
    const opened = await vscode.commands.executeCommand<OpenExerciseResult>("kernelLab.openExercise", ID);
    assert.equal(opened.kind, "opened", JSON.stringify(opened));
    if (opened.kind !== "opened") return;
    assert.equal(opened.created, true);
    uri = vscode.Uri.parse(opened.uri);
    assert.match(uri.path, /\/exercises\/puzzle-02-constant-add-block\.kernel\.ts$/);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), uri.toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    assert.match(text, /^\/\/ Kernel Lab exercise puzzle-02/);
    assert.ok(text.includes(exercise.stub) && text.includes('reference: exerciseReference("puzzle-02")'));

    // The learner types; Open Exercise again opens their file as it is.
    const document = await vscode.workspace.openTextDocument(uri);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), "// my notes\n");
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.ok(await document.save());
    const again = await vscode.commands.executeCommand<OpenExerciseResult>("kernelLab.openExercise", ID);
    assert.deepEqual(again, { ...opened, created: false });
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), /^\/\/ my notes\n/);
  });

  it("a run of the stub fails against the hidden reference; the solved file, run on the CPU interpreter (no GPU needed), passes and is marked solved", async () => {
    const stub = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", uri);
    assert.equal(stub.kind, "completed", JSON.stringify(stub).slice(0, 500));
    if (stub.kind !== "completed") return;
    assert.equal(stub.outcome, "mismatch");
    assert.equal(stub.report.runs[0].exercise, ID);
    assert.deepEqual(probe.solved(), []);

    const document = await vscode.workspace.openTextDocument(uri);
    const at = document.getText().indexOf(exercise.stub);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + exercise.stub.length)), exercise.solution);
    assert.ok(await vscode.workspace.applyEdit(edit));
    // kernelLab.backend = "cpu", as on a machine without a GPU (in the user's settings: the workspace is the repository's).
    const config = vscode.workspace.getConfiguration("kernelLab");
    await config.update("backend", "cpu", vscode.ConfigurationTarget.Global);
    try {
      const solved = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", uri);
      assert.equal(solved.kind === "completed" && solved.outcome, "ok", JSON.stringify(solved).slice(0, 800));
      assert.equal(solved.kind === "completed" && solved.report.adapter?.backend, "cpu");
    } finally {
      await config.update("backend", undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor("the exercise to be marked solved", () => probe.solved().includes(ID) || undefined);
  });

  it("Show Hint gives the next hint and remembers it; Show Solution opens the solution beside the file, read-only", async () => {
    const first = await vscode.commands.executeCommand<{ shown: number; hint: string }>("kernelLab.showHint", ID);
    const second = await vscode.commands.executeCommand<{ shown: number; hint: string }>("kernelLab.showHint", ID);
    assert.deepEqual([first.shown, first.hint, second.shown, second.hint], [1, exercise.hints[0], 2, exercise.hints[1]]);
    assert.equal(probe.hintsShown(ID), 2);

    const before = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    const shown = await vscode.commands.executeCommand<{ uri: string }>("kernelLab.showSolution", ID, { confirmed: true });
    const solution = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === shown.uri);
    assert.ok(solution, `no editor shows ${shown.uri}`);
    assert.equal(solution.document.uri.scheme, "kernel-lab-exercise");
    assert.equal(solution.document.getText(), solutionFile(exercise));
    // A content provider's document (the editor shows it read-only), not a file: the learner's file is untouched.
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)), before);
  });
});

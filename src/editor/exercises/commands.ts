// The exercise commands: Open Exercise… writes the exercise's file into the workspace (never over
// a file that is there: that one is opened as it is), Show Hint shows the next hint and remembers
// it, Show Solution asks first and then shows the solution beside the file, read-only (a
// document of its own scheme, so the learner's file is never touched). Files go through
// vscode.workspace.fs and Uris only: the same code runs in VS Code for the Web.

import * as vscode from "vscode";
import { exists } from "../file-exists";
import type { Exercise } from "../../exercises/exercise";
import { COURSE, exerciseFile, exerciseNamed, exerciseOfText, solutionFile } from "../../exercises/course";
import { pythonExerciseFile, pythonExerciseFileName } from "../../python/exercise";

/** The language new exercise files are written in (kernelLab.exerciseLanguage). */
function exerciseLanguage(): "typescript" | "python" {
  return vscode.workspace.getConfiguration("kernelLab").get<string>("exerciseLanguage") === "python" ? "python" : "typescript";
}
import type { ExerciseProgress } from "./progress";

/** The scheme of the read-only solution documents. */
export const SOLUTION_SCHEME = "kernel-lab-exercise";
/** Where exercises are written, in the workspace's first folder. */
export const EXERCISES_FOLDER = "exercises";

export type OpenExerciseResult =
  | { kind: "opened"; id: string; uri: string; created: boolean }
  | { kind: "refused"; reason: "no-folder" | "not-chosen" };

/** `arg`: an exercise id, a node of the Exercises view, or nothing (then a quick pick of the course). */
export async function openExercise(arg: unknown, progress: ExerciseProgress, log: vscode.LogOutputChannel): Promise<OpenExerciseResult> {
  const exercise = exerciseOf(arg) ?? (await pickExercise(progress, "Open Exercise…", "Which exercise? (Triton-Puzzles, then Triton's tutorials)"));
  if (!exercise) return { kind: "refused", reason: "not-chosen" };
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    const open = "Open Folder";
    void vscode.window
      .showErrorMessage("Kernel Lab: open a folder first; an exercise is a file written into it (exercises/…).", open)
      .then((choice) => choice === open && vscode.commands.executeCommand("workbench.action.files.openFolder"));
    return { kind: "refused", reason: "no-folder" };
  }
  const python = exerciseLanguage() === "python";
  const uri = vscode.Uri.joinPath(folder.uri, EXERCISES_FOLDER, python ? pythonExerciseFileName(exercise) : exercise.file);
  const created = !(await exists(uri));
  if (created) {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder.uri, EXERCISES_FOLDER));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(python ? pythonExerciseFile(exercise) : exerciseFile(exercise)));
    log.info(`wrote exercise ${exercise.id} to ${uri.toString(true)}`);
  }
  await vscode.window.showTextDocument(uri, { preview: false });
  return { kind: "opened", id: exercise.id, uri: uri.toString(), created };
}

export interface HintShown {
  id: string;
  /** How many of the exercise's hints are shown now (this one is the last of them). */
  shown: number;
  total: number;
  hint: string;
}

/** Shows the next hint of the exercise (of the active file, else the one picked); the Exercises view keeps every hint shown. */
export async function showHint(arg: unknown, progress: ExerciseProgress): Promise<HintShown | undefined> {
  const exercise = exerciseOf(arg) ?? exerciseOfActiveEditor() ?? (await pickExercise(progress, "Show Hint", "A hint for which exercise?"));
  if (!exercise) return undefined;
  const total = exercise.hints.length;
  const before = progress.hintsShown(exercise.id);
  const shown = before < total ? await progress.showNextHint(exercise.id, total) : total;
  const hint = exercise.hints[shown - 1];
  const more = shown < total ? "Next Hint" : "Show Solution";
  const prefix = before >= total ? `All ${total} hints are shown (the Exercises view lists them); the last: ` : `Hint ${shown} of ${total}: `;
  void vscode.window.showInformationMessage(`${exercise.title} — ${prefix}${hint}`, more).then((choice) => {
    if (choice === "Next Hint") void vscode.commands.executeCommand("kernelLab.showHint", exercise.id);
    if (choice === "Show Solution") void vscode.commands.executeCommand("kernelLab.showSolution", exercise.id);
  });
  return { id: exercise.id, shown, total, hint };
}

/**
 * Asks, then shows the exercise's solution beside the editor, read-only. `options.confirmed`
 * skips the question (integration tests: a modal dialog can't be answered through the API).
 */
export async function showSolution(arg: unknown, progress: ExerciseProgress, options?: unknown): Promise<{ id: string; uri: string } | undefined> {
  const exercise = exerciseOf(arg) ?? exerciseOfActiveEditor() ?? (await pickExercise(progress, "Show Solution", "The solution of which exercise?"));
  if (!exercise) return undefined;
  const confirmed = typeof options === "object" && options !== null && (options as { confirmed?: unknown }).confirmed === true;
  if (!confirmed) {
    const show = "Show Solution";
    const hintsLeft = exercise.hints.length - progress.hintsShown(exercise.id);
    const choice = await vscode.window.showWarningMessage(
      `Show the solution of ${exercise.series} ${exercise.number}, "${exercise.title}"?`,
      {
        modal: true,
        detail: `It opens beside your file, read-only; your file stays as it is.${hintsLeft > 0 ? ` ${hintsLeft} hint${hintsLeft === 1 ? "" : "s"} (Kernel Lab: Show Hint) would give less away.` : ""}`,
      },
      show,
    );
    if (choice !== show) return undefined;
  }
  // In the language of the file being worked on, else of the setting.
  const active = vscode.window.activeTextEditor?.document.uri.path;
  const uri = solutionUri(exercise, active ? active.endsWith(".py") : exerciseLanguage() === "python");
  const document = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  return { id: exercise.id, uri: uri.toString() };
}

/** The solutions' documents: generated from the course, never written anywhere. */
export class SolutionDocuments implements vscode.TextDocumentContentProvider {
  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    const exercise = exerciseNamed(uri.path.split("/")[1] ?? "");
    if (!exercise) return undefined;
    return uri.path.endsWith(".py") ? pythonExerciseFile(exercise, true) : solutionFile(exercise);
  }
}

function solutionUri(exercise: Exercise, python: boolean): vscode.Uri {
  // .ts, not .kernel.ts: the solution is to read, not to run (no Run lens, no Testing item); .py for a Python exercise.
  const name = python ? pythonExerciseFileName(exercise).replace(/\.py$/, ".solution.py") : exercise.file.replace(/\.kernel\.ts$/, ".solution.ts");
  return vscode.Uri.from({ scheme: SOLUTION_SCHEME, path: `/${exercise.id}/${name}` });
}

/** Says a run solved exercises, and offers the next unsolved one. */
export function announceSolved(ids: readonly string[], progress: ExerciseProgress): void {
  for (const id of ids) {
    const exercise = exerciseNamed(id);
    if (!exercise) continue;
    const after = COURSE.slice(COURSE.indexOf(exercise) + 1).concat(COURSE);
    const next = after.find((e) => !progress.isSolved(e.id));
    const action = next ? `Next: ${next.title}` : undefined;
    void vscode.window
      .showInformationMessage(`Kernel Lab: ✓ ${exercise.series} ${exercise.number}, "${exercise.title}", solved: your kernel matches the hidden reference.${next ? "" : " That was the whole course!"}`, ...(action ? [action] : []))
      .then((choice) => choice && next && vscode.commands.executeCommand("kernelLab.openExercise", next.id));
  }
}

function exerciseOf(arg: unknown): Exercise | undefined {
  if (typeof arg === "string") return exerciseNamed(arg);
  // A node of the Exercises view (its context menu and inline buttons pass it).
  if (typeof arg === "object" && arg !== null && "exercise" in arg) return (arg as { exercise: Exercise }).exercise;
  return undefined;
}

function exerciseOfActiveEditor(): Exercise | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (!document) return undefined;
  if (document.uri.scheme === SOLUTION_SCHEME) return exerciseNamed(document.uri.path.split("/")[1] ?? "");
  return exerciseOfText(document.getText());
}

async function pickExercise(progress: ExerciseProgress, title: string, placeHolder: string): Promise<Exercise | undefined> {
  type Item = vscode.QuickPickItem & { exercise?: Exercise };
  const items: Item[] = [];
  let series: string | undefined;
  for (const exercise of COURSE) {
    if (exercise.series !== series) items.push({ label: (series = exercise.series), kind: vscode.QuickPickItemKind.Separator });
    const solved = progress.isSolved(exercise.id);
    items.push({
      label: `${solved ? "$(pass-filled)" : "$(circle-large-outline)"} ${exercise.number}. ${exercise.title}`,
      description: solved ? "solved" : undefined,
      detail: exercise.task,
      exercise,
    });
  }
  const picked = await vscode.window.showQuickPick(items, { title: `Kernel Lab: ${title}`, placeHolder, matchOnDetail: true });
  return picked?.exercise;
}


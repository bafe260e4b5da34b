// The Exercises view (contributes.views, in the Explorer): the course by series, each exercise
// marked when solved, with the hints shown so far under it. Clicking an exercise opens it.

import * as vscode from "vscode";
import type { Exercise, ExerciseSeries } from "../../exercises/exercise";
import { COURSE } from "../../exercises/course";
import type { ExerciseProgress } from "./progress";
import { assertNever } from "../../ir/never";

export type ExerciseNode =
  | { kind: "series"; series: ExerciseSeries }
  | { kind: "exercise"; exercise: Exercise }
  | { kind: "hint"; exercise: Exercise; index: number };

export const EXERCISES_VIEW = "kernelLab.exercises";
const SERIES: readonly ExerciseSeries[] = ["Triton-Puzzles", "Triton tutorials"];

export class ExercisesTree implements vscode.TreeDataProvider<ExerciseNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ExerciseNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [this.changed];

  constructor(private readonly progress: ExerciseProgress) {
    this.subscriptions.push(progress.onDidChange(() => this.changed.fire(undefined)));
  }

  getChildren(node?: ExerciseNode): ExerciseNode[] {
    if (!node) return SERIES.map((series) => ({ kind: "series", series }));
    switch (node.kind) {
      case "series":
        return COURSE.filter((e) => e.series === node.series).map((exercise) => ({ kind: "exercise", exercise }));
      case "exercise":
        return Array.from({ length: this.progress.hintsShown(node.exercise.id) }, (_, index) => ({ kind: "hint", exercise: node.exercise, index }));
      case "hint":
        return [];
      default:
        return assertNever(node);
    }
  }

  getTreeItem(node: ExerciseNode): vscode.TreeItem {
    switch (node.kind) {
      case "series": {
        const exercises = COURSE.filter((e) => e.series === node.series);
        const item = new vscode.TreeItem(node.series, vscode.TreeItemCollapsibleState.Expanded);
        item.description = `${exercises.filter((e) => this.progress.isSolved(e.id)).length} of ${exercises.length} solved`;
        return item;
      }
      case "exercise": {
        const { exercise } = node;
        const solved = this.progress.isSolved(exercise.id);
        const hints = this.progress.hintsShown(exercise.id);
        const item = new vscode.TreeItem(`${exercise.number}. ${exercise.title}`, hints > 0 ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        // The tree keeps an item's expansion by id; a new id once it has hints shows them unfolded.
        item.id = hints > 0 ? `${exercise.id}/hints` : exercise.id;
        item.description = [solved ? "solved" : "", hints > 0 ? `${hints} of ${exercise.hints.length} hints` : ""].filter(Boolean).join(" · ");
        item.iconPath = solved ? new vscode.ThemeIcon("pass-filled", new vscode.ThemeColor("testing.iconPassed")) : new vscode.ThemeIcon("circle-large-outline");
        item.tooltip = new vscode.MarkdownString(`**${exercise.series} ${exercise.number}: ${exercise.title}**${solved ? " — solved" : ""}\n\n${exercise.task}`);
        item.contextValue = "kernelLab.exercise";
        item.command = { command: "kernelLab.openExercise", title: "Open Exercise", arguments: [exercise.id] };
        item.accessibilityInformation = { label: `${exercise.series} ${exercise.number}, ${exercise.title}${solved ? ", solved" : ""}` };
        return item;
      }
      case "hint": {
        const text = node.exercise.hints[node.index];
        const item = new vscode.TreeItem(`Hint ${node.index + 1}`, vscode.TreeItemCollapsibleState.None);
        item.id = `${node.exercise.id}/hint-${node.index}`;
        item.description = text;
        item.tooltip = text;
        item.iconPath = new vscode.ThemeIcon("lightbulb");
        item.accessibilityInformation = { label: `Hint ${node.index + 1}: ${text}` };
        return item;
      }
      default:
        return assertNever(node);
    }
  }

  getParent(node: ExerciseNode): ExerciseNode | undefined {
    switch (node.kind) {
      case "series":
        return undefined;
      case "exercise":
        return { kind: "series", series: node.exercise.series };
      case "hint":
        return { kind: "exercise", exercise: node.exercise };
      default:
        return assertNever(node);
    }
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}

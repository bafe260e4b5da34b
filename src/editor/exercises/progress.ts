// What the learner has done in this workspace: which exercises are solved and how many hints of
// each have been shown, kept in the extension's workspace state (so per workspace, on the
// desktop and in the browser alike). Solved means a run checked against the exercise's hidden
// reference matched it: every run the harness reports with that `exercise` (report.ts).

import * as vscode from "vscode";
import type { FileReport } from "../../harness/report";
import type { Runner } from "../runner";

const SOLVED_KEY = "kernelLab.exercises.solved";
const HINTS_KEY = "kernelLab.exercises.hintsShown";

/** What the integration tests read back (the tree view's items can't be listed through the API). */
export interface ExercisesProbe {
  solved(): string[];
  hintsShown(id: string): number;
}

export class ExerciseProgress implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {}

  solved(): string[] {
    return this.state.get<string[]>(SOLVED_KEY, []);
  }

  isSolved(id: string): boolean {
    return this.solved().includes(id);
  }

  hintsShown(id: string): number {
    return this.state.get<Record<string, number>>(HINTS_KEY, {})[id] ?? 0;
  }

  /** Shows one more hint of `id` (up to `available`); returns how many are shown now. */
  async showNextHint(id: string, available: number): Promise<number> {
    const shown = this.state.get<Record<string, number>>(HINTS_KEY, {});
    const next = Math.min(available, (shown[id] ?? 0) + 1);
    await this.state.update(HINTS_KEY, { ...shown, [id]: next });
    this.changed.fire();
    return next;
  }

  /** Marks as solved each exercise whose runs in `report` all matched; returns the ones newly solved. */
  async record(report: FileReport): Promise<string[]> {
    const solvedNow = solvedBy(report).filter((id) => !this.isSolved(id));
    if (solvedNow.length === 0) return [];
    await this.state.update(SOLVED_KEY, [...this.solved(), ...solvedNow]);
    this.changed.fire();
    return solvedNow;
  }

  get probe(): ExercisesProbe {
    return { solved: () => this.solved(), hintsShown: (id) => this.hintsShown(id) };
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** The exercises a report shows solved: some run checked against its reference, and every such run correct. */
export function solvedBy(report: FileReport): string[] {
  const ids = new Set(report.runs.flatMap((r) => (r.exercise ? [r.exercise] : [])));
  return [...ids].filter((id) => report.runs.every((r) => r.exercise !== id || r.correct));
}

/**
 * The runner, watched: every completed run (Run Kernel, Sweep, the Testing view) is offered to
 * `onReport`, so an exercise is marked solved however it was run.
 */
export function watchingReports(runner: Runner, onReport: (report: FileReport) => void): Runner {
  return {
    run: async (request, options) => {
      const outcome = await runner.run(request, options);
      if (outcome.kind === "completed") onReport(outcome.report);
      return outcome;
    },
    runPython: (request, options) => runner.runPython(request, options),
  };
}

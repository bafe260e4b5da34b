// Run Kernel, Sweep Kernel and Retune Kernel (a run that times every config again instead of
// taking the autotuner's cached choice): refuses in an untrusted workspace, saves the file if dirty, asks
// which run when there are several, runs it in the worker with progress (cancellable from the
// notification or the status bar), then shows the results panel and says how it went.

import * as path from "node:path";
import * as vscode from "vscode";
import type { Progress, RunRequest } from "../harness/workers/protocol";
import type { FileReport } from "../harness/report";
import type { LocatedDiagnostic } from "../diagnostics/position";
import { RunCodes } from "../harness/codes";
import { findRuns } from "./find-runs";
import { kernelDocumentFor } from "./kernel-document";
import type { RequestPaths, RunOutcome, Runner } from "./runner";
import { ResultsPanel } from "./results-panel";
import { resultsView } from "./results-view";
import { historyEntries, historyLines, parseHistory, type HistoryEntry } from "../harness/timing/history";
import { readRunSettings } from "./settings";
import { assertNever } from "../ir/never";

export type RunMode = "run" | "sweep" | "retune";

const TITLES: Record<RunMode, { title: string; verb: string }> = {
  run: { title: "Kernel Lab: Run Kernel", verb: "Running" },
  sweep: { title: "Kernel Lab: Sweep Kernel", verb: "Sweeping" },
  retune: { title: "Kernel Lab: Retune Kernel", verb: "Retuning" },
};

/** What the command returns (tests read it): a refusal before running, or how the run went. */
export type RunCommandResult =
  | { kind: "refused"; reason: "untrusted" | "no-kernel-file" | "not-saved" | "busy" | "no-run-chosen" }
  | RunOutcome;

export const RUNNING_CONTEXT_KEY = "kernelLab.running";
const ALL_RUNS = "$(run-all) All runs";

interface ActiveRun {
  label: string;
  cancellation: vscode.CancellationTokenSource;
}

export class RunController implements vscode.Disposable {
  private active: ActiveRun | undefined;
  private lastFile: vscode.Uri | undefined;
  private readonly statusItem = vscode.window.createStatusBarItem("kernelLab.run", vscode.StatusBarAlignment.Left, 10);
  /** Diagnostics only a run finds (bad run definitions, GPU errors); cleared when the file changes. */
  private readonly runDiagnostics = vscode.languages.createDiagnosticCollection("kernel-lab-run");
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    /** The child process (desktop) or Web Worker (browser) that runs the file's runs. */
    private readonly runner: Runner,
    private readonly paths: RequestPaths,
    /** Where this workspace's timing history is kept (`context.storageUri`); none without a workspace. */
    private readonly storageUri?: vscode.Uri,
  ) {
    this.statusItem.name = "Kernel Lab run";
    this.subscriptions.push(
      this.statusItem,
      this.runDiagnostics,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.runDiagnostics.delete(e.document.uri);
      }),
    );
  }

  /** `sizeArg`: one size instead of the run's first (Run and Retune; keybindings and tests pass it). */
  async run(mode: RunMode, uriArg?: unknown, runArg?: unknown, sizeArg?: unknown): Promise<RunCommandResult> {
    if (!vscode.workspace.isTrusted) {
      const manage = "Manage Workspace Trust";
      void vscode.window
        .showWarningMessage(
          "Kernel Lab runs kernels only in a trusted workspace: running a kernel executes the TypeScript of its file (its runs, arguments and references). Trust this folder to run kernels; highlighting and diagnostics work without it.",
          manage,
        )
        .then((choice) => choice === manage && vscode.commands.executeCommand("workbench.trust.manage"));
      return { kind: "refused", reason: "untrusted" };
    }
    if (this.active) {
      const cancel = "Cancel It";
      void vscode.window
        .showInformationMessage(`Kernel Lab is still running ${this.active.label}.`, cancel)
        .then((choice) => choice === cancel && this.cancel());
      return { kind: "refused", reason: "busy" };
    }
    const document = await kernelDocumentFor(uriArg);
    if (!document) {
      void vscode.window.showErrorMessage("Kernel Lab: open a *.kernel.ts file to run its kernels.");
      return { kind: "refused", reason: "no-kernel-file" };
    }
    if (document.isDirty && !(await document.save())) {
      void vscode.window.showErrorMessage(`Kernel Lab: ${path.basename(document.fileName)} could not be saved, so it was not run.`);
      return { kind: "refused", reason: "not-saved" };
    }
    const runName = typeof runArg === "string" ? runArg : await this.pickRun(document, mode);
    if (runName === null) return { kind: "refused", reason: "no-run-chosen" };
    // Another run may have started while the quick pick was open.
    if (this.active) return { kind: "refused", reason: "busy" };
    const size = mode !== "sweep" && typeof sizeArg === "number" && Number.isInteger(sizeArg) && sizeArg > 0 ? sizeArg : undefined;
    return this.start(document, mode, runName, size);
  }

  /** Runs a file's text under another name: a Python exercise's run as TypeScript (python/exercise.ts). */
  async runSource(document: vscode.TextDocument, source: { file: string; text: string }): Promise<RunCommandResult> {
    if (this.active) return { kind: "refused", reason: "busy" };
    return this.start(document, "run", undefined, undefined, source);
  }

  cancel(): void {
    this.active?.cancellation.cancel();
  }

  revealInLastFile(line: number, column: number): void {
    if (!this.lastFile) return;
    const position = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
    void vscode.window.showTextDocument(this.lastFile, {
      viewColumn: vscode.ViewColumn.One,
      selection: new vscode.Range(position, position),
    });
  }

  /** A run's name, undefined for all runs, null when the user dismissed the pick. */
  private async pickRun(document: vscode.TextDocument, mode: RunMode): Promise<string | undefined | null> {
    let runs: ReturnType<typeof findRuns>;
    try {
      runs = findRuns(document.fileName, document.getText());
    } catch (error) {
      this.log.error("could not list the runs of the file:", String(error));
      return undefined;
    }
    if (runs.length <= 1) return runs[0]?.name;
    const items: vscode.QuickPickItem[] = runs.map((r) => ({
      label: r.name,
      description: r.sizeCount === undefined ? undefined : `${r.sizeCount} size${r.sizeCount === 1 ? "" : "s"}`,
      detail: `line ${document.positionAt(r.span.start).line + 1}`,
    }));
    items.push({ label: ALL_RUNS });
    const picked = await vscode.window.showQuickPick(items, {
      title: TITLES[mode].title,
      placeHolder: "Which run?",
    });
    if (!picked) return null;
    return picked.label === ALL_RUNS ? undefined : picked.label;
  }

  private async start(document: vscode.TextDocument, mode: RunMode, runName: string | undefined, size: number | undefined, source?: { file: string; text: string }): Promise<RunCommandResult> {
    const settings = readRunSettings(document.uri);
    const fileLabel = path.basename(document.fileName);
    const label = `${runName ?? "all runs"} (${fileLabel})`;
    const cancellation = new vscode.CancellationTokenSource();
    this.active = { label, cancellation };
    this.lastFile = document.uri;
    const text = source?.text ?? document.getText();
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri ?? vscode.Uri.joinPath(document.uri, "..");
    const cwd = this.paths.pathOf(folder);
    const request: RunRequest = {
      type: "run",
      file: source?.file ?? this.paths.pathOf(document.uri),
      ...(source ? { text: source.text } : {}),
      ...(runName !== undefined ? { run: runName } : {}),
      ...(size !== undefined ? { size } : {}),
      sweep: mode === "sweep",
      ...(mode === "retune" ? { retune: true } : {}),
      cpu: settings.backend === "cpu",
      reps: settings.repetitions,
      dawnToggles: settings.dawnToggles,
      // The panel draws each run's access maps; a sweep's many sizes show a chart instead.
      ...(mode !== "sweep" ? { accessMaps: true } : {}),
    };
    const verb = TITLES[mode].verb;
    const panel = ResultsPanel.show(this.extensionUri, this.log, (line, column) => this.revealInLastFile(line, column));
    panel.post({ type: "running", title: `${verb} ${label}`, detail: `on the ${settings.backend.toUpperCase()}` });
    this.statusItem.text = `$(sync~spin) Kernel Lab: ${verb.toLowerCase()} ${runName ?? fileLabel}`;
    this.statusItem.tooltip = "Click to cancel the run";
    this.statusItem.command = "kernelLab.cancelRun";
    this.statusItem.show();
    void vscode.commands.executeCommand("setContext", RUNNING_CONTEXT_KEY, true);
    this.log.info(`${verb.toLowerCase()} ${label} on the ${settings.backend}, ${settings.repetitions} reps, timeout ${settings.timeoutSeconds} s`);

    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Kernel Lab: ${verb} ${runName ?? fileLabel}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => cancellation.cancel());
          return this.runner.run(request, {
            cwd,
            timeoutSeconds: settings.timeoutSeconds,
            token: cancellation.token,
            onProgress: (p: Progress) => {
              progress.report({ message: p.message });
              this.statusItem.text = `$(sync~spin) Kernel Lab: ${p.message}`;
            },
          });
        },
      );
      await this.report(outcome, { document, text, mode, backend: settings.backend, timeoutSeconds: settings.timeoutSeconds, label, panel, cwd, file: request.file });
      return outcome;
    } finally {
      cancellation.dispose();
      this.active = undefined;
      this.statusItem.hide();
      void vscode.commands.executeCommand("setContext", RUNNING_CONTEXT_KEY, false);
    }
  }

  /** The workspace's history file: `history.jsonl` in the extension's workspace storage. */
  historyFile(): vscode.Uri | undefined {
    return this.storageUri && vscode.Uri.joinPath(this.storageUri, "history.jsonl");
  }

  /**
   * Appends a run's results to the workspace history (through VS Code's file system, so on the
   * desktop and in a browser alike); a history that can't be written is logged, not fatal.
   */
  private async recordHistory(report: FileReport): Promise<{ current: HistoryEntry[]; all: HistoryEntry[] } | undefined> {
    const file = this.historyFile();
    if (!file || report.runs.length === 0) return undefined;
    try {
      let before = "";
      try {
        before = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
      } catch {
        // no history yet
      }
      const current = historyEntries(report);
      const text = before + (before === "" || before.endsWith("\n") ? "" : "\n") + historyLines(current);
      await vscode.workspace.fs.createDirectory(this.storageUri!);
      await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
      return { current, all: parseHistory(text) };
    } catch (error) {
      this.log.warn(`could not write the timing history ${file.toString(true)}: ${String(error)}`);
      return undefined;
    }
  }

  /** Shows the outcome: the panel always, a message where the user must act. */
  private async report(
    outcome: RunOutcome,
    run: {
      document: vscode.TextDocument;
      text: string;
      mode: RunMode;
      backend: "gpu" | "cpu";
      timeoutSeconds: number;
      label: string;
      panel: ResultsPanel;
      /** The run's folder and file as the request named them (diagnostics' paths are relative to the folder). */
      cwd: string;
      file: string;
    },
  ): Promise<void> {
    const { panel, label } = run;
    switch (outcome.kind) {
      case "completed": {
        const { report } = outcome;
        const history = await this.recordHistory(report);
        panel.post({
          type: "results",
          view: resultsView(
            {
              report,
              outcome: outcome.outcome,
              displayPath: vscode.workspace.asRelativePath(run.document.uri),
              mode: run.mode,
              backend: run.backend,
              fileName: run.file,
              text: run.text,
              history,
            },
            (error) => this.log.error("could not generate the WGSL listing:", String(error)),
          ),
        });
        this.showRunDiagnostics(run, report.diagnostics);
        this.log.info(`${label}: ${outcome.outcome}; ${report.runs.map(summary).join("; ") || "no runs"}`);
        const firstError = report.diagnostics.find((d) => d.severity === "error");
        switch (outcome.outcome) {
          case "ok":
            vscode.window.setStatusBarMessage(`$(pass) Kernel Lab: ${statusSummary(report.runs)}`, 8000);
            return;
          case "mismatch": {
            const wrong = [...new Set(report.runs.filter((r) => !r.correct).map((r) => r.name))];
            void vscode.window.showWarningMessage(`Kernel Lab: ✗ ${wrong.join(", ")} did not match the reference (see the results panel).`);
            return;
          }
          case "compile-error":
            void this.offerProblems(`Kernel Lab: ${label} has compile errors${firstError ? `: ${firstError.message}` : ""}`);
            return;
          case "no-adapter":
            // No GPU here: exercises (and every kernel) still run, and are checked, on the interpreter.
            void this.offerCpu(`Kernel Lab: ${firstError?.message ?? "no usable GPU adapter was found."}`, run.document.uri);
            return;
          case "failure":
            if (firstError?.code === RunCodes.timeout) {
              // The worker stopped a launch itself: say which setting bounds it.
              void this.offerTimeoutSetting(`Kernel Lab: ${firstError.message} (kernelLab.timeoutSeconds is ${run.timeoutSeconds} s.)`);
            } else {
              void this.offerLog(`Kernel Lab: ${label} failed${firstError ? `: ${firstError.code} ${firstError.message}` : "."}`);
            }
            return;
          default:
            assertNever(outcome.outcome);
        }
        return;
      }
      case "timed-out": {
        const message = `The run did not finish within ${outcome.seconds} s (kernelLab.timeoutSeconds), so its process was stopped.`;
        panel.post({ type: "failed", title: `${label} timed out`, message });
        void this.offerTimeoutSetting(`Kernel Lab: ${message}`);
        return;
      }
      case "cancelled":
        panel.post({ type: "failed", title: `${label} cancelled`, message: "The run was cancelled and its process stopped." });
        vscode.window.setStatusBarMessage("Kernel Lab: run cancelled", 5000);
        return;
      case "crashed": {
        const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
        const tail = outcome.stderr.trim().split("\n").slice(-3).join("\n");
        const message = `The run's process ${how} before it reported a result. The editor is fine and the next run starts a fresh process.${tail ? `\n\n${tail}` : ""}`;
        panel.post({ type: "failed", title: `${label} crashed`, message });
        void this.offerLog(`Kernel Lab: the process running ${label} ${how} before it reported a result.`);
        return;
      }
      case "worker-error":
        panel.post({ type: "failed", title: `${label} failed`, message: `${outcome.code}: ${outcome.message}` });
        void this.offerLog(`Kernel Lab: ${label} failed: ${outcome.message}`);
        return;
      default:
        assertNever(outcome);
    }
  }

  /** Run-time diagnostics (KL3xxx runs, KL4xxx GPU) of this file; compile errors are already live. */
  private showRunDiagnostics(run: { document: vscode.TextDocument; cwd: string; file: string }, diagnostics: readonly LocatedDiagnostic[]): void {
    // A Python exercise's run is of TypeScript the file doesn't hold: its lines are not the file's (the panel lists them).
    const own = diagnostics.filter((d) => !/^KL[12]/.test(d.code) && this.paths.samePath(d.file, run.file, run.cwd) && this.paths.samePath(run.file, this.paths.pathOf(run.document.uri), run.cwd));
    this.runDiagnostics.set(
      run.document.uri,
      own.map((d) => {
        const range = new vscode.Range(d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1);
        const severity = d.severity === "error" ? vscode.DiagnosticSeverity.Error : d.severity === "warning" ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
        const diagnostic = new vscode.Diagnostic(range, d.message, severity);
        diagnostic.code = d.code;
        diagnostic.source = "kernel-lab";
        return diagnostic;
      }),
    );
  }

  private async offerLog(message: string): Promise<void> {
    const show = "Show Log";
    if ((await vscode.window.showErrorMessage(message, show)) === show) this.log.show(true);
  }

  /** Offers to switch this workspace to the CPU interpreter (`kernelLab.backend`) and run the file again. */
  private async offerCpu(message: string, file: vscode.Uri): Promise<void> {
    const useCpu = "Run on the CPU Interpreter";
    const choice = await vscode.window.showErrorMessage(message, useCpu, "Show Log");
    if (choice === "Show Log") this.log.show(true);
    if (choice !== useCpu) return;
    await vscode.workspace.getConfiguration("kernelLab", file).update("backend", "cpu", vscode.ConfigurationTarget.Workspace);
    await this.run("run", file);
  }

  private async offerTimeoutSetting(message: string): Promise<void> {
    const open = "Open Settings";
    if ((await vscode.window.showErrorMessage(message, open)) === open) {
      await vscode.commands.executeCommand("workbench.action.openSettings", "kernelLab.timeoutSeconds");
    }
  }

  private async offerProblems(message: string): Promise<void> {
    const show = "Show Problems";
    if ((await vscode.window.showErrorMessage(message, show)) === show) await vscode.commands.executeCommand("workbench.actions.view.problems");
  }

  dispose(): void {
    this.cancel();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** One short phrase per run name: its time, or how many sizes a sweep checked. */
function statusSummary(runs: readonly { name: string; size: number; correct: boolean; timing: { medianMs: number } | null }[]): string {
  const byName = new Map<string, typeof runs[number][]>();
  for (const r of runs) byName.set(r.name, [...(byName.get(r.name) ?? []), r]);
  return [...byName.entries()]
    .map(([name, group]) =>
      group.length === 1 ? summary(group[0]) : `${group.every((r) => r.correct) ? "✓" : "✗"} ${name} at ${group.length} sizes`,
    )
    .join("; ");
}

function summary(r: { name: string; size: number; correct: boolean; timing: { medianMs: number } | null }): string {
  return `${r.correct ? "✓" : "✗"} ${r.name} n=${r.size}${r.timing ? ` ${r.timing.medianMs.toPrecision(3)} ms` : ""}`;
}


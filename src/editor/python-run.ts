// Run File on a Python file with `@triton.jit` kernels: the whole script runs, as `kernel-lab run
// FILE.py` runs it, in the same child process (desktop) or Web Worker (browser) as a kernel file's
// runs, and under the same workspace trust. What it prints streams into the "Kernel Lab Python"
// output; the results panel then shows its launches, checks, output, plots and traceback; the
// traceback's line is marked in the editor (KL3124), as are launch errors (KL3101 …).

import * as path from "node:path";
import * as vscode from "vscode";
import type { PythonFileReport } from "../harness/python/report";
import { PythonCodes } from "../harness/python/codes";
import { assertNever } from "../ir/never";
import { isTritonPythonDocument } from "./kernel-document";
import { ResultsPanel } from "./results-panel";
import type { PythonRunOutcome, RequestPaths, Runner } from "./runner";
import { readPythonBench, readRunSettings } from "./settings";
import type { DiagnosticView, PythonResultsView } from "./webview-protocol";
import type { RunCommandResult, RunController } from "./run-controller";
import { exerciseNamed } from "../exercises/course";
import { exerciseRunText, pythonExerciseId } from "../python/exercise";

export type PythonRunCommandResult =
  | { kind: "refused"; reason: "untrusted" | "no-python-file" | "not-saved" | "busy" | "exercise-has-errors" }
  | PythonRunOutcome
  /** A Python exercise, run as its TypeScript exercise is (RunController.runSource). */
  | RunCommandResult;

export const PYTHON_OUTPUT = "Kernel Lab Python";

export class PythonRuns implements vscode.Disposable {
  private active: { file: string; cancellation: vscode.CancellationTokenSource } | undefined;
  private lastFile: vscode.Uri | undefined;
  private readonly output = vscode.window.createOutputChannel(PYTHON_OUTPUT);
  /** The traceback's line and launch errors of the last run of each file; cleared when the file changes. */
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("kernel-lab-python-run");
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    private readonly runner: Runner,
    private readonly paths: RequestPaths,
    /** Runs a Python exercise as its TypeScript exercise runs: the exercise's run, checked against its hidden reference. */
    private readonly kernelRuns: RunController,
  ) {
    this.subscriptions.push(
      this.output,
      this.diagnostics,
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.diagnostics.delete(e.document.uri);
      }),
    );
  }

  async run(uriArg?: unknown): Promise<PythonRunCommandResult> {
    if (!vscode.workspace.isTrusted) {
      const manage = "Manage Workspace Trust";
      void vscode.window
        .showWarningMessage("Kernel Lab runs Python files only in a trusted workspace: running one executes its Python. Trust this folder to run it; diagnostics work without it.", manage)
        .then((choice) => choice === manage && vscode.commands.executeCommand("workbench.trust.manage"));
      return { kind: "refused", reason: "untrusted" };
    }
    if (this.active) {
      const cancel = "Cancel It";
      void vscode.window.showInformationMessage(`Kernel Lab is still running ${this.active.file}.`, cancel).then((choice) => choice === cancel && this.cancel());
      return { kind: "refused", reason: "busy" };
    }
    const document = uriArg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uriArg) : vscode.window.activeTextEditor?.document;
    if (!document || !isTritonPythonDocument(document)) {
      void vscode.window.showErrorMessage("Kernel Lab: open a Python file with a @triton.jit kernel to run it.");
      return { kind: "refused", reason: "no-python-file" };
    }
    if (document.isDirty && !(await document.save())) {
      void vscode.window.showErrorMessage(`Kernel Lab: ${path.basename(document.fileName)} could not be saved, so it was not run.`);
      return { kind: "refused", reason: "not-saved" };
    }
    if (this.active) return { kind: "refused", reason: "busy" };
    const exercise = exerciseNamed(pythonExerciseId(document.getText()) ?? "");
    if (exercise) {
      const source = exerciseRunText(exercise, this.paths.pathOf(document.uri), document.getText());
      if ("diagnostics" in source) {
        void vscode.window.showErrorMessage(`Kernel Lab: fix ${path.basename(document.fileName)}'s errors first (the Problems panel lists them): ${source.diagnostics[0]?.message ?? ""}`);
        return { kind: "refused", reason: "exercise-has-errors" };
      }
      this.log.info(`${path.basename(document.fileName)} is exercise ${exercise.id}: its run, on the Python kernel`);
      return this.kernelRuns.runSource(document, source);
    }
    return this.start(document);
  }

  cancel(): void {
    this.active?.cancellation.cancel();
  }

  private async start(document: vscode.TextDocument): Promise<PythonRunOutcome> {
    const settings = readRunSettings(document.uri);
    const bench = readPythonBench(document.uri);
    const fileLabel = path.basename(document.fileName);
    const cancellation = new vscode.CancellationTokenSource();
    this.active = { file: fileLabel, cancellation };
    this.lastFile = document.uri;
    const folder = vscode.workspace.getWorkspaceFolder(document.uri)?.uri ?? vscode.Uri.joinPath(document.uri, "..");
    const cwd = this.paths.pathOf(folder);
    const file = this.paths.pathOf(document.uri);
    const panel = ResultsPanel.show(this.extensionUri, this.log, (line, column) => this.reveal(line, column));
    panel.post({ type: "running", title: `Running ${fileLabel}`, detail: `Python, its kernels on the ${settings.backend.toUpperCase()}` });
    this.diagnostics.delete(document.uri);
    this.output.clear();
    this.output.appendLine(`[kernel-lab] python ${vscode.workspace.asRelativePath(document.uri)} (kernels on the ${settings.backend.toUpperCase()}${bench === "default" ? "" : `, benchmarks ${bench}`})`);
    this.output.show(true);
    this.log.info(`running ${fileLabel} (Python) on the ${settings.backend}, timeout ${settings.timeoutSeconds} s`);
    try {
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Kernel Lab: running ${fileLabel}`, cancellable: true },
        (_progress, token) => {
          token.onCancellationRequested(() => cancellation.cancel());
          return this.runner.runPython(
            { type: "run-python", file, cpu: settings.backend === "cpu", ...(bench === "default" ? {} : { bench }) },
            {
              cwd,
              timeoutSeconds: settings.timeoutSeconds,
              token: cancellation.token,
              onProgress: () => {},
              onOutput: (_stream, text) => this.output.append(text),
            },
          );
        },
      );
      this.show(outcome, document, panel, settings.backend, settings.timeoutSeconds);
      return outcome;
    } finally {
      cancellation.dispose();
      this.active = undefined;
    }
  }

  private show(outcome: PythonRunOutcome, document: vscode.TextDocument, panel: ResultsPanel, backend: "gpu" | "cpu", timeoutSeconds: number): void {
    const label = path.basename(document.fileName);
    switch (outcome.kind) {
      case "completed": {
        const { report } = outcome;
        const marks = marksOf(report, document, (a, b) => this.paths.samePath(a, b, outcome.folder), this.paths.pathOf(document.uri), (file) => this.paths.uriOf(path.resolve(outcome.folder, file)));
        this.diagnostics.set(document.uri, marks.map((m) => m.diagnostic));
        if (report.traceback) this.output.append(report.traceback);
        for (const m of marks) if (m.view.code !== PythonCodes.pythonRaised) this.output.appendLine(`${label}:${m.view.line}:${m.view.column}: ${m.view.severity} ${m.view.code}: ${m.view.message}`);
        panel.post({ type: "python-results", view: resultsView(report, outcome.outcome, vscode.workspace.asRelativePath(document.uri), backend, marks.map((m) => m.view)) });
        this.log.info(`${label}: ${outcome.outcome}; ${report.launches.length} launch(es), ${report.checks.length} check(s), ${report.plots.length} plot(s)`);
        const failed = report.checks.filter((c) => !c.passed).length;
        switch (outcome.outcome) {
          case "ok":
            if (failed > 0) void this.offerOutput(`Kernel Lab: ${label} finished, but ${failed} of ${report.checks.length} checks failed.`, "warning");
            else vscode.window.setStatusBarMessage(`$(pass) Kernel Lab: ${label} finished (${report.launches.length + (report.launchesNotListed ?? 0)} launches)`, 8000);
            return;
          case "raised":
          case "compile-error": {
            const raised = report.exception?.line ? ` at line ${report.exception.line}` : "";
            void this.offerOutput(`Kernel Lab: ${label} raised ${exceptionLine(report) || "an exception"}${raised}.`, "error");
            return;
          }
          case "no-adapter":
          case "failure":
            void this.offerOutput(`Kernel Lab: ${label} failed: ${report.diagnostics[0]?.message ?? lastLine(report.traceback ?? "") ?? "see the output"}`, "error");
            return;
          default:
            assertNever(outcome.outcome);
        }
        return;
      }
      case "timed-out": {
        const message = `The script did not finish within ${outcome.seconds} s (kernelLab.timeoutSeconds is ${timeoutSeconds}), so its process was stopped.`;
        panel.post({ type: "failed", title: `${label} timed out`, message });
        void this.offerOutput(`Kernel Lab: ${message}`, "error");
        return;
      }
      case "cancelled":
        panel.post({ type: "failed", title: `${label} cancelled`, message: "The run was cancelled and its process stopped." });
        return;
      case "crashed": {
        const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
        const tail = outcome.stderr.trim().split("\n").slice(-3).join("\n");
        panel.post({ type: "failed", title: `${label} crashed`, message: `The process running the script ${how} before it reported a result.${tail ? `\n\n${tail}` : ""}` });
        void this.offerOutput(`Kernel Lab: the process running ${label} ${how}.`, "error");
        return;
      }
      case "worker-error":
        panel.post({ type: "failed", title: `${label} could not run`, message: `${outcome.code}: ${outcome.message}` });
        void this.offerOutput(`Kernel Lab: ${outcome.message}`, "error");
        return;
      default:
        assertNever(outcome);
    }
    void backend;
  }

  private reveal(line: number, column: number): void {
    if (!this.lastFile) return;
    const position = new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
    void vscode.window.showTextDocument(this.lastFile, { viewColumn: vscode.ViewColumn.One, selection: new vscode.Range(position, position) });
  }

  private async offerOutput(message: string, level: "warning" | "error"): Promise<void> {
    const show = "Show Output";
    const choice = await (level === "error" ? vscode.window.showErrorMessage(message, show) : vscode.window.showWarningMessage(message, show));
    if (choice === show) this.output.show(true);
  }

  dispose(): void {
    this.cancel();
    for (const s of this.subscriptions) s.dispose();
  }
}

function lastLine(text: string): string {
  return text.trimEnd().split("\n").at(-1) ?? "";
}

/** The traceback's `Type: message` line (a message may run on over several lines: its first one). */
export function exceptionLine(report: PythonFileReport): string {
  const traceback = report.traceback ?? "";
  const type = report.exception?.type;
  const lines = traceback.split("\n");
  const found = type ? lines.filter((l) => l === type || l.startsWith(`${type}:`) || new RegExp(`^[\\w.]+\\.${type}(:|$)`).test(l)).at(-1) : undefined;
  return found ?? lastLine(traceback);
}

interface Mark {
  diagnostic: vscode.Diagnostic;
  view: DiagnosticView;
}

/**
 * The report's diagnostics in this file, and the traceback's line as KL3124 (the exception's last
 * line as its message). One inside another module's function (a cross-module helper's) is marked at
 * this file's call that leads there, the helper's place in front and as its related location.
 */
function marksOf(report: PythonFileReport, document: vscode.TextDocument, samePath: (a: string, b: string) => boolean, file: string, uriOf: (file: string) => vscode.Uri): Mark[] {
  const views: (DiagnosticView & { endLine: number; endColumn: number; elsewhere?: vscode.Location })[] = report.diagnostics.flatMap((d) => {
    const fields = { severity: d.severity, code: d.code };
    if (samePath(d.file, file)) return [{ line: d.line, column: d.column, endLine: d.endLine, endColumn: d.endColumn, ...fields, message: d.message }];
    const call = d.related?.find((r) => r.file !== undefined && samePath(r.file, file));
    if (!call) return [];
    const elsewhere = new vscode.Location(uriOf(d.file), new vscode.Range(d.line - 1, d.column - 1, d.endLine - 1, d.endColumn - 1));
    return [{ line: call.line, column: call.column, endLine: call.endLine, endColumn: call.endColumn, ...fields, message: `${d.file}:${d.line}:${d.column}: ${d.message}`, elsewhere }];
  });
  const line = report.exception?.line;
  if (report.traceback && line && line <= document.lineCount) {
    const text = document.lineAt(line - 1);
    const start = text.firstNonWhitespaceCharacterIndex;
    views.push({
      line,
      column: start + 1,
      endLine: line,
      endColumn: text.range.end.character + 1,
      severity: "error",
      code: PythonCodes.pythonRaised,
      message: `${exceptionLine(report)} (the traceback is in the results panel and the ${PYTHON_OUTPUT} output)`,
    });
  }
  return views.map((v) => {
    const diagnostic = new vscode.Diagnostic(
      new vscode.Range(v.line - 1, v.column - 1, v.endLine - 1, v.endColumn - 1),
      v.message,
      v.severity === "error" ? vscode.DiagnosticSeverity.Error : v.severity === "warning" ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information,
    );
    diagnostic.code = v.code;
    diagnostic.source = "kernel-lab";
    if (v.elsewhere) diagnostic.relatedInformation = [new vscode.DiagnosticRelatedInformation(v.elsewhere, "where the mistake is, inside the function this line calls")];
    const { endLine: _e, endColumn: _c, elsewhere: _where, ...view } = v;
    return { diagnostic, view };
  });
}

function resultsView(report: PythonFileReport, outcome: Extract<PythonRunOutcome, { kind: "completed" }>["outcome"], file: string, backend: "gpu" | "cpu", diagnostics: DiagnosticView[]): PythonResultsView {
  const why = { flag: "set in kernelLab.pythonBenchmarks", gpu: "the default on a GPU", "software-adapter": "the default on a software adapter", cpu: "the default on the CPU interpreter" }[report.bench.chosen];
  return {
    file,
    backend,
    outcome,
    finishedAt: new Date().toISOString(),
    adapter: report.adapter,
    diagnostics,
    launches: report.launches,
    launchesNotListed: report.launchesNotListed ?? 0,
    checks: report.checks,
    stdout: report.stdout,
    plots: report.plots ?? [],
    traceback: report.traceback ?? null,
    raised: report.traceback ? exceptionLine(report) : null,
    bench: `benchmarks: ${report.bench.mode} (${why})`,
    python: report.pyodide.warm ? "Python reused" : `Python started in ${(report.pyodide.startMs / 1000).toFixed(1)} s`,
  };
}

// One press of a Run button in the Testing view (or the gutter): the chosen items become worker
// requests, one per run (a sweep of its sizes) or per size, run one after another through the
// same child process as Run Kernel; each report's runs land on their items as passed or failed,
// with the time each size took. Nothing runs in an untrusted workspace.

import * as path from "node:path";
import * as vscode from "vscode";
import type { Progress, RunRequest } from "../harness/workers/protocol";
import type { FileReport, RunReport } from "../harness/report";
import { assertNever } from "../ir/never";
import type { RequestPaths, RunOutcome, Runner } from "./runner";
import { readRunSettings } from "./settings";
import { diagnosticMessage, mismatchMessage, runMessage, UNTRUSTED_MESSAGE, type RunSource } from "./test-messages";
import type { KernelTestTree } from "./test-tree";
import type { TestResultLog } from "./test-results";

/** One worker request: a run's sweep, or one size of it. */
interface Job {
  uri: vscode.Uri;
  runItem: vscode.TestItem;
  run: string;
  size?: number;
  /** The items this job reports on. */
  leaves: vscode.TestItem[];
}

export interface TestRunServices {
  controller: vscode.TestController;
  tree: KernelTestTree;
  runner: Runner;
  paths: RequestPaths;
  log: vscode.LogOutputChannel;
  results: TestResultLog;
}

export async function runTestRequest(request: vscode.TestRunRequest, token: vscode.CancellationToken, services: TestRunServices): Promise<void> {
  const { controller, tree, results } = services;
  const jobs = planJobs(request, controller, tree);
  const run = results.wrap(controller.createTestRun(request));
  try {
    for (const job of jobs) for (const leaf of job.leaves) run.enqueued(leaf);
    if (!vscode.workspace.isTrusted) {
      for (const job of jobs) {
        const source = { uri: job.uri, text: "", runRange: job.runItem.range };
        for (const leaf of job.leaves) run.errored(leaf, [runMessage(UNTRUSTED_MESSAGE, source)]);
      }
      run.appendOutput(`${UNTRUSTED_MESSAGE}\r\n`);
      return;
    }
    for (const job of jobs) {
      if (token.isCancellationRequested) {
        for (const leaf of job.leaves) run.skipped(leaf);
        continue;
      }
      await runJob(job, run, token, services);
    }
  } finally {
    run.end();
  }
}

/** Each chosen run once: a file stands for its runs, a run for its sizes, minus what is excluded. */
function planJobs(request: vscode.TestRunRequest, controller: vscode.TestController, tree: KernelTestTree): Job[] {
  const excluded = new Set(request.exclude ?? []);
  const roots: vscode.TestItem[] = [];
  if (request.include) roots.push(...request.include);
  else controller.items.forEach((item) => roots.push(item));
  const chosen = new Set(roots);
  const hasChosenAncestor = (item: vscode.TestItem) => {
    for (let p = item.parent; p; p = p.parent) if (chosen.has(p)) return true;
    return false;
  };
  const jobs: Job[] = [];
  const visit = (item: vscode.TestItem) => {
    if (excluded.has(item)) return;
    const data = tree.data(item);
    if (!data) return;
    switch (data.kind) {
      case "file":
        item.children.forEach(visit);
        return;
      case "run": {
        const children: vscode.TestItem[] = [];
        item.children.forEach((child) => children.push(child));
        const kept = children.filter((c) => !excluded.has(c));
        if (kept.length === children.length) {
          jobs.push({ uri: data.uri, runItem: item, run: data.run, leaves: children.length > 0 ? children : [item] });
        } else {
          kept.forEach(visit);
        }
        return;
      }
      case "size":
        if (item.parent) jobs.push({ uri: data.uri, runItem: item.parent, run: data.run, size: data.size, leaves: [item] });
        return;
      default:
        assertNever(data);
    }
  };
  for (const root of roots) if (!hasChosenAncestor(root)) visit(root);
  return jobs;
}

type Run = ReturnType<TestResultLog["wrap"]>;

async function runJob(job: Job, run: Run, token: vscode.CancellationToken, services: TestRunServices): Promise<void> {
  const { runner, paths, tree } = services;
  for (const leaf of job.leaves) run.started(leaf);
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === job.uri.toString());
  if (document?.isDirty && !(await document.save())) {
    const source = { uri: job.uri, text: document.getText(), runRange: job.runItem.range };
    for (const leaf of job.leaves) run.errored(leaf, [runMessage(`${path.basename(job.uri.fsPath)} could not be saved, so it was not run.`, source)]);
    return;
  }
  const text = document?.getText() ?? new TextDecoder().decode(await vscode.workspace.fs.readFile(job.uri));
  const data = tree.data(job.runItem);
  const source: RunSource = {
    uri: job.uri,
    text,
    runRange: job.runItem.range,
    ...(data?.kind === "run" && data.kernelName ? { kernelName: data.kernelName } : {}),
  };
  const settings = readRunSettings(job.uri);
  const request: RunRequest = {
    type: "run",
    file: paths.pathOf(job.uri),
    run: job.run,
    ...(job.size !== undefined ? { size: job.size } : { sweep: true }),
    cpu: settings.backend === "cpu",
    reps: settings.repetitions,
    dawnToggles: settings.dawnToggles,
  };
  const what = `${job.run}${job.size !== undefined ? ` n=${job.size}` : ""} (${path.basename(job.uri.fsPath)})`;
  run.appendOutput(`▶ ${what} on the ${settings.backend.toUpperCase()}\r\n`);
  const durations = new SizeTimer();
  const cwd = paths.pathOf(vscode.workspace.getWorkspaceFolder(job.uri)?.uri ?? vscode.Uri.joinPath(job.uri, ".."));
  const outcome = await runner.run(request, {
    cwd,
    timeoutSeconds: settings.timeoutSeconds,
    token,
    onProgress: (p: Progress) => {
      durations.progress(p);
      run.appendOutput(`  ${p.message}\r\n`);
    },
  });
  durations.stop();
  report(job, outcome, { run, tree, source, durations, timeoutSeconds: settings.timeoutSeconds, paths });
}

function report(
  job: Job,
  outcome: RunOutcome,
  ctx: { run: Run; tree: KernelTestTree; source: RunSource; durations: SizeTimer; timeoutSeconds: number; paths: RequestPaths },
): void {
  const { run, source } = ctx;
  const unreported = (message: vscode.TestMessage[]) => {
    for (const leaf of job.leaves) run.errored(leaf, message);
  };
  switch (outcome.kind) {
    case "completed":
      reportCompleted(job, outcome.report, outcome.folder, ctx);
      return;
    case "timed-out":
      unreported([runMessage(`Did not finish within ${outcome.seconds} s (kernelLab.timeoutSeconds), so its process was stopped.`, source)]);
      return;
    case "cancelled":
      for (const leaf of job.leaves) run.skipped(leaf);
      run.appendOutput("  cancelled\r\n");
      return;
    case "crashed": {
      const how = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
      const tail = outcome.stderr.trim().split("\n").slice(-3).join("\n");
      unreported([runMessage(`The run's process ${how} before it reported a result.${tail ? `\n${tail}` : ""}`, source)]);
      return;
    }
    case "worker-error":
      unreported([runMessage(`${outcome.code}: ${outcome.message}`, source)]);
      return;
    default:
      assertNever(outcome);
  }
}

function reportCompleted(
  job: Job,
  fileReport: FileReport,
  folder: string,
  ctx: { run: Run; tree: KernelTestTree; source: RunSource; durations: SizeTimer; paths: RequestPaths },
): void {
  const { run, tree, source, durations, paths } = ctx;
  const sizesOf = new Map<string, number[]>();
  for (const r of fileReport.runs) sizesOf.set(r.name, [...(sizesOf.get(r.name) ?? []), r.size]);
  const done = new Map<vscode.TestItem, boolean>();
  for (const r of fileReport.runs) {
    const item = tree.itemForResult(job.uri, r.name, r.size, sizesOf.get(r.name) ?? []);
    if (!item || done.has(item)) continue;
    const duration = durations.of(r.name, r.size);
    if (r.correct) run.passed(item, duration);
    else run.failed(item, [mismatchMessage(r, source)], duration);
    run.appendOutput(`  ${summary(r)}\r\n`);
    done.set(item, r.correct);
  }
  // A report's diagnostics name files relative to the worker's folder.
  const errors = fileReport.diagnostics.filter((d) => d.severity === "error").map((d) => diagnosticMessage(d, paths.uriOf(path.resolve(folder, d.file))));
  for (const d of fileReport.diagnostics) run.appendOutput(`  ${d.severity} ${d.code}: ${d.message}\r\n`);
  for (const leaf of job.leaves) {
    if (done.has(leaf)) continue;
    // A run whose sizes were learned from this report: its state is its sizes'.
    const sizes: boolean[] = [];
    leaf.children.forEach((child) => done.has(child) && sizes.push(done.get(child)!));
    if (sizes.length > 0) {
      const wrong = sizes.filter((correct) => !correct).length;
      if (wrong === 0) run.passed(leaf);
      else run.failed(leaf, [runMessage(`${wrong} of ${sizes.length} sizes did not match the reference.`, source)]);
      continue;
    }
    run.errored(leaf, errors.length > 0 ? errors : [runMessage(`${job.run} reported no result (${fileReport.runs.length} run(s) in the report).`, source)]);
  }
}

function summary(r: RunReport): string {
  const time = r.timing ? ` median ${r.timing.medianMs.toPrecision(3)} ms` : "";
  const rate = r.gbps !== null ? `, ${r.gbps.toPrecision(3)} GB/s` : r.gflops !== null ? `, ${r.gflops.toPrecision(3)} GFLOP/s` : "";
  return `${r.correct ? "✓" : "✗"} ${r.name} n=${r.size}: ${r.correct ? "matches" : `${r.mismatches} mismatches`}${time}${rate}`;
}

/**
 * How long each (run, size) took, from the worker's progress: a size's time runs from its first
 * progress message to the next size's (the first size also carries loading and compiling).
 */
class SizeTimer {
  private readonly started = Date.now();
  private current: { key: string; since: number } | undefined;
  private readonly spent = new Map<string, number>();

  progress(p: Progress): void {
    if (p.run === undefined || p.size === undefined) return;
    const key = `${p.run}@${p.size}`;
    if (this.current?.key === key) return;
    const now = Date.now();
    this.closeCurrent(now);
    this.current = { key, since: this.spent.size === 0 ? this.started : now };
  }

  stop(): void {
    this.closeCurrent(Date.now());
  }

  of(run: string, size: number): number | undefined {
    return this.spent.get(`${run}@${size}`) ?? (this.spent.size === 0 ? Date.now() - this.started : undefined);
  }

  private closeCurrent(now: number): void {
    if (!this.current) return;
    this.spent.set(this.current.key, (this.spent.get(this.current.key) ?? 0) + now - this.current.since);
    this.current = undefined;
  }
}

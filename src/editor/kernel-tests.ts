// The Testing view (VS Code's Testing API): every `defineRun` of every `*.kernel.ts` in the
// workspace is a test. Items come from the files' text (open documents as they are typed,
// the others from disk, kept current by a file watcher); running one goes through the harness
// worker as Run Kernel does (test-run.ts).

import * as vscode from "vscode";
import { KERNEL_FILE_GLOB, isKernelDocument, isKernelUri } from "./kernel-document";
import type { RequestPaths, Runner } from "./runner";
import { runTestRequest } from "./test-run";
import { TestResultLog, type RecordedResult } from "./test-results";
import { KernelTestTree } from "./test-tree";

/** The items as plain data, for the integration tests (the Testing API can't list them). */
export interface TestItemSnapshot {
  id: string;
  label: string;
  description?: string;
  /** 0-based line of the item's range. */
  line?: number;
  children: TestItemSnapshot[];
}

export interface KernelTestsProbe {
  items(): TestItemSnapshot[];
  results(): Record<string, RecordedResult>;
  /** Test runs finished so far. */
  runsEnded(): number;
  /**
   * Runs the items with these ids through the run profile's handler, as the workbench does once it
   * has asked for workspace trust (in restricted mode it asks first, so tests call this instead).
   */
  run(ids: readonly string[]): Promise<void>;
}

const TYPING_DEBOUNCE_MS = 250;

export class KernelTests implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController("kernelLab", "Kernel Lab");
  private readonly tree: KernelTestTree;
  private readonly results = new TestResultLog();
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subscriptions: vscode.Disposable[] = [this.controller];
  private readonly runHandler: (request: vscode.TestRunRequest, token: vscode.CancellationToken) => Promise<void>;

  constructor(runner: Runner, paths: RequestPaths, private readonly log: vscode.LogOutputChannel) {
    this.tree = new KernelTestTree(this.controller, log);
    const services = { controller: this.controller, tree: this.tree, runner, paths, log, results: this.results };

    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discoverAll();
    };
    this.controller.refreshHandler = () => this.discoverAll();
    this.runHandler = (request, token) => runTestRequest(request, token, services).catch((error) => this.reportCrash(error));
    const profile = this.controller.createRunProfile("Run", vscode.TestRunProfileKind.Run, this.runHandler, true);

    const watcher = vscode.workspace.createFileSystemWatcher(KERNEL_FILE_GLOB);
    this.subscriptions.push(
      profile,
      watcher,
      watcher.onDidCreate((uri) => void this.updateFromDisk(uri)),
      watcher.onDidChange((uri) => {
        // An open document is followed as it is typed; the disk only matters once it is closed.
        if (!this.openDocument(uri)) void this.updateFromDisk(uri);
      }),
      watcher.onDidDelete((uri) => this.tree.remove(uri)),
      vscode.workspace.onDidOpenTextDocument((d) => isKernelDocument(d) && this.updateFromDocument(d)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0 && isKernelDocument(e.document)) this.scheduleUpdate(e.document);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => isKernelDocument(d) && d.isDirty && void this.updateFromDisk(d.uri)),
    );
    // Gutter buttons for the files already open, before the Testing view asks for everything.
    for (const document of vscode.workspace.textDocuments) if (isKernelDocument(document)) this.updateFromDocument(document);
  }

  readonly probe: KernelTestsProbe = {
    items: () => snapshotOf(this.controller.items),
    results: () => this.results.snapshot(),
    runsEnded: () => this.results.runsEnded,
    run: async (ids) => {
      const items = ids.map((id) => findItem(this.controller.items, id)).filter((item) => item !== undefined);
      const cancellation = new vscode.CancellationTokenSource();
      try {
        await this.runHandler(new vscode.TestRunRequest(items), cancellation.token);
      } finally {
        cancellation.dispose();
      }
    },
  };

  /** Every kernel file of the workspace (node_modules aside); items of files gone are dropped. */
  private async discoverAll(): Promise<void> {
    const uris = await vscode.workspace.findFiles(KERNEL_FILE_GLOB, "**/node_modules/**");
    const found = new Set(uris.map((u) => u.toString()));
    const stale: vscode.Uri[] = [];
    this.controller.items.forEach((item) => item.uri && !found.has(item.uri.toString()) && stale.push(item.uri));
    for (const uri of stale) this.tree.remove(uri);
    await Promise.all(uris.map((uri) => this.updateFromDisk(uri)));
    this.log.info(`Testing: ${this.controller.items.size} kernel file(s) with runs among ${uris.length} found`);
  }

  private async updateFromDisk(uri: vscode.Uri): Promise<void> {
    if (!isKernelUri(uri)) return;
    const open = this.openDocument(uri);
    if (open) return this.updateFromDocument(open);
    try {
      this.tree.update(uri, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
    } catch (error) {
      this.log.warn(`Testing: could not read ${uri.fsPath}: ${String(error)}`);
      this.tree.remove(uri);
    }
  }

  private updateFromDocument(document: vscode.TextDocument): void {
    this.tree.update(document.uri, document.getText());
  }

  private scheduleUpdate(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (!document.isClosed) this.updateFromDocument(document);
      }, TYPING_DEBOUNCE_MS),
    );
  }

  private openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  }

  private reportCrash(error: unknown): void {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    this.log.error("Testing: the test run failed:", message);
    void vscode.window.showErrorMessage(`Kernel Lab could not run the tests: ${error instanceof Error ? error.message : String(error)}`);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    for (const s of this.subscriptions) s.dispose();
  }
}

function findItem(items: vscode.TestItemCollection, id: string): vscode.TestItem | undefined {
  let found: vscode.TestItem | undefined;
  items.forEach((item) => {
    found ??= item.id === id ? item : findItem(item.children, id);
  });
  return found;
}

function snapshotOf(items: vscode.TestItemCollection): TestItemSnapshot[] {
  const list: (TestItemSnapshot & { sortText: string })[] = [];
  items.forEach((item) =>
    list.push({
      sortText: item.sortText ?? item.label,
      id: item.id,
      label: item.label,
      ...(item.description ? { description: item.description } : {}),
      ...(item.range ? { line: item.range.start.line } : {}),
      children: snapshotOf(item.children),
    }),
  );
  return list.sort((a, b) => a.sortText.localeCompare(b.sortText)).map(({ sortText: _, ...rest }) => rest);
}

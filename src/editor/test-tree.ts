// The Testing view's items, from the text of kernel files: one item per file that exports runs,
// a child per `defineRun` (its range is the call, so the gutter shows a run button there), and,
// for a sweep, a grandchild per size (at its literal in `sizes`). Sizes that are not literals are
// learned from the first sweep's report.

import * as vscode from "vscode";
import { LineMap } from "../diagnostics/position";
import type { Span } from "../diagnostics/diagnostic";
import { findRuns, type RunDeclaration } from "./find-runs";

export type KernelTestData =
  | { kind: "file"; uri: vscode.Uri }
  | { kind: "run"; uri: vscode.Uri; run: string; kernelName?: string }
  | { kind: "size"; uri: vscode.Uri; run: string; size: number };

export function fileId(uri: vscode.Uri): string {
  return uri.toString();
}
export function runId(uri: vscode.Uri, run: string): string {
  return `${uri.toString()}#${run}`;
}
export function sizeId(uri: vscode.Uri, run: string, size: number): string {
  return `${runId(uri, run)}@${size}`;
}

export class KernelTestTree {
  private readonly dataOf = new WeakMap<vscode.TestItem, KernelTestData>();
  /** Sizes a sweep reported, by run item id, for runs whose `sizes` is not an array of literals. */
  private readonly learnedSizes = new Map<string, number[]>();

  constructor(
    private readonly controller: vscode.TestController,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  data(item: vscode.TestItem): KernelTestData | undefined {
    return this.dataOf.get(item);
  }

  fileItem(uri: vscode.Uri): vscode.TestItem | undefined {
    return this.controller.items.get(fileId(uri));
  }

  /** Re-reads the runs of one file from its text; a file without runs has no item. */
  update(uri: vscode.Uri, text: string): void {
    let runs: RunDeclaration[];
    try {
      runs = findRuns(uri.fsPath, text);
    } catch (error) {
      this.log.error(`Testing: could not find the runs of ${uri.fsPath}:`, String(error));
      return;
    }
    if (runs.length === 0) {
      this.remove(uri);
      return;
    }
    let file = this.fileItem(uri);
    if (!file) {
      file = this.controller.createTestItem(fileId(uri), vscode.workspace.asRelativePath(uri), uri);
      this.dataOf.set(file, { kind: "file", uri });
      this.controller.items.add(file);
    }
    const lines = new LineMap(text);
    const range = (span: Span) => {
      const start = lines.at(span.start);
      const end = lines.at(span.end);
      return new vscode.Range(start.line - 1, start.column - 1, end.line - 1, end.column - 1);
    };
    file.children.replace(
      runs.map((declaration, index) => {
        const id = runId(uri, declaration.name);
        const item = file.children.get(id) ?? this.controller.createTestItem(id, declaration.name, uri);
        item.range = range(declaration.span);
        item.sortText = String(index).padStart(4, "0");
        this.dataOf.set(item, { kind: "run", uri, run: declaration.name, ...(declaration.kernelName ? { kernelName: declaration.kernelName } : {}) });
        const sizes = unique(
          declaration.sizes?.map((s) => ({ value: s.value, range: range(s.span) })) ??
            this.learnedSizes.get(id)?.map((value) => ({ value, range: item.range })),
        );
        const sizeCount = sizes?.length ?? declaration.sizeCount;
        item.description = sizes?.length === 1 ? `n = ${sizes[0].value}` : sizeCount !== undefined ? `${sizeCount} sizes` : undefined;
        item.children.replace(sizes && sizes.length > 1 ? sizes.map((s, i) => this.sizeItem(item, declaration.name, s.value, s.range, i)) : []);
        return item;
      }),
    );
  }

  remove(uri: vscode.Uri): void {
    this.controller.items.delete(fileId(uri));
  }

  /**
   * The item a report's (run, size) lands on: the size's child where the run has them, else the
   * run itself; when a sweep reports several sizes of a run whose sizes the text did not give,
   * they become its children from now on.
   */
  itemForResult(uri: vscode.Uri, run: string, size: number, sizesReported: readonly number[]): vscode.TestItem | undefined {
    const runItem = this.fileItem(uri)?.children.get(runId(uri, run));
    if (!runItem) return undefined;
    const existing = runItem.children.get(sizeId(uri, run, size));
    if (existing) return existing;
    if (runItem.children.size === 0 && new Set(sizesReported).size <= 1) return runItem;
    if (runItem.children.size === 0) {
      const sizes = [...new Set(sizesReported)];
      this.learnedSizes.set(runItem.id, sizes);
      sizes.forEach((value, i) => runItem.children.add(this.sizeItem(runItem, run, value, runItem.range, i)));
      runItem.description = `${sizes.length} sizes`;
      return runItem.children.get(sizeId(uri, run, size));
    }
    // A size the text no longer lists (edited since the run started): report it on the run.
    return runItem;
  }

  private sizeItem(runItem: vscode.TestItem, run: string, size: number, range: vscode.Range | undefined, index: number): vscode.TestItem {
    const uri = runItem.uri!;
    const id = sizeId(uri, run, size);
    const item = runItem.children.get(id) ?? this.controller.createTestItem(id, `n = ${size}`, uri);
    item.range = range;
    item.sortText = String(index).padStart(4, "0");
    this.dataOf.set(item, { kind: "size", uri, run, size });
    return item;
  }
}

/** The first of each size (a size listed twice runs twice, but is one item). */
function unique<T extends { value: number }>(sizes: T[] | undefined): T[] | undefined {
  return sizes?.filter((s, i) => sizes.findIndex((other) => other.value === s.value) === i);
}

// What the Testing view was last told about each item, kept beside the `vscode.TestRun` calls
// themselves: the Testing API lets an extension report results but not read them back, and the
// integration tests (through the extension's API) need to.

import type * as vscode from "vscode";

export type TestState = "enqueued" | "started" | "passed" | "failed" | "errored" | "skipped";

export interface RecordedMessage {
  text: string;
  file?: string;
  /** 0-based, as in `vscode.Position`. */
  line?: number;
  character?: number;
  expected?: string;
  actual?: string;
}

export interface RecordedResult {
  state: TestState;
  messages: RecordedMessage[];
  durationMs?: number;
}

export class TestResultLog {
  private readonly byId = new Map<string, RecordedResult>();
  /** Finished test runs, counted when `end()` is called. */
  runsEnded = 0;

  snapshot(): Record<string, RecordedResult> {
    return Object.fromEntries(this.byId);
  }

  /** A TestRun whose every report is also recorded here. */
  wrap(run: vscode.TestRun) {
    const record = (item: vscode.TestItem, state: TestState, messages: readonly vscode.TestMessage[] = [], durationMs?: number) => {
      this.byId.set(item.id, { state, messages: messages.map(recordMessage), ...(durationMs !== undefined ? { durationMs } : {}) });
    };
    return {
      enqueued: (item: vscode.TestItem) => (run.enqueued(item), record(item, "enqueued")),
      started: (item: vscode.TestItem) => (run.started(item), record(item, "started")),
      skipped: (item: vscode.TestItem) => (run.skipped(item), record(item, "skipped")),
      passed: (item: vscode.TestItem, durationMs?: number) => (run.passed(item, durationMs), record(item, "passed", [], durationMs)),
      failed: (item: vscode.TestItem, messages: vscode.TestMessage[], durationMs?: number) => (
        run.failed(item, messages, durationMs), record(item, "failed", messages, durationMs)
      ),
      errored: (item: vscode.TestItem, messages: vscode.TestMessage[], durationMs?: number) => (
        run.errored(item, messages, durationMs), record(item, "errored", messages, durationMs)
      ),
      appendOutput: (text: string) => run.appendOutput(text),
      end: () => {
        run.end();
        this.runsEnded++;
      },
    };
  }
}

function recordMessage(message: vscode.TestMessage): RecordedMessage {
  const text = typeof message.message === "string" ? message.message : message.message.value;
  const location = message.location;
  return {
    text,
    ...(location ? { file: location.uri.fsPath, line: location.range.start.line, character: location.range.start.character } : {}),
    ...(message.expectedOutput !== undefined ? { expected: message.expectedOutput } : {}),
    ...(message.actualOutput !== undefined ? { actual: message.actualOutput } : {}),
  };
}

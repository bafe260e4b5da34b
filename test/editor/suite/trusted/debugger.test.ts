/// <reference types="mocha" />
// The kernel-lab debugger in a real VS Code: a breakpoint inside add_kernel, a debug session of
// program (3, 0, 0), the stop, `offsets` read through the protocol as a block of 1024 i32, then
// continue to the end. No GPU is used: the program runs in the CPU interpreter.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { openFixture, rangeOf, waitFor } from "../editor-wait";

interface DapVariable {
  name: string;
  value: string;
  type?: string;
  variablesReference: number;
}

describe("Debugger", function () {
  this.timeout(90_000);
  const events: { event: string; body?: { reason?: string } }[] = [];
  let tracker: vscode.Disposable | undefined;

  before(() => {
    tracker = vscode.debug.registerDebugAdapterTrackerFactory("kernel-lab", {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (m: { type?: string; event?: string; body?: { reason?: string } }) => {
          if (m.type === "event" && m.event) events.push({ event: m.event, body: m.body });
        },
      }),
    });
  });
  after(() => {
    tracker?.dispose();
    vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
  });

  it("puts Debug program… above each defineRun", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const lenses = await waitFor("the CodeLenses", async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", document.uri);
      return found?.some((l) => l.command?.title === "Debug program…") ? found : undefined;
    });
    const debug = lenses.find((l) => l.command?.title === "Debug program…");
    assert.equal(debug?.command?.command, "kernelLab.debugProgram");
    assert.deepEqual(debug?.command?.arguments?.[1], "smallAdd");
  });

  it("stops at a breakpoint in add_kernel and shows offsets as a block of 1024 i32", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const maskLine = rangeOf(document, "const mask").start.line;
    vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(document.uri, new vscode.Position(maskLine, 0)))]);
    const folder = vscode.workspace.getWorkspaceFolder(document.uri);
    const terminated = new Promise<void>((resolve) => {
      const listener = vscode.debug.onDidTerminateDebugSession((s) => {
        if (s.type === "kernel-lab") {
          listener.dispose();
          resolve();
        }
      });
    });
    const started = await vscode.debug.startDebugging(folder, {
      type: "kernel-lab",
      request: "launch",
      name: "offsets of program 3",
      program: document.uri.fsPath,
      run: "smallAdd",
      size: 10_000,
      programId: [3, 0, 0],
      constexprs: { BLOCK_SIZE: 1024 },
    });
    assert.equal(started, true);
    const stopped = await waitFor("the stopped event", () => events.find((e) => e.event === "stopped"), 60_000);
    assert.equal(stopped.body?.reason, "breakpoint");
    const session = vscode.debug.activeDebugSession;
    assert.equal(session?.type, "kernel-lab");
    if (!session) return;

    const { stackFrames } = await session.customRequest("stackTrace", { threadId: 1 });
    assert.equal(stackFrames[0].line, maskLine + 1);
    assert.match(stackFrames[0].name, /add_kernel · program \(3, 0, 0\)/);
    const { scopes } = await session.customRequest("scopes", { frameId: stackFrames[0].id });
    const locals: DapVariable[] = (await session.customRequest("variables", { variablesReference: scopes[0].variablesReference })).variables;
    const offsets = locals.find((v) => v.name === "offsets");
    assert.ok(offsets, `locals: ${JSON.stringify(locals)}`);
    assert.equal(offsets.type, "i32[1024]");
    assert.equal(locals.find((v) => v.name === "pid")?.value, "3");
    const elements: DapVariable[] = (await session.customRequest("variables", { variablesReference: offsets.variablesReference })).variables;
    const value = (name: string) => elements.find((v) => v.name === name)?.value;
    assert.equal(value("shape"), "[1024]");
    assert.equal(value("dtype"), "i32");
    assert.deepEqual(["[0]", "[1]", "[2]", "[3]"].map(value), ["3072", "3073", "3074", "3075"]);

    await session.customRequest("continue", { threadId: 1 });
    await terminated;
    assert.ok(events.some((e) => e.event === "terminated"));
  });
});

/// <reference types="mocha" />
// The web extension in VS Code's web worker extension host (code-server with the user setting
// `remote.extensionKind: ["web"]`), Chromium's WebGPU underneath (SwiftShader here): a kernel file's
// diagnostics (a Python one's through the extension's own torch._inductor too), inlay hints and hover; the Testing view; the debugger stopped in add_kernel; a .py
// file run, debugged and run again on one Pyodide; Run
// Kernel on vector add, softmax and matmul, each correct and timed. The workspace is
// test/editor/workspace/, as for the desktop's trusted suite.
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../src/editor/activate";
import type { PanelState } from "../../../src/editor/results-panel";
import type { RunCommandResult } from "../../../src/editor/run-controller";
import type { FileReport } from "../../../src/harness/report";
import type { PythonFileReport } from "../../../src/harness/python/report";
import type { PythonRunCommandResult } from "../../../src/editor/python-run";
import { describeDiagnostics, kernelLabDiagnostics, openFixture, rangeOf, waitFor } from "../suite/editor-wait";
import { deepEqual, equal, match, ok } from "./assert";
import { collected } from "./collected";
import { extensionId } from "./extension-id";
import webRuns from "./runs.json";

let api: KernelLabApi;

const hoverText = (hovers: vscode.Hover[]) =>
  hovers.flatMap((h) => h.contents.map((c) => (typeof c === "string" ? c : "value" in c ? c.value : ""))).join("\n---\n");

/** What the run's timing says about its clock: GPU timestamps (precise or coarse) or wall clock. */
function clockOf(report: FileReport): string {
  return report.runs.map((r) => `${r.timing?.source}${r.timing?.resolutionMs !== undefined ? ` in ${r.timing.resolutionMs} ms steps` : ""}`).join(", ");
}

describe("web extension", function () {
  this.timeout(120_000);

  before(async () => {
    api = (await vscode.extensions.getExtension<KernelLabApi>(extensionId)!.activate())!;
  });
  // The last run's results panel beside its kernel, for web.test.mjs's picture.
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closePanel");
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
  });

  it("runs in the browser's extension host, with navigator.gpu there", () => {
    equal(api.platform, "browser");
    const scope = globalThis as { navigator?: { gpu?: unknown; userAgent?: string }; process?: { versions?: { node?: string } } };
    ok(scope.navigator?.gpu, "navigator.gpu is undefined in the extension host");
    ok(!scope.process?.versions?.node, "this extension host is Node");
    collected.notes.push(`extension host: ${scope.navigator?.userAgent}`);
    collected.notes.push(`Kernel Lab loaded from ${vscode.extensions.getExtension(extensionId)!.extensionUri.toString(true)}, activated in ${api.activationMs.toFixed(1)} ms`);
  });

  it("Show WGSL returns the generated WGSL of a kernel file", async () => {
    const document = await openFixture("vector-add.kernel.ts");
    const shown = await vscode.commands.executeCommand<{ text: string } | undefined>("kernelLab.showWgsl", document.uri);
    ok(shown?.text.includes("@compute"), `showWgsl returned ${JSON.stringify(shown)?.slice(0, 300)}`);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("underlines a kernel's shape error at its range as the file opens", async () => {
    const document = await openFixture("broken/shape-mismatch.kernel.ts");
    const [diagnostic] = await waitFor("KL2001", () => {
      const found = kernelLabDiagnostics(document.uri);
      return found.length > 0 ? found : undefined;
    });
    equal(typeof diagnostic.code === "object" ? diagnostic.code.value : diagnostic.code, "KL2001");
    match(diagnostic.message, /shapes \[64\] and \[128\] don't match/);
    ok(diagnostic.range.isEqual(rangeOf(document, "x + y")), `range: ${describeDiagnostics([diagnostic])}`);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("a kernel file from torch.compile's cache: its triton_helpers calls read from the extension's own dist/python-lib/, a name it lacks named with the nearest", async () => {
    const document = await openFixture("inductor/softmax-typo.py");
    const [diagnostic] = await waitFor("KL1104", () => {
      const found = kernelLabDiagnostics(document.uri);
      return found.length > 0 ? found : undefined;
    });
    equal(kernelLabDiagnostics(document.uri).length, 1, describeDiagnostics(kernelLabDiagnostics(document.uri)));
    equal(typeof diagnostic.code === "object" ? diagnostic.code.value : diagnostic.code, "KL1104");
    match(diagnostic.message, /has no @triton\.jit function 'max3'; did you mean triton_helpers\.max2\?$/);
    ok(diagnostic.range.isEqual(rangeOf(document, "triton_helpers.max3")), `range: ${describeDiagnostics([diagnostic])}`);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("shows inlay hints and the hover of a tl.* call in softmax", async () => {
    const document = await openFixture("inspect/softmax.kernel.ts");
    const whole = new vscode.Range(0, 0, document.lineCount, 0);
    const hints = await waitFor("inlay hints", async () => {
      const found = await vscode.commands.executeCommand<vscode.InlayHint[]>("vscode.executeInlayHintProvider", document.uri, whole);
      return found.length > 0 ? found : undefined;
    });
    const labels = hints.map((h) => (typeof h.label === "string" ? h.label : h.label.map((p) => p.value).join("")));
    for (const want of [": i32[1024]", ": bool[1024]", ": f32[1024]"]) ok(labels.includes(want), `${want} in ${JSON.stringify(labels)}`);
    const at = rangeOf(document, "tl.max").start.translate(0, 4);
    await waitFor("a hover with the shapes", async () => {
      const text = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>("vscode.executeHoverProvider", document.uri, at));
      return text.includes("tl.max(row: f32[1024], 0) → f32") || undefined;
    });
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("offers Kernel Lab's types where TypeScript can't find 'kernel-lab', and the quick fix makes the error go", async () => {
    // A folder outside the repository (whose tsconfig maps kernel-lab), as a learner's would be:
    // TypeScript runs on code-server's Node host, apart from this extension and its TS plugin.
    const workspace = vscode.workspace.workspaceFolders![0].uri;
    const folder = workspace.with({ path: `/tmp/kernel-lab-web-types-${Date.now()}` });
    const file = vscode.Uri.joinPath(folder, "vector-add.kernel.ts");
    await vscode.workspace.fs.writeFile(file, await vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspace, "vector-add.kernel.ts")));
    try {
      const document = await vscode.workspace.openTextDocument(file);
      await vscode.window.showTextDocument(document, { preview: false });
      const missing = () => vscode.languages.getDiagnostics(file).filter((d) => d.source === "ts" && d.message.includes("'kernel-lab'"));
      const [error] = await waitFor("TypeScript's Cannot find module 'kernel-lab'", () => (missing().length > 0 ? missing() : undefined), 60_000);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", file, error.range, vscode.CodeActionKind.QuickFix.value);
      const fix = actions.find((a) => a.command?.command === "kernelLab.addTypes");
      ok(fix, `code actions: ${JSON.stringify(actions.map((a) => a.title))}`);
      const done = await vscode.commands.executeCommand<{ written: string[] }>(fix.command!.command, ...(fix.command!.arguments ?? []));
      deepEqual(done.written.map((w) => vscode.Uri.parse(w).path.split("/").pop()), ["kernel-lab.d.ts", "tsconfig.json"]);
      await waitFor("TypeScript to find 'kernel-lab' in the written types", () => missing().length === 0, 60_000);
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    } finally {
      await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false });
    }
  });

  it("runs a size of a run from the Testing view, in a Web Worker", async () => {
    const probe = api.tests!;
    await vscode.commands.executeCommand("workbench.view.testing.focus");
    const item = await waitFor("scaleSweep's sizes in the Testing view", () => {
      const find = (items: ReturnType<typeof probe.items>): (typeof items)[number] | undefined =>
        items.map((i) => (i.label === "scaleSweep" ? i : find(i.children))).find(Boolean);
      return find(probe.items())?.children[0];
    });
    await probe.run([item.id]);
    const result = await waitFor(`a result for ${item.id}`, () => {
      const r = probe.results()[item.id];
      return r && !["enqueued", "started"].includes(r.state) ? r : undefined;
    });
    equal(result.state, "passed", JSON.stringify(result));
  });

  it("stops at a breakpoint in add_kernel and shows offsets (the recording made in a Web Worker)", async () => {
    const events: { event: string; body?: { reason?: string } }[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory("kernel-lab", {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (m: { type?: string; event?: string; body?: { reason?: string } }) => {
          if (m.type === "event" && m.event) events.push({ event: m.event, body: m.body });
        },
      }),
    });
    try {
      const document = await openFixture("vector-add.kernel.ts");
      const maskLine = rangeOf(document, "const mask").start.line;
      vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(document.uri, new vscode.Position(maskLine, 0)))]);
      const terminated = new Promise<void>((resolve) => {
        const listener = vscode.debug.onDidTerminateDebugSession((s) => s.type === "kernel-lab" && (listener.dispose(), resolve()));
      });
      const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(document.uri), {
        type: "kernel-lab",
        request: "launch",
        name: "offsets of program 3",
        program: document.uri.path,
        run: "smallAdd",
        programId: [3, 0, 0],
        constexprs: { BLOCK_SIZE: 1024 },
      });
      equal(started, true, "startDebugging");
      const stopped = await waitFor("the stopped event", () => events.find((e) => e.event === "stopped"), 60_000);
      equal(stopped.body?.reason, "breakpoint");
      const session = vscode.debug.activeDebugSession!;
      const { stackFrames } = await session.customRequest("stackTrace", { threadId: 1 });
      equal(stackFrames[0].line, maskLine + 1, "stopped on the breakpoint's line");
      match(stackFrames[0].name, /add_kernel · program \(3, 0, 0\)/);
      const { scopes } = await session.customRequest("scopes", { frameId: stackFrames[0].id });
      const locals: { name: string; value: string; type?: string; variablesReference: number }[] = (
        await session.customRequest("variables", { variablesReference: scopes[0].variablesReference })
      ).variables;
      const offsets = locals.find((v) => v.name === "offsets");
      ok(offsets, `locals: ${JSON.stringify(locals)}`);
      equal(offsets.type, "i32[1024]");
      const elements: { name: string; value: string }[] = (await session.customRequest("variables", { variablesReference: offsets.variablesReference })).variables;
      deepEqual(["[0]", "[1]", "[2]"].map((n) => elements.find((v) => v.name === n)?.value), ["3072", "3073", "3074"]);
      await session.customRequest("continue", { threadId: 1 });
      await terminated;
    } finally {
      tracker.dispose();
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    }
  });

  it("a .py file: Run File, Debug program… and Run File again, on one Pyodide in the Python worker", async function () {
    this.timeout(240_000);
    const document = await openFixture("web/row-sums.py");
    const run = async () => {
      const result = await vscode.commands.executeCommand<PythonRunCommandResult>("kernelLab.runPythonFile", document.uri);
      ok(result?.kind === "completed" && "exitCode" in result, JSON.stringify(result).slice(0, 600));
      const report = (result as { report: PythonFileReport }).report;
      deepEqual([(result as { outcome: string }).outcome, report.checks.map((c) => c.passed)], ["ok", [true]], report.traceback ?? "");
      return report.pyodide;
    };
    const first = await run();
    collected.notes.push(`row-sums.py: Pyodide ${first.startKind}, started in ${first.startMs} ms`);

    const said: string[] = [];
    const events: string[] = [];
    const tracker = vscode.debug.registerDebugAdapterTrackerFactory("kernel-lab", {
      createDebugAdapterTracker: () => ({
        onDidSendMessage: (m: { type?: string; event?: string; body?: { output?: string } }) => {
          if (m.type !== "event" || !m.event) return;
          events.push(m.event);
          if (m.event === "output" && m.body?.output) said.push(m.body.output);
        },
      }),
    });
    try {
      const storeLine = rangeOf(document, "tl.store(out_ptr + row").start.line;
      vscode.debug.addBreakpoints([new vscode.SourceBreakpoint(new vscode.Location(document.uri, new vscode.Position(storeLine, 0)))]);
      const terminated = new Promise<void>((resolve) => {
        const listener = vscode.debug.onDidTerminateDebugSession((s) => s.type === "kernel-lab" && (listener.dispose(), resolve()));
      });
      const started = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(document.uri), {
        type: "kernel-lab",
        request: "launch",
        name: "row 2",
        program: document.uri.path,
        kernel: "row_sums_kernel",
        programId: [2],
      });
      equal(started, true, "startDebugging");
      await waitFor("the stopped event", () => events.includes("stopped") || undefined, 60_000);
      // The debug launch's script ran on the Pyodide the Run started: no second start.
      ok(said.some((line) => line.includes("Kernel Lab's Python (Pyodide), already running (reused)")), said.join(""));
      const session = vscode.debug.activeDebugSession!;
      const { stackFrames } = await session.customRequest("stackTrace", { threadId: 1 });
      equal(stackFrames[0].line, storeLine + 1, "stopped at tl.store's Python line");
      const { scopes } = await session.customRequest("scopes", { frameId: stackFrames[0].id });
      const locals: { name: string; value: string }[] = (await session.customRequest("variables", { variablesReference: scopes[0].variablesReference })).variables;
      // Row 2 of arange(185) × 0.25 as 5 rows of 37, scaled by 2 (an even row): (74 + … + 110) × 0.25 × 2.
      deepEqual(["row", "total"].map((n) => Number(locals.find((v) => v.name === n)?.value)), [2, 1702], JSON.stringify(locals));
      await session.customRequest("continue", { threadId: 1 });
      await terminated;
    } finally {
      tracker.dispose();
      vscode.debug.removeBreakpoints(vscode.debug.breakpoints);
    }
    const again = await run();
    deepEqual([again.warm, again.startKind], [true, "reused"], "the run after the debug reuses the Pyodide");
  });

  it("an exercise: Open Exercise writes it through workspace.fs, a run of it solved marks it solved; a quick fix is offered", async () => {
    const opened = await vscode.commands.executeCommand<{ kind: string; uri?: string; created?: boolean }>("kernelLab.openExercise", "puzzle-01");
    ok(opened.kind === "opened" && opened.created && opened.uri, JSON.stringify(opened));
    const uri = vscode.Uri.parse(opened.uri!);
    try {
      const document = await vscode.workspace.openTextDocument(uri);
      const stub = "  // TODO: the block's offsets (tl.arange), load x there, store x + 10 to z.";
      const at = document.getText().indexOf(stub);
      ok(at >= 0, "the stub's TODO is in the file");
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, new vscode.Range(document.positionAt(at), document.positionAt(at + stub.length)), "  const r = tl.arange(0, B0);\n  tl.store(z_ptr + r, tl.load(x_ptr + r) + 10.0);");
      ok(await vscode.workspace.applyEdit(edit));
      const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", uri);
      equal(result.kind === "completed" && result.outcome, "ok", JSON.stringify(result).slice(0, 600));
      await waitFor("puzzle-01 marked solved", () => api.exercises?.solved().includes("puzzle-01") || undefined);

      const broken = await openFixture("broken/math-call.kernel.ts");
      const [diagnostic] = await waitFor("KL1004", () => {
        const found = kernelLabDiagnostics(broken.uri);
        return found.length > 0 ? found : undefined;
      });
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", broken.uri, diagnostic.range, vscode.CodeActionKind.QuickFix.value);
      ok(actions.some((a) => a.title === "Change to tl.exp"), JSON.stringify(actions.map((a) => a.title)));
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, ".."), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    }
  });

  // The same list web.test.mjs runs on the Node runtime, to compare.
  const runs: { file: string; run: string; size?: number; title: string }[] = webRuns;
  for (const { file, run, size, title } of runs) {
    if (run === "smallMatmul") defineCacheTest();
    it(`Run Kernel: ${title} on the browser's WebGPU matches its reference, timed`, async () => {
      const document = await openFixture(file);
      const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, run, size);
      equal(result?.kind, "completed", JSON.stringify(result).slice(0, 600));
      if (result.kind !== "completed") return;
      equal(result.outcome, "ok", JSON.stringify(result.report).slice(0, 1500));
      const [report] = result.report.runs;
      equal(report.correct, true);
      ok(result.report.adapter && result.report.adapter.backend !== "cpu", `adapter ${JSON.stringify(result.report.adapter)}`);
      ok(report.timing && report.timing.medianMs > 0, JSON.stringify(report.timing));
      ok(report.timing.source === "timestamp-query" || report.timing.source === "wall-clock", report.timing.source);
      collected.runs.push({ file, run, ...(size !== undefined ? { size } : {}), report: result.report });
      collected.notes.push(`${run} n=${report.size}: median ${report.timing.medianMs} ms (${clockOf(result.report)}) on ${JSON.stringify(result.report.adapter)}`);
      const rendered = await waitFor("the results panel to draw the run", async () => {
        const state = await vscode.commands.executeCommand<PanelState>("kernelLab.showResults");
        return state?.lastRendered?.messageType === "results" && state.lastRendered.runs === 1 ? state.lastRendered : undefined;
      });
      deepEqual(rendered.verdicts, ["match"]);
    });
  }
});

/** After the first (tuning) run of tunedAdd: the worker got the cache the extension kept. */
function defineCacheTest(): void {
  it("keeps the autotuner's choice: a second run takes it from the cache in global storage", async () => {
    const document = await openFixture("tuned-add.kernel.ts");
    const result = await vscode.commands.executeCommand<RunCommandResult>("kernelLab.runKernel", document.uri, "tunedAdd");
    equal(result?.kind, "completed");
    if (result.kind !== "completed") return;
    const [report] = result.report.runs;
    equal(report.correct, true);
    equal(report.autotune?.cached, true, JSON.stringify(report.autotune));
  });
}

// The harness's browser worker (dist/web/worker.js, harness/workers/web-worker.ts) in a plain page, without
// VS Code: headless Chromium with `--enable-unsafe-webgpu` (SwiftShader here) on a loopback http://
// page, the page answering the worker's reads from this repository as the web extension does
// through `vscode.workspace.fs`. Each run is checked against the Node runtime's report of the same
// file, run and size (Dawn), and a page without WebGPU runs on the interpreter.
//
//   node scripts/build.mjs && npx tsx --test test/web/worker.test.ts

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import type { DebugLaunch, ProgramTrace } from "../../src/harness/debug/debug-run";
import type { RunRequest } from "../../src/harness/workers/protocol";
import type { FileReport } from "../../src/harness/report";
import { runFileWithOutcome } from "../../src/harness/run/run";
import type { FromWebWorker, ToWebWorker } from "../../src/harness/workers/web-protocol";
import type { PythonFileReport } from "../../src/harness/python/report";

const root = path.resolve(__dirname, "..", "..");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"];

/**
 * The page's side, as the web extension does it: one fresh worker per request, its reads answered
 * from /files/, its messages collected until the answer. (A page script, not a function handed to
 * page.evaluate: the test's transpiler would wrap such a function's inner names in helpers the page lacks.)
 */
const PAGE = `<!doctype html><title>Kernel Lab worker</title><script>
function ask(request) {
  return new Promise((resolve) => {
    const worker = new Worker("/worker.js");
    const messages = [];
    const done = (last) => { worker.terminate(); resolve({ messages, last }); };
    worker.onmessage = async ({ data }) => {
      messages.push(data);
      if (data.type === "read") {
        const response = await fetch("/files" + data.file);
        worker.postMessage(response.ok ? { type: "file", id: data.id, text: await response.text() } : { type: "file", id: data.id, error: response.status + " " + data.file });
      } else if (data.type === "is-folder") {
        worker.postMessage({ type: "folder", id: data.id, folder: (await (await fetch("/is-folder" + data.file)).text()) === "yes" });
      } else if (["result", "error", "trace", "debug-error"].includes(data.type)) {
        done(data);
      }
    };
    worker.onerror = (event) => done({ type: "error", message: event.message, code: "onerror" });
    worker.postMessage(request);
  });
}
// Python runs and debug launches as the web extension makes them: one worker kept for them all,
// Pyodide's files sent with the first request only (fetched here from dist/pyodide/). Resolves with
// the messages and the request's wall time.
let pythonWorker;
function askPython(request, pyodideFolder) {
  return new Promise(async (resolve) => {
    const started = performance.now();
    if (pyodideFolder) {
      const names = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
      const files = {};
      for (const name of names) files[name] = new Uint8Array(await (await fetch("/files" + pyodideFolder + "/" + name)).arrayBuffer());
      if (request.type === "debug") request.python.pyodide = files;
      else request.pyodide = files;
    }
    pythonWorker ??= new Worker("/worker.js");
    const messages = [];
    pythonWorker.onmessage = async ({ data }) => {
      messages.push(data);
      if (data.type === "read") {
        const response = await fetch("/files" + data.file);
        pythonWorker.postMessage(response.ok ? { type: "file", id: data.id, text: await response.text() } : { type: "file", id: data.id, error: response.status + " " + data.file });
      } else if (data.type === "is-folder") {
        pythonWorker.postMessage({ type: "folder", id: data.id, folder: (await (await fetch("/is-folder" + data.file)).text()) === "yes" });
      } else if (["python-result", "error", "trace", "debug-error"].includes(data.type)) {
        resolve({ messages, last: data, ms: performance.now() - started });
      }
    };
    pythonWorker.postMessage(request);
  });
}
// A Python file's debug launch as the first Python request of a fresh worker (ask), Pyodide's files with it.
async function askDebugPython(request, pyodideFolder) {
  const names = ["pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
  request.python.pyodide = {};
  for (const name of names) request.python.pyodide[name] = new Uint8Array(await (await fetch("/files" + pyodideFolder + "/" + name)).arrayBuffer());
  return ask(request);
}
</script>`;

/** Files the page serves that aren't in the repository (absolute path → text). */
const virtualFiles = new Map<string, string>();

/** Serves the page, the worker bundle, and (read-only) the repository's files under /files/. */
function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const send = (type: string, body: Buffer | string) => {
      response.setHeader("content-type", type);
      response.end(body);
    };
    try {
      if (url.pathname === "/") return send("text/html", PAGE);
      if (url.pathname === "/worker.js") return send("text/javascript", readFileSync(path.join(root, "dist/web/worker.js")));
      // As the web extension answers an `is-folder` (vscode.workspace.fs.stat): a folder of the repository.
      if (url.pathname.startsWith("/is-folder/")) {
        const folder = decodeURIComponent(url.pathname.slice("/is-folder".length));
        return send("text/plain", folder.startsWith(root + path.sep) && statSync(folder, { throwIfNoEntry: false })?.isDirectory() ? "yes" : "no");
      }
      const file = decodeURIComponent(url.pathname.slice("/files".length));
      const virtual = virtualFiles.get(file);
      if (virtual !== undefined) return send("text/plain", virtual);
      if (url.pathname.startsWith("/files/") && path.resolve(file).startsWith(root + path.sep)) return send("text/plain", readFileSync(file));
    } catch {
      // not found
    }
    response.statusCode = 404;
    response.end();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

interface WorkerAnswer {
  messages: FromWebWorker[];
  last: FromWebWorker;
}

/** One request to a fresh worker in the page, answered until its result (or error, trace). */
function ask(page: Page, message: ToWebWorker): Promise<WorkerAnswer> {
  return page.evaluate((request) => (globalThis as unknown as { ask(r: unknown): Promise<WorkerAnswer> }).ask(request), message);
}

const context = { cwd: root, env: {}, cacheFiles: [] as [string, string][] };

async function runInPage(page: Page, request: Omit<RunRequest, "type">): Promise<{ report: FileReport; messages: FromWebWorker[] }> {
  const { last, messages } = await ask(page, { type: "run", request: { type: "run", ...request }, context });
  assert.equal(last.type, "result", JSON.stringify(last).slice(0, 1000));
  if (last.type !== "result") throw new Error("unreachable");
  return { report: last.report, messages };
}

let server: Server;
let browser: Browser;
let page: Page;

before(async () => {
  server = await serve();
  browser = await chromium.launch({ executablePath: chromiumPath, args: [...chromiumArgs, "--enable-unsafe-webgpu"] });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

after(async () => {
  await browser?.close();
  server?.close();
});

test("vector add on the page's WebGPU: correct, timed with timestamp-query, as on Node", async () => {
  const file = path.join(root, "examples/vector-add.kernel.ts");
  const request = { file, size: 10_000, reps: 3 };
  const [{ report, messages }, node] = await Promise.all([runInPage(page, request), runFileWithOutcome(file, { size: 10_000, reps: 3 })]);
  assert.equal(report.adapter?.backend, "webgpu");
  assert.ok(messages.some((m) => m.type === "read" && m.file === file), "the worker read the kernel file through the page");
  const [web] = report.runs;
  const [local] = node.report.runs;
  assert.equal(web.correct, true, JSON.stringify(web).slice(0, 800));
  assert.equal(local.correct, true);
  assert.deepEqual([web.name, web.size, web.grid, web.constexprs], [local.name, local.size, local.grid, local.constexprs]);
  assert.equal(web.timing?.source, "timestamp-query");
  assert.ok(web.timing.medianMs > 0);
  console.log(`  browser ${report.adapter?.device}: ${web.timing.medianMs} ms${web.timing.resolutionMs ? ` (timestamps in ${web.timing.resolutionMs} ms steps)` : ""}; Node ${node.report.adapter?.device}: ${local.timing?.medianMs} ms`);
});

test("a kernel file's relative imports (.ts, .js spelling, JSON) are read through the page", async () => {
  const file = path.join(root, "test/fixtures/imports/scaled.kernel.ts");
  const { report, messages } = await runInPage(page, { file, cpu: true });
  assert.deepEqual(report.diagnostics, []);
  assert.ok(report.runs.length > 0 && report.runs.every((r) => r.correct), JSON.stringify(report.runs).slice(0, 800));
  const read = messages.flatMap((m) => (m.type === "read" ? [path.basename(m.file)] : []));
  for (const name of ["scaled.kernel.ts", "shared.ts", "factors.ts", "settings.json"]) assert.ok(read.includes(name), `${name} in ${read.join(", ")}`);
});

/** Kernel Lab's torch and triton modules as the extension sends them with a worker's first Python request (path → text). */
function pythonLib(): Record<string, string> {
  const lib: Record<string, string> = {};
  const walk = (dir: string, under: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${under}${entry.name}/`);
      else if (entry.name.endsWith(".py")) lib[`${under}${entry.name}`] = readFileSync(path.join(dir, entry.name), "utf8");
    }
  };
  walk(path.join(root, "dist/python-lib"), "");
  return lib;
}

/** The Python lines, and `total` at the last stop, of program 2 of test/python/debug-row-sums.py's row_sums_kernel. */
function checkRowSumsTrace(trace: ProgramTrace): void {
  assert.deepEqual([trace.kernel, trace.launchLine, trace.grid, trace.programId], ["row_sums_kernel", 39, [5, 1, 1], [2, 0, 0]]);
  // The Python lines of the kernel's statements (18 `row = …` to 28 `tl.store`) and of its helper `scaled` (13).
  assert.deepEqual(trace.statementLines, [13, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28]);
  const store = trace.stops.at(-1);
  assert.equal(store?.line, 28);
  // x is arange(185) × 0.25 as 5 rows of 37; row 2 is even, so its sum is scaled by 2.
  const rowSum = Array.from({ length: 37 }, (_, c) => (2 * 37 + c) * 0.25).reduce((a, b) => a + b, 0);
  assert.equal(store?.bindings.find((b) => b.name === "total")?.values[0], rowSum * 2);
}

test("a Python kernel's debug launch in a fresh worker: it starts Pyodide, runs the script to the launch and records that program at the Python lines", async () => {
  const lib = pythonLib();
  const launch: DebugLaunch = { file: path.join(root, "test/python/debug-row-sums.py"), kernel: "row_sums_kernel", programId: [2] };
  const request = { type: "debug", launch, context, python: { lib } };
  const { last, messages } = await page.evaluate(
    ([r, folder]) => (globalThis as unknown as { askDebugPython(r: unknown, f: string): Promise<WorkerAnswer> }).askDebugPython(r, folder),
    [request, path.join(root, "dist/pyodide")] as const,
  );
  assert.equal(last.type, "trace", JSON.stringify(last).slice(0, 800));
  if (last.type !== "trace") throw new Error("unreachable");
  checkRowSumsTrace(last.trace);
  assert.deepEqual([last.pyodideLoads, last.trace.pyodide?.warm], [1, false]);
  assert.ok(messages.some((m) => m.type === "console" && m.text.includes("rows: 5")), "what the script printed before the launch reaches the Debug Console");
});

test("a debug launch records add_kernel's program 3 in the worker", async () => {
  const launch: DebugLaunch = { file: path.join(root, "examples/vector-add.kernel.ts"), programId: [3] };
  const { last } = await ask(page, { type: "debug", launch, context });
  assert.equal(last.type, "trace", JSON.stringify(last).slice(0, 800));
  const trace = (last as { trace: ProgramTrace }).trace;
  assert.equal(trace.kernel, "add_kernel");
  assert.deepEqual(trace.programId, [3, 0, 0]);
  assert.ok(trace.stops.length > 0 && trace.statementLines.length > 0);
});

test("a page without WebGPU: the worker says so and runs on the interpreter", async () => {
  const plain = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const noGpu = await plain.newPage();
    await noGpu.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const { report, messages } = await runInPage(noGpu, { file: path.join(root, "examples/vector-add.kernel.ts"), size: 3000 });
    const notice = messages.find((m) => m.type === "no-webgpu");
    assert.ok(notice, "no no-webgpu message");
    assert.match((notice as { reason: string }).reason, /no adapter|navigator\.gpu is undefined/);
    assert.equal(report.adapter?.backend, "cpu");
    assert.equal(report.runs[0].correct, true);
    assert.equal(report.runs[0].timing?.source, "cpu-wall-clock");
  } finally {
    await plain.close();
  }
});

test("Python: one worker runs a file, records a debug launch, runs another file; Pyodide loaded once, each sees nothing of the one before", async () => {
  const first = path.join(root, "test/web/virtual-first.py");
  const second = path.join(root, "test/web/virtual-second.py");
  virtualFiles.set(first, [
    "import torch, triton, triton.language as tl",
    "@triton.jit",
    "def double(x_ptr, out_ptr, n, BLOCK: tl.constexpr):",
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)",
    "    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)",
    "leaked = 'from the first run'",
    "x = torch.rand(1000, device='cuda')",
    "out = torch.empty_like(x)",
    "double[(triton.cdiv(1000, 256),)](x, out, 1000, BLOCK=256)",
    "torch.testing.assert_close(out, x * 2)",
    "print('first element', x[0].item())",
    "",
  ].join("\n"));
  virtualFiles.set(second, [
    "import torch",
    "print('leaked' in globals(), 'first element', torch.rand(1000, device='cuda')[0].item())",
    "",
  ].join("\n"));
  const lib = pythonLib();
  type PythonAnswer = { messages: FromWebWorker[]; last: FromWebWorker; ms: number };
  const askPython = (file: string, pyodideFolder?: string): Promise<PythonAnswer> => {
    const request = { type: "run-python", request: { type: "run-python", file, cpu: false, bench: "off" }, context, ...(pyodideFolder ? { lib } : {}) };
    return page.evaluate(([r, folder]) => (globalThis as unknown as { askPython(r: unknown, f?: string): Promise<PythonAnswer> }).askPython(r, folder), [request, pyodideFolder] as const);
  };
  const askDebug = (launch: DebugLaunch): Promise<PythonAnswer> =>
    page.evaluate((r) => (globalThis as unknown as { askPython(r: unknown): Promise<PythonAnswer> }).askPython(r), { type: "debug", launch, context });
  const runs: { report: PythonFileReport; ms: number }[] = [];
  const run = async (file: string, folder?: string) => {
    const { last, ms } = await askPython(file, folder);
    assert.equal(last.type, "python-result", JSON.stringify(last).slice(0, 1000));
    if (last.type !== "python-result") throw new Error("unreachable");
    assert.equal(last.outcome, "ok", last.report.traceback);
    assert.equal(last.pyodideLoads, 1, "Pyodide loaded once in the worker");
    runs.push({ report: last.report, ms });
  };
  await run(first, path.join(root, "dist/pyodide"));
  // Debug program… between the runs: the same worker, no Pyodide files sent, no second load.
  const debugged = await askDebug({ file: path.join(root, "test/python/debug-row-sums.py"), kernel: "row_sums_kernel", programId: [2] });
  assert.equal(debugged.last.type, "trace", JSON.stringify(debugged.last).slice(0, 800));
  if (debugged.last.type !== "trace") throw new Error("unreachable");
  checkRowSumsTrace(debugged.last.trace);
  assert.deepEqual([debugged.last.pyodideLoads, debugged.last.trace.pyodide?.warm, debugged.last.trace.pyodide?.startKind], [1, true, "reused"]);
  assert.ok(debugged.ms < runs[0].ms, `the debug launch took ${debugged.ms} ms, the first run (Pyodide's start) ${runs[0].ms} ms`);
  await run(second);
  // Kernels that call other modules' @triton.jit functions: the package beside the script read
  // through the page (the worker's host.readText), its relative imports too, and a namespace package
  // (a folder without __init__.py: the worker's host.isFolder, asked of the page).
  for (const [script, launches] of [["xmod-kernels.py", 2], ["xmod-relative.py", 2], ["xmod-namespace.py", 1]] as const) {
    await run(path.join(root, "test/python", script));
    const { report } = runs.pop()!;
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true], `${script}: ${report.stdout}`);
    assert.equal(report.launches.length, launches, script);
  }
  const [one, two] = runs;
  assert.equal(one.report.pyodide.startKind, "cold");
  assert.deepEqual([two.report.pyodide.warm, two.report.pyodide.startKind], [true, "reused"]);
  assert.equal(one.report.checks[0]?.passed, true);
  // The second file sees no name of the first's, and torch's generator starts from the same seed again.
  const drawn = /first element (\S+)/.exec(one.report.stdout)?.[1];
  assert.ok(drawn, one.report.stdout);
  assert.equal(two.report.stdout, `False first element ${drawn}\n`);
  assert.ok(two.ms < one.ms, `the second run took ${two.ms} ms, the first ${one.ms} ms`);
  console.log(`  first run ${Math.round(one.ms)} ms (Pyodide started: ${one.report.pyodide.startMs} ms), debug ${Math.round(debugged.ms)} ms, second run ${Math.round(two.ms)} ms (reused)`);
});

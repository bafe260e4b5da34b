// The kernel-lab debug adapter spoken to over the Debug Adapter Protocol, in this process (no
// VS Code): a breakpoint in add_kernel, the stop, `offsets` as a block, stepping, the end.
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { recordHere } from "../../src/editor/debug/record-here";
import { KernelDebugSession } from "../../src/editor/debug/session";
import { stopPython } from "../../src/harness/python/session";

const clients: Client[] = [];
after(() => clients.forEach((c) => c.close()));
// The Python tests' script runs on this process's Python thread (record-here.ts), shared by them.
after(stopPython);

const FIXTURE = path.resolve(__dirname, "../editor/workspace/vector-add.kernel.ts");

interface Message {
  type: string;
  seq: number;
  command?: string;
  event?: string;
  success?: boolean;
  message?: string;
  request_seq?: number;
  body?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A DAP client over in-memory streams, recording every event. */
class Client {
  private readonly toAdapter = new PassThrough();
  private readonly fromAdapter = new PassThrough();
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly waiting = new Map<number, (m: Message) => void>();
  private readonly eventWaiters: { event: string; resolve: (m: Message) => void }[] = [];
  readonly events: Message[] = [];

  constructor() {
    // Nothing else holds the event loop open while the adapter awaits its launch.
    const alive = setInterval(() => undefined, 1000);
    this.fromAdapter.on("end", () => clearInterval(alive));
    clients.push(this);
    const session = new KernelDebugSession(recordHere);
    session.start(this.toAdapter, this.fromAdapter);
    this.fromAdapter.on("data", (chunk: Buffer) => this.receive(chunk));
  }

  request(command: string, args: unknown = {}): Promise<Message> {
    const seq = this.seq++;
    const json = JSON.stringify({ type: "request", seq, command, arguments: args });
    // The adapter may answer within write(): wait before writing.
    const answered = new Promise<Message>((resolve) => this.waiting.set(seq, resolve));
    this.toAdapter.write(`Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`);
    return answered;
  }

  close(): void {
    this.fromAdapter.end();
  }

  /** The next `event` not yet taken (or the first already received). */
  next(event: string): Promise<Message> {
    const i = this.events.findIndex((e) => e.event === event);
    if (i >= 0) return Promise.resolve(this.events.splice(i, 1)[0]);
    return new Promise((resolve) => this.eventWaiters.push({ event, resolve }));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const header = this.buffer.indexOf("\r\n\r\n");
      if (header < 0) return;
      const length = Number(/Content-Length: (\d+)/.exec(this.buffer.subarray(0, header).toString())?.[1]);
      if (this.buffer.length < header + 4 + length) return;
      const message = JSON.parse(this.buffer.subarray(header + 4, header + 4 + length).toString()) as Message;
      this.buffer = this.buffer.subarray(header + 4 + length);
      if (message.type === "response") this.waiting.get(message.request_seq as number)?.(message);
      else if (message.type === "event") {
        const w = this.eventWaiters.findIndex((x) => x.event === message.event);
        if (w >= 0) this.eventWaiters.splice(w, 1)[0].resolve(message);
        else this.events.push(message);
      }
    }
  }
}

async function launched(client: Client, launch: Record<string, unknown>, lines: number[]): Promise<Message> {
  await client.request("initialize", { adapterID: "kernel-lab", pathFormat: "path", linesStartAt1: true, columnsStartAt1: true });
  const launchResponse = client.request("launch", { program: FIXTURE, ...launch });
  const initialized = await Promise.race([client.next("initialized"), launchResponse]);
  assert.equal(initialized.event, "initialized", `launch failed: ${initialized.message}`);
  const bps = await client.request("setBreakpoints", { source: { path: (launch.program as string | undefined) ?? FIXTURE }, breakpoints: lines.map((line) => ({ line })) });
  await client.request("configurationDone");
  assert.equal((await launchResponse).success, true);
  return bps;
}

async function variablesAtStop(client: Client): Promise<Map<string, { value: string; type?: string; variablesReference: number }>> {
  const frames = await client.request("stackTrace", { threadId: 1 });
  const scopes = await client.request("scopes", { frameId: frames.body.stackFrames[0].id });
  const all = new Map();
  for (const scope of scopes.body.scopes) {
    const vars = await client.request("variables", { variablesReference: scope.variablesReference });
    for (const v of vars.body.variables) all.set(v.name, v);
  }
  return all;
}

test("stops at a breakpoint in add_kernel and shows offsets as a block of i32 for program 3", async () => {
  const client = new Client();
  // Line 10 is `const mask = …` (offsets bound, mask not yet); 15 and 3 are outside the kernel.
  const bps = await launched(client, { run: "smallAdd", size: 10_000, programId: [3, 0, 0], constexprs: { BLOCK_SIZE: 1024 } }, [10, 15, 3]);
  assert.deepEqual(bps.body.breakpoints.map((b: { verified: boolean; line: number }) => [b.verified, b.line]), [[true, 10], [false, 15], [false, 3]]);
  const stopped = await client.next("stopped");
  assert.equal(stopped.body.reason, "breakpoint");
  const frames = await client.request("stackTrace", { threadId: 1 });
  assert.equal(frames.body.stackFrames[0].line, 10);
  assert.match(frames.body.stackFrames[0].name, /add_kernel · program \(3, 0, 0\)/);

  const vars = await variablesAtStop(client);
  assert.equal(vars.get("pid")?.value, "3");
  assert.equal(vars.get("BLOCK_SIZE")?.value, "1024");
  const offsets = vars.get("offsets");
  assert.equal(offsets?.type, "i32[1024]");
  assert.ok(!vars.has("x"), "x is not bound before line 11 runs");
  const children = (await client.request("variables", { variablesReference: offsets?.variablesReference })).body.variables;
  const byName = new Map(children.map((c: { name: string; value: string }) => [c.name, c.value]));
  assert.equal(byName.get("shape"), "[1024]");
  assert.equal(byName.get("dtype"), "i32");
  assert.deepEqual([0, 1, 2].map((i) => byName.get(`[${i}]`)), ["3072", "3073", "3074"]);
  assert.equal(byName.get("…"), "896 more of 1024 elements");

  // Hovers and the Watch view evaluate a name to the same variable.
  const hover = await client.request("evaluate", { expression: "offsets", context: "hover", frameId: 1 });
  assert.equal(hover.body.type, "i32[1024]");
  assert.match(hover.body.result, /^i32\[1024\] \[3072, 3073, 3074/);
  assert.equal((await client.request("evaluate", { expression: "offsets + 1", context: "watch", frameId: 1 })).success, false);

  // next: the mask is bound, as booleans; back: it isn't.
  await client.request("next", { threadId: 1 });
  await client.next("stopped");
  const mask = (await variablesAtStop(client)).get("mask");
  assert.equal(mask?.type, "bool[1024]");
  const maskChildren = (await client.request("variables", { variablesReference: mask?.variablesReference })).body.variables;
  assert.equal(maskChildren.find((c: { name: string }) => c.name === "[0]").value, "true");
  await client.request("stepBack", { threadId: 1 });
  await client.next("stopped");
  assert.ok(!(await variablesAtStop(client)).has("mask"));

  await client.request("continue", { threadId: 1 });
  await client.next("terminated");
});

test("the last program's mask is false past n_elements; a program outside the grid is refused", async () => {
  const client = new Client();
  await launched(client, { size: 800, programId: [3] }, [13]);
  await client.next("stopped");
  const mask = (await variablesAtStop(client)).get("mask");
  const children = (await client.request("variables", { variablesReference: mask?.variablesReference })).body.variables;
  const byName = new Map(children.map((c: { name: string; value: string }) => [c.name, c.value]));
  // Program 3 of 256-element blocks over 800 elements holds 768…1023: 32 in range.
  assert.equal(byName.get("summary"), "32 of 256 true");
  assert.equal(byName.get("[31]"), "true");
  assert.equal(byName.get("[32]"), "false");

  // The Accesses scope: what this program's loads and stores touch over its whole run.
  const frames = await client.request("stackTrace", { threadId: 1 });
  const scopes = (await client.request("scopes", { frameId: frames.body.stackFrames[0].id })).body.scopes;
  const accesses = scopes.find((s: { name: string }) => s.name === "Accesses");
  const layers = (await client.request("variables", { variablesReference: accesses.variablesReference })).body.variables;
  assert.deepEqual(layers.map((l: { name: string }) => l.name), ["line 11: load x_ptr", "line 12: load y_ptr", "line 13: store output_ptr"]);
  assert.equal(layers[0].value, "32 of 256 lanes active, 32 elements [768, 800), 224 lanes masked off (224 past the end)");
  const x = new Map((await client.request("variables", { variablesReference: layers[0].variablesReference })).body.variables.map((c: { name: string; value: string }) => [c.name, c.value]));
  assert.equal(x.get("lanes"), "256 (every trip of its loop), 32 active, 224 masked off");
  assert.equal(x.get("touched[0]"), "x_ptr[768 … 799] (32 elements)");
  assert.equal(x.get("masked off[0]"), "x_ptr[800 … 1023] (224 elements)");

  const refused = new Client();
  await refused.request("initialize", { adapterID: "kernel-lab", pathFormat: "path" });
  const response = await refused.request("launch", { program: FIXTURE, size: 800, programId: [4, 0, 0] });
  assert.equal(response.success, false);
  assert.match(response.body.error.format, /program \(4, 0, 0\) is not in the grid \[4, 1, 1\]/);
});

test("an out-of-bounds load stops the session at its line with the interpreter's message", async () => {
  const client = new Client();
  const unmasked = path.resolve(__dirname, "../fixtures/unmasked.kernel.ts");
  await launched(client, { program: unmasked, programId: [7] }, []);
  const stopped = await client.next("stopped");
  assert.equal(stopped.body.reason, "exception");
  assert.match(stopped.body.text, /program \(7,0,0\), lane 104 loads x_ptr\[1000\] but x_ptr has 1000 elements/);
  const frames = await client.request("stackTrace", { threadId: 1 });
  assert.equal(frames.body.stackFrames[0].line, 8);
  assert.ok((await variablesAtStop(client)).has("offsets"));
});

test("a loop's body is a stop per trip; a long program is cut off at maxSteps", async () => {
  const client = new Client();
  const endless = path.resolve(__dirname, "../editor/workspace/faults/endless-loop.kernel.ts");
  await launched(client, { program: endless, maxSteps: 40 }, [11]);
  const accAt = async () => {
    await client.next("stopped");
    const vars = await variablesAtStop(client);
    assert.equal(vars.get("i")?.value, "0");
    const acc = vars.get("acc");
    return Number((await client.request("variables", { variablesReference: acc?.variablesReference })).body.variables.find((v: { name: string }) => v.name === "[0]").value);
  };
  const first = await accAt();
  await client.request("continue", { threadId: 1 });
  const second = await accAt();
  assert.ok(Math.abs(second - first - 1) < 1e-5, `acc[0] went from ${first} to ${second}`);
  // Remove the breakpoint and run out the record.
  await client.request("setBreakpoints", { source: { path: endless }, breakpoints: [] });
  await client.request("continue", { threadId: 1 });
  await client.next("terminated");
  const said = client.events.filter((e) => e.event === "output").map((e) => e.body.output).join("");
  assert.match(said, /40 steps recorded \(stopped recording there/);
});

test("a device function is a frame of its own: step in enters it, step out returns, next steps over", async () => {
  const client = new Client();
  const helper = path.resolve(__dirname, "../fixtures/debug-helper.kernel.ts");
  await launched(client, { program: helper }, [15]);
  const where = async () => {
    await client.next("stopped");
    const frames = (await client.request("stackTrace", { threadId: 1 })).body.stackFrames;
    return frames.map((f: { name: string; line: number }) => `${f.name.split(" ")[0]}@${f.line}`).join(" <- ");
  };
  assert.equal(await where(), "twice_kernel@15");
  await client.request("stepIn", { threadId: 1 });
  assert.equal(await where(), "scaled@7 <- twice_kernel@15");
  const vars = await variablesAtStop(client);
  assert.equal(vars.get("factor")?.value, "2");
  assert.equal(vars.get("v")?.type, "f32[64]");
  assert.ok(!vars.has("offsets"), "the kernel's names are the caller frame's, not the helper's");
  await client.request("stepOut", { threadId: 1 });
  assert.equal(await where(), "twice_kernel@16");
  await client.request("next", { threadId: 1 });
  assert.equal(await where(), "twice_kernel@17");
  // A breakpoint inside the helper stops in its second call, with that call's arguments.
  await client.request("setBreakpoints", { source: { path: helper }, breakpoints: [{ line: 8 }] });
  await client.request("reverseContinue", { threadId: 1 });
  assert.equal(await where(), "scaled@8 <- twice_kernel@16");
  assert.equal((await variablesAtStop(client)).get("factor")?.value, "3");
  await client.request("continue", { threadId: 1 });
  await client.next("terminated");
});

// A Python kernel: the script runs to the kernel's first launch on the embedded Python, then the
// program is recorded on the lowered kernel and shown on the Python text. x is arange(185) × 0.25
// as 5 rows of 37 (test/python/debug-row-sums.py), so each value the debugger shows is computed here.
const PY = path.resolve(__dirname, "../python/debug-row-sums.py");
const N_COLS = 37;
const xAt = (row: number, col: number) => (row * N_COLS + col) * 0.25;

test("a Python kernel: a breakpoint at a Python line, Python names, steps, a device function and the accesses", async () => {
  const client = new Client();
  // Line 23 is `acc += tl.load(…)` in the loop over column blocks; line 5 is outside every kernel.
  const bps = await launched(client, { program: PY, kernel: "row_sums_kernel", programId: [2] }, [23, 5]);
  assert.deepEqual(bps.body.breakpoints.map((b: { verified: boolean; line: number }) => [b.verified, b.line]), [[true, 23], [false, 5]]);
  const said = () => client.events.filter((e) => e.event === "output").map((e) => e.body.output).join("");
  assert.match(said(), /rows: 5\n/, "what the script printed before the launch");
  assert.match(said(), /Debugging row_sums_kernel, program \(2, 0, 0\) of its first launch, at line 39 of debug-row-sums\.py \(grid \[5, 1, 1\]\)/);

  // Each trip stops at line 23 with the block's columns; acc holds the trips before it.
  const accAtTrip = async (trip: number) => {
    const stopped = await client.next("stopped");
    assert.equal(stopped.body.reason, trip === 0 ? "breakpoint" : "breakpoint");
    const frames = (await client.request("stackTrace", { threadId: 1 })).body.stackFrames;
    assert.equal(frames[0].line, 23);
    assert.match(frames[0].name, /^row_sums_kernel · program \(2, 0, 0\)/);
    const vars = await variablesAtStop(client);
    assert.equal(vars.get("row")?.value, "2");
    assert.equal(vars.get("start")?.value, String(16 * trip));
    assert.equal(vars.get("n_cols")?.value, "37");
    assert.equal(vars.get("BLOCK")?.value, "16");
    assert.equal(vars.get("cols")?.type, "i32[16]");
    assert.equal(vars.get("mask")?.type, "bool[16]");
    assert.ok(!vars.has("total"), "total is assigned after the loop");
    const acc = (await client.request("variables", { variablesReference: vars.get("acc")?.variablesReference })).body.variables;
    const shown = Array.from({ length: 16 }, (_, j) => Number(acc.find((v: { name: string }) => v.name === `[${j}]`).value));
    const expected = Array.from({ length: 16 }, (_, j) => [0, 1, 2].slice(0, trip).reduce((s, t) => s + (16 * t + j < N_COLS ? xAt(2, 16 * t + j) : 0), 0));
    assert.deepEqual(shown, expected);
    return vars;
  };
  await accAtTrip(0);
  // next: the loop's next statement, on its own Python line.
  await client.request("next", { threadId: 1 });
  await client.next("stopped");
  assert.equal((await client.request("stackTrace", { threadId: 1 })).body.stackFrames[0].line, 21);
  await client.request("continue", { threadId: 1 });
  await accAtTrip(1);
  await client.request("continue", { threadId: 1 });
  await accAtTrip(2);

  // Line 25 calls the device function `scaled`: step in, its Python names, the row's sum.
  await client.request("setBreakpoints", { source: { path: PY }, breakpoints: [{ line: 25 }] });
  await client.request("continue", { threadId: 1 });
  await client.next("stopped");
  // total is assigned in both branches of the `if` (declared ahead of it in the lowered kernel): not shown before.
  assert.ok(!(await variablesAtStop(client)).has("total"), "total before line 25 assigns it");
  await client.request("stepIn", { threadId: 1 });
  await client.next("stopped");
  const frames = (await client.request("stackTrace", { threadId: 1 })).body.stackFrames;
  assert.deepEqual(frames.map((f: { name: string; line: number }) => `${f.name.split(" ")[0]}@${f.line}`), ["scaled@13", "row_sums_kernel@25"]);
  const inside = await variablesAtStop(client);
  const rowSum = Array.from({ length: N_COLS }, (_, c) => xAt(2, c)).reduce((a, b) => a + b, 0);
  assert.equal(Number(inside.get("x")?.value), rowSum);
  assert.equal(inside.get("factor")?.value, "2");

  // The Accesses scope: the load reads row 2's 37 columns over 3 trips of 16 lanes.
  const scopes = (await client.request("scopes", { frameId: frames[0].id })).body.scopes;
  const accesses = scopes.find((s: { name: string }) => s.name === "Accesses");
  const layers = (await client.request("variables", { variablesReference: accesses.variablesReference })).body.variables;
  assert.deepEqual(layers.map((l: { name: string }) => l.name), ["line 23: load x_ptr", "line 28: store out_ptr"]);
  assert.match(layers[0].value, /^37 of 48 lanes active, 37 elements \[74, 111\)/);

  // At the store: the scaled sum.
  await client.request("setBreakpoints", { source: { path: PY }, breakpoints: [{ line: 28 }] });
  await client.request("continue", { threadId: 1 });
  await client.next("stopped");
  assert.equal(Number((await variablesAtStop(client)).get("total")?.value), rowSum * 2);
  await client.request("setBreakpoints", { source: { path: PY }, breakpoints: [] });
  await client.request("continue", { threadId: 1 });
  await client.next("terminated");
});

test("a Python kernel the script never launches: a message naming it and what to do, no stack trace", async () => {
  const client = new Client();
  await client.request("initialize", { adapterID: "kernel-lab", pathFormat: "path" });
  const response = await client.request("launch", { program: PY, kernel: "never_launched" });
  assert.equal(response.success, false);
  const message: string = response.body.error.format;
  assert.match(message, /never_launched is never launched when .*debug-row-sums\.py runs: the script ended without calling never_launched\[grid\]\(…\)/);
  assert.match(message, /launch it from the script/);
  assert.doesNotMatch(message, /\n\s+at /);
});

test("a Python kernel calling another module's @triton.jit function: a breakpoint on the call stops inside it, its frame at that module's file and line under its Python name; a breakpoint in a helper's file stops there", async () => {
  const script = path.resolve(__dirname, "../python/xmod-kernels.py");
  const helperFile = path.resolve(__dirname, "../python/xmod_helpers/lang.py");
  const lineOf = (file: string, text: string) => readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(text)) + 1;
  const call = lineOf(script, "x = tle.load_block(X, offs, mask)");
  const load = lineOf(helperFile, "return tl.load(ptr + offs");
  const client = new Client();
  // Program 3 of clamp_kernel (n = 1000, BLOCK = 256): its last block, 232 lanes in bounds. The
  // call's line holds no step of its own (its first runs inside the helper): its breakpoint stops there.
  await launched(client, { program: script, kernel: "clamp_kernel", programId: [3] }, [call]);
  assert.equal((await client.next("stopped")).body.reason, "breakpoint");
  const frames = (await client.request("stackTrace", { threadId: 1 })).body.stackFrames;
  assert.deepEqual(
    frames.map((f: { name: string; line: number; source: { path: string } }) => `${f.name.split(" ")[0]}@${path.basename(f.source.path)}:${f.line}`),
    [`xmod_helpers.lang.load_block@lang.py:${load}`, `clamp_kernel@xmod-kernels.py:${call}`],
  );
  assert.equal(frames[0].source.path, helperFile);
  assert.equal(frames[1].source.path, script);
  const inside = await variablesAtStop(client);
  assert.equal(inside.get("offs")?.type, "i32[256]");
  assert.equal(inside.get("mask")?.type, "bool[256]");
  // A breakpoint in another helper's file (limits.py's clamp_min, reached from the store's line).
  const limitsFile = path.resolve(__dirname, "../python/xmod_helpers/limits.py");
  const where = lineOf(limitsFile, "return tl.where(x < LOW, LOW, x)");
  const set = await client.request("setBreakpoints", { source: { path: limitsFile }, breakpoints: [{ line: where }, { line: 1 }] });
  assert.deepEqual(set.body.breakpoints.map((b: { verified: boolean }) => b.verified), [true, false]);
  await client.request("continue", { threadId: 1 });
  assert.equal((await client.next("stopped")).body.reason, "breakpoint");
  const there = (await client.request("stackTrace", { threadId: 1 })).body.stackFrames;
  assert.deepEqual([there[0].name.split(" ")[0], there[0].source.path, there[0].line], ["xmod_helpers.limits.clamp_min", limitsFile, where]);
  await client.request("continue", { threadId: 1 });
  await client.next("terminated");
});

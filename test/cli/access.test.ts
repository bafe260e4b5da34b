// `kernel-lab run --program P` and where the bytes go (issue 29, items 1 and 3), end to end on the
// built binary: the access map is the interpreter's trace of the program, the same on the GPU and
// with --cpu; a timed GPU run reports its bytes (and the stride hint) beside the speed of light,
// and the autotune table gains the bytes columns.
import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", KERNEL_LAB_CACHE_DIR: mkdtempSync(path.join(tmpdir(), "kl-access-")) };

before(ensureBuilt);

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test("--program 2 of the matmul example: the same access map on the GPU and with --cpu; the text draws A's tile row", () => {
  const args = ["run", "examples/matmul.kernel.ts", "--size", "64", "--reps", "0", "--program", "2"];
  const gpu = JSON.parse(cli([...args, "--json"]).stdout).runs[0];
  const cpu = JSON.parse(cli([...args, "--json", "--cpu"]).stdout).runs[0];
  assert.deepEqual(gpu.accessMap, cpu.accessMap);
  assert.deepEqual(gpu.accessMap.program, [2, 0, 0]);
  assert.deepEqual(gpu.accessMap.buffers.map((b: { param: string; shape: number[] }) => [b.param, b.shape]), [["a_ptr", [64, 66]], ["b_ptr", [66, 63]], ["c_ptr", [64, 63]]]);
  const text = cli(args).stdout;
  assert.match(text, /Access map of program \(2,0,0\):\n {4}load a_ptr \(line 35\): 2112 of 2560 lanes active, 2112 elements in rows 0–31 × columns 0–65/);
  // A drawn a character per 2 × 2 elements: its first 16 rows of characters touched, the rest not but
  // for row 32's first columns, where the last K step's masked-off lanes of row 31 point (hollow).
  const aMap = text.split("load a_ptr")[1].split("\n").slice(2, 34);
  assert.deepEqual(aMap.map((l) => l.trim()[0]), [...Array(16).fill("#"), "o", ...Array(15).fill(".")]);
});

test("a bad --program is a usage error", () => {
  const r = cli(["run", "examples/vector-add.kernel.ts", "--program", "a,b"]);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /--program wants a program id such as 3 or 1,2/);
});

test("a timed GPU run says where the bytes go: the column copy strided by n with the hint, the row copy coalesced", () => {
  const r = cli(["run", "test/fixtures/access.kernel.ts", "--reps", "2", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const [column, row] = JSON.parse(r.stdout).runs;
  const load = column.bytes.accesses.find((a: { kind: string }) => a.kind === "load");
  assert.deepEqual([load.pattern, load.stride, load.line], ["strided", 100, 13]);
  assert.match(load.hint, /steps 100 elements between neighbouring lanes: swap the block's axes or transpose the input/);
  assert.equal(row.bytes.accesses.find((a: { kind: string }) => a.kind === "load").pattern, "coalesced");
  assert.deepEqual(column.bytes.buffers.map((b: { param: string; reuse: number }) => [b.param, b.reuse]), [["x_ptr", 1], ["out_ptr", 1]]);
  const human = cli(["run", "test/fixtures/access.kernel.ts", "--run", "columnCopy", "--reps", "2"]).stdout;
  assert.match(human, /Bytes:\n.*x_ptr: 39\.1 KiB asked for, 39\.1 KiB distinct \(reuse 1×\)/);
  assert.match(human, /line 13 load x_ptr: strided by 100, .*\n {6}hint: this load steps 100 elements/);
});

test("the autotune table has the bytes columns: what each config's loads ask for and its worst sector use", () => {
  const r = cli(["run", "test/fixtures/autotune.kernel.ts", "--size", "5000", "--retune", "--reps", "3"]);
  assert.equal(r.code, 0, r.stderr);
  const header = r.stdout.split("\n").find((l) => /^\s+BLOCK\s.*Median/.test(l))!;
  assert.match(header, /Loaded\s+Sector use/);
  const json = JSON.parse(cli(["run", "test/fixtures/autotune.kernel.ts", "--size", "5000", "--retune", "--reps", "3", "--json"]).stdout);
  const timed = json.runs[0].autotune.candidates.filter((c: { medianMs: number | null }) => c.medianMs !== null);
  assert.ok(timed.length >= 3);
  // A scale reads each of its 5000 floats once, whatever the block.
  for (const c of timed) assert.equal(c.bytes.loadedBytes, 5000 * 4, JSON.stringify(c));
});

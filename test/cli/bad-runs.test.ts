// Every way a run definition can be wrong (test/fixtures/bad-runs.kernel.ts), run through the
// command line on the GPU: each gives its KL3xxx code, exit 4, and a message that names the run
// and the field. docs/RELIABILITY.md lists these rows.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";

const FIXTURE = "test/fixtures/bad-runs.kernel.ts";
const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function run(name: string, ...flags: string[]): { code: number | null; report: any } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FIXTURE, "--run", name, "--json", "--reps", "3", ...flags], {
    cwd: root,
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, report: JSON.parse(r.stdout) };
}

// [run, code, field as the message names it, a phrase of the message]
const rows: [string, string, string, RegExp][] = [
  ["missingArg", "KL3017", "`args`", /no value for kernel parameter 'n' \(i32\)/],
  ["extraArg", "KL3018", "`args`", /'m' is not a parameter of kernel 'copy_kernel'/],
  ["wrongArrayType", "KL3019", "`args.x_ptr`", /must be a Float32Array .* got a Int32Array of 1000 elements/],
  ["plainArray", "KL3019", "`args.x_ptr`", /must be a Float32Array .* got \[1,2,3\]/],
  ["badScalar", "KL3020", "`args.n`", /integer in \[-2\^31, 2\^31\); got 1099511627776/],
  ["zeroGrid", "KL3015", "`grid`", /every axis must be a positive integer .* returned \[0\]/],
  ["gridThrows", "KL3015", "`grid`", /threw RangeError: no grid today/],
  ["hugeGrid", "KL3015", "`grid`", /281474976710656 programs, more than one launch can hold on this device/],
  ["hugeBuffer", "KL3029", "`args.x_ptr`", /needs a buffer of 134,217,744 bytes .* more than this GPU allows for one storage buffer: 134,217,728 bytes/],
  ["referenceThrows", "KL3022", "`reference`", /threw Error: reference exploded/],
  ["referenceWrongLength", "KL3023", "`reference`", /'out_ptr' has 999 elements but the output array has 1000/],
  ["referenceMissingOutput", "KL3023", "`reference`", /returned no 'out_ptr'/],
];

for (const [name, code, field, phrase] of rows) {
  test(`${name}: ${code} naming the run and ${field}`, () => {
    const { code: exit, report } = run(name);
    assert.equal(exit, 4);
    assert.deepEqual(report.runs, []);
    assert.equal(report.diagnostics.length, 1, JSON.stringify(report.diagnostics));
    const [d] = report.diagnostics;
    assert.equal(d.code, code, d.message);
    assert.ok(d.message.startsWith(`Run '${name}', ${field}: `), d.message);
    assert.match(d.message, phrase);
    // At the run's export.
    assert.equal(d.file, FIXTURE);
    assert.ok(d.line > 1);
  });
}

// An input array shorter than the kernel reads. On the GPU, WebGPU's robust buffer access would
// return 0 (or a clamped element) past the end and the run would go on; so a GPU run first
// interprets the grid's corner programs, and both backends report the load (harness/run/run.ts).
test("shortInput: the CPU and the GPU run both stop at the load past the end (KL3101)", () => {
  for (const backend of [["--cpu"], []]) {
    const r = run("shortInput", ...backend);
    assert.equal(r.code, 4);
    const [d] = r.report.diagnostics;
    assert.equal(d.code, "KL3101");
    assert.match(d.message, /^Run 'shortInput': copy_kernel: program \(\d+,0,0\), lane \d+ loads x_ptr\[900\] but x_ptr has 900 elements/);
    assert.equal(d.line, 10); // the tl.load in the kernel
  }
});

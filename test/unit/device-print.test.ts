// tl.devicePrint / tl.deviceAssert: the WGSL of the fixture's printing kernel (pinned; refresh with
// UPDATE_SNAPSHOTS=1), its ABI's record buffer and site table, the variant timed without them, and
// the interpreter's records and failed assertions.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";
import { debugSites, siteIds, type DebugRecord } from "../../src/ir/debug";
import { interpret, InterpreterError } from "../../src/interpreter/interpret";
import { printLines } from "../../src/harness/debug/prints";

const root = join(__dirname, "..", "..");
const fixture = join(root, "test", "fixtures", "device-print.kernel.ts");

test("WGSL of device-print print_kernel", () => {
  const parsed = parseKernelFile(fixture, readFileSync(fixture, "utf8"));
  const result = compileKernel(parsed.kernels.find((k) => k.name === "print_kernel")!, { BLOCK: 4 }, DEFAULT_TARGET);
  assert.deepEqual(result.diagnostics, []);
  const k = result.kernel!;
  const path = join(root, "test", "snapshots", "device-print.print_kernel.wgsl");
  if (process.env.UPDATE_SNAPSHOTS === "1" || !existsSync(path)) writeFileSync(path, k.wgsl);
  assert.equal(k.wgsl, readFileSync(path, "utf8"));
  assert.equal(k.abi.debug?.binding, 3);
  assert.deepEqual(k.abi.debug?.sites.map((s) => [s.id, s.kind]), [[0, "print"], [1, "print"], [2, "assert"]]);
  assert.ok(k.quiet && !k.quiet.wgsl.includes("kl_print") && k.quiet.abi.debug === undefined);
});

function fixtureKernel(name: string) {
  const parsed = parseKernelFile(fixture, readFileSync(fixture, "utf8"));
  const result = compileKernel(parsed.kernels.find((k) => k.name === name)!, { BLOCK: 4 }, DEFAULT_TARGET);
  assert.deepEqual(result.diagnostics, []);
  return result.kernel!;
}

test("interpreter: tl.devicePrint hands each element to the sink, program after program", () => {
  const k = fixtureKernel("print_kernel");
  const records: DebugRecord[] = [];
  interpret(k.ir, [2, 1, 1], { x_ptr: new Float32Array(8), z_ptr: new Float32Array(8), n: 6 }, { onDebugRecord: (r) => records.push(r) });
  const sites = debugSites(k.ir.body);
  const ids = siteIds(sites);
  const lines = printLines(sites, records.map((r) => ({ ...r, site: ids.get(r.site)! })));
  assert.deepEqual(lines.slice(0, 3), ["pid (0, 0, 0) idx () pid: 0", "pid (0, 0, 0) idx (0) offs: 0", "pid (0, 0, 0) idx (1) offs: 1"]);
  assert.equal(lines.length, 10);
});

test("interpreter: a failed tl.deviceAssert stops the run at the call, with its message, program and lane", () => {
  const k = fixtureKernel("assert_kernel");
  const args = { x_ptr: new Float32Array(16), z_ptr: new Float32Array(16), n: 16 };
  assert.throws(
    () => interpret(k.ir, [4, 1, 1], args),
    (err: unknown) => {
      assert.ok(err instanceof InterpreterError);
      assert.equal(err.code, "KL3110");
      assert.deepEqual(err.programId, [2, 0, 0]);
      assert.equal(err.message, "assert_kernel: tl.deviceAssert failed: lane 1 of program 2 (program (2, 0, 0), idx (1))");
      const site = debugSites(k.ir.body)[0];
      assert.deepEqual(err.span, site.span);
      return true;
    },
  );
  // Programs 0 and 1 pass.
  interpret(k.ir, [4, 1, 1], args, { programs: [[0, 0, 0], [1, 0, 0], [3, 0, 0]] });
});

// tl.devicePrint / tl.deviceAssert: the WGSL of the fixture's printing kernel (pinned; refresh with
// UPDATE_SNAPSHOTS=1), its ABI's record buffer and site table, and the variant timed without them.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { DEFAULT_TARGET } from "../../src/ir/target";

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

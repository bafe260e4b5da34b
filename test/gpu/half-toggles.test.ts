// A run of a file whose kernels use f16 opens the GPU with Dawn's toggles for f16 and says so once
// (the report's adapter note, the CLI's first block); `dawnToggles: "off"` and a toggle named in
// KERNEL_LAB_DAWN_FLAGS keep them off. On lavapipe (which has shader-f16 either way) the f16 add
// matches with and without them.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { runFileWithOutcome } from "../../src/harness/run/run";
import { acquireGpu } from "../../src/runtime";

const FILE = path.join(__dirname, "..", "..", "examples", "vector-add-f16.kernel.ts");

// The first GPU of this process (node --test runs each file in its own).
test("an f16 file: toggles asked for and said in the adapter note; later runs reuse that GPU", async () => {
  const auto = await runFileWithOutcome(FILE, { reps: 3, size: 1000 });
  assert.equal(auto.outcome, "ok");
  assert.match(auto.report.adapter?.note ?? "", /asked Dawn for vulkan_enable_f16_on_nvidia: this file's kernels use f16/);
  const gpu = await acquireGpu();
  assert.deepEqual(gpu.dawnToggles, ["vulkan_enable_f16_on_nvidia"]);
  // dawnToggles "off" asks for none (the process's GPU has them already: no note, same device).
  const off = await runFileWithOutcome(FILE, { reps: 3, dawnToggles: "off", size: 1000 });
  assert.equal(off.outcome, "ok");
  assert.equal(off.report.adapter?.note, undefined);
  // An f32 file says nothing about them.
  const f32 = await runFileWithOutcome(path.join(path.dirname(FILE), "vector-add.kernel.ts"), { reps: 3, size: 1000 });
  assert.equal(f32.outcome, "ok");
  assert.equal(f32.report.adapter?.note, undefined);
  assert.equal(await acquireGpu(), gpu);
});

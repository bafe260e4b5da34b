// @triton.autotune and Triton's OutOfResources (test/python/autotune-out-of-resources.py): a config
// whose blocks need more workgroup memory than the adapter has is dropped, as Triton's autotuner
// drops it, timed or not (--bench off and --cpu launch the first config that fits); on the GPU and
// with --cpu.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { runPythonFile, stopPython } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";

after(stopPython);

test("@triton.autotune drops a config whose blocks don't fit the workgroup memory (Triton's OutOfResources), timed or not (--bench off, --cpu): the next config runs and its KL2016 isn't the run's; launched directly, OutOfResources is raised", async () => {
  const file = path.resolve(__dirname, "../python/autotune-out-of-resources.py");
  for (const [bench, cpu] of [["off", false], ["off", true], ["quick", false]] as const) {
    const { report, outcome } = await runPythonFile(file, { bench, cpu }, startPythonThread);
    assert.equal(outcome, "ok", report.traceback);
    assert.match(report.stdout, /autotune drops the config out of resources: match\n/);
    // Only block_sum_kernel's, launched directly, not the autotuned kernel's 128×512 config.
    const text = readFileSync(file, "utf8").split("\n");
    const refused = report.diagnostics.filter((d) => d.code === "KL2016").map((d) => text[d.line - 1].split("(")[0]);
    assert.deepEqual(refused, ["def block_sum_kernel"], JSON.stringify(report.diagnostics));
  }
});

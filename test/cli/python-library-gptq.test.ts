// GPTQ-for-LLaMa's idioms (test/python/gptq-idioms.py), on the GPU and with --cpu, timed (--bench quick: its autotuner
// times each config). Before: `class Autotuner(triton.KernelInterface)` (quant/custom_autotune.py) was an
// AttributeError, which quant_linear.py's `try: … except: print('triton not installed.')` turned into no kernels at all;
// `triton.testing.do_bench(…, percentiles=(0.5, 0.2, 0.8))` gave a float, which the autotuner's `min` compared with the
// `(inf, inf, inf)` it gives a config out of resources (TypeError); `triton.compiler.OutOfResources` was missing.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt, root } from "./build";
import { onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/gptq-idioms.py");

test("GPTQ-for-LLaMa's idioms: an Autotuner on triton.KernelInterface, do_bench(percentiles=), triton.compiler.OutOfResources; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    // row_normalized_transpose_kernel's 128x128 config is out of the adapter's workgroup memory: its KL2016, which the
    // autotuner caught.
    assert.deepEqual(report.diagnostics.filter((d) => d.severity === "error").map((d) => d.code), ["KL2016"], JSON.stringify(report.diagnostics));
    assert.ok(report.checks.length >= 2 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /Autotuner\(triton\.KernelInterface\), fn\.run\(num_warps=, num_stages=\), do_bench\(percentiles=\) tuple: int4 unpack \+ tl\.dot\(a, tl\.trans\(b\)\): match; triton\.compiler\.OutOfResources caught: the 16x64 config: match\n/,
    );
  }, { bench: "quick" });
});

test("kernel-lab check on GPTQ-for-LLaMa's idioms: no errors (KL1102: the library's own autotune decorator is not Triton's)", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "check", file], { cwd: root, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.doesNotMatch(r.stdout + r.stderr, /error KL\d{4}/);
});

// DeepSpeed's Triton kernels' idioms (test/python/deepspeed-idioms.py), on the GPU and with --cpu:
// triton_matmul_kernel.py's `_fp_matmul` walks K down with `range(K, 0, -BLOCK_K * SPLIT_K)`, which
// Kernel Lab ran for no trips (its output all zeros): only a literal `-x` step counted down. The same
// kernel's `b`, [BLOCK_K, BLOCK_N] in the loop, is `b = tl.load(bias_ptr)`, [BLOCK_N], under the
// constexpr `if BIAS_ADD:` after it: KL2076. Its autotuner is Triton 2.1's: `early_config_prune(configs,
// named_args)` got the launch's keyword arguments (TypeError), `triton.runtime.driver.utils` was an
// AttributeError, and `skip_autotune`'s one config was pruned ("No valid autotuner configs").

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

after(stopPython);

test("DeepSpeed's idioms: a range counting down by a constexpr product, a loop's name rebound under a constexpr if, Triton 2.1's prune and driver.utils, one config unpruned; on the GPU and with --cpu", async () => {
  const file = path.resolve(__dirname, "../python/deepspeed-idioms.py");
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /range\(K, 0, -BLOCK_K \* SPLIT_K\) counts down, the step named too: match\na loop's name rebound after it under a constexpr if; a Triton 2\.1 prune \(BLOCK_N 16\): match\na single config is launched unpruned: match\n/);
  });
});

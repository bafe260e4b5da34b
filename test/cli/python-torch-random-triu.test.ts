// torch.random and torch.triu / torch.tril in Kernel Lab's torch (test/python/torch-random-triu.py), on the GPU
// and with --cpu. kakaobrain/trident's dropout and attention pass `torch.random.seed()` to a kernel as its seed
// (bench/NOTES.md §65): before, torch.random was NotInKernelLab, and torch.triu (attention references' causal
// mask) too. seed() gives a 31-bit int so it passes as a kernel's int32; triu / tril run as a GPU kernel on GPU
// tensors (_gpu_kernels._triangle) and on the CPU otherwise, checked at diagonals from -9 to 9 on non-square shapes.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { onGpuAndCpu, PY } from "./python-files";

before(ensureBuilt);
after(stopPython);

test("torch.random.seed() seeds a kernel (a 31-bit int, fresh each call), manual_seed / initial_seed and the rng state round-trip; torch.triu / tril on CPU and GPU tensors; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(path.join(PY, "torch-random-triu.py"), (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.equal(report.launches.filter((l) => l.kernel === "dropout_kernel").length, 2);
    for (const line of [
      "torch.random.seed: 31-bit ints, fresh each call; manual_seed / initial_seed round-trip",
      "get_rng_state / set_rng_state: the same draws again",
      "torch.triu / torch.tril: diagonals -9 to 9 on 5x8 and 7x3, batched views, float16, bool, int64, in place; CPU and GPU",
      "a causal mask from torch.triu; tril's gradient: match",
    ]) assert.ok(report.stdout.includes(line + "\n"), report.stdout);
    assert.match(report.stdout, /a kernel seeded from torch\.random\.seed\(\): kept x \/ \(1 - p\), 0\.\d\d kept, the same seed the same mask\n/);
  });
});

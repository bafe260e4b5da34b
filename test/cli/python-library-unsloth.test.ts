// unslothai/unsloth's Triton idioms (test/python/unsloth-idioms.py), on the GPU and with --cpu. Before: its MoE grouped
// GEMM (unsloth/kernels/moe/grouped_gemm) named `triton.compiler.CompiledKernel` in an annotation, an AttributeError at
// import; and its forward kernel reads each expert's row count with a scalar `tl.load` in a loop and walks its tiles in a
// while loop around tl.dot steered by it: KL2071, though Triton's scalar is one value a program. The read now passes the
// check, and where WGSL can't see it as uniform (a buffer the kernel writes) it is handed out with workgroupUniformLoad.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/unsloth-idioms.py");

test("unsloth's idioms: group sizes loaded in the loop steer a while around tl.dot and tl.sum, triton.compiler.CompiledKernel; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 2 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /grouped matmul, group sizes loaded in the loop steering a while around tl\.dot and tl\.sum: 45x32 by 4x32x24 match\n/);
  });
});

test("kernel-lab check on unsloth's idioms: clean", () => checksClean(file));

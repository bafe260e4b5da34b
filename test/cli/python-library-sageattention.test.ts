// thu-ml/SageAttention's idioms (test/python/sageattention-idioms.py), on the GPU and with --cpu. Before: a name bound
// to None (`mask_block = None`, attn_qk_int8_per_block.py's `_attn_fwd_inner` when no attn_mask is passed) read as
// `mask_block.dtype` inside the branch a constexpr decides not taken was written `0.dtype`, which the TypeScript the
// kernel is lowered to can't parse (KL1000 at the `def`); and `tl.max(mask_block)` of a boolean mask was KL2003
// ("takes numbers, not masks"), where Triton reduces int1 as unsigned (whether any element is true).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/sageattention-idioms.py");

test("SageAttention's idioms: a None name's .dtype in a branch Triton never compiles, tl.max of a mask; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(
      report.stdout,
      /mask=None: the mask_block\.dtype branch left uncompiled; bool mask: tl\.max\(mask_block\) == 0 skips block 1 of 3; float mask added: match\n/,
    );
  });
});

test("kernel-lab check on SageAttention's idioms: clean", () => checksClean(file));

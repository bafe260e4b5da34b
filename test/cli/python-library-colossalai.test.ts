// hpcaitech/ColossalAI's idioms (test/python/colossalai-idioms.py), on the GPU and with --cpu. Before: a name first
// assigned in a run-time loop's body and given another block shape after the loop, in a run-time if
// (context_attn_unpad.py's `k`, [HEAD_DIM, BLOCK_N] in the key loop, [BLOCK_M, HEAD_DIM] in the cache copy under
// `if cur_head_idx % KV_GROUPS == 0:`) was KL2076; in Triton the loop's name isn't defined after the loop, so it is a new one.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/colossalai-idioms.py");

test("ColossalAI's idioms: a loop's name given another shape after the loop, in a run-time if; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 2 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /a loop's name given another shape after the loop, in a run-time if: match\n/);
  });
});

test("kernel-lab check on ColossalAI's idioms: clean", () => checksClean(file));

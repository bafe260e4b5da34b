// thu-ml/SpargeAttn's idioms (test/python/spargeattn-idioms.py), on the GPU and with --cpu. Before: utils.py's
// `tl.sum(grams)` of a 128×128 tl.dot (no axis) flattened the block and staged all of it (64 KiB: KL2016 on lavapipe and
// --cpu; the idiom's 64×64, 16 KiB, on --cpu), tl.max and tl.min likewise; they now reduce it axis by axis. And an access past the end inside a @triton.jit
// helper of the script (triton_kernel_example.py's block-map read in `_attn_fwd_inner`) was KL3101 at the kernel's call
// of the helper; it is now at the helper's line, with "called at" the call. The pooling kernel's column mean
// `tl.sum(x_fp32, axis=0)` beside its tl.dot staged the whole block, and its row reductions had arrays of their own:
// KL2016 (bench/NOTES.md §81); now column partials, and the arrays shared where memory runs short.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const file = path.resolve(__dirname, "../python/spargeattn-idioms.py");

test("SpargeAttn's idioms: tl.sum / tl.max / tl.min of a 64x64 tl.dot with no axis fit; the pooling kernel at block 64, D64 fits; a read past the end in a helper is KL3101 at the helper's line; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(file, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 3 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    assert.match(report.stdout, /tl\.sum, tl\.max, tl\.min of a 64x64 tl\.dot, no axis: match\n/);
    // NOTES §81: KL2016 on --cpu before (26 624 bytes): the column mean staged the block, each row reduction its own array.
    assert.match(report.stdout, /the pooling kernel's column mean, row norms and Gram mean at block 64, D64: match \(similarity 1\.000, 0\.\d+\)\n/);
    assert.match(
      report.stdout,
      /past the block map: \S*spargeattn-idioms\.py:37:12: KL3101: kept_blocks_kernel: program \(0,0,0\), lane 0 loads K_bid\[4\] but K_bid has 4 elements.* \(called at \S*spargeattn-idioms\.py:45:12\)\n/,
    );
  });
});

test("kernel-lab check on SpargeAttn's idioms: clean", () => checksClean(file));

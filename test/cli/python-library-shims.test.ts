// FlagGems' second batch (bench/NOTES.md §34) in kernels of our own: tl.int1 accumulators from
// tl.full / tl.zeros folded by and / or (all.py, any.py); libdevice and tl functions bound at run
// time, which only the launch can name (LaunchRequest.mathNames: groupnorm's `rsqrt =
// tl_extra_shim.rsqrt`, random_utils' `uint_to_uniform_float`); tl.pair_uniform_to_normal (randn);
// a mask bound to None (bmm, src/python/none-masks.ts); and the torch the host code needs (finfo,
// size=, nn._reduction, cumsum(axis=), promote_types). On the GPU and with --cpu.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { onGpuAndCpu } from "./python-files";

const FILE = path.resolve(__dirname, "../python/library-shims.py");

after(stopPython);

test("FlagGems' second batch: tl.int1 accumulators from tl.full / tl.zeros folded by and / or, libdevice and tl functions bound at run time (a math module a package picks, random_utils' uint_to_uniform_float), tl.pair_uniform_to_normal, a mask bound to None, torch.finfo / iinfo, creation's size=, nn._reduction.get_enum, cumsum(axis=), promote_types, on the GPU and with --cpu", async () => {
  await onGpuAndCpu(FILE, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.deepEqual(report.checks.map((c) => c.passed), [true, true, true, true, true, true, true]);
    assert.deepEqual(report.launches.map((l) => l.kernel), ["row_all_any_kernel", "scaled_rows_kernel", "doubled_kernel", "doubled_kernel", "normal_pairs_kernel"]);
    assert.match(report.stdout, /tl\.int1 accumulators: all 1 rows, any 35 rows\nrsqrt and pow through a math module picked at run time\na mask bound to None where the block divides the size\ntl\.pair_uniform_to_normal on uint_to_uniform_float imported from another module\nfinfo of float8_e5m2: 57344\.0\ntorch\.finfo \/ torch\.iinfo\nempty\(out=\): torch\.empty\(out=\)\nsize=, nn\._reduction\ncumsum\(axis=\), promote_types\n/);
  });
});

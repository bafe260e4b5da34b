// Triton features the library ports found missing (bench/NOTES.md §81), in scripts of ours, on the GPU and with --cpu,
// and `check`ed clean. f32-atomics.py: tl.atomic_xchg and tl.atomic_cas through float32 pointers (KL2003 before; now
// the word's exchange and a compare-and-swap on its bits). scalar-annotations.py: scalar parameters annotated
// tl.float16 / tl.int64 / tl.uint32 / tl.float32 / tl.int32 (ignored before: the number's own type was used).

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const atomics = path.resolve(__dirname, "../python/f32-atomics.py");
const scalars = path.resolve(__dirname, "../python/scalar-annotations.py");

test("tl.atomic_xchg and tl.atomic_cas on float32 (programs racing on shared slots; -0.0, NaN compared by their bits; masked lanes): on the GPU and with --cpu", async () => {
  await onGpuAndCpu(atomics, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /tl\.atomic_xchg and tl\.atomic_cas of float32 from 8 programs racing on 5 and 6 slots, 1001 elements: exchanged bit for bit, 4 compare-and-swaps won once each/);
  });
});

test("kernel-lab check on the float32 atomics script: clean", () => checksClean(atomics));

test("scalar parameters annotated tl.float16 (rounded to a half), tl.int64, tl.uint32 (wrapping), tl.float32 given an int, tl.int32 given 1: on the GPU and with --cpu", async () => {
  await onGpuAndCpu(scalars, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /h: tl\.float16 takes a float rounded to the nearest half, n: tl\.int64, u: tl\.uint32 wraps, s: tl\.float32 given an int, i: tl\.int32 given 1: 1001 elements, 3 scalars, exact\n/);
  });
});

test("kernel-lab check on the scalar annotations script: clean", () => checksClean(scalars));

// The bf16 ports re-driven (bench/NOTES.md §77): idioms of the libraries' bf16 kernels that Kernel Lab got wrong or
// refused, in scripts of ours (test/python/*-bf16-idioms.py), on the GPU and with --cpu, and `check`ed clean.
// flash-backward-bf16-idioms.py: FlagAttention's `_bwd_kv_kernel` and applied-ai's `_bwd_kernel_dk_dv` hand tl.dot a
// conversion of a transpose (`tl.dot(tl.trans(p).to(input_dtype), do)`; a bf16 `tl.trans(ds)` widened to f32): that
// transpose was staged in workgroup memory of its own, KL2016 at --cpu's 16 KiB where the same kernel in f32 fits.
// liger-bf16-idioms.py: Liger's group norm backward (and fused MoE's dS) `tl.atomic_add` bf16s: KL2003 before; now a
// compare-and-swap loop on the word holding the element, the sum rounded to bf16.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const flashBwd = path.resolve(__dirname, "../python/flash-backward-bf16-idioms.py");
const liger = path.resolve(__dirname, "../python/liger-bf16-idioms.py");
const atomics = path.resolve(__dirname, "../python/bf16-atomics.py");
const scalarArgs = path.resolve(__dirname, "../python/bf16-scalar-args.py");

test("flash backward in bf16 and f16: tl.dot of a converted transpose stays a transpose the dot stages; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(flashBwd, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.ok(report.checks.length === 4 && report.checks.every((c) => c.passed), JSON.stringify(report.checks));
    for (const dt of ["bfloat16", "float16"]) assert.match(report.stdout, new RegExp(`tl\\.dot\\(tl\\.trans\\(ds\\), q\\) in ${dt}: 50x16 over 100 rows match\\n`));
  });
});

test("kernel-lab check on the flash backward bf16 idioms: clean", () => checksClean(flashBwd));

test("Liger's bf16 tl.atomic_add (group norm dW/dB, a masked block at an odd offset from several programs): exact, the word's other half kept; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(liger, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /group norm dW\/dB by tl\.atomic_add into bf16: 5 batches x 3 groups of 2 channels, hidden 37: exact\n/);
    assert.match(report.stdout, /masked block tl\.atomic_add of bf16s at an odd offset from 7 programs, 45 elements: exact\n/);
  });
});

test("kernel-lab check on the Liger bf16 idioms: clean", () => checksClean(liger));

// NOTES §79: tl.atomic_cas through a bf16 pointer (Triton's takes any 16-bit element): programs racing on shared words,
// one winner per slot, the sentinels in the words' other halves kept; bits compared (-0.0 is not +0.0, NaN is NaN).
test("tl.atomic_cas on bf16 (programs claiming slots that share words; -0.0, NaN and random values compared by their bits, 1001 elements): on the GPU and with --cpu", async () => {
  await onGpuAndCpu(atomics, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /tl\.atomic_cas of bf16 slots claimed by 7 programs racing on shared words, 34 slots: one winner each, the other halves kept\n/);
    assert.match(report.stdout, /tl\.atomic_cas of bf16 compares bits \(-0\.0 is not \+0\.0, NaN is NaN\): 1001 elements, \d+ swapped\n/);
  });
});

test("kernel-lab check on the bf16 atomics script: clean", () => checksClean(atomics));

// NOTES §79: `s: tl.bfloat16` makes a number a bf16 argument, packed as Triton's launcher packs it (the f32's top 16
// bits: truncated, not rounded); an un-annotated float stays f32.
test("a bf16 scalar parameter (s: tl.bfloat16, a float and an int truncated as Triton's launcher packs them; an un-annotated float f32): on the GPU and with --cpu", async () => {
  await onGpuAndCpu(scalarArgs, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /s: tl\.bfloat16 takes a float as Triton's launcher packs it \(the f32's top 16 bits\): 1001 elements, 3 scalars, exact\n/);
    assert.match(report.stdout, /s: tl\.bfloat16 given the int 259: 258\.0 \(truncated; rounded it would be 260\.0\), exact\n/);
  });
});

test("kernel-lab check on the bf16 scalar arguments script: clean", () => checksClean(scalarArgs));

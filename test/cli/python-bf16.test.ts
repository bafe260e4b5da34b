// bfloat16 kernel arguments and values through the Python path (bench/NOTES.md §76): torch.bfloat16 tensors passed to
// kernels (before: refused at the launch), tl.bfloat16 blocks computed on with Triton's dtypes and rounding, on the GPU
// and with --cpu. test/python/bf16-kernels.py: copy/add/cast at an odd offset (a word's two halves by two programs),
// f32 → bf16 rounding of ties, NaN, infinities, overflow and subnormals, RMS norm and softmax rows, a bf16 tl.dot
// matmul, sort/flip/trans/cumsum/max; test/python/unsloth-bf16-idioms.py: unsloth's swiglu and RMS norm forward idioms.

import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { ensureBuilt } from "./build";
import { checksClean, onGpuAndCpu } from "./python-files";

before(ensureBuilt);
after(stopPython);

const kernels = path.resolve(__dirname, "../python/bf16-kernels.py");
const unsloth = path.resolve(__dirname, "../python/unsloth-bf16-idioms.py");

test("bf16 kernels: add, casts, store rounding, rows, tl.dot and moves match doubles rounded where Triton rounds; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(kernels, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.equal(report.launches.length > 0, true);
    for (const line of ["dtypes as Triton's: 13 rules hold", "sort, flip, trans, cumsum and max of 64", "add, cast and store rounding: 1001 elements at offset 3", "rms norm and softmax: 7x75", "tl.dot matmul: 37x51 by 51x45"]) {
      assert.ok(report.stdout.includes(`bf16 ${line}`), `${line}: ${report.stdout}`);
    }
  });
});

test("unsloth's bf16 idioms: swiglu's f.to(g.dtype) * g and RMS norm's normed.to(W_row.dtype) * W_row match; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(unsloth, (report) => {
    assert.deepEqual(report.diagnostics, []);
    assert.match(report.stdout, /swiglu forward in bf16: 1001 elements match\nrms layernorm forward in bf16: 38x333 match\n/);
  });
});

test("kernel-lab check on the bf16 scripts: clean", () => {
  checksClean(kernels);
  checksClean(unsloth);
});

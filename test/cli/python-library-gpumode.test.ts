// gpu-mode/lectures' Triton code (test/python/gpumode-idioms.py, gpumode-long-compiles.py with test/python/gpumode_kit/),
// the first kernels a learner ports: lecture 14's triton_util.py helpers, lecture 18's fused add-mul-activation kernels,
// lecture 29's vector_add, on the GPU and with --cpu; with --cpu, lecture 18's other kernels, its torch.compile output
// module's call(args) and a matmul through triton_util (lavapipe takes 4 to 9 s to compile each); lecture 1's
// triton_square.py run whole, as a learner runs it. All matched the first time they ran; vector_add.py stopped at its
// import (triton.tools.disasm, torch.profiler), triton_square.py's benchmark at `x.nelement()`, lecture 18's large
// output module's benchmark at its embedding kernel's index assert (rand_strided's integers were 0..9, torch's are
// zeros): gpumode-reduced.py.

import { after, test } from "node:test";
import assert from "node:assert/strict";
import * as path from "node:path";
import { stopPython } from "../../src/harness/python/session";
import { checksClean, onGpuAndCpu, run } from "./python-files";

after(stopPython);

const PY = path.resolve(__dirname, "../python");
const KIT = path.join(PY, "gpumode_kit");
const idioms = path.join(PY, "gpumode-idioms.py");
const longCompiles = path.join(PY, "gpumode-long-compiles.py");
const reduced = path.join(PY, "gpumode-reduced.py");
const square = path.join(KIT, "lecture_001/triton_square.py");
const errors = (report: { diagnostics: { severity: string }[] }) => report.diagnostics.filter((d) => d.severity === "error");

test("gpu-mode's lectures as published: triton_util's host and kernel helpers, lecture 18's fused_add_mul_activation_torch, lecture 29's vector_add; on the GPU and with --cpu", async () => {
  await onGpuAndCpu(idioms, (report) => {
    assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
    assert.equal(
      report.stdout,
      [
        "triton_util host helpers",
        "triton_util get_1d_offest / get_1d_mask (a copy)",
        "fused_add_mul_activation_torch (sigmoid, 100 x 21)",
        "vector_add add_kernel (1000, blocks of 256)",
      ].map((l) => `${l}: match\n`).join(""),
    );
  });
});

test("gpu-mode's lecture 18 fused add-mul-relu kernels (inductor's and the cleaner one), relu by a string constexpr, the 128 x 512 inductor kernel, its torch.compile output module's call(args), a matmul through triton_util's 2-D helpers; with --cpu", async () => {
  const { report, outcome } = await run(longCompiles, { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
  assert.equal(
    report.stdout,
    [
      "triton_util get_2d_offset / get_2d_mask (a matmul)",
      "fused_add_mul_relu_torch (130 x 8)",
      "fused_add_mul_relu_cleaner_torch (150 x 7)",
      "fused_add_mul_activation_kernel (relu, multiplier 2.5, 50 x 21)",
      "pointwise_add_relu_fusion_512 (grid(65536))",
      "torch_compile_generated_triton call(args) (two fused kernels, 7 x 16)",
      "torch_compile_generated_triton call(args) (its saved first layer)",
    ].map((l) => `${l}: match\n`).join(""),
  );
});

test("gpu-mode's lecture 1 triton_square.py run whole (1823 x 781 rows squared, its own assert_close; its perf_report skipped); on the GPU and with --cpu", async () => {
  await onGpuAndCpu(square, (report) => {
    assert.deepEqual(errors(report), [], JSON.stringify(report.diagnostics));
    assert.equal(report.launches.filter((l) => l.kernel === "square_kernel").length, 1);
  });
});

test("gpu-mode's lecture files reduced: triton.tools.disasm and torch.profiler import and refuse by name, Tensor.nelement, rand_strided's integers zeros; with --cpu", async () => {
  const { report, outcome } = await run(reduced, { cpu: true, bench: "off" });
  assert.equal(outcome, "ok", report.traceback);
  assert.equal(
    report.stdout,
    "get_sass: refused, naming kernel-lab wgsl\ntorch.profiler.profile: refused, naming do_bench\nTensor.nelement: match\nrand_strided of int64: match\n",
  );
});

test("kernel-lab check on gpu-mode's scripts and lecture files: clean", () => {
  const lectures = ["lecture_001/triton_square.py", "lecture_014/triton_util.py", "lecture_029/vector_add.py", "lecture_018/torch_compile_generated_triton.py"].concat(
    ["triton_fused_add_mul_relu.py", "triton_fused_add_mul_activation.py", "triton_pointwise_add_relu_fused.py"].map((f) => `lecture_018/kernels/${f}`),
  );
  checksClean(idioms, longCompiles, reduced, ...lectures.map((f) => path.join(KIT, f)));
});

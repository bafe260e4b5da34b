// Sample reports in SPEC §4's shape, for drawing the results panel outside VS Code.

import type { RunReport } from "../../src/harness/report";
import type { ResultsView } from "../../src/editor/webview-protocol";

const adapter = { vendor: "mesa", device: "llvmpipe (LLVM 19.1.7, 256 bits)", backend: "vulkan", description: "Mesa 25.0.7 (lavapipe)" };

const vectorAddWgsl = `@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read> x_ptr: array<f32>;
@group(0) @binding(2) var<storage, read> y_ptr: array<f32>;
@group(0) @binding(3) var<storage, read_write> output_ptr: array<f32>;

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
  let pid = i32(wg.x);
  for (var e = lid; e < 1024u; e += 256u) {
    let offset = pid * 1024 + i32(e);
    if (offset < i32(u[1].x)) {
      output_ptr[offset] = x_ptr[offset] + y_ptr[offset];
    }
  }
}`;

function run(size: number, medianMs: number, baselineMs: number, correct = true): RunReport {
  return {
    name: "vectorAdd",
    kernel: "add_kernel",
    size,
    constexprs: { BLOCK_SIZE: 1024 },
    grid: [Math.ceil(size / 1024), 1, 1],
    correct,
    maxAbsDiff: correct ? 0 : 0.8125,
    maxRelDiff: correct ? 0 : 1,
    mismatches: correct ? 0 : 96,
    firstMismatch: correct ? null : { output: "output_ptr", index: 98336, got: -3.4e38, expected: 0.8125 },
    timing: { medianMs, minMs: medianMs * 0.93, maxMs: medianMs * 1.31, reps: 100, source: "timestamp-query" },
    gbps: (12 * size) / (medianMs * 1e6),
    gflops: null,
    baseline: { name: "builtins.add", medianMs: baselineMs, speedup: baselineMs / medianMs },
  };
}

export const singleRun: ResultsView = {
  file: "examples/vector-add.kernel.ts",
  mode: "run",
  backend: "gpu",
  outcome: "ok",
  finishedAt: "2026-12-02T14:41:02.000Z",
  adapter,
  diagnostics: [],
  runs: [run(98432, 0.0123, 0.0125)],
  wgsl: [{ kernel: "add_kernel", constexprs: { BLOCK_SIZE: 1024 }, text: vectorAddWgsl }],
  wgslNote: "Generated for WebGPU's default limits; a run may specialise further for its adapter.",
};

export const sweep: ResultsView = {
  ...singleRun,
  mode: "sweep",
  outcome: "mismatch",
  runs: [
    run(1024, 0.0181, 0.0176),
    run(16384, 0.0215, 0.0222),
    run(98432, 0.0412, 0.0455),
    run(1 << 20, 0.2714, 0.2889),
    run(1 << 22, 1.0451, 1.0112, false),
  ],
  diagnostics: [
    { line: 12, column: 9, severity: "warning", code: "KL3007", message: "size 4194304 is not a multiple of BLOCK_SIZE's tile; the last program is masked (example diagnostic)." },
  ],
};

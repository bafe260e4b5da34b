// Sample reports in docs/LANGUAGE.md §4's shape, for drawing the results panel outside VS Code.

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
    timing: { medianMs, minMs: medianMs * 0.93, maxMs: medianMs * 1.31, reps: 100, source: "timestamp-query", launchesPerSample: 16 },
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
  wgslNote: "Generated for WebGPU's default limits; a run specialises further for its adapter and its arguments (those equal to 1, multiples of 16).",
};

/** A run in a browser that coarsens GPU timestamps (Chrome's default: 100 µs steps). */
export const coarseTimestamps: ResultsView = {
  ...singleRun,
  adapter: { vendor: "google", device: "swiftshader", backend: "webgpu", description: "" },
  runs: [{ ...run(98432, 0.3, 0.35), timing: { medianMs: 0.3, minMs: 0.2, maxMs: 0.4, reps: 100, source: "timestamp-query", launchesPerSample: 1, resolutionMs: 0.1 } }],
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

/** An autotuned matmul: four configs, one rejected for a mismatch, one that does not compile. */
function matmulCandidate(m: number, n: number, k: number, medianMs: number | null, correct = true, note?: string) {
  const flops = 2 * 127 * 129 * 126;
  return {
    constexprs: { BLOCK_M: m, BLOCK_N: n, BLOCK_K: k },
    medianMs,
    gbps: null,
    gflops: medianMs === null ? null : flops / (medianMs * 1e6),
    correct,
    ...(note ? { note } : {}),
  };
}

export const autotuned: ResultsView = {
  file: "examples/matmul.kernel.ts",
  mode: "run",
  backend: "gpu",
  outcome: "ok",
  finishedAt: "2026-12-02T15:20:41.000Z",
  adapter,
  diagnostics: [],
  runs: [
    {
      name: "matmul",
      kernel: "matmul_kernel",
      size: 127,
      constexprs: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 },
      grid: [2, 2, 1],
      correct: true,
      maxAbsDiff: 3.8e-6,
      maxRelDiff: 2.1e-6,
      mismatches: 0,
      firstMismatch: null,
      timing: { medianMs: 1.214, minMs: 1.18, maxMs: 1.52, reps: 100, source: "timestamp-query" },
      gbps: null,
      gflops: (2 * 127 * 129 * 126) / 1.214e6,
      baseline: null,
      autotune: {
        picked: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 },
        cached: false,
        candidates: [
          matmulCandidate(32, 32, 16, 1.871),
          matmulCandidate(64, 64, 16, 1.203),
          matmulCandidate(64, 64, 32, 1.342),
          matmulCandidate(64, 32, 8, null, false, "does not match the reference: c_ptr[4032] = NaN, expected -3.41; 1953 elements differ"),
          matmulCandidate(128, 128, 32, null, false, "does not compile: KL2040 at 22:15: the tiles need 64 KiB of workgroup memory; this target allows 16 KiB"),
        ],
      },
    },
  ],
  wgsl: [],
  wgslNote: "Generated for WebGPU's default limits; a run specialises further for its adapter and its arguments (those equal to 1, multiples of 16).",
};

/** The same run with the code generator's knobs tuned too (`tuneCodegen`): two configs × two load forms, one setting's WGSL the same as another's. */
export const autotunedKnobs: ResultsView = {
  ...autotuned,
  runs: [{
    ...autotuned.runs[0],
    autotune: {
      picked: { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 },
      cached: false,
      codegen: { halfLoadForm: "select" },
      identical: 1,
      candidates: [
        { ...matmulCandidate(32, 32, 16, 1.871), codegen: { halfLoadForm: "block" } },
        { ...matmulCandidate(64, 64, 16, 1.262), codegen: { halfLoadForm: "block" } },
        { ...matmulCandidate(64, 64, 16, 1.203), codegen: { halfLoadForm: "select" } },
      ],
    },
  }],
};

/** The same run swept: each size has its own pick, one of them from the cache. */
export const autotunedSweep: ResultsView = {
  ...autotuned,
  mode: "sweep",
  runs: [
    { ...autotuned.runs[0], size: 33, constexprs: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, autotune: { ...autotuned.runs[0].autotune!, picked: { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, cached: true } },
    autotuned.runs[0],
  ],
};

/** The same run after two earlier ones: the panel shows what changed since the last. */
export const runWithHistory: ResultsView = {
  ...singleRun,
  history: [
    {
      run: "vectorAdd",
      size: 98432,
      change: "1.80× faster than the last run (14:02)",
      speedup: 1.8,
      earlier: [
        { at: "2026-12-02T13:55:40.000Z", medianMs: 0.0301, correct: false },
        { at: "2026-12-02T14:02:11.000Z", medianMs: 0.0221, correct: true },
      ],
    },
  ],
};

/** A kernel with tl.devicePrint: its lines under the run. */
export const withPrints: ResultsView = {
  ...singleRun,
  runs: [
    {
      ...run(98432, 0.0123, 0.0125),
      prints: Array.from({ length: 250 }, (_, i) => `pid (${Math.floor(i / 4)}, 0, 0) idx (${i % 4}) x: ${(i * 0.25).toString()}`),
      printsDropped: 3,
    },
  ],
};

/** A 2-D run whose bottom-right quadrant is wrong: the mismatch's origin and the heatmap of mismatchMap. */
export const wrongQuadrant: ResultsView = {
  ...singleRun,
  file: "test/fixtures/provenance.kernel.ts",
  outcome: "mismatch",
  runs: [
    {
      name: "wrongQuadrant",
      kernel: "quadrant_kernel",
      size: 64,
      constexprs: { BM: 16, BN: 16 },
      grid: [4, 4, 1],
      correct: false,
      maxAbsDiff: 1,
      maxRelDiff: 1.9,
      mismatches: 1024,
      firstMismatch: { output: "out_ptr", index: 2080, got: 1.51685, expected: 0.51685, program: [2, 2, 0], lane: 0, source: { line: 63, column: 3 } },
      mismatchMap: {
        output: "out_ptr",
        shape: [64, 64],
        cell: [2, 2],
        counts: Array.from({ length: 32 }, (_, r) => Array.from({ length: 32 }, (_, c) => (r >= 16 && c >= 16 ? (r === 16 && c < 24 ? 2 : 4) : 0))),
      },
      timing: { medianMs: 0.0412, minMs: 0.039, maxMs: 0.051, reps: 100, source: "timestamp-query" },
      gbps: null,
      gflops: null,
      baseline: null,
    },
  ],
  wgsl: [],
};

// ---------------------------------------------------------------- speed of light

/** lavapipe's peaks as `peaks.json` had them on the development machine (2026-12-04). */
const lavapipePeaks = {
  memoryGBps: 3.5017044029838615,
  computeGflops: 23.346095107290882,
  launchMs: 0.026572,
  timing: "timestamp-query" as const,
  measuredAt: "2026-12-04T03:58:09.425Z",
  source: "cached" as const,
};

function matmulRun(size: number, grid: [number, number, number], constexprs: Record<string, number>, medianMs: number, gbps: number, gflops: number, verdict: "memory-bound" | "compute-bound", message: string): RunReport {
  return {
    name: "matmul",
    kernel: "matmul_kernel",
    size,
    constexprs,
    grid,
    correct: true,
    maxAbsDiff: 3.8e-6,
    maxRelDiff: 2.1e-6,
    mismatches: 0,
    firstMismatch: null,
    timing: { medianMs, minMs: medianMs * 0.95, maxMs: medianMs * 1.2, reps: 100, source: "timestamp-query" },
    gbps,
    gflops,
    baseline: null,
    speedOfLight: { peaks: lavapipePeaks, memoryFraction: gbps / lavapipePeaks.memoryGBps, computeFraction: gflops / lavapipePeaks.computeGflops, verdict, message },
  };
}

/** `kernel-lab run examples/matmul.kernel.ts --sweep --json` on lavapipe (bytes and flops: a line of points). */
export const rooflineSweep: ResultsView = {
  ...autotuned,
  mode: "sweep",
  runs: [
    matmulRun(1, [1, 1, 1], { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, 0.081696, 0.000342734, 7.3443e-5, "memory-bound", "memory-bound: 0.000343 GB/s is 0% of this GPU's measured 3.50 GB/s; 0.0000734 GFLOP/s is 0% of this GPU's measured f32 FMA rate, 23.3 GFLOP/s"),
    matmulRun(33, [1, 1, 1], { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 }, 0.165365, 0.080573, 0.44701, "memory-bound", "memory-bound: 0.0806 GB/s is 2% of this GPU's measured 3.50 GB/s; 0.447 GFLOP/s is 2% of this GPU's measured f32 FMA rate, 23.3 GFLOP/s"),
    matmulRun(64, [1, 1, 1], { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 }, 0.272166, 0.182448, 1.95552, "compute-bound", "compute-bound: 1.96 GFLOP/s is 8% of this GPU's measured f32 FMA rate, 23.3 GFLOP/s; 0.182 GB/s is 5% of this GPU's measured 3.50 GB/s"),
    matmulRun(127, [1, 1, 1], { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16 }, 0.871595, 0.223218, 4.73674, "compute-bound", "compute-bound: 4.74 GFLOP/s is 20% of this GPU's measured f32 FMA rate, 23.3 GFLOP/s; 0.223 GB/s is 6% of this GPU's measured 3.50 GB/s"),
    matmulRun(257, [6, 1, 1], { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16 }, 8.834, 0.089952, 3.85785, "compute-bound", "compute-bound: 3.86 GFLOP/s is 17% of this GPU's measured f32 FMA rate, 23.3 GFLOP/s; 0.0900 GB/s is 3% of this GPU's measured 3.50 GB/s"),
  ],
};

/** The same kernel run once at 127: one point. */
export const rooflineRun: ResultsView = { ...autotuned, runs: [{ ...rooflineSweep.runs[3], autotune: undefined }] };

/** Vector add declares bytes only (a real lavapipe run at 2^20): its bandwidth line under the memory roof. */
export const bytesOnlyRun: ResultsView = {
  ...singleRun,
  runs: [
    {
      ...run(1 << 20, 2.298501, 2.41),
      grid: [1024, 1, 1],
      gbps: 5.474399184511992,
      speedOfLight: {
        peaks: lavapipePeaks,
        memoryFraction: 1.5633527432661547,
        computeFraction: null,
        verdict: "memory-bound",
        message: "memory-bound: 5.47 GB/s is 156% of this GPU's measured 3.50 GB/s (above it: the data fits in the GPU's caches)",
      },
    },
  ],
};

/** A run with neither bytes nor flops: told what to add. */
export const uncountedRun: ResultsView = {
  ...singleRun,
  runs: [
    {
      ...run(98432, 0.31, 0.3),
      gbps: null,
      speedOfLight: {
        peaks: lavapipePeaks,
        memoryFraction: null,
        computeFraction: null,
        verdict: "unknown",
        message: "add `bytes` (the bytes a launch reads and writes) and, for arithmetic, `flops` to the run to see how close it comes to this GPU's limits",
      },
    },
  ],
};

/** A short launch on the H200 (README's example): launch-bound whatever it computes. */
export const launchBoundRun: ResultsView = {
  ...bytesOnlyRun,
  adapter: { vendor: "nvidia", device: "nvidia-h200", backend: "vulkan", description: "NVIDIA: 580.159.04 580.159.4.0" },
  runs: [
    {
      ...run(98432, 0.0028, 0.00746),
      speedOfLight: {
        peaks: { ...lavapipePeaks, memoryGBps: 3901.2, computeGflops: 51234, launchMs: 0.002 },
        memoryFraction: 0.108,
        computeFraction: null,
        verdict: "launch-bound",
        message: "launch-bound: the kernel's 2.80 µs is within 2× of one launch (2.00 µs on this GPU); give each launch more work (a larger size, or several steps in one kernel)",
      },
    },
  ],
};

/** A vector add sweep with bytes only: no roofline, the measured bandwidth drawn on the sweep chart. */
export const bytesOnlySweep: ResultsView = {
  ...sweep,
  outcome: "ok",
  runs: sweep.runs.map((r) => ({ ...r, correct: true, speedOfLight: { ...bytesOnlyRun.runs[0].speedOfLight!, memoryFraction: r.gbps! / lavapipePeaks.memoryGBps } })),
};

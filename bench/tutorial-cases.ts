// The suite's float32 cases (suite.ts runs them): Triton's tutorials 01, 02, 03 and 06 and layer
// norm as the examples write them, and Triton's own code as written (test/learner/as-written/),
// each with its candidate configs, inputs, CPU reference and byte or flop count.

import { empty, nextPow2, randn, type Case } from "./case";
import { attentionRows } from "./attention-check";

export function vectorAdd(n: number, light = false): Case {
  return {
    name: `add-${Math.log2(n)}`,
    example: "vector-add",
    kernel: "add_kernel",
    shape: `2^${Math.log2(n)}`,
    configs: light ? [{ BLOCK_SIZE: 1024 }, { BLOCK_SIZE: 4096 }] : [{ BLOCK_SIZE: 1024 }, { BLOCK_SIZE: 2048 }, { BLOCK_SIZE: 4096 }],
    grid: (c) => [Math.ceil(n / c.BLOCK_SIZE)],
    args: () => ({ x_ptr: randn(n), y_ptr: randn(n), output_ptr: empty(n), n_elements: n }),
    outputs: ["output_ptr"],
    check: (a) => {
      const x = a.x_ptr as Float32Array;
      const y = a.y_ptr as Float32Array;
      const e = new Float64Array(n);
      for (let i = 0; i < n; i++) e[i] = x[i] + y[i];
      return [{ output: "output_ptr", expected: e }];
    },
    bytes: 12 * n,
    baseline: "builtins.add",
    targets: light ? [] : [{ preferredWorkgroupSize: 256 }, { preferredWorkgroupSize: 1024 }],
  };
}

/**
 * `base` with each num_warps (32 invocations each, as in Triton) that gives every invocation 4 to
 * 64 elements of a BLOCK_SIZE block — the candidates an autotuner would try for a row kernel.
 */
function warpConfigs(base: Record<string, number>): Record<string, number>[] {
  const block = base.BLOCK_SIZE;
  const out = [base];
  for (let nw = 1; nw <= 32; nw *= 2) {
    const perInvocation = block / (32 * nw);
    if (perInvocation >= 4 && perInvocation <= 64) out.push({ ...base, num_warps: nw });
  }
  return out;
}

export function softmax(rows: number, cols: number, light = false): Case {
  const all = warpConfigs({ BLOCK_SIZE: nextPow2(cols) });
  return {
    name: `softmax-${rows}x${cols}`,
    example: "softmax",
    kernel: "softmax_kernel",
    shape: `${rows}×${cols}`,
    // The sweep: the default and num_warps 4, 8, 16 where they fit.
    configs: light ? all.filter((c) => c.num_warps === undefined || [4, 8, 16].includes(c.num_warps)) : all,
    grid: () => [rows],
    args: () => ({ output_ptr: empty(rows * cols), input_ptr: randn(rows * cols), input_row_stride: cols, output_row_stride: cols, n_cols: cols }),
    outputs: ["output_ptr"],
    check: (a) => {
      const x = a.input_ptr as Float32Array;
      const e = new Float64Array(rows * cols);
      for (let r = 0; r < rows; r++) {
        let m = -Infinity;
        for (let c = 0; c < cols; c++) m = Math.max(m, x[r * cols + c]);
        let s = 0;
        for (let c = 0; c < cols; c++) s += Math.exp(x[r * cols + c] - m);
        for (let c = 0; c < cols; c++) e[r * cols + c] = Math.exp(x[r * cols + c] - m) / s;
      }
      return [{ output: "output_ptr", expected: e }];
    },
    bytes: 8 * rows * cols,
  };
}

export function layerNorm(rows: number, cols: number): Case {
  const eps = 1e-5;
  return {
    name: `layernorm-${rows}x${cols}`,
    example: "layer-norm",
    kernel: "layer_norm_fwd",
    shape: `${rows}×${cols}`,
    configs: [...new Set([4096, 2048, 1024].map((b) => Math.min(nextPow2(cols), b)))].flatMap((b) => warpConfigs({ BLOCK_SIZE: b })),
    grid: () => [rows],
    args: () => ({
      X: randn(rows * cols), Y: empty(rows * cols), W: randn(cols), B: randn(cols), Mean: empty(rows), Rstd: empty(rows),
      stride: cols, N: cols, eps,
    }),
    outputs: ["Y"],
    check: (a) => {
      const X = a.X as Float32Array;
      const W = a.W as Float32Array;
      const B = a.B as Float32Array;
      const e = new Float64Array(rows * cols);
      for (let r = 0; r < rows; r++) {
        let mean = 0;
        for (let c = 0; c < cols; c++) mean += X[r * cols + c];
        mean /= cols;
        let v = 0;
        for (let c = 0; c < cols; c++) v += (X[r * cols + c] - mean) ** 2;
        const rstd = 1 / Math.sqrt(v / cols + eps);
        for (let c = 0; c < cols; c++) e[r * cols + c] = (X[r * cols + c] - mean) * rstd * W[c] + B[c];
      }
      return [{ output: "Y", expected: e }];
    },
    bytes: 4 * (2 * rows * cols + 2 * cols),
  };
}

export function matmul(m: number, n: number, k: number, light = false): Case {
  const full: Record<string, number>[] = [
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16 },
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16, num_stages: 1 },
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 },
    { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 16 },
    { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 16 },
    { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 16 },
    { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 },
    { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 32 },
    { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32 },
    // Triton tutorial 03's f32 shapes at 4 warps (NOTES §18): 42–45 TFLOP/s for Triton on the H200.
    { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 },
    { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4, num_stages: 2 },
    { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 },
    { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 2 },
    { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 16, num_warps: 4, num_stages: 2 },
  ];
  return {
    name: `matmul-${m}x${n}x${k}`,
    example: "matmul",
    kernel: "matmul_kernel",
    shape: `${m}×${n}×${k}`,
    // num_stages 2 (the default) loads the next K tiles during this trip's tl.dot; 1 is the loop as written.
    configs: light ? [full[0], full[4], full[6]] : full,
    // The example's grouped order (Triton tutorial 03): a 1-D grid of all tiles.
    grid: (c) => [Math.ceil(m / c.BLOCK_M) * Math.ceil(n / c.BLOCK_N)],
    args: () => ({
      a_ptr: randn(m * k), b_ptr: randn(k * n), c_ptr: empty(m * n), M: m, N: n, K: k,
      stride_am: k, stride_ak: 1, stride_bk: n, stride_bn: 1, stride_cm: n, stride_cn: 1,
    }),
    outputs: ["c_ptr"],
    check: (a) => {
      const A = a.a_ptr as Float32Array;
      const B = a.b_ptr as Float32Array;
      const samples = Math.min(m * n, 4096);
      const indices = new Int32Array(samples);
      const e = new Float64Array(samples);
      for (let s = 0; s < samples; s++) {
        const idx = samples === m * n ? s : Math.floor(Math.random() * m * n);
        const i = Math.floor(idx / n);
        const j = idx % n;
        let acc = 0;
        for (let p = 0; p < k; p++) acc += A[i * k + p] * B[p * n + j];
        indices[s] = idx;
        e[s] = acc;
      }
      return [{ output: "c_ptr", indices, expected: e }];
    },
    flops: 2 * m * n * k,
    // The default is tiled, 256 invocations, k loop written out, staged A's rows shifted against
    // bank conflicts; these are what it was chosen over (NOTES §5, §13, §18).
    // (Double-buffered tiles lost in every shape in §13 and are no longer timed here.)
    targets: light ? [] : [{ padDotTiles: false }, { preferredWorkgroupSize: 128 }],
  };
}

/** Fused attention forward (examples/attention.kernel.ts), Z × H heads of n tokens × d, float32; sampled rows checked. */
export function attention(z: number, h: number, n: number, d: number, causal: boolean, quick: boolean): Case {
  const size = z * h * n * d;
  const base = { HEAD_DIM: d, IS_CAUSAL: causal ? 1 : 0 };
  return {
    name: `attention-${z}x${h}x${n}x${d}${causal ? "-causal" : ""}`,
    example: "attention",
    kernel: "attn_fwd",
    shape: `${z}×${h}×${n}×${d}${causal ? " causal" : ""}`,
    // The first four are the 2026-12-03 session-3 shapes (default 256 invocations; scores not
    // tiled, so the softmax is unchanged by rowLayouts). The num_warps ones tile the scores, so
    // their row reductions run in subgroups (NOTES §17); each is timed again with rowLayouts off,
    // and with privateDotTiles off (it applies where BLOCK_D = HEAD_DIM and both dots are tiled).
    configs: quick
      ? [{ BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 32, ...base }, { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 32, num_warps: 4, ...base }]
      : [
          { BLOCK_M: 32, BLOCK_N: 16, BLOCK_D: d, ...base },
          { BLOCK_M: 64, BLOCK_N: 16, BLOCK_D: d, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: d, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 32, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: 32, num_warps: 4, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: d, num_warps: 4, ...base },
          // Its loads of the next key block (Q, K, V: 64 registers) in flight, or not (NOTES §9).
          { BLOCK_M: 64, BLOCK_N: 32, BLOCK_D: d, num_warps: 4, num_stages: 1, ...base },
          { BLOCK_M: 64, BLOCK_N: 64, BLOCK_D: d, num_warps: 4, ...base },
          { BLOCK_M: 64, BLOCK_N: 64, BLOCK_D: 32, num_warps: 4, ...base },
          { BLOCK_M: 128, BLOCK_N: 32, BLOCK_D: 32, num_warps: 8, ...base },
          { BLOCK_M: 128, BLOCK_N: 32, BLOCK_D: d, num_warps: 8, ...base },
          { BLOCK_M: 128, BLOCK_N: 64, BLOCK_D: 32, num_warps: 8, ...base },
          { BLOCK_M: 128, BLOCK_N: 64, BLOCK_D: 32, num_warps: 8, num_stages: 1, ...base },
          { BLOCK_M: 128, BLOCK_N: 64, BLOCK_D: 16, num_warps: 4, ...base },
        ],
    grid: (c) => [Math.ceil(n / c.BLOCK_M), z * h],
    args: () => ({
      Q: randn(size), K: randn(size), V: randn(size), Out: empty(size), sm_scale: 1 / Math.sqrt(d),
      stride_z: h * n * d, stride_h: n * d, stride_m: d, stride_k: 1, H: h, N_CTX: n,
    }),
    outputs: ["Out"],
    check: (a) => {
      const [q, k, v] = [a.Q, a.K, a.V] as Float32Array[];
      return attentionRows(q, k, v, { z, h, n, d, causal }, quick ? 8 : 24);
    },
    flops: (4 * z * h * n * n * d) / (causal ? 2 : 1),
    minReps: 3,
    targets: quick ? [] : [{ rowLayouts: false }, { privateDotTiles: false }],
    // 4 × 128 MiB per set at 4096 tokens: one set exceeds the L2 on its own.
    copies: 1,
  };
}

/**
 * Issue 23 item 8: Triton's code as written (test/learner/as-written/) beside the hand-written
 * examples, at the examples' best configs: the block-pointer matmul (tl.makeBlockPtr, tl.advance,
 * boundaryCheck) against examples/matmul, tutorial 06's forward (a device function returning a
 * tuple, block pointers, stages) against examples/attention.
 */
export function asWrittenMatmul(s: number): Case {
  const hand = matmul(s, s, s, true);
  const blocks = (m: number, n: number, k: number) => ({ BLOCK_SIZE_M: m, BLOCK_SIZE_N: n, BLOCK_SIZE_K: k, GROUP_SIZE_M: 8 });
  return {
    ...hand,
    name: `as-written-matmul-${s}x${s}x${s}`,
    file: "test/learner/as-written/block-ptr-matmul.kernel.ts",
    kernel: "matmul_kernel_with_block_pointers",
    configs: [blocks(128, 128, 32), blocks(64, 64, 32), blocks(128, 128, 16)],
    grid: (c) => [Math.ceil(s / c.BLOCK_SIZE_M) * Math.ceil(s / c.BLOCK_SIZE_N)],
    targets: [],
  };
}

export function asWrittenAttention(z: number, h: number, n: number, d: number, causal: boolean, quick: boolean): Case {
  const hand = attention(z, h, n, d, causal, quick);
  const size = z * h * n * d;
  const stage = { HEAD_DIM: d, STAGE: causal ? 3 : 1 };
  return {
    ...hand,
    name: `as-written-attention-${z}x${h}x${n}x${d}${causal ? "-causal" : ""}`,
    file: "test/learner/as-written/t06-attention-forward.kernel.ts",
    kernel: "_attn_fwd",
    configs: quick
      ? [{ BLOCK_M: 64, BLOCK_N: 32, num_warps: 4, ...stage }]
      : [{ BLOCK_M: 128, BLOCK_N: 32, num_warps: 8, ...stage }, { BLOCK_M: 64, BLOCK_N: 32, num_warps: 4, ...stage }, { BLOCK_M: 64, BLOCK_N: 64, num_warps: 4, ...stage }],
    args: () => ({
      Q: randn(size), K: randn(size), V: randn(size), sm_scale: 1 / Math.sqrt(d), M: empty(z * h * n), Out: empty(size),
      stride_z: h * n * d, stride_h: n * d, stride_tok: d, H: h, N_CTX: n,
    }),
    outputs: ["Out", "M"],
    // q loaded before the key loop, as written, against the default (codegen/sink.ts: inside it).
    targets: quick ? [] : [{ sinkInvariantDotLoads: false }],
  };
}

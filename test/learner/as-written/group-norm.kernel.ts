// GroupNorm forward, as Liger-Kernel writes it in Triton (linkedin/Liger-Kernel,
// src/liger_kernel/ops/group_norm.py, `_group_norm_forward_kernel`; written here from the
// algorithm): a 2-D grid of (batch, group) programs over X viewed as [batch, groups, hidden], where
// hidden = channels_per_group · spatial. A first pass walks the group's hidden values in blocks
// with tl.range, summing x and x² into scalars; variance = E[x²] − E[x]², rstd from rsqrt (Liger
// imports libdevice's rsqrt: tl.rsqrt here). A second pass runs a tl.range over the group's
// channels — loading each channel's scalar weight and bias — with a plain range loop nested in it,
// the pointer parameters X_ptr and Y_ptr advanced by one channel per trip (reassigned inside a
// loop), and masked-off lanes loading the mean (`other=m`, a run-time scalar). Mean and rstd go
// through their own row and column strides.
//   y = (x − mean) · rstd · w[channel] + b[channel]
import { kernel, tl, defineRun, randn, rand, empty } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const _group_norm_forward_kernel = kernel(function _group_norm_forward_kernel(
  Y_ptr: Ptr<f32>, Y_row_stride: i32, Y_col_stride: i32,
  X_ptr: Ptr<f32>, X_row_stride: i32, X_col_stride: i32,
  Mean_ptr: Ptr<f32>, Mean_row_stride: i32, Mean_col_stride: i32,
  RSTD_ptr: Ptr<f32>, RSTD_row_stride: i32, RSTD_col_stride: i32,
  W_ptr: Ptr<f32>, B_ptr: Ptr<f32>, hidden_size: i32, channels_per_group: i32, eps: f32,
  BLOCK_SIZE: constexpr,
) {
  const batch_idx = tl.programId(0);
  const group_idx = tl.programId(1);

  X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride;
  Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride;

  const block_range = tl.arange(0, BLOCK_SIZE);

  // The sums of x and x² over the whole group.
  let s = 0.0;
  let squared_sum = 0.0;
  for (const i of tl.range(0, hidden_size, BLOCK_SIZE)) {
    const hidden_size_offsets = i + block_range;
    const mask = hidden_size_offsets < hidden_size;
    const X = tl.load(X_ptr + hidden_size_offsets, { mask, other: 0.0 });
    s += tl.sum(X);
    squared_sum += tl.sum(X * X);
  }

  const m = s / hidden_size;
  const variance = squared_sum / hidden_size - m * m;
  const rstd = tl.rsqrt(variance + eps);

  // Normalise channel by channel, each with its own weight and bias.
  const hidden_size_per_channel = hidden_size / channels_per_group;
  for (const channel_idx of tl.range(group_idx * channels_per_group, (group_idx + 1) * channels_per_group)) {
    const W = tl.load(W_ptr + channel_idx);
    const B = tl.load(B_ptr + channel_idx);
    for (let i = 0; i < hidden_size_per_channel; i += BLOCK_SIZE) {
      const hidden_size_offsets = i + block_range;
      const mask = hidden_size_offsets < hidden_size_per_channel;
      const X = tl.load(X_ptr + hidden_size_offsets, { mask, other: m });
      const Y = (X - m) * rstd * W + B;
      tl.store(Y_ptr + hidden_size_offsets, Y, { mask });
    }
    X_ptr += hidden_size_per_channel;
    Y_ptr += hidden_size_per_channel;
  }

  tl.store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m);
  tl.store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd);
});

const BATCH = 3;
const GROUPS = 4;
const CHANNELS_PER_GROUP = 3;
const EPS = 1e-5;

/**
 * Size: the spatial extent of a channel (hidden = 3 · size per group). X and Y are contiguous
 * [batch, groups, hidden]; Mean is [batch, groups] row-major, RSTD the same stored column-major.
 */
export const groupNorm = defineRun({
  kernel: _group_norm_forward_kernel,
  sizes: [37, 150],
  constexprs: { BLOCK_SIZE: 64 },
  grid: () => [BATCH, GROUPS],
  args: (n) => {
    const hidden = CHANNELS_PER_GROUP * n;
    return {
      Y_ptr: empty(BATCH * GROUPS * hidden), Y_row_stride: GROUPS * hidden, Y_col_stride: hidden,
      X_ptr: randn(BATCH * GROUPS * hidden), X_row_stride: GROUPS * hidden, X_col_stride: hidden,
      Mean_ptr: empty(BATCH * GROUPS), Mean_row_stride: GROUPS, Mean_col_stride: 1,
      RSTD_ptr: empty(BATCH * GROUPS), RSTD_row_stride: 1, RSTD_col_stride: BATCH,
      W_ptr: rand(GROUPS * CHANNELS_PER_GROUP), B_ptr: randn(GROUPS * CHANNELS_PER_GROUP),
      hidden_size: hidden, channels_per_group: CHANNELS_PER_GROUP, eps: EPS,
    };
  },
  outputs: ["Y_ptr", "Mean_ptr", "RSTD_ptr"],
  reference: ({ X_ptr, W_ptr, B_ptr }, n) => {
    const hidden = CHANNELS_PER_GROUP * n;
    const y = new Float64Array(BATCH * GROUPS * hidden);
    const mean = new Float64Array(BATCH * GROUPS);
    const rstd = new Float64Array(BATCH * GROUPS);
    for (let b = 0; b < BATCH; b++) {
      for (let g = 0; g < GROUPS; g++) {
        const base = (b * GROUPS + g) * hidden;
        let s = 0;
        for (let i = 0; i < hidden; i++) s += X_ptr[base + i];
        const m = s / hidden;
        let v = 0;
        for (let i = 0; i < hidden; i++) v += (X_ptr[base + i] - m) ** 2;
        const r = 1 / Math.sqrt(v / hidden + EPS);
        mean[b * GROUPS + g] = m;
        rstd[b + g * BATCH] = r;
        for (let i = 0; i < hidden; i++) {
          const channel = g * CHANNELS_PER_GROUP + Math.floor(i / n);
          y[base + i] = (X_ptr[base + i] - m) * r * W_ptr[channel] + B_ptr[channel];
        }
      }
    }
    return { Y_ptr: y, Mean_ptr: mean, RSTD_ptr: rstd };
  },
  tolerance: { atol: 2e-5, rtol: 1e-4 },
});

// Persistent matrix multiplication, as Triton tutorial 09 writes it (written here from the
// algorithm): a fixed number of programs (NUM_SMS) each walk the output tiles
// `for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True)`, in tutorial 03's
// grouped order (a device function returning the tile's row and column, as a tuple); the offsets
// carry tl.multipleOf / tl.maxContiguous hints, the K loop is a tl.range with numStages.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

const _compute_pid = kernel(function _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M: constexpr) {
  const group_id = tile_id / num_pid_in_group;
  const first_pid_m = group_id * GROUP_SIZE_M;
  const group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_SIZE_M);
  const pid_m = first_pid_m + (tile_id % group_size_m);
  const pid_n = (tile_id % num_pid_in_group) / group_size_m;
  return [pid_m, pid_n];
});

export const matmul_kernel_persistent = kernel(function matmul_kernel_persistent(
  a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, c_ptr: Ptr<f32>, M: i32, N: i32, K: i32,
  stride_am: i32, stride_ak: i32, stride_bk: i32, stride_bn: i32, stride_cm: i32, stride_cn: i32,
  BLOCK_SIZE_M: constexpr, BLOCK_SIZE_N: constexpr, BLOCK_SIZE_K: constexpr, GROUP_SIZE_M: constexpr, NUM_SMS: constexpr,
) {
  const start_pid = tl.programId(0);
  const num_pid_m = tl.cdiv(M, BLOCK_SIZE_M);
  const num_pid_n = tl.cdiv(N, BLOCK_SIZE_N);
  const k_tiles = tl.cdiv(K, BLOCK_SIZE_K);
  const num_tiles = num_pid_m * num_pid_n;
  const num_pid_in_group = GROUP_SIZE_M * num_pid_n;

  const offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K);
  for (const tile_id of tl.range(start_pid, num_tiles, NUM_SMS, { flatten: true })) {
    const [pid_m, pid_n] = _compute_pid(tile_id, num_pid_in_group, num_pid_m, GROUP_SIZE_M);
    const start_m = pid_m * BLOCK_SIZE_M;
    const start_n = pid_n * BLOCK_SIZE_N;
    let offs_am = start_m + tl.arange(0, BLOCK_SIZE_M);
    let offs_bn = start_n + tl.arange(0, BLOCK_SIZE_N);
    offs_am = tl.where(offs_am < M, offs_am, 0);
    offs_bn = tl.where(offs_bn < N, offs_bn, 0);
    offs_am = tl.maxContiguous(tl.multipleOf(offs_am, BLOCK_SIZE_M), BLOCK_SIZE_M);
    offs_bn = tl.maxContiguous(tl.multipleOf(offs_bn, BLOCK_SIZE_N), BLOCK_SIZE_N);

    let accumulator = tl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], "f32");
    for (const ki of tl.range(k_tiles, { numStages: 3 })) {
      const offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K);
      const a_ptrs = a_ptr + (tl.expandDims(offs_am, 1) * stride_am + tl.expandDims(offs_k, 0) * stride_ak);
      const b_ptrs = b_ptr + (tl.expandDims(offs_k, 1) * stride_bk + tl.expandDims(offs_bn, 0) * stride_bn);
      const a = tl.load(a_ptrs, { mask: tl.expandDims(offs_k_for_mask, 0) < K - ki * BLOCK_SIZE_K, other: 0.0 });
      const b = tl.load(b_ptrs, { mask: tl.expandDims(offs_k_for_mask, 1) < K - ki * BLOCK_SIZE_K, other: 0.0 });
      accumulator = tl.dot(a, b, accumulator);
    }

    const offs_cm = start_m + tl.arange(0, BLOCK_SIZE_M);
    const offs_cn = start_n + tl.arange(0, BLOCK_SIZE_N);
    const c_ptrs = c_ptr + stride_cm * tl.expandDims(offs_cm, 1) + stride_cn * tl.expandDims(offs_cn, 0);
    const c_mask = tl.expandDims(offs_cm, 1) < M && tl.expandDims(offs_cn, 0) < N;
    tl.store(c_ptrs, accumulator, { mask: c_mask });
  }
});

/** Size s: an s × (s + 2) matrix times an (s + 2) × (s - 1) one, on NUM_SMS = 5 persistent programs. */
export const persistentMatmul = defineRun({
  kernel: matmul_kernel_persistent,
  sizes: [127, 45],
  constexprs: { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 32, BLOCK_SIZE_K: 16, GROUP_SIZE_M: 2, NUM_SMS: 5 },
  grid: (s, c) => [Math.min(c.NUM_SMS, cdiv(s, c.BLOCK_SIZE_M) * cdiv(s - 1, c.BLOCK_SIZE_N))],
  args: (s) => {
    const [M, K, N] = [s, s + 2, s - 1];
    return {
      a_ptr: randn(M * K), b_ptr: randn(K * N), c_ptr: empty(M * N), M, N, K,
      stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    };
  },
  outputs: ["c_ptr"],
  reference: ({ a_ptr, b_ptr, M, N, K }) => {
    const c = new Float64Array(M * N);
    for (let i = 0; i < M; i++)
      for (let j = 0; j < N; j++) {
        let s = 0;
        for (let k = 0; k < K; k++) s += a_ptr[i * K + k] * b_ptr[k * N + j];
        c[i * N + j] = s;
      }
    return { c_ptr: c };
  },
  tolerance: { atol: 1e-3, rtol: 1e-4 },
});

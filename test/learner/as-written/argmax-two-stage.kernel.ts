// argmax over all elements, as FlagGems writes it in Triton (FlagOpen/FlagGems,
// src/flag_gems/ops/argmax.py, `argmax_kernel_1` and `argmax_kernel_2`; written here from the
// algorithm): two launches. Stage 1: each program takes BLOCK_SIZE elements, and stores their
// maximum and its flat index into the mid buffers (`tl.max(…, return_indices=True)`, the block's
// index plus pid * BLOCK_SIZE). Stage 2: one program loads the mid values, takes their argmax, and
// loads the answer from `mid_index[argmax(mid_value)]` — an address that only launch 1's output
// decides. The host code picks the blocks from the size as FlagGems does:
// block_size = next_power_of_2(ceil(sqrt(M))), mid_size = cdiv(M, block_size),
// block_mid = next_power_of_2(mid_size). FlagGems' index is int64; it is i32 here.
import { kernel, tl, defineRun, randn, empty, cdiv, nextPowerOf2 } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

/** torch.finfo(torch.float32).min, FlagGems' get_dtype_min for f32. */
const F32_MIN = -3.4028234663852886e38;

export const argmax_kernel_1 = kernel(function argmax_kernel_1(
  inp: Ptr<f32>, mid_value: Ptr<f32>, mid_index: Ptr<i32>, M: i32, BLOCK_SIZE: constexpr,
) {
  const pid = tl.programId(0);
  const offset = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const inp_ptrs = inp + offset;
  const mask = offset < M;
  const inp_val = tl.load(inp_ptrs, { mask, other: F32_MIN });
  let [max_val, max_index] = tl.max(inp_val, { axis: 0, returnIndices: true });
  max_index = max_index + pid * BLOCK_SIZE;
  const mid_value_ptr = mid_value + pid;
  const max_index_ptr = mid_index + pid;
  tl.store(mid_value_ptr, max_val);
  tl.store(max_index_ptr, max_index);
});

export const argmax_kernel_2 = kernel(function argmax_kernel_2(
  mid_value: Ptr<f32>, mid_index: Ptr<i32>, out: Ptr<i32>, mid_size: i32, BLOCK_MID: constexpr,
) {
  const offset = tl.arange(0, BLOCK_MID);
  const mid_ptrs = mid_value + offset;
  const mask = offset < mid_size;
  const mid_val = tl.load(mid_ptrs, { mask, other: F32_MIN });
  const index_val = tl.argmax(mid_val, { axis: 0 });
  const mid_index_ptrs = mid_index + index_val;
  const out_val = tl.load(mid_index_ptrs);
  tl.store(out, out_val);
});

/** FlagGems' host code: the stage-1 block, from the size. */
const blockSize = (m: number) => nextPowerOf2(Math.ceil(Math.sqrt(m)));
const midSize = (m: number) => cdiv(m, blockSize(m));

/** Size: M, the number of elements. 781 and 1000 share their blocks (32, 32); 5000 doesn't (128, 64). */
export const argmaxTwoStage = defineRun({
  sizes: [1000, 781, 5000],
  launches: [
    { kernel: argmax_kernel_1, constexprs: (m: number) => ({ BLOCK_SIZE: blockSize(m) }), grid: (m, c) => [cdiv(m, c.BLOCK_SIZE)] },
    { kernel: argmax_kernel_2, constexprs: (m: number) => ({ BLOCK_MID: nextPowerOf2(midSize(m)) }), grid: () => [1] },
  ],
  args: (m: number) => ({
    inp: randn(m), mid_value: empty(midSize(m)), mid_index: empty(midSize(m), "i32"), out: empty(1, "i32"), M: m, mid_size: midSize(m),
  }),
  outputs: ["out"],
  reference: ({ inp }) => {
    let best = 0;
    for (let i = 1; i < inp.length; i++) if (inp[i] > inp[best]) best = i;
    return { out: Int32Array.of(best) };
  },
});

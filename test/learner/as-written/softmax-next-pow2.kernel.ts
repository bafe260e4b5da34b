// Softmax over the last dimension with the whole row in one tile, as FlagGems writes it in Triton
// (FlagOpen/FlagGems, src/flag_gems/ops/softmax.py, `softmax_kernel_inner` with
// ONE_TILE_PER_CTA; written here from the algorithm). The launcher picks the tile from the size:
// `TILE_N = triton.next_power_of_2(N)`, and ONE_TILE_PER_CTA = TILE_N >= N; here that is
// `constexprs: (n) => ({ TILE_N: next_power_of_2(n), ONE_TILE_PER_CTA: … })`, evaluated per size.
// 781 and 1000 share TILE_N = 1024 (one compile); 33 takes 64. The tail of a row is masked and
// loaded as -inf, which exp turns into 0.
import { kernel, tl, defineRun, randn, empty, next_power_of_2 } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const softmax_kernel_inner = kernel(function softmax_kernel_inner(
  output_ptr: Ptr<f32>, input_ptr: Ptr<f32>, M: i32, N: i32, TILE_N: constexpr, ONE_TILE_PER_CTA: constexpr,
) {
  const pid_m = tl.programId(0);
  tl.staticAssert(ONE_TILE_PER_CTA === 1, "this port keeps FlagGems' one-tile branch");
  const n_offsets = tl.arange(0, TILE_N);
  const offset = pid_m * N + n_offsets;
  const input_ptrs = input_ptr + offset;
  const mask = n_offsets < N;
  const inp = tl.load(input_ptrs, { mask, other: -Infinity });
  const m = tl.max(inp, 0);
  const e = tl.exp(inp - m);
  const z = tl.sum(e, 0);
  const out = e / z;
  const output_ptrs = output_ptr + offset;
  tl.store(output_ptrs, out, { mask });
});

/** Rows: not a multiple of anything. */
const M = 37;

/** Size: N, the row length. */
export const softmaxNextPow2 = defineRun({
  kernel: softmax_kernel_inner,
  sizes: [781, 1000, 33],
  constexprs: (n: number) => ({ TILE_N: next_power_of_2(n), ONE_TILE_PER_CTA: next_power_of_2(n) >= n ? 1 : 0 }),
  grid: () => [M],
  args: (n) => ({ output_ptr: empty(M * n), input_ptr: randn(M * n), M, N: n }),
  outputs: ["output_ptr"],
  reference: ({ input_ptr }, n) => {
    const out = new Float32Array(M * n);
    for (let r = 0; r < M; r++) {
      let max = -Infinity;
      for (let c = 0; c < n; c++) max = Math.max(max, input_ptr[r * n + c]);
      let sum = 0;
      for (let c = 0; c < n; c++) sum += Math.exp(input_ptr[r * n + c] - max);
      for (let c = 0; c < n; c++) out[r * n + c] = Math.exp(input_ptr[r * n + c] - max) / sum;
    }
    return { output_ptr: out };
  },
  tolerance: { atol: 1e-6, rtol: 1e-5 },
});

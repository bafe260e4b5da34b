// Dropout as FlagGems writes it in Triton (FlagOpen/FlagGems, src/flag_gems/ops/dropout.py,
// `dropout_forward_kernel`; written here from the algorithm): Philox with explicit counters. The
// seed and the offset arrive as integers and are widened to int64 (`philox_seed.to(tl.int64)`);
// the offset is split into the counter's two low words with `& 0xFFFFFFFF` and `>> 32`; each
// program adds its element index to c0 (`c0 += i4` turns the scalar into a block) and draws four
// words per element with one `tl.philox(seed, c0, c1, _O, _O)`, so one call covers UNROLL = 4
// blocks of the input. Each word becomes a float in [0, 1) with `tl.uint_to_uniform_float`, and an
// element is kept where it is above p, scaled by 1 / (1 - p). The mask is stored too (FlagGems'
// dropout_mask, for the backward pass).
//
// The reference recomputes Philox 4×32-10 in plain TypeScript, as Triton defines it
// (python/triton/language/random.py), so the GPU and --cpu must match it bit for bit on the mask
// and to float rounding on the values.
import { kernel, tl, defineRun, randn, empty, cdiv } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const dropout_forward_kernel = kernel(function dropout_forward_kernel(
  X: Ptr<f32>, Y: Ptr<f32>, dropout_mask: Ptr<i32>, N: i32, p: f32, philox_seed: i32, philox_offset: i32, BLOCK: constexpr,
) {
  const UNROLL = 4; // philox generates 128 random bits at a time
  philox_seed = philox_seed.to(tl.int64);
  philox_offset = philox_offset.to(tl.int64);
  let c0 = (philox_offset & 0xFFFFFFFF).to(tl.uint32);
  const c1 = ((philox_offset >> 32) & 0xFFFFFFFF).to(tl.uint32);
  const i4 = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  c0 += i4;
  const _O = c0 * 0;
  let [r0, r1, r2, r3] = tl.philox(philox_seed, c0, c1, _O, _O);
  r0 = tl.uintToUniformFloat(r0);
  r1 = tl.uintToUniformFloat(r1);
  r2 = tl.uintToUniformFloat(r2);
  r3 = tl.uintToUniformFloat(r3);

  const mask0 = r0 > p;
  const mask1 = r1 > p;
  const mask2 = r2 > p;
  const mask3 = r3 > p;
  const scale = 1.0 / (1.0 - p);

  const off_0 = tl.programId(0) * BLOCK * UNROLL + tl.arange(0, BLOCK);
  const off_1 = off_0 + BLOCK;
  const off_2 = off_1 + BLOCK;
  const off_3 = off_2 + BLOCK;

  const x0 = tl.load(X + off_0, { mask: off_0 < N, other: 0.0, evictionPolicy: "evict_first" });
  const x1 = tl.load(X + off_1, { mask: off_1 < N, other: 0.0, evictionPolicy: "evict_first" });
  const x2 = tl.load(X + off_2, { mask: off_2 < N, other: 0.0, evictionPolicy: "evict_first" });
  const x3 = tl.load(X + off_3, { mask: off_3 < N, other: 0.0, evictionPolicy: "evict_first" });

  const y0 = tl.where(mask0, x0 * scale, 0.0);
  const y1 = tl.where(mask1, x1 * scale, 0.0);
  const y2 = tl.where(mask2, x2 * scale, 0.0);
  const y3 = tl.where(mask3, x3 * scale, 0.0);

  tl.store(dropout_mask + off_0, tl.where(mask0, 1, 0), { mask: off_0 < N });
  tl.store(dropout_mask + off_1, tl.where(mask1, 1, 0), { mask: off_1 < N });
  tl.store(dropout_mask + off_2, tl.where(mask2, 1, 0), { mask: off_2 < N });
  tl.store(dropout_mask + off_3, tl.where(mask3, 1, 0), { mask: off_3 < N });

  tl.store(Y + off_0, y0, { mask: off_0 < N, evictionPolicy: "evict_first" });
  tl.store(Y + off_1, y1, { mask: off_1 < N, evictionPolicy: "evict_first" });
  tl.store(Y + off_2, y2, { mask: off_2 < N, evictionPolicy: "evict_first" });
  tl.store(Y + off_3, y3, { mask: off_3 < N, evictionPolicy: "evict_first" });
});

// ---- Philox 4×32-10 and uint_to_uniform_float as Triton defines them, in plain TypeScript ----

const mulhi = (a: number, b: number) => Number((BigInt(a >>> 0) * BigInt(b >>> 0)) >> 32n);

/** Triton's philox(seed, c0, c1, c2, c3): the seed as uint64, split into the key's two words. */
function philox(seed: number, c: [number, number, number, number]): number[] {
  let [c0, c1, c2, c3] = c.map((x) => x >>> 0);
  const big = BigInt.asUintN(64, BigInt(seed));
  let k0 = Number(big & 0xffffffffn);
  let k1 = Number(big >> 32n);
  for (let round = 0; round < 10; round++) {
    const [a, b] = [c0, c2];
    c0 = (mulhi(0xcd9e8d57, b) ^ c1 ^ k0) >>> 0;
    c2 = (mulhi(0xd2511f53, a) ^ c3 ^ k1) >>> 0;
    c1 = Math.imul(0xcd9e8d57, b) >>> 0;
    c3 = Math.imul(0xd2511f53, a) >>> 0;
    k0 = (k0 + 0x9e3779b9) >>> 0;
    k1 = (k1 + 0xbb67ae85) >>> 0;
  }
  return [c0, c1, c2, c3];
}

/** Triton's uint_to_uniform_float on a 32-bit word, in f32. */
function uniform(word: number): number {
  const x = word | 0;
  return Math.fround(Math.fround(x < 0 ? -x - 1 : x) * Math.fround(4.6566127342e-10));
}

const P = 0.3;
const SEED = 1234567;
const OFFSET = 77;

/** Size: N, the elements; one program covers 4 × BLOCK of them. */
export const philoxDropout = defineRun({
  kernel: dropout_forward_kernel,
  sizes: [5000, 777, 4097],
  constexprs: { BLOCK: 256 },
  grid: (n, c) => [cdiv(n, c.BLOCK * 4)],
  args: (n) => ({ X: randn(n), Y: empty(n), dropout_mask: empty(n, "i32"), N: n, p: P, philox_seed: SEED, philox_offset: OFFSET }),
  outputs: ["Y", "dropout_mask"],
  reference: ({ X }, n) => {
    const BLOCK = 256;
    const Y = new Float64Array(n);
    const mask = new Int32Array(n);
    const p = Math.fround(P);
    const scale = Math.fround(1 / Math.fround(1 - p));
    for (let pid = 0; pid * BLOCK * 4 < n; pid++) {
      for (let j = 0; j < BLOCK; j++) {
        const words = philox(SEED, [OFFSET + pid * BLOCK + j, 0, 0, 0]);
        for (let u = 0; u < 4; u++) {
          const i = pid * BLOCK * 4 + u * BLOCK + j;
          if (i >= n) continue;
          const keep = uniform(words[u]) > p;
          mask[i] = keep ? 1 : 0;
          Y[i] = keep ? X[i] * scale : 0;
        }
      }
    }
    return { Y, dropout_mask: mask };
  },
  bytes: (n) => 12 * n,
});

// The WGSL of tl.rand/randn/randint/randint4x/philox (IR op `random`): per register, Philox on
// counter (offset, 0, 0, 0) — or tl.philox's (c0, c1, c2, c3) — and key (seed, its high word):
// philox-wgsl.ts, the interpreter's ir/philox.ts bit for bit; then Triton's conversion of the words.

import type { Value } from "../ir/ir";
import { PHILOX_ROUNDS } from "../ir/philox";
import type { WgslGenerator } from "./generator";

/** Box–Muller on the first two words (tl.randn). */
export const RANDN_WGSL = `
fn kl_randn(words: vec4<u32>) -> f32 {
  return kl_normal(words.x, words.y);
}
`;

export function emitRandom(gen: WgslGenerator, v: Extract<Value, { op: "random" }>): void {
  const seedU32 = gen.dtype(v.seed.type) === "u32";
  const offsetU32 = gen.dtype(v.offset.type) === "u32";
  const seed = gen.reg(v.seed, 0);
  const rounds = v.rounds ?? PHILOX_ROUNDS;
  const general = v.counters !== undefined || rounds !== PHILOX_ROUNDS;
  // A u32 seed is zero-extended to 64 bits (Triton's seed.to(tl.uint64)), a signed one sign-extended.
  const key = seedU32 ? `vec2<u32>(${seed}, 0u)` : `vec2<u32>(bitcast<u32>(${seed}), select(0u, 0xffffffffu, ${seed} < 0))`;
  const u32 = (x: Value, j: number) => (gen.dtype(x.type) === "u32" ? gen.reg(x, j) : `bitcast<u32>(${gen.reg(x, j)})`);
  gen.elementwise(v, (j) => {
    const offset = gen.reg(v.offset, j);
    let words: string;
    if (general) {
      const c = v.counters ? v.counters.map((x) => u32(x, j)).join(", ") : "0u, 0u, 0u";
      const counter = `vec4<u32>(${u32(v.offset, j)}, ${c})`;
      // Ten rounds (Triton's default) are written out; another count is a loop (philox-wgsl.ts).
      words = rounds === PHILOX_ROUNDS ? `kl_philox(${counter}, ${key})` : `kl_philox_rounds(${counter}, ${key}, ${rounds}u)`;
    } else {
      words = seedU32
        ? `kl_philox(vec4<u32>(${offsetU32 ? offset : `bitcast<u32>(${offset})`}, 0u, 0u, 0u), vec2<u32>(${seed}, 0u))`
        : `kl_randint4x(${seed}, ${offsetU32 ? `bitcast<i32>(${offset})` : offset})`;
    }
    if (v.kind === "uniform") return `kl_uniform(${words}.x)`;
    if (v.kind === "normal") return `kl_randn(${words})`;
    return `${words}.${"xyzw"[v.word]}`;
  });
}

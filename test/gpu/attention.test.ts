// examples/attention.kernel.ts at block shapes whose score block is tiled, so the online
// softmax's row reductions and broadcasts take the row-slice layout (codegen/layout.ts): the
// subgroup shuffle path, the workgroup-memory partials path (16 invocations per tile row, or no
// subgroups), the old staged path (rowLayouts: false); both tl.dot with arrays of their own and no
// barrier before staging (privateDotTiles), and without — on the GPU and the interpreter, against a
// float64 reference, causal and not, at sequence lengths that are no multiple of the blocks, with
// NaN-poisoned outputs. Small blocks and head dims keep lavapipe's shader compiles short.

import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertClose, poisoned, randomFloats, runBoth, type Overrides } from "../support/kernel-runner";

const SOURCE = readFileSync(join(__dirname, "../../examples/attention.kernel.ts"), "utf8");
const H = 2;

/** softmax(q·kᵀ/√D)·v in float64 for each of H heads of n rows. */
function reference(q: Float32Array, k: Float32Array, v: Float32Array, n: number, D: number, causal: boolean): Float64Array {
  const out = new Float64Array(H * n * D);
  const s = new Float64Array(n);
  for (let h = 0; h < H; h++) {
    const base = h * n * D;
    for (let i = 0; i < n; i++) {
      const last = causal ? i : n - 1;
      let max = -Infinity;
      for (let j = 0; j <= last; j++) {
        let dot = 0;
        for (let d = 0; d < D; d++) dot += q[base + i * D + d] * k[base + j * D + d];
        s[j] = dot / Math.sqrt(D);
        max = Math.max(max, s[j]);
      }
      let sum = 0;
      for (let j = 0; j <= last; j++) sum += (s[j] = Math.exp(s[j] - max));
      for (let d = 0; d < D; d++) {
        let acc = 0;
        for (let j = 0; j <= last; j++) acc += s[j] * v[base + j * D + d];
        out[base + i * D + d] = acc / sum;
      }
    }
  }
  return out;
}

/** How the row reductions must come out in the WGSL: across lanes by shuffles, through [M, Tc] partials, or the whole block staged. */
type Path = "shuffle" | "partials" | "staged";
interface Case { blocks: [number, number]; d: number; warps: number; n: number; causal: boolean; target?: Overrides; path: Path; what: string }

const MARKS: Record<Path, RegExp> = { shuffle: /subgroupShuffleXor/, partials: /sm_rows_f32\[/, staged: /= max\(acc\d+, sm_x_f32\[/ };

// Each case is one lavapipe shader compile (tens of seconds on a loaded 2-core machine): few of them.
const CASES: Case[] = [
  { blocks: [32, 16], d: 16, warps: 1, n: 45, causal: true, target: { privateDotTiles: true }, path: "shuffle", what: "score tile rows in 4 invocations: subgroup shuffles; dots in arrays of their own" },
  { blocks: [32, 16], d: 16, warps: 1, n: 45, causal: false, path: "shuffle", what: "the default: subgroup shuffles, shared dot arrays" },
  { blocks: [16, 64], d: 16, warps: 2, n: 70, causal: false, path: "partials", what: "tile rows in 16 invocations: partials in workgroup memory; output not tiled" },
  { blocks: [32, 16], d: 16, warps: 1, n: 45, causal: false, target: { subgroups: false }, path: "partials", what: "no subgroups: partials in workgroup memory" },
  { blocks: [32, 16], d: 16, warps: 1, n: 45, causal: true, target: { rowLayouts: false }, path: "staged", what: "as before: the staged reductions, shared dot arrays" },
];

test("attention with row-slice softmax layouts matches float64 on the GPU and the interpreter", async (t) => {
  for (const c of CASES) {
    const { causal, d: D } = c;
    const [BLOCK_M, BLOCK_N] = c.blocks;
    const target = c.target ? ` ${JSON.stringify(c.target)}` : "";
    await t.test(`${BLOCK_M}×${BLOCK_N}, head dim ${D}, ${32 * c.warps} invocations, n=${c.n}${causal ? ", causal" : ""}${target}: ${c.what}`, async () => {
      const size = H * c.n * D;
      const [q, k, v] = [randomFloats(size, -2, 2), randomFloats(size, -2, 2), randomFloats(size, -2, 2)];
      const { gpu, cpu, kernel } = await runBoth({
        source: SOURCE,
        constexprs: { BLOCK_M, BLOCK_N, BLOCK_D: D, HEAD_DIM: D, IS_CAUSAL: causal ? 1 : 0, num_warps: c.warps },
        grid: [Math.ceil(c.n / BLOCK_M), H],
        args: {
          Q: q, K: k, V: v, Out: poisoned(size), sm_scale: 1 / Math.sqrt(D),
          stride_z: H * c.n * D, stride_h: c.n * D, stride_m: D, stride_k: 1, H, N_CTX: c.n,
        },
        outputs: ["Out"],
        ...(c.target ? { target: c.target } : {}),
      });
      // Every case has BLOCK_D = HEAD_DIM, so both dots run every key block: with privateDotTiles, arrays of their own (dot-barriers.ts).
      if (/var<workgroup> sm_d\d+a_f32x4/.test(kernel.wgsl) !== (c.target?.privateDotTiles === true)) throw new Error("private tl.dot arrays: not as expected");
      for (const [path, mark] of Object.entries(MARKS)) {
        if (mark.test(kernel.wgsl) !== (path === c.path)) throw new Error(`expected the ${c.path} row reductions, ${path} ${mark.test(kernel.wgsl) ? "found" : "missing"}`);
      }
      const want = reference(q, k, v, c.n, D, causal);
      assertClose(gpu.Out, want, "GPU", 1e-4, 1e-4);
      assertClose(cpu.Out, want, "interpreter", 1e-4, 1e-4);
    });
  }
});

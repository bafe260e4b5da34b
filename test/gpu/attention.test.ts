// examples/attention.kernel.ts at block shapes whose score block is tiled, so the online
// softmax's row reductions and broadcasts take the row-slice layout (codegen/layout.ts): the
// subgroup shuffle path, the workgroup-memory partials path (16 invocations per tile row, or no
// subgroups), the old staged path (rowLayouts: false) — on the GPU and the interpreter, against a
// float64 reference, causal and not, at sequence lengths that are no multiple of the blocks, with
// NaN-poisoned outputs. HEAD_DIM 32 keeps lavapipe's shader compiles short.

import { test } from "node:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { assertClose, poisoned, randomFloats, runBoth } from "../support/kernel-runner";
import type { Target } from "../../src/ir/target";

const SOURCE = readFileSync(join(__dirname, "../../examples/attention.kernel.ts"), "utf8");
const H = 2;
const D = 32;

/** softmax(q·kᵀ/√D)·v in float64 for each of H heads of n rows. */
function reference(q: Float32Array, k: Float32Array, v: Float32Array, n: number, causal: boolean): Float64Array {
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

interface Case { blocks: [number, number, number]; warps: number; n: number; target?: Partial<Target>; what: string }

const CASES: Case[] = [
  { blocks: [64, 32, 32], warps: 4, n: 77, what: "score tile rows in 8 invocations: subgroup shuffles" },
  { blocks: [32, 64, 16], warps: 2, n: 45, what: "scores 8 columns and output 4 columns per invocation, same rows" },
  { blocks: [64, 64, 32], warps: 8, n: 70, what: "score tile rows in 16 invocations: partials in workgroup memory; output not tiled" },
  { blocks: [64, 32, 32], warps: 4, n: 77, target: { subgroups: false }, what: "no subgroups: partials in workgroup memory" },
  { blocks: [64, 32, 32], warps: 4, n: 77, target: { rowLayouts: false }, what: "rowLayouts off: the staged reductions" },
];

test("attention with row-slice softmax layouts matches float64 on the GPU and the interpreter", async (t) => {
  for (const c of CASES) {
    for (const causal of [false, true]) {
      const [BLOCK_M, BLOCK_N, BLOCK_D] = c.blocks;
      await t.test(`${BLOCK_M}×${BLOCK_N}×${BLOCK_D}, ${32 * c.warps} invocations, n=${c.n}${causal ? ", causal" : ""}: ${c.what}`, async () => {
        const size = H * c.n * D;
        const [q, k, v] = [randomFloats(size, -2, 2), randomFloats(size, -2, 2), randomFloats(size, -2, 2)];
        const { gpu, cpu } = await runBoth({
          source: SOURCE,
          constexprs: { BLOCK_M, BLOCK_N, BLOCK_D, HEAD_DIM: D, IS_CAUSAL: causal ? 1 : 0, num_warps: c.warps },
          grid: [Math.ceil(c.n / BLOCK_M), H],
          args: {
            Q: q, K: k, V: v, Out: poisoned(size), sm_scale: 1 / Math.sqrt(D),
            stride_z: H * c.n * D, stride_h: c.n * D, stride_m: D, stride_k: 1, H, N_CTX: c.n,
          },
          outputs: ["Out"],
          ...(c.target ? { target: c.target } : {}),
        });
        const want = reference(q, k, v, c.n, causal);
        assertClose(gpu.Out, want, "GPU", 1e-4, 1e-4);
        assertClose(cpu.Out, want, "interpreter", 1e-4, 1e-4);
      });
    }
  }
});

// A tiled layout's row and column split term by term (codegen/rearrange.ts `tileTerms`, NOTES §54):
// for every invocation t and register j of every tiled layout, with base the invocation's first
// element (generator.ts `tileBase`) and K its register's offset (layout.ts `tileOffset`),
// (base + K) / C = base / C + K / C and (base + K) % C = base % C + K % C. With
// CodegenOptions.splitTileIndices the generated attention then shares one `tile % C` among its
// registers instead of a remainder each.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { layoutOf, pieceRows, tileOffset, type Tiling } from "../../src/codegen/layout";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";
import { DEFAULT_TARGET, type Target } from "../../src/ir/target";

test("every tiled layout's element index splits into row and column term by term", () => {
  let layouts = 0;
  for (const rows of [4, 8, 16, 32, 64, 128, 256]) for (const cols of [4, 8, 16, 32, 64, 128]) for (const w of [32, 64, 128, 256]) {
    const tilings: Tiling[] = [true, "laneRows", { rowThreads: 2 }, { rowThreads: 4 }, { rowThreads: 8 }, { rowThreads: 16 }];
    for (const tiling of tilings) {
      const tile = layoutOf([rows, cols], w, tiling).tile;
      if (!tile) continue;
      layouts++;
      const ept = (rows * cols) / w;
      for (let t = 0; t < w; t++) {
        // generator.ts tileBase, evaluated.
        const base: number = tile.rowsPerThread === 1 && tile.threadsPerRow === 1 ? t * tile.cols : Math.floor(t / tile.threadsPerRow) * pieceRows(tile) * tile.cols + (t % tile.threadsPerRow) * 4;
        for (let j = 0; j < ept; j++) {
          const k = tileOffset(tile, w, j);
          const where = `[${rows}, ${cols}] over ${w} (${JSON.stringify(tiling)}), invocation ${t}, register ${j}`;
          assert.equal((base + k) % cols, (base % cols) + (k % cols), where);
          assert.equal(Math.floor((base + k) / cols), Math.floor(base / cols) + Math.floor(k / cols), where);
        }
      }
    }
  }
  assert.ok(layouts > 40, `${layouts} tiled layouts`);
});

test("with splitTileIndices, the attention's score columns share one remainder of the tile's base", () => {
  const target: Target = {
    ...DEFAULT_TARGET, shaderF16: true, subgroups: true, subgroupMinSize: 32, subgroupMaxSize: 32, maxWorkgroupSize: 1024, maxWorkgroupStorageBytes: 49152,
    subgroupMatrixConfigs: [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }],
  };
  const file = "examples/attention-f16.kernel.ts";
  const kernel = parseKernelFile(file, readFileSync(join(__dirname, "..", "..", file), "utf8")).kernels.find((k) => k.name === "attn_fwd_f16")!;
  const n = 4096;
  const compile = (splitTileIndices: boolean) => compileKernel(kernel, { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, HEAD_DIM: 64, IS_CAUSAL: 1 }, target,
    specializationFor(kernel, { sm_scale: 0.125, stride_z: 32 * n * 64, stride_h: n * 64, stride_m: 64, stride_k: 1, H: 32, N_CTX: n }), { splitTileIndices }).kernel!.wgsl;
  assert.match(compile(false), /\(\(tile_64x64 \+ 1\) % 64\)/, "off by default: a remainder each");
  const wgsl = compile(true);
  assert.doesNotMatch(wgsl, /\(tile_64x64 \+ \d+\) [%/] 64/);
  assert.match(wgsl, /\(v\d+ \+ \(\(\(tile_64x64 % 64\) \+ 3\)\)\) < v\d+\);/, "the key mask of the scores' fourth column");
});

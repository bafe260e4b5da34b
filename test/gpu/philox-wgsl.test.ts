// The WGSL Philox (codegen/philox-wgsl.ts) against the CPU one (ir/philox.ts), bit for bit, on the
// local adapter: the words, the uniform floats, and the normals to a few ulps (sqrt/log/cos are
// not correctly rounded on GPUs).

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { KernelAbi } from "../../src/codegen/abi";
import { PHILOX_WGSL } from "../../src/codegen/philox-wgsl";
import { normalFromU32Pair, randint4x, uniformFromU32 } from "../../src/ir/philox";
import { acquireGpu, createStorageBuffer, launch, readBuffer, type Gpu } from "../../src/runtime";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const N = 4099; // not a multiple of the workgroup

const WGSL = `${PHILOX_WGSL}
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> words: array<u32>;
@group(0) @binding(2) var<storage, read_write> floats: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = gid.x;
  let n = u[1].y;
  if (i >= n) { return; }
  let seed = bitcast<i32>(u[1].x);
  // Offsets spread over the whole i32 range, negative ones included.
  let offset = bitcast<i32>(i * 0x9e3779b1u);
  let r = kl_randint4x(seed, offset);
  words[4u * i] = r.x;
  words[4u * i + 1u] = r.y;
  words[4u * i + 2u] = r.z;
  words[4u * i + 3u] = r.w;
  floats[2u * i] = kl_uniform(r.x);
  floats[2u * i + 1u] = kl_normal(r.x, r.y);
}
`;

const ABI: KernelAbi = {
  kernel: "philox_check",
  entryPoint: "main",
  workgroupSize: 64,
  uniformWords: 8,
  scalars: [
    { name: "seed", dtype: "i32", word: 4 },
    { name: "n", dtype: "u32", word: 5 },
  ],
  buffers: [
    { name: "words", binding: 1, dtype: "u32", vectorWidth: 1, access: "read_write" },
    { name: "floats", binding: 2, dtype: "f32", vectorWidth: 1, access: "read_write" },
  ],
  workgroupBytes: 0,
  features: [],
};

describe("Philox in WGSL", () => {
  let gpu: Gpu;
  before(async () => {
    gpu = await acquireGpu();
  });

  for (const seed of [0, 123, -7, 0x7fffffff]) {
    it(`draws the CPU's words, uniforms and normals (seed ${seed})`, async () => {
      const words = await createStorageBuffer(gpu, new Uint32Array(4 * N).fill(0xdeadbeef), "words");
      const floats = await createStorageBuffer(gpu, new Float32Array(2 * N).fill(NaN), "floats");
      await launch(gpu, { abi: ABI, wgsl: WGSL }, [Math.ceil(N / 64), 1, 1], { buffers: { words, floats }, scalars: { seed, n: N } });
      const gotWords = await readBuffer(gpu, words, "u32", 4 * N);
      const gotFloats = await readBuffer(gpu, floats, "f32", 2 * N);
      words.destroy();
      floats.destroy();
      let worstNormal = 0;
      for (let i = 0; i < N; i++) {
        const offset = Math.imul(i, 0x9e3779b1) | 0;
        const want = randint4x(seed, offset);
        for (let w = 0; w < 4; w++) assert.equal(gotWords[4 * i + w], want[w], `word ${w} of offset ${offset}`);
        assert.equal(gotFloats[2 * i], uniformFromU32(want[0]), `uniform of offset ${offset}`);
        const normal = normalFromU32Pair(want[0], want[1]);
        worstNormal = Math.max(worstNormal, Math.abs(gotFloats[2 * i + 1] - normal));
      }
      assert.ok(worstNormal < 1e-5, `normals differ by up to ${worstNormal}`);
    });
  }
});

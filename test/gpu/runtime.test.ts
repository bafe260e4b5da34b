// The Dawn runtime on the machine's adapter (lavapipe in CI): launches of a hand-written WGSL
// kernel that follows codegen/abi.ts, grid folding, scalar encoding, buffers, errors, timing.

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { KernelAbi } from "../../src/codegen/abi";
import {
  acquireGpu,
  cachedPipelineCount,
  createEmptyBuffer,
  createStorageBuffer,
  GpuError,
  launch,
  readBuffer,
  ShaderCompileError,
  timeLaunches,
  type Gpu,
} from "../../src/runtime";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

/** Each program writes its (x, y, z) id at 3 * linear id; program 0 also writes its scalars. */
const PROGRAM_IDS_WGSL = `
@group(0) @binding(0) var<uniform> u: array<vec4<u32>, 2>;
@group(0) @binding(1) var<storage, read_write> ids: array<u32>;
@group(0) @binding(2) var<storage, read> unused: array<f32>;
@group(0) @binding(3) var<storage, read_write> scalars: array<u32>;

@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let g = u[0].xyz;
  let linear = wid.x + wid.y * nwg.x + wid.z * nwg.x * nwg.y;
  if (linear >= g.x * g.y * g.z) { return; }
  let pid = vec3<u32>(linear % g.x, (linear / g.x) % g.y, linear / (g.x * g.y));
  if (lid == 0u) {
    ids[3u * linear] = pid.x;
    ids[3u * linear + 1u] = pid.y;
    ids[3u * linear + 2u] = pid.z;
  }
  if (linear == 0u && lid == 0u) {
    scalars[0] = u[1].x;                             // i32 offset, as bits
    scalars[1] = bitcast<u32>(bitcast<f32>(u[1].y) * 2.0); // f32 scale, doubled on the GPU
    scalars[2] = u[1].z;                             // u32 count
  }
}
`;

const PROGRAM_IDS_ABI: KernelAbi = {
  kernel: "program_ids",
  entryPoint: "main",
  workgroupSize: 32,
  uniformWords: 8,
  scalars: [
    { name: "offset", dtype: "i32", word: 4 },
    { name: "scale", dtype: "f32", word: 5 },
    { name: "count", dtype: "u32", word: 6 },
  ],
  buffers: [
    { name: "ids", binding: 1, dtype: "u32", vectorWidth: 1, access: "read_write" },
    { name: "unused", binding: 2, dtype: "f32", vectorWidth: 1, access: "read" },
    { name: "scalars", binding: 3, dtype: "u32", vectorWidth: 1, access: "read_write" },
  ],
  workgroupBytes: 0,
  features: [],
};

const program = { abi: PROGRAM_IDS_ABI, wgsl: PROGRAM_IDS_WGSL };
const POISON = 0xdeadbeef;

async function runProgramIds(gpu: Gpu, grid: [number, number, number]) {
  const total = grid[0] * grid[1] * grid[2];
  const ids = await createStorageBuffer(gpu, new Uint32Array(3 * total).fill(POISON), "ids");
  const unused = await createEmptyBuffer(gpu, "f32", 1, "unused");
  const scalars = await createStorageBuffer(gpu, new Uint32Array(3).fill(POISON), "scalars");
  const offset = -1 - Math.floor(Math.random() * 1000);
  const scale = Math.fround(Math.random() * 10);
  const count = 2 ** 31 + Math.floor(Math.random() * 1000);
  await launch(gpu, program, grid, { buffers: { ids, unused, scalars }, scalars: { offset, scale, count } });
  const got = await readBuffer(gpu, ids, "u32", 3 * total);
  const gotScalars = await readBuffer(gpu, scalars, "u32", 3);
  for (const b of [ids, unused, scalars]) b.destroy();
  return { got, gotScalars, offset, scale, count };
}

function checkIds(got: Uint32Array, grid: [number, number, number]): void {
  const [gx, gy, gz] = grid;
  let bad = 0;
  let first = "";
  for (let z = 0; z < gz; z++)
    for (let y = 0; y < gy; y++)
      for (let x = 0; x < gx; x++) {
        const l = x + gx * (y + gy * z);
        if (got[3 * l] !== x || got[3 * l + 1] !== y || got[3 * l + 2] !== z) {
          if (bad++ === 0) first = `program (${x}, ${y}, ${z}) wrote (${got[3 * l]}, ${got[3 * l + 1]}, ${got[3 * l + 2]})`;
        }
      }
  assert.equal(bad, 0, `${bad} programs wrong; first: ${first}`);
}

describe("runtime on the local adapter", () => {
  let gpu: Gpu;
  before(async () => {
    gpu = await acquireGpu();
  });

  it("acquires one device per process and describes its adapter", async () => {
    assert.equal(await acquireGpu(), gpu);
    assert.ok(gpu.adapter.vendor.length > 0);
    assert.ok(["vulkan", "metal", "d3d12"].includes(gpu.adapter.backend), gpu.adapter.backend);
    assert.ok(gpu.target.maxWorkgroupSize >= 256);
    assert.ok(gpu.target.maxWorkgroupStorageBytes >= 16384);
    assert.ok(gpu.limits.maxComputeWorkgroupsPerDimension >= 65535);
    if (gpu.target.subgroups) assert.ok(gpu.target.subgroupMinSize >= 4);
  });

  for (const grid of [
    [1, 1, 1],
    [37, 1, 1],
    [13, 7, 1],
    [5, 4, 3],
  ] as [number, number, number][]) {
    it(`launches a grid of [${grid.join(", ")}] and every program sees its id`, async () => {
      const { got } = await runProgramIds(gpu, grid);
      checkIds(got, grid);
    });
  }

  it("folds a grid of more than 65535 programs per axis (1-D and 3-D)", async () => {
    for (const grid of [
      [70001, 1, 1],
      [3, 2, 11003],
    ] as [number, number, number][]) {
      const { got } = await runProgramIds(gpu, grid);
      checkIds(got, grid);
    }
  });

  it("encodes i32, f32 and u32 scalars in their uniform words", async () => {
    const r = await runProgramIds(gpu, [2, 1, 1]);
    assert.equal(r.gotScalars[0] | 0, r.offset);
    assert.equal(new Float32Array(r.gotScalars.buffer)[1], r.scale * 2);
    assert.equal(r.gotScalars[2], r.count);
  });

  it("launched again, a kernel uses this launch's grid, scalars and buffers (its reused bind group follows them)", async () => {
    const ids = await createStorageBuffer(gpu, new Uint32Array(3 * 6).fill(POISON), "ids");
    const unused = await createEmptyBuffer(gpu, "f32", 1, "unused");
    const first = await createStorageBuffer(gpu, new Uint32Array(3).fill(POISON), "scalars");
    const scalarsOf = async (buffer: GPUBuffer) => [...(await readBuffer(gpu, buffer, "u32", 3))];
    await launch(gpu, program, [2], { buffers: { ids, unused, scalars: first }, scalars: { offset: -1, scale: 1, count: 1 } });
    assert.deepEqual(await scalarsOf(first), [2 ** 32 - 1, 0x40000000, 1]);

    // Same buffers, other grid and scalars: the uniforms are rewritten.
    await launch(gpu, program, [3, 2], { buffers: { ids, unused, scalars: first }, scalars: { offset: -2, scale: 2, count: 2 } });
    assert.deepEqual(await scalarsOf(first), [2 ** 32 - 2, 0x40800000, 2]);
    checkIds(await readBuffer(gpu, ids, "u32", 3 * 6), [3, 2, 1]);

    // A new buffer in place of a destroyed one is the one written.
    first.destroy();
    const second = await createStorageBuffer(gpu, new Uint32Array(3).fill(POISON), "scalars");
    await launch(gpu, program, [3, 2], { buffers: { ids, unused, scalars: second }, scalars: { offset: -2, scale: 2, count: 2 } });
    assert.deepEqual(await scalarsOf(second), [2 ** 32 - 2, 0x40800000, 2]);

    // The destroyed buffer passed again fails as a GPU error, and the next launch still works.
    await assert.rejects(launch(gpu, program, [1], { buffers: { ids, unused, scalars: first }, scalars: { offset: 0, scale: 1, count: 3 } }), GpuError);
    await launch(gpu, program, [1], { buffers: { ids, unused, scalars: second }, scalars: { offset: 0, scale: 1, count: 3 } });
    assert.deepEqual(await scalarsOf(second), [0, 0x40000000, 3]);
    for (const b of [ids, unused, second]) b.destroy();
  });

  it("caches the pipeline: a second launch compiles nothing", async () => {
    const before = cachedPipelineCount(gpu);
    await runProgramIds(gpu, [3, 1, 1]);
    assert.equal(cachedPipelineCount(gpu), before);
  });

  it("rounds buffers up to 16 bytes and reads back f32, i32 and f16 bits", async () => {
    const f = new Float32Array([1.5, -2, 3.25]);
    const fb = await createStorageBuffer(gpu, f, "f");
    assert.equal(fb.size, 16);
    assert.deepEqual(await readBuffer(gpu, fb, "f32", 3), f);
    assert.deepEqual(await readBuffer(gpu, fb, "f32", 4), new Float32Array([1.5, -2, 3.25, 0]));
    const i = Int32Array.from({ length: 1001 }, () => Math.floor((Math.random() - 0.5) * 2 ** 32));
    assert.deepEqual(await readBuffer(gpu, await createStorageBuffer(gpu, i, "i"), "i32", 1001), i);
    const h = new Uint16Array([0x3c00, 0xc000, 0x7e00]); // 1, -2, NaN as f16 bits
    const hb = await createStorageBuffer(gpu, h, "h");
    assert.equal(hb.size, 16);
    assert.deepEqual(await readBuffer(gpu, hb, "f16", 3), h);
  });

  it("refuses a buffer larger than the adapter binds, without allocating it", async () => {
    const tooMany = gpu.limits.maxStorageBufferBindingSize / 4 + 16;
    await assert.rejects(createEmptyBuffer(gpu, "f32", tooMany, "huge"), (err: unknown) => {
      assert.ok(err instanceof GpuError && err.kind === "buffer-too-large", String(err));
      assert.match(err.message, /huge.*maxStorageBufferBindingSize/);
      return true;
    });
  });

  it("gives a clear error for a grid of 0, and for a grid that is not whole", async () => {
    for (const grid of [[0], [4, 0, 1], [2.5]]) {
      await assert.rejects(launch(gpu, program, grid, { buffers: {}, scalars: {} }), (err: unknown) => {
        assert.ok(err instanceof GpuError && err.kind === "bad-launch", String(err));
        assert.match(err.message, /grid of 'program_ids'.*whole number >= 1/);
        return true;
      });
    }
  });

  it("names missing buffers and bad scalars", async () => {
    const ids = await createEmptyBuffer(gpu, "u32", 3, "ids");
    await assert.rejects(launch(gpu, program, [1], { buffers: { ids }, scalars: { offset: 0, scale: 1, count: 1 } }), /needs a buffer for 'unused', 'scalars'/);
    const aliased = { ids, unused: ids, scalars: ids };
    await assert.rejects(launch(gpu, program, [1], { buffers: aliased, scalars: { offset: 0, scale: 1, count: 1 } }), /'ids' and 'unused' are the same buffer/);
    const buffers = { ids, unused: await createEmptyBuffer(gpu, "f32", 1, "unused"), scalars: await createEmptyBuffer(gpu, "u32", 3, "scalars") };
    await assert.rejects(launch(gpu, program, [1], { buffers, scalars: { offset: 1.5, scale: 1, count: 1 } }), /Scalar 'offset'.*i32/);
    await assert.rejects(launch(gpu, program, [1], { buffers, scalars: { offset: 0, scale: 1, count: -1 } }), /Scalar 'count'.*u32/);
  });

  it("reports a WGSL compile error with its line, and keeps working after it", async () => {
    const broken = { abi: { ...PROGRAM_IDS_ABI, kernel: "broken" }, wgsl: PROGRAM_IDS_WGSL.replace("let g = u[0].xyz;", "let g = u[0].xyz +;") };
    await assert.rejects(launch(gpu, broken, [1], { buffers: {}, scalars: {} }), (err: unknown) => {
      assert.ok(err instanceof ShaderCompileError, String(err));
      assert.equal(err.code, "KL4006");
      assert.match(err.message, /WGSL for kernel 'broken' did not compile:\n  wgsl:10:\d+ - error: /);
      assert.ok(err.messages.length >= 1 && err.messages[0].line === 10);
      return true;
    });
    const { got } = await runProgramIds(gpu, [4, 1, 1]);
    checkIds(got, [4, 1, 1]);
  });

  it("turns a validation error at launch into a GpuError, and keeps working after it", async () => {
    // A buffer without STORAGE usage cannot be bound as storage.
    const notStorage = () => gpu.device.createBuffer({ label: "not storage", size: 16, usage: 0x8 /* COPY_DST */ });
    await assert.rejects(
      launch(gpu, program, [1], { buffers: { ids: notStorage(), unused: notStorage(), scalars: notStorage() }, scalars: { offset: 0, scale: 1, count: 1 } }),
      (err: unknown) => {
        assert.ok(err instanceof GpuError && err.kind === "validation", String(err));
        assert.match(err.message, /GPU validation error in 'program_ids'/);
        return true;
      },
    );
    const { got } = await runProgramIds(gpu, [2, 2, 1]);
    checkIds(got, [2, 2, 1]);
  });

  it("counts a print/assert record buffer among the storage buffers a kernel binds, and says what to do past the limit", async () => {
    // Before, the record buffer was left out of the count: Dawn's "[Invalid PipelineLayout] is invalid due to a previous error".
    const limit = gpu.limits.maxStorageBuffersPerShaderStage;
    const buffers = Array.from({ length: limit }, (_, i) => ({ name: `p${i}`, binding: i + 1, dtype: "f32" as const, vectorWidth: 1 as const, access: "read" as const }));
    const wide = { abi: { ...PROGRAM_IDS_ABI, kernel: "wide", buffers, debug: { binding: limit + 1, words: 4, sites: [] } }, wgsl: PROGRAM_IDS_WGSL };
    await assert.rejects(launch(gpu, wide, [1], { buffers: {}, scalars: {} }), (err: unknown) => {
      assert.ok(err instanceof GpuError && err.kind === "bad-launch", String(err));
      assert.equal(
        err.message,
        `Kernel 'wide' binds ${limit + 1} storage buffers (${limit} for its pointer parameters and the record buffer of its tl.device_print / tl.device_assert); ` +
          `this adapter binds at most ${limit} per kernel. Take its print and assert calls out, pass fewer tensors (several in one), or run it with --cpu.`,
      );
      return true;
    });
  });

  it("names the first error where Dawn refuses a pipeline 'due to a previous error'", async () => {
    // A layout Dawn refuses (the record buffer at a pointer's binding): the pipeline's own error names only the layout.
    const clash = { abi: { ...PROGRAM_IDS_ABI, kernel: "clash", debug: { binding: 2, words: 4, sites: [] } }, wgsl: PROGRAM_IDS_WGSL };
    await assert.rejects(launch(gpu, clash, [1], { buffers: {}, scalars: {} }), (err: unknown) => {
      assert.ok(err instanceof GpuError && err.kind === "validation", String(err));
      assert.match(err.message, /Kernel 'clash' could not be made into a compute pipeline: .*due to a previous error[\s\S]*\nThe first error: .*binding index \(2\) was specified by a previous entry/);
      return true;
    });
    const { got } = await runProgramIds(gpu, [2, 1, 1]);
    checkIds(got, [2, 1, 1]);
  });

  it("times launches with GPU timestamps, rotating argument sets", async () => {
    const sets = [];
    for (let k = 0; k < 3; k++) {
      sets.push({
        buffers: {
          ids: await createEmptyBuffer(gpu, "u32", 3 * 4096, `ids ${k}`),
          unused: await createEmptyBuffer(gpu, "f32", 1, `unused ${k}`),
          scalars: await createEmptyBuffer(gpu, "u32", 3, `scalars ${k}`),
        },
        scalars: { offset: k, scale: 1, count: 3 },
      });
    }
    const t = await timeLaunches(gpu, program, [64, 64, 1], sets, { warmup: 2, minReps: 20, maxReps: 60, budgetMs: 300 });
    assert.equal(t.source, gpu.hasTimestamps ? "timestamp-query" : "wall-clock");
    assert.ok(t.reps >= 20 && t.reps <= 60, `reps ${t.reps}`);
    assert.ok(t.minMs > 0 && t.minMs <= t.medianMs && t.medianMs <= t.maxMs, JSON.stringify(t));
    assert.ok(t.medianMs < 1000, JSON.stringify(t));
    // Inputs rotate; every launch writes the first set's written buffers (timing.ts: serialised).
    const ids = await readBuffer(gpu, sets[0].buffers.ids, "u32", 3 * 4096);
    checkIds(ids, [64, 64, 1]);
  });

  it("times short launches in groups between two timestamps, long ones alone", async () => {
    const buffers = {
      ids: await createEmptyBuffer(gpu, "u32", 3 * 4096, "ids"),
      unused: await createEmptyBuffer(gpu, "f32", 1, "unused"),
      scalars: await createEmptyBuffer(gpu, "u32", 3, "scalars"),
    };
    const args = [{ buffers, scalars: { offset: 0, scale: 1, count: 3 } }];
    const opts = { warmup: 2, warmupMs: 20, minReps: 10, maxReps: 20, budgetMs: 200 };
    const short = await timeLaunches(gpu, program, [1, 1, 1], args, opts);
    const long = await timeLaunches(gpu, program, [64, 64, 1], args, opts);
    if (!gpu.hasTimestamps) return assert.equal(short.launchesPerSample, 1);
    // A sample spans ~0.1 ms of launches (at most 16): one workgroup is far shorter, 4096 are not.
    // On a loaded machine lavapipe's one-workgroup launch itself can take ~0.1 ms (its warm-up
    // decides): then it is timed alone, and only a launch well under 0.1 ms must be grouped.
    assert.ok(short.launchesPerSample >= 1 && short.launchesPerSample <= 16, JSON.stringify(short));
    assert.ok(short.launchesPerSample > 1 || short.medianMs > 0.025, JSON.stringify(short));
    assert.ok(long.launchesPerSample <= short.launchesPerSample, JSON.stringify({ short, long }));
    assert.ok(short.medianMs * short.launchesPerSample < 1, JSON.stringify(short));
    checkIds(await readBuffer(gpu, buffers.ids, "u32", 3 * 4096), [64, 64, 1]);
  });

  // docs/ENVIRONMENT.md §2: if Dawn's instance were collectable, GC under a live device would crash the
  // process at random; allocation-heavy loops between launches make GC (and so the crash) likely.
  it("survives 200 launches and timing loops with large allocations in between", async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    let kept = 0;
    for (let i = 0; i < 200; i++) {
      const junk = new Float64Array(1 << 19).fill(i); // 4 MiB, dropped at once
      kept += junk[i];
      const grid: [number, number, number] = [1 + (i % 7), 1 + (i % 3), 1];
      const { got } = await runProgramIds(gpu, grid);
      if (i % 50 === 0) {
        checkIds(got, grid);
        gc?.();
      }
      if (i % 40 === 0) {
        const ids = await createEmptyBuffer(gpu, "u32", 3 * 64, "ids");
        const unused = await createEmptyBuffer(gpu, "f32", 1, "unused");
        const scalars = await createEmptyBuffer(gpu, "u32", 3, "scalars");
        const t = await timeLaunches(gpu, program, [64, 1, 1], [{ buffers: { ids, unused, scalars }, scalars: { offset: 0, scale: 1, count: 1 } }], {
          warmup: 1,
          minReps: 5,
          maxReps: 20,
          budgetMs: 20,
        });
        assert.ok(t.medianMs > 0);
        for (const b of [ids, unused, scalars]) b.destroy();
      }
    }
    assert.ok(kept > 0);
  });

  it("attributes errors to the right launch when launches run concurrently", async () => {
    const bad = gpu.device.createBuffer({ label: "not storage", size: 16, usage: 0x8 });
    const results = await Promise.allSettled(
      [0, 1, 2, 3, 4, 5].map(async (k) => {
        if (k === 3) {
          const scalars = await createEmptyBuffer(gpu, "u32", 3, "scalars");
          return launch(gpu, program, [1], { buffers: { ids: bad, unused: bad, scalars }, scalars: { offset: 0, scale: 1, count: 1 } });
        }
        const { got } = await runProgramIds(gpu, [k + 1, 2, 1]);
        checkIds(got, [k + 1, 2, 1]);
      }),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      ["fulfilled", "fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"],
    );
  });

  // Last: it destroys the shared device.
  it("reports a lost device on the next operation, and acquireGpu then makes a new one", async () => {
    const ids = await createEmptyBuffer(gpu, "u32", 3, "ids");
    gpu.device.destroy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await assert.rejects(readBuffer(gpu, ids, "u32", 3), (err: unknown) => {
      assert.ok(err instanceof GpuError && err.kind === "device-lost", String(err));
      assert.match(err.message, /device was lost/);
      return true;
    });
    const fresh = await acquireGpu();
    assert.notEqual(fresh, gpu);
    const { got } = await runProgramIds(fresh, [3, 2, 1]);
    checkIds(got, [3, 2, 1]);
  });
});

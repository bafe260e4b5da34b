// The access map of one program and where the bytes go (issue 29, items 1 and 3), from the
// interpreter's trace: exact sets of elements for the matmul example's program and a masked tail
// block, each input tile's reads across a matmul's grid, and the stride hint of a transposed load.

import { test } from "node:test";
import assert from "node:assert/strict";
import { launchBytes, programAccessMap, programAccessMaps, programsToMap } from "../../src/harness/debug/analyse-launch";
import { accessMapText, runsOf } from "../../src/harness/debug/access-map";
import { launchOf } from "../support/launch-to-trace";

function matmulArgs(M: number, N: number, K: number) {
  return {
    a_ptr: Float32Array.from({ length: M * K }, Math.random), b_ptr: Float32Array.from({ length: K * N }, Math.random), c_ptr: new Float32Array(M * N),
    M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
  };
}

const block = (r0: number, r1: number, c0: number, c1: number, cols: number) => {
  const out: number[] = [];
  for (let r = r0; r < r1; r++) for (let c = c0; c < c1; c++) out.push(r * cols + c);
  return runsOf(out);
};

test("the matmul example's program 1 (grouped order: tile row 1, column 0) loads A's rows 32–63 and B's columns 0–31, all of K, and stores its C tile", () => {
  const [M, N, K] = [64, 63, 66];
  const launch = launchOf("examples/matmul.kernel.ts", "matmul_kernel", { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, [4, 1, 1], matmulArgs(M, N, K),
    new Map([["a_ptr", [M, K]], ["b_ptr", [K, N]], ["c_ptr", [M, N]]]));
  const map = programAccessMap(launch, [1, 0, 0])!;
  assert.deepEqual(map.layers.map((l) => [l.kind, l.param, l.line]), [["load", "a_ptr", 35], ["load", "b_ptr", 36], ["store", "c_ptr", 43]]);
  const [a, b, c] = map.layers;
  assert.deepEqual(a.touched, block(32, 64, 0, K, K));
  assert.deepEqual(b.touched, block(0, K, 0, 32, N));
  assert.deepEqual(c.touched, block(32, 64, 0, 32, N));
  // 5 trips of BLOCK_K = 16 over K = 66: the last trip's lanes past k = 66 are masked off.
  assert.equal(a.lanes, 5 * 32 * 16);
  assert.equal(a.active, 32 * 66);
  const text = accessMapText(map).join("\n");
  assert.match(text, /load a_ptr \(line 35\): 2112 of 2560 lanes active, 2112 elements in rows 32–63 × columns 0–65, 448 lanes masked off/);
  // Another program's map differs: program 2 is tile row 0, column 1.
  const other = programAccessMap(launch, [2, 0, 0])!;
  assert.deepEqual(other.layers[0].touched, block(0, 32, 0, K, K));
  assert.deepEqual(other.layers[1].touched, block(0, K, 32, 63, N));
});

test("a masked tail block: vector add's program 2 of 3 at n = 3000 has 952 active lanes, and its 72 masked-off lanes point past the end", () => {
  const n = 3000;
  const launch = launchOf("examples/vector-add.kernel.ts", "add_kernel", { BLOCK_SIZE: 1024 }, [3, 1, 1],
    { x_ptr: new Float32Array(n), y_ptr: new Float32Array(n), output_ptr: new Float32Array(n), n_elements: n });
  const map = programAccessMap(launch, [2, 0, 0])!;
  for (const layer of map.layers) {
    assert.deepEqual([layer.lanes, layer.active], [1024, 952]);
    assert.deepEqual(layer.touched, [[2048, 3000]]);
    assert.deepEqual(layer.masked, [[3000, 3072]]);
  }
  assert.match(accessMapText(map).join("\n"), /72 lanes masked off \(72 past the end\)/);
  assert.equal(programAccessMap(launch, [3, 0, 0]), undefined, "a program outside the grid has no map");
});

test("where the bytes go in a 96 × 40 by 40 × 128 matmul of 32 × 32 tiles: each A tile is read by N/BLOCK_N = 4 programs, each B tile by M/BLOCK_M = 3", () => {
  const [M, N, K] = [96, 128, 40];
  const launch = launchOf("examples/matmul.kernel.ts", "matmul_kernel", { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 }, [12, 1, 1], matmulArgs(M, N, K));
  const bytes = launchBytes(launch)!;
  assert.deepEqual([bytes.traced, bytes.programs], [12, 12]);
  const a = bytes.buffers.find((b) => b.param === "a_ptr")!;
  const b = bytes.buffers.find((b) => b.param === "b_ptr")!;
  const c = bytes.buffers.find((b) => b.param === "c_ptr")!;
  assert.equal(a.tileReads, N / 32);
  assert.equal(b.tileReads, M / 32);
  assert.deepEqual([a.uniqueBytes, a.requestedBytes, a.reuse], [M * K * 4, (N / 32) * M * K * 4, 4]);
  assert.deepEqual([b.uniqueBytes, b.reuse], [K * N * 4, 3]);
  assert.deepEqual([c.reuse, c.tileReads], [1, undefined]);
  for (const access of bytes.accesses) assert.equal(access.pattern, "coalesced", JSON.stringify(access));
});

test("a copy whose block's fast axis walks down a column is strided by n, with the hint at its line; the same copy with its axes swapped is coalesced", () => {
  const n = 100;
  const args = () => ({ x_ptr: new Float32Array(n * n), out_ptr: new Float32Array(n * n), n });
  const strided = launchBytes(launchOf("test/fixtures/access.kernel.ts", "column_copy_kernel", { BLOCK: 16 }, [7, 7, 1], args()))!;
  const load = strided.accesses.find((a) => a.kind === "load")!;
  assert.deepEqual([load.pattern, load.stride, load.line], ["strided", n, 13]);
  assert.equal(load.hint, `this load steps ${n} elements between neighbouring lanes: swap the block's axes or transpose the input`);
  // Each lane of a warp in its own 32-byte sector: 4 of its 32 bytes used.
  assert.equal(load.sectorEfficiency, 0.25);
  const coalesced = launchBytes(launchOf("test/fixtures/access.kernel.ts", "row_copy_kernel", { BLOCK: 16 }, [7, 7, 1], args()))!;
  const rowLoad = coalesced.accesses.find((a) => a.kind === "load")!;
  assert.deepEqual([rowLoad.pattern, rowLoad.hint], ["coalesced", undefined]);
  assert.ok(rowLoad.sectorsPerRequest < load.sectorsPerRequest / 2, `${rowLoad.sectorsPerRequest} vs ${load.sectorsPerRequest}`);
});

test("a large grid is traced only as far as the lane budget: the first programs, said so", () => {
  const n = 1 << 20;
  const launch = launchOf("examples/vector-add.kernel.ts", "add_kernel", { BLOCK_SIZE: 1024 }, [n / 1024, 1, 1],
    { x_ptr: new Float32Array(n), y_ptr: new Float32Array(n), output_ptr: new Float32Array(n), n_elements: n });
  const bytes = launchBytes(launch, 10_000)!;
  assert.deepEqual([bytes.traced, bytes.programs], [4, 1024]);
  assert.equal(bytes.buffers[0].reuse, 1);
});

test("the results panel's maps: a small grid whole; a large one 64 evenly spaced programs, the last (the masked tail) kept when the lane budget stops the trace", () => {
  assert.deepEqual(programsToMap([3, 2, 1]).map((p) => p.join(",")), ["0,0,0", "1,0,0", "2,0,0", "0,1,0", "1,1,0", "2,1,0"]);
  const spaced = programsToMap([97, 1, 1]);
  assert.equal(spaced.length, 64);
  assert.deepEqual([spaced[0][0], spaced[1][0], spaced[63][0]], [0, 2, 96]);
  const n = 97 * 1024 - 100;
  const launch = launchOf("examples/vector-add.kernel.ts", "add_kernel", { BLOCK_SIZE: 1024 }, [97, 1, 1],
    { x_ptr: new Float32Array(n), y_ptr: new Float32Array(n), output_ptr: new Float32Array(n), n_elements: n });
  // 3 × 1024 lanes a program: a budget of 5 programs' lanes maps the first, the last and the next three.
  const maps = programAccessMaps(launch, 64, 5 * 3072)!;
  assert.equal(maps.programs, 97);
  assert.deepEqual(maps.maps.map((m) => m.program[0]), [0, 2, 3, 5, 96]);
  const tail = maps.maps[4].layers[0];
  assert.deepEqual([tail.active, tail.touched, tail.masked], [924, [[96 * 1024, n]], [[n, 97 * 1024]]]);
  assert.deepEqual(programAccessMap(launch, [5, 0, 0])!.layers, maps.maps[3].layers);
});

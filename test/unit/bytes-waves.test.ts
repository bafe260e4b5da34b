// Where the bytes go, continued (issue 29, item 3): what grouped ordering (tutorial 03's
// GROUP_SIZE_M, the matmul example's GROUP_M) changes — the bytes a wave of 64 consecutive
// programs loads that no earlier program of the same wave loaded — measured on the example itself
// with GROUP_M 1 and 8; and the vec4 hint of a contiguous access that alignment spoils.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { LineMap } from "../../src/diagnostics/position";
import { launchBytes, type LaunchToTrace } from "../../src/harness/debug/analyse-launch";
import { bytesText } from "../../src/harness/debug/bytes";
import { DEFAULT_TARGET } from "../../src/ir/target";

const root = path.resolve(__dirname, "../..");

function launchOfText(file: string, text: string, constexprs: Record<string, number>, grid: [number, number, number], args: LaunchToTrace["args"], kernel?: string): LaunchToTrace {
  const kernels = parseKernelFile(file, text).kernels;
  const source = kernel ? kernels.find((k) => k.name === kernel)! : kernels[0];
  const compiled = compileKernel(source, constexprs, DEFAULT_TARGET).kernel!;
  return { ir: compiled.ir, grid, args, dtypes: new Map(), lines: new LineMap(text) };
}

function matmul(M: number, N: number, K: number, block: number, group: number) {
  const text = readFileSync(path.join(root, "examples/matmul.kernel.ts"), "utf8");
  assert.ok(text.includes("const GROUP_M = 8;"), "the example groups by GROUP_M = 8");
  const args = { a_ptr: new Float32Array(M * K), b_ptr: new Float32Array(K * N), c_ptr: new Float32Array(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1 };
  const grid: [number, number, number] = [Math.ceil(M / block) * Math.ceil(N / block), 1, 1];
  return launchBytes(launchOfText("examples/matmul.kernel.ts", text.replace("const GROUP_M = 8;", `const GROUP_M = ${group};`), { BLOCK_M: block, BLOCK_N: block, BLOCK_K: 16 }, grid, args), 1 << 22)!;
}

test("the matmul example in 16 × 16 tiles of a 256 × 18 by 18 × 256 product: a wave of 64 programs fetches 20 strips of A and B in row order, 16 grouped by 8", () => {
  const strip = 16 * 18 * 4; // one tile row of A (or column of B), all of K
  const rowOrder = matmul(256, 256, 18, 16, 1);
  const grouped = matmul(256, 256, 18, 16, 8);
  for (const bytes of [rowOrder, grouped]) {
    assert.deepEqual([bytes.traced, bytes.programs], [256, 256]);
    // Grouping changes which programs run together, not how often a tile is read.
    assert.deepEqual(bytes.buffers.filter((b) => b.tileReads !== undefined).map((b) => [b.param, b.tileReads]), [["a_ptr", 16], ["b_ptr", 16]]);
    assert.equal(bytes.wave!.loadedBytes, 64 * 2 * strip);
  }
  // Row order: a wave is 4 tile rows × all 16 tile columns; grouped by 8: 8 rows × 8 columns.
  assert.deepEqual([rowOrder.wave!.fetchedBytes, grouped.wave!.fetchedBytes], [(4 + 16) * strip, (8 + 8) * strip]);
  const share = (b: typeof rowOrder, param: string) => b.buffers.find((x) => x.param === param)!.waveHits;
  assert.deepEqual([share(rowOrder, "a_ptr"), share(rowOrder, "b_ptr")], [60 / 64, 48 / 64]);
  assert.deepEqual([share(grouped, "a_ptr"), share(grouped, "b_ptr")], [56 / 64, 56 / 64]);
  assert.match(bytesText(grouped).join("\n"), /waves of 64 programs: each loads 144\.0 KiB, 18\.0 KiB of it not loaded before by a program of the same wave/);
});

test("the vec4 hint: A's rows 18 elements apart break 16-byte alignment (not at 20); a copy whose blocks start at 1 + a multiple of 4 is told where", () => {
  const odd = matmul(64, 64, 18, 32, 8);
  const load = odd.accesses.find((a) => a.param === "a_ptr")!;
  assert.equal(load.pattern, "coalesced");
  assert.match(load.hint ?? "", /^this load is contiguous along rows, but 50% of its runs of 4 contiguous lanes start off a 16-byte boundary \(the first at element 18\): the row stride is not a multiple of 4 elements/);
  assert.equal(odd.accesses.find((a) => a.param === "b_ptr")!.hint, undefined);
  assert.equal(matmul(64, 64, 20, 32, 8).accesses.find((a) => a.param === "a_ptr")!.hint, undefined);

  const n = 1000;
  const text = readFileSync(path.join(root, "test/fixtures/access.kernel.ts"), "utf8");
  const shifted = launchBytes(launchOfText("test/fixtures/access.kernel.ts", text, { BLOCK: 64 }, [16, 1, 1], { x_ptr: new Float32Array(n), out_ptr: new Float32Array(n), n }, "shifted_copy_kernel"))!;
  for (const access of shifted.accesses) {
    assert.equal(access.pattern, "coalesced");
    assert.match(access.hint ?? "", /contiguous, but 100% of its runs of 4 contiguous lanes start off a 16-byte boundary \(the first at element 1\): its block starts off a multiple of 4 elements/);
  }
});

// How close a run came to the GPU's measured peaks: the verdict and its line, as a table, and the
// peaks' cache (measured once per adapter, a damaged file measured afresh).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { peaksFor, type Peaks } from "../../src/harness/timing/peaks";
import { assessSpeed } from "../../src/harness/timing/speed-of-light";
import type { Gpu } from "../../src/runtime";

/** An H200-like GPU: 3.9 TB/s, 60 TFLOP/s f32, 2 µs a launch. */
const PEAKS: Peaks = { memoryGBps: 3900, computeGflops: 60000, launchMs: 0.002, timing: "timestamp-query", measuredAt: "2026-12-04T10:00:00.000Z" };

const run = (medianMs: number, gbps: number | null, gflops: number | null) => ({ timing: { medianMs }, gbps, gflops });

const CASES: [string, ReturnType<typeof run>, string, string][] = [
  ["a large vector add", run(0.26, 3100, null), "memory-bound", "memory-bound: 3.10 TB/s is 79% of this GPU's measured 3.90 TB/s"],
  ["vector add at 98 432: launch-bound", run(0.0028, 419, null), "launch-bound", "launch-bound: the kernel's 2.80 µs is within 2× of one launch (2.00 µs on this GPU); give each launch more work (a larger size, or several steps in one kernel)"],
  ["a matmul, above the ridge", run(4.1, 240, 33000), "compute-bound", "compute-bound: 33.00 TFLOP/s is 55% of this GPU's measured f32 FMA rate, 60.00 TFLOP/s; 240 GB/s is 6% of this GPU's measured 3.90 TB/s"],
  ["softmax: both counts, below the ridge", run(0.05, 2900, 400), "memory-bound", "memory-bound: 2.90 TB/s is 74% of this GPU's measured 3.90 TB/s; 400 GFLOP/s is 1% of this GPU's measured f32 FMA rate, 60.00 TFLOP/s"],
  ["only flops", run(1, null, 12000), "compute-bound", "compute-bound: 12.00 TFLOP/s is 20% of this GPU's measured f32 FMA rate, 60.00 TFLOP/s"],
  ["tensor cores above the f32 rate", run(1, null, 300000), "compute-bound", "compute-bound: 300.00 TFLOP/s is 500% of this GPU's measured f32 FMA rate, 60.00 TFLOP/s (above it: f16 arithmetic or tensor cores)"],
  ["in the caches", run(0.01, 5000, null), "memory-bound", "memory-bound: 5.00 TB/s is 128% of this GPU's measured 3.90 TB/s (above it: the data fits in the GPU's caches)"],
  ["no bytes, no flops", run(1, null, null), "unknown", "add `bytes` (the bytes a launch reads and writes) and, for arithmetic, `flops` to the run to see how close it comes to this GPU's limits"],
];

for (const [name, r, verdict, message] of CASES) {
  test(`speed of light: ${name}`, () => {
    const s = assessSpeed(r, PEAKS, "cached");
    assert.ok(s);
    assert.equal(s.verdict, verdict);
    assert.equal(s.message, message);
    assert.equal(s.peaks.source, "cached");
    assert.equal(s.memoryFraction, r.gbps === null ? null : r.gbps / PEAKS.memoryGBps);
  });
}

test("speed of light: an untimed run has none", () => {
  assert.equal(assessSpeed({ timing: null, gbps: null, gflops: null }, PEAKS, "measured"), null);
});

test("peaks are measured once per adapter, then read from the cache; a damaged file is measured afresh", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kl-peaks-"));
  const saved = process.env.KERNEL_LAB_CACHE_DIR;
  process.env.KERNEL_LAB_CACHE_DIR = dir;
  try {
    let measured = 0;
    const measure = async () => (measured++, PEAKS);
    const adapter = { vendor: "nvidia", device: "nvidia-h200", backend: "vulkan", description: "NVIDIA: 580" };
    const gpu = {} as Gpu;
    assert.deepEqual(await peaksFor(gpu, adapter, measure), { peaks: PEAKS, cached: false });
    assert.deepEqual(await peaksFor(gpu, adapter, measure), { peaks: PEAKS, cached: true });
    assert.equal(measured, 1);
    await peaksFor(gpu, { ...adapter, device: "other" }, measure);
    assert.equal(measured, 2);
    assert.equal(Object.keys(JSON.parse(readFileSync(path.join(dir, "peaks.json"), "utf8")).entries).length, 2);
    writeFileSync(path.join(dir, "peaks.json"), "{ not json");
    assert.deepEqual(await peaksFor(gpu, adapter, measure), { peaks: PEAKS, cached: false });
    assert.equal(measured, 3);
  } finally {
    if (saved === undefined) delete process.env.KERNEL_LAB_CACHE_DIR;
    else process.env.KERNEL_LAB_CACHE_DIR = saved;
  }
});

// The results panel's roofline geometry (src/editor/webview/roofline-model.ts), on Node: roofs
// from the peaks, a run with both counts a point at GFLOP/s ÷ GB/s, one with only bytes the line
// of its bandwidth, one with only flops a level, one with neither not drawn.

import { test } from "node:test";
import assert from "node:assert/strict";
import { rooflineModel } from "../../src/editor/webview/roofline-model";

const peaks = { memoryGBps: 4000, computeGflops: 50000 };
const run = (size: number, gbps: number | null, gflops: number | null) => ({ size, gbps, gflops });

test("the roofs meet at the ridge, peak GFLOP/s ÷ peak GB/s, inside whole decades around every point", () => {
  const m = rooflineModel([run(4096, 1000, 8000)], peaks)!;
  assert.equal(m.ridge, 12.5);
  assert.deepEqual(m.points, [{ x: 8, y: 8000, size: 4096 }]);
  assert.deepEqual(m.x, { min: 0.1, max: 1000 });
  assert.deepEqual(m.memoryRoof, [{ x: 0.1, y: 400 }, { x: 12.5, y: 50000 }]);
  assert.deepEqual(m.computeRoof, [{ x: 12.5, y: 50000 }, { x: 1000, y: 50000 }]);
  assert.deepEqual(m.y, { min: 100, max: 1e5 });
});

test("only bytes: the bandwidth's line, parallel to the memory roof and ending at the compute roof", () => {
  const m = rooflineModel([run(98432, 400, null)], peaks)!;
  assert.deepEqual(m.points, []);
  assert.deepEqual(m.x, { min: 1, max: 1000 });
  assert.deepEqual(m.bandwidthLines, [{ size: 98432, gbps: 400, line: [{ x: 1, y: 400 }, { x: 125, y: 50000 }] }]);
});

test("only flops: a level from where the memory roof reaches it", () => {
  const m = rooflineModel([run(1024, null, 20000)], peaks)!;
  assert.deepEqual(m.computeLevels, [{ size: 1024, gflops: 20000, line: [{ x: 5, y: 20000 }, { x: 1000, y: 20000 }] }]);
});

test("neither count, or unusable peaks: nothing to draw", () => {
  assert.equal(rooflineModel([run(1, null, null)], peaks), undefined);
  assert.equal(rooflineModel([run(1, 10, 10)], { memoryGBps: 0, computeGflops: 1 }), undefined);
});

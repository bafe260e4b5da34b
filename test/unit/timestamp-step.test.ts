// The step of GPU timestamps (runtime/timing.ts): precise clocks say nothing, a browser's coarsened
// timestamps give their quantum, which the report carries as `timing.resolutionMs`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatRunTiming } from "../../src/cli/format";
import type { RunReport } from "../../src/harness/report";
import { TimestampStep } from "../../src/runtime/timing";

const stepOf = (...pairs: bigint[][]) => {
  const step = new TimestampStep();
  for (const pair of pairs) step.add(BigInt64Array.from(pair), pair.length / 2);
  return step.resolutionMs();
};

test("timestamps of a precise clock: no resolution to report", () => {
  assert.equal(stepOf([1_733_312_345_678_901n, 1_733_312_345_679_917n], [1_733_312_345_690_003n, 1_733_312_345_691_250n]), undefined);
});

test("timestamps coarsened to 100 µs (Chrome's default): 0.1 ms", () => {
  assert.equal(stepOf([17_333_123_400_000n, 17_333_123_500_000n], [17_333_123_900_000n, 17_333_124_200_000n]), 0.1);
});

test("Dawn's own quantisation (multiples of 65536 ns), across batches", () => {
  assert.equal(stepOf([65_536n * 1000n, 65_536n * 1003n], [65_536n * 1010n, 65_536n * 1011n]), 0.065536);
});

test("only the pairs read count: the rest of the buffer is ignored", () => {
  const step = new TimestampStep();
  step.add(BigInt64Array.from([200_000n, 300_000n, 7n, 11n]), 1);
  assert.equal(step.resolutionMs(), 0.1);
});

test("the CLI's median line says the steps", () => {
  const timing = { medianMs: 0.3, minMs: 0.2, maxMs: 0.4, reps: 20, source: "timestamp-query" as const, resolutionMs: 0.1 };
  const run = { timing, gbps: null, gflops: null, baseline: null } as unknown as RunReport;
  assert.match(formatRunTiming(run)[0], /^ {2}Median: 0\.3\d* ms \(min 0\.2\d*, max 0\.4\d*, 20 reps, GPU timestamps in 0\.1\d* ms steps\)$/);
});

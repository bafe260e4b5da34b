// A node:test reporter that prints the 10 slowest test files when the run ends, so where the
// suite's time goes is in every run's log (scripts/test-core.mjs adds it beside the usual reporter).
// With one process per file, the runner reports each file as a test named by its path whose
// duration is the file's wall time (loading, compiling shaders and every test of it).

import { relative } from "node:path";

const SHOWN = 10;

export default async function* slowestFiles(source) {
  const wall = new Map();
  const summed = new Map();
  for await (const event of source) {
    // Every test, passed or failed, ends with one test:complete (test:pass/fail come in declaration order, and not for files).
    if (event.type !== "test:complete") continue;
    const { file, name, nesting, details } = event.data;
    if (!file || nesting !== 0) continue;
    const ms = details?.duration_ms ?? 0;
    if (name === file) wall.set(file, ms);
    else summed.set(file, (summed.get(file) ?? 0) + ms);
  }
  // A runner that doesn't report files as tests: the sum of the file's top-level tests.
  const times = new Map([...summed, ...wall]);
  if (times.size === 0) return;
  const slowest = [...times].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
  const total = [...times.values()].reduce((a, b) => a + b, 0);
  yield `\nThe ${slowest.length} slowest of ${times.size} test files (${(total / 1000).toFixed(0)} s in all, summed over parallel lanes):\n`;
  for (const [file, ms] of slowest) yield `${(ms / 1000).toFixed(1).padStart(8)} s  ${relative(process.cwd(), file)}\n`;
}

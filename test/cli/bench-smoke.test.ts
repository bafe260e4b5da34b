// The benchmark suite (bench/suite.ts) builds and starts on this machine's adapter (lavapipe in
// CI): its smallest case compiles, checks against the reference and times. The benchmarks
// themselves run by hand on the H200 (bench/RESULTS.md), never here.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { root } from "./build";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
type Result = SpawnSyncReturns<string>;
let suite: Result | undefined;

/**
 * `bench/dist/suite.js --quick --only add,dropout,layernorm-bwd`, bundled first: one run (one
 * process, one GPU device) whose cases each test below reads its own rows of.
 */
function quickSuite(): Result {
  if (!suite) {
    const build = spawnSync(process.execPath, ["bench/build.mjs"], { cwd: root, env, encoding: "utf8" });
    assert.equal(build.status, 0, build.stderr);
    suite = spawnSync(process.execPath, ["bench/dist/suite.js", "--quick", "--only", "add,dropout,layernorm-bwd"], { cwd: root, env, encoding: "utf8", timeout: 480_000 });
  }
  return suite;
}

test("bench/suite.ts --quick starts and its vector add case is correct and timed", () => {
  const run = quickSuite();
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /^adapter: /m);
  const rows = run.stdout.split("\n").filter((l) => l.startsWith("add-14 "));
  assert.ok(rows.length >= 2, run.stdout);
  // A variant whose WGSL equals one already timed (W≤256 where the adapter's default is 256) is named once, not timed again.
  const timed = rows.filter((r) => !r.includes("builtins.") && !r.includes("L2 flushed") && !r.includes("already timed, not timed again"));
  assert.ok(timed.length >= 1, run.stdout);
  for (const row of timed) assert.match(row, / ok .* ms .* GB\/s/, row);
  assert.ok(rows.some((r) => /L2 flushed before each launch .* ms .* GB\/s/.test(r)), "the fastest variant is timed again with a cold L2");
  assert.ok(rows.some((r) => r.includes("builtins.add")), "the built-in add is timed next to the kernel");
});

test("bench/suite.ts --quick checks and times dropout and the two launches of layer-norm backward", () => {
  const run = quickSuite();
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  for (const [name, variants] of [["dropout-10007 ", 4], ["layernorm-bwd-67x300 ", 6]] as const) {
    const rows = run.stdout.split("\n").filter((l) => l.startsWith(name));
    const timed = rows.filter((r) => !r.includes("L2 flushed"));
    assert.equal(timed.length, variants, run.stdout);
    for (const row of timed) assert.match(row, / ok .* ms .* GB\/s/, row);
    assert.ok(rows.some((r) => /L2 flushed before each (launch|run) .* ms .* GB\/s/.test(r)), `${name}: the fastest variant timed again with a cold L2`);
  }
});

// examples/matmul-splitk.kernel.ts through the built command line: split-K for tall-skinny
// products (K cut into 16 slices whose last one ends early, partial tiles, then a second launch
// summing them) matches its float64 reference on the GPU (lavapipe on CI) and with --cpu, and its
// `constexprs: { BLOCK_K }` shorthand (a module-level const) is what `check` compiles with.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";

const EXAMPLE = "examples/matmul-splitk.kernel.ts";
const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function run(args: string[]) {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return r;
}

test("check compiles both kernels with the constexprs named by module-level consts", () => {
  const r = run(["check", EXAMPLE]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.equal(r.stdout.trim(), "");
});

for (const [size, cpu] of [[130, false], [1, false], [33, true]] as const) {
  test(`${cpu ? "--cpu" : "GPU"}: size ${size} matches; 16 slices of K over a grid of tiles × 16`, () => {
    const r = run(["run", EXAMPLE, "--size", String(size), "--reps", "2", "--json", ...(cpu ? ["--cpu"] : [])]);
    assert.equal(r.status, 0, r.stdout.slice(0, 2000) + r.stderr);
    const [entry] = JSON.parse(r.stdout).runs;
    assert.equal(entry.correct, true, JSON.stringify(entry.firstMismatch));
    assert.equal(entry.mismatches, 0);
    const tiles = Math.ceil(size / 64) * Math.ceil(Math.max(size - 1, 1) / 64);
    assert.deepEqual(entry.launches.map((l: { grid: number[] }) => l.grid), [[tiles, 16, 1], [Math.ceil((size * Math.max(size - 1, 1)) / 1024), 1, 1]]);
    assert.ok(Number.isFinite(entry.maxAbsDiff) && entry.maxAbsDiff < 2e-3, `max abs diff ${entry.maxAbsDiff}`);
  });
}

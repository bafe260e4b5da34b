// The autotuner tries the code generator's knobs beside the configs (`tuneCodegen`), on the GPU
// (lavapipe on CI): an f16 kernel whose load form ("block" or "select") changes its WGSL where n is
// a multiple of 16 and changes nothing where it is not. The table lists each candidate's knobs,
// settings with the same WGSL are timed once, the cache keeps the picked knobs, and a later run
// launches the cached knobs' WGSL.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";
import { COMPILER_BUILD } from "../../src/harness/autotune/compiler-build";
import { compileKernel, parseKernelFile, specializationFor } from "../../src/compile";
import { acquireGpu, cachedPipelineCount, getPipeline } from "../../src/runtime";
import { runFile } from "../../src/harness";
import { formatAutotune } from "../../src/cli/format";
import type { AutotuneReport } from "../../src/harness/report";

const FIXTURE = "test/fixtures/autotune-knobs.kernel.ts";

before(ensureBuilt);

const cacheDir = mkdtempSync(path.join(os.tmpdir(), "kl-knobs-"));
const cacheFile = path.join(cacheDir, "autotune.json");

/** The first run, in a process of its own, tunes both sizes and writes the cache. */
function tuneInChild(): { runs: { size: number; autotune: AutotuneReport; correct: boolean }[] } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", FIXTURE, "--sweep", "--json", "--reps", "5"], {
    cwd: root,
    env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", KERNEL_LAB_DEBUG: "", KERNEL_LAB_CACHE_DIR: cacheDir },
    encoding: "utf8",
    timeout: 300_000,
  });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  return JSON.parse(r.stdout);
}

test("knobs: each candidate's load form listed and checked, identical WGSL timed once, the pick cached with its knobs and launched from the cache", async () => {
  const first = tuneInChild();
  const [at4000, at1001] = first.runs;
  assert.equal(at4000.size, 4000);
  assert.ok(at4000.correct);
  // Two configs × three load forms, each checked against the reference and timed.
  const tried = at4000.autotune.candidates.map((c) => `${c.constexprs.BLOCK}/${c.codegen?.halfLoadForm}`);
  assert.deepEqual(tried, ["256/block", "256/select", "256/tile", "512/block", "512/select", "512/tile"]);
  assert.ok(at4000.autotune.candidates.every((c) => c.correct && c.medianMs !== null), JSON.stringify(at4000.autotune.candidates));
  assert.equal(at4000.autotune.identical, 0);
  const picked = at4000.autotune.codegen?.halfLoadForm;
  assert.ok(picked === "block" || picked === "select" || picked === "tile", JSON.stringify(at4000.autotune));
  // At n = 1001 no run of 4 is known masked whole: the three forms emit the same WGSL, one candidate per config.
  assert.deepEqual(at1001.autotune.candidates.map((c) => `${c.constexprs.BLOCK}/${c.codegen?.halfLoadForm}`), ["256/block", "512/block"]);
  assert.equal(at1001.autotune.identical, 4);

  // The table: a column for the load form, the pick named with its knobs.
  const table = formatAutotune(at4000.autotune);
  assert.match(table[0], new RegExp(`^  Autotune: picked BLOCK=(256|512), halfLoadForm=${picked} of 6 candidates$`));
  assert.match(table[1], /^    BLOCK {2}halfLoadForm {2}Median/);
  assert.equal(table.filter((l) => l.startsWith("  ▸")).length, 1);
  assert.match(formatAutotune(at1001.autotune)[0], /; 4 more gave the same WGSL as another and were not timed$/);

  // The cache keeps the knobs of the pick and of every candidate.
  const cache = JSON.parse(readFileSync(cacheFile, "utf8"));
  const entries = Object.values(cache.entries) as { size: number; picked: { BLOCK: number }; codegen: { halfLoadForm: string }; candidates: { codegen?: object }[] }[];
  const entry = entries.find((e) => e.size === 4000)!;
  assert.deepEqual(entry.codegen, { halfLoadForm: picked });
  assert.deepEqual(entry.picked, at4000.autotune.picked);
  assert.ok(entry.candidates.every((c) => c.codegen), JSON.stringify(entry.candidates));

  // The cached choice turned to the other form (both are correct): the next run must launch that.
  const other = picked === "block" ? "select" : "block";
  entry.codegen = { halfLoadForm: other };
  // The bundle tuned; this process runs the sources, a build of its own name (compiler-build.ts): the entry is made this build's.
  (entry as { build?: string }).build = COMPILER_BUILD;
  writeFileSync(cacheFile, JSON.stringify(cache));
  process.env.KERNEL_LAB_CACHE_DIR = cacheDir;
  const again = await runFile(path.join(root, FIXTURE), { size: 4000, reps: 5 });
  const [run] = again.runs;
  assert.ok(run.correct, JSON.stringify(again.diagnostics));
  assert.equal(run.autotune?.cached, true);
  assert.deepEqual(run.autotune?.codegen, { halfLoadForm: other });
  assert.match(formatAutotune(run.autotune!)[0], new RegExp(`halfLoadForm=${other} of 6 candidates \\(cached choice`));

  // The WGSL this process launched: the cached form's (its pipeline exists), never the other's.
  const text = readFileSync(path.join(root, FIXTURE), "utf8");
  const kernel = parseKernelFile(FIXTURE, text).kernels[0];
  const gpu = await acquireGpu({ f16: true, f16Dot: false });
  const specialised = (form: "block" | "select" | "tile") => {
    const program = compileKernel(kernel, run.constexprs, gpu.target, specializationFor(kernel, { n: 4000 }), { halfLoadForm: form }).kernel!;
    return program.quiet ?? program;
  };
  assert.notEqual(specialised("block").wgsl, specialised("select").wgsl);
  const before = cachedPipelineCount(gpu);
  await getPipeline(gpu, specialised(other));
  assert.equal(cachedPipelineCount(gpu), before, `halfLoadForm=${other}: the timed pipeline is the cached knobs'`);
  await getPipeline(gpu, specialised(picked));
  assert.equal(cachedPipelineCount(gpu), before + 1, `halfLoadForm=${picked}: never built by the cached run`);
});

// @triton.autotune with --tune-codegen (harness/python/autotune.ts): tutorial 03's matmul in f16 on
// lavapipe with subgroup matrices emulated (as test/gpu/mma-emulated.test.ts does), so the knobs a
// tl.dot on matrices offers are tried. Each setting is checked against the default knobs' checked
// launch before it is timed; the table lists the knobs; the cache keeps the pick with its knobs and
// a second run launches the cached knobs without tuning. The script's own assert_close (against
// torch's matmul) judges what was launched. Last, @triton.autotune's other arguments without the
// flag (do_bench, warmup/rep, use_cuda_graph, cache_results: the pick kept in the same cache).

import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runPythonFile, stopPython } from "../../src/harness/python/session";
import { startPythonThread } from "../../src/harness/python/thread-node";
import { formatAutotune } from "../../src/cli/format";
import { formatKnobs, type KnobSetting } from "../../src/ir/knobs";

const FILE = path.resolve(__dirname, "../python/autotune-knobs.py");
const HALF_LOADS = path.resolve(__dirname, "../python/autotune-half-loads.py");
const HOOKS = path.resolve(__dirname, "../python/autotune-hooks.py");
const OPTIONS = path.resolve(__dirname, "../python/autotune-options.py");
const EMULATED = {
  target: { subgroupMatrixConfigs: [[16, 16, 16], [16, 8, 16]].map(([M, N, K]) => ({ componentType: "f16", resultComponentType: "f32", M, N, K })) },
  codegen: { subgroupMatrixEmulation: true },
};

after(stopPython);

test("@triton.autotune --tune-codegen: knobs tried per config, each checked then timed, listed, cached with the pick and launched from the cache", async () => {
  process.env.KERNEL_LAB_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), "kl-py-knobs-"));
  const first = await runPythonFile(FILE, { tuneCodegen: true, overrides: EMULATED }, startPythonThread);
  assert.equal(first.outcome, "ok", `${first.report.traceback}\n${JSON.stringify(first.report.diagnostics)}`);
  assert.match(first.report.stdout, /max difference: /);
  const [tuned] = first.report.autotune ?? [];
  assert.ok(tuned, "an autotune table in the report");
  assert.equal(tuned.kernel, "matmul_kernel");
  assert.equal(tuned.key, "70, 45, 83");
  assert.equal(tuned.cached, false);
  // The loop plan on matrices offers its staging knobs; settings with the same WGSL are one candidate.
  const knobs = new Set(tuned.candidates.flatMap((c) => Object.keys(c.codegen ?? {})));
  for (const k of ["mmaDoubleBuffer", "mmaDirectStore"]) assert.ok(knobs.has(k), `${k} tried: ${[...knobs]}`);
  assert.ok(tuned.candidates.length >= 2, JSON.stringify(tuned.candidates));
  assert.ok((tuned.identical ?? 0) > 0);
  assert.ok(tuned.candidates.every((c) => c.correct && c.medianMs !== null), JSON.stringify(tuned.candidates));
  assert.equal(new Set(tuned.candidates.map((c) => formatKnobs(c.codegen ?? {}))).size, tuned.candidates.length, "no setting timed twice");
  const table = formatAutotune(tuned);
  assert.match(table[0], /^ {2}Autotune: picked .*mmaDoubleBuffer=(true|false).* of \d+ candidates; \d+ more gave the same WGSL/);
  assert.match(table[1], /mmaDoubleBuffer/);

  // The cache keeps the knobs; turned to another timed candidate's, the next run launches those, untuned.
  const cacheFile = path.join(process.env.KERNEL_LAB_CACHE_DIR, "autotune.json");
  const cache = JSON.parse(readFileSync(cacheFile, "utf8")) as { entries: Record<string, { codegen: KnobSetting; candidates: { codegen: KnobSetting }[] }> };
  const [entry] = Object.values(cache.entries);
  assert.deepEqual(entry.codegen, tuned.codegen);
  const other = entry.candidates.find((c) => formatKnobs(c.codegen) !== formatKnobs(entry.codegen))!.codegen;
  entry.codegen = other;
  writeFileSync(cacheFile, JSON.stringify(cache));
  const second = await runPythonFile(FILE, { tuneCodegen: true, overrides: EMULATED }, startPythonThread);
  assert.equal(second.outcome, "ok", second.report.traceback);
  const [again] = second.report.autotune ?? [];
  assert.equal(again.cached, true);
  assert.deepEqual(again.codegen, other);
  assert.match(formatAutotune(again)[0], /\(cached choice; --retune tunes again\)/);

  // Without the flag nothing is tuned on the main thread: one config, launched with the default knobs.
  const plain = await runPythonFile(FILE, { overrides: EMULATED }, startPythonThread);
  assert.equal(plain.outcome, "ok");
  assert.equal(plain.report.autotune, undefined);
});

test("@triton.autotune --tune-codegen crosses every config with the knobs: two configs × three load forms, each checked then timed", async () => {
  process.env.KERNEL_LAB_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), "kl-py-knobs-"));
  const { report, outcome } = await runPythonFile(HALF_LOADS, { tuneCodegen: true, retune: true }, startPythonThread);
  assert.equal(outcome, "ok", `${report.traceback}`);
  assert.match(report.stdout, /scaled 4000/);
  const [tuned] = report.autotune ?? [];
  assert.deepEqual(tuned.candidates.map((c) => `${c.constexprs.BLOCK}/${c.codegen?.halfLoadForm}`), ["512/block", "512/select", "512/tile", "1024/block", "1024/select", "1024/tile"]);
  assert.ok(tuned.candidates.every((c) => c.correct && c.medianMs !== null), JSON.stringify(tuned.candidates));
  assert.equal(tuned.identical, 0);
  const table = formatAutotune(tuned);
  assert.match(table[0], /^ {2}Autotune: picked BLOCK=(512|1024), halfLoadForm=(block|select|tile) of 6 candidates$/);
  assert.match(table[1], /^ {4}BLOCK {2}halfLoadForm {2}Median/);
  // The kernel adds into out: the script's assert_close (out == x * 3) passed, so the candidates ran on copies, and the script's launch once.
  assert.equal(report.launches.filter((l) => l.kernel === "scale_half").length, 1);
});

test("@triton.autotune --tune-codegen keeps reset_to_zero (zeroed in the copies) and restore_value (copies); kernels with Python hooks are tuned by Python, said once", async () => {
  process.env.KERNEL_LAB_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), "kl-py-knobs-"));
  const { report, outcome } = await runPythonFile(HOOKS, { tuneCodegen: true, retune: true }, startPythonThread);
  assert.equal(outcome, "ok", `${report.traceback}`);
  assert.ok(report.checks.every((c) => c.passed), JSON.stringify(report.checks));
  assert.deepEqual((report.autotune ?? []).map((t) => t.kernel), ["row_sums_split_k", "histogram", "histogram"]);
  // Every candidate matched the reference, both run on copies whose reset_to_zero tensor starts at zero.
  for (const tuned of report.autotune ?? []) assert.ok(tuned.candidates.every((c) => c.correct), JSON.stringify(tuned.candidates));
  assert.equal(report.stdout.match(/--tune-codegen: add_into has autotune hooks/g)?.length, 1, report.stdout);
});

test("@triton.autotune's do_bench, warmup/rep, use_cuda_graph and cache_results (a second autotuner launches the remembered pick untimed); best_config, configs, cache, configs_timings as Triton's", async () => {
  // A fresh cache folder for this run only: the remembered pick outlives it.
  const before = process.env.KERNEL_LAB_CACHE_DIR;
  process.env.KERNEL_LAB_CACHE_DIR = mkdtempSync(path.join(os.tmpdir(), "kernel-lab-autotune-results-"));
  try {
    const { report, outcome } = await runPythonFile(OPTIONS, { bench: "quick" }, startPythonThread);
    assert.equal(outcome, "ok", report.traceback);
    assert.match(report.stdout, /do_bench picked BLOCK: 128, .*\nwarmup and rep \(5, 20\)\nuse_cuda_graph accepted\ncache_results: remembered BLOCK: 256, /);
    const cache = JSON.parse(readFileSync(path.join(process.env.KERNEL_LAB_CACHE_DIR, "autotune.json"), "utf8")) as { entries: Record<string, { run: string; picked: Record<string, number> }> };
    assert.deepEqual(Object.values(cache.entries).map((e) => [e.run, e.picked.BLOCK]), [["scale_kernel key=1000, torch.float32, torch.float32 (timed by Python)", 256]]);
  } finally {
    if (before === undefined) delete process.env.KERNEL_LAB_CACHE_DIR;
    else process.env.KERNEL_LAB_CACHE_DIR = before;
  }
});

// The autotuner end to end: `defineRun({ configs })` on the GPU (lavapipe on CI). A wrong config is
// never picked, one that does not compile is skipped, the choice is cached on disk per size and
// reused without timing (by the same compiler build only), --retune times again, a damaged cache is
// survived, bad configs are KL3028.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";

const FIXTURE = "test/fixtures/autotune.kernel.ts";
const RUN_KEYS = [
  "name", "kernel", "size", "constexprs", "grid", "correct", "maxAbsDiff", "maxRelDiff", "mismatches", "firstMismatch",
  "timing", "gbps", "gflops", "baseline", "autotune", "speedOfLight", "bytes",
];

before(ensureBuilt);

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Few repetitions: these tests are about what is picked and remembered, not about the figures. */
function cli(args: string[], env: Record<string, string>): Result {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args, "--reps", "10"], {
    cwd: root,
    env: { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp", KERNEL_LAB_DEBUG: "", ...env },
    encoding: "utf8",
    timeout: 300_000,
  });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(args: string[], env: Record<string, string>): { code: number | null; report: any; stderr: string } {
  const r = cli([...args, "--json"], env);
  let report: unknown;
  assert.doesNotThrow(() => (report = JSON.parse(r.stdout)), `stdout is one JSON object:\n${r.stdout}\n${r.stderr}`);
  return { code: r.code, report, stderr: r.stderr };
}

/**
 * The first test's fresh cache once its run wrote it: this GPU's measured peaks and the code cache
 * of TypeScript. Later caches start with copies, so each run neither measures the GPU again (about
 * 2 s of CPU on lavapipe) nor compiles TypeScript afresh; what the autotuner writes is still all
 * its own.
 */
let seed: string | undefined;
function freshCache(): { dir: string; file: string; env: Record<string, string> } {
  const dir = mkdtempSync(path.join(os.tmpdir(), "kl-autotune-"));
  for (const f of seed ? readdirSync(seed).filter((f) => f === "peaks.json" || f.endsWith(".v8-cache")) : []) copyFileSync(path.join(seed!, f), path.join(dir, f));
  return { dir, file: path.join(dir, "autotune.json"), env: { KERNEL_LAB_CACHE_DIR: dir } };
}

/**
 * The first test's autotune file and report: what a first `run FIXTURE` in a fresh cache writes and
 * prints. Tests about what a later run does with that file start from a copy of it instead of tuning
 * again (a run of its own, about 2 s on lavapipe).
 */
let firstTuning: { file: string; autotune: any } | undefined;
function cacheAfterFirstRun(): ReturnType<typeof freshCache> & { first: any } {
  assert.ok(firstTuning, "the first test tuned the fixture and kept its cache");
  const cache = freshCache();
  copyFileSync(firstTuning.file, cache.file);
  return { ...cache, first: firstTuning.autotune };
}

const blockOf = (c: { constexprs: { BLOCK: number } }) => c.constexprs.BLOCK;

test("configs: the fastest correct candidate runs; a wrong one is reported ✗ and never picked; one that does not compile is skipped", () => {
  const cache = freshCache();
  const { code, report } = json(["run", FIXTURE], cache.env);
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assert.deepEqual(report.diagnostics, []);
  const [run] = report.runs;
  assert.deepEqual(Object.keys(run), RUN_KEYS);
  assert.equal(run.correct, true);
  const tune = run.autotune;
  assert.deepEqual(Object.keys(tune), ["picked", "cached", "candidates"]);
  assert.equal(tune.cached, false);
  assert.deepEqual(tune.candidates.map(blockOf), [128, 256, 100, 512, 1024]);
  for (const c of tune.candidates) {
    assert.deepEqual(Object.keys(c).slice(0, 5), ["constexprs", "medianMs", "gbps", "gflops", "correct"]);
    assert.equal(c.constexprs.SCALE, 3, "each config is merged over the run's constexprs");
  }
  const [skipsElements, , notPowerOfTwo] = tune.candidates;
  assert.equal(skipsElements.correct, false);
  assert.equal(skipsElements.medianMs, null);
  assert.match(skipsElements.note, /^does not match the reference: out_ptr\[\d+\] = NaN, expected [\d.e-]+; \d+ elements differ$/);
  assert.equal(notPowerOfTwo.correct, false);
  assert.match(notPowerOfTwo.note, /^does not compile: KL2002 at 8:\d+: tl\.arange\(0, 100\)/);

  const correct = tune.candidates.filter((c: { correct: boolean }) => c.correct);
  assert.deepEqual(correct.map(blockOf), [256, 512, 1024]);
  for (const c of correct) {
    assert.ok(c.medianMs > 0 && c.gbps > 0, JSON.stringify(c));
    assert.equal(c.note, undefined);
  }
  const fastest = correct.reduce((a: { medianMs: number }, b: { medianMs: number }) => (b.medianMs < a.medianMs ? b : a));
  assert.deepEqual(tune.picked, fastest.constexprs);
  assert.deepEqual(run.constexprs, tune.picked, "the run's numbers are the picked config's");
  assert.deepEqual(run.grid, [Math.ceil(100_003 / 256), 1, 1]);

  // Written atomically: the file and nothing else (no temporary left behind) besides the
  // command's code cache of TypeScript (src/harness/load/typescript-cache.ts) and the GPU's peaks
  // (src/harness/timing/peaks.ts).
  assert.deepEqual(readdirSync(cache.dir).filter((f) => !f.endsWith(".v8-cache")), ["autotune.json", "peaks.json"]);
  seed = cache.dir;
  const stored = JSON.parse(readFileSync(cache.file, "utf8"));
  const entries = Object.values(stored.entries) as any[];
  assert.equal(entries.length, 1);
  assert.equal(entries[0].size, 100_003);
  assert.deepEqual(entries[0].picked, tune.picked);
  assert.ok(!Number.isNaN(Date.parse(entries[0].date)));
  firstTuning = { file: cache.file, autotune: tune };
});

test("the second run takes the cached choice without timing the candidates; --retune times them again", () => {
  const cache = cacheAfterFirstRun();
  const first = cache.first;

  const second = json(["run", FIXTURE, "--debug"], cache.env);
  assert.equal(second.code, 0);
  const cached = second.report.runs[0];
  assert.equal(cached.autotune.cached, true);
  assert.deepEqual(cached.autotune.picked, first.picked);
  assert.deepEqual(cached.constexprs, first.picked);
  // The candidates' figures are the remembered ones, and the tuner says it timed none.
  assert.deepEqual(cached.autotune.candidates.map((c: { medianMs: number | null }) => c.medianMs), first.candidates.map((c: { medianMs: number | null }) => c.medianMs));
  assert.match(second.stderr, /autotune: tuned, size 100003: cached choice from .*, no candidate timed/);
  assert.ok(cached.timing.reps > 0, "the picked config itself is still run and timed");

  const retuned = json(["run", FIXTURE, "--retune", "--debug"], cache.env);
  assert.equal(retuned.code, 0);
  assert.equal(retuned.report.runs[0].autotune.cached, false);
  assert.match(retuned.stderr, /autotune: tuned, size 100003: timed 3 of 5 candidates/);
  const medians = retuned.report.runs[0].autotune.candidates.map((c: { medianMs: number | null }) => c.medianMs);
  assert.notDeepEqual(medians, first.candidates.map((c: { medianMs: number | null }) => c.medianMs));
});

test("human output: a table of candidates, ✓/✗, the picked one marked; another size is tuned on its own, next to the first", () => {
  const cache = cacheAfterFirstRun();
  const args = ["run", FIXTURE, "--size", "5000"];
  const r = cli(args, cache.env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(Object.keys(JSON.parse(readFileSync(cache.file, "utf8")).entries).length, 2);
  assert.match(r.stdout, /^  Autotune: picked BLOCK=(256|512|1024) of 5 configs$/m);
  assert.match(r.stdout, /^    BLOCK +Median +GB\/s +Loaded +Sector use$/m);
  // A candidate that does not match is still traced: its bytes, no time.
  assert.match(r.stdout, /^    128 +— +— +[\d.]+ KiB +\d+% +✗$/m);
  assert.match(r.stdout, /^      does not match the reference: /m);
  assert.match(r.stdout, /^      does not compile: KL2002/m);
  const picked = r.stdout.split("\n").filter((l) => l.startsWith("  ▸ "));
  assert.equal(picked.length, 1);
  assert.match(picked[0], /^  ▸ (256|512|1024) +[\d.]+ ms +[\d.]+ +[\d.]+ KiB +\d+% +✓  picked$/);
  const again = cli(args, cache.env);
  assert.match(again.stdout, /^  Autotune: picked BLOCK=\d+ of 5 configs \(cached choice; --retune tunes again\)$/m);
});

// The other damages (a JSON array, another version, someone else's entry kept) are read by the same
// code in test/unit/autotune-cache.test.ts, without a GPU: each here would be a whole tuning.
test("a damaged cache file is ignored with a warning, then rewritten", () => {
  const cache = freshCache();
  writeFileSync(cache.file, "{ not json");
  const { code, report, stderr } = json(["run", FIXTURE], cache.env);
  assert.equal(code, 0, stderr);
  assert.equal(report.runs[0].autotune.cached, false);
  assert.match(stderr, /^kernel-lab: warning: ignoring the autotune cache .*autotune\.json: /m);
  assert.equal(Object.keys(JSON.parse(readFileSync(cache.file, "utf8")).entries).length, 1);
});

test("a damaged entry for this very run is ignored: tuned afresh", () => {
  const cache = cacheAfterFirstRun();
  const stored = JSON.parse(readFileSync(cache.file, "utf8"));
  const key = Object.keys(stored.entries)[0];
  stored.entries[key].picked = "BLOCK=256";
  writeFileSync(cache.file, JSON.stringify(stored));
  const { code, report, stderr } = json(["run", FIXTURE], cache.env);
  assert.equal(code, 0);
  assert.equal(report.runs[0].autotune.cached, false);
  assert.match(stderr, /warning: ignoring a damaged entry of the autotune cache/);
});

test("a choice cached by another Kernel Lab build is not reused: said once, tuned again, kept under this build", () => {
  const cache = cacheAfterFirstRun();
  const stored = JSON.parse(readFileSync(cache.file, "utf8"));
  const [key] = Object.keys(stored.entries);
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  const build = stored.entries[key].build;
  assert.match(build, new RegExp(`^${version.replaceAll(".", "\\.")}\\+[0-9a-f]{12}$`), "the bundle records its version and its compiler's hash");
  stored.entries[key].build = `${version}+000000000000`;
  writeFileSync(cache.file, JSON.stringify(stored));
  const { code, report, stderr } = json(["run", FIXTURE], cache.env);
  assert.equal(code, 0, stderr);
  assert.equal(report.runs[0].autotune.cached, false);
  const said = stderr.split("\n").filter((l) => l.includes("from another Kernel Lab build"));
  assert.deepEqual(said, [`kernel-lab: autotune cache from another Kernel Lab build (${version}+000000000000; this is ${build}): tuning again.`]);
  // The new tuning replaced the old build's entry.
  const after = JSON.parse(readFileSync(cache.file, "utf8")).entries;
  assert.deepEqual([Object.keys(after), after[key].build], [[key], build]);
});

test("the cache lives under $XDG_CACHE_HOME/kernel-lab without KERNEL_LAB_CACHE_DIR", () => {
  const xdg = mkdtempSync(path.join(os.tmpdir(), "kl-xdg-"));
  // The first test's peaks and code cache put there first, as in freshCache: read from there (the
  // peaks not measured again, so not rewritten), and the autotuner writes its file beside them.
  const dir = path.join(xdg, "kernel-lab");
  mkdirSync(dir);
  const { dir: seeded } = freshCache();
  for (const f of readdirSync(seeded)) copyFileSync(path.join(seeded, f), path.join(dir, f));
  const peaks = readFileSync(path.join(dir, "peaks.json"), "utf8");
  const { code } = json(["run", FIXTURE, "--size", "777"], { KERNEL_LAB_CACHE_DIR: "", XDG_CACHE_HOME: xdg });
  assert.equal(code, 0);
  assert.deepEqual(readdirSync(dir).filter((f) => !f.endsWith(".v8-cache")), ["autotune.json", "peaks.json"]);
  assert.equal(readFileSync(path.join(dir, "peaks.json"), "utf8"), peaks);
});

test("--cpu runs the first config and reports no tuning", () => {
  const cache = freshCache();
  const { code, report } = json(["run", "examples/matmul.kernel.ts", "--cpu", "--size", "33"], cache.env);
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assert.deepEqual(report.runs[0].constexprs, { BLOCK_M: 32, BLOCK_N: 32, BLOCK_K: 16 });
  assert.equal(report.runs[0].autotune, undefined);
});

test("a grid that throws for one config rules it out; with no correct config the first runs and mismatches; an error common to all fails the run", () => {
  const cache = freshCache();
  const { code, report } = json(["run", "test/fixtures/autotune-edge.kernel.ts"], cache.env);
  assert.equal(code, 4, "the reference that always throws is a bad run definition");
  const [gridThrows, noneCorrect] = report.runs;
  assert.equal(report.runs.length, 2);
  assert.equal(gridThrows.correct, true);
  const [ruledOut] = gridThrows.autotune.candidates;
  assert.equal(ruledOut.correct, false);
  assert.match(ruledOut.note, /^Run 'gridThrowsForOne', `grid`: threw Error: 64 is not supported\./);
  assert.notEqual(gridThrows.autotune.picked.BLOCK, 64);

  assert.equal(noneCorrect.correct, false);
  assert.deepEqual(noneCorrect.autotune.picked, { BLOCK: 128 });
  assert.deepEqual(noneCorrect.autotune.candidates.map((c: { correct: boolean }) => c.correct), [false, false]);
  assert.deepEqual(report.diagnostics.map((d: { code: string; message: string }) => [d.code, d.message.slice(0, 40)]), [
    ["KL3022", "Run 'referenceThrows', `reference`: thre"],
  ]);
  // Only a tuning with a correct winner is remembered.
  const stored = JSON.parse(readFileSync(cache.file, "utf8"));
  assert.deepEqual(Object.values(stored.entries).map((e: any) => e.run), ["gridThrowsForOne"]);

  const human = cli(["run", "test/fixtures/autotune-edge.kernel.ts", "--run", "noneCorrect"], cache.env);
  assert.equal(human.code, 1);
  assert.match(human.stdout, /^  Autotune: none of 2 configs matched the reference; ran BLOCK=128$/m);
});

test("bad configs: a KL3028 message naming the run and the field, exit 4", () => {
  const cases: [string, RegExp][] = [
    ["notAList", /Run 'notAList', `configs`: must be a non-empty array of constexpr alternatives, e.g\. `configs: \[\{ BLOCK: 64 \}, \{ BLOCK: 128 \}\]`; got \{"BLOCK":64\}\./],
    ["emptyList", /Run 'emptyList', `configs`: must be a non-empty array .*; got \[\]\./],
    ["unknownName", /Run 'unknownName', `configs\[1\]`: 'BLOCKK' is not a constexpr parameter of kernel 'copy_kernel' \(those are: BLOCK; num_warps sets the invocations per program, num_stages the loads in flight\)\./],
    ["notInteger", /Run 'notInteger', `configs\[0\]`: BLOCK must be an integer or a finite float; got Infinity\./],
    ["noValue", /Run 'noValue', `configs\[1\]`: gives no value for 'BLOCK', and `constexprs` has none either\. Add BLOCK to this config or to `constexprs`\./],
    ["repeated", /Run 'repeated', `configs\[2\]`: is the same set of constexprs as `configs\[1\]`; remove one\./],
  ];
  // Every run of the file is checked, each failing on its own.
  const r = cli(["run", "test/fixtures/bad-configs.kernel.ts"], freshCache().env);
  assert.equal(r.code, 4, r.stderr);
  assert.equal(r.stdout, "");
  for (const [, message] of cases) {
    assert.match(r.stderr, new RegExp(`^test/fixtures/bad-configs\\.kernel\\.ts:\\d+:14 - error KL3028: ${message.source}$`, "m"));
  }
  assert.equal(r.stderr.trimEnd().split("\n").filter((l) => l.includes("KL3028")).length, cases.length);
});

// Issue 31: the run's constexprs a function of the size, configs merged over each size's set.
test("constexprs from the size: each size tunes over its own sets, and the cache keeps each size's choice", () => {
  const { env } = freshCache();
  const args = ["run", "test/fixtures/size-constexprs.kernel.ts", "--run", "tunedBySize", "--sweep"];
  const first = json(args, env);
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(first.report.runs.map((r: any) => [r.size, r.correct, r.autotune.cached]), [[100, true, false], [300, true, false]]);
  assert.deepEqual(first.report.runs[0].autotune.candidates.map((c: any) => c.constexprs), [
    { n_cols: 100, BLOCK_N: 128, num_warps: 1 }, { n_cols: 100, BLOCK_N: 128, num_warps: 4 },
  ]);
  assert.deepEqual(first.report.runs[1].autotune.candidates.map((c: any) => c.constexprs), [
    { n_cols: 300, BLOCK_N: 512, num_warps: 1 }, { n_cols: 300, BLOCK_N: 512, num_warps: 4 },
  ]);
  const again = json(args, env);
  assert.deepEqual(again.report.runs.map((r: any) => [r.size, r.correct, r.autotune.cached]), [[100, true, true], [300, true, true]]);
  assert.deepEqual(again.report.runs.map((r: any) => r.constexprs), first.report.runs.map((r: any) => r.constexprs));
});

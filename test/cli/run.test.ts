// The command line end to end: the built binary on the examples and on fixtures, on the GPU
// (lavapipe on CI) and with --cpu. Exit codes and the JSON shape are docs/LANGUAGE.md §4's.
// Tests about a run's results rather than the command line read the report in this process
// (runJson, test/support/run-in-process.ts): a spawned CLI costs ~0.5 s of CPU and a GPU device each.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";
import { runJson } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], extraEnv: Record<string, string> = {}): Result {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args], {
    cwd: root,
    env: { ...env, ...extraEnv },
    encoding: "utf8",
    timeout: 300_000,
  });
  // No stack traces reach users.
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(args: string[], extraEnv: Record<string, string> = {}): { code: number | null; report: any } {
  const r = cli([...args, "--json"], extraEnv);
  let report: unknown;
  assert.doesNotThrow(() => (report = JSON.parse(r.stdout)), `stdout is one JSON object:\n${r.stdout}\n${r.stderr}`);
  return { code: r.code, report };
}

const RUN_KEYS = [
  "name", "kernel", "size", "constexprs", "grid", "correct", "maxAbsDiff", "maxRelDiff", "mismatches", "firstMismatch",
  "timing", "gbps", "gflops", "baseline", "speedOfLight", "bytes",
];
const EXAMPLES = ["vector-add", "saxpy", "leaky-relu", "int-ops", "cumsum"].map((e) => `examples/${e}.kernel.ts`);

test("run vector-add: human output, exit 0", () => {
  const r = cli(["run", "examples/vector-add.kernel.ts"]);
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout;
  assert.match(out, /^vectorAdd \(kernel add_kernel\) · size 98432 · grid \[97, 1, 1\] · BLOCK_SIZE=1024$/m);
  assert.match(out, /^  Adapter: \S+/m);
  assert.match(out, /^  Max difference: 0$/m);
  assert.match(out, /^  Match: true$/m);
  assert.match(out, /^  Median: [\d.]+ ms \(min [\d.]+, max [\d.]+, \d+ reps( of \d+ launches each)?\)$/m);
  assert.match(out, /^  GB\/s: [\d.]+$/m);
  assert.match(out, /^  builtins\.add: [\d.]+ ms — kernel is [\d.]+× as fast$/m);
});

test("run --json has docs/LANGUAGE.md §4's shape, timed with GPU timestamps", async () => {
  const { code, report } = json(["run", "examples/vector-add.kernel.ts"]);
  assert.equal(code, 0);
  assert.deepEqual(Object.keys(report), ["file", "adapter", "diagnostics", "runs"]);
  assert.equal(report.file, "examples/vector-add.kernel.ts");
  assert.deepEqual(Object.keys(report.adapter), ["vendor", "device", "backend", "description"]);
  assert.deepEqual(report.diagnostics, []);
  assert.equal(report.runs.length, 1);
  const run = report.runs[0];
  assert.deepEqual(Object.keys(run), RUN_KEYS);
  assert.equal(run.name, "vectorAdd");
  assert.equal(run.kernel, "add_kernel");
  assert.equal(run.size, 98432);
  assert.deepEqual(run.constexprs, { BLOCK_SIZE: 1024 });
  assert.deepEqual(run.grid, [97, 1, 1]);
  assert.equal(run.correct, true);
  assert.equal(run.mismatches, 0);
  assert.equal(run.firstMismatch, null);
  // docs/LANGUAGE.md §4's keys, then how many back-to-back launches each sample averages (runtime/timing.ts).
  assert.deepEqual(Object.keys(run.timing), ["medianMs", "minMs", "maxMs", "reps", "source", "launchesPerSample"]);
  assert.ok(Number.isInteger(run.timing.launchesPerSample) && run.timing.launchesPerSample >= 1);
  assert.equal(run.timing.source, "timestamp-query");
  assert.ok(run.timing.minMs <= run.timing.medianMs && run.timing.medianMs <= run.timing.maxMs);
  assert.ok(run.gbps > 0);
  assert.equal(run.gflops, null);
  assert.deepEqual(Object.keys(run.baseline), ["name", "medianMs", "speedup"]);
  assert.equal(run.baseline.name, "builtins.add");
  assert.ok(Math.abs(run.baseline.speedup - run.baseline.medianMs / run.timing.medianMs) < 1e-9);
  // After docs/LANGUAGE.md §4's keys: how close the run came to this GPU's measured peaks.
  const s = run.speedOfLight;
  assert.deepEqual(Object.keys(s), ["peaks", "memoryFraction", "computeFraction", "verdict", "message"]);
  assert.ok(s.peaks.memoryGBps > 0 && s.peaks.computeGflops > 0 && s.peaks.launchMs > 0, JSON.stringify(s.peaks));
  assert.ok(["measured", "cached"].includes(s.peaks.source));
  assert.ok(Math.abs(s.memoryFraction - run.gbps / s.peaks.memoryGBps) < 1e-9);
  assert.equal(s.computeFraction, null);
  assert.ok(["memory-bound", "launch-bound"].includes(s.verdict), s.verdict);
  assert.match(s.message, /^(memory-bound: .* is \d+% of this GPU's measured|launch-bound: )/);
  const human = cli(["run", "examples/vector-add.kernel.ts", "--reps", "5"]);
  assert.match(human.stdout, /^  Speed of light: (memory|launch)-bound/m);
  const cpu = await runJson("examples/vector-add.kernel.ts", { cpu: true });
  assert.equal(cpu.code, 0);
  assert.equal(cpu.report.runs[0].speedOfLight, undefined);
});

for (const example of EXAMPLES) {
  test(`${example}: the GPU and --cpu both match the reference`, async () => {
    // Timed (with the baseline), but 3 repetitions: only the match is asserted here.
    const gpu = await runJson(example, { reps: 3 });
    assert.equal(gpu.code, 0, JSON.stringify(gpu.report.diagnostics));
    const cpu = await runJson(example, { cpu: true, reps: 3 });
    assert.equal(cpu.code, 0, JSON.stringify(cpu.report.diagnostics));
    assert.equal(cpu.report.adapter.backend, "cpu");
    for (const r of [...gpu.report.runs, ...cpu.report.runs]) assert.equal(r.correct, true, JSON.stringify(r));
    assert.equal(cpu.report.runs[0].timing.source, "cpu-wall-clock");
    assert.equal(cpu.report.runs[0].size, gpu.report.runs[0].size);
  });
}

test("f16 pointers run on the CPU whatever the GPU offers, rounded like the kernel sees them", () => {
  const { code, report } = json(["run", "test/fixtures/half.kernel.ts", "--cpu"]);
  assert.equal(code, 0, JSON.stringify(report.diagnostics));
  assert.equal(report.runs[0].maxAbsDiff, 0);
});

test("f16 examples: vector add, matmul and attention match float64 references of their f16 inputs on the GPU and --cpu", async () => {
  // Tutorial 06 in f16 at 33 tokens (a partial block of keys and of queries). lavapipe compiles
  // the H200's tiles slowly (the matmul's three configs took 2.5 minutes, attention's 1.5 on an
  // empty shader cache): on the GPU both run 16-wide blocks (--constexpr), and attention only its
  // causal run; the interpreter runs them as written.
  const small = ["--constexpr", "BLOCK_M=16", "--constexpr", "BLOCK_N=16"];
  const cases: [string, string, string[]][] = [
    ["examples/vector-add-f16.kernel.ts", "98433", []],
    ["examples/matmul-f16.kernel.ts", "33", [...small, "--constexpr", "BLOCK_K=16", "--constexpr", "num_warps=1"]],
    ["examples/attention-f16.kernel.ts", "33", [...small, "--run", "attentionCausalF16"]],
  ];
  for (const [file, size, gpuExtra] of cases) {
    for (const device of [[], ["--cpu"]]) {
      // On the GPU spawned: the f16 toggles are asked for when the process opens its device (the note below).
      const { code, report } = device.length === 0
        ? json(["run", file, "--size", size, "--reps", "0", ...gpuExtra])
        : await runJson(file, { size: Number(size), reps: 0, cpu: true });
      assert.equal(code, 0, JSON.stringify(report.diagnostics));
      for (const run of report.runs) {
        assert.equal(run.correct, true, JSON.stringify(run));
        assert.ok(run.maxAbsDiff > 0, "the f32 accumulation differs from float64 somewhere, so the check compared real values");
      }
      // On the GPU the Dawn toggles for f16 were asked for and the report says so (not with --cpu).
      if (device.length === 0) assert.match(report.adapter.note ?? "", /asked Dawn for vulkan_enable_f16_on_nvidia/);
      else assert.equal(report.adapter.note, undefined);
    }
  }
});

test("the f16 toggles: said once in the human output; a toggle named in KERNEL_LAB_DAWN_FLAGS is the user's", () => {
  const human = cli(["run", "examples/vector-add-f16.kernel.ts", "--size", "1000", "--reps", "3"]);
  assert.equal(human.code, 0, human.stderr);
  assert.equal((human.stdout.match(/^  Note: Kernel Lab asked Dawn for vulkan_enable_f16_on_nvidia: this file's kernels use f16/gm) ?? []).length, 1, human.stdout);
  const off = json(["run", "examples/vector-add-f16.kernel.ts", "--size", "1000", "--reps", "3"], { KERNEL_LAB_DAWN_FLAGS: "disable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis" });
  assert.equal(off.code, 0, JSON.stringify(off.report.diagnostics));
  assert.equal(off.report.adapter.note, undefined);
  // An f32 file asks for nothing.
  const f32 = json(["run", "examples/vector-add.kernel.ts", "--reps", "3"]);
  assert.equal(f32.report.adapter.note, undefined);
});

test("--sweep gives one entry per size; --size picks one", async () => {
  const sweep = await runJson("examples/int-ops.kernel.ts", { sweep: true, reps: 10 });
  assert.equal(sweep.code, 0);
  assert.deepEqual(sweep.report.runs.map((r: { size: number }) => r.size), [10_007, 300, 65_539, 262_147]);
  const one = await runJson("examples/saxpy.kernel.ts", { size: 777, cpu: true });
  assert.equal(one.code, 0);
  assert.deepEqual(one.report.runs.map((r: { size: number; grid: number[] }) => [r.size, r.grid]), [[777, [2, 1, 1]]]);
});

test("a wrong kernel: Match: false, exit 1, the first mismatch", async () => {
  const human = cli(["run", "test/fixtures/mismatch.kernel.ts"]);
  assert.equal(human.code, 1);
  assert.match(human.stdout, /^  Match: false$/m);
  assert.match(human.stdout, /^  First mismatch: out_ptr\[896\] = NaN, expected [\d.e-]+ — no program stored it \(104 elements differ\)$/m);
  for (const cpu of [false, true]) {
    const { code, report } = await runJson("test/fixtures/mismatch.kernel.ts", { cpu });
    assert.equal(code, 1);
    const [tail, shifted] = report.runs;
    assert.equal(tail.correct, false);
    assert.equal(tail.mismatches, 104);
    assert.equal(tail.firstMismatch.output, "out_ptr");
    assert.equal(tail.firstMismatch.index, 896);
    assert.equal(tail.firstMismatch.got, null, "NaN serialises as null");
    assert.equal(typeof tail.firstMismatch.expected, "number");
    assert.equal(shifted.correct, false);
    assert.equal(shifted.firstMismatch.index, 0);
  }
});

test("an unmasked tail: --cpu reports the out-of-bounds load at its line, exit 4", () => {
  const r = cli(["run", "test/fixtures/unmasked.kernel.ts", "--cpu"]);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /^test\/fixtures\/unmasked\.kernel\.ts:8:31 - error KL3101: Run 'unmasked': unmasked_kernel: program \(7,0,0\), lane 104 loads x_ptr\[1000\] but x_ptr has 1000 elements/m);
});

test("an unmasked tail on the GPU: the instrumented correctness launch reports the load, exit 4", () => {
  const r = cli(["run", "test/fixtures/unmasked.kernel.ts"]);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /^test\/fixtures\/unmasked\.kernel\.ts:8:31 - error KL3101: Run 'unmasked': unmasked_kernel: program \(7,0,0\), lane 104 loads x_ptr\[1000\] but x_ptr has 1000 elements/m);
});

test("the tutorial ports (softmax, layer norm, matmul, 2-D tiles, row scans) match their references over their sweeps", async () => {
  for (const example of ["softmax", "layer-norm", "matmul", "matrix-2d", "cumsum"]) {
    // Checked, not timed (--reps 0), but matmul: its autotuner checks each of its configs.
    const { code, report } = await runJson(`examples/${example}.kernel.ts`, { sweep: true, reps: example === "matmul" ? 3 : 0 });
    assert.equal(code, 0, `${example}: ${JSON.stringify(report.diagnostics)}`);
    assert.ok(report.runs.length >= 4, `${example}: ${report.runs.length} runs`);
    for (const run of report.runs) assert.equal(run.correct, true, `${example} ${run.name} size ${run.size}: ${JSON.stringify(run.firstMismatch)}`);
  }
});

test("an unsupported construct: one exact diagnostic line, exit 2", () => {
  const check = cli(["check", "test/fixtures/unsupported.kernel.ts"]);
  assert.equal(check.code, 2);
  const lines = check.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1);
  assert.match(lines[0], /^test\/fixtures\/unsupported\.kernel\.ts:8:3 - error KL1003: .*while/);
  const run = json(["run", "test/fixtures/unsupported.kernel.ts"]);
  assert.equal(run.code, 2);
  assert.deepEqual(run.report.runs, []);
  const [d] = run.report.diagnostics;
  assert.deepEqual([d.file, d.line, d.column, d.severity, d.code], ["test/fixtures/unsupported.kernel.ts", 8, 3, "error", "KL1003"]);
  assert.deepEqual(Object.keys(d).slice(0, 8), ["file", "line", "column", "endLine", "endColumn", "severity", "code", "message"]);
});

test("run reports a kernel's diagnostics as check does: each once, in file order, whatever the calls and specialisations", async () => {
  const file = "test/fixtures/repeated-diagnostics.kernel.ts";
  const check = json(["check", file]);
  assert.equal(check.code, 2);
  assert.deepEqual(check.report.diagnostics.map((d: { line: number; code: string }) => [d.line, d.code]), [[8, "KL1005"], [16, "KL1005"]]);
  for (const cpu of [false, true]) {
    const run = await runJson(file, { cpu });
    assert.equal(run.code, 2);
    assert.deepEqual(run.report.diagnostics, check.report.diagnostics, `cpu: ${cpu}`);
  }
  const human = cli(["run", file, "--cpu"]);
  assert.deepEqual(human.stderr.trimEnd().split("\n"), cli(["check", file]).stdout.trimEnd().split("\n"));
});

test("a bad run definition: its KL3xxx message, exit 4", () => {
  const r = cli(["run", "test/fixtures/bad-run.kernel.ts"]);
  assert.equal(r.code, 4);
  assert.match(r.stderr, /^test\/fixtures\/bad-run\.kernel\.ts:10:14 - error KL3017: Run 'missingArg', `args`: no value for kernel parameter 'n' \(i32\)\. Add `n: a number`\.$/m);
  const bundle = json(["run", "test/fixtures/bad-import.kernel.ts"]);
  assert.equal(bundle.code, 4);
  assert.equal(bundle.report.diagnostics[0].code, "KL3001");
  const unknown = cli(["run", "examples/vector-add.kernel.ts", "--run", "nope"]);
  assert.equal(unknown.code, 4);
  assert.match(unknown.stderr, /KL3004: No run named 'nope' in this file; its runs are: vectorAdd\./);
});

test("no GPU adapter: exit 3 and how to get one", () => {
  const r = cli(["run", "examples/vector-add.kernel.ts"], { VK_ICD_FILENAMES: "/nonexistent" });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /kernel-lab: No GPU adapter found.*Vulkan driver.*lavapipe/);
  const j = json(["run", "examples/vector-add.kernel.ts"], { VK_ICD_FILENAMES: "/nonexistent" });
  assert.equal(j.code, 3);
  assert.equal(j.report.adapter, null);
  assert.equal(j.report.diagnostics[0].code, "KL4001");
  // --cpu needs no adapter.
  assert.equal(cli(["run", "examples/vector-add.kernel.ts", "--cpu"], { VK_ICD_FILENAMES: "/nonexistent" }).code, 0);
});

test("wgsl prints the generated WGSL", () => {
  const r = cli(["wgsl", "examples/vector-add.kernel.ts"]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /@compute @workgroup_size\(\d+\)/);
  assert.match(r.stdout, /BLOCK_SIZE=1024/);
  const small = cli(["wgsl", "examples/vector-add.kernel.ts", "--kernel", "add_kernel", "--constexpr", "BLOCK_SIZE=128"]);
  assert.equal(small.code, 0, small.stderr);
  assert.match(small.stdout, /BLOCK_SIZE=128/);
  assert.equal(cli(["wgsl", "examples/vector-add.kernel.ts", "--kernel", "nope"]).code, 4);
});

test("check prints nothing and exits 0 on the examples", () => {
  const r = cli(["check", ...EXAMPLES]);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stdout, "");
});

test("--help, --version, bad usage", () => {
  const help = cli(["--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /kernel-lab run FILE|run FILE/);
  const version = cli(["--version"]);
  assert.equal(version.stdout.trim(), require("../../package.json").version);
  const bad = cli(["run"]);
  assert.equal(bad.code, 4);
  assert.match(bad.stderr, /^kernel-lab: Usage: kernel-lab run FILE/);
});

test("the atomics example (histogram, float sum) matches over its sweep on the GPU and with --cpu, and checks clean", async () => {
  assert.equal(cli(["check", "examples/histogram.kernel.ts"]).code, 0);
  for (const backend of [[], ["--cpu"]]) {
    const { code, report } = await runJson("examples/histogram.kernel.ts", { sweep: true, reps: 0, cpu: backend.length > 0 });
    assert.equal(code, 0, `${backend}: ${JSON.stringify(report.diagnostics)}`);
    assert.deepEqual(report.runs.map((r: { name: string }) => r.name), ["histogram", "histogram", "floatSum", "floatSum"]); // in the order the file exports them
    for (const run of report.runs) assert.equal(run.correct, true, `${backend} ${run.name} size ${run.size}: ${JSON.stringify(run.firstMismatch)}`);
  }
});

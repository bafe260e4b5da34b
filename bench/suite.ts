// The benchmark suite: every tutorial kernel compiled by Kernel Lab, at the sizes Triton's
// tutorials measure, with each candidate configuration, next to the package's built-ins.
// The float32 cases are tutorial-cases.ts's, the f16 ones f16-cases.ts's; this file picks them and runs them.
// Each case is checked against a CPU reference first (sampled for matmul), then timed with GPU
// timestamps over input sets rotated so the working set exceeds the L2 cache.
//
//   node bench/dist/suite.js [--quick] [--sweep] [--only NAME[,NAME…]] [--defaults-only] [--tune-codegen] [--configs N] [--more-configs JSON] [--targets JSON] [--edits JSON] [--hand REGEX [--one-pass]] [--out FILE [--append]]
//
// Cases marked `explicit` (timing isolations: f16-cases.ts softmaxIsolationF16) run only when --only names them.
//
// --emulate-matrices: compile as for subgroup matrices, emulated (lavapipe: the matrix knobs checked).
// --tune-codegen: instead of each case's hand-picked `targets`, every setting of the code
// generator's knobs the kernel uses, as `kernel-lab run --tune-codegen` tries them (knob-variants.ts),
// on the case's first `targetConfigs` configs; a summary line per case gives its best at the default
// knobs and its best with them.
//
// --quick runs tiny sizes, timed briefly (a smoke test on lavapipe). --sweep runs the size sweep of issue 13
// item 5 instead (vector add 2^12 … 2^28, softmax 4096 rows × 256 … 16384, square matmul 256 …
// 4096), a few variants each; bench/plot.mjs draws it next to torch_bench.py --sweep. bench/run-h200.sh runs the full suite on the
// H200 next to PyTorch and Triton (bench/torch_bench.py) and prints the table of ratios.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compileKernel, parseKernelFile, specializationFor } from "../src/compile";
import { acquireGpu, launch, timeLaunches } from "../src/runtime";
import type { Gpu, LaunchArgs } from "../src/runtime";
import { BUILTINS } from "../src/builtins";
import type { KernelProgram } from "../src/runtime/pipelines";
import { COLD, coldLaunchMs } from "./cold";
import { checkOutputs, measurementLine, poison, release, repositoryRoot, rotations, upload, type Args, type Case, type Check, type Measurement } from "./case";
import { asWrittenAttention, asWrittenMatmul, attention, layerNorm, matmul, softmax, vectorAdd } from "./tutorial-cases";
import { dropout } from "./dropout-case";
import { layerNormBackward } from "./layer-norm-backward-case";
import { runSequenceCase, WARM, type SequenceCase } from "./sequence";
import { f16Cases } from "./f16-cases";
import { caseVariants, SeenWgsl, variantLabel } from "./knob-variants";
import { applyEdits } from "./wgsl-edits";
import { handPrograms, ONE_PASS_SAMPLES, timeOnePass, type HandProgram } from "./hand-in-suite";
import type { CodegenOptions, Target } from "../src/ir/target";

const root = repositoryRoot(__dirname);
const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
if (quick) Object.assign(COLD, { samples: 3, flushBytes: 16 << 20 });
if (quick) Object.assign(WARM, { samples: 5, firstWarmupMs: 200 });
/** Repetitions timed at most per variant: --quick's figures (lavapipe) only show that timing works. */
const MAX_REPS = quick ? 20 : 200;
const sweep = argv.includes("--sweep");
/** --only NAME[,NAME…]: the cases whose names start with one of them. */
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1].split(",") : undefined;
const selected = (name: string) => !only || only.some((prefix) => name.startsWith(prefix));
const outFile = argv.includes("--out") ? argv[argv.indexOf("--out") + 1] : undefined;
const append = argv.includes("--append");
// --defaults-only: each case's configs with the default compiler target, not its `targets` too.
const defaultsOnly = argv.includes("--defaults-only");
const tuneCodegen = argv.includes("--tune-codegen");
// --emulate-matrices (lavapipe, with --quick): compile as for an adapter with f16 16×16×16 subgroup
// matrices, each emulated in private arrays (CodegenOptions.subgroupMatrixEmulation), so the
// matrix knobs of --tune-codegen run and are checked here before an H200 times them.
const emulateMatrices = argv.includes("--emulate-matrices");
const EMULATED_CONFIGS = [{ componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 }];
/** The target cases compile for, and the options under every variant's. */
function compiling(gpu: Gpu): { target: Target; base: CodegenOptions } {
  if (!emulateMatrices) return { target: gpu.target, base: {} };
  return { target: { ...gpu.target, subgroupMatrixConfigs: EMULATED_CONFIGS }, base: { subgroupMatrixEmulation: true } };
}
// --f32-best: f32 matmul and attention with the configs that led in the 2026-12-03 session-5 run only
// (RESULTS.md): their WGSL is unchanged since, so the rows are re-measured beside torch quickly.
const f32Best = argv.includes("--f32-best");
// --configs N: each case's first N configs only (and its targets on those): one lease's call for the leaders.
const firstConfigs = argv.includes("--configs") ? Number(argv[argv.indexOf("--configs") + 1]) : undefined;
// --more-configs JSON: these configs after each selected case's own (after --configs cuts them), e.g.
// '[{"BLOCK_M":64,"BLOCK_N":64,"BLOCK_K":64,"num_warps":4}]' for 1024³'s probe leader's shape.
const moreConfigs = argv.includes("--more-configs") ? (JSON.parse(argv[argv.indexOf("--more-configs") + 1]) as Case["configs"]) : [];
// --edits JSON: each variant timed once per list of WGSL edits (bench/wgsl-edits.ts), e.g. '[[],["dead"],["no-c-staging"]]'.
const editLists = argv.includes("--edits") ? (JSON.parse(argv[argv.indexOf("--edits") + 1]) as string[][]) : [[]];
// --hand REGEX: at f16 matmul cases of cube sizes, the hand-written kernels (mma-kernels.ts) whose names match,
// timed in this process through this harness before the case's variants and again after them (hand-in-suite.ts).
const handMatch = argv.includes("--hand") ? new RegExp(argv[argv.indexOf("--hand") + 1]) : undefined;
// --one-pass (with --hand): each hand-written kernel and each unedited generated variant also timed as mma-probe times
// (hand-in-suite.ts timeOnePass: a sample's dispatches in one pass, one input set), a row of its own marked so.
const onePass = argv.includes("--one-pass");
// --targets JSON: these code-generation settings instead of each case's own `targets` (e.g. '[{"halfLoadForm":"tile"}]').
const targetsArg = argv.includes("--targets") ? (JSON.parse(argv[argv.indexOf("--targets") + 1]) as Case["targets"]) : undefined;
const F32_BEST: Record<string, Record<string, number>> = {
  "matmul-1024x1024x1024": { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 },
  "matmul-4096x4096x4096": { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32 },
  "attention-4x32x4096x64": { BLOCK_M: 128, BLOCK_N: 32, BLOCK_D: 64, num_warps: 8 },
  "attention-4x32x4096x64-causal": { BLOCK_M: 128, BLOCK_N: 32, BLOCK_D: 64, num_warps: 8 },
};

const cases: Case[] = sweep
  ? [
      ...[12, 14, 16, 18, 20, 22, 24, 26, 28].map((e) => vectorAdd(2 ** e, true)),
      ...[256, 512, 1024, 2048, 4096, 8192, 16384].map((c) => softmax(4096, c, true)),
      ...[256, 512, 1024, 2048, 4096].map((s) => matmul(s, s, s, true)),
    ]
  : quick
  ? [vectorAdd(2 ** 14), softmax(64, 1000), layerNorm(64, 1000), matmul(96, 80, 72), attention(1, 2, 100, 64, false, quick), attention(1, 2, 100, 64, true, quick), asWrittenMatmul(96), asWrittenAttention(1, 2, 100, 64, true, quick)]
  : [
      vectorAdd(2 ** 20), vectorAdd(2 ** 24), vectorAdd(2 ** 26),
      softmax(4096, 1024), softmax(4096, 4096), softmax(4096, 16384),
      layerNorm(4096, 1024), layerNorm(4096, 4096), layerNorm(4096, 16384),
      matmul(1024, 1024, 1024), matmul(4096, 4096, 4096),
      attention(4, 32, 4096, 64, false, quick), attention(4, 32, 4096, 64, true, quick),
      asWrittenMatmul(1024), asWrittenMatmul(4096),
      asWrittenAttention(4, 32, 4096, 64, false, quick), asWrittenAttention(4, 32, 4096, 64, true, quick),
    ];
// Half precision (f16-cases.ts), after the rest; not part of the sweep.
if (!sweep) cases.push(...f16Cases(quick));

// Issue 13 item 4: the language's new kernels against Triton's tutorials 04 (dropout) and 05
// (layer-norm backward, two launches: bench/sequence.ts), at the sizes their benchmarks use.
cases.push(...(sweep ? [] : quick ? [dropout(10_007)] : [dropout(2 ** 24)]));
const sequenceCases: SequenceCase[] = sweep ? [] : quick ? [layerNormBackward(67, 300)] : [1024, 4096, 8192].map((n) => layerNormBackward(4096, n));
async function runCase(gpu: Gpu, c: Case, results: Measurement[]): Promise<void> {
  if (f32Best && F32_BEST[c.name]) {
    const best = F32_BEST[c.name];
    c = { ...c, configs: c.configs.filter((k) => Object.entries(best).every(([key, v]) => k[key] === v) && Object.keys(k).every((key) => key in best || key === "HEAD_DIM" || key === "IS_CAUSAL")) };
  }
  if (firstConfigs !== undefined) c = { ...c, configs: c.configs.slice(0, firstConfigs), targetConfigs: Math.min(c.targetConfigs ?? firstConfigs, firstConfigs) };
  if (moreConfigs.length > 0) c = { ...c, configs: [...c.configs, ...moreConfigs], targetConfigs: (c.targetConfigs ?? c.configs.length) + moreConfigs.length };
  if (targetsArg) c = { ...c, targets: targetsArg };
  const file = c.file ?? join("examples", `${c.example}.kernel.ts`);
  const read = readFileSync(join(root, file), "utf8");
  const text = c.sourceEdit ? c.sourceEdit(read) : read;
  const parsed = parseKernelFile(file, text);
  const kernel = parsed.kernels.find((k) => k.name === c.kernel)!;
  const hostArgs = c.args();
  const checks = c.check(hostArgs);
  const copies = c.copies ?? rotations(c.bytes ?? 0);
  const sets = [await upload(gpu, hostArgs)];
  for (let i = 1; i < copies; i++) sets.push(await upload(gpu, c.args()));
  try {
    // The CPU reference above left the GPU idle for seconds: bring its clocks up before timing.
    let best: { m: Measurement; program: KernelProgram; grid: number[] } | undefined;
    const specialization = specializationFor(kernel, hostArgs);
    const { target: compileTarget, base } = compiling(gpu);
    const heater = compileKernel(kernel, c.configs[0], compileTarget, specialization, base).kernel;
    // --quick (lavapipe has no clocks to raise): a short one.
    if (heater) await timeLaunches(gpu, heater, c.grid(c.configs[0]), sets, { warmupMs: quick ? 200 : 1500, minReps: 1, maxReps: 1 });
    const dims = /^matmul-f16-(\d+)x(\d+)x(\d+)$/.exec(c.name)?.map(Number);
    const hand = handMatch && heater && dims ? handPrograms(heater, dims[1], dims[2], dims[3], handMatch, emulateMatrices) : [];
    const timeHand = async (when: string) => {
      for (const h of hand) await runHand(gpu, c, h, when, sets, hostArgs, checks, results);
    };
    await timeHand("before");
    const variants = caseVariants(c, kernel, compileTarget, specialization, { defaultsOnly, tuneCodegen, base });
    const seen = new SeenWgsl();
    const defaults = new Map<string, Measurement>();
    let identical = 0;
    for (const v of variants) {
      const { constexprs, target } = v;
      const firstOfConfig = variants.find((x) => x.constexprs === constexprs);
      const written = variantLabel(v, firstOfConfig?.knobs);
      const compiled = compileKernel(kernel, constexprs, compileTarget, specialization, { ...base, ...target });
      if (!compiled.kernel) {
        console.error(`${c.name} ${written}: ${compiled.diagnostics.map((d) => d.message).join("; ")}`);
        continue;
      }
      for (const edits of editLists) {
        const variant = edits.length ? `${written} edit=${edits.join("+")}` : written;
        let program = compiled.kernel;
        try {
          if (edits.length) program = { ...program, wgsl: applyEdits(program.wgsl, edits) };
        } catch (error) {
          console.error(`${c.name} ${variant}: ${(error as Error).message}`);
          continue;
        }
        // A knob setting (or a case's target) emitting the code already timed for this config is the same candidate.
        if (!seen.first(v, program)) {
          identical++;
          if (!v.knobs) console.log(`${c.name} ${variant}: the WGSL of a variant already timed, not timed again`);
          continue;
        }
        const grid = c.grid(constexprs);
        try {
          await poison(gpu, sets[0], hostArgs, c.outputs);
          await launch(gpu, program, grid, sets[0]);
          const { correct, rel, maxAbs } = await checkOutputs(gpu, sets[0], hostArgs, checks, c.tolerance);
          // Knob settings are many: each timed for less, as the autotuner times its candidates.
          const budgetMs = v.knobs && v !== firstOfConfig ? 400 : 1500;
          const t = await timeLaunches(gpu, program, grid, sets, { warmup: c.minReps ? 1 : 5, minReps: Math.min(c.minReps ?? 20, MAX_REPS), maxReps: MAX_REPS, budgetMs });
          const m: Measurement = {
            case: c.name, shape: c.shape, variant, correct, relError: rel, maxAbsDiff: maxAbs,
            medianMs: t.medianMs, minMs: t.minMs, maxMs: t.maxMs, reps: t.reps, workgroupSize: program.abi.workgroupSize,
            ...(v.knobs ? { knobs: { ...v.knobs } } : Object.keys(v.target).length ? { target: { ...v.target } } : {}),
            ...(c.bytes ? { gbps: c.bytes / (t.medianMs * 1e6) } : {}),
            ...(c.flops ? { tflops: c.flops / (t.medianMs * 1e9) } : {}),
          };
          results.push(m);
          // An edited kernel is an isolation, never a case's default or its best.
          if (correct && v === firstOfConfig && !edits.length) defaults.set(JSON.stringify(constexprs), m);
          if (correct && !edits.length && (!best || m.medianMs < best.m.medianMs)) best = { m, program, grid };
          console.log(measurementLine(m));
          if (onePass && correct && !edits.length && hand.length > 0) await timedOnePass(gpu, c, m, program, grid, sets[0], results);
        } catch (error) {
          console.error(`${c.name} ${variant}: ${(error as Error).message}`);
        }
      }
    }
    await timeHand("after");
    if (tuneCodegen) console.log(knobSummary(c, [...defaults.values()], best?.m, identical));
    // The fastest variant again with a cold L2 before each launch, as do_bench times PyTorch and Triton.
    if (best && c.bytes) {
      const full = [best.grid[0], best.grid[1] ?? 1, best.grid[2] ?? 1] as [number, number, number];
      best.m.coldMs = await coldLaunchMs(gpu, best.program, full, sets);
      best.m.coldGbps = c.bytes / (best.m.coldMs * 1e6);
      console.log(`${c.name.padEnd(22)} ${`${best.m.variant}, L2 flushed before each launch`.padEnd(48)} ${best.m.coldMs.toFixed(4)} ms  ${best.m.coldGbps.toFixed(1)} GB/s`);
    }
    if (c.baseline) {
      const builtin = BUILTINS[c.baseline];
      const n = (hostArgs[c.outputs[0]] as Float32Array).length;
      const bsets = sets.map((s) => ({ buffers: { a: s.buffers.x_ptr, b: s.buffers.y_ptr, out: s.buffers.output_ptr }, scalars: { n } }));
      const t = await timeLaunches(gpu, builtin.program(n), builtin.grid(n), bsets, { warmup: 5, minReps: 20, maxReps: MAX_REPS, budgetMs: 1500 });
      results.push({ case: c.name, shape: c.shape, variant: c.baseline, correct: true, relError: 0, maxAbsDiff: 0, medianMs: t.medianMs, minMs: t.minMs, maxMs: t.maxMs, reps: t.reps, gbps: c.bytes! / (t.medianMs * 1e6) });
      console.log(`${c.name.padEnd(22)} ${c.baseline.padEnd(40)}         ${t.medianMs.toFixed(4)} ms  ${(c.bytes! / (t.medianMs * 1e6)).toFixed(1)} GB/s`);
    }
  } finally {
    release(sets);
  }
}

/** One hand-written kernel (--hand) checked and timed as runCase checks and times a variant: its row is never a case's best. */
async function runHand(gpu: Gpu, c: Case, h: HandProgram, when: string, sets: LaunchArgs[], hostArgs: Args, checks: Check[], results: Measurement[]): Promise<void> {
  const variant = `hand: ${h.name} (${when})`;
  try {
    await poison(gpu, sets[0], hostArgs, c.outputs);
    await launch(gpu, h.program, h.grid, sets[0]);
    const { correct, rel, maxAbs } = await checkOutputs(gpu, sets[0], hostArgs, checks, c.tolerance);
    const t = await timeLaunches(gpu, h.program, h.grid, sets, { warmup: c.minReps ? 1 : 5, minReps: Math.min(c.minReps ?? 20, MAX_REPS), maxReps: MAX_REPS, budgetMs: 1500 });
    const m: Measurement = {
      case: c.name, shape: c.shape, variant, correct, relError: rel, maxAbsDiff: maxAbs, hand: true,
      medianMs: t.medianMs, minMs: t.minMs, maxMs: t.maxMs, reps: t.reps, workgroupSize: h.workgroupSize,
      ...(c.flops ? { tflops: c.flops / (t.medianMs * 1e9) } : {}),
    };
    results.push(m);
    console.log(measurementLine(m));
    if (onePass && correct) await timedOnePass(gpu, c, m, h.program, h.grid, sets[0], results);
  } catch (error) {
    console.error(`${c.name} ${variant}: ${(error as Error).message}`);
  }
}

/** `m`'s kernel again with --one-pass (mma-probe's harness, hand-in-suite.ts timeOnePass): a row `… [one pass]`, never a case's best (`onePass`). */
async function timedOnePass(gpu: Gpu, c: Case, m: Measurement, program: KernelProgram, grid: number[], set: LaunchArgs, results: Measurement[]): Promise<void> {
  const ms = await timeOnePass(gpu, program, [grid[0] * (grid[1] ?? 1) * (grid[2] ?? 1)], set);
  const one: Measurement = { ...m, variant: `${m.variant} [one pass]`, onePass: true, medianMs: ms, minMs: ms, maxMs: ms, reps: ONE_PASS_SAMPLES, ...(c.flops ? { tflops: c.flops / (ms * 1e9) } : {}) };
  results.push(one);
  console.log(measurementLine(one));
}

/** With --tune-codegen, per case: the best at the default knobs beside the best with them, and the settings skipped as identical. */
function knobSummary(c: Case, defaults: Measurement[], best: Measurement | undefined, identical: number): string {
  const fastest = defaults.sort((a, b) => a.medianMs - b.medianMs)[0];
  const rate = (m: Measurement) => (m.tflops ? `${m.tflops.toFixed(2)} TFLOP/s` : m.gbps ? `${m.gbps.toFixed(1)} GB/s` : `${m.medianMs.toFixed(4)} ms`);
  const parts = [
    fastest ? `default knobs ${rate(fastest)} (${fastest.variant})` : "default knobs: nothing correct",
    best ? `with knobs ${rate(best)} (${best.variant})` : "with knobs: nothing correct",
    `${identical} setting(s) gave WGSL already timed`,
  ];
  return `${c.name.padEnd(22)} KNOBS ${parts.join("; ")}`;
}

async function main(): Promise<void> {
  // Opened as a file without f16 opens it (no Dawn toggles); the f16 cases reopen it as a file
  // with f16 kernels does (harness: runtime/dawn-toggles.ts), so the f32 rows time what users get.
  let gpu = await acquireGpu();
  console.log(`adapter: ${gpu.adapter.vendor} ${gpu.adapter.device} (${gpu.adapter.backend}) ${gpu.adapter.description}`);
  const results: Measurement[] = [];
  // --append: the out file's earlier results kept before this run's (one file for several calls).
  const earlier: Measurement[] = append && outFile && existsSync(outFile) ? (JSON.parse(readFileSync(outFile, "utf8")) as { results: Measurement[] }).results : [];
  // Written after every case, so that a run stopped at a time limit keeps what it measured.
  const save = () => {
    if (outFile) writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), adapter: gpu.adapter, results: [...earlier, ...results] }, null, 2));
  };
  for (const c of cases) {
    if (!selected(c.name) || (c.explicit && !only)) continue;
    if (c.requires === "shader-f16") {
      const before = gpu;
      gpu = await acquireGpu({ f16: true, f16Dot: true });
      if (gpu !== before) console.log(`f16 cases: the GPU reopened with Dawn toggles ${gpu.dawnToggles.join(", ") || "(none needed)"}; shader-f16 ${gpu.target.shaderF16}, f16 subgroup-matrix configs ${(gpu.target.subgroupMatrixConfigs ?? []).filter((m) => m.componentType === "f16").map((m) => `${m.M}×${m.N}×${m.K}→${m.resultComponentType}`).join(" ") || "none"}`);
      if (!gpu.target.shaderF16) {
        console.log(`${c.name.padEnd(22)} skipped: the adapter offers no shader-f16, not even with Dawn's toggles (${gpu.dawnToggles.join(", ") || "none asked for: KERNEL_LAB_DAWN_FLAGS names them"})`);
        continue;
      }
    }
    await runCase(gpu, c, results);
    save();
  }
  for (const c of sequenceCases) {
    if (!selected(c.name)) continue;
    await runSequenceCase(gpu, root, c, results);
    save();
  }
  save();
  const bad = results.filter((r) => !r.correct);
  if (bad.length > 0) {
    console.error(`${bad.length} measurement(s) did not match the reference`);
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(4);
});

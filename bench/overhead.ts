// Start-up and per-launch overhead (bench/NOTES.md §7, bench/RESULTS.md "Overhead").
//
//   node bench/build.mjs && node bench/dist/overhead.js [--reps N] [--only cli|launch]
//   npm run bench:overhead
//
// cli:    spawns `node bin/kernel-lab.js run examples/vector-add.kernel.ts --debug` N times (and
//         N times with --json) and reports medians of the wall time from spawn to the first line
//         on stdout and to exit, and of each step the CLI traces on stderr (`--debug` prints the
//         ms since the process started at every step, src/harness/trace.ts).
// launch: in this process, the runtime's launch path for a 1024-element builtins.add: launch()
//         awaited one at a time, launch() then readBuffer(), many launch() calls queued at once,
//         and Dawn's own floor (a prepared dispatch submitted and awaited, nothing else).

import { spawn } from "node:child_process";
import { join } from "node:path";
import { repositoryRoot } from "./case";
import { BUILTINS } from "../src/builtins";
import { acquireGpu, createStorageBuffer, getPipeline, launch, readBuffer, type Gpu, type LaunchArgs } from "../src/runtime";
import { checkGrid, encodeDispatch, prepareLaunch } from "../src/runtime/launch";

const root = repositoryRoot(__dirname);
const argv = process.argv.slice(2);
const reps = argv.includes("--reps") ? Number(argv[argv.indexOf("--reps") + 1]) : 7;
const only = argv.includes("--only") ? argv[argv.indexOf("--only") + 1] : undefined;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}
const median = (xs: number[]) => quantile(xs, 0.5);
const ms = (x: number) => (x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(3));

interface CliRun {
  firstLineMs: number;
  exitMs: number;
  /** Each traced step and its ms since the child process started, in order. */
  steps: [string, number][];
}

/** One `kernel-lab run` process, timed from spawn. */
function runCli(extra: string[]): Promise<CliRun> {
  const args = ["bin/kernel-lab.js", "run", "examples/vector-add.kernel.ts", "--debug", ...extra];
  const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let firstLineMs = NaN;
    let stderr = "";
    const child = spawn(process.execPath, args, { cwd: root, env });
    child.stdout.on("data", () => {
      if (Number.isNaN(firstLineMs)) firstLineMs = performance.now() - start;
    });
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      const exitMs = performance.now() - start;
      if (code !== 0) return reject(new Error(`kernel-lab exited with ${code}:\n${stderr}`));
      const steps = [...stderr.matchAll(/^kernel-lab: ([\d.]+) ms: (.*)$/gm)].map((m): [string, number] => [m[2], Number(m[1])]);
      resolve({ firstLineMs, exitMs, steps });
    });
  });
}

async function cliOverhead(): Promise<void> {
  console.log(`cli: node bin/kernel-lab.js run examples/vector-add.kernel.ts, ${reps} processes each, medians (ms)`);
  await runCli([]); // an uncounted first run: file-system caches
  const human: CliRun[] = [];
  const json: CliRun[] = [];
  for (let i = 0; i < reps; i++) {
    human.push(await runCli([]));
    json.push(await runCli(["--json"]));
  }
  const row = (name: string, xs: number[]) => console.log(`  ${name.padEnd(44)} ${ms(median(xs)).padStart(7)}  (min ${ms(Math.min(...xs))}, max ${ms(Math.max(...xs))})`);
  row("spawn → first line on stdout", human.map((r) => r.firstLineMs));
  row("spawn → exit", human.map((r) => r.exitMs));
  row("spawn → exit, --json", json.map((r) => r.exitMs));

  // Steps by name (a step that repeats, like "Timing …", keeps its order of appearance).
  console.log("  steps of the human run (ms since the process started, and since the step before):");
  const names = human[0].steps.map(([name], i) => `${i}:${name}`);
  let before = 0;
  for (const [i, key] of names.entries()) {
    const at = median(human.map((r) => r.steps[i]?.[1] ?? NaN).filter((x) => !Number.isNaN(x)));
    console.log(`    ${ms(at).padStart(7)}  +${ms(at - before).padStart(6)}  ${key.slice(key.indexOf(":") + 1)}`);
    before = at;
  }
  console.log(`    ${ms(median(human.map((r) => r.exitMs))).padStart(7)}  exit (measured from spawn)`);
}

async function timeEach(count: number, body: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await body();
    times.push(performance.now() - start);
  }
  return times;
}

async function launchOverhead(): Promise<void> {
  const gpu: Gpu = await acquireGpu();
  const n = 1024;
  const add = BUILTINS["builtins.add"];
  const program = add.program(n);
  const grid = add.grid(n);
  const random = () => Float32Array.from({ length: n }, () => Math.random());
  const args: LaunchArgs = {
    buffers: {
      a: await createStorageBuffer(gpu, random(), "a"),
      b: await createStorageBuffer(gpu, random(), "b"),
      out: await createStorageBuffer(gpu, new Float32Array(n), "out"),
    },
    scalars: { n },
  };
  console.log(`launch: builtins.add of ${n} f32, grid [${grid.join(", ")}], adapter ${gpu.adapter.vendor} ${gpu.adapter.device}`);
  await timeEach(50, () => launch(gpu, program, grid, args)); // warm: pipeline compiled, caches

  const row = (name: string, xs: number[]) =>
    console.log(`  ${name.padEnd(44)} median ${ms(median(xs)).padStart(6)} ms  p10 ${ms(quantile(xs, 0.1))}  p90 ${ms(quantile(xs, 0.9))}`);
  row("launch(), awaited one at a time", await timeEach(500, () => launch(gpu, program, grid, args)));
  row("launch() + readBuffer(out)", await timeEach(200, async () => {
    await launch(gpu, program, grid, args);
    await readBuffer(gpu, args.buffers.out, "f32", n);
  }));
  const queued: number[] = [];
  for (let r = 0; r < 5; r++) {
    const count = 1000;
    const start = performance.now();
    await Promise.all(Array.from({ length: count }, () => launch(gpu, program, grid, args)));
    queued.push(count / ((performance.now() - start) / 1000));
  }
  console.log(`  ${"launch() × 1000 queued at once".padEnd(44)} ${median(queued).toFixed(0)} launches/s (median of 5)`);

  // Dawn's floor: the same dispatch prepared once, submitted and awaited; no error scopes.
  const prepared = prepareLaunch(gpu, await getPipeline(gpu, program), checkGrid("add", grid, gpu.limits.maxComputeWorkgroupsPerDimension), args);
  const submit = () => {
    const encoder = gpu.device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    encodeDispatch(pass, prepared);
    pass.end();
    gpu.device.queue.submit([encoder.finish()]);
  };
  row("floor: submit + onSubmittedWorkDone", await timeEach(500, () => (submit(), gpu.device.queue.onSubmittedWorkDone())));
  const start = performance.now();
  for (let i = 0; i < 1000; i++) submit();
  await gpu.device.queue.onSubmittedWorkDone();
  console.log(`  ${"floor: 1000 submits, one wait".padEnd(44)} ${(1000 / ((performance.now() - start) / 1000)).toFixed(0)} launches/s`);
  prepared.uniforms.destroy();
  for (const b of Object.values(args.buffers)) b.destroy();
}

async function main(): Promise<void> {
  console.log(`${new Date().toISOString()}  node ${process.version}  ${process.platform}-${process.arch}`);
  if (only !== "launch") await cliOverhead();
  if (only !== "cli") await launchOverhead();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

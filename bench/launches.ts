// Launch overhead (issue 13 item 3): 1000 launches of a 4096-element kernel in sequence, as a
// model's decode step does, and where Kernel Lab's runtime spends the time (bench/NOTES.md §11,
// bench/RESULTS.md "Launch overhead"). The PyTorch side is bench/torch_launches.py.
//
//   node bench/build.mjs && node bench/dist/launches.js [--launches N] [--rounds R] [--out FILE]
//
// The kernel is builtins.add on 4096 f32 (out = a + b, 4 workgroups); every launch writes the same
// output, so on the GPU each waits for the one before. Every figure is wall-clock time per launch:
// the median over R rounds of (time for N launches, until the GPU finished) / N. Checked first:
// after each way of launching, `out` holds a + b (poisoned with NaN before), and a two-step
// sequence whose second step reads the first's output is right.

import { writeFileSync } from "node:fs";
import { BUILTINS } from "../src/builtins";
import {
  acquireGpu,
  createStorageBuffer,
  encodeUniforms,
  getPipeline,
  launch,
  launchSequence,
  readBuffer,
  recordLaunches,
  timeLaunches,
  writeStorageBuffer,
  type LaunchArgs,
  type LaunchStep,
} from "../src/runtime";
import { checkGrid, encodeDispatch, prepareLaunch } from "../src/runtime/launch";

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const N = opt("--launches", 1000);
const ROUNDS = opt("--rounds", 7);
const outFile = argv.includes("--out") ? argv[argv.indexOf("--out") + 1] : undefined;
const SIZE = 4096;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Median over ROUNDS of the µs per launch of `body` (which does `count` launches). */
async function perLaunchUs(count: number, body: () => Promise<unknown>): Promise<number> {
  await body(); // warm
  const xs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    await body();
    xs.push(((performance.now() - start) * 1000) / count);
  }
  return median(xs);
}

async function main(): Promise<void> {
  const gpu = await acquireGpu();
  const add = BUILTINS["builtins.add"];
  const program = add.program(SIZE);
  const grid = add.grid(SIZE);
  const a = Float32Array.from({ length: SIZE }, () => Math.random());
  const b = Float32Array.from({ length: SIZE }, () => Math.random());
  const args: LaunchArgs = {
    buffers: {
      a: await createStorageBuffer(gpu, a, "a"),
      b: await createStorageBuffer(gpu, b, "b"),
      out: await createStorageBuffer(gpu, new Float32Array(SIZE), "out"),
    },
    scalars: { n: SIZE },
  };
  const device = gpu.device;
  const kernel = await getPipeline(gpu, program);
  const full = checkGrid("add", grid, gpu.limits.maxComputeWorkgroupsPerDimension);
  const prepared = prepareLaunch(gpu, kernel, full, args);
  console.log(`${new Date().toISOString()}  node ${process.version}  adapter ${gpu.adapter.vendor} ${gpu.adapter.device} (${gpu.adapter.description})`);
  console.log(`builtins.add of ${SIZE} f32, grid [${grid.join(", ")}], ${N} launches per round, median of ${ROUNDS} rounds; µs per launch, wall clock`);

  const poison = new Float32Array(SIZE).fill(NaN);
  const check = async (name: string, body: () => Promise<unknown>) => {
    await writeStorageBuffer(gpu, args.buffers.out, poison);
    await body();
    const out = await readBuffer(gpu, args.buffers.out, "f32", SIZE);
    for (let i = 0; i < SIZE; i++) if (out[i] !== Math.fround(a[i] + b[i])) throw new Error(`${name}: out[${i}] = ${out[i]}, not ${a[i] + b[i]}`);
  };

  // A sequence whose second step reads what the first wrote: out2 = (a + b) + b.
  {
    const out2 = await createStorageBuffer(gpu, poison, "out2");
    await writeStorageBuffer(gpu, args.buffers.out, poison);
    const second: LaunchArgs = { buffers: { a: args.buffers.out, b: args.buffers.b, out: out2 }, scalars: { n: SIZE } };
    await launchSequence(gpu, [{ program, grid, args }, { program, grid, args: second }, { program, grid, args }]);
    const got = await readBuffer(gpu, out2, "f32", SIZE);
    for (let i = 0; i < SIZE; i++) {
      const want = Math.fround(Math.fround(a[i] + b[i]) + b[i]);
      if (got[i] !== want) throw new Error(`dependent sequence: out2[${i}] = ${got[i]}, not ${want}`);
    }
    out2.destroy();
    console.log("  checked: a two-step sequence with a dependency, and every way below, give a + b");
  }

  const steps: LaunchStep[] = Array.from({ length: N }, () => ({ program, grid, args }));
  const recorded = await recordLaunches(gpu, steps, "add × N");

  const ways: [string, string, () => Promise<unknown>][] = [
    ["before", "launch() as at 4b92f2d (wait inside the error scopes)", async () => {
      // The old launch(): the same steps, with the GPU wait inside gpu.scoped.
      for (let i = 0; i < N; i++) {
        checkGrid("add", grid, gpu.limits.maxComputeWorkgroupsPerDimension);
        await getPipeline(gpu, program);
        await gpu.scoped("add", async () => {
          encodeUniforms(program.abi, full, args.scalars);
          const encoder = device.createCommandEncoder({ label: "add" });
          const pass = encoder.beginComputePass({ label: "add" });
          encodeDispatch(pass, prepared);
          pass.end();
          device.queue.submit([encoder.finish()]);
          await device.queue.onSubmittedWorkDone();
        });
      }
    }],
    ["awaited", "launch() awaited one at a time", async () => {
      for (let i = 0; i < N; i++) await launch(gpu, program, grid, args);
    }],
    ["queued", "launch() ×N started at once, awaited together", () => Promise.all(steps.map(() => launch(gpu, program, grid, args)))],
    ["nowait", "launch({ wait: false }) ×N, one wait at the end", async () => {
      for (let i = 0; i < N; i++) await launch(gpu, program, grid, args, { wait: false });
      await device.queue.onSubmittedWorkDone();
    }],
    ["sequence", "launchSequence(N steps): record, one submit, wait", () => launchSequence(gpu, steps)],
    ["replay", "recordLaunches once, run(): one pass, one submit, wait", () => recorded.run()],
    ["floorPass", "Dawn floor: N dispatches in one pass, submit, wait", async () => {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      for (let i = 0; i < N; i++) encodeDispatch(pass, prepared);
      pass.end();
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
    }],
    ["floorSubmits", "Dawn floor: N submits of one dispatch, one wait", async () => {
      for (let i = 0; i < N; i++) {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        encodeDispatch(pass, prepared);
        pass.end();
        device.queue.submit([encoder.finish()]);
      }
      await device.queue.onSubmittedWorkDone();
    }],
  ];
  const results: Record<string, number> = {};
  for (const [key, name, body] of ways) {
    await check(name, body);
    results[key] = await perLaunchUs(N, body);
    console.log(`  ${name.padEnd(58)} ${results[key].toFixed(2).padStart(8)} µs`);
  }

  // Where launch() spends it: each piece alone, N times, µs each. Each way above was checked first:
  // out poisoned with NaN, then out = a + b read back.
  console.log("where launch() (awaited) spends it, each piece alone, µs per launch:");
  const encodeOne = () => {
    const encoder = device.createCommandEncoder({ label: "add" });
    const pass = encoder.beginComputePass({ label: "add" });
    encodeDispatch(pass, prepared);
    pass.end();
    return encoder.finish();
  };
  const pieces: [string, string, () => Promise<unknown>][] = [
    ["lookup", "checkGrid + getPipeline (cache hit), awaited", async () => {
      for (let i = 0; i < N; i++) {
        checkGrid("add", grid, gpu.limits.maxComputeWorkgroupsPerDimension);
        await getPipeline(gpu, program);
      }
    }],
    ["uniforms", "encodeUniforms (the reuse check)", async () => {
      for (let i = 0; i < N; i++) encodeUniforms(program.abi, full, args.scalars);
    }],
    ["bindGroup", "a new uniform buffer + bind group (what reuse avoids)", async () => {
      for (let i = 0; i < N; i++) prepareLaunch(gpu, kernel, full, args).uniforms.destroy();
    }],
    ["scopes", "3 error scopes pushed and popped (gpu.scoped, empty)", async () => {
      for (let i = 0; i < N; i++) await gpu.scoped("add", () => undefined);
    }],
    ["encode", "encoder + pass + dispatch + finish", async () => {
      for (let i = 0; i < N; i++) encodeOne();
    }],
    ["submit", "queue.submit of an encoded command buffer", async () => {
      const buffers = Array.from({ length: N }, encodeOne);
      const start = performance.now();
      for (const cb of buffers) device.queue.submit([cb]);
      const took = performance.now() - start;
      await device.queue.onSubmittedWorkDone();
      return took;
    }],
    ["wait", "submit + onSubmittedWorkDone, one at a time", async () => {
      for (let i = 0; i < N; i++) {
        device.queue.submit([encodeOne()]);
        await device.queue.onSubmittedWorkDone();
      }
    }],
    ["readback", "readBuffer(out, 4096 f32) (not part of launch)", async () => {
      for (let i = 0; i < N / 10; i++) await readBuffer(gpu, args.buffers.out, "f32", SIZE);
    }],
  ];
  const parts: Record<string, number> = {};
  for (const [key, name, body] of pieces) {
    if (key === "submit") {
      // Only the submit calls are timed.
      await body();
      const xs: number[] = [];
      for (let r = 0; r < ROUNDS; r++) xs.push((((await body()) as number) * 1000) / N);
      parts[key] = median(xs);
    } else {
      parts[key] = await perLaunchUs(key === "readback" ? N / 10 : N, body);
    }
    console.log(`  ${name.padEnd(58)} ${parts[key].toFixed(2).padStart(8)} µs`);
  }

  // The GPU's own time per launch, for scale (timestamps, launches back to back).
  const t = await timeLaunches(gpu, program, grid, [args], { warmupMs: 100, minReps: 20, maxReps: 100 });
  console.log(`  GPU time per launch (${t.source}, groups of ${t.launchesPerSample})`.padEnd(60) + `${(t.medianMs * 1000).toFixed(2).padStart(8)} µs`);

  recorded.destroy();
  prepared.uniforms.destroy();
  if (outFile) {
    const report = { date: new Date().toISOString(), adapter: gpu.adapter, size: SIZE, launches: N, rounds: ROUNDS, perLaunchUs: results, pieces: parts, gpuUs: t.medianMs * 1000, gpuSource: t.source };
    writeFileSync(outFile, JSON.stringify(report, null, 2));
  }
  for (const buf of Object.values(args.buffers)) buf.destroy();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

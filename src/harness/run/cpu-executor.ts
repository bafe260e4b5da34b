// `--cpu`: the interpreter runs each launch of a prepared size in order on the run's arrays, as
// the interpreter holds them (shared by every launch), checking every access (an out-of-bounds
// one is KL3101 at its tl.load/tl.store), recording races (races.ts), prints, and, for a run of
// one launch, who stored each output element. Its wall clock is the size's timing. A Python
// launch (`launchInPlace`) it runs on the script's tensors themselves.

import { interpret } from "../../interpreter/interpret";
import type { PointeeDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import type { StorageArray } from "../../runtime";
import { CpuPrints, sequencePrints } from "../debug/prints";
import { recordStores } from "../debug/provenance";
import { aliasedStorage } from "../debug/aliases";
import { RaceRecorder } from "../debug/races";
import type { TimingReport } from "../report";
import { lengthsOf, warnRun, type CheckedSize, type Executor, type InPlaceLaunch, type InPlaceResult, type SizeContext, type SizeExecution } from "./executor";
import { fromStorage, toStorage } from "./gpu-args";
import type { PreparedSize } from "./prepare";

export const cpuExecutor: Executor = {
  limits: undefined,
  start: (prepared, ctx): SizeExecution => ({ check: async () => interpretSize(prepared, ctx), release: () => {} }),
  launchInPlace: async (launch) => interpretInPlace(launch),
};

/** One launch on its caller's arrays: the interpreter reads and writes them in place, so nothing is copied back or reported written. */
function interpretInPlace(launch: InPlaceLaunch): InPlaceResult {
  // The launcher compiles Kernel Lab's own kernels in full for the interpreter (python/launch.ts): a launchable part alone can't be interpreted.
  if (launch.unchecked) throw new Error(`${launch.program.name}: a kernel launched as compiled runs on the GPU only`);
  const prints = new CpuPrints(launch.program);
  const args: Record<string, StorageArray | number> = { ...launch.scalars };
  for (const [name, array] of launch.arrays) args[name] = array.data;
  // Races between programs are checked as in a run (KL3104; a load of another program's store warns, KL3105), through one tensor passed as two pointers too.
  const races = new RaceRecorder(launch.program.ir, launch.grid, lengthsOf(args), launch.lines, aliasedStorage(Object.entries(args)));
  interpret(launch.program.ir, launch.grid, args, { onDebugRecord: prints.onDebugRecord, ...(races.checks ? { onAccess: races.onAccess } : {}) });
  return { prints: prints.lines()?.lines ?? [], written: [], warnings: races.warnings() };
}

function interpretSize(prepared: PreparedSize, ctx: SizeContext): CheckedSize {
  const { run, size, launches, runArgs, dtypes, outputs } = prepared;
  const storage = new Map([...dtypes].map(([name, dtype]) => [name, toStorage(runArgs[name] as HostArray, dtype)] as const));
  // Who stored what is kept for a run of one launch: the launch a mismatch's element came from is then known.
  const stores = launches.length === 1 ? recordStores(launches[0].grid, Object.fromEntries(outputs.map((o) => [o, (runArgs[o] as HostArray).length])), launches[0].program.facts.atomics) : undefined;
  const prints = launches.map((l) => new CpuPrints(l.program));
  const each = launches.map((launch, i): TimingReport => {
    const { program, grid } = launch;
    const which = launches.length === 1 ? `size ${size}` : `launch ${i + 1} of ${launches.length}, size ${size}`;
    ctx.progress({ phase: "launch", run, size, message: `Interpreting ${program.name} on the CPU (${which})` });
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [param, value] of Object.entries(launch.args)) {
      const runArg = launch.bound.get(param);
      cpuArgs[param] = runArg === undefined ? (typeof value === "number" ? value : toStorage(value, "f32")) : (storage.get(runArg) as StorageArray);
    }
    const races = new RaceRecorder(program.ir, grid, lengthsOf(cpuArgs), ctx.lines, aliasedStorage(Object.entries(cpuArgs)));
    const started = performance.now();
    interpret(program.ir, grid, cpuArgs, { onDebugRecord: prints[i].onDebugRecord, onStore: stores?.onStore, maxSteps: ctx.maxSteps, ...(races.checks ? { onAccess: races.onAccess } : {}) });
    const ms = performance.now() - started;
    for (const w of races.warnings()) warnRun(ctx, run, w);
    return cpuTiming(ms);
  });
  const got = new Map(outputs.map((o) => [o, fromStorage(storage.get(o) as StorageArray, dtypes.get(o) as PointeeDtype)] as const));
  const total = cpuTiming(each.reduce((n, t) => n + t.medianMs, 0));
  return {
    got,
    printed: sequencePrints(prints.map((p) => p.lines())),
    ...(stores ? { provenance: async () => stores.provenance } : {}),
    cpuTiming: launches.length === 1 ? { total } : { total, launches: each },
  };
}

function cpuTiming(ms: number): TimingReport {
  return { medianMs: ms, minMs: ms, maxMs: ms, reps: 1, source: "cpu-wall-clock" };
}

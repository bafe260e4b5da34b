// What the harness makes of a race the GPU found (instrumented-launch.ts): the interpreter runs
// just the two programs the GPU caught, from the launch's inputs, and names their values in
// --cpu's wording; where those two alone don't reproduce it, the GPU's account stands.

import type { Diagnostic } from "../../diagnostics/diagnostic";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR, PointeeDtype } from "../../ir/ir";
import type { StorageArray } from "../../runtime";
import { hazardWarning, raceError, RaceRecorder, type LoadHazard, type Race } from "../debug/races";
import { copyArgs } from "./args";
import { lengthsOf, type SizeContext } from "./executor";
import { toStorage } from "./gpu-args";
import type { RaceExplainer } from "./instrumented-launch";
import type { PreparedLaunch } from "./prepare";

export function raceExplainer(launch: PreparedLaunch, dtypes: Map<string, PointeeDtype>, ctx: SizeContext): RaceExplainer {
  const { program, grid } = launch;
  const rerun = (programs: ProgramId[]): RaceRecorder => {
    const cpuArgs: Record<string, StorageArray | number> = {};
    for (const [k, v] of Object.entries(copyArgs(launch.args))) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as PointeeDtype);
    const races = new RaceRecorder(program.ir, grid, lengthsOf(cpuArgs), ctx.lines);
    try {
      interpret(program.ir, grid, cpuArgs, { programs, onAccess: races.onAccess, maxSteps: ctx.maxSteps });
    } catch (err) {
      // Only the race itself is the answer; anything else (the two programs alone loop forever, say) leaves the GPU's account.
      if (err instanceof InterpreterError && err.kind === "race") throw err;
    }
    return races;
  };
  return {
    race(gpu: Race): never {
      rerun([gpu.first.program, gpu.second.program]);
      throw raceError(program.name, gpu, ctx.lines);
    },
    hazard(gpu: LoadHazard): Diagnostic[] {
      const found = rerun([gpu.store.program, gpu.load.program]).warnings();
      return found.length > 0 ? found : [hazardWarning(program.name, gpu, ctx.lines, program.ir.span)];
    },
  };
}

/**
 * A hazard the GPU noted at the store, after the load (instrument.ts `kl_check_reads`: the loading
 * program is known, its lane and line not), with them found by interpreting the loading program
 * alone on copies of `args`: its first active load of the same element. Where the program alone
 * doesn't load it (its addresses read data the launch changed; the load went through another
 * pointer), the GPU's account stands. Which of the two orders a launch takes is the GPU's choice, so
 * without this one kernel's warning would read two ways from run to run.
 */
export function withLoadSite(ir: KernelIR, grid: readonly [number, number, number], args: Record<string, StorageArray | number>, hazard: LoadHazard, maxSteps?: number): LoadHazard {
  if (hazard.load.span) return hazard;
  const copies: Record<string, StorageArray | number> = {};
  for (const [k, v] of Object.entries(args)) copies[k] = typeof v === "number" ? v : (v.slice() as StorageArray);
  let found: Pick<LoadHazard["load"], "lane" | "span"> | undefined;
  try {
    interpret(ir, [...grid] as [number, number, number], copies, {
      programs: [hazard.load.program],
      maxSteps,
      onAccess: (kind, param, index, _program, lane, span, active) => {
        if (!found && active && kind === "load" && param === hazard.param && index === hazard.index) found = { lane, span };
      },
    });
  } catch {
    // The program alone failing (or looping) leaves the GPU's account.
  }
  return found ? { ...hazard, load: { ...hazard.load, ...found } } : hazard;
}

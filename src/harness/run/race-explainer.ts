// What the harness makes of a race the GPU found (instrumented-launch.ts): the interpreter runs
// just the two programs the GPU caught, from the launch's inputs, and names their values in
// --cpu's wording; where those two alone don't reproduce it, the GPU's account stands.

import type { Diagnostic } from "../../diagnostics/diagnostic";
import { interpret, InterpreterError, type ProgramId } from "../../interpreter/interpret";
import type { PointeeDtype } from "../../ir/ir";
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

// The GPU clamps out-of-bounds accesses silently (robust buffer access), so an unmasked tail or an
// array shorter than the kernel reads would pass there. The interpreter doesn't: running the
// corner programs of the grid on the CPU first reports such an access at its tl.load/tl.store.

import type { CompiledKernel } from "../../compile";
import { interpret, InterpreterError } from "../../interpreter/interpret";
import type { PointeeDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import type { StorageArray } from "../../runtime";
import type { KernelArgs } from "./args";
import { toStorage } from "./gpu-args";

/** Throws the interpreter's out-of-bounds error; a corner program too long to interpret quickly is skipped (the step limit), not reported. */
export function checkCornersOnCpu(program: CompiledKernel, grid: [number, number, number], args: KernelArgs, dtypes: Map<string, PointeeDtype>): void {
  const [gx, gy, gz] = grid;
  const corners: [number, number, number][] = [[0, 0, 0], [gx - 1, 0, 0], [0, gy - 1, 0], [gx - 1, gy - 1, gz - 1]];
  const unique = corners.filter((c, i) => corners.findIndex((d) => d.join() === c.join()) === i);
  const cpuArgs: Record<string, StorageArray | number> = {};
  for (const [k, v] of Object.entries(args)) cpuArgs[k] = typeof v === "number" ? v : toStorage(v, dtypes.get(k) as PointeeDtype).slice();
  try {
    interpret(program.ir, grid, cpuArgs, { programs: unique, maxSteps: 2e7 });
  } catch (err) {
    if (err instanceof InterpreterError && err.kind === "out-of-bounds") throw err;
  }
}

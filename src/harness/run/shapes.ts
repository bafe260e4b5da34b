// A run's `shapes(size, constexprs)`: which outputs (and inputs) are 2-D matrices (row-major [rows,
// cols]), so a mismatch can come with a coarse map of the wrong regions (mismatch-map.ts) and the
// access map draws each buffer as the matrix it is (access-map.ts).

import type { CheckedRun, KernelArgs } from "./args";
import { fail, RunCodes } from "../codes";
import { show } from "../show";

export type Shape2d = [number, number];

export function evaluateShapes(run: CheckedRun, size: number, args: KernelArgs): Map<string, Shape2d> {
  const shapes = new Map<string, Shape2d>();
  if (!run.shapes) return shapes;
  let result: unknown;
  try {
    result = (run.shapes as (n: number, c: Record<string, number>) => unknown)(size, { ...run.constexprs });
  } catch (err) {
    fail(run.name, RunCodes.badShapes, "`shapes`", `threw ${err instanceof Error ? `${err.name}: ${err.message}` : show(err)}. Fix the function; it runs on the host.`);
  }
  if (typeof result !== "object" || result === null) fail(run.name, RunCodes.badShapes, "`shapes`", `must return an object such as { ${run.outputs[0]}: [rows, cols] }; got ${show(result)}.`);
  for (const [name, shape] of Object.entries(result as Record<string, unknown>)) {
    // Inputs may have a shape too: the access map draws every buffer on its shape.
    const arg = args[name];
    if (typeof arg !== "object" || arg === null) fail(run.name, RunCodes.badShapes, "`shapes`", `'${name}' is not one of the run's array arguments (${Object.keys(args).filter((k) => typeof args[k] === "object").join(", ")}).`);
    const length = (args[name] as ArrayLike<number>).length;
    const ok = Array.isArray(shape) && shape.length === 2 && shape.every((d) => Number.isInteger(d) && d > 0) && shape[0] * shape[1] === length;
    if (!ok) fail(run.name, RunCodes.badShapes, "`shapes`", `'${name}' must be [rows, cols] with rows × cols = its ${length} elements; got ${show(shape)}.`);
    shapes.set(name, shape as Shape2d);
  }
  return shapes;
}

// Which runs of a file to run: the file must export at least one, under distinct names; `--run`
// picks one by name or export name; `--size` must be a positive integer. Then, per run, the
// kernel it names among those the compiler found in the file.

import type { KernelSource, ParsedFile } from "../../compile";
import type { LocatedDiagnostic } from "../../diagnostics/position";
import { isKernelHandle } from "../../language";
import { RunCodes, RunDefinitionError } from "../codes";
import { located, type LoadedRun } from "../load/load";
import type { RunLocator } from "./to-diagnostics";

/** The runs to run, or the one diagnostic that says why none can. */
export function selectRuns(
  all: LoadedRun[],
  opts: { run?: string; size?: number },
  file: string,
  at: RunLocator,
): { runs: LoadedRun[] } | { diagnostic: LocatedDiagnostic } {
  if (all.length === 0) {
    return { diagnostic: located(file, RunCodes.noRuns, "The file exports no run. Export one: `export const myRun = defineRun({ kernel, sizes, grid, args, outputs, reference })`.") };
  }
  const names = new Map<string, LoadedRun>();
  for (const run of all) {
    const other = names.get(run.name);
    if (other) {
      return { diagnostic: at(run, RunCodes.duplicateRun, `Runs '${other.exportName}' and '${run.exportName}' are both named '${run.name}'; give them different names.`) };
    }
    names.set(run.name, run);
  }
  let runs = all;
  if (opts.run !== undefined) {
    runs = runs.filter((r) => r.name === opts.run || r.exportName === opts.run);
    if (runs.length === 0) {
      return { diagnostic: located(file, RunCodes.unknownRun, `No run named '${opts.run}' in this file; its runs are: ${all.map((r) => r.name).join(", ")}.`) };
    }
  }
  if (opts.size !== undefined && !(Number.isInteger(opts.size) && opts.size > 0)) {
    return { diagnostic: located(file, RunCodes.badSizeOption, `--size must be a positive integer, got ${opts.size}.`) };
  }
  return { runs };
}

/** The kernel a run names: by name among the kernels the compiler found, else by creation order. */
export function resolveKernel(run: LoadedRun, made: readonly { name: string; ordinal: number }[], parsed: ParsedFile): KernelSource {
  return resolveKernelHandle(run.definition.kernel, "kernel", run.name, made, parsed);
}

/** The kernel `handle` (given in the run's field `field`, e.g. "launches[1].kernel") is. */
export function resolveKernelHandle(handle: unknown, field: string, run: string, made: readonly { name: string; ordinal: number }[], parsed: ParsedFile): KernelSource {
  if (!isKernelHandle(handle)) {
    throw new RunDefinitionError(RunCodes.notAKernel, `Run '${run}', \`${field}\`: must be a value made by kernel(...) in this file; got ${describe(handle)}.`, run);
  }
  const byName = parsed.kernels.find((k) => k.name === handle.name);
  const byOrder = made.length === parsed.kernels.length ? parsed.kernels[made.findIndex((k) => k === handle)] : undefined;
  const kernel = (handle.name ? byName : undefined) ?? byOrder;
  if (!kernel) {
    throw new RunDefinitionError(
      RunCodes.kernelNotInFile,
      `Run '${run}', \`${field}\`: kernel '${handle.name || "(anonymous)"}' is not defined in this file (found: ${parsed.kernels.map((k) => k.name).join(", ") || "none"}). Define the kernel with kernel(...) in the file that runs it.`,
      run,
    );
  }
  return kernel;
}

function describe(x: unknown): string {
  return x === undefined ? "undefined" : x === null ? "null" : typeof x === "object" ? "an object" : typeof x;
}

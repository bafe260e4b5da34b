// `constexprs` as a function of the size, in a run or in a launch of `launches`
// (`constexprs: (n) => ({ BLOCK_N: nextPowerOf2(n), n_cols: n })`, as Triton's launchers compute
// `BLOCK_N = triton.next_power_of_2(N)`): evaluated for one size into a run whose constexprs are
// values, which is then checked and run as any. Sizes that give the same set share its program
// (programs.ts keys compiled kernels by their constexprs).

import type { ParsedFile } from "../../compile";
import { call } from "./args";
import { RunCodes, RunDefinitionError } from "../codes";
import { loadKernelFile, type LoadedRun } from "../load/load";
import { resolveKernelHandle } from "./resolve-runs";

/** Whether the run's constexprs (or a launch's) depend on the size. */
export function hasSizeConstexprs(run: LoadedRun): boolean {
  const def = run.definition as unknown as Record<string, unknown>;
  if (typeof def.constexprs === "function") return true;
  return Array.isArray(def.launches) && def.launches.some((l: unknown) => typeof l === "object" && l !== null && typeof (l as Record<string, unknown>).constexprs === "function");
}

/** The run with each constexprs function replaced by its value for `size` (checked later as a literal object would be). */
export function atSize(run: LoadedRun, size: number): LoadedRun {
  const def = { ...(run.definition as unknown as Record<string, unknown>) };
  const evaluate = (given: unknown, field: string): unknown =>
    typeof given === "function" ? call(run.name, RunCodes.constexprsThrew, `${field}(${size})`, given as (n: number) => unknown, [size]) : given;
  if (def.constexprs !== undefined) def.constexprs = evaluate(def.constexprs, "constexprs");
  if (Array.isArray(def.launches)) {
    def.launches = def.launches.map((l: unknown, i) => {
      if (typeof l !== "object" || l === null) return l;
      const launch = l as Record<string, unknown>;
      return launch.constexprs === undefined ? launch : { ...launch, constexprs: evaluate(launch.constexprs, `launches[${i}].constexprs`) };
    });
  }
  return { ...run, definition: def as unknown as LoadedRun["definition"] };
}

/** The sizes a run runs: `--size`, else every size with `--sweep`, else the first. */
export function sizesToRun(sizes: readonly number[], opts: { size?: number; sweep?: boolean }): number[] {
  return opts.size !== undefined ? [opts.size] : opts.sweep ? [...sizes] : [sizes[0]];
}

/**
 * The constexpr sets each kernel gets from the file's runs (every size of each run), found by
 * running the file's top level (no GPU): what `kernel-lab check` checks a kernel with whose
 * constexprs only the run knows (compile.ts checkFile). A run whose definition is wrong gives
 * none; running it says why. Undefined when the file can't be loaded.
 */
export async function runValuesOf(file: string, text: string, parsed: ParsedFile): Promise<Map<string, Record<string, number>[]> | undefined> {
  const loaded = await loadKernelFile(file, text);
  if (loaded.diagnostics.length > 0) return undefined;
  const sets = new Map<string, Record<string, number>[]>();
  const add = (kernel: string, constexprs: unknown) => {
    if (typeof constexprs !== "object" || constexprs === null) return;
    const numbers = Object.entries(constexprs).filter(([, v]) => typeof v === "number" && Number.isFinite(v));
    sets.set(kernel, [...(sets.get(kernel) ?? []), Object.fromEntries(numbers)]);
  };
  for (const run of loaded.runs) {
    const sizes = (run.definition as unknown as Record<string, unknown>).sizes;
    if (!Array.isArray(sizes)) continue;
    for (const size of hasSizeConstexprs(run) ? sizes : sizes.slice(0, 1)) {
      try {
        const def = atSize(run, size).definition as unknown as Record<string, unknown>;
        if (Array.isArray(def.launches)) {
          def.launches.forEach((l: Record<string, unknown>, i) => add(resolveKernelHandle(l?.kernel, `launches[${i}].kernel`, run.name, loaded.kernels, parsed).name, l?.constexprs ?? {}));
        } else {
          const kernel = resolveKernelHandle(def.kernel, "kernel", run.name, loaded.kernels, parsed).name;
          const base = (def.constexprs ?? {}) as Record<string, unknown>;
          if (Array.isArray(def.configs)) for (const c of def.configs) add(kernel, { ...base, ...(c as object) });
          else add(kernel, base);
        }
      } catch (err) {
        if (!(err instanceof RunDefinitionError)) throw err;
      }
    }
  }
  return sets;
}

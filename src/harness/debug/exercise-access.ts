// An exercise's run beside its reference solution (issue 29, item 4): the learner's kernel and the
// course's solution of the same exercise traced program by program on the run's own arguments,
// and the first program whose loads read, or whose stores write, other elements than the
// solution's — both maps, so the results panel can draw them side by side and the command line
// say what differs. Elements are compared per buffer and kind (loads, stores, atomics); masked-off
// lanes are not, since a different block shape may mask other lanes and touch the same elements.

import { compileKernel, parseKernelFile, type CompileResult, type ParsedFile } from "../../compile";
import { LineMap } from "../../diagnostics/position";
import type { KernelIR } from "../../ir/ir";
import { DEFAULT_TARGET } from "../../ir/target";
import { solutionText } from "../../exercises/solutions";
import type { AccessMapReport, ExerciseAccessReport } from "./access-map";
import { mapsOf, touchedOf, type LaunchToTrace } from "./analyse-launch";
import { programsToTrace } from "./access-trace";

/** Programs compared at most, and lanes traced per kernel at most (the program that crosses it finishes). */
export const COMPARED_PROGRAMS = 256;
const COMPARE_BUDGET = 1 << 17;
/** Programs traced at once (each chunk on a fresh copy of the arguments): a wrong kernel usually differs in its first few. */
const CHUNK = 16;

/**
 * Compares the run's kernel (`launch`) with the exercise's solution; undefined when the solution has
 * no kernel of that name or either trace fails. Programs are compared by the elements they touch
 * (touchedOf); only the chunk where one first differs is traced again into both maps.
 */
export function compareWithSolution(launch: LaunchToTrace, exercise: string, kernel: string, constexprs: Record<string, number>): ExerciseAccessReport | undefined {
  // Triton-Puzzles' small grids; the tutorials' ports are examples of their own, their tracing seconds.
  if (!exercise.startsWith("puzzle-")) return undefined;
  const solution = solutionKernel(exercise, kernel, constexprs);
  if (!solution) return undefined;
  const reference: LaunchToTrace = { ...launch, ir: solution.ir, lines: solution.lines };
  const programs = programsToTrace(launch.grid, COMPARED_PROGRAMS);
  const total = launch.grid[0] * launch.grid[1] * launch.grid[2];
  let compared = 0;
  let lanes = 0;
  for (let i = 0; i < programs.length && lanes < COMPARE_BUDGET; i += CHUNK) {
    const chunk = programs.slice(i, i + CHUNK);
    const yours = touchedOf(launch, chunk);
    const theirs = touchedOf(reference, chunk);
    if (!yours || !theirs) return undefined;
    for (let k = 0; k < chunk.length; k++) {
      compared++;
      if (!sameElements(yours[k].touched, theirs[k].touched)) {
        const maps = mapsOf(launch, chunk, chunk);
        const referenceMaps = mapsOf(reference, chunk, chunk);
        if (!maps || !referenceMaps) return undefined;
        const what = difference(maps[k], referenceMaps[k]);
        if (what) return { compared, programs: total, differs: { program: [...chunk[k]] as [number, number, number], what, yours: maps[k], reference: referenceMaps[k] } };
      }
      lanes += yours[k].lanes;
    }
  }
  return { compared, programs: total };
}

/** The solution's parse per exercise and its compiled kernels per constexprs: a sweep, or the editor's worker running an exercise again, parses it once. */
const solutions = new Map<string, { parsed: ParsedFile; lines: LineMap; compiled: Map<string, CompileResult | undefined> }>();

function solutionKernel(exercise: string, kernel: string, constexprs: Record<string, number>): { ir: KernelIR; lines: LineMap } | undefined {
  let solution = solutions.get(exercise);
  if (!solution) {
    const text = solutionText(exercise);
    if (!text) return undefined;
    solution = { parsed: parseKernelFile(`${exercise}.solution.kernel.ts`, text), lines: new LineMap(text), compiled: new Map() };
    solutions.set(exercise, solution);
  }
  const key = `${kernel} ${JSON.stringify(Object.entries(constexprs).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
  if (!solution.compiled.has(key)) {
    const source = solution.parsed.kernels.find((k) => k.name === kernel);
    solution.compiled.set(key, source && compileKernel(source, constexprs, { ...DEFAULT_TARGET, shaderF16: true }));
  }
  const ir = solution.compiled.get(key)?.kernel?.ir;
  return ir && { ir, lines: solution.lines };
}

/** Whether two programs touched the same elements of every buffer, kind by kind (a kind one lacks counts as none). */
function sameElements(a: ReadonlyMap<string, Set<number>>, b: ReadonlyMap<string, Set<number>>): boolean {
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    if ((x?.size ?? 0) !== (y?.size ?? 0)) return false;
    if (x && y) for (const e of x) if (!y.has(e)) return false;
  }
  return true;
}

/** Elements per buffer and kind, as a set. */
function touchedBy(map: AccessMapReport): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const layer of map.layers) {
    const key = `${layer.kind}:${layer.param}`;
    const set = out.get(key) ?? new Set<number>();
    for (const [a, b] of layer.touched) for (let e = a; e < b; e++) set.add(e);
    out.set(key, set);
  }
  return out;
}

const PLURAL = { load: "loads", store: "stores", atomic: "atomics" } as const;

/** What differs, in a sentence ("your stores of z_ptr write 1024 elements, the solution's 900; z_ptr[90] only yours"); undefined when nothing does. */
export function difference(yours: AccessMapReport, reference: AccessMapReport): string | undefined {
  const mine = touchedBy(yours);
  const theirs = touchedBy(reference);
  for (const key of [...new Set([...theirs.keys(), ...mine.keys()])]) {
    const a = mine.get(key) ?? new Set<number>();
    const b = theirs.get(key) ?? new Set<number>();
    const onlyMine = [...a].filter((e) => !b.has(e)).sort((x, y) => x - y);
    const onlyTheirs = [...b].filter((e) => !a.has(e)).sort((x, y) => x - y);
    if (onlyMine.length === 0 && onlyTheirs.length === 0) continue;
    const [kind, param] = key.split(":") as [keyof typeof PLURAL, string];
    const verb = kind === "load" ? "read" : kind === "store" ? "write" : "update";
    const first = [
      onlyMine.length > 0 ? `${param}[${onlyMine[0]}] is only yours` : "",
      onlyTheirs.length > 0 ? `${param}[${onlyTheirs[0]}] only the solution's` : "",
    ].filter(Boolean).join(", ");
    return `your ${PLURAL[kind]} of ${param} ${verb} ${a.size} element${a.size === 1 ? "" : "s"}, the solution's ${b.size}; ${first}`;
  }
  return undefined;
}

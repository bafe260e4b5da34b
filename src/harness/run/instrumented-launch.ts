// The correctness launch of a GPU run: the instrumented variant of the kernel (codegen/instrument.ts)
// on the run's own buffers, plus `kl_debug` and a shadow buffer per output. An out-of-bounds lane
// in any program fails the run with KL3101 at its tl.load/tl.store (the same error, and wording,
// as the interpreter's); the shadow buffers say who stored each element, read only on a mismatch.
// Two programs storing one element fail it with KL3104, a load of another program's store warns
// with KL3105 (harness/debug/races.ts): the GPU finds the pair, the interpreter runs just those two
// programs again to name their values (`RaceExplainer`).

import { storageBindingCount, type InstrumentAbi, type KernelAbi } from "../../codegen/abi";
import { InterpreterError } from "../../interpreter/interpret";
import { outOfBoundsMessage } from "../../interpreter/errors";
import type { HostArray } from "../../language";
import { createEmptyBuffer, launch, readBuffer, type Gpu, type LaunchArgs } from "../../runtime";
import type { KernelArgs } from "./args";
import type { StoreProvenance } from "../debug/provenance";
import type { Diagnostic, Span } from "../../diagnostics/diagnostic";
import type { ProgramId } from "../../interpreter/interpret";
import type { LoadHazard, Race } from "../debug/races";
import { hazardInViews, raceInViews } from "./aliased-races";
import { viewOffsetScalar } from "../../ir/ir";

export interface InstrumentedProgram {
  abi: KernelAbi & { instrument: InstrumentAbi };
  wgsl: string;
}

/** Whether the device can bind the variant's extra buffers (beside a print/assert record buffer) (else the run falls back to the corner check). */
export function fitsDevice(gpu: Gpu, program: { abi: KernelAbi }): program is InstrumentedProgram {
  return program.abi.instrument !== undefined && storageBindingCount(program.abi) <= gpu.limits.maxStorageBuffersPerShaderStage;
}

/**
 * What the harness makes of a race the GPU found: the interpreter runs the two programs again and
 * throws KL3104 or returns the KL3105 warnings (races.ts); `gpu` is what the GPU saw, used as it
 * is when the two programs alone don't reproduce it.
 */
export interface RaceExplainer {
  race(gpu: Race): never;
  hazard(gpu: LoadHazard): Diagnostic[];
}

export interface InstrumentedResult {
  provenance: () => Promise<StoreProvenance>;
  /** KL3105: a program loaded what another stored. */
  warnings: Diagnostic[];
}

/** Launches the variant on `set` (the run's buffers); throws KL3101 on an out-of-bounds access, KL3104 on a race; returns how to read the provenance. */
export async function instrumentedLaunch(
  gpu: Gpu,
  program: InstrumentedProgram,
  grid: [number, number, number],
  set: LaunchArgs,
  args: KernelArgs,
  made: GPUBuffer[],
  explain?: RaceExplainer,
): Promise<InstrumentedResult> {
  const { instrument, kernel } = program.abi;
  const buffers = { ...set.buffers };
  const scalars = { ...set.scalars };
  for (const [param, scalar] of Object.entries(instrument.lengths)) scalars[scalar] = (args[param] as HostArray).length;
  const extra = async (name: string, words: number) => {
    const buffer = await createEmptyBuffer(gpu, "u32", words, `${kernel}.${name}`);
    made.push(buffer);
    buffers[name] = buffer;
  };
  await extra(instrument.debugBuffer, instrument.debugWords);
  for (const [param, shadow] of Object.entries(instrument.provenance)) await extra(shadow, 2 * (args[param] as HostArray).length);
  for (const [param, reads] of Object.entries(instrument.reads)) await extra(reads, 2 * (args[param] as HostArray).length);
  await launch(gpu, program, grid, { buffers, scalars, ...(set.debug ? { debug: set.debug } : {}) });

  const debug = await readBuffer(gpu, buffers[instrument.debugBuffer], "u32", instrument.debugWords);
  if (debug[0] > 0) throw outOfBounds(program, debug);
  const site = (linear: number, word: number) => siteOf(program, grid, linear, word);
  // Views of a shared storage (aliased-races.ts): each one's first element there, as this launch set it.
  const offsets = instrument.views && Object.fromEntries(Object.entries(instrument.views).map(([p, v]) => [p, v.offset === 0 ? 0 : scalars[viewOffsetScalar(p)]]));
  if (debug[8] > 0) {
    // Through views of one storage (aliased-races.ts) the index is the storage's: told in the views'.
    const race: Race = raceInViews(debug[13], site(debug[9], debug[10]), site(debug[11], debug[12]), offsets);
    if (explain) explain.race(race);
    throw new InterpreterError("race", `${kernel}: programs (${race.first.program.join(",")}) and (${race.second.program.join(",")}) both store ${race.param}[${race.index}], not through an atomic`, kernel, race.second.span ?? program.abi.instrument.accesses[0].span, race.second.program);
  }
  const warnings: Diagnostic[] = [];
  if (debug[16] > 0) {
    const hazard: LoadHazard = hazardInViews(debug[21], site(debug[17], debug[18]), site(debug[19], debug[20]).side, offsets);
    if (explain) warnings.push(...explain.hazard(hazard));
  }
  const provenance = async () => {
    const words = new Map<string, Uint32Array>();
    for (const [param, shadow] of Object.entries(instrument.provenance)) {
      words.set(param, await readBuffer(gpu, buffers[shadow], "u32", 2 * (args[param] as HostArray).length));
    }
    const spans = new Map(instrument.accesses.map((a) => [a.id, a.span] as const));
    const atomics = new Map<string, Span>();
    for (const a of instrument.accesses) if (a.kind === "atomic" && !atomics.has(a.param)) atomics.set(a.param, a.span);
    return { grid, words, spans, atomics };
  };
  return { provenance, warnings };
}

/** A program (linear id) and an access site (access id << 16 | lane; 0xffffffff: unknown) from kl_debug's words. */
export function siteOf(program: InstrumentedProgram, grid: readonly [number, number, number], linear: number, word: number) {
  const [gx, gy] = grid;
  const programId: ProgramId = [linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))];
  const access = word === 0xffffffff ? undefined : program.abi.instrument.accesses[word >>> 16];
  return { param: access?.param ?? "", side: { program: programId, lane: access ? word & 0xffff : null, span: access?.span ?? null } };
}

/** kl_debug's first out-of-bounds lane (abi.ts InstrumentAbi) as the interpreter's error. */
function outOfBounds(program: InstrumentedProgram, debug: Uint32Array): InterpreterError {
  const { kernel, instrument } = program.abi;
  const programId = [debug[1], debug[2], debug[3]] as const;
  const access = instrument.accesses[debug[5]];
  const oob = { param: access.param, access: access.kind, index: debug[6] | 0, length: debug[7] };
  return new InterpreterError("out-of-bounds", outOfBoundsMessage(kernel, programId, debug[4], oob), kernel, access.span, programId, oob);
}

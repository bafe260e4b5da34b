// The correctness launch of a GPU run: the instrumented variant of the kernel (codegen/instrument.ts)
// on the run's own buffers, plus `kl_debug` and a shadow buffer per output. An out-of-bounds lane
// in any program fails the run with KL3101 at its tl.load/tl.store (the same error, and wording,
// as the interpreter's); the shadow buffers say who stored each element, read only on a mismatch.

import type { InstrumentAbi, KernelAbi } from "../codegen/abi";
import { InterpreterError } from "../interpreter/interpret";
import { outOfBoundsMessage } from "../interpreter/errors";
import type { HostArray } from "../language";
import { createEmptyBuffer, launch, readBuffer, type Gpu, type LaunchArgs } from "../runtime";
import type { KernelArgs } from "./args";
import type { StoreProvenance } from "./provenance";
import type { Span } from "../diagnostics/diagnostic";

export interface InstrumentedProgram {
  abi: KernelAbi & { instrument: InstrumentAbi };
  wgsl: string;
}

/** Whether the device can bind the variant's extra buffers (else the run falls back to the corner check). */
export function fitsDevice(gpu: Gpu, program: { abi: KernelAbi }): program is InstrumentedProgram {
  return program.abi.instrument !== undefined && program.abi.buffers.length <= gpu.limits.maxStorageBuffersPerShaderStage;
}

/** Launches the variant on `set` (the run's buffers); throws KL3101 on an out-of-bounds access; returns how to read the provenance. */
export async function instrumentedLaunch(
  gpu: Gpu,
  program: InstrumentedProgram,
  grid: [number, number, number],
  set: LaunchArgs,
  args: KernelArgs,
  made: GPUBuffer[],
): Promise<() => Promise<StoreProvenance>> {
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
  await launch(gpu, program, grid, { buffers, scalars, ...(set.debug ? { debug: set.debug } : {}) });

  const debug = await readBuffer(gpu, buffers[instrument.debugBuffer], "u32", instrument.debugWords);
  if (debug[0] > 0) throw outOfBounds(program, debug);
  return async () => {
    const words = new Map<string, Uint32Array>();
    for (const [param, shadow] of Object.entries(instrument.provenance)) {
      words.set(param, await readBuffer(gpu, buffers[shadow], "u32", 2 * (args[param] as HostArray).length));
    }
    const spans = new Map(instrument.accesses.map((a) => [a.id, a.span] as const));
    const atomics = new Map<string, Span>();
    for (const a of instrument.accesses) if (a.kind === "atomic" && !atomics.has(a.param)) atomics.set(a.param, a.span);
    return { grid, words, spans, atomics };
  };
}

/** kl_debug's first out-of-bounds lane (abi.ts InstrumentAbi) as the interpreter's error. */
function outOfBounds(program: InstrumentedProgram, debug: Uint32Array): InterpreterError {
  const { kernel, instrument } = program.abi;
  const programId = [debug[1], debug[2], debug[3]] as const;
  const access = instrument.accesses[debug[5]];
  const oob = { param: access.param, access: access.kind, index: debug[6] | 0, length: debug[7] };
  return new InterpreterError("out-of-bounds", outOfBoundsMessage(kernel, programId, debug[4], oob), kernel, access.span, programId, oob);
}

// What a benchmark case is, and what every case runner shares: random inputs, NaN-poisoned
// outputs, the check against a float64 reference, input sets rotated past the L2, and the line
// each measurement prints. bench/suite.ts runs the single-kernel cases; bench/sequence.ts the
// cases of several launches (layer-norm backward).

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { createStorageBuffer, readBuffer, writeStorageBuffer, type Gpu, type LaunchArgs } from "../src/runtime";
import type { CodegenOptions } from "../src/ir/target";
import type { KnobRequest } from "../src/harness/autotune/knob-candidates";
import type { KnobSetting } from "../src/ir/knobs";
import { f16FromBits } from "../src/ir/f16";

/** The repository: the nearest folder at or above `from` (a bench script, bundled or not) with examples/. */
export function repositoryRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, "examples")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

// Uint16Array: the halves of a Ptr<f16> (f16-cases.ts).
export type Args = Record<string, Float32Array | Uint16Array | number>;

/** Indices to check (all when undefined) and the expected value at each. */
export interface Check {
  output: string;
  indices?: Int32Array;
  expected: Float64Array;
}

export interface Case {
  /** Matches torch_bench.py's names. */
  name: string;
  example: string;
  /** The kernel file, from the repository's root, where it is not `examples/<example>.kernel.ts`. */
  file?: string;
  /** A timing isolation's one change to the file's text (it throws where the text lacks what it changes). */
  sourceEdit?: (text: string) => string;
  kernel: string;
  shape: string;
  configs: Record<string, number>[];
  grid: (c: Record<string, number>) => number[];
  args: () => Args;
  outputs: string[];
  check: (args: Args) => Check[];
  bytes?: number;
  flops?: number;
  baseline?: string;
  /** Compiler knobs to try besides the defaults. */
  targets?: CodegenOptions[];
  /** The knobs (`targets`) are tried on the first this many configs only (default: all). */
  targetConfigs?: number;
  /** With --tune-codegen: most knob settings crossed in full per config (default the autotuner's MAX_CROSSED). */
  maxCrossed?: number;
  /**
   * With --tune-codegen: the knobs crossed for a config (default every knob its kernel uses there;
   * the others keep their defaults), or the settings to time for it, listed (the first its default).
   */
  tuneKnobs?: (constexprs: Record<string, number>) => KnobRequest | readonly KnobSetting[];
  /** Largest relative (L2) error of a correct result (default 1e-4). */
  tolerance?: number;
  /** Fewest timed samples (20 unless said: long launches need fewer). */
  minReps?: number;
  /** Input sets to rotate (else enough to exceed the L2 several times). */
  copies?: number;
  /** Run only when --only names it (a timing isolation, not part of a full run). */
  explicit?: boolean;
  /** An adapter feature the case needs; without it the case is skipped with a line saying so. */
  requires?: "shader-f16";
}

export interface Measurement {
  case: string;
  shape: string;
  variant: string;
  correct: boolean;
  relError: number;
  maxAbsDiff: number;
  medianMs: number;
  minMs: number;
  maxMs: number;
  reps: number;
  gbps?: number;
  tflops?: number;
  workgroupSize?: number;
  /** With suite.js --tune-codegen: the code generator's knobs this variant was compiled with (every knob the kernel uses). */
  knobs?: Record<string, string | number | boolean>;
  /** The fastest variant of a memory-bound case with the L2 flushed before each launch (bench/cold.ts). */
  coldMs?: number;
  coldGbps?: number;
  /** With suite.js --hand: a hand-written kernel (bench/hand-in-suite.ts) timed beside the case's variants, not one of them. */
  hand?: boolean;
  /** With suite.js --one-pass: a row timed again as mma-probe times (hand-in-suite.ts timeOnePass); never a case's best, nor a ceiling of record. */
  onePass?: boolean;
}

export function randn(n: number): Float32Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = Math.random() || 1e-12;
    const v = Math.random();
    const r = Math.sqrt(-2 * Math.log(u));
    a[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < n) a[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return a;
}

export const empty = (n: number) => new Float32Array(n).fill(NaN);

export function nextPow2(n: number): number {
  return 2 ** Math.ceil(Math.log2(n));
}

/** `count` distinct-enough indices below `n`: the first and last `edge` ones, the rest at random. */
export function sampleIndices(n: number, count: number, edge = 1024): Int32Array {
  if (n <= count) return Int32Array.from({ length: n }, (_, i) => i);
  const out = new Int32Array(count);
  for (let s = 0; s < count; s++) out[s] = s < edge ? s : s < 2 * edge ? n - 2 * edge + s : Math.floor(Math.random() * n);
  return out;
}

export function relativeError(got: ArrayLike<number>, check: Check): { rel: number; maxAbs: number; nan: boolean } {
  let num = 0;
  let den = 0;
  let maxAbs = 0;
  let nan = false;
  for (let s = 0; s < check.expected.length; s++) {
    const g = got[check.indices ? check.indices[s] : s];
    const e = check.expected[s];
    if (!Number.isFinite(g)) nan = true;
    num += (g - e) ** 2;
    den += e ** 2;
    maxAbs = Math.max(maxAbs, Math.abs(g - e));
  }
  return { rel: Math.sqrt(num / Math.max(den, 1e-30)), maxAbs, nan };
}

/** How many input sets to rotate so a working set of `bytes` exceeds the L2 several times. */
export function rotations(bytes: number): number {
  return Math.max(1, Math.min(8, Math.ceil((256 << 20) / Math.max(bytes, 1))));
}

export async function upload(gpu: Gpu, args: Args): Promise<LaunchArgs> {
  const buffers: Record<string, GPUBuffer> = {};
  const scalars: Record<string, number> = {};
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === "number") scalars[k] = v;
    else buffers[k] = await createStorageBuffer(gpu, v, k);
  }
  return { buffers, scalars };
}

export function release(sets: LaunchArgs[]): void {
  for (const s of sets) for (const b of Object.values(s.buffers)) b.destroy();
}

/** NaN in the output's own dtype (f16 0x7e00), so an element never written shows. */
function poisonLike(host: Float32Array | Uint16Array): Float32Array | Uint16Array {
  return host instanceof Uint16Array ? new Uint16Array(host.length).fill(0x7e00) : new Float32Array(host.length).fill(NaN);
}

/** An output's values, halves widened. */
async function readValues(gpu: Gpu, buffer: GPUBuffer, host: Float32Array | Uint16Array): Promise<ArrayLike<number>> {
  if (!(host instanceof Uint16Array)) return readBuffer(gpu, buffer, "f32", host.length);
  return Float64Array.from(await readBuffer(gpu, buffer, "f16", host.length), f16FromBits);
}

/** Fills `outputs` of `set` with NaN, so an element no launch wrote fails the check. */
export async function poison(gpu: Gpu, set: LaunchArgs, hostArgs: Args, outputs: string[]): Promise<void> {
  for (const o of outputs) await writeStorageBuffer(gpu, set.buffers[o], poisonLike(hostArgs[o] as Float32Array | Uint16Array));
}

/** Reads each checked output of `set` back: correct when finite and within `tolerance` relative (L2) error. */
export async function checkOutputs(gpu: Gpu, set: LaunchArgs, hostArgs: Args, checks: Check[], tolerance = 1e-4): Promise<{ correct: boolean; rel: number; maxAbs: number }> {
  let correct = true;
  let rel = 0;
  let maxAbs = 0;
  for (const check of checks) {
    const got = await readValues(gpu, set.buffers[check.output], hostArgs[check.output] as Float32Array | Uint16Array);
    const r = relativeError(got, check);
    rel = Math.max(rel, r.rel);
    maxAbs = Math.max(maxAbs, r.maxAbs);
    if (r.nan || r.rel > tolerance) correct = false;
  }
  return { correct, rel, maxAbs };
}

/** The line a measurement prints. */
export function measurementLine(m: Measurement): string {
  const rate = `${m.gbps ? `${m.gbps.toFixed(1)} GB/s` : ""}${m.tflops ? `${m.tflops.toFixed(2)} TFLOP/s` : ""}`;
  return `${m.case.padEnd(22)} ${m.variant.padEnd(40)} W=${String(m.workgroupSize).padEnd(5)} ${m.correct ? "ok " : "BAD"} rel ${m.relError.toExponential(1)}  ${m.medianMs.toFixed(4)} ms (${m.minMs.toFixed(4)}–${m.maxMs.toFixed(4)}, ${m.reps})  ${rate}`;
}

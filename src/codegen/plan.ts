// What the code generator decides before it writes any WGSL, as one value: the plan. From the
// kernel's IR, the adapter's facts (Target) and the options asked for (CodegenOptions) it fixes
// the workgroup size and layouts; which tl.dot calls run on subgroup matrices (mma-plan.ts); the
// IR rewrites that follow from that (sink.ts, then pipeline.ts); how every other tl.dot stages its
// operands (dot-staging.ts), and the workgroup memory that staging takes; how the accesses move
// (load-forms.ts: atomic buffers, vec4 runs, stores straight from the matrices, f16 runs packed:
// packed-halves.ts); and every
// workgroup array the kernel will declare (array-plan.ts). wgsl.ts emits a plan.
//
// Mostly tl.dot's staging changes with the switches that cost workgroup memory. When a kernel
// needs more memory than the adapter has, the plans to fall back to are data: `fallback` gives
// the next, with one switch turned off (shifted rows, two buffers, private tiles, a smaller
// transfer array, the invariant A staged once, subgroup matrices themselves, then the operands staged
// in chunks of K, in that order), and
// `fittingPlan` the first whose arrays fit. A tuner can make plans for other options and compare
// them the same way (their `workgroupBytes`, their options).

import type { KernelIR, Stmt, Value, ValueType } from "../ir/ir";
import { numel } from "../ir/ir";
import type { CodegenOptions, Target } from "../ir/target";
import { forEachValue } from "../ir/walk";
import { ContiguityAnalysis } from "./contiguity";
import { dotsWithoutLeadingBarrier } from "./dot-barriers";
import { dotChunk, isTiledDotLayout, tiledDotStaging, type TiledDotStaging } from "./dot-staging";
import { dotOnlyTransposes } from "./dot";
import { chooseWorkgroupSize, containsDot, resolveLayout, rowSlicesOf, runsOf8, type Tiling } from "./layout";
import { atomicBuffersOf, hasUnalignedHalfRuns, octetBuffersOf, wideBuffersOf, wordBuffersOf } from "./load-forms";
import { planMma, requestMmaArrays, TRANSFER_BYTES, type MmaPlan } from "./mma-plan";
import { planDirectStores, type DirectStore } from "./mma-store";
import { planPackedHalves, type PackedHalves } from "./packed-halves";
import { pipelineDotLoads } from "./pipeline";
import { planTileMasks, type TileMasks } from "./tile-masks";
import { sinkInvariantDotLoads } from "./sink";
import type { RegisterDtype } from "./literals";
import { arrayBytes, arrayName, requestArray, type WorkgroupArray } from "./workgroup-arrays";
import { planWorkgroupArrays } from "./array-plan";
import { deferRowSums } from "./deferred-sums";
import { lazyRowMaxima, type LazyMaxima } from "./lazy-max";
import { wholeTripsDefault, wholeTripsOf, type WholeTrip } from "./whole-trips";
import { unmaskDotEdges } from "./dot-edges";

export interface CodegenPlan {
  readonly target: Target;
  /** The options asked for, less those a fallback turned off. */
  readonly options: CodegenOptions;
  /** What the plan resolved of them: invocations per program instance, tiled layouts, the dot's k loop written out. */
  readonly workgroupSize: number;
  /** "laneRows" where CodegenOptions.mmaLaneRows applies, row threads where mmaRowThreads does (layout.ts). */
  readonly tiledLayouts: Tiling;
  readonly unrollDot: boolean;
  /** The kernel as lowered (the fallbacks plan from it again). */
  readonly written: KernelIR;
  /** What is emitted: `written` with invariant dot operands sunk into their loop and the next trip's operands loaded early. */
  readonly ir: KernelIR;
  /** The tl.dot calls on subgroup matrices, by the dot's value id. */
  readonly mma: ReadonlyMap<number, MmaPlan>;
  /** How each tiled tl.dot not on subgroup matrices stages its operands, by the dot's value id. */
  readonly tiledDots: ReadonlyMap<number, TiledDotStaging>;
  /** tl.trans values read only as operands of tl.dot: not emitted (the dot stages what they transpose, dot.ts). */
  readonly dotOnlyTransposes: ReadonlySet<number>;
  /** What the IR's values step by along their last axis, their divisors and constant runs (contiguity.ts). */
  readonly contiguity: ContiguityAnalysis;
  /** Buffers some tl.atomic* goes through: every access to them atomic. */
  readonly atomicBuffers: ReadonlySet<string>;
  /** Stores a loop plan's matrices write themselves (mma-store.ts), by statement. */
  readonly directStores: ReadonlyMap<Stmt, DirectStore>;
  /** Buffers some load or store moves as vec4s (load-forms.ts): bound as arrays of vec4. */
  readonly wideBuffers: ReadonlySet<string>;
  /** f16 buffers some load reads 8 halves at a time (load-forms.ts readsOctets): bound as arrays of vec4<u32>. */
  readonly octetBuffers: ReadonlySet<string>;
  /** f16 buffers some load reads a word at a time (load-forms.ts readsWords): bound as arrays of u32. */
  readonly wordBuffers: ReadonlySet<string>;
  /** Loop variables carrying a dot's next f16 operands, their loads and reads, held 2 halves a register (packed-halves.ts). */
  readonly packed: PackedHalves;
  /** Some f16 load moves runs of 4 not known aligned: `shiftedHalfRows` changes how they are read. */
  readonly unalignedHalfRuns: boolean;
  /** Masked f16 loads tested once per tile, and the mask values emitted on their other way only (tile-masks.ts). */
  readonly tileMasks: TileMasks;
  /** The workgroup arrays tl.dot's staging takes, by name (what the fallbacks change). */
  readonly stagingArrays: ReadonlyMap<string, WorkgroupArray>;
  /** Their bytes. */
  readonly stagingBytes: number;
  /** Every workgroup array the kernel declares, by name (a fresh one under a name of the planner's): the staging and the rest. */
  readonly workgroupArrays: ReadonlyMap<string, WorkgroupArray>;
  /** Their bytes: what the emitted module's `KernelAbi.workgroupBytes` will be. */
  readonly workgroupBytes: number;
  /** Row maxima that may stay at their running maximum (lazy-max.ts; CodegenOptions.lazyRowMax), by the reduction's id. */
  readonly lazyMaxima: LazyMaxima;
  /** Loops peeled, their whole trips with the comparisons that then hold made `true` (whole-trips.ts; CodegenOptions.wholeTrips). */
  readonly wholeTrips: ReadonlyMap<Stmt, WholeTrip>;
}

/**
 * The plan for these options, none turned off, with the defaults that depend on the kernel filled
 * in where the options leave them open: runs of 8 (`takesRunsOf8`).
 */
export function planKernel(asWritten: KernelIR, target: Target, options: CodegenOptions = {}): CodegenPlan {
  if (options.runsOf8 === true) return planWith(asWritten, target, withRunsOf8(options));
  const plan = planWith(asWritten, target, options);
  if (options.runsOf8 === false || !takesRunsOf8(plan)) return plan;
  const eights = planWith(asWritten, target, withRunsOf8(options));
  return eights.octetBuffers.size > 0 ? eights : plan;
}

/**
 * Runs of 8 with what makes them pay: carried packed, one `vec4<u32>` a run (mmaPackedPrefetch), the
 * masks tested once per tile (halfLoadForm "tile"), each where the options leave it open. Alone they
 * ran 35% slower at 4096³ on the H100, the loads waited on at once (bench/NOTES.md §60).
 */
function withRunsOf8(options: CodegenOptions): CodegenOptions {
  return { ...options, runsOf8: true, halfLoadForm: options.halfLoadForm ?? "tile", mmaPackedPrefetch: options.mmaPackedPrefetch ?? true };
}

/**
 * Whether runs of 8 (`withRunsOf8`) are the default: for a kernel whose every tl.dot runs on subgroup
 * matrices, one of them accumulating across a loop's trips and none multiplying afresh each trip
 * (the matmul, not the attention), at a launch whose f16 runs are known aligned, on the default
 * tiles; planKernel keeps them where some load then reads 16 bytes at a time. On the H100 they took
 * tutorial 03 in f16 from 200.9 to 237.9 TFLOP/s at 4096³ (the reference kernel 245.2) and from 96.7
 * to 103.8 at 1024³ (the probe 115.0); they cost the attention 7%, and where no run is aligned
 * (1000×1001×1003) the runs of 4 stay faster (bench/NOTES.md §63), unless they are read as shifted
 * 16-byte chunks (shiftedHalfRows "chunks", load-forms.ts readsChunks), which needs runs of 8.
 */
function takesRunsOf8(plan: CodegenPlan): boolean {
  if (plan.tiledLayouts !== true || (plan.unalignedHalfRuns && plan.options.shiftedHalfRows !== "chunks") || plan.mma.size === 0) return false;
  let generic = false;
  forEachValue(plan.ir.body, (v) => (generic ||= v.op === "dot" && !plan.mma.has(v.id)));
  return !generic && wholeTripsDefault(plan.ir.body, plan.mma) === false;
}

function planWith(asWritten: KernelIR, target: Target, options: CodegenOptions): CodegenPlan {
  const summed = options.deferRowSums ? deferRowSums(asWritten) : asWritten;
  const written = options.unmaskedDotEdges && !options.instrument ? unmaskDotEdges(summed) : summed;
  // Kernels with tl.dot get tiled layouts and the k loop written out unless the options say not.
  const tiledLayouts = options.tiledLayouts ?? containsDot(written.body);
  const workgroupSize = options.workgroupSize ?? chooseWorkgroupSize(written, target.maxWorkgroupSize, options.preferredWorkgroupSize, tiledLayouts);
  // Dots on subgroup matrices keep no output registers in their loop: they don't count against pipelining.
  const matrix = planMma(written, target, options, workgroupSize);
  const loopDots = new Set([...matrix].filter(([, p]) => p.kind === "loop").map(([id]) => id));
  // Dots on subgroup matrices stage an invariant operand once themselves (mma.ts): their loads stay.
  const sunk = options.sinkInvariantDotLoads === false ? written : sinkInvariantDotLoads(written, new Set(matrix.keys()));
  const ir = (options.numStages ?? 2) > 1 ? pipelineDotLoads(sunk, workgroupSize, loopDots, options.numStages === 2) : sunk;
  // Planned again on the rewritten IR, whose values the emitters see.
  const planned = planMma(ir, target, options, workgroupSize);
  const tiling = tilingOf(ir, options, tiledLayouts, workgroupSize, planned);
  // Lane rows: each subgroup's matrices hold its invocations' rows (the split along M only, unless
  // one is asked for), as the hand-written kernel's subgroups do, and a "once" product leaves in
  // chunks of columns (mma-transfer.ts), so that every subgroup stores and every invocation reads
  // in each chunk.
  const rowsOnly = tiling === "laneRows" ? planMma(ir, target, options, workgroupSize, true) : planned;
  const mma = tiling === "laneRows" ? new Map([...rowsOnly].map(([id, p]) => [id, p.kind === "once" ? { ...p, columnChunks: true } : p])) : planned;
  const arrays = new Map<string, WorkgroupArray>();
  const tiledDots = planDots(ir, target, options, workgroupSize, tiling, mma, arrays);
  const loads = planAccesses(ir, options, workgroupSize, tiling, mma);
  // A plan whose store takes its edge tiles through slices (mma-store.ts) needs no transfer array.
  const sliced = new Set([...loads.directStores.values()].filter((d) => d.slices).map((d) => d.plan));
  for (const plan of mma.values()) requestMmaArrays(plan, arrays, sliced.has(plan));
  const transposes = dotOnlyTransposes(ir);
  const rowSlices = tiling && options.rowLayouts !== false ? rowSlicesOf(ir.body, workgroupSize, tiling) : new Map();
  const input = { ir, workgroupSize, subgroupMinSize: target.subgroupMinSize, subgroups: target.subgroups, tiledLayouts: tiling, rowSlices, dotOnlyTransposes: transposes, sharedReductionArrays: options.shareReductionArrays === true };
  const workgroupArrays = planWorkgroupArrays(input, arrays);
  return {
    target, options, workgroupSize, tiledLayouts: tiling, unrollDot: options.unrollDot ?? true, written, ir, mma, tiledDots, dotOnlyTransposes: transposes, ...loads,
    stagingArrays: arrays, stagingBytes: bytes(arrays), workgroupArrays, workgroupBytes: bytes(workgroupArrays),
    lazyMaxima: options.lazyRowMax ? lazyRowMaxima(ir) : new Map(),
    wholeTrips: wholeTripsOf(ir.body, options, mma),
  };
}

/**
 * Lane rows (CodegenOptions.mmaLaneRows, layout.ts) where asked for and every tl.dot runs on
 * subgroup matrices: a dot on the generic tiled path needs its 4 × 4 pieces (dot.ts), and a
 * kernel without row reductions has no row vector to keep in its tiles' rows.
 */
function tilingOf(ir: KernelIR, options: CodegenOptions, tiledLayouts: boolean, w: number, mma: ReadonlyMap<number, MmaPlan>): Tiling {
  const chosen = options.mmaLaneRows === true || options.mmaRowThreads !== undefined;
  if (!tiledLayouts || mma.size === 0 || (!chosen && options.runsOf8 !== true) || (chosen && options.rowLayouts === false)) return tiledLayouts;
  let generic = false;
  forEachValue(ir.body, (v) => (generic ||= v.op === "dot" && !mma.has(v.id)));
  if (generic) return tiledLayouts;
  if (!chosen) return { runs: 8 };
  if (options.mmaLaneRows === true && rowSlicesOf(ir.body, w, "laneRows").size > 0) return "laneRows";
  // Row threads (layout.ts) where some row-reduced block takes them: the reduction's own tile, not the default's.
  const rowThreads = options.mmaRowThreads;
  if (rowThreads === undefined) return tiledLayouts;
  const reduced = rowSlicesOf(ir.body, w, { rowThreads });
  return [...reduced.values()].some((s) => s.threadsPerRow === rowThreads) ? { rowThreads } : tiledLayouts;
}

function bytes(arrays: ReadonlyMap<string, WorkgroupArray>): number {
  return [...arrays.values()].reduce((sum, a) => sum + arrayBytes(a), 0);
}

/** How the kernel's accesses move (load-forms.ts): atomics, vec4 runs, stores from the matrices. */
function planAccesses(ir: KernelIR, options: CodegenOptions, w: number, tiledLayouts: Tiling, mma: ReadonlyMap<number, MmaPlan>): Pick<CodegenPlan, "contiguity" | "atomicBuffers" | "directStores" | "wideBuffers" | "octetBuffers" | "wordBuffers" | "packed" | "unalignedHalfRuns" | "tileMasks"> {
  const rowSlices = tiledLayouts && options.rowLayouts !== false ? rowSlicesOf(ir.body, w, tiledLayouts) : new Map();
  const contiguity = new ContiguityAnalysis(ir.body, runsOf8(tiledLayouts) ? 8 : 4);
  const atomicBuffers = atomicBuffersOf(ir.body);
  const facts = { atomicBuffers, options, contiguity, layout: (type: ValueType) => resolveLayout(type.shape, w, tiledLayouts, rowSlices) };
  const directStores = options.mmaDirectStore !== false ? planDirectStores(ir.body, mma, !!options.instrument, options.mmaEdgeSlices !== false) : new Map<Stmt, DirectStore>();
  const wideBuffers = wideBuffersOf(facts, ir.body, directStores);
  // subgroupMatrixStore writes an array of scalars: a buffer some other access reads as vec4s, or an atomic one (its
  // elements atomics, an f16's packed in words), keeps its registers' way out.
  for (const s of [...directStores.keys()]) if (s.kind === "store" && s.ptr.type.kind === "pointer" && (wideBuffers.has(s.ptr.type.param) || atomicBuffers.has(s.ptr.type.param))) directStores.delete(s);
  const unalignedHalfRuns = hasUnalignedHalfRuns(facts, ir.body);
  const octetBuffers = octetBuffersOf(facts, ir.body);
  const wordBuffers = wordBuffersOf(facts, ir.body, wideBuffers, octetBuffers);
  return { contiguity, atomicBuffers, directStores, wideBuffers, octetBuffers, wordBuffers, packed: planPackedHalves(ir.body, mma, facts), unalignedHalfRuns, tileMasks: planTileMasks(ir.body, facts) };
}

/**
 * The staging of every tl.dot not on subgroup matrices, its arrays requested from `arrays`: a 2-D
 * one on the tiled path (dot.ts `emitDot`) as dot-staging.ts decides; any other (the flat path, a
 * batched 3-D dot) stages its operands whole into the "a" and "b" slots.
 */
function planDots(
  ir: KernelIR,
  target: Target,
  options: CodegenOptions,
  w: number,
  tiledLayouts: Tiling,
  mma: ReadonlyMap<number, MmaPlan>,
  arrays: Map<string, WorkgroupArray>,
): Map<number, TiledDotStaging> {
  const rowSlices = tiledLayouts && options.rowLayouts !== false ? rowSlicesOf(ir.body, w, tiledLayouts) : new Map();
  const privateDots = options.privateDotTiles === true && !options.doubleBufferDot ? dotsWithoutLeadingBarrier(ir.body) : new Set<number>();
  const tiled = new Map<number, TiledDotStaging>();
  forEachValue(ir.body, (v) => {
    if (v.op !== "dot" || mma.has(v.id) || tiled.has(v.id)) return;
    if (v.a.type.shape.length === 3) {
      requestArray(arrays, "a", registerDtype(v.a.type), numel(v.a.type.shape));
      requestArray(arrays, "b", registerDtype(v.b.type), numel(v.b.type.shape));
      return;
    }
    if (!isTiledDotLayout(resolveLayout(v.type.shape, w, tiledLayouts, rowSlices))) {
      // The flat path: A's rows and B's columns, `chunk` of K at a time (dot-chunks.ts).
      const [m, k] = v.a.type.shape;
      const chunk = dotChunk(k, options.dotChunkK);
      requestArray(arrays, "a", registerDtype(v.a.type), m * chunk);
      requestArray(arrays, "b", registerDtype(v.b.type), chunk * v.b.type.shape[1]);
      return;
    }
    const layoutA = resolveLayout(v.a.type.shape, w, tiledLayouts, rowSlices);
    const choices = { padDotTiles: options.padDotTiles !== false, doubleBufferDot: options.doubleBufferDot === true, privateDot: privateDots.has(v.id), maxWorkgroupStorageBytes: target.maxWorkgroupStorageBytes, dotChunkK: options.dotChunkK };
    tiled.set(v.id, tiledDotStaging(v as Value & { op: "dot" }, layoutA, choices, arrays));
  });
  return tiled;
}

/** The dtype a value's registers hold (generator.ts `dtype`): a pointer is its i32 offset, an i64 its low word. */
function registerDtype(type: ValueType): RegisterDtype {
  return type.kind === "pointer" || type.dtype === "i64" ? "i32" : type.dtype === "bf16" ? "f32" : type.dtype;
}

/**
 * The plan to fall back to when `plan`'s kernel needs more workgroup memory than the adapter has,
 * or undefined when none is left: the reductions' arrays shared (CodegenOptions.shareReductionArrays), tiled dots' rows unshifted, then one shared pair of staging
 * arrays (no two buffers, no private tiles), then on subgroup matrices a transfer array half as
 * large (down to 4 KiB), A staged every trip, the generic tiled dot, and last the generic dots'
 * operands staged K/2, K/4 … 4 columns at a time.
 */
export function fallback(plan: CodegenPlan): CodegenPlan | undefined {
  const options = fallbackOptions(plan);
  if (!options) return undefined;
  const next = planKernel(plan.written, plan.target, options);
  // Sharing the reductions' arrays where that saves nothing (their one array in loops, nothing staged beside it)
  // would only rename it: the next fallback instead, with sharing left off.
  if (options.shareReductionArrays === true && plan.options.shareReductionArrays === undefined && next.workgroupBytes >= plan.workgroupBytes) {
    return fallback({ ...plan, options: { ...plan.options, shareReductionArrays: false } });
  }
  return next;
}

function fallbackOptions(plan: CodegenPlan): CodegenOptions | undefined {
  const { options } = plan;
  // First the reductions' own arrays, the cheapest to give up: a barrier each.
  if (options.shareReductionArrays === undefined && [...plan.workgroupArrays.keys()].some(ownReductionArray)) return { ...options, shareReductionArrays: true };
  const dots = [...plan.tiledDots.values()];
  if (dots.length > 0 && options.padDotTiles !== false) return { ...options, padDotTiles: false };
  const twoBuffers = dots.some((d) => d.double) || [...plan.mma.values()].some((p) => p.doubleBuffer);
  if (options.doubleBufferDot === true && twoBuffers) return { ...options, doubleBufferDot: false };
  if (options.privateDotTiles === true && dots.some((d) => d.own)) return { ...options, privateDotTiles: false };
  if (plan.mma.size > 0) {
    const transfer = options.mmaTransferBytes ?? TRANSFER_BYTES;
    // Only where some dot still moves its accumulator through the transfer array (not edge slices alone).
    if (transfer > 4096 && plan.stagingArrays.has(arrayName("mmac", "f32", false))) return { ...options, mmaTransferBytes: transfer / 2 };
    if (options.mmaStageInvariant !== false && [...plan.mma.values()].some((p) => p.invariantA)) return { ...options, mmaStageInvariant: false };
    if (options.subgroupMatrixDot !== false) return { ...options, subgroupMatrixDot: false };
  }
  // Last, the generic dots' operands staged in chunks of K, halved down to 4 (dot-chunks.ts).
  const k = stagedDotK(plan);
  const chunk = Math.min(options.dotChunkK ?? k, k);
  return chunk >= 8 ? { ...options, dotChunkK: chunk / 2 } : undefined;
}

/** Whether an array is a reduction's own or its tree's (reductions.ts: `rows…`, `r…`; the planner's fresh names carry a `#`), which shareReductionArrays folds into the staging array. */
function ownReductionArray(name: string): boolean {
  return /^sm_(rows|r)(#?\d+)?i?_/.test(name);
}

/** The largest K of the 2-D tl.dot calls not on subgroup matrices (0 without any). */
function stagedDotK(plan: CodegenPlan): number {
  let k = 0;
  forEachValue(plan.ir.body, (v) => {
    if (v.op === "dot" && !plan.mma.has(v.id) && v.a.type.shape.length === 2) k = Math.max(k, v.a.type.shape[1]);
  });
  return k;
}

/**
 * The first plan from `plan` on (itself, then its fallbacks) whose workgroup arrays fit in the
 * adapter's memory, or the last one when none does (its kernel is then reported as too large).
 */
export function fittingPlan(plan: CodegenPlan): CodegenPlan {
  let candidate = plan;
  for (;;) {
    if (candidate.workgroupBytes <= plan.target.maxWorkgroupStorageBytes) return candidate;
    const next = fallback(candidate);
    if (!next) return candidate;
    candidate = next;
  }
}

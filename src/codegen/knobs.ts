// The code generator's choices a tuner may try for one kernel, beside a run's configs (the
// autotuner, harness/autotune/knob-candidates.ts): only those the kernel's plan (plan.ts) uses.
// A masked f16 load offers its load form; a tl.dot on subgroup matrices (an f16 dot on an adapter
// with them) offers how its operands are staged (a loop-invariant A staged once, held in matrices),
// which barriers it keeps, whether blocks of as many rows as invocations hold one row each, how
// many invocations hold each row of a row-reduced block, where
// its accumulator is stored from, how its tile is split over the subgroups, and whether its
// prefetched operands are held packed; an f16 load of rows not known aligned offers reading them
// shifted. Each choice lists the default first. Whether a choice
// changes this kernel's WGSL at a given launch is for the tuner to see (two settings that emit
// the same WGSL are one candidate): a load form only matters where a mask is known whole per run
// of 4, which the launch's divisibility decides (compile.ts specializationFor).

import type { KernelIR } from "../ir/ir";
import type { CodegenOptions, Target } from "../ir/target";
import type { KnobChoice } from "../ir/knobs";
import { forEachValue } from "../ir/walk";
import { stagesPrefetchedHalves } from "./packed-halves";
import { planKernel } from "./plan";
import { rowSlicesOf } from "./layout";
import { deferRowSums } from "./deferred-sums";
import { lazyRowMaxima } from "./lazy-max";
import { wholeTripsDefault } from "./whole-trips";

/** The knobs this kernel's plan for `target` uses, each with the values worth trying (default first). */
export function tunableKnobs(written: KernelIR, target: Target, options: CodegenOptions = {}): KnobChoice[] {
  const plan = planKernel(written, target, options);
  const knobs: KnobChoice[] = [];
  // Runs of 8 (plan.ts takesRunsOf8) change three defaults: each knob's default comes first.
  const eights = plan.options.runsOf8 === true && options.runsOf8 === undefined;
  if (loadsMaskedHalves(written)) knobs.push({ knob: "halfLoadForm", values: eights && options.halfLoadForm === undefined ? ["tile", "block", "select"] : ["block", "select", "tile"] });
  const mma = [...plan.mma.values()];
  if (mma.some((p) => p.kind === "loop")) {
    knobs.push({ knob: "mmaDoubleBuffer", values: [false, true] });
    knobs.push({ knob: "mmaDirectStore", values: [true, false] });
  }
  if (mma.some((p) => p.invariantA)) {
    knobs.push({ knob: "mmaStageInvariant", values: [true, false] });
    knobs.push({ knob: "mmaHoldInvariant", values: [true, false] });
  }
  // Barriers left out only where every dot on matrices is a "once" plan (mma-plan.ts).
  if (mma.length > 0 && mma.every((p) => p.kind === "once")) knobs.push({ knob: "mmaLeanBarriers", values: [true, false] });
  // One row per invocation where some block has as many rows as the workgroup invocations (layout.ts).
  const laneRows = (o: CodegenOptions) => planKernel(written, target, o).tiledLayouts === "laneRows";
  const reducesRows = plan.tiledLayouts !== false && rowSlicesOf(plan.ir.body, plan.workgroupSize, "laneRows").size > 0;
  if (mma.length > 0 && reducesRows && (plan.tiledLayouts === "laneRows" || laneRows({ ...options, mmaLaneRows: true }))) {
    knobs.push({ knob: "mmaLaneRows", values: [false, true] });
  }
  // Fewer invocations a row of the row-reduced blocks (layout.ts row threads): the default tile's
  // count first, then each smaller power of two whose layout the block takes.
  if (mma.length > 0 && plan.tiledLayouts === true) {
    const counts = [...rowSlicesOf(plan.ir.body, plan.workgroupSize, true).values()].map((s) => s.threadsPerRow);
    const values = counts.length > 0 ? [Math.max(...counts)] : [];
    for (let tc = values[0] / 2; tc >= 1; tc /= 2) {
      const tiling = planKernel(written, target, { ...options, mmaRowThreads: tc }).tiledLayouts;
      if (typeof tiling === "object") values.push(tc);
    }
    if (values.length > 1) knobs.push({ knob: "mmaRowThreads", values });
  }
  // mmaTransferPad (the transfer array's row padding) is not offered: on an H100 the default 4 ran as
  // fast as 8 and 12, and 0 and 16 slower (bench/NOTES.md §51), so its values would only be
  // more settings to time. The bench sets it.
  // A loop's row sum carried as its terms (deferred-sums.ts), where the kernel has one.
  const rowSums = deferRowSums(written) !== written;
  if (rowSums) knobs.push({ knob: "deferRowSums", values: [false, true] });
  // An online softmax's row maximum kept where it is while no score passes it (lazy-max.ts).
  const softmax = lazyRowMaxima(written).size > 0;
  if (softmax) knobs.push({ knob: "lazyRowMax", values: [false, true] });
  // Tiled element indices split term by term (rearrange.ts): measured faster in attention, slower
  // in the f16 matmul at aligned sizes (bench/NOTES.md §54), so offered where there is an online
  // softmax, and where f16 rows are not known aligned: there the masks are per element, and with the
  // rows read in shifted chunks and the K loop peeled the f16 matmul's 1000×1001×1003 led at
  // 64×64×64 over 4 (72 TFLOP/s on an H100 against 47 at the default, §84).
  if (softmax || rowSums || plan.unalignedHalfRuns) knobs.push({ knob: "splitTileIndices", values: [false, true] });
  // A loop whose comparisons with its counter a trip may hold whole, peeled (whole-trips.ts):
  // offered where such a loop runs a dot on matrices (bench/NOTES.md §54, §56); on by default where
  // those dots multiply afresh each trip (attention), off where one accumulates (the matmul).
  const peeled = options.instrument ? undefined : wholeTripsDefault(plan.ir.body, plan.mma);
  if (peeled !== undefined) knobs.push({ knob: "wholeTrips", values: peeled ? [true, false] : [false, true] });
  // Every split of some dot's tile over the subgroups, the first dot's own (the squarest) first.
  const splits: number[] = [];
  for (const p of mma) {
    const subgroups = p.subgroupsM * p.subgroupsN;
    const rows = p.subgroupsM * p.tilesM;
    const cols = p.subgroupsN * p.tilesN;
    if (!splits.includes(p.subgroupsM)) splits.push(p.subgroupsM);
    for (let m = 1; m <= subgroups; m *= 2) {
      if (subgroups % m === 0 && rows % m === 0 && cols % (subgroups / m) === 0 && !splits.includes(m)) splits.push(m);
    }
  }
  if (splits.length > 1) knobs.push({ knob: "mmaSubgroupsM", values: splits });
  // The next trip's f16 operands held two halves a register (packed where the launch's loads read whole).
  if (stagesPrefetchedHalves(plan.mma)) knobs.push({ knob: "mmaPackedPrefetch", values: eights && options.mmaPackedPrefetch === undefined ? [true, false] : [false, true] });
  // Runs of 8: where the kernel's default takes them, or where asking for them reads some load 16 bytes
  // at a time (only with dots on matrices: plan.ts tilingOf; no second plan for any other kernel).
  if (eights) knobs.push({ knob: "runsOf8", values: [true, false] });
  else if (options.runsOf8 === undefined && mma.length > 0 && planKernel(written, target, { ...options, runsOf8: true }).octetBuffers.size > 0) knobs.push({ knob: "runsOf8", values: [false, true] });
  if (plan.unalignedHalfRuns) knobs.push({ knob: "shiftedHalfRows", values: [false, true, "words", "chunks"] });
  return knobs;
}

/** A load through a `Ptr<f16>` with a mask: its runs may be read with a branch or a select (halfLoadForm). */
function loadsMaskedHalves(ir: KernelIR): boolean {
  let found = false;
  forEachValue(ir.body, (v) => {
    if (v.op === "load" && v.mask && v.ptr.type.kind === "pointer" && v.ptr.type.pointee === "f16") found = true;
  });
  return found;
}

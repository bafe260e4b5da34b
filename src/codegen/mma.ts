// tl.dot on subgroup matrices (tensor cores), emitted for the plans mma-plan.ts makes. Operands
// are staged as halves in workgroup memory, rows padded by 8 halves (docs/ENVIRONMENT.md §3
// measured unpadded loads at 240–330 TFLOP/s against 575–608 padded), each register stored at one
// per-invocation base plus a constant (mma-transfer.ts). An operand written `tl.trans(x)` is
// staged as x and loaded column-major. In a loop plan the staged tiles can alternate between two
// buffers (one barrier per trip instead of two; CodegenOptions.mmaDoubleBuffer, off: 5.5× slower in a
// hand-written kernel on the H200, bench/NOTES.md §19). A "once" plan's loop-invariant A (attention's
// Q) is staged once before its loop, and may be held in left matrices for the whole loop
// (CodegenOptions.mmaHoldInvariant); in kernels of "once" plans only, the barriers before staging and
// before a product first leaves the matrices may go (mmaLeanBarriers; bench/NOTES.md §29). The
// matrix operations, real or emulated, are mma-ops.ts's.

import type { Value } from "../ir/ir";
import type { Emitter } from "./emitter";
import { opsFor, type MatrixOps } from "./mma-ops";
import { edgeSliceFloats, EMULATED_SUBGROUP, invariantSlot, names, operandStaging, staged, type MmaPlan } from "./mma-plan";
import { stage, transfer } from "./mma-transfer";

/** The accumulator's matrices (zero) and this subgroup's region of the output tile. */
function declareMatrices(ctx: Emitter, ops: MatrixOps, plan: MmaPlan, what: string): void {
  const { acc, row, col } = names(plan);
  const { config, tilesM, tilesN } = plan;
  ctx.emit(`// ${what} in ${tilesM * tilesN} subgroup matrices of ${config.M}×${config.N} per subgroup${plan.emulated ? " (emulated)" : ""} (codegen/mma.ts)`);
  ops.results(acc, config, tilesM * tilesN);
  ctx.emit(`let ${row} = ${firstRow(plan)};`);
  ctx.emit(`let ${col} = (${subgroup(plan)} / ${plan.subgroupsM}u) * ${tilesN * config.N}u;`);
}

/** This invocation's subgroup: its index over the subgroup size (emulated: 32), or the builtin (mma-plan.ts). */
function subgroup(plan: MmaPlan): string {
  return plan.subgroupIndex.from === "builtin" ? "sg_id" : `(lid / ${plan.subgroupIndex.size}u)`;
}

/** The first row of this subgroup's region of the output tile. */
function firstRow(plan: MmaPlan): string {
  return `(${subgroup(plan)} % ${plan.subgroupsM}u) * ${plan.tilesM * plan.config.M}u`;
}

/** The WGSL name of a held A's left matrix: matrix row i of this subgroup's region, k step s. */
function heldA(plan: MmaPlan, i: number, s: number): string {
  return `mma${plan.dot.id}_q${i}_${s}`;
}

/** Before a loop plan's loop: the matrices, loaded from the variable's registers unless it starts at zero. */
export function enterMma(ctx: Emitter, plan: MmaPlan, register: (j: number) => string): void {
  const ops = opsFor(ctx, plan);
  declareMatrices(ctx, ops, plan, plan.variable!.name);
  if (plan.doubleBuffer) ctx.declareVar(names(plan).parity, "u32", "0u");
  if (!plan.zeroInit) transfer(ctx, ops, plan, "load", (j) => register(j));
}

/**
 * After a loop plan's loop: the matrices stored back into the variable's registers. Each register
 * is first set to zero: the transfer writes it under a condition (its rows' chunk), and without
 * that the driver kept the registers' values from before the loop alive through it (the H200's
 * first run of this code: 128 f32 registers per invocation at 128×128 over 4 subgroups).
 */
export function leaveMma(ctx: Emitter, plan: MmaPlan, register: (j: number) => string): void {
  const layout = ctx.layout(plan.dot.type);
  for (let j = 0; j < layout.ept; j++) ctx.emit(`${register(j)} = 0.0f;`);
  transfer(ctx, opsFor(ctx, plan), plan, "store", (j) => register(j));
}

/**
 * A loop plan's matrices written straight into a storage array of f32 whose element (i, j) of the
 * tile is at base + i × rowStride + j (mma-store.ts checks that, and that the tile is whole).
 */
export function storeMatrices(ctx: Emitter, plan: MmaPlan, array: string, base: string, rowStride: string): void {
  const { acc, row, col } = names(plan);
  const { config, tilesM, tilesN } = plan;
  ctx.useSubgroupMatrix(plan.emulated);
  for (let i = 0; i < tilesM; i++) {
    for (let t = 0; t < tilesN; t++) {
      const offset = `${base} + (${row} + ${i * config.M}u) * ${rowStride} + ${col} + ${t * config.N}u`;
      const matrix = `${acc}[${i * tilesN + t}]`;
      // Emulated: every invocation of the subgroup holds the whole matrix and writes the same values.
      ctx.emit(plan.emulated
        ? `for (var e = 0u; e < ${config.M * config.N}u; e++) { ${array}[${offset} + (e / ${config.N}u) * ${rowStride} + e % ${config.N}u] = ${matrix}[e]; }`
        : `subgroupMatrixStore<row_major>(&${array}, ${offset}, ${matrix}, ${rowStride});`);
    }
  }
}

/**
 * A direct store's other way (mma-store.ts: an edge tile, or C not aligned): each subgroup's matrices
 * one at a time through its own slice of workgroup memory (one matrix of f32), then each of its
 * invocations stores elements of the slice into `array` at base + row × rowStride + col where
 * `inside(row, col)` holds (i32 expressions of the tile's row and column). Two barriers a matrix;
 * every subgroup has as many matrices, so they are in uniform control flow.
 */
export function storeEdgeMatrices(ctx: Emitter, plan: MmaPlan, array: string, base: string, rowStride: string, inside: (row: string, col: string) => string): void {
  const { acc, row, col } = names(plan);
  const { config, tilesM, tilesN } = plan;
  const ops = opsFor(ctx, plan);
  const size = config.M * config.N;
  const slices = ctx.scratch("mmae", "f32", edgeSliceFloats(plan));
  // Emulated: every invocation of the subgroup holds the whole matrix; its lanes are lid % 32. The plan knows
  // its one subgroup size, so the lanes are lid % size where the subgroup's index is lid / size (the builtin's
  // lane beside the builtin's index), and the copy is written out as size / lanes steps at constant offsets from
  // the lane's first element: the loop over sg_size (a value the driver doesn't know) cost the odd size, whose C
  // rows are never aligned and so store every tile this way, up to 25% (bench/NOTES.md §84).
  const known = plan.emulated ? EMULATED_SUBGROUP : plan.subgroupIndex.size;
  const [lane, width] = plan.subgroupIndex.from === "builtin" ? ["sg_lane", "sg_size"] : [`(lid % ${known}u)`, `${known}u`];
  const slice = ctx.fresh("mma_slice");
  ctx.emit(`let ${slice} = ${subgroup(plan)} * ${size}u;`);
  // The lane's first element of a slice (row, column), where the steps keep its column: the written-out copy.
  const first = size % known === 0 && known % config.N === 0 ? { r: ctx.fresh("mma_lr"), c: ctx.fresh("mma_lc") } : undefined;
  if (first) {
    ctx.emit(`let ${first.r} = ${lane} / ${config.N}u;`);
    ctx.emit(`let ${first.c} = ${lane} % ${config.N}u;`);
  }
  for (let i = 0; i < tilesM; i++) {
    for (let t = 0; t < tilesN; t++) {
      // The slice's last reads (the matrix before) come before this matrix's store.
      if (i + t > 0) ctx.emit("workgroupBarrier();");
      ops.storeResult(slices, slice, `${acc}[${i * tilesN + t}]`, config.N, config);
      ctx.emit("workgroupBarrier();");
      if (first) {
        // Step k holds the slice's element lane + k·size: row lane / N + k·size / N, the lane's column.
        for (let k = 0; k < size / known; k++) {
          const [r, c] = [ctx.fresh("mma_er"), ctx.fresh("mma_ec")];
          ctx.emit(`let ${r} = i32(${row} + ${i * config.M + (k * known) / config.N}u + ${first.r});`);
          ctx.emit(`let ${c} = i32(${col} + ${t * config.N}u + ${first.c});`);
          ctx.emit(`if (${inside(r, c)}) { ${array}[u32(${base} + ${r} * ${rowStride} + ${c})] = ${slices}[${slice} + ${lane} + ${k * known}u]; }`);
        }
        continue;
      }
      const [q, r, c] = [ctx.fresh("mma_q"), ctx.fresh("mma_er"), ctx.fresh("mma_ec")];
      ctx.emit(`for (var ${q} = ${lane}; ${q} < ${size}u; ${q} += ${width}) {`);
      ctx.nested(() => {
        ctx.emit(`let ${r} = i32(${row} + ${i * config.M}u + ${q} / ${config.N}u);`);
        ctx.emit(`let ${c} = i32(${col} + ${t * config.N}u + ${q} % ${config.N}u);`);
        ctx.emit(`if (${inside(r, c)}) { ${array}[u32(${base} + ${r} * ${rowStride} + ${c})] = ${slices}[${slice} + ${q}]; }`);
      });
      ctx.emit("}");
    }
  }
}

/**
 * Before the loop of a "once" plan whose A is loop-invariant: A staged into its own array, once;
 * or, held (CodegenOptions.mmaHoldInvariant), staged into the dot-shared A array and loaded into
 * this subgroup's left matrices for the whole loop — with a barrier before (an earlier dot may
 * still read that array) and one before the loads.
 */
export function stageInvariantA(ctx: Emitter, plan: MmaPlan): void {
  const a = staged(plan.dot.a);
  const { array, stride } = invariantArray(ctx, plan);
  const what = `${plan.dot.a.op === "trans" ? "tl.trans of " : ""}the loop-invariant A of a tl.dot`;
  if (!plan.holdA) {
    ctx.emit(`// ${what}, staged once (codegen/mma.ts)`);
    stage(ctx, a.value, array, stride, "", plan.stagingFlatIndex);
    return;
  }
  const { config, tilesM } = plan;
  ctx.emit(`// ${what}, held in ${tilesM * (plan.dot.a.type.shape[1] / config.K)} left matrices per subgroup for the loop (codegen/mma.ts)`);
  ctx.emit("workgroupBarrier();");
  stage(ctx, a.value, array, stride, "", plan.stagingFlatIndex);
  ctx.emit("workgroupBarrier();");
  const row = `mma${plan.dot.id}_qr`;
  ctx.emit(`let ${row} = ${firstRow(plan)};`);
  const ops = opsFor(ctx, plan);
  for (let kk = 0; kk < plan.dot.a.type.shape[1]; kk += config.K) {
    for (let i = 0; i < tilesM; i++) ops.operand("left", heldA(plan, i, kk / config.K), config, array, leftOffset(stride, `${row} + ${i * config.M}u`, kk, a.colMajor), stride, a.colMajor);
  }
}

function invariantArray(ctx: Emitter, plan: MmaPlan): { array: string; stride: number } {
  const { strideA, sizeA } = operandStaging(plan);
  return { array: ctx.scratch(invariantSlot(plan)!, "f16", sizeA), stride: strideA };
}

/** Where a left matrix starts in A's staged rows: matrix row `r` (an expression), k step at `kk`. */
function leftOffset(strideA: number, r: string, kk: number, colMajor: boolean): string {
  return colMajor ? `${kk * strideA}u + ${r}` : `(${r}) * ${strideA}u + ${kk}u`;
}

/** Where a plan's operands are staged: arrays, row strides, and (two buffers) this trip's offsets. */
interface Staging {
  sa: string;
  sb: string;
  strideA: number;
  strideB: number;
  offA: string;
  offB: string;
  double: boolean;
}

/** The values a plan's staging reads (the operands, or what a tl.trans operand transposes). */
export function stagedValues(plan: MmaPlan): Value[] {
  return [...(plan.invariantA ? [] : [staged(plan.dot.a).value]), staged(plan.dot.b).value];
}

/**
 * A loop plan's operands written to workgroup memory before the dot's own place in the loop: where
 * the pipelining rewrite (pipeline.ts) put the next trip's loads between the operands and the dot,
 * statements.ts stages the operands first, so their registers are free before the next ones
 * arrive (the order of bench/mma-probe.ts's fastest hand-written kernel).
 */
export function stageMmaEarly(ctx: Emitter, plan: MmaPlan): void {
  ctx.earlyStaging.set(plan.dot.id, stageOperands(ctx, plan));
}

function stageOperands(ctx: Emitter, plan: MmaPlan): Staging {
  const { dot } = plan;
  const { parity } = names(plan);
  const a = staged(dot.a);
  const b = staged(dot.b);
  const { strideA, strideB, sizeA, sizeB } = operandStaging(plan);
  // Two buffers where both fit beside the accumulator's transfer array (mma-plan.ts).
  const double = plan.twoBuffers;
  const own = double ? `mma${dot.id}` : "mma";
  const sa = plan.invariantA ? invariantArray(ctx, plan).array : ctx.scratch(`${own}a`, "f16", (double ? 2 : 1) * sizeA);
  const sb = ctx.scratch(`${own}b`, "f16", (double ? 2 : 1) * sizeB);
  const [offA, offB] = double ? [ctx.fresh("mma_oa"), ctx.fresh("mma_ob")] : ["", ""];
  if (double) {
    // No barrier before the writes: the buffer written now was last read two trips ago, and every
    // invocation passed the last trip's barrier after finishing those reads.
    ctx.emit(`let ${offA} = ${parity} * ${sizeA}u;`);
    ctx.emit(`let ${offB} = ${parity} * ${sizeB}u;`);
  } else if (!plan.lean) {
    // Lean ("once" plans only): every earlier read of these arrays was a dot's matrix load, and
    // that dot's barrier after storing its product came between it and these writes.
    ctx.emit("workgroupBarrier();");
  }
  if (!plan.invariantA) stage(ctx, a.value, sa, strideA, offA, plan.stagingFlatIndex);
  stage(ctx, b.value, sb, strideB, offB, plan.stagingFlatIndex);
  ctx.emit("workgroupBarrier();");
  return { sa, sb, strideA, strideB, offA, offB, double };
}

/** One tl.dot: A and B staged as halves (unless staged early), every k step's matrices multiplied into the accumulator; a "once" plan's product then moved into its registers. */
export function emitMmaDot(ctx: Emitter, plan: MmaPlan): void {
  const ops = opsFor(ctx, plan);
  const { dot, config, tilesM, tilesN } = plan;
  const k = dot.a.type.shape[1];
  const { acc, row, col, parity } = names(plan);
  if (plan.kind === "once") declareMatrices(ctx, ops, plan, "the product");
  const a = staged(dot.a);
  const b = staged(dot.b);
  const early = ctx.earlyStaging.get(dot.id) as Staging | undefined;
  ctx.earlyStaging.delete(dot.id);
  const { sa, sb, strideA, strideB, offA, offB, double } = early ?? stageOperands(ctx, plan);
  const at = (offset: string, expr: string) => (offset ? `${offset} + ${expr}` : expr);
  for (let kk = 0; kk < k; kk += config.K) {
    ctx.emit("{");
    ctx.nested(() => {
      for (let i = 0; i < tilesM && !plan.holdA; i++) {
        ops.operand("left", `l${i}`, config, sa, at(offA, leftOffset(strideA, `${row} + ${i * config.M}u`, kk, a.colMajor)), strideA, a.colMajor);
      }
      for (let t = 0; t < tilesN; t++) {
        const c = `${col} + ${t * config.N}u`;
        ops.operand("right", `r${t}`, config, sb, at(offB, b.colMajor ? `(${c}) * ${strideB}u + ${kk}u` : `${kk * strideB}u + ${c}`), strideB, b.colMajor);
      }
      const left = (i: number) => (plan.holdA ? heldA(plan, i, kk / config.K) : `l${i}`);
      for (let i = 0; i < tilesM; i++) for (let t = 0; t < tilesN; t++) ops.mma(`${acc}[${i * tilesN + t}]`, left(i), `r${t}`, config);
    });
    ctx.emit("}");
  }
  if (double) ctx.emit(`${parity} = ${parity} ^ 1u;`);
  if (plan.kind === "once") {
    const layout = ctx.layout(dot.type);
    for (let j = 0; j < layout.ept; j++) ctx.emit(`var ${ctx.valueName(dot, j)}: f32;`);
    transfer(ctx, ops, plan, "store", (j) => ctx.valueName(dot, j), dot.acc ? (j) => ctx.reg(dot.acc!, j) : undefined);
  }
}

// Which tl.dot calls run on subgroup matrices (tensor cores; mma.ts emits them), and how: the
// configuration, the subgroups' regions, the accumulator's way between registers and matrices.
// Two kinds of plan, both for f16 operands and an f32 result:
//  - "loop": Triton tutorial 03's `acc = tl.dot(a, b, acc)` in a loop whose accumulator nothing
//    else in the loop reads. The accumulator lives in subgroup_matrix_result variables for the
//    whole loop: loaded from its registers before (or zero, when it starts as tl.zeros), stored
//    back after (statements.ts's `for`), its `assign` skipped.
//  - "once": any other such tl.dot (attention's Q·Kᵀ and P·V): the product is accumulated in
//    zeroed matrices and stored back into the dot's registers (plus `acc`'s, when given).
// Each of the workgroup's S subgroups owns an RM × RN region of the output tile, cut into the
// configuration's cm × cn matrices (several per subgroup: operand reuse).

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import type { CodegenOptions, SubgroupMatrixConfig, Target } from "../ir/target";
import { bodiesOf, forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import { requestArray, type WorkgroupArray } from "./workgroup-arrays";

/** How one tl.dot runs on subgroup matrices. */
export interface MmaPlan {
  kind: "loop" | "once";
  dot: Value & { op: "dot" };
  /** Loop plans: the accumulator variable (`acc`), f32 [M, N], and its loop. */
  variable?: Variable;
  loop?: Stmt & { kind: "for" };
  /** Loop plans: the accumulator is tl.zeros when the loop starts (no registers to load). */
  zeroInit: boolean;
  config: SubgroupMatrixConfig;
  /** Subgroups along M and along N (their product: the workgroup's subgroups). */
  subgroupsM: number;
  subgroupsN: number;
  /** Matrices per subgroup along M and along N. */
  tilesM: number;
  tilesN: number;
  /** Emulated matrices (CodegenOptions.subgroupMatrixEmulation). */
  emulated: boolean;
  /**
   * How a subgroup knows its index: the invocation's index over the one subgroup size the plan
   * assumes ("index", the default), or the subgroup_id builtin ("builtin": CodegenOptions.mmaSubgroupBuiltin);
   * that size either way.
   */
  subgroupIndex: { from: "index" | "builtin"; size: number };
  /** Staging indices from the flat element index (CodegenOptions.mmaStagingFlatIndex), not from lid (mma-transfer.ts). */
  stagingFlatIndex: boolean;
  /** Workgroup memory for the accumulator's way between registers and matrices (CodegenOptions.mmaTransferBytes). */
  transferBytes: number;
  /** Floats of padding per row of that way's array (CodegenOptions.mmaTransferPad). */
  transferPad: number;
  /** Loop plans: two buffers asked for (CodegenOptions.mmaDoubleBuffer; the accumulator's transfer then takes half its bytes). */
  doubleBuffer: boolean;
  /** Staged tiles alternate between two buffers: asked for, and both fit beside the transfer array. */
  twoBuffers: boolean;
  /**
   * "Once" plans inside a loop whose A is defined before it (attention's Q): A is staged once,
   * before that loop, into an array of its own (statements.ts's `for` calls stageInvariantA).
   */
  invariantA?: Stmt & { kind: "for" };
  /** That A held in left matrices for the loop, staged in the shared A array (CodegenOptions.mmaHoldInvariant). */
  holdA: boolean;
  /** No barrier before staging, none before the product first leaves the matrices (CodegenOptions.mmaLeanBarriers; "once" kernels only). */
  lean: boolean;
  /**
   * "Once" plans whose product is laid out one row per invocation (CodegenOptions.mmaLaneRows,
   * layout.ts): where it leaves the matrices in chunks, the chunks are of columns, so that every
   * invocation reads its row's part of each (rows would leave half of them idle in each chunk).
   */
  columnChunks?: boolean;
}

/** Halves of padding per staged row: rows then start on different banks (16 bytes keeps loads aligned). */
export const PAD = 8;
/** Floats of padding per row of the accumulator's way between registers and matrices. */
export const PAD_F32 = 4;
/**
 * Workgroup memory for moving the accumulator between registers and matrices, at most: a whole
 * 64 × 64 or 128 × 32 tile at once (a "once" plan in a loop moves its product every trip, and
 * each chunk costs two barriers); less where the kernel would not fit (codegen/wgsl.ts retries).
 */
export const TRANSFER_BYTES = 32768;
/** The subgroup size emulated matrices assume. */
export const EMULATED_SUBGROUP = 32;

/** The tl.dot calls that run on subgroup matrices, keyed by the dot's value id. */
export function planMma(ir: KernelIR, target: Target, options: CodegenOptions, workgroupSize: number, rowsOnly = false): Map<number, MmaPlan> {
  const plans = new Map<number, MmaPlan>();
  const configs = (target.subgroupMatrixConfigs ?? []).filter((c) => c.componentType === "f16" && c.resultComponentType === "f32");
  const emulated = options.subgroupMatrixEmulation === true;
  const sg = emulated ? EMULATED_SUBGROUP : target.subgroupMinSize;
  // The number of subgroups must be known when compiling: one subgroup size only.
  const usable = emulated || (target.subgroups && target.subgroupMaxSize === sg);
  if (options.subgroupMatrixDot === false || !usable || !target.shaderF16 || configs.length === 0 || workgroupSize % sg !== 0) return plans;
  const subgroups = workgroupSize / sg;
  // WebGPU numbers an invocation lid = subgroup_invocation_id + subgroup_size × subgroup_id, so with
  // one subgroup size, lid / size is the subgroup's index; on the H100 the builtin made matrix
  // kernels up to 36% slower (bench/NOTES.md §57).
  const subgroupIndex = { from: options.mmaSubgroupBuiltin === true && !emulated ? ("builtin" as const) : ("index" as const), size: sg };
  const stagingFlatIndex = options.mmaStagingFlatIndex === true;
  // `rowsOnly` (lane rows, plan.ts): every subgroup whole rows of each product, unless a split is asked for.
  const split = options.mmaSubgroupsM ?? (rowsOnly ? subgroups : undefined);
  const doubleBuffer = options.mmaDoubleBuffer === true;
  const transferBytes = options.mmaTransferBytes ?? TRANSFER_BYTES;
  const transferPad = options.mmaTransferPad ?? PAD_F32;
  // Loops at any depth: a loop holding a tl.dot is in uniform control flow already (the generic
  // dot's barriers need it too), as the matrix operations do.
  forEachStmt(ir.body, (s) => {
    if (s.kind !== "for") return;
    const found = accumulatingDot(s);
    if (!found) return;
    const shape = fit(found.dot, configs, subgroups, split);
    if (shape) plans.set(found.dot.id, withBuffers({ ...shape, kind: "loop", dot: found.dot, variable: found.variable, loop: s, zeroInit: startsAtZero(ir.body, s, found.variable), emulated, subgroupIndex, stagingFlatIndex, doubleBuffer, transferBytes, transferPad, twoBuffers: false, holdA: false, lean: false }, target.maxWorkgroupStorageBytes));
  });
  const loops = innermostLoops(ir.body);
  forEachValue(ir.body, (v) => {
    if (v.op !== "dot" || plans.has(v.id) || !halves(v)) return;
    const shape = fit(v, configs, subgroups, split);
    if (!shape) return;
    const loop = loops.get(v.id);
    const a = staged(v.a).value;
    const invariant = loop && options.mmaStageInvariant !== false && !defines(loop.body, a.id) ? { invariantA: loop } : {};
    const holdA = invariant.invariantA !== undefined && options.mmaHoldInvariant !== false;
    plans.set(v.id, { ...shape, kind: "once", dot: v, zeroInit: true, emulated, subgroupIndex, stagingFlatIndex, doubleBuffer: false, twoBuffers: false, transferBytes, transferPad, ...invariant, holdA, lean: false });
  });
  // Every barrier-less write needs a barrier between it and the reads it could overtake: a "once"
  // plan has one after its staging and one after storing its product, a loop plan's last matrix
  // loads have none after them (so: only kernels without loop plans).
  if (options.mmaLeanBarriers !== false && [...plans.values()].every((p) => p.kind === "once")) {
    for (const [id, p] of plans) plans.set(id, { ...p, lean: true });
  }
  return plans;
}

/** The innermost `for` around each `let`, by the value's id. */
function innermostLoops(body: readonly Stmt[], loop?: Stmt & { kind: "for" }, out = new Map<number, Stmt & { kind: "for" }>()): Map<number, Stmt & { kind: "for" }> {
  for (const s of body) {
    if (s.kind === "let" && loop) out.set(s.value.id, loop);
    for (const inner of bodiesOf(s)) innermostLoops(inner, s.kind === "for" ? s : loop, out);
  }
  return out;
}

/** Whether a `let` of `body` (at any depth) defines the value. */
function defines(body: readonly Stmt[], id: number): boolean {
  let found = false;
  forEachStmt(body, (s) => (found ||= s.kind === "let" && s.value.id === id));
  return found;
}

/** f16 × f16 → f32. */
function halves(dot: Value & { op: "dot" }): boolean {
  const dtype = (v: Value) => (v.type.kind === "data" ? v.type.dtype : undefined);
  // A batched (3-D) product takes the generic path.
  return dot.a.type.shape.length === 2 && dtype(dot.a) === "f16" && dtype(dot.b) === "f16" && dtype(dot) === "f32";
}

/** `acc = tl.dot(a, b, acc)` at the top of the loop's body, f16 operands, `acc` used by nothing else in the loop. */
function accumulatingDot(loop: Stmt & { kind: "for" }): { dot: Value & { op: "dot" }; variable: Variable } | undefined {
  const assigns = loop.body.filter((s): s is Stmt & { kind: "assign" } => s.kind === "assign" && s.value.op === "dot");
  if (assigns.length !== 1) return undefined;
  const { variable, value: dot } = assigns[0];
  if (dot.op !== "dot" || dot.acc?.op !== "readVar" || dot.acc.variable.id !== variable.id) return undefined;
  if (!halves(dot) || variable.type.kind !== "data" || variable.type.dtype !== "f32") return undefined;
  // By id: the pipelining rewrite (pipeline.ts) copies values.
  if (!loop.body.some((s) => s.kind === "let" && s.value.id === dot.id)) return undefined;
  // Nothing else in the loop may see the accumulator or the product: reads of `acc` other than
  // the dot's own are allowed only where nothing uses them (lowering leaves some unused).
  const watched = new Set([dot.id]);
  forEachValue(loop.body, (v) => {
    if (v.op === "readVar" && v.variable.id === variable.id && v.id !== dot.acc?.id) watched.add(v.id);
  });
  let alone = true;
  forEachValue(loop.body, (v) => {
    if (operandsOf(v).some((o) => watched.has(o.id) && !(v.id === dot.id))) alone = false;
  });
  forEachStmt(loop.body, (s) => {
    if (s.kind === "assign" && s.variable.id === variable.id && s !== assigns[0]) alone = false;
    if (s.kind !== "let" && s !== assigns[0] && valuesOfStmt(s).some((v) => watched.has(v.id))) alone = false;
  });
  return alone ? { dot, variable } : undefined;
}

/**
 * Whether `variable` holds zeros when `loop` starts: declared as tl.zeros in the same statement
 * list, before the loop, and assigned nowhere between (then its registers need not be loaded).
 */
function startsAtZero(body: readonly Stmt[], loop: Stmt, variable: Variable): boolean {
  const stmts = containing(body, loop);
  if (!stmts) return false;
  for (let i = stmts.indexOf(loop) - 1; i >= 0; i--) {
    const s = stmts[i];
    if (s.kind === "declare" && s.variable.id === variable.id) return isZero(s.init);
    let touched = false;
    forEachStmt([s], (t) => (touched ||= t.kind === "assign" && t.variable.id === variable.id));
    if (touched) return false;
  }
  return false;
}

/** The statement list `target` sits in. */
function containing(stmts: readonly Stmt[], target: Stmt): readonly Stmt[] | undefined {
  if (stmts.includes(target)) return stmts;
  for (const s of stmts) {
    for (const inner of bodiesOf(s)) {
      const found = containing(inner, target);
      if (found) return found;
    }
  }
  return undefined;
}

/** A constant zero, or a splat or broadcast of one; `positive`: +0 only (the bits a zeroed half has), not −0. */
export function isZero(v: Value, positive = false): boolean {
  if (v.op === "const") return positive ? Object.is(v.value, 0) : v.value === 0;
  if (v.op === "splat" || v.op === "broadcast") return isZero(v.value, positive);
  return false;
}

/**
 * The largest configuration whose matrices tile the dot and split evenly over the subgroups: as
 * `asked` subgroups along M where that splits evenly (CodegenOptions.mmaSubgroupsM), else the squarest.
 */
function fit(dot: Value & { op: "dot" }, configs: readonly SubgroupMatrixConfig[], subgroups: number, asked?: number): Pick<MmaPlan, "config" | "subgroupsM" | "subgroupsN" | "tilesM" | "tilesN"> | undefined {
  const [m, k] = dot.a.type.shape;
  const n = dot.b.type.shape[1];
  const bySize = [...configs].sort((x, y) => y.M * y.N * y.K - x.M * x.N * x.K);
  for (const config of bySize) {
    if (m % config.M || n % config.N || k % config.K) continue;
    const [rows, cols] = [m / config.M, n / config.N];
    let best: Pick<MmaPlan, "config" | "subgroupsM" | "subgroupsN" | "tilesM" | "tilesN"> | undefined;
    for (let subgroupsM = 1; subgroupsM <= subgroups; subgroupsM *= 2) {
      const subgroupsN = subgroups / subgroupsM;
      if (!Number.isInteger(subgroupsN) || rows % subgroupsM || cols % subgroupsN) continue;
      const [tilesM, tilesN] = [rows / subgroupsM, cols / subgroupsN];
      if (subgroupsM === asked) {
        best = { config, subgroupsM, subgroupsN, tilesM, tilesN };
        break;
      }
      // Fewest matrix loads per multiply: the squarest region.
      if (!best || tilesM + tilesN < best.tilesM + best.tilesN) best = { config, subgroupsM, subgroupsN, tilesM, tilesN };
    }
    if (best) return best;
  }
  return undefined;
}

/** WGSL names of a plan's accumulator matrices and its subgroup's first row and column (by the dot: two loops may share `acc`). */
export function names(plan: MmaPlan): { acc: string; row: string; col: string; parity: string } {
  const id = plan.dot.id;
  return { acc: `mma${id}`, row: `mma${id}_r`, col: `mma${id}_c`, parity: `mma${id}_p` };
}

/** What is staged for an operand: the operand itself, or x for `tl.trans(x)` (then loaded column-major). */
export function staged(operand: Value): { value: Value; colMajor: boolean } {
  return operand.op === "trans" && operand.value.type.shape.length === 2 ? { value: operand.value, colMajor: true } : { value: operand, colMajor: false };
}

/** Where a plan's operands are staged: row strides (halves) and one buffer's size, of what is staged for A and for B. */
export function operandStaging(plan: MmaPlan): { strideA: number; strideB: number; sizeA: number; sizeB: number } {
  const { dot } = plan;
  const [m, k] = dot.a.type.shape;
  const n = dot.b.type.shape[1];
  const a = staged(dot.a);
  const b = staged(dot.b);
  // Row strides of what is staged: A is m × k (or, transposed, k × m), B k × n (or n × k).
  const strideA = (a.colMajor ? m : k) + PAD;
  const strideB = (b.colMajor ? k : n) + PAD;
  return { strideA, strideB, sizeA: (a.colMajor ? k : m) * strideA, sizeB: (b.colMajor ? n : k) * strideB };
}

/**
 * Rows of the accumulator moved at a time (or, `columns`, columns of every row), the row stride
 * (floats) of the array they go through, and that array's floats.
 */
export function transferShape(plan: MmaPlan): { stride: number; chunk: number; columns: boolean; floats: number } {
  const [m, n] = plan.dot.type.shape;
  const pad = plan.transferPad;
  const stride = n + pad;
  const budget = plan.doubleBuffer ? plan.transferBytes / 2 : plan.transferBytes;
  const chunk = Math.min(m, Math.max(plan.config.M, 2 ** Math.floor(Math.log2(budget / (4 * stride)))));
  if (!plan.columnChunks || chunk === m) return { stride, chunk, columns: false, floats: chunk * stride };
  const room = Math.floor(budget / (4 * m)) - pad;
  const cols = Math.min(n, Math.max(plan.config.N, room >= 1 ? 2 ** Math.floor(Math.log2(room)) : 0));
  return { stride: cols + pad, chunk: cols, columns: true, floats: m * (cols + pad) };
}

/** The edge tiles' store's slices (mma.ts storeEdgeMatrices): one matrix of f32 a subgroup. */
export function edgeSliceFloats(plan: MmaPlan): number {
  return plan.subgroupsM * plan.subgroupsN * plan.config.M * plan.config.N;
}

/** A loop plan with two buffers where they fit beside the accumulator's transfer array. */
function withBuffers(plan: MmaPlan, maxWorkgroupStorageBytes: number): MmaPlan {
  const { sizeA, sizeB } = operandStaging(plan);
  const transferBytes = 4 * transferShape(plan).floats;
  return { ...plan, twoBuffers: plan.doubleBuffer && 2 * 2 * (sizeA + sizeB) + transferBytes + 1024 <= maxWorkgroupStorageBytes };
}

/** The workgroup arrays a plan's dot stages into (the slot names mma.ts asks for), requested from `arrays`. */
export function requestMmaArrays(plan: MmaPlan, arrays: Map<string, WorkgroupArray>, edgeSlices = false): void {
  if (edgeSlices) requestArray(arrays, "mmae", "f32", edgeSliceFloats(plan));
  else requestArray(arrays, "mmac", "f32", transferShape(plan).floats);
  const { sizeA, sizeB } = operandStaging(plan);
  const own = plan.twoBuffers ? `mma${plan.dot.id}` : "mma";
  const copies = plan.twoBuffers ? 2 : 1;
  requestArray(arrays, invariantSlot(plan) ?? `${own}a`, "f16", (plan.invariantA ? 1 : copies) * sizeA);
  requestArray(arrays, `${own}b`, "f16", copies * sizeB);
}

/**
 * The slot a loop-invariant A is staged in: an array of its own, read every trip; or, held in
 * matrices, the dot-shared A array (read once before the loop, then free for the other dots).
 */
export function invariantSlot(plan: MmaPlan): string | undefined {
  if (!plan.invariantA) return undefined;
  return plan.holdA ? "mmaa" : `mma${plan.dot.id}q`;
}

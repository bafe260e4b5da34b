// tl.dot on subgroup matrices (tensor cores), through Dawn's chromium_experimental_subgroup_matrix
// (https://dawn.googlesource.com/dawn/+/refs/heads/main/docs/dawn/features/subgroup_matrix.md).
// Two kinds of plan, both for f16 operands and an f32 result:
//  - "loop": Triton tutorial 03's `acc = tl.dot(a, b, acc)` in a loop whose accumulator nothing
//    else in the loop reads. The accumulator lives in subgroup_matrix_result variables for the
//    whole loop: loaded from its registers before (or zero, when it starts as tl.zeros), stored
//    back after (statements.ts's `for`), its `assign` skipped.
//  - "once": any other such tl.dot (attention's Q·Kᵀ and P·V): the product is accumulated in
//    zeroed matrices and stored back into the dot's registers (plus `acc`'s, when given).
// Each of the workgroup's S subgroups owns an RM × RN region of the output tile, cut into the
// configuration's cm × cn matrices (several per subgroup: operand reuse). Operands are staged
// as halves in workgroup memory, rows padded by 8 halves (docs/ENVIRONMENT.md §3 measured unpadded loads
// at 240–330 TFLOP/s against 575–608 padded), each register stored at one per-invocation base
// plus a constant. An operand written `tl.trans(x)` is staged as x and loaded column-major.
// In a loop plan the staged tiles can alternate between two buffers (one barrier per trip instead
// of two; Target.mmaDoubleBuffer, off: 5.5× slower in a hand-written kernel on the H200, bench/NOTES.md §19). The accumulator moves between registers and
// matrices a few rows at a time through workgroup memory (matrix elements cannot be addressed).
// Target.subgroupMatrixEmulation emits the same plan with each "matrix" a private array of the
// whole matrix per invocation (subgroups of 32 emulated as lid / 32), so lavapipe, which has no
// subgroup matrices, checks the staging, offsets and transfers against the interpreter.
// Spelling: `subgroupMatrixLoad<T, row_major|col_major>(p, offset, stride)` and
// `subgroupMatrixStore<row_major>(p, offset, value, stride)`, the current Dawn's.

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import type { SubgroupMatrixConfig, Target } from "../ir/target";
import { bodiesOf, forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import type { Emitter } from "./emitter";
import { tileOffset } from "./layout";

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
  /** Emulated matrices (Target.subgroupMatrixEmulation). */
  emulated: boolean;
  /** Workgroup memory for the accumulator's way between registers and matrices (Target.mmaTransferBytes). */
  transferBytes: number;
  /** Loop plans: staged tiles alternate between two buffers (decided at emission, where memory is known). */
  doubleBuffer: boolean;
  /**
   * "Once" plans inside a loop whose A is defined before it (attention's Q): A is staged once,
   * before that loop, into an array of its own (statements.ts's `for` calls stageInvariantA).
   */
  invariantA?: Stmt & { kind: "for" };
}

/** Halves of padding per staged row: rows then start on different banks (16 bytes keeps loads aligned). */
const PAD = 8;
/** Floats of padding per row of the accumulator's way between registers and matrices. */
const PAD_F32 = 4;
/**
 * Workgroup memory for moving the accumulator between registers and matrices, at most: a whole
 * 64 × 64 or 128 × 32 tile at once (a "once" plan in a loop moves its product every trip, and
 * each chunk costs two barriers); less where the kernel would not fit (codegen/wgsl.ts retries).
 */
export const TRANSFER_BYTES = 32768;
/** The subgroup size emulated matrices assume. */
const EMULATED_SUBGROUP = 32;

/** The tl.dot calls that run on subgroup matrices, keyed by the dot's value id. */
export function planMma(ir: KernelIR, target: Target, workgroupSize: number): Map<number, MmaPlan> {
  const plans = new Map<number, MmaPlan>();
  const configs = (target.subgroupMatrixConfigs ?? []).filter((c) => c.componentType === "f16" && c.resultComponentType === "f32");
  const emulated = target.subgroupMatrixEmulation === true;
  const sg = emulated ? EMULATED_SUBGROUP : target.subgroupMinSize;
  // The number of subgroups must be known when compiling: one subgroup size only.
  const usable = emulated || (target.subgroups && target.subgroupMaxSize === sg);
  if (target.subgroupMatrixDot === false || !usable || !target.shaderF16 || configs.length === 0 || workgroupSize % sg !== 0) return plans;
  const subgroups = workgroupSize / sg;
  const doubleBuffer = target.mmaDoubleBuffer === true;
  const transferBytes = target.mmaTransferBytes ?? TRANSFER_BYTES;
  // Loops at any depth: a loop holding a tl.dot is in uniform control flow already (the generic
  // dot's barriers need it too), as the matrix operations do.
  forEachStmt(ir.body, (s) => {
    if (s.kind !== "for") return;
    const found = accumulatingDot(s);
    if (!found) return;
    const shape = fit(found.dot, configs, subgroups);
    if (shape) plans.set(found.dot.id, { ...shape, kind: "loop", dot: found.dot, variable: found.variable, loop: s, zeroInit: startsAtZero(ir.body, s, found.variable), emulated, doubleBuffer, transferBytes });
  });
  const loops = innermostLoops(ir.body);
  forEachValue(ir.body, (v) => {
    if (v.op !== "dot" || plans.has(v.id) || !halves(v)) return;
    const shape = fit(v, configs, subgroups);
    if (!shape) return;
    const loop = loops.get(v.id);
    const a = staged(v.a).value;
    const invariant = loop && target.mmaStageInvariant !== false && !defines(loop.body, a.id) ? { invariantA: loop } : {};
    plans.set(v.id, { ...shape, kind: "once", dot: v, zeroInit: true, emulated, doubleBuffer: false, transferBytes, ...invariant });
  });
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

function isZero(v: Value): boolean {
  if (v.op === "const") return v.value === 0;
  if (v.op === "splat" || v.op === "broadcast") return isZero(v.value);
  return false;
}

/** The largest configuration whose matrices tile the dot and split evenly over the subgroups. */
function fit(dot: Value & { op: "dot" }, configs: readonly SubgroupMatrixConfig[], subgroups: number): Pick<MmaPlan, "config" | "subgroupsM" | "subgroupsN" | "tilesM" | "tilesN"> | undefined {
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
      // Fewest matrix loads per multiply: the squarest region.
      if (!best || tilesM + tilesN < best.tilesM + best.tilesN) best = { config, subgroupsM, subgroupsN, tilesM, tilesN };
    }
    if (best) return best;
  }
  return undefined;
}

// ---- the matrix operations, real or emulated ----

/** `subgroup_matrix_*` types and builtins, or their emulation in private arrays (one whole matrix per invocation). */
export interface MatrixOps {
  /** `var name: array<result matrix, count>` set to zero (explicitly: a declaration inside a loop is not re-zeroed by every driver). */
  results(name: string, c: SubgroupMatrixConfig, count: number): void;
  /** Defines `name` as the left (cm × ck) or right (ck × cn) operand loaded from `array`. */
  operand(side: "left" | "right", name: string, c: SubgroupMatrixConfig, array: string, offset: string, stride: number, colMajor: boolean): void;
  mma(acc: string, left: string, right: string, c: SubgroupMatrixConfig): void;
  storeResult(array: string, offset: string, acc: string, stride: number, c: SubgroupMatrixConfig): void;
  loadResult(acc: string, array: string, offset: string, stride: number, c: SubgroupMatrixConfig): void;
}

const resultType = (c: SubgroupMatrixConfig) => `subgroup_matrix_result<f32, ${c.N}, ${c.M}>`;

/** The subgroup size emulated matrices assume (`lid / 32` is the subgroup). */
export { EMULATED_SUBGROUP };

/** The matrix operations as WGSL lines given to `emit` (bench/mma-probe.ts writes its kernels with them too). */
export function matrixOps(emit: (line: string) => void, emulated: boolean): MatrixOps {
  return emulated ? emulatedOps(emit) : realOps(emit);
}

function realOps(emit: (line: string) => void): MatrixOps {
  const ctx = { emit };
  const major = (col: boolean) => (col ? "col_major" : "row_major");
  return {
    results: (name, c, count) => ctx.emit(`var ${name} = array<${resultType(c)}, ${count}>();`),
    operand: (side, name, c, array, offset, stride, colMajor) => {
      const type = side === "left" ? `subgroup_matrix_left<f16, ${c.K}, ${c.M}>` : `subgroup_matrix_right<f16, ${c.N}, ${c.K}>`;
      ctx.emit(`let ${name} = subgroupMatrixLoad<${type}, ${major(colMajor)}>(&${array}, ${offset}, ${stride}u);`);
    },
    mma: (acc, left, right) => ctx.emit(`${acc} = subgroupMatrixMultiplyAccumulate(${left}, ${right}, ${acc});`),
    storeResult: (array, offset, acc, stride) => ctx.emit(`subgroupMatrixStore<row_major>(&${array}, ${offset}, ${acc}, ${stride}u);`),
    loadResult: (acc, array, offset, stride, c) => ctx.emit(`${acc} = subgroupMatrixLoad<${resultType(c)}, row_major>(&${array}, ${offset}, ${stride}u);`),
  };
}

/** Every invocation of an emulated subgroup holds and computes the whole matrix; stores write the same values. */
function emulatedOps(emit: (line: string) => void): MatrixOps {
  const ctx = { emit };
  const loop = (count: number, body: string) => ctx.emit(`for (var e = 0u; e < ${count}u; e++) { ${body} }`);
  return {
    results: (name, c, count) => ctx.emit(`var ${name} = array<array<f32, ${c.M * c.N}>, ${count}>();`),
    operand: (side, name, c, array, offset, stride, colMajor) => {
      // Row-major elements of a rows × cols matrix.
      const [rows, cols] = side === "left" ? [c.M, c.K] : [c.K, c.N];
      ctx.emit(`var ${name}: array<f16, ${rows * cols}>;`);
      const at = colMajor ? `(e % ${cols}u) * ${stride}u + e / ${cols}u` : `(e / ${cols}u) * ${stride}u + e % ${cols}u`;
      loop(rows * cols, `${name}[e] = ${array}[${offset} + ${at}];`);
    },
    mma: (acc, left, right, c) =>
      loop(c.M * c.N, `var s = ${acc}[e]; for (var q = 0u; q < ${c.K}u; q++) { s = fma(f32(${left}[(e / ${c.N}u) * ${c.K}u + q]), f32(${right}[q * ${c.N}u + e % ${c.N}u]), s); } ${acc}[e] = s;`),
    storeResult: (array, offset, acc, stride, c) => loop(c.M * c.N, `${array}[${offset} + (e / ${c.N}u) * ${stride}u + e % ${c.N}u] = ${acc}[e];`),
    loadResult: (acc, array, offset, stride, c) => loop(c.M * c.N, `${acc}[e] = ${array}[${offset} + (e / ${c.N}u) * ${stride}u + e % ${c.N}u];`),
  };
}

function opsFor(ctx: Emitter, plan: MmaPlan): MatrixOps {
  ctx.useSubgroupMatrix(plan.emulated);
  return matrixOps((line) => ctx.emit(line), plan.emulated);
}

/** WGSL names of a plan's accumulator matrices and its subgroup's first row and column (by the dot: two loops may share `acc`). */
function names(plan: MmaPlan): { acc: string; row: string; col: string; parity: string } {
  const id = plan.dot.id;
  return { acc: `mma${id}`, row: `mma${id}_r`, col: `mma${id}_c`, parity: `mma${id}_p` };
}

/** The accumulator's matrices (zero) and this subgroup's region of the output tile. */
function declareMatrices(ctx: Emitter, ops: MatrixOps, plan: MmaPlan, what: string): void {
  const { acc, row, col } = names(plan);
  const { config, tilesM, tilesN } = plan;
  ctx.emit(`// ${what} in ${tilesM * tilesN} subgroup matrices of ${config.M}×${config.N} per subgroup${plan.emulated ? " (emulated)" : ""} (codegen/mma.ts)`);
  ops.results(acc, config, tilesM * tilesN);
  const sg = plan.emulated ? `(lid / ${EMULATED_SUBGROUP}u)` : "sg_id";
  ctx.emit(`let ${row} = (${sg} % ${plan.subgroupsM}u) * ${tilesM * config.M}u;`);
  ctx.emit(`let ${col} = (${sg} / ${plan.subgroupsM}u) * ${tilesN * config.N}u;`);
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
 * Where each register of a 2-D block goes in a row-major array of `stride` elements per row: one
 * per-invocation base (emitted once) plus a constant per register, or a whole expression where
 * the layout gives no such split (replicated blocks). Also each register's row offset from the
 * base's row, for a transfer that moves some rows at a time.
 */
function paddedPlaces(ctx: Emitter, v: Value, stride: number): { index: (j: number) => string; rowOf: (j: number) => string; owner?: string } {
  const layout = ctx.layout(v.type);
  const cols = v.type.shape[1];
  const w = ctx.workgroupSize;
  const plus = (base: string, c: number) => (c ? `${base} + ${c}u` : base);
  if (layout.tile) {
    const t = ctx.tileBase(layout);
    const [row0, base] = [ctx.fresh("mr"), ctx.fresh("mb")];
    ctx.emit(`let ${row0} = u32(${t}) / ${cols}u;`);
    ctx.emit(`let ${base} = ${row0} * ${stride}u + u32(${t}) % ${cols}u;`);
    const split = (j: number) => {
      const offset = tileOffset(layout.tile!, w, j);
      return [Math.floor(offset / cols), offset % cols];
    };
    return { index: (j) => plus(base, split(j)[0] * stride + split(j)[1]), rowOf: (j) => plus(row0, split(j)[0]) };
  }
  const vec = layout.vec;
  if (!layout.replicated && cols % vec === 0 && (w * vec) % cols === 0) {
    // Register j: element (j / V) * W * V + t * V + j % V; a sweep of W * V elements is whole rows.
    const lane = ctx.elementIndex(v.type, 0);
    const [row0, base] = [ctx.fresh("mr"), ctx.fresh("mb")];
    ctx.emit(`let ${row0} = u32(${lane}) / ${cols}u;`);
    ctx.emit(`let ${base} = ${row0} * ${stride}u + u32(${lane}) % ${cols}u;`);
    const rows = (j: number) => (Math.floor(j / vec) * w * vec) / cols;
    return { index: (j) => plus(base, rows(j) * stride + (j % vec)), rowOf: (j) => plus(row0, rows(j)) };
  }
  const element = (j: number) => `u32(${ctx.elementIndex(v.type, j)})`;
  return {
    index: (j) => `${element(j)} / ${cols}u * ${stride}u + ${element(j)} % ${cols}u`,
    rowOf: (j) => `${element(j)} / ${cols}u`,
    owner: layout.replicated ? `lid < ${layout.numel}u` : ctx.ownerCondition(v.type),
  };
}

/** Writes an operand's registers into `array` (rows of `stride` halves from `offset`). */
function stage(ctx: Emitter, v: Value, array: string, stride: number, offset: string): void {
  const places = paddedPlaces(ctx, v, stride);
  const writes = () => {
    for (let j = 0; j < ctx.layout(v.type).ept; j++) ctx.emit(`${array}[${offset ? `${offset} + ` : ""}${places.index(j)}] = ${ctx.reg(v, j)};`);
  };
  if (!places.owner) return writes();
  ctx.emit(`if (${places.owner}) {`);
  ctx.nested(writes);
  ctx.emit("}");
}

/** Rows of the accumulator moved at a time, and the row stride (floats) of the array they go through. */
function transferShape(plan: MmaPlan): { stride: number; chunk: number } {
  const [m, n] = plan.dot.type.shape;
  const stride = n + PAD_F32;
  const budget = plan.doubleBuffer ? plan.transferBytes / 2 : plan.transferBytes;
  return { stride, chunk: Math.min(m, Math.max(plan.config.M, 2 ** Math.floor(Math.log2(budget / (4 * stride))))) };
}

/**
 * Moves the accumulator between registers and matrices, `chunk` rows at a time through a
 * workgroup array: registers → array → matrices ("load") or matrices → array → registers
 * ("store"; `add(j)`, when given, is added to register j as it is written).
 */
function transfer(ctx: Emitter, ops: MatrixOps, plan: MmaPlan, direction: "load" | "store", register: (j: number) => string, add?: (j: number) => string): void {
  const out = plan.dot;
  const [m, n] = out.type.shape;
  const { acc, row, col } = names(plan);
  const { config } = plan;
  const { stride, chunk } = transferShape(plan);
  const array = ctx.scratch("mmac", "f32", chunk * stride);
  const whole = chunk === m;
  const ch = whole ? "0u" : ctx.fresh("mma_rows");
  const places = paddedPlaces(ctx, out, stride);
  const layout = ctx.layout(out.type);
  const registers = () => {
    const guard = (j: number, body: string) => {
      const conditions = [...(whole ? [] : [`${places.rowOf(j)} - ${ch} < ${chunk}u`]), ...(places.owner && direction === "load" ? [places.owner] : [])];
      ctx.emit(conditions.length ? `if (${conditions.join(" && ")}) { ${body} }` : body);
    };
    for (let j = 0; j < layout.ept; j++) {
      const at = `${array}[${places.index(j)}${whole ? "" : ` - ${ch} * ${stride}u`}]`;
      guard(j, direction === "load" ? `${at} = ${register(j)};` : `${register(j)} = ${at}${add ? ` + ${add(j)}` : ""};`);
    }
  };
  const matrices = () => {
    for (let i = 0; i < plan.tilesM; i++) {
      for (let t = 0; t < plan.tilesN; t++) {
        const r = `${row} + ${i * config.M}u`;
        const offset = `(${r} - ${ch}) * ${stride}u + ${col} + ${t * config.N}u`;
        const matrix = `${acc}[${i * plan.tilesN + t}]`;
        // Uniform in the subgroup (its rows), as the matrix operations need.
        const op = () => (direction === "load" ? ops.loadResult(matrix, array, offset, stride, config) : ops.storeResult(array, offset, matrix, stride, config));
        if (whole) op();
        else {
          ctx.emit(`if (${r} - ${ch} < ${chunk}u) {`);
          ctx.nested(op);
          ctx.emit("}");
        }
      }
    }
  };
  const body = () => {
    ctx.emit("workgroupBarrier();");
    if (direction === "load") registers();
    else matrices();
    ctx.emit("workgroupBarrier();");
    if (direction === "load") matrices();
    else registers();
  };
  if (whole) return body();
  ctx.emit(`for (var ${ch} = 0u; ${ch} < ${m}u; ${ch} += ${chunk}u) {`);
  ctx.nested(body);
  ctx.emit("}");
}

/** What is staged for an operand: the operand itself, or x for `tl.trans(x)` (then loaded column-major). */
function staged(operand: Value): { value: Value; colMajor: boolean } {
  return operand.op === "trans" && operand.value.type.shape.length === 2 ? { value: operand.value, colMajor: true } : { value: operand, colMajor: false };
}

/** Before the loop of a "once" plan whose A is loop-invariant: A staged into its own array, once. */
export function stageInvariantA(ctx: Emitter, plan: MmaPlan): void {
  const a = staged(plan.dot.a);
  const { array, stride } = invariantArray(ctx, plan);
  ctx.emit(`// ${plan.dot.a.op === "trans" ? "tl.trans of " : ""}the loop-invariant A of a tl.dot, staged once (codegen/mma.ts)`);
  stage(ctx, a.value, array, stride, "");
}

function invariantArray(ctx: Emitter, plan: MmaPlan): { array: string; stride: number } {
  const [m, k] = plan.dot.a.type.shape;
  const colMajor = staged(plan.dot.a).colMajor;
  const stride = (colMajor ? m : k) + PAD;
  return { array: ctx.scratch(`mma${plan.dot.id}q`, "f16", (colMajor ? k : m) * stride), stride };
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
  const [m, k] = dot.a.type.shape;
  const n = dot.b.type.shape[1];
  const { parity } = names(plan);
  const a = staged(dot.a);
  const b = staged(dot.b);
  // Row strides of what is staged: A is m × k (or, transposed, k × m), B k × n (or n × k).
  const strideA = (a.colMajor ? m : k) + PAD;
  const strideB = (b.colMajor ? k : n) + PAD;
  const sizeA = (a.colMajor ? k : m) * strideA;
  const sizeB = (b.colMajor ? n : k) * strideB;
  // Two buffers where both fit beside the accumulator's transfer array.
  const transferBytes = 4 * transferShape(plan).stride * transferShape(plan).chunk;
  const double = plan.kind === "loop" && plan.doubleBuffer && 2 * 2 * (sizeA + sizeB) + transferBytes + 1024 <= ctx.maxWorkgroupStorageBytes;
  const own = double ? `mma${dot.id}` : "mma";
  const sa = plan.invariantA ? invariantArray(ctx, plan).array : ctx.scratch(`${own}a`, "f16", (double ? 2 : 1) * sizeA);
  const sb = ctx.scratch(`${own}b`, "f16", (double ? 2 : 1) * sizeB);
  const [offA, offB] = double ? [ctx.fresh("mma_oa"), ctx.fresh("mma_ob")] : ["", ""];
  if (double) {
    // No barrier before the writes: the buffer written now was last read two trips ago, and every
    // invocation passed the last trip's barrier after finishing those reads.
    ctx.emit(`let ${offA} = ${parity} * ${sizeA}u;`);
    ctx.emit(`let ${offB} = ${parity} * ${sizeB}u;`);
  } else {
    ctx.emit("workgroupBarrier();");
  }
  if (!plan.invariantA) stage(ctx, a.value, sa, strideA, offA);
  stage(ctx, b.value, sb, strideB, offB);
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
      for (let i = 0; i < tilesM; i++) {
        const r = `${row} + ${i * config.M}u`;
        ops.operand("left", `l${i}`, config, sa, at(offA, a.colMajor ? `${kk * strideA}u + ${r}` : `(${r}) * ${strideA}u + ${kk}u`), strideA, a.colMajor);
      }
      for (let t = 0; t < tilesN; t++) {
        const c = `${col} + ${t * config.N}u`;
        ops.operand("right", `r${t}`, config, sb, at(offB, b.colMajor ? `(${c}) * ${strideB}u + ${kk}u` : `${kk * strideB}u + ${c}`), strideB, b.colMajor);
      }
      for (let i = 0; i < tilesM; i++) for (let t = 0; t < tilesN; t++) ops.mma(`${acc}[${i * tilesN + t}]`, `l${i}`, `r${t}`, config);
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

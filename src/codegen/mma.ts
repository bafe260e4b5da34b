// tl.dot on subgroup matrices (tensor cores), through Dawn's chromium_experimental_subgroup_matrix
// (https://dawn.googlesource.com/dawn/+/refs/heads/main/docs/dawn/features/subgroup_matrix.md).
// The pattern is Triton tutorial 03's: a top-level loop whose body does `acc = tl.dot(a, b, acc)`
// with f16 `a` and `b` and an f32 accumulator variable read nowhere else in the loop. Such an
// accumulator lives in subgroup_matrix_result variables for the whole loop, not in the block's
// registers: each of the workgroup's S subgroups owns an RM × RN region of the output tile, cut
// into the configuration's cm × cn matrices. Per trip, A and B are staged as halves in workgroup
// memory and each subgroup loads its left (cm × ck) and right (ck × cn) matrices from there and
// multiply-accumulates. Entering the loop the accumulator's registers are loaded into the
// matrices, leaving it they are stored back, a few rows at a time through workgroup memory
// (the matrices' elements cannot be addressed). Any other tl.dot takes the generic path (dot.ts).
// Spelling: `subgroupMatrixLoad<T, row_major>(p, offset, stride)` and
// `subgroupMatrixStore<row_major>(p, offset, value, stride)`, the current Dawn's (the bool
// argument of the feature document is deprecated there: a warning per call on the H200).

import type { KernelIR, Stmt, Value, Variable } from "../ir/ir";
import { operandsOf } from "../ir/ir";
import type { SubgroupMatrixConfig, Target } from "../ir/target";
import { forEachStmt, forEachValue, valuesOfStmt } from "../ir/walk";
import type { Emitter } from "./emitter";
import { writeElements } from "./rearrange";

/** How one loop's tl.dot runs on subgroup matrices. */
export interface MmaPlan {
  dot: Value & { op: "dot" };
  /** The accumulator variable (`acc`), f32 [M, N]. */
  variable: Variable;
  loop: Stmt & { kind: "for" };
  config: SubgroupMatrixConfig;
  /** Subgroups along M and along N (their product: the workgroup's subgroups). */
  subgroupsM: number;
  subgroupsN: number;
  /** Matrices per subgroup along M and along N. */
  tilesM: number;
  tilesN: number;
}

/** Halves of padding per staged row: rows then start on different banks (16 bytes keeps loads aligned). */
const PAD = 8;
/** Workgroup memory for moving the accumulator between registers and matrices, at most. */
const TRANSFER_BYTES = 8192;

/** The loops whose tl.dot runs on subgroup matrices, keyed by the dot's value id. */
export function planMma(ir: KernelIR, target: Target, workgroupSize: number): Map<number, MmaPlan> {
  const plans = new Map<number, MmaPlan>();
  const configs = (target.subgroupMatrixConfigs ?? []).filter((c) => c.componentType === "f16" && c.resultComponentType === "f32");
  const sg = target.subgroupMinSize;
  // The number of subgroups must be known when compiling: one subgroup size only.
  if (target.subgroupMatrixDot === false || !target.subgroups || !target.shaderF16 || configs.length === 0 || target.subgroupMaxSize !== sg || workgroupSize % sg !== 0) return plans;
  // Top-level loops only: the matrix operations need uniform control flow.
  for (const s of ir.body) {
    if (s.kind !== "for") continue;
    const found = accumulatingDot(s);
    if (!found) continue;
    const plan = fit(found.dot, configs, workgroupSize / sg);
    if (plan) plans.set(found.dot.id, { ...plan, dot: found.dot, variable: found.variable, loop: s });
  }
  return plans;
}

/** `acc = tl.dot(a, b, acc)` at the top of the loop's body, f16 operands, `acc` used by nothing else in the loop. */
function accumulatingDot(loop: Stmt & { kind: "for" }): { dot: Value & { op: "dot" }; variable: Variable } | undefined {
  const assigns = loop.body.filter((s): s is Stmt & { kind: "assign" } => s.kind === "assign" && s.value.op === "dot");
  if (assigns.length !== 1) return undefined;
  const { variable, value: dot } = assigns[0];
  if (dot.op !== "dot" || dot.acc?.op !== "readVar" || dot.acc.variable.id !== variable.id) return undefined;
  // A batched (3-D) product takes the generic path.
  if (dot.a.type.shape.length !== 2) return undefined;
  if (dot.a.type.kind !== "data" || dot.a.type.dtype !== "f16" || variable.type.kind !== "data" || variable.type.dtype !== "f32") return undefined;
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

/** The largest configuration whose matrices tile the dot and split evenly over the subgroups. */
function fit(dot: Value & { op: "dot" }, configs: readonly SubgroupMatrixConfig[], subgroups: number): Omit<MmaPlan, "dot" | "variable" | "loop"> | undefined {
  const [m, k] = dot.a.type.shape;
  const n = dot.b.type.shape[1];
  const bySize = [...configs].sort((x, y) => y.M * y.N * y.K - x.M * x.N * x.K);
  for (const config of bySize) {
    if (m % config.M || n % config.N || k % config.K) continue;
    const [rows, cols] = [m / config.M, n / config.N];
    let best: Omit<MmaPlan, "dot" | "variable" | "loop"> | undefined;
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

/** WGSL names of a plan's accumulator matrices and its subgroup's first row and column (by the dot: two loops may share `acc`). */
function names(plan: MmaPlan): { acc: string; row: string; col: string } {
  const id = plan.dot.id;
  return { acc: `mma${id}`, row: `mma${id}_r`, col: `mma${id}_c` };
}

const resultType = (c: SubgroupMatrixConfig) => `subgroup_matrix_result<f32, ${c.N}, ${c.M}>`;

/**
 * Before the loop: the accumulator's matrices, this subgroup's region, and the variable's
 * current registers loaded into the matrices.
 */
export function enterMma(ctx: Emitter, plan: MmaPlan, register: (j: number) => string): void {
  ctx.useSubgroupMatrix();
  const { acc, row, col } = names(plan);
  const { config, tilesM, tilesN } = plan;
  ctx.emit(`// ${plan.variable.name} in ${tilesM * tilesN} subgroup matrices of ${config.M}×${config.N} per subgroup (codegen/mma.ts)`);
  ctx.emit(`var ${acc}: array<${resultType(config)}, ${tilesM * tilesN}>;`);
  ctx.emit(`let ${row} = (sg_id % ${plan.subgroupsM}u) * ${tilesM * config.M}u;`);
  ctx.emit(`let ${col} = (sg_id / ${plan.subgroupsM}u) * ${tilesN * config.N}u;`);
  transfer(ctx, plan, "load", register);
}

/** After the loop: the matrices stored back into the variable's registers. */
export function leaveMma(ctx: Emitter, plan: MmaPlan, register: (j: number) => string): void {
  transfer(ctx, plan, "store", register);
}

/**
 * Moves the accumulator between its registers and its matrices, `chunk` rows at a time through a
 * workgroup array: registers → array → matrices ("load") or matrices → array → registers ("store").
 */
function transfer(ctx: Emitter, plan: MmaPlan, direction: "load" | "store", register: (j: number) => string): void {
  const [m, n] = plan.variable.type.shape;
  const { acc, row, col } = names(plan);
  const { config } = plan;
  const chunk = Math.min(m, Math.max(config.M, 2 ** Math.floor(Math.log2(TRANSFER_BYTES / (4 * n)))));
  const array = ctx.scratch("mmac", "f32", chunk * n);
  const ch = ctx.fresh("mma_rows");
  const layout = ctx.layout(plan.variable.type);
  const registers = () => {
    for (let j = 0; j < layout.ept; j++) {
      const e = `u32(${ctx.elementIndex(plan.variable.type, j)})`;
      const at = `${array}[${e} - ${ch} * ${n}u]`;
      ctx.emit(`if (${e} / ${n}u - ${ch} < ${chunk}u) { ${direction === "load" ? `${at} = ${register(j)}` : `${register(j)} = ${at}`}; }`);
    }
  };
  const matrices = () => {
    for (let i = 0; i < plan.tilesM; i++) {
      for (let t = 0; t < plan.tilesN; t++) {
        const r = `${row} + ${i * config.M}u`;
        const offset = `(${r} - ${ch}) * ${n}u + ${col} + ${t * config.N}u`;
        const matrix = `${acc}[${i * plan.tilesN + t}]`;
        // Uniform in the subgroup (its rows), as the matrix operations need.
        const op = direction === "load" ? `${matrix} = subgroupMatrixLoad<${resultType(config)}, row_major>(&${array}, ${offset}, ${n}u);` : `subgroupMatrixStore<row_major>(&${array}, ${offset}, ${matrix}, ${n}u);`;
        ctx.emit(`if (${r} - ${ch} < ${chunk}u) { ${op} }`);
      }
    }
  };
  ctx.emit(`for (var ${ch} = 0u; ${ch} < ${m}u; ${ch} += ${chunk}u) {`);
  ctx.nested(() => {
    ctx.emit("workgroupBarrier();");
    if (direction === "load") registers();
    else matrices();
    ctx.emit("workgroupBarrier();");
    if (direction === "load") matrices();
    else registers();
  });
  ctx.emit("}");
}

/** One trip's tl.dot: A and B staged as halves, then every k step's matrices multiplied into the accumulator. */
export function emitMmaDot(ctx: Emitter, plan: MmaPlan): void {
  const { dot, config, tilesM, tilesN } = plan;
  const [m, k] = dot.a.type.shape;
  const n = dot.b.type.shape[1];
  const { acc, row, col } = names(plan);
  const [strideA, strideB] = [k + PAD, n + PAD];
  const sa = ctx.scratch("mmaa", "f16", m * strideA);
  const sb = ctx.scratch("mmab", "f16", k * strideB);
  ctx.emit("workgroupBarrier();");
  writeElements(ctx, dot.a, (e, value) => ctx.emit(`${sa}[(${e}) / ${k} * ${strideA} + (${e}) % ${k}] = ${value};`));
  writeElements(ctx, dot.b, (e, value) => ctx.emit(`${sb}[(${e}) / ${n} * ${strideB} + (${e}) % ${n}] = ${value};`));
  ctx.emit("workgroupBarrier();");
  const left = `subgroup_matrix_left<f16, ${config.K}, ${config.M}>`;
  const right = `subgroup_matrix_right<f16, ${config.N}, ${config.K}>`;
  for (let kk = 0; kk < k; kk += config.K) {
    ctx.emit("{");
    ctx.nested(() => {
      for (let i = 0; i < tilesM; i++) ctx.emit(`let l${i} = subgroupMatrixLoad<${left}, row_major>(&${sa}, (${row} + ${i * config.M}u) * ${strideA}u + ${kk}u, ${strideA}u);`);
      for (let t = 0; t < tilesN; t++) ctx.emit(`let r${t} = subgroupMatrixLoad<${right}, row_major>(&${sb}, ${kk * strideB}u + ${col} + ${t * config.N}u, ${strideB}u);`);
      for (let i = 0; i < tilesM; i++) {
        for (let t = 0; t < tilesN; t++) {
          const matrix = `${acc}[${i * tilesN + t}]`;
          ctx.emit(`${matrix} = subgroupMatrixMultiplyAccumulate(l${i}, r${t}, ${matrix});`);
        }
      }
    });
    ctx.emit("}");
  }
}

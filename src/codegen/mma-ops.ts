// The matrix operations of tl.dot on subgroup matrices, real (Dawn's
// chromium_experimental_subgroup_matrix,
// https://dawn.googlesource.com/dawn/+/refs/heads/main/docs/dawn/features/subgroup_matrix.md) or
// emulated: CodegenOptions.subgroupMatrixEmulation gives each "matrix" a private array of the whole matrix
// per invocation (subgroups of 32 emulated as lid / 32), so lavapipe, which has no subgroup
// matrices, checks the staging, offsets and transfers against the interpreter.
// Spelling: `subgroupMatrixLoad<T, row_major|col_major>(p, offset, stride)` and
// `subgroupMatrixStore<row_major>(p, offset, value, stride)`, the current Dawn's.

import type { SubgroupMatrixConfig } from "../ir/target";
import type { Emitter } from "./emitter";
import type { MmaPlan } from "./mma-plan";

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

export function opsFor(ctx: Emitter, plan: MmaPlan): MatrixOps {
  ctx.useSubgroupMatrix(plan.emulated);
  return matrixOps((line) => ctx.emit(line), plan.emulated);
}

// The WGSL of each IR value op, one entry per op: a value becomes one `let` per register
// (generator.ts names them); constants are inlined and splats and same-layout reshapes are views
// that emit nothing (generator.ts `reg` reads through them).

import type { Dtype, Value } from "../ir/ir";
import { numel } from "../ir/ir";
import { emitAtomic } from "./atomics";
import { emitDot } from "./dot";
import { BINARY_WGSL, MATH_WGSL, UNARY_WGSL } from "./elementwise";
import type { WgslGenerator } from "./generator";
import { valueName, varName } from "./generator";
import { literal } from "./literals";
import { emitLoad } from "./memory";
import { baseCarriedRegister, chunkRead, packedRun } from "./packed-halves";
import { emitRearrange } from "./rearrange";
import { emitReduce } from "./reductions";
import { emitRandom } from "./random";
import { emitCombineArg, emitReduceWith, emitScan } from "./scans";
import { emitConcat, emitGather, emitHistogram, emitSelection, emitSort } from "./selection";
import { castWgsl } from "./bf16";

type ValueEmitters = { [K in Value["op"]]: (gen: WgslGenerator, v: Extract<Value, { op: K }>) => void };

export const VALUE_WGSL: ValueEmitters = {
  const: () => {}, // inlined
  splat: () => {}, // a view of the scalar
  reshape: (gen, v) => {
    if (gen.sameLayout(v.type, v.value.type)) return; // a view: same elements, same registers
    return emitRearrange(gen, v);
  },
  param: (gen, v) => {
    if (v.type.kind === "pointer") return;
    // A bf16 scalar travels as an f32 (abi.ts): the register keeps its top 16 bits, as Triton's launcher packs a
    // number for a `tl.bfloat16` parameter (truncated, not rounded; ir/bf16.ts bf16Argument).
    if (v.type.dtype === "bf16") return gen.emit(`let ${valueName(v, 0)} = bitcast<f32>(bitcast<u32>(params.s_${v.name}) & 0xffff0000u);`);
    // An f16 one arrives rounded to a half by the host (abi.ts UniformScalar.half), so the narrowing is exact.
    if (v.type.dtype === "f16") return gen.emit(`let ${valueName(v, 0)} = ${gen.typeOf(v.type)}(params.s_${v.name});`);
    gen.emit(`let ${valueName(v, 0)} = params.s_${v.name};`);
  },
  programId: (gen, v) => gen.emit(`let ${valueName(v, 0)} = pid_${"xyz"[v.axis]};`),
  numPrograms: (gen, v) => gen.emit(`let ${valueName(v, 0)} = i32(params.grid.${"xyz"[v.axis]});`),
  arange: (gen, v) =>
    gen.registers(v.type, (j) => gen.emit(`let ${valueName(v, j)} = ${v.start === 0 ? gen.elementIndex(v.type, j) : `${gen.elementIndex(v.type, j)} + ${literal(v.start, "i32")}`};`)),
  broadcast: (gen, v) => {
    if (numel(v.value.type.shape) === 1) return; // a view of the single element
    return emitRearrange(gen, v);
  },
  trans: emitRearrange,
  permute: emitRearrange,
  concat: emitConcat,
  slice: emitSelection,
  flip: emitSelection,
  gather: emitGather,
  histogram: emitHistogram,
  sort: emitSort,
  bitcast: (gen, v) => gen.elementwise(v, (j) => `bitcast<${gen.typeOf(v.type)}>(${gen.reg(v.value, j)})`),
  cast: (gen, v) => gen.elementwise(v, (j) => castWgsl(v.value.type, v.type, gen.typeOf(v.type), gen.reg(v.value, j))),
  unary: (gen, v) => gen.elementwise(v, (j) => UNARY_WGSL[v.fn](gen.reg(v.value, j), gen.dtype(v.type))),
  binary: (gen, v) => gen.elementwise(v, (j) => BINARY_WGSL[v.fn](gen.reg(v.lhs, j), gen.reg(v.rhs, j), gen.dtype(v.rhs.type), irDtype(v.lhs))),
  ptrAdd: (gen, v) => gen.elementwise(v, (j) => `(${gen.reg(v.ptr, j)} + ${gen.reg(v.offset, j)})`),
  math: (gen, v) =>
    gen.elementwise(v, (j) => {
      const args = v.args.map((a) => gen.reg(a, j));
      return MATH_WGSL[v.fn](args, gen.typeOf(v.type));
    }),
  where: (gen, v) => gen.elementwise(v, (j) => `select(${gen.reg(v.b, j)}, ${gen.reg(v.a, j)}, ${gen.reg(v.cond, j)})`),
  // A load tested per tile emits its mask's values on its other way (tile-masks.ts).
  load: (gen, v) => emitLoad(gen, v, (d) => emitValue(gen, d)),
  readVar: (gen, v) => {
    // A packed variable's read is packed too (packed-halves.ts): one vec2<u32> per run.
    if (gen.packed.values.has(v.id)) {
      const run = packedRun(gen.packed, v.id);
      // A variable carried in shifted chunks is shifted here, where it is read (packed-halves.ts `shifts`).
      const read = (j: number) => {
        const name = varName(v.variable, j, v.variable.type);
        return gen.packed.shifts.has(v.variable.id) ? chunkRead(name) : name;
      };
      return gen.registers(v.type, (j) => (j % run === 0 ? gen.emit(`let ${valueName(v, j)} = ${read(j)};`) : undefined));
    }
    const strides = gen.packed.bases.get(v.variable.id);
    if (strides) return gen.elementwise(v, (j) => baseCarriedRegister(gen, v.variable.type, strides, varName(v.variable, 0, v.variable.type), j));
    const runs = gen.runStride(v.variable);
    gen.elementwise(v, (j) => {
      if (runs === undefined || j % 4 === 0) return varName(v.variable, j, v.variable.type);
      const first = varName(v.variable, j - (j % 4), v.variable.type);
      return runs === 0 ? first : `(${first} + ${(j % 4) * runs})`;
    });
  },
  reduce: emitReduce,
  dot: emitDot,
  atomic: emitAtomic,
  random: emitRandom,
  scan: emitScan,
  reduceWith: emitReduceWith,
  combineArg: emitCombineArg,
};

export function emitValue(gen: WgslGenerator, v: Value): void {
  // A tl.trans only tl.dot reads: the dot stages what it transposes (dot.ts, mma.ts).
  if (gen.dotOnlyTransposes.has(v.id)) return;
  // A comparison a whole trip makes hold (whole-trips.ts).
  if (gen.holding.has(v.id)) return gen.elementwise(v, () => "true");
  (VALUE_WGSL[v.op] as (gen: WgslGenerator, v: Value) => void)(gen, v);
}

/** A value's dtype as the IR has it (an i64 stays i64; `gen.dtype` gives its i32 register). */
function irDtype(v: Value): Dtype | undefined {
  return v.type.kind === "data" ? v.type.dtype : undefined;
}

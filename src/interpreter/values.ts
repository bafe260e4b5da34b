// What each IR value op computes on the CPU, one entry per op: a block (a flat row-major
// Float64Array of the value's static shape) from its operands' blocks.

import { numel, type Dtype, type Value } from "../ir/ir";
import { BINARY_ARITHMETIC, MATH_ARITHMETIC, UNARY_ARITHMETIC, binaryOp, castOp, roundTo, type ScalarFn1, type ScalarFn2, type ScalarFn3 } from "../ir/arithmetic";
import { f16FromBits } from "../ir/f16";
import { bf16FromBits } from "../ir/bf16";
import { f8e4m3FromBits, f8e5m2FromBits } from "../ir/f8";
import { atomic } from "./atomics";
import { broadcastBlock, dotBlock, permuteBlock, reduceBlock, transposeBlock, type Block } from "./block-ops";
import { map1, map2, map3 } from "./lanes";
import { dtypeOf, shapeText, type Machine } from "./machine";
import { randomBlock } from "./random";
import { reduceWithBlock, scanBlock } from "./scans";
import { concatBlock, flipBlock, gatherBlock, histogramBlock, sliceBlock, sortBlock } from "./select-ops";

/** `n` is the value's element count, `dtype` the dtype it computes in. */
type ValueRunners = { [K in Value["op"]]: (m: Machine, v: Extract<Value, { op: K }>, n: number, dtype: Dtype) => Block };

export const VALUE_CPU: ValueRunners = {
  const: (_m, v, _n, dtype) => Float64Array.of(roundTo(dtype)(v.value)),
  param: (m, v) => Float64Array.of(m.param(v.name, v.type, v.span)),
  programId: (m, v) => Float64Array.of(m.programId[v.axis]),
  numPrograms: (m, v) => Float64Array.of(m.grid[v.axis]),
  arange: (m, v, n) => {
    const out = new Float64Array(v.end - v.start);
    for (let i = 0; i < out.length; i++) out[i] = v.start + i;
    return m.sized(out, n, v.span);
  },
  splat: (m, v, n) => new Float64Array(n).fill(m.scalar(v.value, v.span)),
  broadcast: (m, v) => {
    const out = broadcastBlock(m.value(v.value), v.value.type.shape, v.type.shape);
    return out ?? m.internal(`cannot broadcast ${shapeText(v.value.type)} to ${shapeText(v.type)}`, v.span);
  },
  reshape: (m, v, n) => m.sized(m.value(v.value), n, v.span),
  trans: (m, v) => {
    const shape = v.value.type.shape;
    const src = m.value(v.value);
    if (shape.length < 2) return src;
    if (shape.length > 2) return m.internal(`trans of a ${shape.length}-D block`, v.span);
    return transposeBlock(src, shape[0], shape[1]);
  },
  permute: (m, v) => permuteBlock(m.value(v.value), v.value.type.shape, v.dims),
  concat: concatBlock,
  slice: sliceBlock,
  flip: flipBlock,
  gather: gatherBlock,
  histogram: histogramBlock,
  sort: sortBlock,
  bitcast: (m, v, n, dtype) => {
    const from = dtypeOf(v.value.type);
    const bits = new DataView(new ArrayBuffer(4));
    return map1(m.sized(m.value(v.value), n, v.span), (x) => {
      if (from === "f32") bits.setFloat32(0, x);
      else bits.setUint32(0, x >>> 0);
      return dtype === "f32" ? bits.getFloat32(0) : dtype === "i32" ? bits.getInt32(0) : bits.getUint32(0);
    }, n);
  },
  cast: (m, v, n, dtype) => map1(m.sized(m.value(v.value), n, v.span), castOp(dtypeOf(v.value.type), dtype), n),
  unary: (m, v, n) => {
    const operandDtype = dtypeOf(v.value.type);
    const fn = m.scalarFn(UNARY_ARITHMETIC[v.fn](operandDtype), `'${v.fn}' on ${operandDtype}`, v.span);
    return map1(m.sized(m.value(v.value), n, v.span), fn, n);
  },
  binary: (m, v, n) => {
    const operandDtype = dtypeOf(v.lhs.type);
    const fn = m.scalarFn(BINARY_ARITHMETIC[v.fn](operandDtype), `'${v.fn}' on ${operandDtype}`, v.span);
    return map2(m.sized(m.value(v.lhs), n, v.span), m.sized(m.value(v.rhs), n, v.span), fn, n);
  },
  ptrAdd: (m, v, n) => {
    const add = binaryOp("add", "i32") as ScalarFn2;
    return map2(m.sized(m.value(v.ptr), n, v.span), m.sized(m.value(v.offset), n, v.span), add, n);
  },
  math: math,
  where: (m, v, n) => {
    const cond = m.sized(m.value(v.cond), n, v.span);
    const a = m.sized(m.value(v.a), n, v.span);
    const b = m.sized(m.value(v.b), n, v.span);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = cond[i] !== 0 ? a[i] : b[i];
    return out;
  },
  load: load,
  readVar: (m, v) => m.readVariable(v.variable.id, v.variable.name, v.span),
  reduce: (m, v, _n, dtype) => {
    const shape = v.value.type.shape;
    if (!(v.axis >= 0 && v.axis < shape.length)) return m.internal(`reduce along axis ${v.axis} of ${shapeText(v.value.type)}`, v.span);
    m.charge(numel(shape), v.span);
    const out = reduceBlock(m.value(v.value), shape, v.axis, v.fn, v.fn === "argmax" || v.fn === "argmin" ? dtypeOf(v.value.type) : dtype);
    return out ?? m.internal(`'${v.fn}' reduction of ${dtypeOf(v.value.type)}`, v.span);
  },
  dot: dot,
  atomic: atomic,
  random: (m, v, n) => randomBlock(m, v, n),
  scan: scanBlock,
  reduceWith: reduceWithBlock,
  combineArg: (m, v) => m.internal(`combine function parameter ${v.index} outside its template`, v.span),
};

/** Evaluates `v` from its operands, charging one step per element. */
export function evaluate(m: Machine, v: Value): Block {
  const n = numel(v.type.shape);
  m.charge(n, v.span);
  return (VALUE_CPU[v.op] as (m: Machine, v: Value, n: number, dtype: Dtype) => Block)(m, v, n, dtypeOf(v.type));
}

function math(m: Machine, v: Extract<Value, { op: "math" }>, n: number, dtype: Dtype): Block {
  const entry = MATH_ARITHMETIC[v.fn];
  const operands = Array.from({ length: entry.arity }, (_, i) => {
    const arg = v.args[i];
    return arg ? m.sized(m.value(arg), n, v.span) : m.internal(`'${v.fn}' is missing argument ${i + 1}`, v.span);
  });
  const fn = m.scalarFn(entry.op(dtype), `'${v.fn}' on ${dtype}`, v.span);
  if (entry.arity === 3) return map3(operands[0], operands[1], operands[2], fn as ScalarFn3, n);
  if (entry.arity === 2) return map2(operands[0], operands[1], fn as ScalarFn2, n);
  return map1(operands[0], fn as ScalarFn1, n);
}

function load(m: Machine, v: Extract<Value, { op: "load" }>, n: number): Block {
  const buffer = m.bufferOf(v.ptr.type, v.span);
  const ptr = m.sized(m.value(v.ptr), n, v.span);
  const mask = v.mask ? m.sized(m.value(v.mask), n, v.span) : undefined;
  const other = v.other ? m.sized(m.value(v.other), n, v.span) : undefined;
  const array = buffer.array;
  const f16 = buffer.dtype === "f16";
  const bf16 = buffer.dtype === "bf16";
  const bool = buffer.dtype === "bool";
  const f8 = buffer.dtype === "f8e4m3" ? f8e4m3FromBits : buffer.dtype === "f8e5m2" ? f8e5m2FromBits : undefined;
  const out = new Float64Array(n);
  const onAccess = m.onAccess;
  for (let i = 0; i < n; i++) {
    if (mask && mask[i] === 0) {
      onAccess?.("load", buffer.param, ptr[i], m.programId, i, v.span, false, 0);
      out[i] = other ? other[i] : 0;
      continue;
    }
    const index = ptr[i];
    m.checkIndex(buffer, index, "load", v.span, i);
    onAccess?.("load", buffer.param, index, m.programId, i, v.span, true, 0);
    // A Uint8Array / Int8Array byte is already zero- / sign-extended; a bool byte is true where not 0.
    out[i] = f16 ? f16FromBits(array[index]) : bf16 ? bf16FromBits(array[index]) : bool ? (array[index] !== 0 ? 1 : 0) : f8 ? f8(array[index]) : array[index];
  }
  return out;
}

/** [M,K] x [K,N], or one such product per batch of [B,M,K] x [B,K,N]. */
function dot(m: Machine, v: Extract<Value, { op: "dot" }>, _n: number, dtype: Dtype): Block {
  const sa = v.a.type.shape;
  const sb = v.b.type.shape;
  const batched = sa.length === 3;
  const [batch, rows, k] = batched ? sa : [1, ...sa];
  const [batchB, k2, cols] = batched ? sb : [1, ...sb];
  if (sa.length !== sb.length || (sa.length !== 2 && sa.length !== 3) || k !== k2 || batch !== batchB) {
    return m.internal(`dot of ${shapeText(v.a.type)} and ${shapeText(v.b.type)}`, v.span);
  }
  const a = m.sized(m.value(v.a), batch * rows * k, v.span);
  const b = m.sized(m.value(v.b), batch * k * cols, v.span);
  const acc = v.acc ? m.sized(m.value(v.acc), batch * rows * cols, v.span) : undefined;
  if (m.skipDots) return acc ?? new Float64Array(batch * rows * cols);
  m.charge(batch * rows * cols * k, v.span);
  if (!batched) return dotBlock(a, b, acc, rows, k, cols, dtype);
  const out = new Float64Array(batch * rows * cols);
  for (let i = 0; i < batch; i++) {
    const slice = (x: Block, size: number) => x.subarray(i * size, (i + 1) * size);
    out.set(dotBlock(slice(a, rows * k), slice(b, k * cols), acc && slice(acc, rows * cols), rows, k, cols, dtype), i * rows * cols);
  }
  return out;
}


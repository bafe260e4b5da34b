// Scans and reductions with a combine function on the CPU: the combine template (semantics/
// combine.ts) becomes a function of its 2·n operands per result, built once per op from the same
// arithmetic tables the element-wise ops use; a scan folds each line in order (from its end when
// reversed), tl.reduce folds each line from its first element; a tuple of blocks folds together.

import { numel, type Combine, type Shape, type Value } from "../ir/ir";
import { BINARY_ARITHMETIC, MATH_ARITHMETIC, UNARY_ARITHMETIC, castOp, roundTo, type ScalarFn1, type ScalarFn2, type ScalarFn3 } from "../ir/arithmetic";
import type { Block } from "./block-ops";
import { dtypeOf, shapeText, type Machine } from "./machine";

/** A template value as a function of the combine's 2·n operands (the left side's n, then the right side's). */
type Scalar = (xs: readonly number[]) => number;

/** `combine` as one function per result of its 2·n operands; an op WGSL lacks is an internal error at `span`. */
export function combineFunctions(m: Machine, combine: Combine, span: Value["span"]): Scalar[] {
  const memo = new Map<number, Scalar>();
  const at = (v: Value): Scalar => {
    let f = memo.get(v.id);
    if (!f) memo.set(v.id, (f = build(v)));
    return f;
  };
  const build = (v: Value): Scalar => {
    const dtype = dtypeOf(v.type);
    switch (v.op) {
      case "combineArg": {
        const index = v.index;
        return (xs) => xs[index];
      }
      case "const": {
        const c = roundTo(dtype)(v.value);
        return () => c;
      }
      case "splat":
        return at(v.value);
      case "cast": {
        const [x, conv] = [at(v.value), castOp(dtypeOf(v.value.type), dtype)];
        return (xs) => conv(x(xs));
      }
      case "unary": {
        const [x, fn] = [at(v.value), m.scalarFn(UNARY_ARITHMETIC[v.fn](dtypeOf(v.value.type)), `'${v.fn}'`, span)];
        return (xs) => fn(x(xs));
      }
      case "binary": {
        const [l, r] = [at(v.lhs), at(v.rhs)];
        const fn = m.scalarFn(BINARY_ARITHMETIC[v.fn](dtypeOf(v.lhs.type)), `'${v.fn}' on ${dtypeOf(v.lhs.type)}`, span);
        return (xs) => fn(l(xs), r(xs));
      }
      case "math":
        return mathOf(m, v, span, at);
      case "where": {
        const [c, x, y] = [at(v.cond), at(v.a), at(v.b)];
        return (xs) => (c(xs) !== 0 ? x(xs) : y(xs));
      }
      default:
        return m.internal(`a combine function holds a ${v.op}`, span);
    }
  };
  return combine.results.map(at);
}

/**
 * One combine step over n accumulators: `step(acc, x)` sets acc to combine(acc, x), every result
 * from the operands before the step (the 2·n operands are gathered first).
 */
function stepper(m: Machine, combine: Combine, span: Value["span"]): (acc: number[], x: readonly number[]) => void {
  const fs = combineFunctions(m, combine, span);
  const n = fs.length;
  const xs = new Array<number>(2 * n).fill(0);
  const next = new Array<number>(n).fill(0);
  return (acc, x) => {
    for (let i = 0; i < n; i++) {
      xs[i] = acc[i];
      xs[n + i] = x[i];
    }
    for (let i = 0; i < n; i++) next[i] = fs[i](xs);
    for (let i = 0; i < n; i++) acc[i] = next[i];
  };
}

function mathOf(m: Machine, v: Value & { op: "math" }, span: Value["span"], at: (v: Value) => Scalar): Scalar {
  const entry = MATH_ARITHMETIC[v.fn];
  const fn = m.scalarFn(entry.op(dtypeOf(v.type)), `'${v.fn}'`, span);
  const args = v.args.map(at);
  if (entry.arity === 1) return (xs) => (fn as ScalarFn1)(args[0](xs));
  if (entry.arity === 2) return (xs) => (fn as ScalarFn2)(args[0](xs), args[1](xs));
  return (xs) => (fn as ScalarFn3)(args[0](xs), args[1](xs), args[2](xs));
}

/** [outer, length, inner] of `axis` in `shape` (element (o, k, i) at (o * length + k) * inner + i). */
function lines(shape: Shape, axis: number): [number, number, number] {
  return [numel(shape.slice(0, axis)), shape[axis], numel(shape.slice(axis + 1))];
}

/** The operands of a scan or tl.reduce, each as numel(shape) numbers, after checking the axis. */
function operands(m: Machine, v: Value & { op: "scan" | "reduceWith" }): Block[] {
  const shape = v.values[0].type.shape;
  if (!(v.axis >= 0 && v.axis < shape.length)) return m.internal(`${v.op === "scan" ? "scan" : "reduce"} along axis ${v.axis} of ${shapeText(v.values[0].type)}`, v.span);
  m.charge(numel(shape) * v.values.length, v.span);
  return v.values.map((x) => m.sized(m.value(x), numel(shape), v.span));
}

export function scanBlock(m: Machine, v: Value & { op: "scan" }): Block {
  const shape = v.values[0].type.shape;
  const srcs = operands(m, v);
  const step = stepper(m, v.combine, v.span);
  const [outer, length, inner] = lines(shape, v.axis);
  const out = new Float64Array(numel(shape));
  const n = srcs.length;
  const acc = new Array<number>(n).fill(0);
  const x = new Array<number>(n).fill(0);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (k: number) => (o * length + (v.reverse ? length - 1 - k : k)) * inner + i;
      for (let j = 0; j < n; j++) acc[j] = srcs[j][at(0)];
      out[at(0)] = acc[v.index];
      for (let k = 1; k < length; k++) {
        for (let j = 0; j < n; j++) x[j] = srcs[j][at(k)];
        step(acc, x);
        out[at(k)] = acc[v.index];
      }
    }
  }
  return out;
}

export function reduceWithBlock(m: Machine, v: Value & { op: "reduceWith" }): Block {
  const shape = v.values[0].type.shape;
  const srcs = operands(m, v);
  const step = stepper(m, v.combine, v.span);
  const [outer, length, inner] = lines(shape, v.axis);
  const out = new Float64Array(outer * inner);
  const n = srcs.length;
  const acc = new Array<number>(n).fill(0);
  const x = new Array<number>(n).fill(0);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      for (let j = 0; j < n; j++) acc[j] = srcs[j][o * length * inner + i];
      for (let k = 1; k < length; k++) {
        for (let j = 0; j < n; j++) x[j] = srcs[j][(o * length + k) * inner + i];
        step(acc, x);
      }
      out[o * inner + i] = acc[v.index];
    }
  }
  return out;
}

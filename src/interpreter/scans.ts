// Scans and reductions with a combine function on the CPU: the combine template (semantics/
// combine.ts) becomes a function of two numbers, built once per op from the same arithmetic
// tables the element-wise ops use; a scan folds each line in order (from its end when reversed),
// tl.reduce folds each line from its first element.

import { numel, type Combine, type Shape, type Value } from "../ir/ir";
import { BINARY_ARITHMETIC, MATH_ARITHMETIC, UNARY_ARITHMETIC, castOp, roundTo, type ScalarFn1, type ScalarFn2, type ScalarFn3 } from "../ir/arithmetic";
import type { Block } from "./block-ops";
import { dtypeOf, shapeText, type Machine } from "./machine";

type Scalar = (a: number, b: number) => number;

/** `combine` as a function of its two operands; an op WGSL lacks is an internal error at `span`. */
export function combineFunction(m: Machine, combine: Combine, span: Value["span"]): Scalar {
  const memo = new Map<number, Scalar>();
  const at = (v: Value): Scalar => {
    let f = memo.get(v.id);
    if (!f) memo.set(v.id, (f = build(v)));
    return f;
  };
  const build = (v: Value): Scalar => {
    const dtype = dtypeOf(v.type);
    switch (v.op) {
      case "combineArg":
        return v.index === 0 ? (a) => a : (_a, b) => b;
      case "const": {
        const c = roundTo(dtype)(v.value);
        return () => c;
      }
      case "splat":
        return at(v.value);
      case "cast": {
        const [x, conv] = [at(v.value), castOp(dtypeOf(v.value.type), dtype)];
        return (a, b) => conv(x(a, b));
      }
      case "unary": {
        const [x, fn] = [at(v.value), m.scalarFn(UNARY_ARITHMETIC[v.fn](dtypeOf(v.value.type)), `'${v.fn}'`, span)];
        return (a, b) => fn(x(a, b));
      }
      case "binary": {
        const [l, r] = [at(v.lhs), at(v.rhs)];
        const fn = m.scalarFn(BINARY_ARITHMETIC[v.fn](dtypeOf(v.lhs.type)), `'${v.fn}' on ${dtypeOf(v.lhs.type)}`, span);
        return (a, b) => fn(l(a, b), r(a, b));
      }
      case "math":
        return mathOf(m, v, span, at);
      case "where": {
        const [c, x, y] = [at(v.cond), at(v.a), at(v.b)];
        return (a, b) => (c(a, b) !== 0 ? x(a, b) : y(a, b));
      }
      default:
        return m.internal(`a combine function holds a ${v.op}`, span);
    }
  };
  return at(combine.result);
}

function mathOf(m: Machine, v: Value & { op: "math" }, span: Value["span"], at: (v: Value) => Scalar): Scalar {
  const entry = MATH_ARITHMETIC[v.fn];
  const fn = m.scalarFn(entry.op(dtypeOf(v.type)), `'${v.fn}'`, span);
  const args = v.args.map(at);
  if (entry.arity === 1) return (a, b) => (fn as ScalarFn1)(args[0](a, b));
  if (entry.arity === 2) return (a, b) => (fn as ScalarFn2)(args[0](a, b), args[1](a, b));
  return (a, b) => (fn as ScalarFn3)(args[0](a, b), args[1](a, b), args[2](a, b));
}

/** [outer, length, inner] of `axis` in `shape` (element (o, k, i) at (o * length + k) * inner + i). */
function lines(shape: Shape, axis: number): [number, number, number] {
  return [numel(shape.slice(0, axis)), shape[axis], numel(shape.slice(axis + 1))];
}

export function scanBlock(m: Machine, v: Value & { op: "scan" }): Block {
  const shape = v.value.type.shape;
  if (!(v.axis >= 0 && v.axis < shape.length)) return m.internal(`scan along axis ${v.axis} of ${shapeText(v.value.type)}`, v.span);
  const src = m.sized(m.value(v.value), numel(shape), v.span);
  const f = combineFunction(m, v.combine, v.span);
  const [outer, length, inner] = lines(shape, v.axis);
  m.charge(numel(shape), v.span);
  const out = new Float64Array(src.length);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      const at = (k: number) => (o * length + (v.reverse ? length - 1 - k : k)) * inner + i;
      let acc = src[at(0)];
      out[at(0)] = acc;
      for (let k = 1; k < length; k++) out[at(k)] = acc = f(acc, src[at(k)]);
    }
  }
  return out;
}

export function reduceWithBlock(m: Machine, v: Value & { op: "reduceWith" }): Block {
  const shape = v.value.type.shape;
  if (!(v.axis >= 0 && v.axis < shape.length)) return m.internal(`reduce along axis ${v.axis} of ${shapeText(v.value.type)}`, v.span);
  const src = m.sized(m.value(v.value), numel(shape), v.span);
  const f = combineFunction(m, v.combine, v.span);
  const [outer, length, inner] = lines(shape, v.axis);
  m.charge(numel(shape), v.span);
  const out = new Float64Array(outer * inner);
  for (let o = 0; o < outer; o++) {
    for (let i = 0; i < inner; i++) {
      let acc = src[o * length * inner + i];
      for (let k = 1; k < length; k++) acc = f(acc, src[(o * length + k) * inner + i]);
      out[o * inner + i] = acc;
    }
  }
  return out;
}

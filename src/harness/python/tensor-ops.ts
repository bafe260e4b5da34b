// The element loops behind Kernel Lab's `torch` (lib/torch/): Python keeps a tensor's shape,
// strides and dtype and decides the result's; these functions walk the elements, which Python
// in Pyodide would do a hundred times slower. Each op computes in double precision and rounds
// to the result's dtype once, which for + - * / and sqrt is exactly float32's correctly rounded
// result. Runs on the Python thread (no Node API).

import type { TensorDtype, TensorStorage } from "./protocol";
import { allocate, reader, writer } from "./tensor-storage";
import { getState, randomValues, seed, setState } from "./tensor-random";
import { BINARY, UNARY } from "./tensor-math";
import { conv2d, type Conv2dShape } from "./tensor-conv";

/** A strided view of storage: what Python hands over for each tensor operand. */
export interface View {
  data: TensorStorage;
  dtype: TensorDtype;
  offset: number;
  shape: number[];
  strides: number[];
}

/** Python lists arrive as proxies with toJs(); plain arrays as they are. */
function list(x: unknown): number[] {
  if (Array.isArray(x)) return x as number[];
  const proxy = x as { toJs(): number[] };
  return [...proxy.toJs()];
}

function count(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** For each element of `shape` (row-major), the index of the element of `v` broadcast to it. */
function indices(v: View, shape: readonly number[]): Int32Array | Float64Array {
  const n = count(shape);
  const out = n < 2 ** 31 ? new Int32Array(n) : new Float64Array(n);
  const rank = shape.length;
  const strides = shape.map((extent, axis) => {
    const own = axis - (rank - v.shape.length);
    return own < 0 || v.shape[own] === 1 ? 0 : v.strides[own];
  });
  const counter = new Array<number>(rank).fill(0);
  let at = v.offset;
  for (let i = 0; i < n; i++) {
    out[i] = at;
    for (let axis = rank - 1; axis >= 0; axis--) {
      if (++counter[axis] < shape[axis]) {
        at += strides[axis];
        break;
      }
      at -= strides[axis] * (shape[axis] - 1);
      counter[axis] = 0;
    }
  }
  return out;
}

type Operand = View | number;

/** Whether `v` is laid out row-major with `shape` itself (no broadcast, no gaps): its element i is at offset + i. */
function rowMajor(v: View, shape: readonly number[]): boolean {
  if (v.shape.length !== shape.length) return false;
  let step = 1;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    if (v.shape[axis] !== shape[axis]) return false;
    if (shape[axis] !== 1 && v.strides[axis] !== step) return false;
    step *= shape[axis];
  }
  return true;
}

function values(x: Operand, shape: readonly number[]): (i: number) => number {
  if (typeof x === "number") return () => x;
  const read = reader(x.dtype);
  const { data, offset } = x;
  // The common case needs no index table (building one is most of an op on a large tensor).
  if (rowMajor(x, shape)) return (i) => read(data, offset + i);
  const at = indices(x, shape);
  return (i) => read(data, at[i]);
}


/**
 * How a copy from `from` writes `to`: as the dtype converts, except bool to bool, which keeps the byte, so
 * torch.empty's poison byte (neither 0 nor 1) survives .cpu(), clone and slices and still mismatches.
 */
function copier(from: TensorDtype, to: TensorDtype) {
  return writer(from === "bool" && to === "bool" ? "uint8" : to);
}

function fill(shape: readonly number[], dtype: TensorDtype, at: (i: number) => number, write = writer(dtype)): TensorStorage {
  const n = count(shape);
  const out = allocate(dtype, n);
  for (let i = 0; i < n; i++) write(out, i, at(i));
  return out;
}

export const tensorOps = {
  allocate,
  seed,
  randomState: getState,
  setRandomState: setState,
  view(data: TensorStorage, dtype: TensorDtype, offset: number, shape: unknown, strides: unknown): View {
    return { data, dtype, offset, shape: list(shape), strides: list(strides) };
  },
  fillValue(data: TensorStorage, dtype: TensorDtype, value: number): void {
    const write = writer(dtype);
    for (let i = 0; i < data.length; i++) write(data, i, value);
  },
  /** The elements of a view, row-major, as `dtype` (a copy, a cast, `.contiguous()`). */
  copy(v: View, dtype: TensorDtype): TensorStorage {
    return fill(v.shape, dtype, values(v, v.shape), copier(v.dtype, dtype));
  },
  /** Writes `source` (broadcast) into the view `target` (slice assignment, `copy_`). */
  assign(target: View, source: Operand): void {
    const at = indices(target, target.shape);
    const from = values(source, target.shape);
    const write = typeof source === "number" ? writer(target.dtype) : copier(source.dtype, target.dtype);
    for (let i = 0; i < at.length; i++) write(target.data, at[i], from(i));
  },
  unary(op: string, v: View, dtype: TensorDtype): TensorStorage {
    const f = UNARY[op];
    if (!f) throw new Error(`unknown unary op ${op}`);
    const x = values(v, v.shape);
    return fill(v.shape, dtype, (i) => f(x(i)));
  },
  binary(op: string, a: Operand, b: Operand, shape: unknown, dtype: TensorDtype): TensorStorage {
    const f = BINARY[op];
    if (!f) throw new Error(`unknown binary op ${op}`);
    const s = list(shape);
    const x = values(a, s);
    const y = values(b, s);
    return fill(s, dtype, (i) => f(x(i), y(i)));
  },
  where(condition: Operand, a: Operand, b: Operand, shape: unknown, dtype: TensorDtype): TensorStorage {
    const s = list(shape);
    const c = values(condition, s);
    const x = values(a, s);
    const y = values(b, s);
    return fill(s, dtype, (i) => (c(i) !== 0 ? x(i) : y(i)));
  },
  /** A reduction over `axes` of a view; the result has the view's shape without them, row-major. */
  reduce(op: string, v: View, axes: unknown, dtype: TensorDtype): TensorStorage {
    const reduced = new Set(list(axes));
    const kept = v.shape.map((_, a) => a).filter((a) => !reduced.has(a));
    const inner = v.shape.map((_, a) => a).filter((a) => reduced.has(a));
    // Walk the kept axes outside, the reduced axes inside: a permuted view.
    const permuted: View = { ...v, shape: [...kept, ...inner].map((a) => v.shape[a]), strides: [...kept, ...inner].map((a) => v.strides[a]) };
    const outer = count(kept.map((a) => v.shape[a]));
    const n = count(inner.map((a) => v.shape[a]));
    const x = values(permuted, permuted.shape);
    const out = allocate(dtype, outer);
    const write = writer(dtype);
    for (let o = 0; o < outer; o++) write(out, o, reduceRun(op, x, o * n, n));
    return out;
  },
  /** softmax / log_softmax along the last axis of a view (Python moves the axis there). */
  softmax(v: View, log: boolean, dtype: TensorDtype): TensorStorage {
    const n = v.shape[v.shape.length - 1] ?? 1;
    const rows = count(v.shape) / Math.max(1, n);
    const x = values(v, v.shape);
    const out = allocate(dtype, rows * n);
    const write = writer(dtype);
    for (let r = 0; r < rows; r++) {
      let max = -Infinity;
      for (let j = 0; j < n; j++) max = Math.max(max, x(r * n + j));
      let sum = 0;
      for (let j = 0; j < n; j++) sum += Math.exp(x(r * n + j) - max);
      for (let j = 0; j < n; j++) write(out, r * n + j, log ? x(r * n + j) - max - Math.log(sum) : Math.exp(x(r * n + j) - max) / sum);
    }
    return out;
  },
  /** cumsum / cumprod along the last axis. */
  scan(op: string, v: View, dtype: TensorDtype): TensorStorage {
    const n = v.shape[v.shape.length - 1] ?? 1;
    const rows = count(v.shape) / Math.max(1, n);
    const x = values(v, v.shape);
    const out = allocate(dtype, rows * n);
    const write = writer(dtype);
    for (let r = 0; r < rows; r++) {
      let acc = op === "cumprod" ? 1 : 0;
      for (let j = 0; j < n; j++) {
        acc = op === "cumprod" ? acc * x(r * n + j) : acc + x(r * n + j);
        write(out, r * n + j, acc);
      }
    }
    return out;
  },
  /** torch.sort along the last axis: [values, indices (int64)], stable, NaN above every number as in torch. */
  sort(v: View, descending: boolean): [TensorStorage, TensorStorage] {
    const n = v.shape[v.shape.length - 1] ?? 1;
    const rows = count(v.shape) / Math.max(1, n);
    const x = values(v, v.shape);
    const out = allocate(v.dtype, rows * n);
    const at = allocate("int64", rows * n);
    const write = writer(v.dtype);
    const writeIndex = writer("int64");
    // NaN above every number (torch: last ascending, first descending); no subtraction (inf - inf).
    const ascending = (a: number, b: number) =>
      Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a < b ? -1 : a > b ? 1 : 0;
    const order = Array.from({ length: n }, (_, j) => j);
    for (let r = 0; r < rows; r++) {
      const row = Float64Array.from(order, (j) => x(r * n + j));
      // Array.prototype.sort is stable: equal keys keep their order, as torch's stable sort does.
      const sorted = [...order].sort((i, j) => (descending ? ascending(row[j], row[i]) : ascending(row[i], row[j])));
      sorted.forEach((j, k) => {
        write(out, r * n + k, row[j]);
        writeIndex(at, r * n + k, j);
      });
    }
    return [out, at];
  },
  /** [batch, m, k] @ [batch, k, n] (batch broadcast by Python); float32 inputs accumulate in double precision. */
  matmul(a: View, b: View, batch: number, m: number, k: number, n: number, dtype: TensorDtype): TensorStorage {
    const x = values(a, [batch, m, k]);
    const y = values(b, [batch, k, n]);
    const av = new Float64Array(batch * m * k);
    for (let i = 0; i < av.length; i++) av[i] = x(i);
    const bv = new Float64Array(batch * k * n);
    for (let i = 0; i < bv.length; i++) bv[i] = y(i);
    const out = allocate(dtype, batch * m * n);
    const write = writer(dtype);
    // Half-precision inputs accumulate in float32, in k order, as torch's GEMM (cuBLAS) and a
    // Triton kernel's tl.dot do: a product of two halves is exact in float32, each sum rounded.
    const half = a.dtype === "float16" || a.dtype === "bfloat16";
    const row = half ? new Float32Array(n) : new Float64Array(n);
    for (let p = 0; p < batch; p++) {
      for (let i = 0; i < m; i++) {
        row.fill(0);
        for (let q = 0; q < k; q++) {
          const s = av[(p * m + i) * k + q];
          const base = (p * k + q) * n;
          for (let j = 0; j < n; j++) row[j] += s * bv[base + j];
        }
        for (let j = 0; j < n; j++) write(out, (p * m + i) * n + j, row[j]);
      }
    }
    return out;
  },
  /** F.conv2d of contiguous operands (bias undefined where None), summed in double precision (tensor-conv.ts). */
  conv2d(input: View, weight: View, bias: View | undefined, shape: Conv2dShape, dtype: TensorDtype): TensorStorage {
    return conv2d(input, weight, bias ?? undefined, shape, dtype);
  },
  arange(start: number, step: number, n: number, dtype: TensorDtype): TensorStorage {
    return fill([n], dtype, (i) => start + i * step);
  },
  /** `kind`: rand (uniform [0, 1)), randn (normal), randint ([low, high)). */
  random(kind: string, n: number, dtype: TensorDtype, low: number, high: number): TensorStorage {
    const draw = randomValues(kind, low, high);
    // A draw just under 1 rounds to 1 in a 16-bit float: torch.rand stays below 1 (the largest float16 / bfloat16 under it).
    const below = kind !== "rand" ? undefined : dtype === "float16" ? 1 - 2 ** -11 : dtype === "bfloat16" ? 1 - 2 ** -8 : undefined;
    return fill([n], dtype, below === undefined ? draw : (i) => Math.min(draw(i), below));
  },
  /** How far apart two views are (broadcast to `shape`): what allclose and assert_close report. */
  closeness(a: View, b: View, shape: unknown, rtol: number, atol: number, equalNan: boolean) {
    const s = list(shape);
    const x = values(a, s);
    const y = values(b, s);
    const n = count(s);
    let maxAbs = 0;
    let maxRel = 0;
    let mismatched = 0;
    let first = -1;
    for (let i = 0; i < n; i++) {
      const got = x(i);
      const want = y(i);
      const bothNan = Number.isNaN(got) && Number.isNaN(want);
      const diff = got === want ? 0 : Math.abs(got - want);
      const close = got === want || (bothNan && equalNan) || diff <= atol + rtol * Math.abs(want);
      if (!bothNan) {
        if (!(diff <= maxAbs)) maxAbs = diff;
        const rel = diff === 0 ? 0 : diff / Math.abs(want);
        if (!(rel <= maxRel)) maxRel = rel;
      }
      if (!close) {
        mismatched++;
        if (first < 0) first = i;
      }
    }
    return { maxAbs, maxRel, mismatched, total: n, first };
  },
  /** The elements at these row-major positions of a view (printing shows a few of a large tensor). */
  elements(v: View, positions: unknown): number[] {
    const x = values(v, v.shape);
    return list(positions).map((p) => x(p));
  },
  /** Every element, row-major (tolist, item). */
  all(v: View): Float64Array {
    const x = values(v, v.shape);
    const out = new Float64Array(count(v.shape));
    for (let i = 0; i < out.length; i++) out[i] = x(i);
    return out;
  },
  /** Storage from Python numbers (torch.tensor). */
  fromValues(values: unknown, dtype: TensorDtype): TensorStorage {
    const xs = list(values);
    return fill([xs.length], dtype, (i) => Number(xs[i]));
  },
};

function reduceRun(op: string, x: (i: number) => number, start: number, n: number): number {
  switch (op) {
    case "sum":
    case "mean": {
      let s = 0;
      for (let i = 0; i < n; i++) s += x(start + i);
      return op === "mean" ? s / n : s;
    }
    case "prod": {
      let p = 1;
      for (let i = 0; i < n; i++) p *= x(start + i);
      return p;
    }
    case "max":
    case "min": {
      let best = op === "max" ? -Infinity : Infinity;
      for (let i = 0; i < n; i++) {
        const v = x(start + i);
        if (Number.isNaN(v)) return NaN;
        best = op === "max" ? Math.max(best, v) : Math.min(best, v);
      }
      return best;
    }
    case "argmax":
    case "argmin": {
      let best = 0;
      for (let i = 1; i < n; i++) {
        const v = x(start + i);
        const b = x(start + best);
        if (Number.isNaN(b)) break;
        if (Number.isNaN(v) || (op === "argmax" ? v > b : v < b)) best = i;
      }
      return best;
    }
    case "any": {
      for (let i = 0; i < n; i++) if (x(start + i) !== 0) return 1;
      return 0;
    }
    case "all": {
      for (let i = 0; i < n; i++) if (x(start + i) === 0) return 0;
      return 1;
    }
    case "var": {
      let s = 0;
      for (let i = 0; i < n; i++) s += x(start + i);
      const mean = s / n;
      let q = 0;
      for (let i = 0; i < n; i++) q += (x(start + i) - mean) ** 2;
      return q / n;
    }
    default:
      throw new Error(`unknown reduction ${op}`);
  }
}

// The CPU interpreter against plain JS references: every kernel here is IR built by hand (the
// semantics pass is tested elsewhere), run over grids whose blocks do not divide the sizes.

import { test } from "node:test";
import assert from "node:assert/strict";

import type { Span } from "../../src/diagnostics/diagnostic";
import type {
  BinaryFn,
  Dtype,
  KernelIR,
  MathFn,
  NumDtype,
  Param,
  ParamKind,
  ReduceFn,
  Shape,
  Stmt,
  UnaryFn,
  Value,
  ValueOp,
  ValueType,
  Variable,
} from "../../src/ir/ir";
import { heldDtype } from "../../src/ir/ir";
import { interpret, InterpreterError, type KernelArgs } from "../../src/interpreter/interpret";
import { f16FromBits, f16ToBits, roundF16 } from "../../src/ir/f16";

// ---- a small IR builder: every node gets its own span, so errors can be traced to the node ----

class KernelBuilder {
  private nextId = 1;
  private readonly params: Param[] = [];
  private readonly blocks: Stmt[][] = [[]];

  private span(): Span {
    const id = this.nextId++;
    return { start: id * 10, end: id * 10 + 5 };
  }

  private get statements(): Stmt[] {
    return this.blocks[this.blocks.length - 1];
  }

  private define(op: ValueOp, type: ValueType): Value {
    const value = { id: this.nextId, span: this.span(), type, ...op } as Value;
    this.statements.push({ kind: "let", value });
    return value;
  }

  param(name: string, kind: ParamKind, dtype: NumDtype): Value {
    this.params.push({ name, kind, dtype, span: this.span() });
    const type: ValueType =
      kind === "pointer" ? { kind: "pointer", pointee: dtype, param: name, shape: [] } : { kind: "data", dtype, shape: [] };
    return this.define({ op: "param", name }, type);
  }

  const(value: number, dtype: Dtype = "i32"): Value {
    return this.define({ op: "const", value }, data(dtype, []));
  }

  programId(axis: 0 | 1 | 2): Value {
    return this.define({ op: "programId", axis }, data("i32", []));
  }

  numPrograms(axis: 0 | 1 | 2): Value {
    return this.define({ op: "numPrograms", axis }, data("i32", []));
  }

  arange(start: number, end: number): Value {
    return this.define({ op: "arange", start, end }, data("i32", [end - start]));
  }

  splat(value: Value, shape: Shape): Value {
    return this.define({ op: "splat", value }, { ...value.type, shape });
  }

  broadcast(value: Value, shape: Shape): Value {
    return this.define({ op: "broadcast", value }, { ...value.type, shape });
  }

  reshape(value: Value, shape: Shape): Value {
    return this.define({ op: "reshape", value }, { ...value.type, shape });
  }

  trans(value: Value): Value {
    return this.define({ op: "trans", value }, { ...value.type, shape: [...value.type.shape].reverse() });
  }

  cast(value: Value, dtype: Dtype): Value {
    return this.define({ op: "cast", value }, data(dtype, value.type.shape));
  }

  unary(fn: UnaryFn, value: Value): Value {
    return this.define({ op: "unary", fn, value }, value.type);
  }

  binary(fn: BinaryFn, lhs: Value, rhs: Value): Value {
    const compare = ["lt", "le", "gt", "ge", "eq", "ne"].includes(fn);
    return this.define({ op: "binary", fn, lhs, rhs }, compare ? data("bool", lhs.type.shape) : lhs.type);
  }

  ptrAdd(ptr: Value, offset: Value): Value {
    return this.define({ op: "ptrAdd", ptr, offset }, { ...ptr.type, shape: offset.type.shape });
  }

  math(fn: MathFn, ...args: Value[]): Value {
    return this.define({ op: "math", fn, args }, args[0].type);
  }

  where(cond: Value, a: Value, b: Value): Value {
    return this.define({ op: "where", cond, a, b }, a.type);
  }

  load(ptr: Value, mask?: Value, other?: Value): Value {
    if (ptr.type.kind !== "pointer") throw new Error("load needs a pointer");
    return this.define({ op: "load", ptr, mask, other }, data(heldDtype(ptr.type.pointee), ptr.type.shape));
  }

  reduce(fn: ReduceFn, value: Value, axis: number): Value {
    const shape = value.type.shape.filter((_, i) => i !== axis);
    const dtype = fn === "argmax" ? "i32" : (value.type as { dtype: Dtype }).dtype;
    return this.define({ op: "reduce", fn, value, axis }, data(dtype, shape));
  }

  dot(a: Value, b: Value, acc?: Value): Value {
    return this.define({ op: "dot", a, b, acc }, data("f32", [a.type.shape[0], b.type.shape[1]]));
  }

  store(ptr: Value, value: Value, mask?: Value): Stmt {
    const statement: Stmt = { kind: "store", span: this.span(), ptr, value, mask };
    this.statements.push(statement);
    return statement;
  }

  declare(name: string, init: Value): Variable {
    const variable: Variable = { id: this.nextId, name, type: init.type, span: this.span() };
    this.statements.push({ kind: "declare", span: variable.span, variable, init });
    return variable;
  }

  assign(variable: Variable, value: Value): void {
    this.statements.push({ kind: "assign", span: this.span(), variable, value });
  }

  readVar(variable: Variable): Value {
    return this.define({ op: "readVar", variable }, variable.type);
  }

  for(
    name: string,
    start: Value,
    end: Value,
    step: Value,
    cmp: "lt" | "le" | "gt" | "ge" | "ne",
    body: (counter: Variable) => void,
  ): Stmt {
    const counter: Variable = { id: this.nextId, name, type: start.type, span: this.span() };
    const statement: Stmt = { kind: "for", span: this.span(), counter, start, end, step, cmp, body: [] };
    this.statements.push(statement);
    statement.body = this.nested(() => body(counter));
    return statement;
  }

  if(cond: Value, then: () => void, otherwise: () => void = () => {}): void {
    const statement: Stmt = { kind: "if", span: this.span(), cond, then: [], else: [] };
    this.statements.push(statement);
    statement.then = this.nested(then);
    statement.else = this.nested(otherwise);
  }

  private nested(fill: () => void): Stmt[] {
    this.blocks.push([]);
    fill();
    return this.blocks.pop() as Stmt[];
  }

  build(name = "test_kernel", constexprs: Record<string, number> = {}): KernelIR {
    const written = new Set<string>();
    const walk = (statements: Stmt[]) => {
      for (const s of statements) {
        if (s.kind === "store" && s.ptr.type.kind === "pointer") written.add(s.ptr.type.param);
        if (s.kind === "for") walk(s.body);
        if (s.kind === "if") (walk(s.then), walk(s.else));
      }
    };
    walk(this.blocks[0]);
    return { name, span: { start: 0, end: 1 }, params: this.params, constexprs, body: this.blocks[0], writtenParams: written };
  }
}

function data(dtype: Dtype, shape: Shape): ValueType {
  return { kind: "data", dtype, shape };
}

/** `offsets = pid * BLOCK + arange(0, BLOCK)` and `mask = offsets < n`. */
function blockOffsets(k: KernelBuilder, block: number, n: Value): { offsets: Value; mask: Value } {
  const start = k.binary("mul", k.programId(0), k.const(block));
  const offsets = k.binary("add", k.splat(start, [block]), k.arange(0, block));
  const mask = k.binary("lt", offsets, k.splat(n, [block]));
  return { offsets, mask };
}

/** out[i] = x[i] <fn> y[i] over n elements, blocks of `block`. */
function elementwiseKernel(
  block: number,
  inDtype: NumDtype,
  outDtype: NumDtype,
  body: (k: KernelBuilder, x: Value, y: Value) => Value,
): KernelIR {
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", inDtype);
  const yPtr = k.param("y", "pointer", inDtype);
  const outPtr = k.param("out", "pointer", outDtype);
  const n = k.param("n", "scalar", "i32");
  const { offsets, mask } = blockOffsets(k, block, n);
  const x = k.load(k.ptrAdd(k.splat(xPtr, [block]), offsets), mask);
  const y = k.load(k.ptrAdd(k.splat(yPtr, [block]), offsets), mask);
  k.store(k.ptrAdd(k.splat(outPtr, [block]), offsets), body(k, x, y), mask);
  return k.build();
}

function runBinary(fn: BinaryFn, dtype: "i32" | "u32" | "f32", xs: number[], ys: number[]): number[] {
  const array = { i32: Int32Array, u32: Uint32Array, f32: Float32Array }[dtype];
  const compare = ["lt", "le", "gt", "ge", "eq", "ne"].includes(fn);
  const ir = elementwiseKernel(8, dtype, compare ? "i32" : dtype, (k, x, y) => {
    const r = k.binary(fn, x, y);
    return compare ? k.cast(r, "i32") : r;
  });
  const out = new (compare ? Int32Array : array)(xs.length);
  interpret(ir, [Math.ceil(xs.length / 8), 1, 1], { x: array.from(xs), y: array.from(ys), out, n: xs.length });
  return [...out];
}

function runUnary(dtype: NumDtype, outDtype: NumDtype, xs: number[], op: (k: KernelBuilder, x: Value) => Value): number[] {
  const arrays = { i32: Int32Array, u32: Uint32Array, f32: Float32Array, f16: Uint16Array, bf16: Uint16Array, i64: Int32Array };
  const ir = elementwiseKernel(4, dtype, outDtype, (k, x) => op(k, x));
  const input = dtype === "f16" ? Uint16Array.from(xs, f16ToBits) : arrays[dtype].from(xs);
  const out = new arrays[outDtype](xs.length);
  interpret(ir, [Math.ceil(xs.length / 4), 1, 1], { x: input, y: input, out, n: xs.length });
  return outDtype === "f16" ? [...out].map(f16FromBits) : [...out];
}

function randomF32(n: number, seed = 1): Float32Array {
  let s = seed;
  return Float32Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s / 2 ** 32) * 2 - 1;
  });
}

const I32_MIN = -2147483648;
const I32_MAX = 2147483647;
const U32_MAX = 4294967295;

// ---- element-wise kernels, masked tails ----

test("vector add over a size that is not a multiple of the block, masked tail untouched", () => {
  const n = 1000;
  const ir = elementwiseKernel(64, "f32", "f32", (k, x, y) => k.binary("add", x, y));
  const x = randomF32(n, 1);
  const y = randomF32(n, 2);
  const out = new Float32Array(n + 5).fill(-7); // the 5 past n must stay as they were
  interpret(ir, [Math.ceil(n / 64), 1, 1], { x, y, out, n });
  for (let i = 0; i < n; i++) assert.equal(out[i], Math.fround(x[i] + y[i]));
  assert.deepEqual([...out.subarray(n)], [-7, -7, -7, -7, -7]);
});

test("masked-off lanes of a load read `other` (or 0)", () => {
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", "f32");
  const outPtr = k.param("out", "pointer", "f32");
  const n = k.param("n", "scalar", "i32");
  const offsets = k.arange(0, 8);
  const mask = k.binary("lt", offsets, k.splat(n, [8]));
  const withOther = k.load(k.ptrAdd(k.splat(xPtr, [8]), offsets), mask, k.splat(k.const(-1.5, "f32"), [8]));
  const withZero = k.load(k.ptrAdd(k.splat(xPtr, [8]), offsets), mask);
  k.store(k.ptrAdd(k.splat(outPtr, [8]), offsets), withOther);
  k.store(k.ptrAdd(k.splat(outPtr, [8]), k.binary("add", offsets, k.splat(k.const(8), [8]))), withZero);
  const out = new Float32Array(16);
  interpret(k.build(), [1, 1, 1], { x: Float32Array.of(1, 2, 3), out, n: 3 });
  assert.deepEqual([...out], [1, 2, 3, -1.5, -1.5, -1.5, -1.5, -1.5, 1, 2, 3, 0, 0, 0, 0, 0]);
});

test("vector add of 98432 elements in blocks of 1024 interprets in well under a second", () => {
  const n = 98432;
  const ir = elementwiseKernel(1024, "f32", "f32", (k, x, y) => k.binary("add", x, y));
  const x = randomF32(n, 3);
  const y = randomF32(n, 4);
  const out = new Float32Array(n);
  const started = performance.now();
  interpret(ir, [Math.ceil(n / 1024), 1, 1], { x, y, out, n });
  const ms = performance.now() - started;
  assert.ok(ms < 500, `took ${ms.toFixed(1)} ms`);
  for (let i = 0; i < n; i++) assert.equal(out[i], Math.fround(x[i] + y[i]));
});

test("programs run over the whole grid, x fastest, with programId and numPrograms", () => {
  // Every program writes its linear id to its own slot and to slot 0 of `last`: the last writer wins.
  const k = new KernelBuilder();
  const outPtr = k.param("out", "pointer", "i32");
  const lastPtr = k.param("last", "pointer", "i32");
  const [x, y, z] = [k.programId(0), k.programId(1), k.programId(2)];
  const [gx, gy] = [k.numPrograms(0), k.numPrograms(1)];
  const linear = k.binary("add", x, k.binary("mul", gx, k.binary("add", y, k.binary("mul", gy, z))));
  const code = k.binary("add", k.binary("add", x, k.binary("mul", y, k.const(10))), k.binary("mul", z, k.const(100)));
  k.store(k.ptrAdd(outPtr, linear), code);
  k.store(lastPtr, linear);
  const out = new Int32Array(12);
  const last = new Int32Array(1);
  interpret(k.build(), [3, 2, 2], { out, last });
  assert.deepEqual([...out], [0, 1, 2, 10, 11, 12, 100, 101, 102, 110, 111, 112]);
  assert.equal(last[0], 11);
});

// ---- WGSL arithmetic ----

test("i32 arithmetic wraps, divides toward zero, and follows WGSL for / 0, % 0 and MIN / -1", () => {
  const xs = [7, -7, 7, -7, 5, -5, I32_MIN, I32_MIN, 3, 0];
  const ys = [2, 2, -2, -2, 0, 0, -1, 0, 5, 0];
  assert.deepEqual(runBinary("div", "i32", xs, ys), [3, -3, -3, 3, 5, -5, I32_MIN, I32_MIN, 0, 0]);
  assert.deepEqual(runBinary("mod", "i32", xs, ys), [1, -1, 1, -1, 0, 0, 0, 0, 3, 0]);
  assert.deepEqual(runBinary("add", "i32", [I32_MAX, I32_MIN], [1, -1]), [I32_MIN, I32_MAX]);
  assert.deepEqual(runBinary("sub", "i32", [I32_MIN], [1]), [I32_MAX]);
  // The exact product of I32_MAX * I32_MAX needs 62 bits: only a 32-bit multiply gets its low word right.
  const wrapped = (a: number, b: number) => Number(BigInt.asIntN(32, BigInt(a) * BigInt(b)));
  assert.deepEqual(runBinary("mul", "i32", [65536, 123456789, -3, I32_MAX], [65536, 1000, 5, I32_MAX]), [
    0,
    wrapped(123456789, 1000),
    -15,
    1,
  ]);
});

test("u32 arithmetic wraps modulo 2^32; division by zero gives the dividend, remainder 0", () => {
  assert.deepEqual(runBinary("add", "u32", [U32_MAX, 5], [1, 6]), [0, 11]);
  assert.deepEqual(runBinary("sub", "u32", [0, 5], [1, 3]), [U32_MAX, 2]);
  assert.deepEqual(runBinary("mul", "u32", [65536, U32_MAX], [65536, U32_MAX]), [0, 1]);
  assert.deepEqual(runBinary("div", "u32", [U32_MAX, 9, 9], [2, 0, 4]), [2147483647, 9, 2]);
  assert.deepEqual(runBinary("mod", "u32", [U32_MAX, 9, 9], [2, 0, 4]), [1, 0, 1]);
});

test("shifts by 32 or more (or a negative amount) give 0, or the sign for an i32's >>, as Triton on NVIDIA and its interpreter; >> is arithmetic on i32 and logical on u32", () => {
  assert.deepEqual(runBinary("shl", "i32", [1, 1, 1, 3], [31, 32, 33, -1]), [I32_MIN, 0, 0, 0]);
  assert.deepEqual(runBinary("shr", "i32", [-16, -16, I32_MIN, 1 << 20, 1 << 20], [2, 34, 31, 45, -1]), [-4, -1, -1, 0, 0]);
  assert.deepEqual(runBinary("shr", "u32", [0xfffffff0, 0xfffffff0, 0x80000000], [2, 34, 31]), [0x3ffffffc, 0, 1]);
  assert.deepEqual(runBinary("shl", "u32", [0xffffffff, 1], [4, 35]), [0xfffffff0, 0]);
  assert.deepEqual(runBinary("and", "i32", [-1, 12], [0xff, 10]), [255, 8]);
  assert.deepEqual(runBinary("or", "u32", [0x80000000], [1]), [0x80000001]);
  assert.deepEqual(runBinary("xor", "i32", [-1], [1]), [-2]);
});

test("f32 arithmetic rounds every result; float % truncates like JS", () => {
  assert.deepEqual(runBinary("add", "f32", [0.1, 1e8, 16777216], [0.2, 1, 1]), [
    Math.fround(Math.fround(0.1) + Math.fround(0.2)),
    1e8,
    16777216,
  ]);
  assert.deepEqual(runBinary("mod", "f32", [7.5, -7.5, 7.5, 1], [2, 2, -2, 0]), [1.5, -1.5, 1.5, NaN]);
  assert.deepEqual(runBinary("div", "f32", [1, -1, 0, 1], [0, 0, 0, 3]), [Infinity, -Infinity, NaN, Math.fround(1 / 3)]);
  assert.deepEqual(runBinary("mul", "f32", [3.4e38], [10]), [Infinity]);
});

test("comparisons give masks; NaN compares unequal to everything", () => {
  const xs = [1, 2, 3, NaN];
  const ys = [2, 2, 2, NaN];
  assert.deepEqual(runBinary("lt", "f32", xs, ys), [1, 0, 0, 0]);
  assert.deepEqual(runBinary("le", "f32", xs, ys), [1, 1, 0, 0]);
  assert.deepEqual(runBinary("gt", "f32", xs, ys), [0, 0, 1, 0]);
  assert.deepEqual(runBinary("ge", "f32", xs, ys), [0, 1, 1, 0]);
  assert.deepEqual(runBinary("eq", "f32", xs, ys), [0, 1, 0, 0]);
  assert.deepEqual(runBinary("ne", "f32", xs, ys), [1, 0, 1, 1]);
  // u32 compares as unsigned: 0xffffffff is the largest.
  assert.deepEqual(runBinary("lt", "u32", [U32_MAX, 1], [1, U32_MAX]), [0, 1]);
});

test("logic on masks and unary ops", () => {
  const logic = (fn: "land" | "lor") =>
    runUnary("i32", "i32", [0, 1, 2, 3], (k, x) => {
      const low = k.binary("ne", k.binary("and", x, k.splat(k.const(1), [4])), k.splat(k.const(0), [4]));
      const high = k.binary("ne", k.binary("and", x, k.splat(k.const(2), [4])), k.splat(k.const(0), [4]));
      return k.cast(k.binary(fn, low, high), "i32");
    });
  assert.deepEqual(logic("land"), [0, 0, 0, 1]);
  assert.deepEqual(logic("lor"), [0, 1, 1, 1]);
  const not = runUnary("i32", "i32", [0, 5], (k, x) => k.cast(k.unary("not", k.binary("ne", x, k.splat(k.const(0), [4]))), "i32"));
  assert.deepEqual(not, [1, 0]);
  assert.deepEqual(runUnary("i32", "i32", [5, I32_MIN, 0], (k, x) => k.unary("neg", x)), [-5, I32_MIN, 0]);
  assert.deepEqual(runUnary("u32", "u32", [1, 0], (k, x) => k.unary("neg", x)), [U32_MAX, 0]);
  assert.deepEqual(runUnary("i32", "i32", [0, -1, 5], (k, x) => k.unary("bitnot", x)), [-1, 0, -6]);
  assert.deepEqual(runUnary("u32", "u32", [0, U32_MAX], (k, x) => k.unary("bitnot", x)), [U32_MAX, 0]);
  assert.deepEqual(runUnary("f32", "f32", [1.5, -0.25], (k, x) => k.unary("neg", x)), [-1.5, 0.25]);
});

test("casts: float -> int truncates and saturates (NaN -> 0); int -> float rounds; i32 <-> u32 reinterpret", () => {
  const toI32 = (k: KernelBuilder, x: Value) => k.cast(x, "i32");
  assert.deepEqual(runUnary("f32", "i32", [1.9, -1.9, NaN, 3e9, -3e9, Infinity, -Infinity, -0.5], toI32), [
    1, -1, 0, I32_MAX, I32_MIN, I32_MAX, I32_MIN, 0,
  ]);
  assert.deepEqual(runUnary("f32", "u32", [-1, 5.7, 5e9, NaN, Infinity], (k, x) => k.cast(x, "u32")), [0, 5, U32_MAX, 0, U32_MAX]);
  assert.deepEqual(runUnary("i32", "u32", [-1, I32_MIN, 7], (k, x) => k.cast(x, "u32")), [U32_MAX, 0x80000000, 7]);
  assert.deepEqual(runUnary("u32", "i32", [U32_MAX, 0x80000000, 7], (k, x) => k.cast(x, "i32")), [-1, I32_MIN, 7]);
  assert.deepEqual(runUnary("i32", "f32", [16777217, -16777219, 3], (k, x) => k.cast(x, "f32")), [16777216, -16777220, 3]);
  assert.deepEqual(runUnary("u32", "f32", [U32_MAX], (k, x) => k.cast(x, "f32")), [4294967296]);
  const maskToI32 = (k: KernelBuilder, x: Value) => k.cast(k.binary("gt", x, k.splat(k.const(0, "f32"), [4])), "i32");
  assert.deepEqual(runUnary("f32", "i32", [-1, 0, 2, NaN], maskToI32), [0, 0, 1, 0]);
  const toBool = (k: KernelBuilder, x: Value) => k.cast(k.cast(x, "bool"), "i32");
  assert.deepEqual(runUnary("f32", "i32", [0, -0, 0.5, NaN], toBool), [0, 0, 1, 1]);
});

test("f16: storage as half bits, arithmetic rounded to half, casts to and from f32", () => {
  // 2049 is not a half: it rounds to 2048 (ties to even); 1/3 rounds to the nearest half.
  const viaF16 = runUnary("f32", "f32", [2049, 2051, 1 / 3, 70000, -1e-8], (k, x) => k.cast(k.cast(x, "f16"), "f32"));
  assert.deepEqual(viaF16, [2048, 2052, 0.333251953125, Infinity, -0]);
  const sum = runUnary("f16", "f16", [1, 2048, 0.1], (k, x) => k.binary("add", x, x));
  assert.deepEqual(sum, [2, 4096, roundF16(2 * roundF16(0.1))]);
  const plusOne = runUnary("f16", "f16", [2048], (k, x) => k.binary("add", x, k.splat(k.const(1, "f16"), [4])));
  assert.deepEqual(plusOne, [2048]);
});

test("roundF16 and the half bit patterns agree on every half", () => {
  assert.equal(roundF16(1 + 2 ** -11), 1); // a tie rounds to even
  assert.equal(roundF16(1 + 3 * 2 ** -11), 1 + 2 ** -9);
  assert.equal(roundF16(65519), 65504);
  assert.equal(roundF16(65520), Infinity);
  assert.equal(roundF16(-65520), -Infinity);
  assert.equal(roundF16(2 ** -25), 0); // half the smallest subnormal: a tie, to even (zero)
  assert.equal(roundF16(3 * 2 ** -25), 2 ** -23);
  assert.ok(Object.is(roundF16(-(2 ** -26)), -0));
  for (let bits = 0; bits < 0x10000; bits++) {
    const value = f16FromBits(bits);
    if (Number.isNaN(value)) continue;
    assert.equal(roundF16(value), value);
    assert.equal(f16ToBits(value), bits);
  }
  assert.equal(f16ToBits(NaN), 0x7e00);
  assert.equal(f16FromBits(0x3c00), 1);
  assert.equal(f16FromBits(0xc000), -2);
  assert.equal(f16FromBits(0x0001), 2 ** -24);
});

test("math functions round to f32; maximum/minimum return the other operand of a NaN", () => {
  const xs = [0.5, 1, 2.75, 10];
  const cases: [MathFn, (x: number) => number][] = [
    ["exp", Math.exp],
    ["log", Math.log],
    ["sqrt", Math.sqrt],
    ["rsqrt", (x) => 1 / Math.sqrt(x)],
    ["abs", Math.abs],
    ["sin", Math.sin],
    ["cos", Math.cos],
    ["floor", Math.floor],
    ["ceil", Math.ceil],
    ["sigmoid", (x) => 1 / (1 + Math.exp(-x))],
  ];
  for (const [fn, reference] of cases) {
    const got = runUnary("f32", "f32", xs, (k, x) => k.math(fn, x));
    assert.deepEqual(got, xs.map((x) => Math.fround(reference(Math.fround(x)))), fn);
  }
  assert.deepEqual(runUnary("f32", "f32", [-2.5, -0.5], (k, x) => k.math("floor", x)), [-3, -1]);
  assert.deepEqual(runUnary("i32", "i32", [-5, I32_MIN, 3], (k, x) => k.math("abs", x)), [5, I32_MIN, 3]);
  const ys = [2, NaN, 1, -3];
  const xs2 = [1, 5, NaN, -4];
  const extremum = (fn: MathFn) => {
    const ir = elementwiseKernel(4, "f32", "f32", (k, x, y) => k.math(fn, x, y));
    const out = new Float32Array(4);
    interpret(ir, [1, 1, 1], { x: Float32Array.from(xs2), y: Float32Array.from(ys), out, n: 4 });
    return [...out];
  };
  assert.deepEqual(extremum("maximum"), [2, 5, 1, -3]);
  assert.deepEqual(extremum("minimum"), [1, 5, 1, -4]);
  const fma = runUnary("f32", "f32", [1 + 2 ** -23], (k, x) => k.math("fma", x, x, k.splat(k.const(-1, "f32"), [4])));
  assert.deepEqual(fma, [Math.fround((1 + 2 ** -23) * (1 + 2 ** -23) - 1)]);
});

test("where picks lane by lane", () => {
  const ir = elementwiseKernel(4, "f32", "f32", (k, x, y) => k.where(k.binary("gt", x, y), x, y));
  const out = new Float32Array(6);
  interpret(ir, [2, 1, 1], { x: Float32Array.of(1, 5, 3, -1, 0, 9), y: Float32Array.of(2, 4, 3, -2, 1, 8), out, n: 6 });
  assert.deepEqual([...out], [2, 5, 3, -1, 1, 9]);
});

// ---- control flow and variables ----

test("a for loop accumulates into a block variable; if picks a branch per program", () => {
  // out[pid*4 + j] = sum_i x[i*8 + pid*4 + j] for i in 0..rows, then doubled in program 0 only.
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", "f32");
  const outPtr = k.param("out", "pointer", "f32");
  const rows = k.param("rows", "scalar", "i32");
  const pid = k.programId(0);
  const columns = k.binary("add", k.splat(k.binary("mul", pid, k.const(4)), [4]), k.arange(0, 4));
  const acc = k.declare("acc", k.splat(k.const(0, "f32"), [4]));
  k.for("i", k.const(0), rows, k.const(1), "lt", (i) => {
    const rowStart = k.binary("mul", k.readVar(i), k.const(8));
    const x = k.load(k.ptrAdd(k.splat(xPtr, [4]), k.binary("add", k.splat(rowStart, [4]), columns)));
    k.assign(acc, k.binary("add", k.readVar(acc), x));
  });
  k.if(
    k.binary("eq", pid, k.const(0)),
    () => k.assign(acc, k.binary("mul", k.readVar(acc), k.splat(k.const(2, "f32"), [4]))),
    () => k.assign(acc, k.binary("add", k.readVar(acc), k.splat(k.const(0.5, "f32"), [4]))),
  );
  k.store(k.ptrAdd(k.splat(outPtr, [4]), columns), k.readVar(acc));
  const rowsN = 3;
  const x = randomF32(rowsN * 8, 5);
  const out = new Float32Array(8);
  interpret(k.build(), [2, 1, 1], { x, out, rows: rowsN });
  for (let c = 0; c < 8; c++) {
    let sum = 0;
    for (let r = 0; r < rowsN; r++) sum = Math.fround(sum + x[r * 8 + c]);
    assert.equal(out[c], c < 4 ? Math.fround(sum * 2) : Math.fround(sum + 0.5));
  }
});

test("loop counters: step read once, every comparison, down-counting, and a counter assigned in the body", () => {
  const trace = (start: number, end: number, step: number, cmp: "lt" | "le" | "gt" | "ge" | "ne", bump = 0) => {
    const k = new KernelBuilder();
    const outPtr = k.param("out", "pointer", "i32");
    const count = k.declare("count", k.const(0));
    k.for("i", k.const(start), k.const(end), k.const(step), cmp, (i) => {
      k.store(k.ptrAdd(outPtr, k.readVar(count)), k.readVar(i));
      k.assign(count, k.binary("add", k.readVar(count), k.const(1)));
      if (bump) k.assign(i, k.binary("add", k.readVar(i), k.const(bump)));
    });
    const out = new Int32Array(16).fill(-99);
    interpret(k.build(), [1, 1, 1], { out });
    return [...out].filter((v) => v !== -99);
  };
  assert.deepEqual(trace(0, 5, 2, "lt"), [0, 2, 4]);
  assert.deepEqual(trace(0, 4, 2, "le"), [0, 2, 4]);
  assert.deepEqual(trace(5, 0, -2, "gt"), [5, 3, 1]);
  assert.deepEqual(trace(4, 0, -2, "ge"), [4, 2, 0]);
  assert.deepEqual(trace(0, 6, 3, "ne"), [0, 3]);
  assert.deepEqual(trace(0, 3, 1, "lt", 1), [0, 2]); // i += 1 in the body, then the step
  assert.deepEqual(trace(3, 3, 1, "lt"), []);
});

// ---- shapes, reductions, dot ----

/** Loads a [rows, cols] f32 block from x (row-major), applies `op`, stores the result's flat elements. */
function run2d(rows: number, cols: number, x: Float32Array, outLength: number, op: (k: KernelBuilder, block: Value) => Value, outDtype: NumDtype = "f32"): number[] {
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", "f32");
  const outPtr = k.param("out", "pointer", outDtype);
  const r = k.broadcast(k.reshape(k.binary("mul", k.arange(0, rows), k.splat(k.const(cols), [rows])), [rows, 1]), [rows, cols]);
  const c = k.broadcast(k.reshape(k.arange(0, cols), [1, cols]), [rows, cols]);
  const block = k.load(k.ptrAdd(k.splat(xPtr, [rows, cols]), k.binary("add", r, c)));
  const result = op(k, block);
  const n = result.type.shape.reduce((a, b) => a * b, 1);
  const flat = k.reshape(result, [n]);
  k.store(k.ptrAdd(k.splat(outPtr, [n]), k.arange(0, n)), flat);
  const out = outDtype === "i32" ? new Int32Array(outLength) : new Float32Array(outLength);
  interpret(k.build(), [1, 1, 1], { x, out });
  return [...out];
}

test("broadcast, reshape and trans keep row-major order", () => {
  const x = Float32Array.from({ length: 8 }, (_, i) => i);
  assert.deepEqual(run2d(2, 4, x, 8, (k, b) => k.trans(b)), [0, 4, 1, 5, 2, 6, 3, 7]);
  assert.deepEqual(run2d(2, 4, x, 8, (k, b) => k.reshape(b, [4, 2])), [0, 1, 2, 3, 4, 5, 6, 7]);
  const column = (k: KernelBuilder, b: Value) => k.broadcast(k.reshape(k.reduce("sum", b, 1), [2, 1]), [2, 4]);
  assert.deepEqual(run2d(2, 4, x, 8, column), [6, 6, 6, 6, 22, 22, 22, 22]);
  const row = (k: KernelBuilder, b: Value) => k.broadcast(k.reshape(k.reduce("max", b, 0), [1, 4]), [2, 4]);
  assert.deepEqual(run2d(2, 4, x, 8, row), [4, 5, 6, 7, 4, 5, 6, 7]);
});

test("reductions along each axis match plain JS (sum in index order, argmax the first maximum)", () => {
  const rows = 4;
  const cols = 8;
  const x = randomF32(rows * cols, 9);
  x[1 * cols + 2] = x[1 * cols + 5] = 5; // a tie in row 1: argmax must give 2
  const at = (r: number, c: number) => x[r * cols + c];
  const reference = (fn: ReduceFn, axis: number): number[] => {
    const [outer, length] = axis === 0 ? [cols, rows] : [rows, cols];
    return Array.from({ length: outer }, (_, o) => {
      const lane = Array.from({ length }, (_, i) => (axis === 0 ? at(i, o) : at(o, i)));
      if (fn === "sum") return lane.reduce((a, b) => Math.fround(a + b));
      if (fn === "max") return Math.max(...lane);
      if (fn === "min") return Math.min(...lane);
      return lane.indexOf(Math.max(...lane));
    });
  };
  for (const fn of ["sum", "max", "min", "argmax"] as const) {
    for (const axis of [0, 1]) {
      const outLength = axis === 0 ? cols : rows;
      const got = run2d(rows, cols, x, outLength, (k, b) => k.reduce(fn, b, axis), fn === "argmax" ? "i32" : "f32");
      assert.deepEqual(got, reference(fn, axis), `${fn} along axis ${axis}`);
    }
  }
  assert.equal(run2d(rows, cols, x, rows, (k, b) => k.reduce("argmax", b, 1), "i32")[1], 2);
});

test("a 1-D reduction gives a scalar", () => {
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", "i32");
  const outPtr = k.param("out", "pointer", "i32");
  const total = k.reduce("sum", k.load(k.ptrAdd(k.splat(xPtr, [8]), k.arange(0, 8))), 0);
  k.store(outPtr, total);
  const out = new Int32Array(1);
  interpret(k.build(), [1, 1, 1], { x: Int32Array.of(1, 2, 3, 4, 5, 6, 7, I32_MAX), out });
  assert.equal(out[0], (28 + I32_MAX) | 0);
});

test("dot of [4,8] x [8,2] plus an accumulator, rounded to f32 per multiply-add in k order", () => {
  const [m, kk, n] = [4, 8, 2];
  const a = randomF32(m * kk, 11);
  const b = randomF32(kk * n, 12);
  const acc = randomF32(m * n, 13);
  const k = new KernelBuilder();
  const aPtr = k.param("a", "pointer", "f32");
  const bPtr = k.param("b", "pointer", "f32");
  const accPtr = k.param("acc", "pointer", "f32");
  const outPtr = k.param("out", "pointer", "f32");
  const grid2d = (rows: number, cols: number) => {
    const r = k.broadcast(k.reshape(k.binary("mul", k.arange(0, rows), k.splat(k.const(cols), [rows])), [rows, 1]), [rows, cols]);
    const c = k.broadcast(k.reshape(k.arange(0, cols), [1, cols]), [rows, cols]);
    return k.binary("add", r, c);
  };
  const aBlock = k.load(k.ptrAdd(k.splat(aPtr, [m, kk]), grid2d(m, kk)));
  const bBlock = k.load(k.ptrAdd(k.splat(bPtr, [kk, n]), grid2d(kk, n)));
  const outOffsets = grid2d(m, n);
  const accBlock = k.load(k.ptrAdd(k.splat(accPtr, [m, n]), outOffsets));
  k.store(k.ptrAdd(k.splat(outPtr, [m, n]), outOffsets), k.dot(aBlock, bBlock, accBlock));
  const out = new Float32Array(m * n);
  interpret(k.build(), [1, 1, 1], { a, b, acc, out });
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      let sum = acc[i * n + j];
      for (let p = 0; p < kk; p++) sum = Math.fround(sum + a[i * kk + p] * b[p * n + j]);
      assert.equal(out[i * n + j], sum);
    }
  }
});

// ---- what the CPU run reports ----

test("an unmasked out-of-bounds load throws with the kernel, parameter, index, program and span", () => {
  const k = new KernelBuilder();
  const xPtr = k.param("x", "pointer", "f32");
  const outPtr = k.param("out", "pointer", "f32");
  const offsets = k.binary("add", k.splat(k.binary("mul", k.programId(0), k.const(4)), [4]), k.arange(0, 4));
  const load = k.load(k.ptrAdd(k.splat(xPtr, [4]), offsets));
  k.store(k.ptrAdd(k.splat(outPtr, [4]), offsets), load);
  const out = new Float32Array(10);
  assert.throws(
    () => interpret(k.build("copy_kernel"), [3, 1, 1], { x: new Float32Array(10), out }),
    (e: unknown) => {
      assert.ok(e instanceof InterpreterError);
      assert.equal(e.kind, "out-of-bounds");
      assert.equal(e.code, "KL3101");
      assert.equal(e.kernel, "copy_kernel");
      assert.deepEqual(e.programId, [2, 0, 0]);
      assert.deepEqual(e.outOfBounds, { param: "x", access: "load", index: 10, length: 10 });
      assert.deepEqual(e.span, load.span);
      assert.deepEqual(e.toDiagnostic().span, load.span);
      assert.match(e.message, /^copy_kernel: program \(2,0,0\), lane 2 loads x\[10\] but x has 10 elements/);
      return true;
    },
  );
});

test("an out-of-bounds store writes nothing, not even its in-bounds lanes; negative indices too", () => {
  const k = new KernelBuilder();
  const outPtr = k.param("out", "pointer", "i32");
  const offsets = k.binary("sub", k.arange(0, 4), k.splat(k.const(1), [4])); // -1, 0, 1, 2
  const store = k.store(k.ptrAdd(k.splat(outPtr, [4]), offsets), k.arange(0, 4));
  const out = new Int32Array(4).fill(7);
  assert.throws(
    () => interpret(k.build(), [1, 1, 1], { out }),
    (e: unknown) =>
      e instanceof InterpreterError &&
      e.outOfBounds?.index === -1 &&
      e.outOfBounds.access === "store" &&
      e.span === (store as { span: Span }).span,
  );
  assert.deepEqual([...out], [7, 7, 7, 7]);
});

test("a kernel that never finishes is stopped after maxSteps, at the loop", () => {
  const k = new KernelBuilder();
  const outPtr = k.param("out", "pointer", "i32");
  const loop = k.for("i", k.const(0), k.const(10), k.const(0), "lt", (i) => {
    k.store(outPtr, k.readVar(i));
  });
  assert.throws(
    () => interpret(k.build("spin"), [1, 1, 1], { out: new Int32Array(1) }, { maxSteps: 1000 }),
    (e: unknown) => {
      assert.ok(e instanceof InterpreterError);
      assert.equal(e.kind, "step-limit");
      assert.match(e.message, /kernel did not finish after 1000 steps \(endless loop\?\)/);
      assert.deepEqual(e.span, (loop as { span: Span }).span);
      return true;
    },
  );
});

test("arguments of the wrong kind are reported at the parameter", () => {
  const ir = elementwiseKernel(4, "f32", "f32", (k, x, y) => k.binary("add", x, y));
  const good: KernelArgs = { x: new Float32Array(4), y: new Float32Array(4), out: new Float32Array(4), n: 4 };
  const bad = (args: KernelArgs, pattern: RegExp, param: string) =>
    assert.throws(
      () => interpret(ir, [1, 1, 1], args),
      (e: unknown) =>
        e instanceof InterpreterError &&
        e.kind === "bad-argument" &&
        pattern.test(e.message) &&
        e.span === ir.params.find((p) => p.name === param)?.span,
    );
  bad({ ...good, y: new Int32Array(4) }, /'y' is a Ptr<f32> and needs a Float32Array, got a Int32Array/, "y");
  bad({ ...good, out: undefined as unknown as number }, /'out'.*got nothing/, "out");
  bad({ ...good, n: new Int32Array(1) }, /'n' is a scalar i32 and needs a number/, "n");
  assert.throws(() => interpret(ir, [1.5, 1, 1], good), /grid/);
});

test("IR the interpreter cannot run is an internal error at the node, not a crash", () => {
  const k = new KernelBuilder();
  const outPtr = k.param("out", "pointer", "f32");
  const x = k.const(1.5, "f32");
  const bad = k.binary("shl", x, x);
  k.store(outPtr, bad);
  assert.throws(
    () => interpret(k.build(), [1, 1, 1], { out: new Float32Array(1) }),
    (e: unknown) => e instanceof InterpreterError && e.kind === "internal" && e.span === bad.span && /'shl' on f32/.test(e.message),
  );
});

// ---- kernels from source, through the real compiler (once its code generator is in) ----

type FrontEnd = typeof import("../../src/compile");

/** The compiler's front door, or undefined while one of its stages does not exist yet. */
async function loadFrontEnd(): Promise<FrontEnd | undefined> {
  try {
    return await import("../../src/compile");
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "MODULE_NOT_FOUND" || code === "ERR_MODULE_NOT_FOUND") return undefined;
    throw e;
  }
}

const HEADER = `import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, constexpr } from "kernel-lab";\n`;

async function compileSource(t: { skip(message: string): void }, body: string, constexprs: Record<string, number>) {
  const frontEnd = await loadFrontEnd();
  if (!frontEnd) {
    t.skip("src/compile.ts cannot load yet (a compiler stage is missing)");
    return undefined;
  }
  const text = HEADER + body;
  const parsed = frontEnd.parseKernelFile("test.kernel.ts", text);
  assert.deepEqual(parsed.diagnostics, []);
  const compiled = frontEnd.compileKernel(parsed.kernels[0], constexprs);
  assert.deepEqual(compiled.diagnostics.map((d) => d.message), []);
  return { ir: (compiled.kernel as NonNullable<typeof compiled.kernel>).ir, text };
}

const VECTOR_ADD = `
export const add_kernel = kernel(function add_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
  const pid = tl.programId(0);
  const block_start = pid * BLOCK_SIZE;
  const offsets = block_start + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  const output = x + y;
  tl.store(output_ptr + offsets, output, mask);
});`;

test("source: the vector add of docs/LANGUAGE.md §1 at sizes that are not multiples of the block", async (t) => {
  const compiled = await compileSource(t, VECTOR_ADD, { BLOCK_SIZE: 64 });
  if (!compiled) return;
  for (const n of [1, 63, 1000, 4097]) {
    const x = randomF32(n, n);
    const y = randomF32(n, n + 1);
    const out = new Float32Array(n);
    interpret(compiled.ir, [Math.ceil(n / 64), 1, 1], { x_ptr: x, y_ptr: y, output_ptr: out, n_elements: n });
    for (let i = 0; i < n; i++) assert.equal(out[i], Math.fround(x[i] + y[i]));
  }
});

test("source: a float constexpr, and a let first assigned in the constexpr branch taken (Liger's JSD: `if beta == 0.0: loss = …`)", async (t) => {
  const source = `
export const blend = kernel(function blend(x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, n: i32, beta: constexpr, BLOCK: constexpr) {
  const o = tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + o, o < n);
  let y;
  if (beta == 0.0) {
    y = tl.cast(o, "i32");
  } else if (beta == 1.0) {
    y = x - 1;
  } else {
    const s = 1 - beta;
    y = beta * x + s;
  }
  tl.store(y_ptr + o, y, o < n);
});`;
  const x = randomF32(13, 7);
  for (const [beta, expected] of [
    [0, (_v: number, i: number) => i],
    [1, (v: number) => Math.fround(v - 1)],
    [0.25, (v: number) => Math.fround(Math.fround(0.25 * v) + 0.75)],
  ] as const) {
    const compiled = await compileSource(t, source, { beta, BLOCK: 16 });
    if (!compiled) return;
    const y = new Float32Array(13);
    interpret(compiled.ir, [1, 1, 1], { x_ptr: x, y_ptr: y, n: 13 });
    assert.deepEqual(Array.from(y), Array.from(x, expected), `beta = ${beta}`);
  }
});

test("source: a row-wise softmax (max, exp, sum, broadcasting) on a masked 2-D block", async (t) => {
  const compiled = await compileSource(
    t,
    `
export const softmax = kernel(function softmax(
  x_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n_rows: i32, n_cols: i32, BLOCK_ROWS: constexpr, BLOCK_COLS: constexpr,
) {
  const rows = tl.programId(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS);
  const cols = tl.arange(0, BLOCK_COLS);
  const offsets = tl.expandDims(rows, 1) * n_cols + tl.expandDims(cols, 0);
  const mask = tl.expandDims(rows < n_rows, 1) && tl.expandDims(cols < n_cols, 0);
  const x = tl.load(x_ptr + offsets, mask, -Infinity);
  const e = tl.exp(x - tl.expandDims(tl.max(x, 1), 1));
  tl.store(out_ptr + offsets, e / tl.expandDims(tl.sum(e, 1), 1), mask);
});`,
    { BLOCK_ROWS: 4, BLOCK_COLS: 8 },
  );
  if (!compiled) return;
  const [rows, cols] = [7, 5];
  const x = randomF32(rows * cols, 21).map((v) => v * 4);
  const out = new Float32Array(rows * cols);
  interpret(compiled.ir, [Math.ceil(rows / 4), 1, 1], { x_ptr: x, out_ptr: out, n_rows: rows, n_cols: cols });
  for (let r = 0; r < rows; r++) {
    const row = [...x.subarray(r * cols, (r + 1) * cols)];
    const max = Math.max(...row);
    const e = row.map((v) => Math.exp(v - max));
    const total = e.reduce((a, b) => a + b);
    for (let c = 0; c < cols; c++) assert.ok(Math.abs(out[r * cols + c] - e[c] / total) < 1e-6);
  }
});

test("source: a 16x16x16 tl.dot", async (t) => {
  const compiled = await compileSource(
    t,
    `
export const matmul = kernel(function matmul(a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, M: constexpr, N: constexpr, K: constexpr) {
  const rm = tl.arange(0, M);
  const rn = tl.arange(0, N);
  const rk = tl.arange(0, K);
  const A = tl.load(a + tl.expandDims(rm, 1) * K + tl.expandDims(rk, 0));
  const B = tl.load(b + tl.expandDims(rk, 1) * N + tl.expandDims(rn, 0));
  tl.store(c + tl.expandDims(rm, 1) * N + tl.expandDims(rn, 0), tl.dot(A, B));
});`,
    { M: 16, N: 16, K: 16 },
  );
  if (!compiled) return;
  const a = randomF32(256, 31);
  const b = randomF32(256, 32);
  const c = new Float32Array(256);
  interpret(compiled.ir, [1, 1, 1], { a, b, c });
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 16; j++) {
      let sum = 0;
      for (let p = 0; p < 16; p++) sum = Math.fround(sum + a[i * 16 + p] * b[p * 16 + j]);
      assert.equal(c[i * 16 + j], sum);
    }
  }
});

test("source: a loop that reads past the end is reported at the user's tl.load", async (t) => {
  const compiled = await compileSource(
    t,
    `
export const colsum = kernel(function colsum(x: Ptr<f32>, out: Ptr<f32>, rows: i32, BLOCK: constexpr) {
  let acc = tl.zeros([BLOCK], "f32");
  for (let i = 0; i < rows; i += 1) {
    acc = acc + tl.load(x + i * BLOCK + tl.arange(0, BLOCK));
  }
  tl.store(out + tl.arange(0, BLOCK), acc);
});`,
    { BLOCK: 4 },
  );
  if (!compiled) return;
  const x = Float32Array.from({ length: 12 }, (_, i) => i);
  const out = new Float32Array(4);
  interpret(compiled.ir, [1, 1, 1], { x, out, rows: 3 });
  assert.deepEqual([...out], [12, 15, 18, 21]);
  assert.throws(
    () => interpret(compiled.ir, [1, 1, 1], { x, out, rows: 4 }),
    (e: unknown) =>
      e instanceof InterpreterError &&
      e.outOfBounds?.index === 12 &&
      compiled.text.slice(e.span.start, e.span.end) === "tl.load(x + i * BLOCK + tl.arange(0, BLOCK))",
  );
});

// codegen/uniformity.ts uniformInWgsl: which scalars WGSL's uniformity analysis takes as the same in
// every invocation, so that a barrier may sit under a branch or loop they steer (atomics.ts); and
// uniformWithVariables, which follows variables to their values (whole-trips.ts).

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Stmt, Value, ValueOp } from "../../src/ir/ir";
import { uniformInWgsl, uniformWithVariables } from "../../src/codegen/uniformity";

let id = 0;
const span = { start: 0, end: 0 };
const scalar = { kind: "data", dtype: "i32", shape: [] } as const;
const block = { kind: "data", dtype: "i32", shape: [16] } as const;
const value = (type: Value["type"], op: ValueOp): Value => ({ id: id++, span, type, ...op }) as Value;
const never = () => false;

test("literals, parameters and program ids are uniform, and scalars computed from them only", () => {
  const pid = value(scalar, { op: "programId", axis: 0 });
  const c = value(scalar, { op: "const", value: 4 });
  assert.equal(uniformInWgsl(value(scalar, { op: "binary", fn: "mul", lhs: pid, rhs: c }), never), true);
});

test("a variable is not, nor a load or reduction unless handed out with workgroupUniformLoad", () => {
  const sum = value(scalar, { op: "reduce", fn: "sum", axis: 0, value: value(block, { op: "arange", start: 0, end: 16 }) });
  assert.equal(uniformInWgsl(sum, never), false);
  assert.equal(uniformInWgsl(sum, (v) => v.id === sum.id), true);
});

test("a scalar made from a block is not: an arange has no operands, yet each invocation holds its own elements", () => {
  const lanes = value(block, { op: "arange", start: 0, end: 16 });
  assert.equal(uniformInWgsl(lanes, never), false);
  assert.equal(uniformInWgsl(value(scalar, { op: "reshape", value: value({ ...block, shape: [1] }, { op: "arange", start: 0, end: 1 }) }), never), false);
});

test("uniformWithVariables: a variable whose every value is uniform is (attention's hi, a counter stepping by a constant); one a load or a lane's value reaches is not", () => {
  const variable = (name: string) => ({ id: id++, name, type: scalar, span });
  const read = (v: ReturnType<typeof variable>) => value(scalar, { op: "readVar", variable: v });
  const pid = value(scalar, { op: "programId", axis: 0 });
  const n = value(scalar, { op: "param", name: "N_CTX" });
  const [hi, step, loaded] = [variable("hi"), variable("x"), variable("y")];
  const load = value(scalar, { op: "load", ptr: value({ kind: "pointer", pointee: "i32", param: "p", shape: [] }, { op: "param", name: "p" }) });
  const body: Stmt[] = [
    { kind: "declare", span, variable: hi, init: n },
    { kind: "assign", span, variable: hi, value: value(scalar, { op: "math", fn: "minimum", args: [value(scalar, { op: "binary", fn: "mul", lhs: pid, rhs: value(scalar, { op: "const", value: 64 }) }), n] }) },
    { kind: "declare", span, variable: step, init: value(scalar, { op: "const", value: 0 }) },
    { kind: "assign", span, variable: step, value: value(scalar, { op: "binary", fn: "add", lhs: read(step), rhs: read(hi) }) },
    { kind: "declare", span, variable: loaded, init: n },
    { kind: "assign", span, variable: loaded, value: load },
  ];
  const uniform = uniformWithVariables(body);
  assert.deepEqual([read(hi), read(step), read(loaded)].map(uniform), [true, true, false]);
  assert.equal(uniformInWgsl(read(hi), never), false, "uniformInWgsl takes every variable as not");
  assert.equal(uniform(value(block, { op: "arange", start: 0, end: 16 })), false);
});

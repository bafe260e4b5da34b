// Code generation reports into the diagnostics log instead of throwing: IR that no source can
// produce (here, stores and loads through a non-pointer) gives an internal diagnostic at the
// node, and no WGSL.

import { test } from "node:test";
import assert from "node:assert/strict";
import { generateWgsl } from "../../src/codegen/wgsl";
import { DEFAULT_TARGET } from "../../src/ir/target";
import type { KernelIR, Stmt, Value } from "../../src/ir/ir";

const at = (start: number) => ({ start, end: start + 1 });
const scalar: Value = { id: 0, span: at(10), type: { kind: "data", dtype: "i32", shape: [] }, op: "const", value: 3 };

function kernel(body: Stmt[]): KernelIR {
  return { name: "k", span: at(0), params: [], constexprs: {}, body, writtenParams: new Set() };
}

test("a store through a non-pointer is a KL9000 at the pointer, and no WGSL", () => {
  const result = generateWgsl(kernel([{ kind: "store", span: at(20), ptr: scalar, value: scalar }]), DEFAULT_TARGET);
  assert.equal(result.wgsl, undefined);
  assert.deepEqual(result.diagnostics, [{ code: "KL9000", severity: "error", message: "tl.store through a non-pointer", span: at(10) }]);
});

test("a load through a non-pointer is a KL9000 at the load, and generation stops there", () => {
  const load: Value = { id: 1, span: at(30), type: { kind: "data", dtype: "i32", shape: [] }, op: "load", ptr: scalar };
  const body: Stmt[] = [
    { kind: "let", value: load },
    { kind: "store", span: at(40), ptr: scalar, value: load },
  ];
  const result = generateWgsl(kernel(body), DEFAULT_TARGET);
  assert.equal(result.wgsl, undefined);
  assert.deepEqual(result.diagnostics.map((d) => [d.code, d.message, d.span.start]), [["KL9000", "tl.load through a non-pointer", 30]]);
});

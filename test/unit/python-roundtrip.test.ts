// Both ways (docs/LANGUAGE.md §2.2): every example's kernels, copied as Triton Python ("Copy as Triton
// Python") and compiled again through the Python front end, give the same WGSL byte for byte.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { compileKernel, NO_ADAPTER_TARGET, parseKernelFile } from "../../src/compile";
import { compilePythonKernel, readPythonFile, type PythonArgType } from "../../src/python";
import { kernelFileToPython } from "../../src/python/to-python";
import { locate } from "../../src/diagnostics/position";

const EXAMPLES = path.resolve(__dirname, "../../examples");
// The examples' larger tiles are for GPUs with more workgroup memory than WebGPU's default.
const TARGET = { ...NO_ADAPTER_TARGET, maxWorkgroupStorageBytes: 65536 };

for (const name of readdirSync(EXAMPLES).filter((f) => f.endsWith(".kernel.ts")).sort()) {
  test(`${name}: TypeScript → Python → the same WGSL`, () => {
    const text = readFileSync(path.join(EXAMPLES, name), "utf8");
    const parsed = parseKernelFile(name, text);
    const python = kernelFileToPython(name, text);
    assert.deepEqual(python.problems, []);
    const file = readPythonFile(name.replace(/\.kernel\.ts$/, ".py"), python.text);
    assert.deepEqual(file.diagnostics, []);
    let compared = 0;
    for (const kernel of parsed.kernels.filter((k) => !k.deviceOnly)) {
      const variants = parsed.literalConstexprs.get(kernel.name) ?? [Object.fromEntries(kernel.params.filter((p) => p.kind === "constexpr").map((p) => [p.name, 16]))];
      const types: Record<string, PythonArgType> = {};
      for (const p of kernel.params) {
        if (p.kind === "pointer") types[p.name] = { kind: "pointer", dtype: p.dtype };
        else if (p.kind === "scalar") types[p.name] = { kind: "scalar", dtype: p.dtype as "i32" | "u32" | "f32" };
      }
      for (const constexprs of variants) {
        const ts = compileKernel(kernel, constexprs, TARGET);
        const py = compilePythonKernel(file, kernel.name, types, constexprs, TARGET);
        const errors = locate("k.py", python.text, py.diagnostics.filter((d) => d.severity === "error")).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
        assert.deepEqual(errors, [], `${kernel.name} ${JSON.stringify(constexprs)}: the Python doesn't compile:\n${python.text}`);
        assert.ok(ts.kernel && py.kernel);
        assert.equal(py.kernel.wgsl, ts.kernel.wgsl, `${kernel.name} ${JSON.stringify(constexprs)}: the WGSL differs\n${python.text}\n${py.typescript}`);
        compared++;
      }
    }
    assert.ok(compared > 0);
  });
}

test("a multi-operand tl.reduce and tl.associativeScan: TypeScript → Python (a tuple of blocks, combine functions returning tuples) → the same WGSL", () => {
  const text = [
    'import { kernel, tl } from "kernel-lab";',
    'import type { Ptr, f32, i32, constexpr } from "kernel-lab";',
    "export const k = kernel(function k(x: Ptr<f32>, y: Ptr<f32>, z: Ptr<i32>, n: i32, BLOCK: constexpr) {",
    "  const offs = tl.arange(0, BLOCK);",
    "  const v = tl.load(x + offs, offs < n, 0.0);",
    "  const [s, c] = tl.reduce([v, tl.where(offs < n, 1, 0)], 0, (s_a, c_a, s_b, c_b) => [s_a + s_b, c_a + c_b]);",
    "  const [m, i] = tl.associativeScan([v, offs], 0, (va, ia, vb, ib) => [tl.maximum(va, vb), tl.where(vb > va, ib, ia)], true);",
    "  tl.store(y, s / c + tl.max(m));",
    "  tl.store(z + offs, i, offs < n);",
    "});",
    "",
  ].join("\n");
  const python = kernelFileToPython("k.kernel.ts", text);
  assert.deepEqual(python.problems, []);
  assert.match(python.text, /tl\.reduce\(\(v, tl\.where\(offs < n, 1, 0\)\), 0, _k_combine_\d+\)/);
  assert.match(python.text, /return s_a \+ s_b, c_a \+ c_b\n/);
  const file = readPythonFile("k.py", python.text);
  const types: Record<string, PythonArgType> = { x: { kind: "pointer", dtype: "f32" }, y: { kind: "pointer", dtype: "f32" }, z: { kind: "pointer", dtype: "i32" }, n: { kind: "scalar", dtype: "i32" } };
  const ts = compileKernel(parseKernelFile("k.kernel.ts", text).kernels[0], { BLOCK: 64 }, TARGET);
  const py = compilePythonKernel(file, "k", types, { BLOCK: 64 }, TARGET);
  assert.deepEqual(py.diagnostics.filter((d) => d.severity === "error"), []);
  assert.equal(py.kernel?.wgsl, ts.kernel?.wgsl);
});

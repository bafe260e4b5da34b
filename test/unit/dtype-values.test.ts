// Issue 31: kernel-library code as written. Dtypes are compile-time values (`x.dtype`,
// `p.dtype.element_ty`, `tl.float32` held in consts, compared, chosen, passed, used wherever a
// dtype goes), `.to(…)` on a value, `tl.constexpr(…)`, a local that grows from a scalar to a block,
// and Triton's `tl.math` / libdevice names. Each new form is a row that must compile to the same
// WGSL as the spelling Kernel Lab had before; each new mistake a row with its one diagnostic.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile, compileKernel, parseKernelFile } from "../../src/compile";
import { locate } from "../../src/diagnostics/position";
import { interpret } from "../../src/interpreter/interpret";
import { DEFAULT_TARGET } from "../../src/ir/target";

/** f16 is part of these kernels: compiled for an adapter that has it. */
const TARGET = { ...DEFAULT_TARGET, shaderF16: true };

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, f16, i32, u32, constexpr } from "kernel-lab";\n';
const PARAMS = "x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, h_ptr: Ptr<f16>, i_ptr: Ptr<i32>, n: i32, seed: i32";
// o is i32[16], x f32[16], h f16[16].
const SETUP = "const o = tl.arange(0, 16);\nconst x = tl.load(x_ptr + o, o < n);\nconst h = tl.load(h_ptr + o, o < n);\n";

/** The kernel `k` around `body` (lines 5–7 are SETUP, the body starts on line 8), after `helpers` on line 3. */
function file(body: string, helpers = ""): string {
  return `${PRELUDE}${helpers}\nexport const k = kernel(function k(${PARAMS}) {\n${SETUP}${body}\n});\n`;
}

function compiled(body: string, helpers = "") {
  const parsed = parseKernelFile("k.kernel.ts", file(body, helpers));
  const result = compileKernel(parsed.kernels.find((k) => k.name === "k")!, {}, TARGET);
  assert.deepEqual(result.diagnostics.map((d) => d.message), [], body);
  return result.kernel!;
}

/** The kernel's WGSL with its values renumbered in order of appearance. */
function wgsl(body: string, helpers = ""): string {
  const ids = new Map<string, number>();
  return compiled(body, helpers).wgsl.replace(/\bv(\d+)/g, (_, id: string) => `v${ids.get(id) ?? (ids.set(id, ids.size), ids.size - 1)}`);
}

function diagnose(body: string, helpers = ""): string[] {
  const text = file(body, helpers);
  return locate("k.kernel.ts", text, checkFile("k.kernel.ts", text, TARGET)).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
}

test("a local grows from a scalar to a block in straight-line code, as a parameter may (c0 = seed; c0 += offsets)", () => {
  const k = compiled("let c0 = seed;\nc0 += o;\nc0 = c0 * 2;\ntl.store(i_ptr + o, c0);");
  const out = new Int32Array(16).fill(-1);
  interpret(k.ir, [1, 1, 1], { x_ptr: new Float32Array(16), y_ptr: new Float32Array(16), h_ptr: new Uint16Array(16), i_ptr: out, n: 16, seed: 7 });
  assert.deepEqual([...out], Array.from({ length: 16 }, (_, i) => (7 + i) * 2));
});

test("a local keeps its type where it is assigned in a loop or a run-time branch (KL2007), as Triton's loop-carried values do", () => {
  const [found] = diagnose("let c0 = seed;\nfor (let i = 0; i < n; i++) { c0 += o; }\ntl.store(i_ptr + o, c0);");
  assert.match(found, /^9:31 KL2007 'c0' is i32 but is assigned i32\[16\]/);
  const [branch] = diagnose("let c0 = seed;\nif (n > 2) { c0 = c0 + o; }\ntl.store(i_ptr + o, c0);");
  assert.match(branch, /^9:14 KL2007 /);
});

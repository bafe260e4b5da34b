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
import { MATH_INSTEAD, MATH_NAMES } from "../../src/semantics/math-names";
import { LIBDEVICE_FUNCTIONS } from "../../src/semantics/libdevice";
import { DTYPE_PREDICATES } from "../../src/semantics/dtypes";
import { DTYPE_PREDICATES as PYTHON_DTYPE_PREDICATES } from "../../src/python/names";
import { readFileSync } from "node:fs";
import { join } from "node:path";

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

test("f16 `/` and `%` give f32 (the other operand an f16, a constant or an i32), `+` and `*` f16: Triton's computation_type_impl (test_core.py's test_bin_op)", () => {
  const checks = "(h / h).dtype === tl.float32 && (h % 2.0).dtype === tl.float32 && (h / o).dtype === tl.float32 && (h + h).dtype === tl.float16 && (h * 2.0).dtype === tl.float16";
  assert.deepEqual(diagnose(`tl.staticAssert(${checks});\ntl.store(y_ptr + o, x);`), []);
  assert.match(diagnose("tl.staticAssert((h / h).dtype === tl.float16);\ntl.store(y_ptr + o, x);").join(), /KL2074/);
});

test("/ and % of integers of different signedness are KL2003, as Triton refuses them (test_core.py's test_bin_op); a u32 scalar beside an i32 block takes its dtype", () => {
  const [found, ...rest] = diagnose("const u = o.to(tl.uint32);\ntl.store(i_ptr + o, (o / u).to(tl.int32) + (u % o).to(tl.int32));");
  assert.match(found, /^9:22 KL2003 '\/' of i32 and u32: integers of different signedness, which Triton refuses for \/, \/\/ and %/);
  assert.equal(rest.length, 1);
  assert.match(rest[0], /^9:\d+ KL2003 '%' of u32 and i32/);
  assert.deepEqual(diagnose("const u = tl.cast(seed, \"u32\");\ntl.store(i_ptr + o, o / u + o % 3);"), []);
  assert.deepEqual(diagnose("const u = o.to(tl.uint32);\ntl.store(i_ptr + o, (u / u + u % 7).to(tl.int32) + o / 2);"), []);
});

// Helpers for the rows below (line 3 of the file): Liger's and FlagGems' ways of passing a dtype on.
const HELPERS =
  "const widen = kernel(function widen(v, dtype: constexpr) { return v.to(dtype); }); const lowest = kernel(function lowest(dtype) { return dtype === tl.float32 ? -Infinity : -65504.0; });";

// [what, the new form, the spelling Kernel Lab had]: both must compile to the same WGSL.
const SAME: [string, string, string][] = [
  ["x.to(tl.float32) is tl.cast(x, \"f32\")", "tl.store(y_ptr + o, h.to(tl.float32));", 'tl.store(y_ptr + o, tl.cast(h, "f32"));'],
  ["x.to(\"f32\") is tl.cast", 'tl.store(y_ptr + o, h.to("f32"));', 'tl.store(y_ptr + o, tl.cast(h, "f32"));'],
  ["x.to(dtype, { bitcast: true })", "tl.store(i_ptr + o, x.to(tl.int32, { bitcast: true }));", 'tl.store(i_ptr + o, tl.cast(x, "i32", { bitcast: true }));'],
  ["x.to(tl.int1) is x != 0", "tl.store(i_ptr + o, tl.where(o.to(tl.int1), 1, 2));", "tl.store(i_ptr + o, tl.where(o != 0, 1, 2));"],
  ["x.to(x.dtype) is x", "tl.store(y_ptr + o, x.to(x.dtype));", "tl.store(y_ptr + o, x);"],
  ["tl.cast(x, p.dtype.element_ty)", "tl.store(h_ptr + o, tl.cast(x, h_ptr.dtype.element_ty));", 'tl.store(h_ptr + o, tl.cast(x, "f16"));'],
  ["p.type.element_ty (FlagGems' inp.type.element_ty)", "tl.store(h_ptr + o, x.to(h_ptr.type.element_ty));", 'tl.store(h_ptr + o, tl.cast(x, "f16"));'],
  ["a dtype held in a const (X_row_dtype = X_row.dtype)", "const X_row_dtype = h.dtype;\nconst w = x * 2.0;\ntl.store(h_ptr + o, w.to(X_row_dtype));", 'const w = x * 2.0;\ntl.store(h_ptr + o, tl.cast(w, "f16"));'],
  ["a dtype chosen with a conditional (acc_type = dtype === tl.bfloat16 ? tl.float32 : dtype)", "const dtype = x.dtype;\nconst acc_type = dtype === tl.bfloat16 ? tl.float32 : dtype;\ntl.store(y_ptr + o, tl.zeros([16], acc_type) + x);", 'tl.store(y_ptr + o, tl.zeros([16], "f32") + x);'],
  ["a let holding a dtype, changed in a constexpr branch", "let cdtype = tl.float32;\nif (tl.constexpr(h.dtype === tl.float16)) { cdtype = tl.float16; }\ntl.store(h_ptr + o, tl.full([16], 1.5, cdtype));", 'tl.store(h_ptr + o, tl.full([16], 1.5, "f16"));'],
  ["tl.constexpr(…) around a dtype comparison keeps only the branch taken", "if (tl.constexpr(x.dtype === tl.float16)) { tl.store(y_ptr + o, x * 2.0); } else { tl.store(y_ptr + o, x + 1.0); }", "tl.store(y_ptr + o, x + 1.0);"],
  ["!== and == on dtypes, is_floating()", "if (x.dtype !== tl.int32 && x.dtype == tl.float32 && x.dtype.is_floating() && !o.dtype.is_floating()) { tl.store(y_ptr + o, x); }", "tl.store(y_ptr + o, x);"],
  ["primitive_bitwidth", "tl.store(i_ptr + o, o + h.dtype.primitive_bitwidth + x.dtype.primitive_bitwidth);", "tl.store(i_ptr + o, o + 16 + 32);"],
  ["a block's type.element_ty and scalar", "tl.store(y_ptr + o, tl.cast(h, h.type.element_ty).to(x.type.scalar));", 'tl.store(y_ptr + o, tl.cast(h, "f32"));'],
  ["x.shape", "const [B] = x.shape;\ntl.store(y_ptr + tl.arange(0, B), x);", "tl.store(y_ptr + tl.arange(0, 16), x);"],
  ["a dtype passed to a device function (constexpr and generic parameters)", "tl.store(h_ptr + o, widen(x, h.dtype));\ntl.store(y_ptr + o, tl.load(y_ptr + o, o < n, lowest(x_ptr.dtype.element_ty)));", 'tl.store(h_ptr + o, tl.cast(x, "f16"));\ntl.store(y_ptr + o, tl.load(y_ptr + o, o < n, -Infinity));'],
  ["tl.full with a dtype of a value (other= of the same dtype)", "tl.store(y_ptr + o, tl.full([16], 0, x.dtype) + tl.load(y_ptr + o, o < n, tl.full([], 1.0, x.dtype)));", 'tl.store(y_ptr + o, tl.full([16], 0, "f32") + tl.load(y_ptr + o, o < n, 1.0));'],
  ["tl.sum's dtype", "tl.store(y_ptr, tl.sum(h, 0, { dtype: tl.float32 }));", 'tl.store(y_ptr, tl.sum(h, 0, { dtype: "f32" }));'],
  ["tl.math.rsqrt is tl.rsqrt", "tl.store(y_ptr + o, tl.math.rsqrt(x) + tl.math.exp2(x) + tl.math.pow(x, 2.0));", "tl.store(y_ptr + o, tl.rsqrt(x) + tl.exp2(x) + tl.pow(x, 2.0));"],
  ["tl.extra.libdevice and tl.extra.cuda.libdevice names", "tl.store(y_ptr + o, tl.extra.libdevice.tanh(x) + tl.extra.cuda.libdevice.fast_expf(x) + tl.extra.libdevice.fast_dividef(x, 3.0));", "tl.store(y_ptr + o, tl.tanh(x) + tl.exp(x) + tl.fdiv(x, 3.0));"],
  ["tl.dtype of a name (Triton's short names and its tl.* spellings)", "tl.store(y_ptr + o, x.to(tl.dtype(\"fp16\")).to(tl.dtype(\"float32\")) + tl.cast(o, tl.dtype(`int${32}`)));", "tl.store(y_ptr + o, x.to(tl.float16).to(tl.float32) + tl.cast(o, tl.int32));"],
  ["libdevice imported from kernel-lab", "tl.store(y_ptr + o, libdevice.erf(x) + libdevice.fmax(x, 1.0) + libdevice.log2(x));", "tl.store(y_ptr + o, tl.erf(x) + tl.maximum(x, 1.0) + tl.log2(x));"],
  ["Triton's tensor member functions: x.sum(0), x.reshape", "tl.store(y_ptr, x.sum(0) + x.reshape([4, 4]).max(1).sum(0));", "tl.store(y_ptr, tl.sum(x, 0) + tl.sum(tl.max(tl.reshape(x, [4, 4]), 1), 0));"],
];

for (const [what, form, before] of SAME) {
  test(`dtypes and namespaces as written: ${what}`, () => {
    const helpers = `${HELPERS}\nimport { libdevice } from "kernel-lab";`.replace("\n", " ");
    assert.equal(wgsl(form, helpers), wgsl(before, helpers));
  });
}

// [what, body, the one diagnostic's "line:col code", its message's start]; the body starts on line 8.
const DIAGNOSTICS: [string, string, string, string][] = [
  ["a cast to int16 (no WGSL type): where the value is made", "const dt = tl.int16;\nconst ok = dt === tl.int16;\ntl.store(y_ptr + o, tl.cast(x, dt));", "10:32 KL2080", "tl.int16 has no WGSL type: WGSL's smallest integer is 32 bits"],
  ["a cast to \"f64\"", 'tl.store(y_ptr + o, tl.cast(x, "f64"));', "8:32 KL2080", "tl.float64 has no WGSL type: WGSL has no 64-bit floats"],
  ["x.to(tl.float64)", "tl.store(y_ptr + o, x.to(tl.float64));", "8:26 KL2080", "tl.float64 has no WGSL type"],
  // tl.full of tl.int8 makes 8-bit values held as i32 (tritonbench's int4 matmul; test/python/tritonbench-idioms.py); int16 has none.
  ["tl.full of int16", "tl.store(i_ptr + o, tl.full([16], 1, tl.int16));", "8:38 KL2080", "tl.int16 has no WGSL type: WGSL's smallest integer is 32 bits; use tl.int32"],
  ["a number where a dtype goes", "tl.store(y_ptr + o, tl.cast(x, n));", "8:32 KL1040", "the dtype must be a dtype such as tl.float32 or x.dtype"],
  ["a dtype where a number goes", "tl.store(y_ptr + o, x + x.dtype);", "8:25 KL2081", "this is the dtype tl.float32, known while compiling, not a number"],
  ["a dtype compared with a number", "if (x.dtype === 1) { tl.store(y_ptr + o, x); }", "8:5 KL2081", "a dtype compares only with another dtype (x.dtype === tl.float16), not with i32"],
  ["a dtype chosen by a run-time condition", "const dt = n > 0 ? tl.float32 : tl.float16;", "8:12 KL2006", "c ? a : b chooses the dtype tl.float32 only when c is a compile-time constant"],
  ["a let holding a dtype, changed in a run-time branch", "let dt = tl.float32;\nif (n > 0) { dt = tl.float16; }", "9:14 KL2081", "'dt' is assigned the dtype tl.float16 inside a run-time if or loop, but a dtype is decided while compiling"],
  ["a let holding a dtype, assigned a number", "let dt = tl.float32;\ndt = 2;", "9:1 KL2081", "'dt' holds the dtype tl.float32 and can only be assigned another dtype, got i32"],
  ["tl.constexpr of a run-time value", "if (tl.constexpr(n > 0)) { tl.store(y_ptr + o, x); }", "8:18 KL1041", "tl.constexpr(…) marks a value known while compiling, but this is a run-time bool"],
  ["a property values don't have", "tl.store(y_ptr + o, x.foo);", "8:23 KL1080", "a kernel value (f32[16]) has no property 'foo'; values have .dtype, .type, .shape and .numel"],
  ["element_ty of a scalar dtype", "tl.store(y_ptr + o, x.to(x.dtype.element_ty));", "8:34 KL1080", "tl.float32 has no property 'element_ty'; tl.float32 is already an element dtype"],
  ["a dtype predicate on a value", "if (x.is_floating()) { tl.store(y_ptr + o, x); }", "8:7 KL1080", ".is_floating() is a dtype's; write x.dtype.is_floating()"],
  ["a typo in a dtype's name", "tl.store(y_ptr + o, x.to(tl.flaot32));", "8:29 KL1005", "tl.flaot32 doesn't exist; did you mean tl.float32?"],
  ["a typo in tl.math", "tl.store(y_ptr + o, tl.math.rsqrtt(x));", "8:29 KL1005", "tl.math.rsqrtt doesn't exist; did you mean tl.math.rsqrt?"],
  ["a typo in libdevice", "tl.store(y_ptr + o, tl.extra.libdevice.fast_dividf(x, 2.0));", "8:40 KL1005", "tl.extra.libdevice.fast_dividf doesn't exist; did you mean tl.extra.libdevice.fast_dividef?"],
  ["a libdevice name with no Kernel Lab function", "tl.store(y_ptr + o, libdevice.fmod(x, 2.0));", "8:31 KL1005", "libdevice.fmod has no Kernel Lab function; write x - tl.cast(tl.cast(x / y, \"i32\"), \"f32\") * y"],
  ["a typo in libdevice's own function", "tl.store(y_ptr + o, libdevice.lgama(x));", "8:31 KL1005", "libdevice.lgama doesn't exist; did you mean libdevice.lgamma?"],
  ["libdevice's bit count of a float", "tl.store(i_ptr + o, libdevice.popc(x));", "8:36 KL2003", "libdevice.popc counts the bits of a 32-bit integer, got f32[16]; to count a float's bits, bitcast it first: x.to(tl.int32, bitcast=True)"],
  ["libdevice's function given two arguments for one", "tl.store(y_ptr + o, libdevice.lgamma(x, 2.0));", "8:21 KL1040", "libdevice.lgamma takes (x); got 2 arguments"],
  ["libdevice.nextafter of halves", "tl.store(y_ptr + o, libdevice.nextafter(x.to(tl.float16), 1.0));", "8:41 KL2003", "libdevice.nextafter steps between float32 values"],
  ["tl.dtype of a name that isn't a dtype", "tl.store(y_ptr + o, x.to(tl.dtype(\"float33\")));", "8:35 KL1005", "tl.dtype(\"float33\") names no dtype; Triton's names are int1, int8"],
  ["tl.dtype of a run-time value", "tl.store(y_ptr + o, x.to(tl.dtype(`uint${n}`)));", "8:42 KL1075", "tl.dtype's name is an f-string, formatted while compiling, and n is a run-time value, not a constexpr; a dtype is decided while compiling"],
  ["tl.math used as a value", "const m = tl.math;", "8:11 KL1003", "tl.math is a namespace; call one of its functions, e.g. tl.math.rsqrt(x)"],
  ["a method values don't have", "tl.store(y_ptr + o, x.foo(1));", "8:21 KL1004", "kernels can only call tl.* functions"],
];

for (const [what, body, where, message] of DIAGNOSTICS) {
  test(`diagnostic: ${what}`, () => {
    const found = diagnose(body, 'import { libdevice } from "kernel-lab";');
    assert.equal(found.length, 1, found.join("\n"));
    assert.ok(found[0].startsWith(`${where} ${message}`), found[0]);
  });
}

test("a typo in a dtype's or a math function's name comes with its fix", () => {
  const text = file("tl.store(y_ptr + o, x.to(tl.flaot32) + tl.math.rsqrtt(x));");
  const fixes = checkFile("k.kernel.ts", text, TARGET).map((d) => d.fixes?.[0]?.edits[0].text);
  assert.deepEqual(fixes, ["float32", "rsqrt"]);
});

test("docs/LANGUAGE.md documents every tl.math / libdevice name and what it maps to", () => {
  const doc = readFileSync(join(__dirname, "..", "..", "docs", "LANGUAGE.md"), "utf8");
  const missing = Object.entries(MATH_NAMES).filter(([name, fn]) => !new RegExp(`\\| [^|]*\`${name}\`[^|]*\\| \`tl\\.${fn}\` \\|`).test(doc));
  assert.deepEqual(missing, []);
  for (const name of Object.keys(MATH_INSTEAD)) assert.ok(doc.includes(`\`${name}\``), name);
  for (const name of Object.keys(LIBDEVICE_FUNCTIONS)) assert.ok(doc.includes(`\`${name}\``), name);
});

test("the Python front end keeps every dtype predicate the kernel language decides as a method (x.dtype.is_fp16())", () => {
  assert.deepEqual([...PYTHON_DTYPE_PREDICATES].sort(), Object.keys(DTYPE_PREDICATES).sort());
});

test("compile-time forms of kernel libraries compile as their folded spelling: ** of constexprs, a dtype's .value and .int_bitwidth", () => {
  assert.equal(wgsl("tl.store(i_ptr + o, o + 2 ** (tl.int32.int_bitwidth - 28) - 1 * 2 ** 3);"), wgsl("tl.store(i_ptr + o, o + 16 - 8);"));
  assert.equal(wgsl("const d = x.dtype.value;\ntl.store(y_ptr + o, x.to(d) * 2 ** -1);"), wgsl("tl.store(y_ptr + o, x * 0.5);"));
  assert.match(diagnose("tl.store(y_ptr + o, x ** 2);")[0], /^8:21 KL1003 '\*\*' works on compile-time numbers/);
});

test("a block's name given a run-time scalar in straight-line code is rebound to it (Triton's m = final_m), a constant still fills the block", () => {
  const k = compiled("let m = o * 3;\nm = tl.sum(m);\ntl.store(i_ptr, m);\nlet z = o;\nz = 0;\ntl.store(i_ptr + o + 1, z, o < 15);");
  const out = new Int32Array(16).fill(-1);
  interpret(k.ir, [1, 1, 1], { x_ptr: new Float32Array(16), y_ptr: new Float32Array(16), h_ptr: new Uint16Array(16), i_ptr: out, n: 16, seed: 7 });
  assert.deepEqual([...out], [360, ...new Array(15).fill(0)]);
});

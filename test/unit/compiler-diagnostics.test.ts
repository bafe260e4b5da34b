// Kernel source → the diagnostic it must give: `line:col code` and the start of the message.
// Bodies start on line 4, column 1 (the kernel header is on line 3).

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile } from "../../src/compile";
import { locate } from "../../src/diagnostics/position";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, u32, bf16, constexpr } from "kernel-lab";\n';

function file(body: string, params = "x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, n: i32, BLOCK: constexpr"): string {
  return `${PRELUDE}export const k = kernel(function k(${params}) {\n${body}\n});\n`;
}

function diagnose(text: string): string[] {
  return locate("k.kernel.ts", text, checkFile("k.kernel.ts", text)).map((d) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code} ${d.message}`);
}

// [name, body, expected "line:col-endLine:endCol code", expected message start]
const rows: [string, string, string, string][] = [
  // docs/LANGUAGE.md §2: every construct it names as unsupported
  ["closure", "const f = (a: number) => a;", "4:11-4:27 KL1003", "closures aren't supported"],
  ["function expression", "const f = function () { return 1; };", "4:11-4:36 KL1003", "closures aren't supported"],
  ["object", "const o = { a: 1 };", "4:11-4:19 KL1003", "objects aren't supported"],
  ["a tuple used as a value", "const a = [1, 2];\nconst b = a + 1;", "5:11-5:12 KL1043", "this is a tuple of 2 values, not one value: destructure it, const [a, b] = …, or take one element, t[0]"],
  ["a spread in a tuple", "const a = [...n];", "4:12-4:16 KL1003", "spread isn't supported in kernels"],
  ["string", 'const s = "hi";', "4:11-4:15 KL1003", "strings aren't supported"],
  ["template", "const s = `x${1}`;", "4:11-4:18 KL1003", "strings aren't supported"],
  ["while with a block condition", "while (tl.arange(0, 4) > 0) { }", "4:8-4:27 KL2006", "'while' needs a scalar condition"],
  ["break outside a loop", "break;", "4:1-4:7 KL1072", "'break' must be inside a for or while loop"],
  ["continue in tl.staticRange", "for (const i of tl.staticRange(4)) { continue; }", "4:38-4:47 KL1072", "'continue' can't leave a tl.staticRange loop"],
  ["tl.staticRange with a run-time bound", "for (const i of tl.staticRange(n)) { }", "4:32-4:33 KL1073", "tl.staticRange's bounds and step must be compile-time integers"],
  ["tl.staticRange too long", "for (const i of tl.staticRange(0, 1000)) { }", "4:17-4:40 KL1073", "tl.staticRange unrolls no more than 256 trips"],
  ["tl.staticRange outside for…of", "const r = tl.staticRange(4);", "4:11-4:28 KL1073", "tl.staticRange(…) only names the values"],
  ["for…of over something else", "for (const i of n) { }", "4:1-4:23 KL1003", "for…of is only for the loops of tl.staticRange (unrolled) and tl.range"],
  ["break on a loaded value in a loop with tl.sum", "let s = 0.0;\nfor (let i = 0; i < 4; i++) { if (tl.load(x_ptr + i) > 0) { break; } s += tl.sum(tl.load(x_ptr + tl.arange(0, 4)), 0); }", "5:61-5:67 KL2071", "this break depends on a value loaded from memory"],
  ["do while", "do { } while (n > 0);", "4:1-4:22 KL1003", "do…while loops aren't supported"],
  ["recursion", "k(x_ptr, y_ptr, n, BLOCK);", "4:1-4:26 KL1004", "kernels can't call themselves (no recursion on the GPU: device functions are inlined at each call): k → k"],
  ["call to a non-tl function", "const v = foo(1);", "4:11-4:17 KL1004", "'foo' isn't a tl.* function"],
  ["Math instead of tl", "const v = Math.exp(1.0);", "4:11-4:24 KL1004", "Math.exp runs on the CPU; in a kernel use tl.exp"],
  ["ternary on a block", "const v = tl.arange(0, 4) > 0 ? 1 : 2;", "4:11-4:30 KL2006", "c ? a : b needs a scalar condition, but this is a block bool[4]; for blocks use tl.where(cond, a, b)"],
  ["ternary of pointers into two parameters", "const p = n > 0 ? x_ptr : y_ptr;", "4:27-4:32 KL2003", "the branches of c ? a : b point into x_ptr and y_ptr: a pointer points into one parameter's buffer"],
  ["ternary of a pointer and a number", "const p = n > 0 ? x_ptr : n;", "4:27-4:28 KL2003", "the branches of c ? a : b are a pointer and i32; both must be pointers, or both values"],
  ["indexing", "const v = x_ptr[0];", "4:11-4:19 KL1003", "indexing isn't supported"],
  ["switch", "switch (n) { }", "4:1-4:15 KL1003", "switch isn't supported"],
  ["a kernel returning a value", "return n;", "4:8-4:9 KL1071", "a kernel returns no value (its results are stored with tl.store)"],
  ["return inside tl.staticRange", "for (const i of tl.staticRange(2)) { if (n > i) { return; } }", "4:51-4:58 KL1072", "return can't leave a tl.staticRange loop"],

  ["var", "var a = 1;", "4:1-4:10 KL1020", "use 'const' or 'let'"],
  ["object destructuring", "const { a } = n;", "4:7-4:12 KL1044", "only tuples destructure in kernels, with [a, b] = …"],
  ["destructuring a value", "const [a, b] = n;", "4:7-4:13 KL1044", "[…] = destructures a tuple, but this is one value, i32"],
  ["destructuring too few names", "const [a, b] = [n, n, n];", "4:7-4:13 KL1044", "this pattern names 2 elements but the tuple has 3"],
  ["destructuring with a rest element", "const [a, ...b] = [n, n, n];", "4:11-4:15 KL1044", "a rest element (...x) can't take part of a tuple"],
  ["destructuring with a default", "const [a, b = 1] = [n, n];", "4:11-4:16 KL1044", "destructuring defaults aren't supported"],
  ["destructuring assignment to a const", "const a = 1;\nlet b = 2;\n[a, b] = [n, n];", "6:2-6:3 KL1021", "'a' is a const"],
  ["destructuring assignment to memory", "let b = 2;\n[x_ptr[0], b] = [n, n];", "5:2-5:10 KL1020", "only local 'let' variables, parameters and [a, b] patterns of them can be assigned"],
  ["a tuple index out of range", "const t = [n, n];\nconst v = t[2];", "5:13-5:14 KL1041", "a tuple's index must be a compile-time integer from 0 to 1"],
  ["a let tuple reassigned with another length", "let t = [n, n];\nt = [n, n, n];", "5:1-5:14 KL2007", "'t' holds a tuple of 2 values and can only be assigned another"],
  ["a let without a value, read before it is assigned", "let a;\nconst b = a + 1;", "5:11-5:12 KL1022", "'a' has no value here: it is declared without one and not yet assigned"],
  // Triton's run-time if: after it, a name first assigned inside it has a value only if every branch that goes on assigned it, with one type.
  ["a let without a value, assigned in a run-time if without else and read after it", "let a;\nif (n > 0) { a = 1.0; }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' may have no value here: the run-time if before it assigns it but has no else branch; assign it in every branch of the if (add an else), or give it an initial value where it is declared, e.g. let a = 0.0"],
  ["a let without a value, not assigned in the else branch", "let a;\nif (n > 0) { a = 1.0; } else { tl.store(y_ptr, 2.0); }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' may have no value here: the run-time if before it assigns it in its then branch but not in its else branch"],
  ["a let without a value, an else-if chain without a final else", "let a;\nif (n > 0) { a = 1.0; } else if (n < -5) { a = 2.0; }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' may have no value here: the run-time if before it assigns it but has no else branch"],
  ["a let without a value, assigned in a nested if without else", "let a;\nif (n > 0) { if (n > 3) { a = 1.0; } } else { a = 2.0; }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' may have no value here: the run-time if before it assigns it but has no else branch"],
  ["a let without a value, read in the other branch before it assigns it", "let a;\nif (n > 0) { a = 1.0; } else { tl.store(y_ptr, a); a = 2.0; }", "5:48-5:49 KL1022", "'a' has no value here: it is declared without one and not yet assigned on this path"],
  ["a let without a value, assigned in a loop and read after it", "let a;\nfor (let i = 0; i < n; i++) { a = i; }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' may have no value here: it is assigned inside a loop before it, which may run no trips; assign it before the loop as well, or give it an initial value where it is declared, e.g. let a = 0"],
  ["a let without a value, a block in one branch and a scalar in the other", "let a;\nif (n > 0) { a = 1.0; } else { a = tl.zeros([16], \"f32\"); }", "5:32-5:57 KL2076", "'a' is assigned f32[16] here but f32 on another path (its first assignment); after a run-time if a name has one dtype and block shape"],
  ["a let without a value, i32 in one branch and f32 in the other", "let a;\nif (n > 0) { a = n; } else { a = tl.load(x_ptr); }", "5:30-5:48 KL2076", "'a' is assigned f32 here but i32 on another path"],
  ["a let without a value, pointers into two parameters", "let p;\nif (n > 0) { p = x_ptr + 1; } else { p = y_ptr; }", "5:38-5:47 KL2076", "'p' points into y_ptr here but into x_ptr on another path (its first assignment)"],
  ["a let without a value, a tuple first assigned in a run-time branch", "let a;\nif (n > 0) { a = [n, n]; } else { a = [n, n]; }", "5:14-5:15 KL1022", "'a' is declared without a value and first assigned a tuple of 2 values inside a run-time if or loop"],
  ["a let without a value, assigned only in the constexpr branch not taken", "let a;\nif (BLOCK === 3) { a = 1.0; }\ntl.store(y_ptr, a);", "6:17-6:18 KL1022", "'a' has no value here"],
  ["a destructuring let without a value", "let [a, b];", "4:5-4:11 KL1020", "a destructuring declaration needs an initial value"],
  ["unknown name", "const v = m + 1;", "4:11-4:12 KL1006", "'m' is not defined in this kernel"],
  ["unknown intrinsic", "const v = tl.foo(1);", "4:14-4:17 KL1005", "tl.foo doesn't exist"],
  ["while-style for", "for (let i = 0; n > i; i++) { }", "4:17-4:22 KL1030", "loops must have the form"],
  ["counter assigned", "for (let i = 0; i < 4; i++) { i = 2; }", "4:31-4:32 KL1031", "the loop counter 'i' can't be assigned"],
  ["const reassigned", "const a = 1;\na = 2;", "5:1-5:2 KL1021", "'a' is a const"],
  ["parameter reassigned in a loop with another dtype", "for (let i = 0; i < 4; i++) { n = tl.load(x_ptr); }", "4:31-4:49 KL2007", "'n' is i32 but is assigned f32"],
  ["power operator on a run-time value", "const v = n ** 2;", "4:11-4:17 KL1003", "'**' works on compile-time numbers (constexprs, literals)"],
  ["bigint", "const v = 10n;", "4:11-4:14 KL1003", "BigInt literals aren't supported"],
  ["assignment in expression", "let a = 1;\nconst b = (a = 2);", "5:12-5:17 KL1003", "assignments can only be statements"],
  // KL2xxx: dtypes and shapes
  ["arange not a power of two", "const o = tl.arange(0, 1000);", "4:11-4:29 KL2002", "tl.arange(0, 1000) has 1000 elements; block sizes must be powers of two — use 1024"],
  ["arange bound not constant", "const o = tl.arange(0, n);", "4:24-4:25 KL1041", "tl.arange's end must be a compile-time integer"],
  ["shape mismatch", "const a = tl.arange(0, 16);\nconst b = tl.arange(0, 32);\nconst c = a + b;", "6:11-6:16 KL2001", "'+': shapes [16] and [32] don't match"],
  ["load of a non-pointer", "const v = tl.load(n);", "4:19-4:20 KL2005", "tl.load needs pointers"],
  ["float offsets", "const v = tl.load(x_ptr + 1.5);", "4:27-4:30 KL2004", "pointer offsets must be integers"],
  ["pointer times int", "const p = x_ptr * 2;", "4:11-4:20 KL2004", "pointers only support"],
  ["bitwise on floats", "const v = 1.5 & 2.5;", "4:11-4:20 KL2003", "'&' needs integers"],
  // A mask with a number is 1 or 0 of its dtype (Triton widens int1; FlagGems' dropout multiplies by one); two masks are refused.
  ["two masks in arithmetic", "const m = n > 0;\nconst v = m + m;", "5:11-5:16 KL2003", "masks combine with && and ||"],
  ["if on a block", "const o = tl.arange(0, 16);\nif (o < n) { }", "5:5-5:10 KL2006", "'if' needs a scalar condition"],
  // In straight-line code a name may take another type (Triton's names are rebound; issue 31); in a loop it keeps its type.
  ["variable changes type in a loop", "let acc = 0;\nfor (let i = 0; i < n; i++) { acc = tl.load(x_ptr); }", "5:31-5:51 KL2007", "'acc' is i32 but is assigned f32"],
  ["division by zero", "const v = 1 / 0;", "4:11-4:16 KL2008", "integer division by zero"],
  ["literal too large", "const v = 5000000000;", "4:11-4:21 KL2009", "5000000000 doesn't fit in 32 bits"],
  ["axis out of range", "const p = tl.programId(3);", "4:24-4:25 KL2012", "the grid has axes 0, 1 and 2"],
  ["print prefix not a string literal", "tl.devicePrint(n, n);", "4:16-4:17 KL1075", "tl.devicePrint's prefix must be a string literal"],
  ["print too many values", "tl.devicePrint(\"v\", n, n, n, n, n, n, n, n, n);", "4:45-4:46 KL1076", "tl.devicePrint prints at most 8 values; got 9"],
  ["print a block too big", "tl.devicePrint(\"o\", tl.arange(0, 2048));", "4:21-4:39 KL2072", "tl.devicePrint's value tl.arange(0, 2048) is a block of 2048 elements"],
  ["print a pointer", "tl.devicePrint(\"p\", x_ptr);", "4:21-4:26 KL2003", "tl.devicePrint prints values, and x_ptr is Ptr<f32>"],
  ["assert a non-mask", "tl.deviceAssert(n, \"n\");", "4:17-4:18 KL2073", "tl.deviceAssert's condition must be a mask"],
  ["assert message not a string literal", "tl.deviceAssert(n > 0, n);", "4:24-4:25 KL1075", "tl.deviceAssert's message must be a string literal"],
  ["store shape", "const o = tl.arange(0, 16);\ntl.store(x_ptr, tl.load(x_ptr + o));", "5:17-5:35 KL2014", "can't store a value of shape [16] through pointers of shape []"],
  ["store a block of fewer axes", "const o = tl.arange(0, 16);\ntl.store(x_ptr + tl.expandDims(o, 0) + tl.expandDims(o, 1) * 16, o);", "5:66-5:67 KL2014", "can't store a value of shape [16] through pointers of shape [16, 16] (Triton's store adds no axes"],
  ["bad cast dtype", 'const v = tl.cast(n, "f8");', "4:22-4:26 KL1040", 'the dtype must be a dtype such as tl.float32 or x.dtype, or one of "f32", "i32", "u32", "f16", "bf16", "i64"; got "f8"'],
  ["wrong arity", "const v = tl.exp(1.0, 2.0);", "4:11-4:27 KL1040", "tl.exp takes (x)"],
  ["where on a pointer", "const v = tl.where(x_ptr, 1, 2);", "4:20-4:25 KL2003", "tl.where's condition must be a mask"],
  ["zeros shape not power of two", 'const z = tl.zeros([100], "f32");', "4:21-4:24 KL2002", "block extents must be powers of two, got 100"],
  ["reduction over a missing axis", "const o = tl.arange(0, 16);\nconst s = tl.sum(o, 1);", "5:21-5:22 KL2012", "axis 1 doesn't exist"],
  // Scans and reductions with a combine function (issue 11 item 4)
  ["cumsum of a mask", "const m = tl.arange(0, 16) < n;\nconst s = tl.cumsum(m);", "5:21-5:22 KL2003", "tl.cumsum takes numbers, not masks"],
  ["cumsum of a scalar", "const s = tl.cumsum(n);", "4:21-4:22 KL2012", "tl.cumsum works along an axis of a block"],
  ["cumsum over a missing axis", "const s = tl.cumsum(tl.arange(0, 16), 1);", "4:39-4:40 KL2012", "axis 1 doesn't exist"],
  ["flip over a missing dim, counted from the end", "const s = tl.flip(tl.arange(0, 16), -2);", "4:37-4:39 KL2012", "axis -2 doesn't exist: the block has only axis 0"],
  ["cumsum of a 2-D block without an axis", "const o = tl.arange(0, 4);\nconst s = tl.cumsum(tl.expandDims(o, 1) * o);", "5:11-5:45 KL2012", "tl.cumsum needs an axis"],
  ["cumsum along a run-time axis", "const s = tl.cumsum(tl.arange(0, 16), n);", "4:39-4:40 KL1041", "tl.cumsum's axis must be a compile-time integer"],
  ["cumsum's reverse not a literal", "const s = tl.cumsum(tl.arange(0, 16), 0, n > 0);", "4:42-4:47 KL1041", "tl.cumsum's reverse must be the literal true or false"],
  ["xorSum of floats", "const s = tl.xorSum(tl.load(x_ptr + tl.arange(0, 16)));", "4:21-4:54 KL2003", "tl.xorSum takes an integer block"],
  ["argmin of a pointer block", "const s = tl.argmin(x_ptr + tl.arange(0, 16));", "4:21-4:45 KL2003", "tl.argmin takes values, not pointers"],
  ["scan without a combine function", "const s = tl.associativeScan(tl.arange(0, 16), 0, 1);", "4:51-4:52 KL1074", "tl.associativeScan's combine function must be an inline arrow function"],
  ["combine of three parameters", "const s = tl.reduce(tl.arange(0, 16), 0, (a, b, c) => a);", "4:49-4:50 KL1074", "tl.reduce's combine function takes exactly two parameters"],
  ["combine with statements", "const s = tl.reduce(tl.arange(0, 16), 0, (a, b) => { return a; });", "4:52-4:65 KL1074", "a combine function's body is one expression"],
  ["combine capturing a kernel value", "const o = tl.arange(0, 16);\nconst s = tl.associativeScan(o, 0, (a, b) => a + b * n);", "5:54-5:55 KL1074", "tl.associativeScan's combine function uses a value of the kernel"],
  ["combine capturing a block", "const o = tl.arange(0, 16);\nconst s = tl.reduce(o, 0, (a, b) => a + o);", "5:41-5:42 KL1074", "tl.reduce's combine function uses a value of the kernel"],
  ["combine loading", "const s = tl.reduce(tl.arange(0, 16), 0, (a, b) => a + tl.load(x_ptr));", "4:56-4:70 KL1074", "tl.reduce's combine function may use only its parameters"],
  ["combine changing the dtype", "const s = tl.reduce(tl.arange(0, 16), 0, (a, b) => a + b * 0.5);", "4:52-4:63 KL1074", "tl.reduce's combine function must return a i32 scalar"],
  ["combine returning a mask", "const s = tl.reduce(tl.arange(0, 16), 0, (a, b) => a < b);", "4:52-4:57 KL1074", "tl.reduce's combine function must return a i32 scalar"],
  ["tl.reduce without an axis", "const s = tl.reduce(tl.arange(0, 16));", "4:11-4:38 KL1040", "tl.reduce takes (x, axis, combineFn"],
  ["dot inner sizes", 'const a = tl.zeros([16, 32], "f32");\nconst b = tl.zeros([16, 16], "f32");\nconst c = tl.dot(a, b);', "6:11-6:23 KL2015", "tl.dot's inner sizes differ: [16, 32] × [16, 16]"],
  ["reshape size", "const o = tl.arange(0, 16);\nconst r = tl.reshape(o, [4, 8]);", "5:11-5:32 KL2017", "can't reshape i32[16] (16 elements) to [4, 8]"],
  // random numbers and issue 11's math
  ["rand: a float seed", "const r = tl.rand(1.5, tl.arange(0, 16));", "4:19-4:22 KL2003", "tl.rand's seed must be an integer (i32 or u32), got f32"],
  ["rand: a block seed", "const r = tl.rand(tl.arange(0, 16), 3);", "4:19-4:35 KL2001", "tl.rand's seed must be a scalar, got a block i32[16]"],
  ["randn: float offsets", "const r = tl.randn(n, 1.5);", "4:23-4:26 KL2003", "tl.randn's offsets must be integers (i32 or u32), got f32"],
  ["randint: one argument", "const r = tl.randint(n);", "4:11-4:24 KL1040", "tl.randint takes (seed, offsets); got 1 argument"],
  ["randint4x: a run-time word", "const r = tl.randint4x(n, n, n);", "4:30-4:31 KL1041", "tl.randint4x's word must be a compile-time integer"],
  ["randint4x: word 4", "const r = tl.randint4x(n, n, 4);", "4:30-4:31 KL1040", "Philox gives four words, 0 to 3; got 4"],
  ["umulhi on floats", "const r = tl.umulhi(n, 1.5);", "4:24-4:27 KL2003", "tl.umulhi takes integers (i32 or u32), got f32"],
  ["clamp arity", "const r = tl.clamp(n, 1);", "4:11-4:25 KL1040", "tl.clamp takes (x, min, max); got 2 arguments"],
  ["pow of blocks of different shapes", "const r = tl.pow(tl.cast(tl.arange(0, 16), \"f32\"), tl.cast(tl.arange(0, 32), \"f32\"));", "4:11-4:85 KL2001", "tl.pow: shapes [16] and [32] don't match"],
  ["erf of a mask", "const r = tl.erf(n > 0);", "4:18-4:23 KL2003", "tl.erf takes numbers, not masks"],
  ["fdiv of a pointer", "const r = tl.fdiv(x_ptr, 2);", "4:19-4:24 KL2003", "tl.fdiv takes values, not pointers"],
  ["Triton's snake_case", "const p = tl.program_id(0);", "4:14-4:24 KL1005", "tl.program_id doesn't exist; did you mean tl.programId?"],
  ["Triton's snake_case (expand_dims)", "const p = tl.expand_dims(tl.arange(0, 16), 0);", "4:14-4:25 KL1005", "tl.expand_dims doesn't exist; did you mean tl.expandDims?"],
  ["Triton's device_print", 'tl.device_print("x", n);', "4:4-4:16 KL1005", "tl.device_print doesn't exist; did you mean tl.devicePrint?"],
  ["Triton's static_range", "const r = tl.static_range(4);", "4:14-4:26 KL1005", "tl.static_range doesn't exist; did you mean tl.staticRange?"],
  ["a tl name that is no dtype", "const v = tl.zeros([16], tl.float);", "4:29-4:34 KL1005", "tl.float doesn't exist; Triton's dtypes are"],
  ["Triton 3.2's experimental TMA descriptors", "const a = tl.experimental_descriptor_load(x_ptr, [0, 0], [16, 16], tl.float16);", "4:14-4:42 KL1005", "tl.experimental_descriptor_load doesn't exist in Kernel Lab; it is Triton's experimental TMA descriptor API"],
  // Blocks of up to three axes (issue 23 item 4)
  ["a block of four axes", 'const z = tl.zeros([2, 2, 2, 2], "f32");', "4:20-4:32 KL1040", "blocks have at most 3 axes; got 4"],
  ["a fourth axis", "const z = tl.expandDims(tl.zeros([2, 2, 2]), 0);", "4:46-4:47 KL2012", "blocks have at most 3 axes; f32[2, 2, 2] can't gain another"],
  ["expandDims of a scalar past axis 0", "const z = tl.expandDims(n, 1);", "4:28-4:29 KL2012", "axis 1 is out of range: tl.expandDims of a scalar gives 1 axis (use -1..0)"],
  ["expandDims with an axis twice", "const z = tl.expandDims(tl.arange(0, 16), [0, 0]);", "4:47-4:48 KL2012", "the result's axis 0 is named twice (0 and 0): tl.expandDims adds each new axis once"],
  ["expandDims with an axis twice, once from the end", "const z = tl.expandDims(tl.arange(0, 16), [0, -3]);", "4:47-4:49 KL2012", "the result's axis 0 is named twice (0 and -3)"],
  ["tl.permute naming an axis twice", "const z = tl.permute(tl.zeros([2, 4, 8]), [0, 0, 1]);", "4:11-4:53 KL2012", "tl.permute's dims must name each axis of the block once, 0, 1, 2 in some order; got 0, 0, 1"],
  ["tl.dot of batches that differ", 'const a = tl.zeros([2, 16, 16]);\nconst b = tl.zeros([4, 16, 16]);\nconst c = tl.dot(a, b);', "6:11-6:23 KL2015", "tl.dot's batches differ: [2, 16, 16] × [4, 16, 16]"],
  ["tl.dot of a 3-D and a 2-D block", 'const a = tl.zeros([2, 16, 16]);\nconst b = tl.zeros([16, 16]);\nconst c = tl.dot(a, b);', "6:11-6:23 KL2015", "tl.dot multiplies 2-D blocks, or 3-D ones batch by batch"],
  // Issue 23 item 1's functions
  ["tl.split of a last axis that isn't 2", "const [a, b] = tl.split(tl.arange(0, 16));", "4:25-4:41 KL2001", "tl.split splits a block whose last axis has 2 elements"],
  // A 4-D reshape is taken only under a tl.split of its last axis of 2 (flash-attention's interleaved rotary).
  ["a 4-D reshape whose last axis isn't 2", "const v = tl.reshape(tl.zeros([2, 4, 8]), [2, 4, 2, 4]);", "4:11-4:56 KL1040", "blocks have at most 3 axes; got 4 — a reshape to 4 axes is taken only by tl.split, with a last axis of 2"],
  ["tl.split of a 4-D reshape whose last axis isn't 2", "const [a, b] = tl.split(tl.reshape(tl.zeros([2, 4, 8]), [2, 2, 2, 4]));", "4:25-4:70 KL1040", "blocks have at most 3 axes; got 4 — a reshape to 4 axes is taken only by tl.split, with a last axis of 2"],
  ["tl.dot with M under 16 and K under 8", 'const a = tl.zeros([1, 4], "f32");\nconst b = tl.zeros([4, 16], "f32");\nconst c = tl.dot(a, b);', "6:11-6:23 KL2015", "tl.dot needs K ≥ 8 where M or N is under 16 (32-bit operands), as Triton's NVIDIA backend; got [1, 4] × [4, 16]"],
  ["tl.dot of 16 × 8 by 8 × 16", 'const a = tl.zeros([16, 8], "f32");\nconst b = tl.zeros([8, 16], "f32");\nconst c = tl.dot(a, b);', "6:11-6:23 KL2015", "tl.dot needs every extent ≥ 16, as Triton's NVIDIA backend; got [16, 8] × [8, 16]"],
  ["a held 4-D reshape used as a value", "const x = tl.reshape(tl.zeros([2, 4, 8]), [2, 4, 4, 2]);\nconst y = x + 1;", "5:11-5:12 KL1043", "this is a block of 4 axes, 2 × 4 × 4 × 2, which only tl.split takes; blocks have no more than 3 axes"],
  ["tl.split of a 4-D reshape to another size", "const [a, b] = tl.split(tl.reshape(tl.zeros([2, 4, 8]), [2, 4, 2, 2]));", "4:25-4:70 KL2017", "can't reshape f32[2, 4, 8] (64 elements) to [2, 4, 2, 2] (32 elements)"],
  ["tl.reshape of a 4-D join to another size", "const v = tl.reshape(tl.join(tl.zeros([2, 4, 8]), tl.zeros([2, 4, 8])), [2, 4, 8]);", "4:11-4:83 KL2017", "can't reshape"],
  ["nextPowerOf2 of a run-time value", "const b = nextPowerOf2(n);", "4:24-4:25 KL1041", "nextPowerOf2 is evaluated while compiling: its argument must be a compile-time integer (a constexpr or a literal), got i32"],
  ["tl.cat of blocks that don't match", 'const c = tl.cat(tl.zeros([4, 8]), tl.zeros([8, 4]));', "4:11-4:53 KL2001", "tl.cat concatenates blocks of one kind that match except along axis 0"],
  ["tl.cat to an extent that isn't a power of two", 'const c = tl.cat(tl.zeros([4]), tl.zeros([8]));', "4:11-4:47 KL2002", "the result would be [12]"],
  ["tl.gather with float indices", "const g = tl.gather(tl.zeros([16]), tl.zeros([16]), 0);", "4:37-4:51 KL2003", "tl.gather's index must be integers"],
  ["tl.histogram of floats", "const h = tl.histogram(tl.zeros([16]), 8);", "4:24-4:38 KL2003", "tl.histogram counts integers"],
  ["tl.sort of a mask", "const s = tl.sort(tl.arange(0, 16) < n);", "4:19-4:39 KL2003", "tl.sort takes numbers, not masks"],
  ["a mask through a block pointer", "const bp = tl.makeBlockPtr(x_ptr, [n], [1], [0], [16], [0]);\nconst v = tl.load(bp, n > 0);", "5:23-5:28 KL1040", "tl.load through a block pointer takes no mask or other"],
  ["boundaryCheck with plain pointers", "const v = tl.load(x_ptr + tl.arange(0, 16), { boundaryCheck: [0] });", "4:62-4:65 KL1040", "tl.load's boundaryCheck applies to block pointers (tl.makeBlockPtr)"],
  ["a block pointer whose strides miss an axis", "const bp = tl.makeBlockPtr(x_ptr, [n, n], [1], [0, 0], [16, 16], [1, 0]);", "4:43-4:46 KL1040", "tl.makeBlockPtr's strides has 1 element, but the block pointer has 2 axes"],
  ["a block pointer used as a value", "const bp = tl.makeBlockPtr(x_ptr, [n], [1], [0], [16], [0]);\nconst v = bp + 1;", "5:11-5:13 KL1043", "this is a block pointer (16), not a value"],
  // In straight-line code a new tl.makeBlockPtr replaces the pointer (inductor's flex attention); in a run-time branch it can't.
  ["a let block pointer given another base in a run-time if", "let bp = tl.makeBlockPtr(x_ptr, [n], [1], [0], [16], [0]);\nif (n > 1) { bp = tl.makeBlockPtr(y_ptr, [n], [1], [0], [16], [0]); }", "5:14-5:67 KL2007", "'bp' is a block pointer, which keeps its base, shape, strides and block shape"],
  // Tensor descriptors (tensor-descriptors.ts)
  ["a descriptor load with offsets of the wrong rank", "const d = tl.makeTensorDescriptor(x_ptr, [n, n], [n, 1], [16, 16]);\nconst v = d.load([0]);", "5:18-5:21 KL2120", "desc.load's offsets has 1 element, but the descriptor's block shape has 2 axes"],
  ["a descriptor whose shape misses an axis", "const d = tl.makeTensorDescriptor(x_ptr, [n], [n, 1], [16, 16]);", "4:42-4:45 KL2120", "tl.makeTensorDescriptor's shape has 1 element, but the descriptor's block shape has 2 axes"],
  ["a descriptor's block shape of run-time values", "const d = tl.makeTensorDescriptor(x_ptr, [n], [1], [n]);", "4:53-4:54 KL1041", "a shape's extent must be a compile-time integer"],
  ["a descriptor's last stride not 1", "const d = tl.makeTensorDescriptor(x_ptr, [n, n], [1, n], [16, 16]);", "4:54-4:55 KL2121", "a tensor descriptor's last stride must be the constant 1"],
  ["a descriptor store of another shape", "const d = tl.makeTensorDescriptor(y_ptr, [n], [1], [16]);\nd.store([0], tl.zeros([32], \"f32\"));", "5:14-5:35 KL2122", "desc.store writes a whole block of the descriptor's block shape [16]"],
  ["tl.load of a descriptor", "const d = tl.makeTensorDescriptor(x_ptr, [n], [1], [16]);\nconst v = tl.load(d);", "5:19-5:20 KL2005", "tl.load needs pointers (a Ptr parameter plus offsets) or a block pointer, got a tensor descriptor (16)"],
  ["a descriptor used as a value", "const d = tl.makeTensorDescriptor(x_ptr, [n], [1], [16]);\nconst v = d + 1;", "5:11-5:12 KL1043", "this is a tensor descriptor (16), not a value: read a block with desc.load([o0, o1])"],
  ["a descriptor member it lacks", "const d = tl.makeTensorDescriptor(x_ptr, [n], [1], [16]);\nconst v = d.order;", "5:13-5:18 KL1160", "a tensor descriptor has no property 'order'"],
  [".load of a pointer", "const v = x_ptr.load([0]);", "4:17-4:21 KL1160", ".load(…) is a tensor descriptor's method, and this is Ptr<f32>"],
  ["a descriptor atomic_min of floats", 'const d = tl.makeTensorDescriptor(y_ptr, [n], [1], [16]);\nd.atomic_min([0], tl.zeros([16], "f32"));', "5:1-5:2 KL2003", "desc.atomic_min works on descriptors of i32 and u32 (WGSL has atomics only on 32-bit integers); this one holds f32"],
  ["a descriptor atomic_add of another shape", 'const d = tl.makeTensorDescriptor(y_ptr, [n], [1], [16]);\nd.atomic_add([0], tl.zeros([32], "f32"));', "5:19-5:40 KL2122", "desc.atomic_add updates a whole block of the descriptor's block shape [16]"],
  [".atomic_add of a pointer", "x_ptr.atomic_add([0], 1.0);", "4:7-4:17 KL1160", ".atomic_add(…) is a tensor descriptor's method, and this is Ptr<f32>; update pointers with tl.atomicAdd(pointers, value, mask)"],
  ["a descriptor assigned another in a run-time branch", "let d = tl.makeTensorDescriptor(x_ptr, [n], [1], [16]);\nif (n > 4) { d = tl.makeTensorDescriptor(y_ptr, [n], [1], [16]); }", "5:14-5:64 KL1160", "'d' holds a tensor descriptor (16); inside a run-time if or loop it can only be assigned the same descriptor"],
  // Compile-time checks and hints (issue 23 item 5); BLOCK is 16 here
  ["tl.staticAssert failing", 'tl.staticAssert(BLOCK >= 64, "BLOCK is too small");', "4:1-4:51 KL2074", "tl.staticAssert failed: BLOCK is too small (BLOCK = 16)"],
  ["tl.staticAssert failing, no message", "tl.staticAssert(BLOCK % 3 === 0);", "4:1-4:33 KL2074", "tl.staticAssert failed: BLOCK % 3 === 0 (BLOCK = 16)"],
  ["tl.staticAssert on a run-time value", "tl.staticAssert(n > 0);", "4:17-4:22 KL2074", "tl.staticAssert's condition must be a compile-time constant"],
  ["tl.assume of a number", "tl.assume(n);", "4:11-4:12 KL2003", "tl.assume's condition must be a comparison"],
  ["a hint with run-time values", "const o = tl.multipleOf(tl.arange(0, 16), n);", "4:43-4:44 KL1041", "tl.multipleOf's values must be a compile-time integer"],
  ["tl.range outside for…of", "const r = tl.range(4);", "4:11-4:22 KL1073", "tl.range(…) only names the values of a loop"],
  ["tl.range over floats", "for (const i of tl.range(0, 1.5)) { }", "4:29-4:32 KL2003", "tl.range's end must be an integer scalar, got f32"],
  ["tl.range's unknown option", "for (const i of tl.range(0, n, { num_stages: 2 })) { }", "4:34-4:44 KL1042", "tl.range has no keyword 'num_stages'; did you mean numStages?"],
  ["a Triton function with no WGSL meaning", "const y = tl.inline_asm_elementwise(n);", "4:14-4:36 KL1005", "tl.inline_asm_elementwise doesn't exist in Kernel Lab; it runs PTX or GCN assembly, which WGSL can't express"],
  ["a typo of a tl.* name", "const r = tl.arrange(0, 16);", "4:14-4:21 KL1005", "tl.arrange doesn't exist; did you mean tl.arange?"],
  // int64, computed in 32 bits (issue 31, docs/LANGUAGE.md §2.9)
  ["an i64 compared with a constant past 32 bits", 'const o = tl.cast(n, "i64");\nconst m = o < 4294967295;', "5:15-5:25 KL2090", "4294967295 is outside 32 bits: Kernel Lab computes int64 in 32 bits"],
  ["an i64 plus a constant past 32 bits", 'const o = tl.cast(tl.arange(0, 16), "i64");\nconst m = o + 3000000000;', "5:15-5:25 KL2090", "3000000000 is outside 32 bits"],
  ["tl.full of an i64 past 32 bits", 'const z = tl.full([16], 4294967295, "i64");', "4:25-4:35 KL2090", "4294967295 is outside 32 bits"],
  ["tl.philox with an i64 counter", 'const c = tl.cast(tl.arange(0, 16), "i64");\nconst [a, b, c2, d] = tl.philox(n, c, 0, 0, 0);', "5:36-5:37 KL2093", "tl.philox's c0 is i64: Triton then runs Philox 4×64, which Kernel Lab doesn't"],
  ["tl.philox with a float counter", "const [a, b, c, d] = tl.philox(n, 1.5, 0, 0, 0);", "4:35-4:38 KL2003", "tl.philox's c0 must be an integer"],
  ["tl.philox with a block seed", "const [a, b, c, d] = tl.philox(tl.arange(0, 16), 0, 0, 0, 0);", "4:32-4:48 KL2001", "tl.philox's seed must be a scalar"],
  ["tl.philox with counters of two shapes", "const [a, b, c, d] = tl.philox(n, tl.arange(0, 16), tl.arange(0, 8), 0, 0);", "4:22-4:75 KL2001", "tl.philox's counters must broadcast to one shape"],
  ["tl.philox with too many rounds", "const [a, b, c, d] = tl.philox(n, 0, 0, 0, 0, { nRounds: 100 });", "4:58-4:61 KL1040", "tl.philox's nRounds must be 1 to 64"],
  ["tl.uintToUniformFloat of a float", "const u = tl.uintToUniformFloat(tl.load(x_ptr));", "4:33-4:47 KL2003", "tl.uintToUniformFloat turns random integers, u32, i32 or i64, into floats"],
  ["tl.randint4x with Triton's positional n_rounds", "const r = tl.randint4x(n, tl.arange(0, 16), 7);", "4:45-4:46 KL1040", "Philox gives four words, 0 to 3; got 7 (Triton's third argument is n_rounds: write it { nRounds: 7 })"],
];

for (const [name, body, where, message] of rows) {
  test(`diagnostic: ${name}`, () => {
    const found = diagnose(file(body));
    assert.ok(found.length > 0, `expected ${where} ${message}, got no diagnostics`);
    const first = found[0];
    assert.ok(first.startsWith(where + " "), `expected ${where}, got: ${first}`);
    assert.ok(first.slice(where.length + 1).startsWith(message), `expected message starting "${message}", got: ${first}`);
  });
}

test("c ? a : b of two pointers into one parameter is a pointer (flash-linear-attention's TTT: `eta + … if i_t == NT-1 else eta + …`); was KL2003", () => {
  assert.deepEqual(diagnose(file("const p = n > 0 ? x_ptr + n : x_ptr + 1;\ntl.store(y_ptr, tl.load(p));")), []);
  assert.deepEqual(diagnose(file("const o = tl.arange(0, 16);\nconst p = n > 0 ? x_ptr + o : x_ptr;\ntl.store(y_ptr + o, tl.load(p));")), []);
});

test("tl.where of two pointers into one parameter is that parameter plus the offsets chosen; into two, KL2003 saying why", () => {
  assert.deepEqual(diagnose(file("const o = tl.arange(0, 16);\nconst p = tl.where(o < 4, x_ptr + o, x_ptr + n - o);\ntl.store(y_ptr + o, tl.load(p));")), []);
  const two = diagnose(file("const o = tl.arange(0, 16);\nconst p = tl.where(o < 4, x_ptr + o, y_ptr + o);\ntl.store(y_ptr + o, tl.load(p));"));
  assert.equal(two.length, 1);
  assert.match(two[0], /^5:11-5:48 KL2003 tl\.where's pointers point into x_ptr and y_ptr, and must be one parameter plus offsets each/);
});

const parameterRows: [string, string, string, string][] = [
  ["missing annotation", "x_ptr", "3:36-3:41 KL1010", "parameter 'x_ptr' needs a kernel type"],
  ["unknown type", "x_ptr: number", "3:43-3:49 KL1010", "parameter 'x_ptr' needs a kernel type"],
  ["pointer to an unknown dtype", "x_ptr: Ptr<f64>", "3:43-3:51 KL1010", "parameter 'x_ptr' needs a kernel type: Ptr<f32>, Ptr<i32>, Ptr<u32>, Ptr<f16>, Ptr<bf16>, Ptr<i64>, Ptr<bool>, Ptr<i8>, Ptr<u8>, f32, f16, bf16, i32, u32, i64 or constexpr"],
  ["default value", "n: i32 = 4", "3:36-3:46 KL1011", "parameter 'n' can't be optional"],
  ["destructured", "{ a }: i32", "3:36-3:46 KL1011", "kernel parameters must be plain names"],
];

for (const [name, params, where, message] of parameterRows) {
  test(`diagnostic: parameter ${name}`, () => {
    const found = diagnose(file("", params));
    assert.ok(found[0]?.startsWith(where + " "), `expected ${where}, got: ${found[0]}`);
    assert.ok(found[0].slice(where.length + 1).startsWith(message), found[0]);
  });
}

test("diagnostic: kernel(...) needs a function", () => {
  const found = diagnose(`${PRELUDE}export const k = kernel(42);\n`);
  assert.equal(found[0], "3:25-3:27 KL1001 kernel(...) takes one function: kernel(function name(x_ptr: Ptr<f32>, …) { … })");
});

test("diagnostic: TypeScript syntax errors are reported at their position", () => {
  const found = diagnose(file("const a = (1 + ;"));
  assert.match(found[0], /^4:16-4:17 KL1000 Expression expected/);
});

test("diagnostic: a constexpr without a value names the run field to set", () => {
  const text = `${PRELUDE}import { defineRun } from "kernel-lab";\nexport const k = kernel(function k(x_ptr: Ptr<f32>, BLOCK: constexpr) {\n  const o = tl.arange(0, BLOCK);\n});\nexport const r = defineRun({ kernel: k, sizes: [1], constexprs: { OTHER: 1 }, grid: () => [1], args: () => ({}), outputs: [], reference: () => ({}) });\n`;
  const found = diagnose(text);
  assert.match(found[0], /^4:53-4:69 KL2011 constexpr 'BLOCK' has no value; give it one in the run's constexprs/);
});

test("valid kernels give no diagnostics", () => {
  const bodies = [
    "const o = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);\nconst m = o < n;\ntl.store(y_ptr + o, tl.exp(tl.load(x_ptr + o, m, 0.0)) * 2, m);",
    "let acc = tl.zeros([BLOCK], \"f32\");\nfor (let i = 0; i < n; i += BLOCK) {\n  const o = i + tl.arange(0, BLOCK);\n  acc += tl.load(x_ptr + o, o < n);\n}\ntl.store(y_ptr + tl.arange(0, BLOCK), acc);",
    "if (tl.programId(0) === 0) {\n  tl.store(y_ptr, 1.0);\n} else {\n  tl.store(y_ptr + 1, tl.cast(n, \"f32\"));\n}",
    "const o = tl.arange(0, 16);\nconst v = tl.where(o % 2 === 0 && o < n, tl.maximum(o, 3), tl.minimum(o, -3));\ntl.store(y_ptr + o, tl.cast(v << 1, \"f32\"));",
    // Python's names first assigned in each branch of a constexpr if (Liger's `if beta == 0.0: loss = …`).
    "let y;\nlet s;\nif (BLOCK === 1) { y = tl.zeros([16], \"i32\"); } else { y = tl.load(x_ptr + tl.arange(0, 16)); s = 2.0; y = y * s; }\ntl.store(y_ptr + tl.arange(0, 16), y);",
    "let y;\n{ y = tl.load(x_ptr); }\nfor (let i = 0; i < n; i++) { y = y + 1.0; }\ntl.store(y_ptr, y);",
    // … and in every branch of a run-time if (Triton's scf.if yielding the name): else-if chains, nesting, early returns, loops' own uses.
    "let y;\nif (n > 0) { y = tl.load(x_ptr); } else { y = 2.0; }\ntl.store(y_ptr, y);",
    "let y;\nif (n > 0) { y = 1.0; } else if (n < -3) { y = 2.0; } else { if (n === 0) { y = 3.0; } else { y = tl.load(x_ptr); } }\ntl.store(y_ptr, y);",
    "let y;\nif (n > 0) { y = 1.0; } else { return; }\ntl.store(y_ptr, y);",
    "let y;\nif (n > 0) { y = 1.0; }\ny = 3.0;\ntl.store(y_ptr, y);",
    "let y;\nfor (let i = 0; i < n; i++) { y = tl.cast(i, \"f32\"); tl.store(y_ptr + i, y); }",
    "let m;\nlet p;\nif (n > 0) { p = x_ptr + tl.arange(0, 16); m = tl.arange(0, 16) < n; } else { p = x_ptr + 16 + tl.arange(0, 16); m = tl.arange(0, 16) < 3; }\ntl.store(p, 1.0, m);",
  ];
  for (const body of bodies) assert.deepEqual(diagnose(file(body)), [], body);
});

test("no compiler file name or stack trace leaks into a message", () => {
  for (const [, body] of rows) {
    for (const d of diagnose(file(body))) assert.doesNotMatch(d, /\.ts:\d|at .*\(|src\/|Error:/, d);
  }
});

test("diagnostic: blocks staged in workgroup memory beyond the adapter's limit", () => {
  // A batched tl.dot stages both operands whole (a 2-D one would be staged in chunks of K until it fits).
  const body = 'const a = tl.zeros([2, 64, 64], "f32");\nconst c = tl.dot(a, a);\ntl.store(x_ptr + tl.arange(0, 64), tl.sum(tl.sum(c, 0), 1));';
  const found = diagnose(file(body)).filter((d) => d.includes(" KL2016 "));
  assert.match(found[0] ?? "no KL2016", /^3:18-\d+:\d+ KL2016 this kernel needs \d+ bytes of workgroup memory \(a: 8192 × f32, b: 8192 × f32.*\) but the adapter allows 16384; use smaller blocks.*checked against WebGPU's default limits/);
});

test("float literals stay floats however they are written (1.0, 0.0, 1e3, module constants)", () => {
  const text = `${PRELUDE}const SCALE = 2.0;\nconst NEG = -1.0;\nexport const k = kernel(function k(x_ptr: Ptr<f32>) {\nlet acc = 0.0;\nacc = acc + tl.load(x_ptr) * 1.0 * SCALE * NEG + 1e3;\ntl.store(x_ptr, acc);\n});\n`;
  assert.deepEqual(diagnose(text), []);
});

// tl.atomic*: [name, body, expected "line:col-endLine:endCol code", expected message start]; h_ptr is a Ptr<i32>.
const atomicRows: [string, string, string, string][] = [
  ["padding nan of an integer tensor", "const d = tl.makeTensorDescriptor(h_ptr, [n], [1], [16], { paddingOption: \"nan\" });", "4:75-4:80 KL1040", "tl.makeTensorDescriptor's paddingOption \"nan\" is for float tensors"],
  ["atomicAnd on Ptr<f32>", "const v = tl.atomicAnd(x_ptr, 1.0);", "4:24-4:29 KL2003", "tl.atomicAnd works on Ptr<i32> and Ptr<u32> (WGSL has atomics only on 32-bit integers), got Ptr<f32>"],
  ["atomicAdd on a non-pointer", "tl.atomicAdd(n, 1);", "4:14-4:15 KL2005", "tl.atomicAdd needs pointers (a Ptr parameter plus offsets), got i32"],
  ["atomicCas arity", "tl.atomicCas(h_ptr, 0);", "4:1-4:23 KL1040", "tl.atomicCas takes (pointers, cmp, value, mask?); got 2 arguments"],
  ["atomicAdd with a non-mask mask", "tl.atomicAdd(h_ptr, 1, n);", "4:24-4:25 KL2003", "the mask must be a comparison (a boolean block), got i32"],
  ["atomicOr of a mask", "tl.atomicOr(h_ptr, n > 0);", "4:20-4:25 KL2003", "tl.atomicOr's value takes numbers, not masks"],
  ["atomicXchg of a pointer", "tl.atomicXchg(h_ptr, x_ptr);", "4:22-4:27 KL2003", "tl.atomicXchg's value takes values, not pointers"],
  ["atomicAdd shapes", 'const o = tl.arange(0, 16);\ntl.atomicAdd(h_ptr + o, tl.zeros([8], "i32"));', "5:1-5:46 KL2001", "tl.atomicAdd's pointers and value: shapes [16] and [8] don't match"],
  ["atomicCas cmp shape", 'const o = tl.arange(0, 16);\ntl.atomicCas(h_ptr + o, tl.zeros([4], "i32"), 1);', "5:1-5:49 KL2001", "tl.atomicCas's pointers and cmp: shapes [16] and [4] don't match"],
];

// f16 (NOTES §90): Triton has atomic_add and atomic_cas on fp16 (test_core.py's test_atomic_rmw; compare-and-swap loops on
// the word here, as bf16's) and refuses the others (semantic.py: "atomic_max does not support fp16"): the diagnostic says so.
test("diagnostic: atomicAdd/atomicCas on Ptr<f16> compile; atomicMax/Min/Xchg/And on Ptr<f16> are KL2003, as Triton refuses them", () => {
  const params = "x_ptr: Ptr<f16>, n: i32, BLOCK: constexpr";
  assert.deepEqual(diagnose(file('const o = tl.arange(0, 16);\nconst a = tl.atomicAdd(x_ptr + o, tl.zeros([16], "f16"), o < n);\ntl.atomicCas(x_ptr + o, a, tl.zeros([16], "f16"), o < n);\ntl.atomicCas(x_ptr, 0.0, 1.0);', params)), []);
  const refusals: [string, string][] = [
    ["tl.atomicMax(x_ptr, 1.0);", "4:14-4:19 KL2003 tl.atomicMax works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 max is a compare-and-swap loop on its bits), got Ptr<f16>; reduce into a float32 tensor and convert it after the launch (Triton refuses it too: \"atomic_max does not support fp16\"; on fp16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicMin(x_ptr + 1, 1.0);", "4:14-4:23 KL2003 tl.atomicMin works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 min is a compare-and-swap loop on its bits), got Ptr<f16>; reduce into a float32 tensor and convert it after the launch (Triton refuses it too: \"atomic_min does not support fp16\"; on fp16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicXchg(x_ptr, 1.0);", "4:15-4:20 KL2003 tl.atomicXchg works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 exchange swaps its bits), got Ptr<f16>; exchange through a float32 tensor (Triton refuses it too: \"atomic_xchg does not support fp16\"; on fp16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicAnd(x_ptr, 1);", "4:14-4:19 KL2003 tl.atomicAnd works on Ptr<i32> and Ptr<u32> (WGSL has atomics only on 32-bit integers), got Ptr<f16> (Triton refuses it too: \"atomic_and does not support fp16\"; on fp16 it has atomic_add and atomic_cas only)"],
  ];
  for (const [body, want] of refusals) assert.deepEqual(diagnose(file(body, params)), [want]);
});

// f32 max and min are compare-and-swap loops, as add (an amax: torchao's group amax, FP8 scaling).
test("diagnostic: atomicMax/atomicMin on Ptr<f32> compile", () => {
  assert.deepEqual(diagnose(file("const m = tl.atomicMax(x_ptr, 1.0);\ntl.atomicMin(x_ptr + 1, m, m > 0, \"relaxed\", \"gpu\");", "x_ptr: Ptr<f32>, n: i32, BLOCK: constexpr")), []);
});

// NOTES §81: Triton has atomic_xchg and atomic_cas on fp32 (the word's exchange and compare-and-swap on the bits here).
test("diagnostic: atomicXchg/atomicCas on Ptr<f32> compile", () => {
  assert.deepEqual(diagnose(file('const o = tl.arange(0, 16);\nconst a = tl.atomicXchg(x_ptr + o, 1.0, o < n, "acq_rel", "gpu");\ntl.atomicCas(x_ptr + o, a, tl.zeros([16], "f32"), o < n);\ntl.atomicCas(x_ptr, 0.0, 1.0, { sem: "release", scope: "cta" });', "x_ptr: Ptr<f32>, n: i32, BLOCK: constexpr")), []);
});

// bf16 (NOTES §79): Triton has atomic_add and atomic_cas on bf16 (compare-and-swap loops on the word here) and refuses the
// others (semantic.py atom_red_typechecking_impl: "atomic_max does not support bf16"): the diagnostic says so, at the pointer.
test("diagnostic: atomicAdd/atomicCas on Ptr<bf16> compile; atomicMax/Min/Xchg/And on Ptr<bf16> are KL2003, as Triton refuses them", () => {
  const params = "x_ptr: Ptr<bf16>, n: i32, BLOCK: constexpr";
  assert.deepEqual(diagnose(file('const o = tl.arange(0, 16);\nconst a = tl.atomicAdd(x_ptr + o, 1.0, o < n);\ntl.atomicCas(x_ptr + o, a, tl.zeros([16], "bf16"), o < n);', params)), []);
  const refusals: [string, string][] = [
    ["tl.atomicMax(x_ptr, 1.0);", "4:14-4:19 KL2003 tl.atomicMax works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 max is a compare-and-swap loop on its bits), got Ptr<bf16>; reduce into a float32 tensor and convert it after the launch (Triton refuses it too: \"atomic_max does not support bf16\"; on bf16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicMin(x_ptr + 1, 1.0);", "4:14-4:23 KL2003 tl.atomicMin works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 min is a compare-and-swap loop on its bits), got Ptr<bf16>; reduce into a float32 tensor and convert it after the launch (Triton refuses it too: \"atomic_min does not support bf16\"; on bf16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicXchg(x_ptr, 1.0);", "4:15-4:20 KL2003 tl.atomicXchg works on Ptr<i32>, Ptr<u32> and Ptr<f32> (WGSL has atomics only on 32-bit words; an f32 exchange swaps its bits), got Ptr<bf16>; exchange through a float32 tensor (Triton refuses it too: \"atomic_xchg does not support bf16\"; on bf16 it has atomic_add and atomic_cas only)"],
    ["tl.atomicAnd(x_ptr, 1);", "4:14-4:19 KL2003 tl.atomicAnd works on Ptr<i32> and Ptr<u32> (WGSL has atomics only on 32-bit integers), got Ptr<bf16> (Triton refuses it too: \"atomic_and does not support bf16\"; on bf16 it has atomic_add and atomic_cas only)"],
  ];
  for (const [body, want] of refusals) assert.deepEqual(diagnose(file(body, params)), [want]);
});

for (const [name, body, where, message] of atomicRows) {
  test(`diagnostic: ${name}`, () => {
    const found = diagnose(file(body, "x_ptr: Ptr<f32>, h_ptr: Ptr<i32>, n: i32, BLOCK: constexpr"));
    assert.ok(found.length > 0, `expected ${where} ${message}, got no diagnostics`);
    assert.ok(found[0].startsWith(where + " "), `expected ${where}, got: ${found[0]}`);
    assert.ok(found[0].slice(where.length + 1).startsWith(message), `expected message starting "${message}", got: ${found[0]}`);
  });
}

test("valid atomics give no diagnostics", () => {
  const bodies = [
    "const o = tl.arange(0, 16);\nconst old = tl.atomicAdd(h_ptr + o, 1, o < n);\ntl.atomicMax(h_ptr, tl.max(old));\ntl.atomicAdd(x_ptr + o, 0.5);",
    "if (tl.atomicCas(h_ptr, 0, 1) === 0) {\n  tl.atomicXchg(h_ptr, 0);\n}",
  ];
  for (const body of bodies) assert.deepEqual(diagnose(file(body, "x_ptr: Ptr<f32>, h_ptr: Ptr<i32>, n: i32, BLOCK: constexpr")), [], body);
});

// Issue 23 item 6: one mistake, one diagnostic. [name, body, the one diagnostic's "line:col code"];
// `twice` is a device function (defined on line 3) with a mistake.
const TWICE = "const twice = kernel(function twice(x) { return x * tl.two(); });\n";
const oneMistakeRows: [string, string, string][] = [
  ["a let whose initialiser fails, then reassigned, updated and reshaped", "const o = tl.arange(0, 16);\nlet z = tl.load(x_ptr + o) * tl.bogus(2);\nz = z + 1;\nz += tl.reshape(z, [16]);\ntl.store(y_ptr + o, tl.reshape(z, [16]));", "5:33 KL1005"],
  ["a const whose initialiser fails, used three times", "const o = tl.arange(0, 16);\nconst w = tl.load(x_ptr + o, o < m);\ntl.store(y_ptr + o, w * w, w > 0);", "5:34 KL1006"],
  ["a bad dtype assigned into a let without a value in both branches of a constexpr if (issue 31)", "const o = tl.arange(0, 16);\nlet Y_row;\nif (BLOCK === 16) { Y_row = tl.cast(tl.load(x_ptr + o), \"f64\"); } else { Y_row = tl.cast(tl.load(x_ptr + o), \"f64\"); }\ntl.store(y_ptr + o, Y_row);", "6:57 KL2080"],
  ["a device function's mistake, called twice", "const a = twice(tl.arange(0, 16));\nconst b = twice(tl.arange(0, 16) + 1);\ntl.store(y_ptr + tl.arange(0, 16), tl.cast(a + b, \"f32\"));", "3:56 KL1005"],
];

for (const [name, body, where] of oneMistakeRows) {
  test(`one mistake, one diagnostic: ${name}`, () => {
    const text = body.includes("twice(") ? file(body).replace("export const k", `${TWICE}export const k`) : file(body);
    const found = locate("k.kernel.ts", text, checkFile("k.kernel.ts", text)).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    assert.equal(found.length, 1, found.join("\n"));
    assert.ok(found[0].startsWith(`${where} `), found[0]);
  });
}

// Combine functions passed by name (Triton's `combine_fn=reduce_mul`, a @triton.jit function):
// [name, device functions (from line 3), body, the diagnostic's "line:col code", its message start].
const namedCombineRows: [string, string, string, string, string][] = [
  ["a combine function of three parameters", "const f3 = kernel(function f3(a, b, c) { return a; });\n", "const s = tl.reduce(tl.arange(0, 16), 0, f3);", "5:42 KL1074", "tl.reduce's combine function takes exactly two parameters (a, b); f3 has 3"],
  ["Welford's combine of a tuple (FlagGems' welford_func)", "const welford_func = kernel(function welford_func(mean_x, count_x, M_x, mean_y, count_y, M_y) { return [mean_x, count_x, M_x]; });\n", "const s = tl.reduce(tl.arange(0, 16), 0, welford_func);", "5:42 KL1074", "tl.reduce's combine function takes exactly two parameters (a, b); welford_func has 6; a combine function of 3 values a side combines a tuple of 3 blocks: pass them together"],
  ["a combine function returning a tuple", "const pair = kernel(function pair(a, b) { return [a, b]; });\n", "const s = tl.associativeScan(tl.arange(0, 16), 0, pair);", "5:51 KL1074", "tl.associativeScan's combine function must return one scalar, but pair returns a tuple of 2 values"],
  ["a combine function reading the program id", "const pid = kernel(function pid(a, b) { return a + tl.programId(0); });\n", "const s = tl.reduce(tl.arange(0, 16), 0, pid);", "3:52 KL1074", "tl.reduce's combine function may use only its parameters, constants, operators and element-wise tl.* functions"],
  ["a combine function changing the dtype", "const half = kernel(function half(a, b) { return a * 0.5 + b; });\n", "const s = tl.reduce(tl.arange(0, 16), 0, { combineFn: half });", "5:55 KL1074", "tl.reduce's combine function must return a i32 scalar like its operands, but returns f32"],
  ["a combine function's annotation against the block's dtype", "const fm = kernel(function fm(a: f32, b: f32) { return a * b; });\n", "const s = tl.reduce(tl.arange(0, 16), 0, fm);", "5:42 KL2070", "fm's parameter 'a' takes f32 values"],
  // Triton's multi-operand form (a tuple of blocks, FlagGems' var_mean): the combine function's arity.
  ["tl.reduce of 3 blocks with a combine function of 2 parameters", "", "const a = tl.arange(0, 16);\nconst s = tl.reduce([a, a, a], 0, (x, y) => x);", "5:35 KL2130", "tl.reduce of 3 blocks takes a combine function of 6 parameters (the left side's 3 values, then the right side's); this one has 2"],
  ["a combine function of 2 blocks returning one value", "const add1 = kernel(function add1(a0, a1, b0, b1) {\n  return a0 + b0;\n});\n", "const a = tl.arange(0, 16);\nconst s = tl.reduce([a, a], 0, add1);", "8:32 KL2130", "tl.reduce of 2 blocks needs a combine function that returns 2 values, one per block (return r0, r1), but add1 returns one value"],
  ["an inline combine of 2 blocks returning 3 values", "", "const a = tl.arange(0, 16);\nconst [s, t] = tl.associativeScan([a, a], 0, (a0, a1, b0, b1) => [a0, a1, b0]);", "5:66 KL2130", "tl.associativeScan of 2 blocks needs a combine function that returns 2 values, one per block (return r0, r1), but it returns a tuple of 3 values"],
  ["a combine of 2 blocks of 6 parameters", "const w6 = kernel(function w6(a, b, c, d, e, f) { return [a, b, c]; });\n", "const a = tl.arange(0, 16);\nconst s = tl.reduce([a, a], 0, w6);", "6:32 KL2130", "tl.reduce of 2 blocks takes a combine function of 4 parameters (the left side's 2 values, then the right side's); w6 has 6"],
  ["a combine of 2 blocks whose second result changes the dtype", "", "const a = tl.arange(0, 16);\nconst s = tl.reduce([a, a * 0.5], 0, (a0, a1, b0, b1) => [a0 + b0, a0]);", "5:68 KL1074", "tl.reduce's combine function must return its result 1 a f32 scalar like block 1, but returns i32"],
  ["tl.reduce of blocks of two shapes", "", "const a = tl.arange(0, 16);\nconst s = tl.reduce([a, tl.arange(0, 8)], 0, (a0, a1, b0, b1) => [a0, a1]);", "5:25 KL2131", "tl.reduce's blocks must all have the first one's shape i32[16]; this one is i32[8]"],
  ["tl.cumsum of a tuple", "", "const a = tl.arange(0, 16);\nconst s = tl.cumsum([a, a], 0);", "5:21 KL2131", "tl.cumsum scans one block; for a tuple of blocks write tl.associative_scan"],
  ["a combine function passing itself as a combine function", "const rec = kernel(function rec(a, b) { const t = tl.reduce(tl.arange(0, 16), 0, rec); return a + b; });\n", "const s = tl.reduce(tl.arange(0, 16), 0, rec);", "3:82 KL1004", "kernels can't call themselves (no recursion on the GPU: device functions are inlined at each call): rec → rec"],
];

for (const [name, helpers, body, where, message] of namedCombineRows) {
  test(`diagnostic: ${name}`, () => {
    const text = file(body).replace("export const k", `${helpers}export const k`);
    const found = locate("k.kernel.ts", text, checkFile("k.kernel.ts", text)).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`);
    assert.ok(found.length >= 1 && found[0].startsWith(where) && found[0].includes(message), found.join("\n"));
  });
}

test("combine functions passed by name give no diagnostics, and their generic parameters need no annotation", () => {
  const helpers = "const reduce_mul = kernel(function reduce_mul(a, b) {\n  const p = a * b;\n  return p;\n});\nconst mx = kernel(function mx(a: f32, b: f32) { return tl.maximum(a, b); });\n";
  const body = "const v = tl.load(x_ptr + tl.arange(0, 16));\ntl.store(y_ptr, tl.reduce(v, 0, reduce_mul));\ntl.store(y_ptr + tl.arange(0, 16), tl.associativeScan(v, { axis: 0, combineFn: mx }));\ntl.store(y_ptr + 1, tl.reduce(tl.arange(0, 16), { axis: 0, combineFn: reduce_mul }));";
  const text = file(body).replace("export const k", `${helpers}export const k`);
  assert.deepEqual(diagnose(text), []);
});

test("one mistake, one diagnostic: a constexpr without a value is not reported again where it is used", () => {
  const text = `${PRELUDE}import { defineRun } from "kernel-lab";\nexport const k = kernel(function k(x_ptr: Ptr<f32>, BLOCK: constexpr) {\n  const o = tl.arange(0, BLOCK);\n  tl.store(x_ptr + o, 1.0);\n});\nexport const r = defineRun({ kernel: k, sizes: [1], constexprs: { OTHER: 1 }, grid: () => [1], args: () => ({}), outputs: [], reference: () => ({}) });\n`;
  assert.deepEqual(diagnose(text).map((d) => d.split(" ")[1]), ["KL2011"]);
});

test("tl.staticPrint prints while compiling: an info diagnostic with constants' values and other values' types", () => {
  const found = diagnose(file('const o = tl.arange(0, BLOCK);\ntl.staticPrint("BLOCK is", BLOCK, "o is", o, BLOCK * 2);'));
  assert.deepEqual(found, ['5:1-5:56 KL1077 tl.staticPrint: BLOCK is BLOCK = 16 o is o: i32[16] BLOCK * 2 = 32']);
});

test("a combine function of a tuple returning the wrong count: at the combine function, its return and definition related", () => {
  const helpers = "const add1 = kernel(function add1(a0, a1, b0, b1) {\n  return a0 + b0;\n});\n";
  const text = file("const a = tl.arange(0, 16);\nconst s = tl.reduce([a, a], 0, add1);").replace("export const k", `${helpers}export const k`);
  const found = locate("k.kernel.ts", text, checkFile("k.kernel.ts", text));
  assert.equal(found.length, 1, JSON.stringify(found));
  const [d] = found;
  assert.deepEqual([d.code, d.line, d.column, d.endLine, d.endColumn], ["KL2130", 8, 32, 8, 36]);
  assert.deepEqual(d.related?.map((r) => `${r.line}:${r.column}-${r.endLine}:${r.endColumn} ${r.message}`), ["4:10-4:17 add1 returns this", "3:30-3:34 'add1' is defined here"]);
});

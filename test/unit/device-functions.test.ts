// Device functions (a kernel(...) called from a kernel's body) and the control flow added with
// them: the diagnostic each misuse gives, `line:col-endLine:endCol code message-start`, and that
// a diagnostic inside a helper also points at the call.

import { test } from "node:test";
import assert from "node:assert/strict";
import { checkFile } from "../../src/compile";
import { locate } from "../../src/diagnostics/position";

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32, u32, constexpr } from "kernel-lab";\n';

/** Line 3 holds the helpers, line 4 the kernel header, line 5 its body. */
function file(helpers: string, body: string): string {
  return `${PRELUDE}${helpers}\nexport const k = kernel(function k(x_ptr: Ptr<f32>, i_ptr: Ptr<i32>, n: i32, BLOCK: constexpr) {\n${body}\n});\n`;
}

function diagnose(text: string) {
  return locate("k.kernel.ts", text, checkFile("k.kernel.ts", text));
}

const show = (d: ReturnType<typeof diagnose>[number]) => `${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.code} ${d.message}`;

const rows: [string, string, string, string, string][] = [
  ["a Ptr<f32> parameter given an i32 block", "const f = kernel(function f(p: Ptr<f32>) { return tl.load(p); });", "const v = f(tl.arange(0, 4));", "5:13-5:28 KL2070", "f's parameter 'p' takes Ptr<f32> (a pointer or a block of pointers), got i32[4]"],
  ["an f32 parameter given a pointer", "const f = kernel(function f(x: f32) { return x; });", "const v = f(x_ptr);", "5:13-5:18 KL2070", "f's parameter 'x' takes f32 values, got Ptr<f32>"],
  ["a Ptr<f32> parameter given a Ptr<i32>", "const f = kernel(function f(p: Ptr<f32>) { return tl.load(p); });", "const v = f(i_ptr);", "5:13-5:18 KL2070", "f's parameter 'p' takes Ptr<f32>"],
  ["a constexpr parameter given a run-time value", "const f = kernel(function f(N: constexpr) { return tl.arange(0, N); });", "const v = f(n);", "5:13-5:14 KL1070", "f's parameter 'N' is a constexpr: pass a compile-time integer"],
  ["too few arguments", "const f = kernel(function f(a, b) { return a + b; });", "const v = f(1);", "5:11-5:15 KL1070", "f takes 2 arguments (a, b), got 1"],
  ["mutual recursion", "const f = kernel(function f(a) { return g(a); });\nconst g = kernel(function g(a) { return f(a); });", "const v = f(1);", "4:41-4:45 KL1004", "kernels can't call themselves (no recursion on the GPU: device functions are inlined at each call): f → g → f"],
  // A run-time early return with a value is split into the two branches, each assigning the result (flash-attention's
  // compute_block_masking); from a loop it can't be, and branches returning tuples of different lengths can't merge.
  ["an early return with a value from a loop", "const f = kernel(function f(a) { for (let i = 0; i < a; i++) { if (i > 2) { return i; } } return 0; });", "const v = f(n);", "3:77-3:86 KL1071", "a device function returns only as its last statement; restructure f"],
  ["early returns of tuples of different lengths", "const f = kernel(function f(a) { if (a > 0) { return [1, 2]; } return [a, a, a]; });", "const v = f(n);", "3:34-3:63 KL1071", "f returns a tuple of 2 values on one side of this run-time if and a tuple of 3 values on the other"],
  // Without a value it may (the rest goes to the branch that doesn't return), but not from a loop.
  ["an early return from a loop of a function without a value", "const f = kernel(function f(p: Ptr<f32>, a) { for (let i = 0; i < a; i++) { if (i > 2) { return; } tl.store(p + i, 1.0); } });", "f(x_ptr, n);", "3:90-3:97 KL1071", "a device function returns only as its last statement; restructure f"],
  ["a helper without a value used as one", "const f = kernel(function f(p: Ptr<f32>) { tl.store(p, 1.0); });", "const v = f(x_ptr);", "5:11-5:19 KL1071", "f(…) returns no value"],
  ["a plain function", "function f(a: number) { return a; }", "const v = f(1);", "5:11-5:15 KL1004", "'f' is a plain function, which runs on the CPU; to call it from a kernel make it a device function: const f = kernel(function f(…) { … })"],
  ["break inside a helper, loop at the call", "const f = kernel(function f(a) { break; });", "for (let i = 0; i < 2; i++) { f(i); }", "3:34-3:40 KL1072", "'break' must be inside a for or while loop of this device function"],
  ["a generic kernel nobody calls", "const f = kernel(function f(a) { });", "", "3:29-3:30 KL1010", "parameter 'a' needs a kernel type"],
];

for (const [name, helpers, body, at, message] of rows) {
  test(`device function diagnostic: ${name}`, () => {
    const found = diagnose(file(helpers, body)).map(show);
    assert.ok(found.some((d) => d.startsWith(`${at} ${message}`)), `expected ${at} ${message}, got:\n${found.join("\n")}`);
  });
}

test("a diagnostic in a helper's body points into the helper, with the call as a related location", () => {
  const text = file("const f = kernel(function f(a) { return a + x_ptr2; });", "const v = f(n);");
  const [d] = diagnose(text);
  assert.equal(show(d).split(" ")[0], "3:45-3:51");
  assert.match(d.message, /'x_ptr2' is not defined/);
  const raw = checkFile("k.kernel.ts", text)[0];
  const call = raw.related?.find((r) => r.message === "in f, called from here");
  assert.ok(call, JSON.stringify(raw.related));
  assert.equal(text.slice(call.span.start, call.span.end), "f(n)");
});

test("a helper's names don't see its caller's, and a local name shadows a helper", () => {
  const hidden = diagnose(file("const f = kernel(function f(a) { return a + BLOCK; });", "const v = f(n);")).map(show);
  assert.ok(hidden.some((d) => d.includes("'BLOCK' is not defined")), hidden.join("\n"));
});

test("valid device functions, loops and ternaries check clean", () => {
  const helpers = [
    "const leaky = kernel(function leaky(x: f32, slope) { return tl.where(x >= 0, x, slope * x); });",
    "const twice = kernel((x: any) => leaky(x, 0.5) * 2);",
    "const ar = kernel(function ar(N: constexpr) { return tl.arange(0, N); });",
  ].join(" ");
  const body = [
    "const offs = ar(BLOCK);",
    "let acc = twice(tl.load(x_ptr + offs, offs < n));",
    "for (const i of tl.staticRange(0, 4, 2)) { acc += i; }",
    "let j = 0;",
    "while (j < n) { j += 1; if (j > 3) { break; } if (j === 2) { continue; } acc += tl.sum(acc, 0); }",
    "tl.store(x_ptr + offs, acc + (n > 2 ? 1.5 : 2), offs < n);",
  ].join("\n");
  assert.deepEqual(diagnose(file(helpers, body)).map(show), []);
});

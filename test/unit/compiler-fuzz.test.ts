// The CI slice of `npm run fuzz` (test/fuzz/compiler.fuzz.ts): a fixed seed, 300 inputs — random
// kernels of the grammar, well-typed kernels, mutated examples — each checked with the strict
// property (no exception, ranges inside the file, bounded time, no KL9000). Plus the inputs the
// long fuzz found, as fixed rows.

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { checkFile } from "../../src/compile";
import { compilesCleanly } from "../fuzz/compiler-properties";
import { kernelFiles, typedKernelFiles } from "../fuzz/kernel-grammar";
import { mutatedExamples } from "../fuzz/mutations";

const SEED = 20261202;

test("100 random kernels of the grammar compile without throwing", () => {
  fc.assert(fc.property(kernelFiles, compilesCleanly), { seed: SEED, numRuns: 100 });
});

test("100 well-typed kernels compile without throwing", () => {
  fc.assert(fc.property(typedKernelFiles, compilesCleanly), { seed: SEED + 1, numRuns: 100 });
});

test("100 mutated examples compile without throwing", () => {
  fc.assert(fc.property(mutatedExamples, ({ text }) => compilesCleanly(text)), { seed: SEED + 2, numRuns: 100 });
});

const PRELUDE = 'import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, i32 } from "kernel-lab";\nexport const k = kernel(function k(x_ptr: Ptr<f32>, n: i32) {\n';

// Found by the fuzz: TypeScript's parser and the compiler's passes recurse, and a file nested a
// few thousand levels deep overflowed the stack (RangeError escaped checkFile; nested ifs gave KL9000).
for (const [name, body] of [
  ["3000 nested parentheses", `const a = ${"(".repeat(3000)}n${")".repeat(3000)};`],
  ["2000 nested negations", `const a = ${"-(".repeat(2000)}n${")".repeat(2000)};`],
  ["a sum of 5000 terms", `const a = ${Array(5000).fill("n").join(" + ")};`],
  ["1000 nested ifs", `${"if (n) {".repeat(1000)}${"}".repeat(1000)}`],
  ["700 nested tl.abs calls", `const a = ${"tl.abs(".repeat(700)}n${")".repeat(700)};`],
] as const) {
  test(`${name}: KL1060 at the deep spot, no throw`, () => {
    const text = `${PRELUDE}${body}\n});\n`;
    const diagnostics = checkFile("k.kernel.ts", text);
    assert.deepEqual(diagnostics.map((d) => d.code), ["KL1060"], JSON.stringify(diagnostics).slice(0, 300));
    const [d] = diagnostics;
    assert.ok(d.span.start >= PRELUDE.length && d.span.end <= text.length, `span ${JSON.stringify(d.span)} is not in the kernel body`);
    compilesCleanly(text);
  });
}

test("nesting a real kernel might use still compiles", () => {
  const text = `${PRELUDE}const a = ${"tl.abs(".repeat(60)}tl.load(x_ptr + tl.arange(0, 16))${")".repeat(60)};\n${"if (n > 0) {".repeat(40)}tl.store(x_ptr + tl.arange(0, 16), a);${"}".repeat(40)}\n});\n`;
  assert.deepEqual(checkFile("k.kernel.ts", text), []);
});

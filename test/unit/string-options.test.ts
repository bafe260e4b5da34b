// tl.load / tl.store / atomics' string options (cacheModifier, evictionPolicy, sem, scope): Kernel
// Lab ignores them, but Triton takes each as a tl.constexpr str, so a run-time value there is
// KL1041 at that argument (semantics/string-options.ts); literals and constexpr choices are fine.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile } from "../../src/compile";
import { PRELUDE } from "../support/kernel-runner";

function diagnose(body: string): { code: string; at: string; message: string }[] {
  const text = `${PRELUDE}export const k = kernel(function k(x: Ptr<f32>, y: Ptr<i32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offs < n;
${body}
});`;
  const kernel = parseKernelFile("k.kernel.ts", text).kernels[0];
  return compileKernel(kernel, { BLOCK: 64 }).diagnostics.map((d) => ({ code: d.code, at: text.slice(d.span.start, d.span.end), message: d.message }));
}

test("string options given as literals, null, a constexpr choice, positionally or as keywords: no diagnostic", () => {
  assert.deepEqual(diagnose(`  const v = tl.load(x + offs, { mask, other: 0.0, cacheModifier: ".cg", evictionPolicy: "evict_last" });
  tl.store(x + offs, v, { mask, evictionPolicy: BLOCK > 32 ? "evict_first" : "", cacheModifier: null });
  tl.atomicAdd(y + offs, 1, mask, "acq_rel", "gpu");`), []);
});

test("a run-time evictionPolicy, cacheModifier, sem or scope: KL1041 at that argument, naming what to write", () => {
  const found = diagnose(`  const v = tl.load(x + offs, { mask, evictionPolicy: n });
  tl.store(x + offs, v, { mask, cacheModifier: tl.load(x) });
  tl.atomicAdd(y + offs, 1, mask, 2);
  tl.atomicCas(y, 0, 1, { scope: offs });`);
  assert.deepEqual(found.map((d) => `${d.code} ${d.at}`), ["KL1041 n", "KL1041 tl.load(x)", "KL1041 2", "KL1041 offs"]);
  assert.match(found[0].message, /^tl\.load's evictionPolicy must be known at compile time: a string such as "evict_last" \(Triton takes it as a tl\.constexpr str\); `n` is a value computed while the kernel runs$/);
  assert.match(found[1].message, /^tl\.store's cacheModifier .*this expression is computed while the kernel runs$/);
  assert.match(found[2].message, /^tl\.atomicAdd's sem .*"relaxed".*; 2 is not a string$/);
  assert.match(found[3].message, /^tl\.atomicCas's scope .*`offs` is a value computed while the kernel runs$/);
});

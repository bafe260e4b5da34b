// Issue 23 item 7's coverage: Triton's `triton.language` as its documentation lists it
// (semantics/triton-api.ts) — 89 portable functions, each Kernel Lab's tl.<camelCase> with an
// intrinsic entry and a declaration whose doc comment names the Triton function; the two with
// no WGSL meaning are a KL1005 that says so.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { checkFile } from "../../src/compile";
import { INTRINSICS } from "../../src/semantics/intrinsics";
import { TRITON_LANGUAGE, WITHOUT_WGSL_MEANING, camelCase } from "../../src/semantics/triton-api";
import { tlDocs } from "../support/language-table";

const portable = TRITON_LANGUAGE.flatMap((s) => s.functions);

test("triton.language has 89 portable functions", () => {
  assert.equal(portable.length, 89);
  assert.equal(new Set(portable).size, 89);
});

test("89 of 89: each is a tl.* intrinsic", () => {
  assert.deepEqual(portable.filter((name) => !Object.hasOwn(INTRINSICS, camelCase(name))), []);
});

test("89 of 89: each is declared in types/kernel-lab.d.ts with a doc comment naming the Triton function", () => {
  const docs = tlDocs();
  const missing = portable.filter((name) => !docs.has(camelCase(name)));
  assert.deepEqual(missing, [], "not declared");
  // The doc comment of some overload names `tl.<snake_case>`.
  const all = new Map<string, string>();
  for (const name of portable) all.set(name, allDocs(camelCase(name)));
  assert.deepEqual(portable.filter((name) => !all.get(name)!.includes(`tl.${name}`)), [], "doc comments that don't name the Triton function");
});

test("the functions with no WGSL meaning are a KL1005 that says so, in either spelling", () => {
  for (const snake of WITHOUT_WGSL_MEANING) {
    for (const name of [snake, camelCase(snake)]) {
      const text = `import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32 } from "kernel-lab";\nexport const k = kernel(function k(x: Ptr<f32>) {\n  tl.${name}(x);\n});\n`;
      const found = checkFile("k.kernel.ts", text);
      assert.equal(found.length, 1, `${name}: ${found.map((d) => d.message).join("; ")}`);
      assert.equal(found[0].code, "KL1005");
      assert.match(found[0].message, /WGSL|assembly/, `${name}: ${found[0].message}`);
      assert.match(found[0].message, /; (it|tensor descriptors)/, `${name}: says what to do instead`);
    }
  }
});

/** Every overload's doc comment of a tl.* declaration, joined. */
function allDocs(name: string): string {
  const text = readFileSync(path.join(__dirname, "../../types/kernel-lab.d.ts"), "utf8");
  const namespace = text.slice(text.indexOf("export declare namespace tl"));
  const pattern = new RegExp(`/\\*\\*((?:(?!\\*/)[\\s\\S])*)\\*/\\s*function ${name}\\b`, "g");
  return [...namespace.matchAll(pattern)].map((m) => m[1]).join(" ");
}

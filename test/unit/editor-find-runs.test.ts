// The runs the editor offers (quick pick, CodeLens), found without running the file.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { findRuns } from "../../src/editor/find-runs";

const cases: [string, string, { name: string; sizeCount?: number }[]][] = [
  ["an exported run", `import { defineRun } from "kernel-lab";\nexport const a = defineRun({ kernel: k, sizes: [1, 2] });`, [{ name: "a", sizeCount: 2 }]],
  ["a literal name wins", `import { defineRun } from "kernel-lab";\nexport const a = defineRun({ name: "nice", kernel: k, sizes: s });`, [{ name: "nice" }]],
  ["not exported: the harness can't see it", `import { defineRun } from "kernel-lab";\nconst a = defineRun({ kernel: k, sizes: [1] });`, []],
  ["an alias import", `import { defineRun as run } from "kernel-lab";\nexport const a = run({ kernel: k, sizes: [1] }), b = run({ kernel: k, sizes: [] });`, [{ name: "a", sizeCount: 1 }, { name: "b", sizeCount: 0 }]],
  ["a namespace import", `import * as kl from "kernel-lab";\nexport const a = kl.defineRun({ kernel: k, sizes: [3] });`, [{ name: "a", sizeCount: 1 }]],
  ["someone else's defineRun", `import { defineRun } from "elsewhere";\nimport { kernel } from "kernel-lab";\nexport const a = defineRun({});`, []],
  ["a syntax error elsewhere", `import { defineRun } from "kernel-lab";\nexport const a = defineRun({ sizes: [1] });\nconst = ;`, [{ name: "a", sizeCount: 1 }]],
];

for (const [title, source, expected] of cases) {
  test(`findRuns: ${title}`, () => {
    const runs = findRuns("x.kernel.ts", source).map(({ name, sizeCount }) => ({ name, ...(sizeCount === undefined ? {} : { sizeCount }) }));
    assert.deepEqual(runs, expected);
  });
}

test("findRuns: the span is the defineRun call", () => {
  const source = `import { defineRun } from "kernel-lab";\nexport const a = defineRun({ sizes: [1] });`;
  const [run] = findRuns("x.kernel.ts", source);
  assert.equal(source.slice(run.span.start, run.span.end), "defineRun({ sizes: [1] })");
});

test("findRuns: examples/vector-add.kernel.ts has its one run", () => {
  const file = path.resolve(__dirname, "..", "..", "examples", "vector-add.kernel.ts");
  assert.deepEqual(findRuns(file, readFileSync(file, "utf8")).map((r) => r.name), ["vectorAdd"]);
});

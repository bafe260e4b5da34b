// README's language section lists every tl.* function that types/kernel-lab.d.ts declares, and its
// table of every function is the one test/support/language-table.ts generates from the compiler's
// tables (refresh it with: npx tsx test/support/language-table.ts --write).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { withFreshTable } from "../support/language-table";

const root = path.resolve(__dirname, "../..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");

test("README lists every tl.* function of types/kernel-lab.d.ts", () => {
  const types = readFileSync(path.join(root, "types/kernel-lab.d.ts"), "utf8");
  const namespace = types.slice(types.indexOf("export declare namespace tl"));
  const declared = [...new Set([...namespace.slice(0, namespace.indexOf("\n}\n")).matchAll(/function (\w+)/g)].map((m) => m[1]))];
  assert.ok(declared.length > 40, `found only ${declared.length} declarations`);
  const language = readme.slice(readme.indexOf("## The language"), readme.indexOf("## Command line"));
  // A table cell may list several names after one `tl.` (`tl.exp log sqrt …`).
  const listed = new Set([...language.matchAll(/`tl\.([\w ]+)/g)].flatMap((m) => m[1].split(" ")));
  for (const m of language.matchAll(/tl\.(\w+)/g)) listed.add(m[1]);
  assert.deepEqual(declared.filter((name) => !listed.has(name)), []);
});

test("README's table of every function is generated from the intrinsics table, triton-api.ts and the typings", () => {
  assert.equal(readme, withFreshTable(readme), "README's generated table is stale: npx tsx test/support/language-table.ts --write");
});

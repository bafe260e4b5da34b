// README's language section lists every tl.* function that types/kernel-lab.d.ts declares.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";

const root = path.resolve(__dirname, "../..");

test("README lists every tl.* function of types/kernel-lab.d.ts", () => {
  const types = readFileSync(path.join(root, "types/kernel-lab.d.ts"), "utf8");
  const namespace = types.slice(types.indexOf("export declare namespace tl"));
  const declared = [...new Set([...namespace.slice(0, namespace.indexOf("\n}\n")).matchAll(/function (\w+)/g)].map((m) => m[1]))];
  assert.ok(declared.length > 40, `found only ${declared.length} declarations`);
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const language = readme.slice(readme.indexOf("## The language"), readme.indexOf("## Command line"));
  // A table cell may list several names after one `tl.` (`tl.exp log sqrt …`).
  const listed = new Set([...language.matchAll(/`tl\.([\w ]+)/g)].flatMap((m) => m[1].split(" ")));
  for (const m of language.matchAll(/tl\.(\w+)/g)) listed.add(m[1]);
  assert.deepEqual(declared.filter((name) => !listed.has(name)), []);
});

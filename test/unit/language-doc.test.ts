// docs/LANGUAGE.md, the language's definition, lists every tl.* function that types/kernel-lab.d.ts
// declares; its table of every function is the one test/support/language-table.ts generates from
// the compiler's tables (refresh it with: npx tsx test/support/language-table.ts --write); the
// README links to it; and no file of the repository leans on ../shared/ for its meaning.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { LANGUAGE_FILE, withFreshTable } from "../support/language-table";

const root = path.resolve(__dirname, "../..");
const language = readFileSync(LANGUAGE_FILE, "utf8");

test("docs/LANGUAGE.md lists every tl.* function of types/kernel-lab.d.ts", () => {
  const types = readFileSync(path.join(root, "types/kernel-lab.d.ts"), "utf8");
  const namespace = types.slice(types.indexOf("export declare namespace tl"));
  const declared = [...new Set([...namespace.slice(0, namespace.indexOf("\n}\n")).matchAll(/function (\w+)/g)].map((m) => m[1]))];
  assert.ok(declared.length > 40, `found only ${declared.length} declarations`);
  const section = language.slice(language.indexOf("## 2. The language"), language.indexOf("## 3. "));
  // A table cell may list several names after one `tl.` (`tl.exp log sqrt …`).
  const listed = new Set([...section.matchAll(/`tl\.([\w ]+)/g)].flatMap((m) => m[1].split(" ")));
  for (const m of section.matchAll(/tl\.(\w+)/g)) listed.add(m[1]);
  assert.deepEqual(declared.filter((name) => !listed.has(name)), []);
});

test("docs/LANGUAGE.md's table of every function is generated from the intrinsics table, triton-api.ts and the typings", () => {
  assert.equal(language, withFreshTable(language), "docs/LANGUAGE.md's generated table is stale: npx tsx test/support/language-table.ts --write");
});

test("the README points at docs/LANGUAGE.md, and every docs/ file it names exists", () => {
  // By path, not as Markdown links: the packaged README has no repository to resolve a relative
  // link against, and vsce refuses to package one (scripts/package.mjs).
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  assert.match(readme, /`docs\/LANGUAGE\.md`/);
  // vsce's own pattern (@vscode/vsce's package.js): it finds links inside code spans too, e.g. `kernel[grid](…)`.
  const links = [...readme.matchAll(/(!?)\[([^\][]*|!\[[^\][]*]\([^)]+\))\]\(([^)]+)\)/g)].map((m) => m[3]);
  assert.deepEqual(links.filter((link) => !/^\w+:\/\//.test(link) && !link.startsWith("#") && !/^mailto:/i.test(link)), [], "README.md has relative links as vsce reads them (in code spans too, `kernel[grid](…)`): write a path in backticks (`docs/LANGUAGE.md` §3), or reword; vsce can't package a README with them (node scripts/package.mjs)");
  const named = [...readme.matchAll(/`(docs\/[\w.-]+)`/g)].map((m) => m[1]);
  assert.deepEqual(named.filter((file) => !statSync(path.join(root, file), { throwIfNoEntry: false })), []);
});

/** Text files under `dir`, relative to the root. */
function textFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    // Build outputs (bench/dist) are not the repository's own text.
    if (statSync(path.join(root, rel)).isDirectory()) return ["dist", "node_modules", "out"].includes(name) ? [] : textFiles(rel);
    return /\.(ts|mjs|js|sh|md|json)$/.test(name) ? [rel] : [];
  });
}

test("no file of the repository refers to ../shared/ for its meaning", () => {
  // What was there (the language's definition, conventions, measured facts) is in docs/ now:
  // LANGUAGE.md, CONVENTIONS.md, ENVIRONMENT.md. Running a tool from ../shared/tools/ (the H200
  // benchmarks' carrier) is tooling, not meaning, and may stay.
  const files = ["README.md", ...["src", "scripts", "docs", "test", "bench", "types", "examples"].flatMap(textFiles)];
  const found = files.flatMap((file) =>
    readFileSync(path.join(root, file), "utf8")
      .split("\n")
      .flatMap((line, i) => (/\.\.\/shared\/(?!tools\/)|\b(SPEC|STYLE)(\.md)? §|\bnotes\/ENVIRONMENT\.md|(?<!docs\/)\bENVIRONMENT(\.md)? §/.test(line) && !file.endsWith("language-doc.test.ts") ? [`${file.split(path.sep).join("/")}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(found, [], "point these at docs/LANGUAGE.md, docs/CONVENTIONS.md or docs/ENVIRONMENT.md");
});

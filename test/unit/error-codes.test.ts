// Error codes are one table (src/diagnostics/codes.ts): every KLnnnn written anywhere in src/ is in
// it, every code in it is used, no code has two entries, each sits in its group's range, and
// docs/ERRORS.md is the table as generated.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import { BUG_CODES, CODE_GROUPS, COMPILER_CODES, CPU_RUN_CODES, GPU_CODES, PYTHON_CODES, RUN_CODES, type CodeEntry } from "../../src/diagnostics/codes";
import { ERRORS_FILE, errorsMarkdown } from "../support/error-table";

const SRC = path.resolve(__dirname, "../../src");
const TABLE_FILE = path.join(SRC, "diagnostics/codes.ts");
const REFRESH = "then refresh docs/ERRORS.md with: npx tsx test/support/error-table.ts --write";

/**
 * An error kind ("out-of-bounds") given where an error is made: a quoted kind that is not a member
 * of the kinds' union (`| "x"`), a key of the record mapping kinds to codes (`"x":`), or its lookup.
 */
const kindUsed = (n: string) => new RegExp(`(?<!\\|\\s*)(?<!CODES\\[)"${n}"(?!\\s*[:\\]])`);

/** Each group's export name, the ranges its codes take, and how code outside the table names an entry. */
const GROUPS: { table: Readonly<Record<string, CodeEntry>>; name: string; ranges: [number, number][]; namedAs: (name: string) => RegExp }[] = [
  { table: COMPILER_CODES, name: "COMPILER_CODES", ranges: [[1000, 2999]], namedAs: (n) => new RegExp(`\\bCodes\\.${n}\\b`) },
  { table: RUN_CODES, name: "RUN_CODES", ranges: [[3001, 3099], [3900, 3999]], namedAs: (n) => new RegExp(`\\bRunCodes\\.${n}\\b`) },
  { table: CPU_RUN_CODES, name: "CPU_RUN_CODES", ranges: [[3100, 3119], [3140, 3199]], namedAs: kindUsed },
  { table: PYTHON_CODES, name: "PYTHON_CODES", ranges: [[3120, 3139], [4010, 4019]], namedAs: (n) => new RegExp(`\\bPythonCodes\\.${n}\\b`) },
  { table: GPU_CODES, name: "GPU_CODES", ranges: [[4000, 4009], [4020, 4999]], namedAs: (n) => new RegExp(`${kindUsed(n).source}|readonly code = GPU_CODES\\["${n}"\\]`) },
  { table: BUG_CODES, name: "BUG_CODES", ranges: [[9000, 9999]], namedAs: (n) => new RegExp(`BUG_CODES\\.${n}\\b${n === "internal" ? "|\\bCodes\\.internal\\b" : ""}`) },
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.(ts|mjs|js)$/.test(name) ? [full] : [];
  });
}

const files = sources(SRC)
  .filter((f) => f !== TABLE_FILE)
  .map((f) => ({ file: path.relative(path.resolve(SRC, ".."), f).split(path.sep).join("/"), text: readFileSync(f, "utf8") }));

const groupOf = (code: number) => GROUPS.find((g) => g.ranges.some(([lo, hi]) => code >= lo && code <= hi));
const where = (code: number) => {
  const g = groupOf(code);
  return g ? `${g.name} (${g.ranges.map(([lo, hi]) => `KL${lo}–${hi}`).join(", ")})` : "the group whose range it is in (the list at the top of the file)";
};

test("every code written in src/ is in the table of src/diagnostics/codes.ts", () => {
  const known = new Set(GROUPS.flatMap((g) => Object.values(g.table).map((e) => e.code as string)));
  const missing: string[] = [];
  for (const { file, text } of files) {
    for (const [code] of text.matchAll(/\bKL\d{4}\b/g)) {
      if (known.has(code)) continue;
      missing.push(`${file} uses ${code}: add \`someName: { code: "${code}", meaning: "…" }\` to ${where(Number(code.slice(2)))} in src/diagnostics/codes.ts, ${REFRESH}`);
      known.add(code);
    }
  }
  assert.deepEqual(missing, []);
});

test("every code of the table is used somewhere in src/", () => {
  const unused: string[] = [];
  for (const g of GROUPS) {
    for (const [name, { code }] of Object.entries(g.table)) {
      const pattern = g.namedAs(name);
      if (!files.some(({ text }) => text.includes(code) || pattern.test(text))) unused.push(`${g.name}.${name} (${code}) is not used in src/: use it, or take it out of src/diagnostics/codes.ts (its number stays retired)`);
    }
  }
  assert.deepEqual(unused, []);
});

test("no code has two entries, and each is in its group's range", () => {
  const seen = new Map<string, string>();
  const wrong: string[] = [];
  for (const g of GROUPS) {
    for (const [name, { code, meaning }] of Object.entries(g.table)) {
      const label = `${g.name}.${name}`;
      if (seen.has(code)) wrong.push(`${code} is both ${seen.get(code)} and ${label}`);
      seen.set(code, label);
      if (!g.ranges.some(([lo, hi]) => Number(code.slice(2)) >= lo && Number(code.slice(2)) <= hi)) wrong.push(`${label} is ${code}, outside ${g.name}'s range: it belongs in ${where(Number(code.slice(2)))}`);
      if (meaning.trim().length < 10) wrong.push(`${label} needs a meaning: a sentence saying what the code is about`);
    }
  }
  assert.deepEqual(wrong, []);
  assert.equal(CODE_GROUPS.length, GROUPS.length, "a group of src/diagnostics/codes.ts is missing from this test's GROUPS");
});

test("docs/ERRORS.md is generated from the table", () => {
  assert.equal(readFileSync(ERRORS_FILE, "utf8"), errorsMarkdown(), `docs/ERRORS.md is stale: ${REFRESH.replace("then ", "")}`);
});

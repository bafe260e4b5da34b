// The folders follow the data's path (docs/ARCHITECTURE.md): a file may import from its own stage
// or an earlier one, never from a later one, and never from a sibling of the same rank.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";

const SRC = path.resolve(__dirname, "../../src");

// Rank of each stage; stages of equal rank are siblings that must not import each other.
const RANK: Record<string, number> = {
  diagnostics: 0,
  // The course's data and hidden references: the language module hands them to kernel files.
  exercises: 0,
  ir: 1,
  language: 1,
  syntax: 2,
  semantics: 3,
  codegen: 4,
  interpreter: 4,
  runtime: 5,
  builtins: 5,
  inspect: 5,
  compile: 6,
  // Triton's Python kernels: lowered to the TypeScript kernel language, then compile.ts.
  python: 6.5,
  harness: 7,
  cli: 8,
  editor: 8,
};

function stageOf(file: string): string {
  const [first] = path.relative(SRC, file).split(path.sep);
  return first.replace(/\.ts$/, "");
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : name.endsWith(".ts") ? [full] : [];
  });
}

test("every stage of src/ has a rank", () => {
  const stages = new Set(sources(SRC).map(stageOf));
  assert.deepEqual([...stages].filter((s) => !(s in RANK)), []);
});

test("no file imports from a later stage, or from a sibling stage", () => {
  const wrong: string[] = [];
  for (const file of sources(SRC)) {
    const from = stageOf(file);
    for (const m of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = path.resolve(path.dirname(file), m[1]);
      if (!target.startsWith(SRC + path.sep)) continue; // package.json and the like
      const to = stageOf(target);
      if (to === from) continue;
      if (RANK[to] >= RANK[from]) wrong.push(`${path.relative(SRC, file)} imports ${m[1]} (${from} → ${to})`);
    }
  }
  assert.deepEqual(wrong, []);
});

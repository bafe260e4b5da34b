// The folders follow the data's path (docs/ARCHITECTURE.md): a file may import from its own stage
// or an earlier one, never from a later one, and never from a sibling of the same rank.

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import ts from "typescript";

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

// Within a stage files may import each other, but not in a circle: a circle means no file of it
// can be read, tested or moved without the others (issue 30). Checked where the knots were.
const ACYCLIC = ["harness", "codegen"];

/** Relative imports of a file (type-only ones and re-exports too), resolved to .ts files. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  return info.importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const base = path.resolve(path.dirname(file), fileName);
    const found = [`${base}.ts`, path.join(base, "index.ts"), base].find((f) => existsSync(f) && statSync(f).isFile());
    return found ? [found] : [];
  });
}

/** Every circle of the graph, one per strongly connected component: its files, in import order. */
function circles(files: string[]): string[][] {
  const within = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => within.has(t))]));
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || edges.get(v)!.includes(v)) found.push(pathThrough(v, new Set(component), edges));
  };
  for (const f of files) if (!index.has(f)) visit(f);
  return found;
}

/** One circle through `start` inside its component (breadth-first, so the shortest), as file names. */
function pathThrough(start: string, component: Set<string>, edges: Map<string, string[]>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of edges.get(v)!) {
      if (!component.has(w)) continue;
      if (w === start) {
        const circle = [v];
        while (circle[0] !== start) circle.unshift(cameFrom.get(circle[0])!);
        return [...circle, start].map((f) => path.relative(SRC, f));
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [path.relative(SRC, start)];
}

test("no circle of imports between files of src/harness or src/codegen", () => {
  const files = sources(SRC).filter((f) => ACYCLIC.includes(stageOf(f)));
  const found = circles(files).map((c) => c.join(" → "));
  assert.deepEqual(found, [], "circles of imports (type-only imports count too)");
});

test("the circle finder finds a circle", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "kl-circles-"));
  try {
    writeFileSync(path.join(dir, "a.ts"), `import { b } from "./b";\nexport const a = 1;\n`);
    writeFileSync(path.join(dir, "b.ts"), `import type { C } from "./c";\nexport const b = 2;\n`);
    writeFileSync(path.join(dir, "c.ts"), `export * from "./a";\nexport type C = number;\n`);
    writeFileSync(path.join(dir, "d.ts"), `import { a } from "./a";\n`);
    const found = circles(["a", "b", "c", "d"].map((n) => path.join(dir, `${n}.ts`)));
    assert.equal(found.length, 1);
    assert.deepEqual(found[0].map((f) => path.basename(f)).sort(), ["a.ts", "a.ts", "b.ts", "c.ts"].sort());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

#!/usr/bin/env node
// Lists the functions, methods and arrow functions longer than a limit in the .ts files of a
// folder: `node scripts/long-functions.mjs src/harness [--max 80]`. Exits 1 when it finds any.

import { readdirSync, readFileSync, statSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const args = process.argv.slice(2);
const maxAt = args.indexOf("--max");
const max = maxAt >= 0 ? Number(args.splice(maxAt, 2)[1]) : 80;
const roots = args.length > 0 ? args : ["src"];

function* tsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* tsFiles(full);
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) yield full;
  }
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return "(anonymous)";
}

const found = [];
for (const root of roots) {
  for (const file of statSync(root).isDirectory() ? tsFiles(root) : [root]) {
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line + 1;
        const lines = end - start + 1;
        if (lines > max) found.push({ file, start, lines, name: nameOf(node) });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
}
found.sort((a, b) => b.lines - a.lines);
for (const f of found) console.log(`${f.file}:${f.start}  ${f.name}  ${f.lines} lines`);
console.log(found.length === 0 ? `no function over ${max} lines in ${roots.join(", ")}` : `${found.length} function(s) over ${max} lines`);
process.exit(found.length === 0 ? 0 : 1);

// Every tl.* function declared for kernel authors (types/kernel-lab.d.ts) is implemented in all
// three stages: the semantics table has an entry for it, and each IR op that entry declares it
// produces is in the code generator's tables and in the interpreter's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { INTRINSICS, intrinsicNamed } from "../../src/semantics/intrinsics";
import { WGSL_OPS } from "../../src/codegen/wgsl";
import { INTERPRETED_OPS } from "../../src/interpreter/interpret";

const DECLARATIONS = join(__dirname, "..", "..", "types", "kernel-lab.d.ts");

/** The names of the members of `namespace tl` in the declarations file. */
function declaredTlMembers(): string[] {
  const sf = ts.createSourceFile(DECLARATIONS, readFileSync(DECLARATIONS, "utf8"), ts.ScriptTarget.Latest, true);
  const names = new Set<string>();
  for (const statement of sf.statements) {
    if (!ts.isModuleDeclaration(statement) || statement.name.getText(sf) !== "tl" || !statement.body || !ts.isModuleBlock(statement.body)) continue;
    for (const member of statement.body.statements) {
      if (ts.isFunctionDeclaration(member) && member.name) names.add(member.name.text);
      else if (ts.isVariableStatement(member)) member.declarationList.declarations.forEach((d) => names.add(d.name.getText(sf)));
    }
  }
  return [...names];
}

const declared = declaredTlMembers();

test("the declarations file declares tl.* functions", () => {
  assert.ok(declared.length >= 30, `found only ${declared.length} members of namespace tl in ${DECLARATIONS}`);
});

test("every tl.* function in types/kernel-lab.d.ts has a semantics entry", () => {
  assert.deepEqual(declared.filter((name) => !intrinsicNamed(name)), []);
});

test("every semantics entry is declared in types/kernel-lab.d.ts", () => {
  assert.deepEqual(Object.keys(INTRINSICS).filter((name) => !declared.includes(name)), []);
});

test("every IR op an intrinsic produces has WGSL and an interpretation", () => {
  const missing: string[] = [];
  for (const [name, intrinsic] of Object.entries(INTRINSICS)) {
    assert.ok(intrinsic.produces.length > 0, `tl.${name} declares no IR ops`);
    for (const op of intrinsic.produces) {
      if (!WGSL_OPS.has(op)) missing.push(`tl.${name}: ${op} has no entry in codegen's tables`);
      if (!INTERPRETED_OPS.has(op)) missing.push(`tl.${name}: ${op} has no entry in the interpreter's tables`);
    }
  }
  assert.deepEqual(missing, []);
});

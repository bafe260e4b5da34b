// Every tl.* function declared for kernel authors (types/kernel-lab.d.ts) is implemented in all
// three stages: the semantics table has an entry for it, and each IR op that entry declares it
// produces is in the code generator's tables and in the interpreter's.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { INTRINSICS, intrinsicNamed } from "../../src/semantics/intrinsics";
import { isTritonDtypeName } from "../../src/semantics/dtypes";
import { TL_CLASSES } from "../../src/semantics/tensor-descriptors";
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
  // Dtypes (tl.float32 …) are values, not functions (semantics/dtypes.ts); tl.tensorDescriptor a class for instanceof.
  assert.deepEqual(declared.filter((name) => !intrinsicNamed(name) && !isTritonDtypeName(name) && !TL_CLASSES.includes(name)), []);
});

test("every semantics entry is declared in types/kernel-lab.d.ts", () => {
  assert.deepEqual(Object.keys(INTRINSICS).filter((name) => !declared.includes(name)), []);
});

test("every IR op an intrinsic produces has WGSL and an interpretation", () => {
  const missing: string[] = [];
  for (const [name, intrinsic] of Object.entries(INTRINSICS)) {
    // Hints and compile-time checks emit nothing of their own (intrinsics-produce.test.ts checks each list).
    assert.ok(intrinsic.produces.length > 0 || ["multipleOf", "maxContiguous", "maxConstancy", "assume", "staticAssert", "staticPrint", "constexpr"].includes(name), `tl.${name} declares no IR ops`);
    for (const op of intrinsic.produces) {
      if (!WGSL_OPS.has(op)) missing.push(`tl.${name}: ${op} has no entry in codegen's tables`);
      if (!INTERPRETED_OPS.has(op)) missing.push(`tl.${name}: ${op} has no entry in the interpreter's tables`);
    }
  }
  assert.deepEqual(missing, []);
});

/** Each declaration scope's statements (the file's top level, `namespace tl`): name → indices and signature texts. */
function declarationsByName(statements: readonly ts.Statement[], sf: ts.SourceFile): Map<string, { index: number; signature: string }[]> {
  const byName = new Map<string, { index: number; signature: string }[]>();
  statements.forEach((s, index) => {
    const name = ts.isFunctionDeclaration(s) ? s.name?.text : ts.isVariableStatement(s) ? s.declarationList.declarations.map((d) => d.name.getText(sf)).join(",") : undefined;
    if (!name) return;
    // The declaration without its doc comment, whitespace normalised.
    const signature = s.getText(sf).replace(/\s+/g, " ");
    byName.set(name, [...(byName.get(name) ?? []), { index, signature }]);
  });
  return byName;
}

test("types/kernel-lab.d.ts declares nothing twice: overloads of a name are adjacent and differ", () => {
  const sf = ts.createSourceFile(DECLARATIONS, readFileSync(DECLARATIONS, "utf8"), ts.ScriptTarget.Latest, true);
  const scopes: [string, readonly ts.Statement[]][] = [["the file", sf.statements]];
  for (const s of sf.statements) {
    if (ts.isModuleDeclaration(s) && s.body && ts.isModuleBlock(s.body)) scopes.push([`namespace ${s.name.getText(sf)}`, s.body.statements]);
  }
  const twice: string[] = [];
  for (const [scope, statements] of scopes) {
    for (const [name, declarations] of declarationsByName(statements, sf)) {
      const indices = declarations.map((d) => d.index);
      if (indices.some((i, k) => k > 0 && i !== indices[k - 1] + 1)) twice.push(`${scope}: '${name}' is declared in ${declarations.length} places that are not one overload group`);
      const signatures = declarations.map((d) => d.signature);
      if (new Set(signatures).size !== signatures.length) twice.push(`${scope}: '${name}' has the same signature twice`);
    }
  }
  assert.deepEqual(twice, []);
});

// The workspace copy of Kernel Lab's types (editor/ambient-types.ts): TypeScript itself, given only
// that file and an example kernel file, resolves `kernel-lab` and reports no error.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { ambientTypes, MINIMAL_TSCONFIG, WRITTEN_BY } from "../../src/editor/ambient-types";

const root = path.resolve(__dirname, "../..");

function typeErrors(files: Record<string, string>, options: ts.CompilerOptions): string[] {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => files[name] ?? read(name);
  host.fileExists = (name) => name in files || ts.sys.fileExists(name);
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

test("an example kernel type-checks against the workspace copy of the types, with the tsconfig Kernel Lab writes", () => {
  const text = ambientTypes(readFileSync(path.join(root, "types/kernel-lab.d.ts"), "utf8"), "0.1.0");
  assert.ok(text.startsWith(`${WRITTEN_BY}\n`));
  const options = ts.convertCompilerOptionsFromJson(JSON.parse(MINIMAL_TSCONFIG).compilerOptions, "/ws").options;
  for (const example of ["vector-add", "softmax", "matmul", "attention"]) {
    const kernel = readFileSync(path.join(root, `examples/${example}.kernel.ts`), "utf8");
    assert.deepEqual(typeErrors({ "/ws/kernel-lab.d.ts": text, [`/ws/${example}.kernel.ts`]: kernel }, { ...options, types: [] }), [], example);
  }
});

test("without the workspace copy, the same check fails on the import (so the test above means something)", () => {
  const kernel = readFileSync(path.join(root, "examples/vector-add.kernel.ts"), "utf8");
  const errors = typeErrors({ "/ws/vector-add.kernel.ts": kernel }, { strict: true, noEmit: true, types: [], moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext });
  assert.ok(errors.some((e) => e.includes("Cannot find module 'kernel-lab'")), errors.join("\n"));
});

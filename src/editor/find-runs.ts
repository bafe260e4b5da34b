// The runs a kernel file exports, found syntactically (no code of the file runs in the editor):
// `export const NAME = defineRun({ … })`, named by a literal `name:` field, else by the export.
// Used for the Run Kernel quick pick, the CodeLens above each run and the Testing view's items.

import type * as ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";

export interface RunDeclaration {
  /** The name the harness reports and `--run` takes. */
  name: string;
  /** The `defineRun(…)` call. */
  span: Span;
  /** The number of problem sizes, where `sizes` is an array literal. */
  sizeCount?: number;
  /** Each size with its literal, where every element of `sizes` is a number literal. */
  sizes?: SizeLiteral[];
  /** The identifier the `kernel:` field names, where it is one. */
  kernelName?: string;
}

export interface SizeLiteral {
  value: number;
  span: Span;
}

let typescript: typeof ts | undefined;

export function findRuns(fileName: string, text: string): RunDeclaration[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  typescript ??= require("typescript") as typeof ts;
  const t = typescript;
  const sourceFile = t.createSourceFile(fileName, text, t.ScriptTarget.Latest, false, t.ScriptKind.TS);
  const defineRunNames = localNamesOf(t, sourceFile, "defineRun");
  const runs: RunDeclaration[] = [];
  for (const statement of sourceFile.statements) {
    if (!t.isVariableStatement(statement)) continue;
    const exported = statement.modifiers?.some((m) => m.kind === t.SyntaxKind.ExportKeyword) ?? false;
    if (!exported) continue;
    for (const declaration of statement.declarationList.declarations) {
      const call = declaration.initializer;
      if (!call || !t.isCallExpression(call) || !t.isIdentifier(declaration.name)) continue;
      if (!isDefineRunCallee(t, call.expression, defineRunNames)) continue;
      const definition = call.arguments[0];
      const fields = definition && t.isObjectLiteralExpression(definition) ? definition : undefined;
      const literalName = fields && stringField(t, fields, "name");
      const sizes = fields && field(t, fields, "sizes");
      const kernelField = fields && field(t, fields, "kernel");
      const literals = sizes && t.isArrayLiteralExpression(sizes) ? sizeLiterals(t, sourceFile, sizes) : undefined;
      runs.push({
        name: literalName ?? declaration.name.text,
        span: { start: call.getStart(sourceFile), end: call.getEnd() },
        ...(sizes && t.isArrayLiteralExpression(sizes) ? { sizeCount: sizes.elements.length } : {}),
        ...(literals ? { sizes: literals } : {}),
        ...(kernelField && t.isIdentifier(kernelField) ? { kernelName: kernelField.text } : {}),
      });
    }
  }
  return runs;
}

/** `defineRun` under the names the file imports it as (plain `defineRun` when the file imports nothing from kernel-lab). */
function localNamesOf(t: typeof ts, sourceFile: ts.SourceFile, exported: string): Set<string> {
  const names = new Set<string>();
  let importsPackage = false;
  for (const statement of sourceFile.statements) {
    if (!t.isImportDeclaration(statement) || !t.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== "kernel-lab") continue;
    importsPackage = true;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && t.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if ((element.propertyName ?? element.name).text === exported) names.add(element.name.text);
      }
    } else if (bindings && t.isNamespaceImport(bindings)) {
      names.add(`${bindings.name.text}.${exported}`);
    }
  }
  if (!importsPackage) names.add(exported);
  return names;
}

function isDefineRunCallee(t: typeof ts, callee: ts.Expression, names: Set<string>): boolean {
  if (t.isIdentifier(callee)) return names.has(callee.text);
  if (t.isPropertyAccessExpression(callee) && t.isIdentifier(callee.expression)) {
    return names.has(`${callee.expression.text}.${callee.name.text}`);
  }
  return false;
}

/** The sizes of an array of number literals (`[10_000, 98432]`); undefined if any element is not one. */
function sizeLiterals(t: typeof ts, sourceFile: ts.SourceFile, array: ts.ArrayLiteralExpression): SizeLiteral[] | undefined {
  const literals: SizeLiteral[] = [];
  for (const element of array.elements) {
    if (!t.isNumericLiteral(element)) return undefined;
    literals.push({ value: Number(element.text.replace(/_/g, "")), span: { start: element.getStart(sourceFile), end: element.getEnd() } });
  }
  return literals;
}

function field(t: typeof ts, object: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const property of object.properties) {
    if (t.isPropertyAssignment(property) && propertyName(t, property.name) === name) return property.initializer;
  }
  return undefined;
}

function stringField(t: typeof ts, object: ts.ObjectLiteralExpression, name: string): string | undefined {
  const value = field(t, object, name);
  return value && (t.isStringLiteral(value) || t.isNoSubstitutionTemplateLiteral(value)) && value.text !== "" ? value.text : undefined;
}

function propertyName(t: typeof ts, name: ts.PropertyName): string | undefined {
  return t.isIdentifier(name) || t.isStringLiteral(name) ? name.text : undefined;
}

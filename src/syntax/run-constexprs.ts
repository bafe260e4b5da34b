// The constexpr values a `defineRun` call states literally (its `constexprs`, each of its
// `configs` merged over them, and each launch of `launches`), read from the text without running
// the file: what `kernel-lab check` and the editor compile each kernel with. A value may be a
// number, arithmetic on numbers, or the name of a module-level `const` holding one.
import ts from "typescript";

/** Module-level `const NAME = <number>` declarations, in order (a later one may use an earlier). */
export type Constants = ReadonlyMap<string, number>;

export function moduleConstants(sourceFile: ts.SourceFile): Constants {
  const constants = new Map<string, number>();
  for (const statement of sourceFile.statements) {
    if (!ts.isVariableStatement(statement) || !(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || !decl.initializer) continue;
      const value = literalNumber(decl.initializer, constants);
      if (value !== undefined) constants.set(decl.name.text, value);
    }
  }
  return constants;
}

export function readLiteralConstexprs(
  call: ts.CallExpression,
  kernelByVariable: ReadonlyMap<string, string>,
  constants: Constants,
): { kernel: string; variants: Record<string, number>[] }[] {
  const def = call.arguments[0];
  if (!def || !ts.isObjectLiteralExpression(def)) return [];
  const found = readRunObject(def, kernelByVariable, constants);
  // A run with several launches: each `{ kernel, constexprs }` of `launches: [...]` (harness/launches.ts).
  const launches = def.properties.find((p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === "launches");
  const elements = launches && ts.isPropertyAssignment(launches) && ts.isArrayLiteralExpression(launches.initializer) ? launches.initializer.elements : [];
  const fromLaunches = elements.flatMap((e) => (ts.isObjectLiteralExpression(e) ? [readRunObject(e, kernelByVariable, constants)] : []));
  return [found, ...fromLaunches].filter((f): f is { kernel: string; variants: Record<string, number>[] } => f !== undefined);
}

function readRunObject(
  def: ts.ObjectLiteralExpression,
  kernelByVariable: ReadonlyMap<string, string>,
  constants: Constants,
): { kernel: string; variants: Record<string, number>[] } | undefined {
  let kernel: string | undefined;
  let base: Record<string, number> | undefined;
  const configs: Record<string, number>[] = [];
  for (const prop of def.properties) {
    if (!ts.isPropertyAssignment(prop) && !ts.isShorthandPropertyAssignment(prop)) continue;
    const key = prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name)) ? prop.name.text : undefined;
    if (key === "kernel") {
      const value = ts.isPropertyAssignment(prop) ? prop.initializer : prop.name;
      if (ts.isIdentifier(value)) kernel = kernelByVariable.get(value.text) ?? value.text;
    } else if (key === "constexprs" && ts.isPropertyAssignment(prop)) {
      base = literalNumbers(prop.initializer, constants);
    } else if (key === "configs" && ts.isPropertyAssignment(prop) && ts.isArrayLiteralExpression(prop.initializer)) {
      for (const element of prop.initializer.elements) {
        const values = literalNumbers(element, constants);
        if (values) configs.push(values);
      }
    }
  }
  // Each autotuning config is merged over the run's constexprs, as the harness runs it.
  const variants = configs.length > 0 ? configs.map((c) => ({ ...base, ...c })) : base ? [base] : [];
  return kernel ? { kernel, variants } : undefined;
}

function literalNumbers(node: ts.Expression, constants: Constants): Record<string, number> | undefined {
  if (!ts.isObjectLiteralExpression(node)) return undefined;
  const values: Record<string, number> = {};
  for (const prop of node.properties) {
    // `{ BLOCK_K }` names a module-level `const BLOCK_K = 16`.
    const v = ts.isShorthandPropertyAssignment(prop)
      ? constants.get(prop.name.text)
      : ts.isPropertyAssignment(prop) && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name))
        ? literalNumber(prop.initializer, constants)
        : undefined;
    if (v !== undefined && prop.name && (ts.isIdentifier(prop.name) || ts.isStringLiteral(prop.name))) values[prop.name.text] = v;
  }
  return values;
}

function literalNumber(node: ts.Expression, constants: Constants): number | undefined {
  if (ts.isIdentifier(node)) return constants.get(node.text);
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return -Number(node.operand.text);
  }
  if (ts.isBinaryExpression(node)) {
    const a = literalNumber(node.left, constants);
    const b = literalNumber(node.right, constants);
    if (a === undefined || b === undefined) return undefined;
    switch (node.operatorToken.kind) {
      case ts.SyntaxKind.AsteriskToken: return a * b;
      case ts.SyntaxKind.PlusToken: return a + b;
      case ts.SyntaxKind.MinusToken: return a - b;
      case ts.SyntaxKind.LessThanLessThanToken: return a << b;
      case ts.SyntaxKind.AsteriskAsteriskToken: return a ** b;
      default: return undefined;
    }
  }
  if (ts.isParenthesizedExpression(node)) return literalNumber(node.expression, constants);
  return undefined;
}

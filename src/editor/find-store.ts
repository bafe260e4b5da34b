// Where a kernel writes an output, found syntactically: the `tl.store(…)` calls in the kernel's
// body whose pointer comes from the output's parameter (directly or through `const`/`let`
// bindings). The Testing view puts a mismatch there when the run's report does not say which
// store wrote the element.

import type * as ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";

let typescript: typeof ts | undefined;

/**
 * The stores to `output` in the kernel bound to `kernelName` (`const kernelName = kernel(…)`),
 * in source order; empty when the kernel or its stores can't be found.
 */
export function findStores(fileName: string, text: string, kernelName: string, output: string): Span[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  typescript ??= require("typescript") as typeof ts;
  const t = typescript;
  const sourceFile = t.createSourceFile(fileName, text, t.ScriptTarget.Latest, false, t.ScriptKind.TS);
  const body = kernelBody(t, sourceFile, kernelName);
  if (!body) return [];

  // Names whose value is derived from the output pointer, in source order (a pointer variable is
  // defined before it is stored through).
  const derived = new Set([output]);
  const stores: Span[] = [];
  const mentionsDerived = (node: ts.Node): boolean => {
    if (t.isIdentifier(node)) return derived.has(node.text);
    return t.forEachChild(node, (child) => (mentionsDerived(child) ? true : undefined)) ?? false;
  };
  const visit = (node: ts.Node): void => {
    if (t.isVariableDeclaration(node) && t.isIdentifier(node.name) && node.initializer && mentionsDerived(node.initializer)) {
      derived.add(node.name.text);
    } else if (
      t.isBinaryExpression(node) &&
      t.isIdentifier(node.left) &&
      node.operatorToken.kind >= t.SyntaxKind.FirstAssignment &&
      node.operatorToken.kind <= t.SyntaxKind.LastAssignment &&
      mentionsDerived(node.right)
    ) {
      derived.add(node.left.text);
    } else if (isStoreCall(t, node) && node.arguments[0] && mentionsDerived(node.arguments[0])) {
      stores.push({ start: node.getStart(sourceFile), end: node.getEnd() });
    }
    t.forEachChild(node, visit);
  };
  visit(body);
  return stores;
}

function isStoreCall(t: typeof ts, node: ts.Node): node is ts.CallExpression {
  if (!t.isCallExpression(node)) return false;
  const callee = node.expression;
  return t.isPropertyAccessExpression(callee) && t.isIdentifier(callee.expression) && callee.expression.text === "tl" && callee.name.text === "store";
}

/** The body of `kernel(function …)` / `kernel((…) => …)` assigned to `kernelName`. */
function kernelBody(t: typeof ts, sourceFile: ts.SourceFile, kernelName: string): ts.Node | undefined {
  for (const statement of sourceFile.statements) {
    if (!t.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (!t.isIdentifier(declaration.name) || declaration.name.text !== kernelName) continue;
      const call = declaration.initializer;
      if (!call || !t.isCallExpression(call)) continue;
      const fn = call.arguments[0];
      if (fn && (t.isFunctionExpression(fn) || t.isArrowFunction(fn))) return fn.body;
    }
  }
  return undefined;
}

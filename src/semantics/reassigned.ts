// Which of a function's parameters it reassigns inside a loop or a branch. Such a parameter is a
// variable from the start of the function (its value depends on the path taken, as a `let`'s
// does); one reassigned only in straight-line code is simply rebound to each new value
// (assignment.ts). A tl.staticRange loop is unrolled at compile time, so it is straight-line code.

import ts from "typescript";

export function parametersReassignedInControlFlow(body: ts.ConciseBody, names: ReadonlySet<string>, tlNames: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const visit = (node: ts.Node, nested: boolean): void => {
    // A nested function (a combine function's arrow) has parameters of its own.
    if (ts.isFunctionLike(node)) return;
    if (nested) for (const name of assignedNames(node)) if (names.has(name)) found.add(name);
    const inside = nested || isControlFlow(node, tlNames);
    ts.forEachChild(node, (child) => visit(child, inside && child !== conditionOf(node)));
  };
  ts.forEachChild(body, (child) => visit(child, false));
  return found;
}

/** A statement whose body may run zero or several times, or not at all: its condition excepted. */
function isControlFlow(node: ts.Node, tlNames: ReadonlySet<string>): boolean {
  if (ts.isIfStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) || ts.isForStatement(node) || ts.isConditionalExpression(node)) return true;
  if (ts.isForOfStatement(node)) return !isStaticRange(node.expression, tlNames);
  return false;
}

/** The part of a control-flow node that runs exactly once where the node does (an if's condition). */
function conditionOf(node: ts.Node): ts.Node | undefined {
  if (ts.isIfStatement(node)) return node.expression;
  if (ts.isForOfStatement(node)) return node.expression;
  if (ts.isConditionalExpression(node)) return node.condition;
  return undefined;
}

function isStaticRange(e: ts.Expression, tlNames: ReadonlySet<string>): boolean {
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && ts.isIdentifier(e.expression.expression) && tlNames.has(e.expression.expression.text) && e.expression.name.text === "staticRange";
}

/** The names a node assigns itself (`x = …`, `x += …`, `x++`, `[x, y] = …`). */
function assignedNames(node: ts.Node): string[] {
  if (ts.isBinaryExpression(node) && node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && node.operatorToken.kind <= ts.SyntaxKind.LastAssignment) return targetNames(node.left);
  if ((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) && (node.operator === ts.SyntaxKind.PlusPlusToken || node.operator === ts.SyntaxKind.MinusMinusToken)) return targetNames(node.operand);
  return [];
}

function targetNames(target: ts.Expression): string[] {
  if (ts.isIdentifier(target)) return [target.text];
  if (ts.isParenthesizedExpression(target)) return targetNames(target.expression);
  if (ts.isArrayLiteralExpression(target)) return target.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : targetNames(ts.isSpreadElement(e) ? e.expression : e)));
  return [];
}

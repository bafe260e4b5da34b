// The fix of a tl.arange whose length is not a power of two (KL2002): round it up to the next
// power of two and mask the lanes that are extra, so the kernel touches the elements it did.
// - tl.arange(a, b) with literal bounds: b becomes a + 2^k; where its block is bound by a
//   `const x = …` declaration, a `const x_mask = tl.arange(a, a + 2^k) < b;` follows it and every
//   tl.load/tl.store whose pointer adds x (1-D: not through tl.expandDims and the like) takes that
//   mask (alone, or && its own); inside a load's or store's pointer, that load or store takes it.
// - tl.arange(0, BLOCK) with BLOCK a constexpr: the literal value in the file's defineRun is set
//   to 2^k (the grid follows it; the kernel's own `offsets < n` masks cover the tail).
// Anything else gets no fix: only the message.

import ts from "typescript";
import type { DiagnosticFix, TextEdit } from "../diagnostics/diagnostic";
import type { IntrinsicContext } from "./intrinsic-args";

export function arangeFixes(ctx: IntrinsicContext, call: ts.CallExpression, start: number, end: number, wide: number): DiagnosticFix[] {
  const [startArg, endArg] = call.arguments;
  if (ts.isNumericLiteral(startArg) && ts.isNumericLiteral(endArg)) return literalFix(ctx, call, start, end, wide);
  if (start === 0 && ts.isNumericLiteral(startArg) && ts.isIdentifier(endArg) && ctx.kernel.params.some((p) => p.kind === "constexpr" && p.name === endArg.text)) {
    return constexprFix(ctx, endArg.text, end, wide);
  }
  return [];
}

function literalFix(ctx: IntrinsicContext, call: ts.CallExpression, start: number, end: number, wide: number): DiagnosticFix[] {
  const sf = ctx.sf;
  const tlName = ts.isPropertyAccessExpression(call.expression) ? call.expression.expression.getText(sf) : "tl";
  const widened: TextEdit = { span: spanOf(call.arguments[1], sf), text: String(start + wide) };
  const title = `Use ${tlName}.arange(${start}, ${start + wide}) and mask the ${wide - (end - start)} extra lanes`;
  const laneMask = `${tlName}.arange(${start}, ${start + wide}) < ${end}`;

  // Where the block goes: a const's initializer, or straight into a load's or store's pointer.
  let node: ts.Node = call;
  while (node.parent && (ts.isBinaryExpression(node.parent) || ts.isParenthesizedExpression(node.parent))) node = node.parent;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isIdentifier(parent.name)) {
    const list = parent.parent;
    const statement = list?.parent;
    if (!ts.isVariableDeclarationList(list) || (list.flags & ts.NodeFlags.Const) === 0 || !statement || !ts.isVariableStatement(statement)) return [];
    const name = parent.name.text;
    const accesses = accessesUsing(ctx.kernel.fn, name, ctx.kernel.tlNames);
    if (!accesses) return [];
    const maskName = freshName(`${name}_mask`, ctx.kernel.fn.getText(sf));
    const direct = skipParens(node) === call && start === 0;
    const indent = /^[ \t]*/.exec(sf.text.slice(sf.text.lastIndexOf("\n", statement.getStart(sf)) + 1))?.[0] ?? "  ";
    const declaration: TextEdit = { span: { start: statement.end, end: statement.end }, text: `\n${indent}const ${maskName} = ${direct ? `${name} < ${end}` : laneMask};` };
    return [{ title, edits: [widened, declaration, ...accesses.flatMap((a) => maskEdits(a, maskName, sf))], preferred: true }];
  }
  if (parent && ts.isCallExpression(parent) && isAccess(parent, ctx.kernel.tlNames) && parent.arguments[0] === node) {
    return [{ title, edits: [widened, ...maskEdits(parent, laneMask, sf)], preferred: true }];
  }
  return [];
}

/** Sets the constexpr's literal value in each defineRun of this kernel that gives it `value`. */
function constexprFix(ctx: IntrinsicContext, constexpr: string, value: number, wide: number): DiagnosticFix[] {
  const edits: TextEdit[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && property(node, "kernel", (k) => ts.isIdentifier(k) && k.text === ctx.kernel.name)) {
      const objects = [property(node, "constexprs"), ...elements(property(node, "configs"))];
      for (const object of objects) {
        const literal = object && ts.isObjectLiteralExpression(object) ? property(object, constexpr) : undefined;
        if (literal && ts.isNumericLiteral(literal) && Number(literal.text) === value) edits.push({ span: spanOf(literal, ctx.sf), text: String(wide) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(ctx.sf);
  return edits.length > 0 ? [{ title: `Set ${constexpr} to ${wide} (a power of two) in defineRun`, edits, preferred: true }] : [];
}

/** The tl.load/tl.store calls whose pointer adds `name` as a 1-D offset; undefined if any uses it otherwise (a 1-D mask wouldn't fit). */
function accessesUsing(fn: ts.Node, name: string, tlNames: ReadonlySet<string>): ts.CallExpression[] | undefined {
  const found: ts.CallExpression[] = [];
  let fits = true;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isAccess(node, tlNames) && node.arguments[0]) {
      const uses = identifiersNamed(node.arguments[0], name);
      if (uses.length > 0) {
        found.push(node);
        for (const use of uses) {
          for (let up: ts.Node = use; up !== node.arguments[0]; up = up.parent) {
            if (!ts.isBinaryExpression(up.parent) && !ts.isParenthesizedExpression(up.parent)) fits = false;
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(fn);
  return fits ? found : undefined;
}

/** The mask as the access's mask argument, or && its own. */
function maskEdits(access: ts.CallExpression, mask: string, sf: ts.SourceFile): TextEdit[] {
  const load = (access.expression as ts.PropertyAccessExpression).name.text === "load";
  const at = load ? 1 : 2;
  const own = access.arguments[at];
  if (!own) {
    const after = access.arguments[at - 1].end;
    return [{ span: { start: after, end: after }, text: `, ${mask}` }];
  }
  const text = own.getText(sf);
  const bare = ts.isIdentifier(own) || ts.isCallExpression(own) || (ts.isBinaryExpression(own) && own.operatorToken.kind !== ts.SyntaxKind.BarBarToken && own.operatorToken.kind !== ts.SyntaxKind.QuestionQuestionToken && own.operatorToken.kind !== ts.SyntaxKind.CommaToken);
  return [{ span: spanOf(own, sf), text: `${bare ? text : `(${text})`} && ${mask}` }];
}

function isAccess(call: ts.CallExpression, tlNames: ReadonlySet<string>): boolean {
  const callee = call.expression;
  return ts.isPropertyAccessExpression(callee) && (callee.name.text === "load" || callee.name.text === "store") && ts.isIdentifier(callee.expression) && tlNames.has(callee.expression.text);
}

function identifiersNamed(root: ts.Node, name: string): ts.Identifier[] {
  const found: ts.Identifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === name && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node)) found.push(node);
    ts.forEachChild(node, visit);
  };
  visit(root);
  return found;
}

function property(object: ts.ObjectLiteralExpression, name: string, test?: (value: ts.Expression) => boolean): ts.Expression | undefined {
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name && (!test || test(p.initializer))) return p.initializer;
  }
  return undefined;
}

function elements(node: ts.Expression | undefined): ts.Expression[] {
  return node && ts.isArrayLiteralExpression(node) ? [...node.elements] : [];
}

function skipParens(node: ts.Node): ts.Node {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  return node;
}

function freshName(wanted: string, text: string): string {
  let name = wanted;
  for (let i = 2; new RegExp(`\\b${name}\\b`).test(text); i++) name = `${wanted}${i}`;
  return name;
}

function spanOf(node: ts.Node, sf: ts.SourceFile): { start: number; end: number } {
  return { start: node.getStart(sf), end: node.end };
}

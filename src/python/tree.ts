// The Python syntax tree as Lezer's Python grammar gives it: small helpers to walk it by node
// name and read a node's text. Lezer's tree is concrete (keywords and punctuation are nodes too).

import { parser } from "@lezer/python";
import type { SyntaxNode, Tree } from "@lezer/common";
import type { Span } from "../diagnostics/diagnostic";

export type { SyntaxNode };

export function parsePython(text: string): Tree {
  return parser.parse(text);
}

export function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) if (c.name !== "Comment") out.push(c);
  return out;
}

export function spanOf(node: SyntaxNode): Span {
  return { start: node.from, end: node.to };
}

export function textOf(text: string, node: SyntaxNode): string {
  return text.slice(node.from, node.to);
}

/** Punctuation and keywords that separate the parts of a node, not parts themselves. */
const PUNCTUATION = new Set(["(", ")", "[", "]", "{", "}", ",", ":", ".", "At", "AssignOp"]);

/** The children that are parts (expressions, names), without punctuation. */
export function parts(node: SyntaxNode): SyntaxNode[] {
  return children(node).filter((c) => !PUNCTUATION.has(c.name));
}

/** The first syntax error in the tree, if any (Lezer recovers and marks errors with ⚠ nodes). */
export function firstError(tree: Tree, text: string): SyntaxNode | undefined {
  let found: SyntaxNode | undefined;
  tree.iterate({
    enter(n) {
      if (found) return false;
      if (n.type.isError && !(n.node.parent && trailingDotFloat(text, n.node.parent) !== undefined) && !bareYield(n.node)) {
        found = n.node;
        return false;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * A bare `yield` (a @contextmanager's, as Liger's `device_context` writes it): Lezer's Python grammar
 * wants a value after `yield` and marks an empty error there, but Python takes `yield` alone.
 */
function bareYield(error: SyntaxNode): boolean {
  const parent = error.parent;
  return error.from === error.to && (parent?.name === "YieldStatement" || parent?.name === "YieldExpression") && error.prevSibling?.name === "yield";
}

/**
 * A float written with a trailing dot (`0.`, `1.e5`), as Triton code often writes `other=0.`:
 * Lezer's Python grammar has no token for it and reads `0.` as an attribute access missing its
 * name. This recognises that shape and gives the literal's text; undefined for anything else.
 */
export function trailingDotFloat(text: string, node: SyntaxNode): string | undefined {
  if (node.name !== "MemberExpression") return undefined;
  const kids: SyntaxNode[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) kids.push(c);
  if (kids.length !== 3 || kids[0].name !== "Number" || kids[1].name !== "." || kids[1].from !== kids[0].to) return undefined;
  const digits = text.slice(kids[0].from, kids[0].to);
  if (!/^[\d_]+$/.test(digits)) return undefined;
  if (kids[2].type.isError && kids[2].from === kids[2].to) return `${digits}.`;
  const exponent = text.slice(kids[2].from, kids[2].to);
  if (kids[2].name === "PropertyName" && kids[2].from === kids[1].to && /^[eE]\d+$/.test(exponent)) return `${digits}.${exponent}`;
  return undefined;
}

/** A dotted name (`triton.language.extra`) as its parts, or undefined for anything else. */
export function dottedName(text: string, node: SyntaxNode): string[] | undefined {
  if (node.name === "VariableName") return [textOf(text, node)];
  if (node.name === "MemberExpression") {
    const kids = children(node);
    if (kids.length === 3 && kids[1].name === "." && kids[2].name === "PropertyName") {
      const left = dottedName(text, kids[0]);
      return left ? [...left, textOf(text, kids[2])] : undefined;
    }
  }
  return undefined;
}

/** The statements of a Body (an indented block or one simple statement after the colon). */
export function bodyStatements(body: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const c of children(body)) {
    if (c.name === ":") continue;
    if (c.name === "StatementGroup") out.push(...children(c).filter((s) => s.name !== ";"));
    else out.push(c);
  }
  return out;
}

/** A Python string literal's value, for the plain (non-f, non-bytes) strings kernels use. */
export function stringValue(text: string, node: SyntaxNode): string | undefined {
  if (node.name === "ContinuedString") {
    // Adjacent literals are one string in Python (FBGEMM's inline-asm `constraints=("=r,=r,=r,=r," "r")`).
    const values = children(node).map((part) => stringValue(text, part));
    return values.every((v) => v !== undefined) ? values.join("") : undefined;
  }
  if (node.name !== "String") return undefined;
  const raw = textOf(text, node);
  const m = /^([rRuU]?)('''|"""|'|")([\s\S]*)\2$/.exec(raw);
  if (!m) return undefined;
  const body = m[3];
  if (m[1] === "r" || m[1] === "R" || !body.includes("\\")) return body;
  try {
    return JSON.parse(`"${body.replace(/"/g, '\\"').replace(/\\'/g, "'")}"`) as string;
  } catch {
    return body;
  }
}

/** Every node under `node` (itself first), depth first; `enter` returning false skips a node's children. */
export function walk(node: SyntaxNode, enter: (n: SyntaxNode) => boolean | void): void {
  if (enter(node) === false) return;
  for (let c = node.firstChild; c; c = c.nextSibling) walk(c, enter);
}

/** The name a `def` statement binds. */
export function functionName(text: string, fn: SyntaxNode): string | undefined {
  const name = children(fn).find((c) => c.name === "VariableName");
  return name && textOf(text, name);
}

/** The module-level `def NAME(…)` of a file's tree, if any. */
export function moduleFunction(text: string, top: SyntaxNode, name: string): SyntaxNode | undefined {
  return children(top).find((s) => s.name === "FunctionDefinition" && functionName(text, s) === name);
}

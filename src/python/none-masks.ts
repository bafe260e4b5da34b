// The mask arguments of tl.load / tl.store, where None — written, or a name bound to None
// (none-names.ts) — means no mask. A keyword given None is left out (calls.ts); a positional one
// can't be (tl.load(p, None, 0.0) would shift `other` into its place), so it is written as True, an
// all-true mask, which loads or stores every lane as no mask does (`other` is never read). FlagGems'
// bmm: `mask_a = None` where the tile divides the matrix, then `tl.load(a_ptrs, mask_a)`.

import type { PythonImports } from "./module";
import { children, dottedName, textOf, walk, type SyntaxNode } from "./tree";

/** Where a mask goes in each call: its position among the positional arguments. */
const MASK_POSITION: Readonly<Record<string, number>> = { load: 1, store: 2 };

/** The start offsets of the function's positional mask arguments that are `None` or a plain name. */
export function noneMasks(text: string, body: SyntaxNode, imports: PythonImports): Set<number> {
  const found = new Set<number>();
  walk(body, (n) => {
    if (n.name === "CallExpression") for (const arg of maskArgs(text, n, imports)) found.add(arg.from);
    return undefined;
  });
  return found;
}

function maskArgs(text: string, call: SyntaxNode, imports: PythonImports): SyntaxNode[] {
  const [callee, argList] = children(call);
  const dotted = callee && dottedName(text, callee);
  if (!dotted || dotted.length !== 2 || !(imports.tl.has(dotted[0]) || (dotted[0] === "tl" && imports.tl.size === 0))) return [];
  const at = MASK_POSITION[dotted[1]];
  if (at === undefined || !argList) return [];
  const kids = children(argList).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  let position = 0;
  for (let i = 0; i < kids.length; i++) {
    if (kids[i].name === "VariableName" && kids[i + 1]?.name === "AssignOp") return []; // keywords come last
    if (position === at) return kids[i].name === "VariableName" || kids[i].name === "None" ? [kids[i]] : [];
    position++;
  }
  return [];
}

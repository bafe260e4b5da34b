// A name bound to None and used only as tl.load's / tl.store's mask (FlagGems' bmm: `mask_a = None`
// in the branch where the tile divides the matrix, then `tl.load(a_ptrs, mask_a)`): None there means
// no mask, which is what a mask of True does (every lane loads or stores; `other` is never read), so
// the None is written as True. Any other read of the name (`mask_a is None`, arithmetic, `other=`)
// leaves the None as it was: KL1101 at it.

import type { PythonImports } from "./module";
import { assignmentTargets, targetNames } from "./declarations";
import { children, dottedName, textOf, walk, type SyntaxNode } from "./tree";

/** Where a mask goes in each call: its position among the positional arguments. */
const MASK_POSITION: Readonly<Record<string, number>> = { load: 1, store: 2 };

/** The start offsets of the `None` literals, `name = None`, that may be written as an all-true mask. */
export function noneMasks(text: string, body: SyntaxNode, imports: PythonImports): Set<number> {
  const bound = new Map<string, number[]>(); // name → its `None` literals
  const targets = new Set<number>(); // names bound, and keywords' names: not reads
  const maskReads = new Set<number>();
  walk(body, (n) => {
    if (n.name === "AssignStatement") {
      const kids = children(n);
      const names = targetNames(text, assignmentTargets(n));
      for (const t of names) targets.add(t.from);
      const value = kids[kids.length - 1];
      if (names.length === 1 && kids.length === 3 && value.name === "None") {
        const name = textOf(text, names[0]);
        bound.set(name, [...(bound.get(name) ?? []), value.from]);
      }
    }
    if (n.name === "CallExpression") for (const arg of maskArgs(text, n, imports)) maskReads.add(arg.from);
    // A keyword's name (`mask=` in `tl.store(p, x, mask=m)`) is no read of a variable.
    if (n.name === "ArgList") {
      const kids = children(n);
      kids.forEach((k, i) => {
        if (k.name === "VariableName" && kids[i + 1]?.name === "AssignOp") targets.add(k.from);
      });
    }
    return undefined;
  });
  const allowed = new Set<number>();
  for (const [name, nones] of bound) {
    let onlyMasks = true;
    walk(body, (n) => {
      if (n.name === "VariableName" && textOf(text, n) === name && !targets.has(n.from) && !maskReads.has(n.from)) onlyMasks = false;
      return undefined;
    });
    if (onlyMasks) for (const at of nones) allowed.add(at);
  }
  return allowed;
}

/** The mask arguments of a `tl.load(…)` / `tl.store(…)` call that are plain names. */
function maskArgs(text: string, call: SyntaxNode, imports: PythonImports): SyntaxNode[] {
  const [callee, argList] = children(call);
  const dotted = callee && dottedName(text, callee);
  if (!dotted || dotted.length !== 2 || !(imports.tl.has(dotted[0]) || (dotted[0] === "tl" && imports.tl.size === 0))) return [];
  const at = MASK_POSITION[dotted[1]];
  if (at === undefined || !argList) return [];
  const kids = children(argList).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  const found: SyntaxNode[] = [];
  let position = 0;
  for (let i = 0; i < kids.length; i++) {
    if (kids[i].name === "VariableName" && kids[i + 1]?.name === "AssignOp") {
      if (textOf(text, kids[i]) === "mask" && kids[i + 2]?.name === "VariableName") found.push(kids[i + 2]);
      i += 2;
      continue;
    }
    if (position === at && kids[i].name === "VariableName") found.push(kids[i]);
    position++;
  }
  return found;
}

// The mask arguments of tl.load / tl.store, where None — written, or a name bound to None
// (none-names.ts) — means no mask. A keyword given None is left out (calls.ts); a positional one
// can't be (tl.load(p, None, 0.0) would shift `other` into its place), so it is written as True, an
// all-true mask, which loads or stores every lane as no mask does (`other` is never read). FlagGems'
// bmm: `mask_a = None` where the tile divides the matrix, then `tl.load(a_ptrs, mask_a)`.
// A reduction's axis written None in its place (apple/ml-cross-entropy's `tl.reduce(x, None, and_fn)`,
// every axis reduced) is written `undefined`, the axis left out, as the combine function follows it.

import type { PythonImports } from "./module";
import { assignmentTargets, targetNames } from "./declarations";
import { children, dottedName, textOf, walk, type SyntaxNode } from "./tree";

/** Where a mask goes in each call: its position among the positional arguments. */
const MASK_POSITION: Readonly<Record<string, number>> = { load: 1, store: 2 };
/** Where tl.reduce's axis goes (a None before a required argument; tl.sum(x, None)'s is none-names.ts's, left out). */
const AXIS_POSITION: Readonly<Record<string, number>> = { reduce: 1 };

export interface NoneMasks {
  /** The start offsets of the function's positional mask arguments that are `None` or a plain name. */
  positional: Set<number>;
  /**
   * Names read nowhere but as a mask (positional or `mask=`): where one is bound to None in a branch
   * decided only after lowering (`if DIVISIBLE_M and DIVISIBLE_N: mask_c = None`, constexprs the
   * compiler folds), the None is written as True too, so the branch that survives gives it a value.
   */
  maskOnly: Set<string>;
  /** The start offsets of positional axis arguments written None (AXIS_POSITION). */
  axes: Set<number>;
}

export function noneMasks(text: string, body: SyntaxNode, imports: PythonImports): NoneMasks {
  const positional = new Set<number>();
  const axes = new Set<number>();
  const maskReads = new Set<number>();
  const notReads = new Set<number>(); // assignment targets and keywords' names
  walk(body, (n) => {
    if (n.name === "CallExpression") {
      for (const arg of positionalArgs(text, n, imports, AXIS_POSITION)) if (arg.name === "None") axes.add(arg.from);
      for (const arg of positionalArgs(text, n, imports, MASK_POSITION)) {
        positional.add(arg.from);
        maskReads.add(arg.from);
      }
      const keyword = maskKeyword(text, n, imports);
      if (keyword) maskReads.add(keyword.from);
    }
    if (n.name === "AssignStatement" || n.name === "UpdateStatement") for (const t of targetNames(text, assignmentTargets(n))) notReads.add(t.from);
    if (n.name === "ArgList") {
      const kids = children(n);
      kids.forEach((k, i) => {
        if (k.name === "VariableName" && kids[i + 1]?.name === "AssignOp") notReads.add(k.from);
      });
    }
    return undefined;
  });
  const reads = new Map<string, boolean>(); // name → read only as a mask so far
  walk(body, (n) => {
    if (n.name !== "VariableName" || notReads.has(n.from)) return undefined;
    const name = textOf(text, n);
    reads.set(name, (reads.get(name) ?? true) && maskReads.has(n.from));
    return undefined;
  });
  return { positional, axes, maskOnly: new Set([...reads].filter(([, only]) => only).map(([name]) => name)) };
}

/** The `mask=` argument of a tl.load / tl.store call, where it is a plain name. */
function maskKeyword(text: string, call: SyntaxNode, imports: PythonImports): SyntaxNode | undefined {
  const [callee, argList] = children(call);
  const dotted = callee && dottedName(text, callee);
  if (!dotted || dotted.length !== 2 || !isTl(dotted[0], imports) || MASK_POSITION[dotted[1]] === undefined || !argList) return undefined;
  const kids = children(argList);
  const at = kids.findIndex((k, i) => k.name === "VariableName" && textOf(text, k) === "mask" && kids[i + 1]?.name === "AssignOp");
  return at >= 0 && kids[at + 2]?.name === "VariableName" ? kids[at + 2] : undefined;
}

const isTl = (head: string, imports: PythonImports) => imports.tl.has(head) || (head === "tl" && imports.tl.size === 0);

function positionalArgs(text: string, call: SyntaxNode, imports: PythonImports, positions: Readonly<Record<string, number>>): SyntaxNode[] {
  const [callee, argList] = children(call);
  const dotted = callee && dottedName(text, callee);
  if (!dotted || dotted.length !== 2 || !isTl(dotted[0], imports)) return [];
  const at = Object.hasOwn(positions, dotted[1]) ? positions[dotted[1]] : undefined;
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

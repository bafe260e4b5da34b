// Early `return` in a kernel (docs/LANGUAGE.md §2.1: `if (row >= n_rows) { return; }`, Liger-Kernel's skipped
// rows). The IR has no return: the statements after one run only where it didn't.
//  - `if (c) { …; return; } rest` — a branch that always returns — becomes
//    `if (c) { … } else { rest }` (the rest moves into the branch that doesn't return); nested
//    ifs the same way, inside their own branch.
//  - Any other return (inside a loop, or a branch that returns only sometimes) sets a flag
//    variable declared at the kernel's start, and leaves each loop around it with `break`; after
//    the statement that holds it, the rest of the list runs under `if (!returned)` (inside a loop:
//    `if (returned) { break; }` first).
// This file is the syntactic analysis both rely on; statements.ts lowers the lists.

import ts from "typescript";

/** Whether `node` holds a `return` of the function being lowered (not of a nested arrow). */
export function mayReturn(node: ts.Node): boolean {
  if (ts.isReturnStatement(node)) return true;
  if (ts.isFunctionLike(node)) return false;
  return ts.forEachChild(node, (child) => (mayReturn(child) ? true : undefined)) ?? false;
}

/** Whether every path through `s` ends in a `return`. */
export function alwaysReturns(s: ts.Statement): boolean {
  if (ts.isReturnStatement(s)) return true;
  if (ts.isBlock(s)) return s.statements.some(alwaysReturns);
  if (ts.isIfStatement(s)) return s.elseStatement !== undefined && alwaysReturns(s.thenStatement) && alwaysReturns(s.elseStatement);
  return false;
}

/** An `if` whose every branch either always returns or never does: the rest of its list moves into the others. */
export function splittable(s: ts.IfStatement): boolean {
  const branches = s.elseStatement ? [s.thenStatement, s.elseStatement] : [s.thenStatement];
  return branches.every((b) => alwaysReturns(b) || !mayReturn(b));
}

/** The statements of a branch, as a list. */
export function statementsOf(s: ts.Statement): readonly ts.Statement[] {
  return ts.isBlock(s) ? s.statements : [s];
}

/** Whether lowering `list` (statements.ts) needs the flag: a return inside a loop, or one that splitting can't place. */
export function needsReturnFlag(list: readonly ts.Statement[], inLoop = false): boolean {
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    if (!mayReturn(s)) continue;
    if (ts.isReturnStatement(s)) return inLoop;
    const rest = list.slice(i + 1);
    if (ts.isBlock(s)) return needsReturnFlag([...s.statements, ...rest], inLoop);
    if (ts.isIfStatement(s) && splittable(s)) {
      const branches = s.elseStatement ? [s.thenStatement, s.elseStatement] : [s.thenStatement];
      return branches.some((b) => needsReturnFlag(statementsOf(b), inLoop)) || needsReturnFlag(rest, inLoop);
    }
    // A loop holding a return, or a branch that returns only sometimes.
    return true;
  }
  return false;
}

// Where each local name of a Python kernel is declared in the TypeScript it lowers to. Python
// names live in the whole function; TypeScript's `const`/`let` live in their block. A name
// assigned once, first in the block that holds all its uses, becomes `const x = …` there (`let`
// when it is assigned again); one first assigned deeper (in a branch or loop) and used outside it
// gets `let x;` before the statement of that outer block that first mentions it.

import { bodyStatements, children, textOf, walk, type SyntaxNode } from "./tree";

export interface DeclarationPlan {
  /** Statement start → names declared by that assignment, and with which keyword. */
  inline: Map<number, { names: Set<string>; keyword: "const" | "let" }>;
  /** Statement start → names to declare with `let x;` just before it. */
  hoisted: Map<number, string[]>;
  /** Every name the function assigns (its locals), loop counters included. */
  locals: Set<string>;
}

interface Occurrence {
  name: string;
  /** Statement, its Body, statement, Body… down to the statement that holds it (outermost first). */
  chain: SyntaxNode[];
  target: boolean;
  /** An update (`x += …`): the name must already hold a value. */
  update: boolean;
}

const COMPOUND = new Set(["IfStatement", "WhileStatement", "ForStatement"]);

/** The names an assignment target binds: `x`, `a, b`, `(a, b)`, `[a, b]`. */
export function targetNames(text: string, nodes: readonly SyntaxNode[]): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (const n of nodes) {
    if (n.name === "VariableName") out.push(n);
    else if (n.name === "TupleExpression" || n.name === "ParenthesizedExpression" || n.name === "ArrayExpression") out.push(...targetNames(text, children(n)));
  }
  return out;
}

/** The target side of an assignment statement: the nodes before its (only) `=`. */
export function assignmentTargets(statement: SyntaxNode): SyntaxNode[] {
  const kids = children(statement);
  const eq = kids.findIndex((k) => k.name === "AssignOp" || k.name === "UpdateOp" || k.name === "TypeDef");
  return kids.slice(0, eq < 0 ? 0 : eq).filter((k) => k.name !== ",");
}

export function planDeclarations(text: string, body: SyntaxNode, params: ReadonlySet<string>): DeclarationPlan {
  const occurrences: Occurrence[] = [];
  const loopCounters = new Set<string>();
  const assignedCount = new Map<string, number>();

  const visitBlock = (block: SyntaxNode, outer: SyntaxNode[]) => {
    for (const s of bodyStatements(block)) visitStatement(s, [...outer, s]);
  };
  // A statement's Bodies are in its chain, so mentions in an `if` and in its `else` share no block.
  const visitStatement = (s: SyntaxNode, chain: SyntaxNode[]) => {
    const targets = new Set<number>(); // by position: Lezer makes a new node object at every visit
    if (s.name === "AssignStatement" || s.name === "UpdateStatement") {
      for (const t of targetNames(text, assignmentTargets(s))) {
        targets.add(t.from);
        const name = textOf(text, t);
        assignedCount.set(name, (assignedCount.get(name) ?? 0) + (s.name === "UpdateStatement" ? 2 : 1));
      }
    }
    if (s.name === "ForStatement") {
      const inAt = children(s).findIndex((c) => c.name === "in");
      for (const t of targetNames(text, children(s).slice(1, inAt))) loopCounters.add(textOf(text, t));
    }
    const nested: SyntaxNode[] = [];
    for (const c of children(s)) {
      if (c.name === "Body") {
        nested.push(c);
        continue;
      }
      walk(c, (n) => {
        if (n.name === "LambdaExpression") return false;
        if (n.name === "VariableName") occurrences.push({ name: textOf(text, n), chain, target: targets.has(n.from), update: targets.has(n.from) && s.name === "UpdateStatement" });
        return undefined;
      });
    }
    if (COMPOUND.has(s.name)) for (const b of nested) visitBlock(b, [...chain, b]);
  };
  visitBlock(body, []);

  const plan: DeclarationPlan = { inline: new Map(), hoisted: new Map(), locals: new Set([...assignedCount.keys(), ...loopCounters]) };
  const byName = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    // A loop counter is declared by its own loop; a name both assigned and a later loop's counter
    // (FlagGems' layer_norm_loop_kernel: `start_n = step * TILE_N` in two loops, then `for start_n in
    // range(…)`) is a variable of its own too, which that loop's counter shadows.
    if (!assignedCount.has(o.name) || params.has(o.name)) continue;
    byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  }
  for (const [name, list] of byName) planName(plan, name, list, 0);
  return plan;
}

const same = (a: SyntaxNode | undefined, b: SyntaxNode | undefined) => a !== undefined && b !== undefined && a.from === b.from && a.name === b.name;

/**
 * Declares `name` for its mentions `list`, all inside the block whose statements are at `depth`
 * of their chains. Mentions in one statement's one Body are declared inside it; loops that each
 * assign the name first, directly in their body, each get their own declaration (Python's name is
 * dead between them: `cols` of tutorial 05's three loops), so it doesn't become one variable
 * carried through all of them.
 */
function planName(plan: DeclarationPlan, name: string, list: Occurrence[], depth: number): void {
  const groups = new Map<number, Occurrence[]>();
  for (const o of list) groups.set(o.chain[depth].from, [...(groups.get(o.chain[depth].from) ?? []), o]);
  if (groups.size === 1) {
    const body = list[0].chain[depth + 1];
    if (list.every((o) => o.chain.length > depth + 2 && same(o.chain[depth + 1], body))) return planName(plan, name, list, depth + 2);
    if (ownBranches(plan, name, list, depth)) return;
    return declareHere(plan, name, list, depth);
  }
  const ownScope = (group: Occurrence[]) => {
    const first = group[0];
    const loop = first.chain[depth];
    if (loop.name !== "ForStatement" && loop.name !== "WhileStatement") return false;
    // Python evaluates the value before binding the target: `si = si + 1` (applied-ai's stay_attention,
    // `si = tl.where(si == n - 1, 0, si + 1)`) reads the name first, so it is carried into the loop.
    const readsItself = group.some((o) => !o.target && o.chain.length === depth + 3 && same(o.chain[depth + 2], first.chain[depth + 2]));
    return first.target && !readsItself && first.chain.length === depth + 3 && first.chain[depth + 2].name === "AssignStatement" && group.every((o) => o.chain.length > depth + 2 && same(o.chain[depth + 1], first.chain[depth + 1]));
  };
  if ([...groups.values()].every(ownScope)) {
    for (const group of groups.values()) planName(plan, name, group, depth);
    return;
  }
  // A plain assignment at this depth that doesn't read the name starts it afresh too (Python's name is
  // dead before it): prefix_prefill.py's `off_k` of its first loop, then `off_k = …` after it at
  // another block shape. Such a segment and the loops that are their own scope are declared apart;
  // more than one segment declared at this depth would redeclare the name in one block.
  const fresh = (group: Occurrence[]) => group[0].chain[depth].name === "AssignStatement" && group.every((o) => o.target && !o.update && o.chain.length === depth + 1);
  // So does an if whose mentions are all in one body, that body starting the name afresh, where what came before
  // bound it only inside loops or such ifs, whose names Triton doesn't carry out (flash-attention's bwd.py:
  // `dropout_offset = 0` first in a loop under `if start_n < seqlen_k:`, then again under `if start_m < seqlen_q:`).
  // After a binding at this depth it is that name, whose type Triton's if keeps (`i = (n,)` then `if …: i = 0`).
  const inOneBody = (group: Occurrence[]) =>
    group[0].chain[depth].name === "IfStatement" && group.every((o) => o.chain.length > depth + 2 && same(o.chain[depth + 1], group[0].chain[depth + 1]));
  const freshIf = (group: Occurrence[]): boolean => inOneBody(group) && startsAfresh(group.filter((o) => same(o.chain[depth + 2], group[0].chain[depth + 2])), depth + 2);
  const segments: Occurrence[][][] = [];
  for (const group of groups.values()) {
    const inScopes = segments.length > 0 && segments[segments.length - 1].every((g) => ownScope(g) || freshIf(g));
    if (segments.length === 0 || fresh(group) || ownScope(group) || (freshIf(group) && inScopes)) segments.push([group]);
    else segments[segments.length - 1].push(group);
  }
  const apart = (segment: Occurrence[][]) => segment.length === 1 && ownScope(segment[0]);
  // The first segment, one if whose one body holds every mention (nested deeper included: the AMD flash
  // attention's `if IS_CAUSAL: … if n_blocks <= 0: O_block_ptr = …; return`), is declared inside it too:
  // nothing before it names the name, and the next segment starts afresh.
  const inOneIfBody = (segment: Occurrence[][], i: number) =>
    segment.length === 1 && (i === 0 ? inOneBody(segment[0]) : freshIf(segment[0]));
  const below = (segment: Occurrence[][], i: number) => apart(segment) || inOneIfBody(segment, i);
  if (segments.filter((s, i) => !below(s, i)).length <= 1) {
    segments.forEach((segment, i) => {
      const mentions = segment.flat();
      if (below(segment, i) || segment.length === 1) planName(plan, name, mentions, depth);
      else declareHere(plan, name, mentions, depth);
    });
    return;
  }
  declareHere(plan, name, list, depth);
}

/**
 * Whether the mentions `group` (one statement's, at `depth` of their chains) bind the name before anything reads it:
 * a plain assignment that doesn't read it, a loop whose body starts with one, an if whose one body does.
 */
function startsAfresh(group: Occurrence[], depth: number): boolean {
  const first = group[0];
  const statement = first.chain[depth];
  if (statement.name === "AssignStatement") return group.every((o) => o.target && !o.update && o.chain.length === depth + 1);
  if (!COMPOUND.has(statement.name) || !group.every((o) => o.chain.length > depth + 2 && same(o.chain[depth + 1], first.chain[depth + 1]))) return false;
  // The body's first statement that mentions the name: in a loop, each trip runs it before the rest reads the name.
  return startsAfresh(group.filter((o) => same(o.chain[depth + 2], first.chain[depth + 2])), depth + 2);
}

/**
 * Mentions only inside the bodies of one `if` (none in its conditions), each body's starting with a plain
 * assignment that doesn't read the name: only one branch runs and the name is dead after the if, so each
 * body gets its own declaration (Liger's fused_moe_kernels.py: `offs` at [BLOCK_M] under `if pid < E:`, at
 * [BLOCK_N] under `elif pid == E:`), not one variable that every branch must give the same type.
 */
function ownBranches(plan: DeclarationPlan, name: string, list: Occurrence[], depth: number): boolean {
  if (list[0].chain[depth].name !== "IfStatement" || !list.every((o) => o.chain.length > depth + 2)) return false;
  const bodies = new Map<number, Occurrence[]>();
  for (const o of list) bodies.set(o.chain[depth + 1].from, [...(bodies.get(o.chain[depth + 1].from) ?? []), o]);
  const fresh = (group: Occurrence[]) => {
    const first = group[0];
    const statement = first.chain[first.chain.length - 1];
    return first.target && !first.update && statement.name === "AssignStatement" && !group.some((o) => !o.target && same(o.chain[o.chain.length - 1], statement));
  };
  if (bodies.size < 2 || ![...bodies.values()].every(fresh)) return false;
  for (const group of bodies.values()) planName(plan, name, group, depth + 2);
  return true;
}

function declareHere(plan: DeclarationPlan, name: string, list: Occurrence[], depth: number): void {
  const first = list[0];
  const at = first.chain[depth];
  const assignments = list.filter((o) => o.target).length;
  if (first.target && first.chain.length === depth + 1 && at.name === "AssignStatement") {
    const keyword = assignments === 1 && !list.some((o) => o.update) ? "const" : "let";
    const entry = plan.inline.get(at.from) ?? { names: new Set<string>(), keyword };
    entry.names.add(name);
    if (keyword === "let") entry.keyword = "let";
    plan.inline.set(at.from, entry);
  } else {
    plan.hoisted.set(at.from, [...(plan.hoisted.get(at.from) ?? []), name]);
  }
}

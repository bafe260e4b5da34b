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
        if (n.name === "VariableName") occurrences.push({ name: textOf(text, n), chain, target: targets.has(n.from) });
        return undefined;
      });
    }
    if (COMPOUND.has(s.name)) for (const b of nested) visitBlock(b, [...chain, b]);
  };
  visitBlock(body, []);

  const plan: DeclarationPlan = { inline: new Map(), hoisted: new Map(), locals: new Set([...assignedCount.keys(), ...loopCounters]) };
  const byName = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    if (!assignedCount.has(o.name) || params.has(o.name) || loopCounters.has(o.name)) continue;
    byName.set(o.name, [...(byName.get(o.name) ?? []), o]);
  }
  for (const [name, list] of byName) {
    let common = list[0].chain.length;
    for (const o of list) {
      let d = 0;
      while (d < common && d < o.chain.length && o.chain[d].from === list[0].chain[d].from && o.chain[d].name === list[0].chain[d].name) d++;
      common = d;
    }
    // Entries up to the innermost Body that holds every mention (chains alternate statement, Body).
    const block = common % 2 === 1 ? common - 1 : common;
    const first = list[0];
    const at = first.chain[block];
    if (first.target && first.chain.length === block + 1 && at.name === "AssignStatement") {
      const keyword = assignedCount.get(name) === 1 ? "const" : "let";
      const entry = plan.inline.get(at.from) ?? { names: new Set<string>(), keyword };
      entry.names.add(name);
      if (keyword === "let") entry.keyword = "let";
      plan.inline.set(at.from, entry);
    } else {
      plan.hoisted.set(at.from, [...(plan.hoisted.get(at.from) ?? []), name]);
    }
  }
  return plan;
}

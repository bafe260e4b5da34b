// The launches written in a Python file, `add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)`: which
// kernel, how many positional arguments, and the keyword values that are literals (or names bound
// to literals in the enclosing function or the module). `check` specialises kernels with them.

import type { Span } from "../diagnostics/diagnostic";
import { alternativeValues, literalValue, type ConstScope, type PyConst } from "./literals";
import { keywordArgs } from "./signature";
import { bodyStatements, children, dottedName, parts, spanOf, textOf, walk, type SyntaxNode } from "./tree";

export interface LaunchSite {
  kernel: string;
  /** The whole `kernel[grid](…)` call. */
  span: Span;
  /** The grid expression as written (a name bound to a lambda in the same function: the lambda). */
  grid: string;
  /** Each positional argument as written, and its value where it is a literal (or the values it may take: alternativeValues). */
  args: { text: string; value?: PyConst; alternatives?: PyConst[]; span: Span }[];
  /** Each keyword argument: its value where known, else undefined. */
  keywords: Record<string, PyConst | undefined>;
  /** The keyword arguments not known but known to be one of two literals (`STAGE=stage`, `stage = 3 if is_causal else 1`). */
  alternatives?: Record<string, PyConst[]>;
}

export function readLaunches(text: string, top: SyntaxNode, kernels: ReadonlySet<string>, moduleScope: ConstScope): LaunchSite[] {
  const launches: LaunchSite[] = [];
  const visit = (node: SyntaxNode, scope: ConstScope, grids: ReadonlyMap<string, string>) => {
    for (const c of children(node)) {
      if (c.name === "FunctionDefinition") {
        visit(c, functionScope(text, c, scope), gridNames(text, c));
        continue;
      }
      if (c.name === "ForStatement") {
        const loop = literalLoop(text, c, scope);
        if (loop) {
          visit(c, loop, grids);
          continue;
        }
      }
      if (c.name === "CallExpression") {
        const launch = readLaunch(text, c, kernels, scope);
        if (launch) launches.push({ ...launch, grid: grids.get(launch.grid) ?? launch.grid });
      }
      visit(c, scope, grids);
    }
  };
  visit(top, moduleScope, new Map());
  return launches;
}

function readLaunch(text: string, call: SyntaxNode, kernels: ReadonlySet<string>, scope: ConstScope): LaunchSite | undefined {
  const [callee, argList] = children(call);
  if (callee?.name !== "MemberExpression" || argList?.name !== "ArgList") return undefined;
  const kids = children(callee);
  if (kids.length < 4 || kids[1].name !== "[") return undefined;
  // `Softmax.forward[grid](…)`: a class-level kernel by its qualified name (module.ts readMethodKernels).
  const kernel = dottedName(text, kids[0])?.join(".");
  if (kernel === undefined || !kernels.has(kernel)) return undefined;
  const { positional, keywords } = keywordArgs(text, argList);
  const values: Record<string, PyConst | undefined> = {};
  const alternatives: Record<string, PyConst[]> = {};
  for (const [name, node] of keywords) {
    values[name] = literalValue(text, node, scope);
    const either = values[name] === undefined ? alternativeValues(text, node, scope) : undefined;
    if (either) alternatives[name] = either;
  }
  return {
    ...(Object.keys(alternatives).length > 0 ? { alternatives } : {}),
    kernel,
    span: spanOf(call),
    grid: text.slice(kids[2].from, kids[kids.length - 2].to),
    args: positional.map((a) => {
      const value = literalValue(text, a, scope);
      const either = value === undefined ? alternativeValues(text, a, scope) : undefined;
      return { text: textOf(text, a), span: spanOf(a), ...(value !== undefined ? { value } : {}), ...(either ? { alternatives: either } : {}) };
    }),
    keywords: values,
  };
}

/**
 * `for dim in (0, 1):` (a tuple or list of at most 8 literals, the name not assigned in the body): inside it the name
 * may be each of them, as `x if c else y` (alternativeValues), so a launch there (tritonbench's sum kernels, once per
 * reduced axis: `dim=dim`) is checked with each. Undefined for any other loop.
 */
function literalLoop(text: string, loop: SyntaxNode, outer: ConstScope): ConstScope | undefined {
  const kids = children(loop);
  const [target, iterable, body] = [kids[1], kids[3], kids[kids.length - 1]];
  if (target?.name !== "VariableName" || kids[2]?.name !== "in" || (iterable?.name !== "TupleExpression" && iterable?.name !== "ArrayExpression")) return undefined;
  const values = parts(iterable).map((e) => literalValue(text, e, outer));
  if (values.length === 0 || values.length > 8 || values.some((v) => v === undefined)) return undefined;
  const name = textOf(text, target);
  let assigned = false;
  walk(body, (n) => {
    if ((n.name === "AssignStatement" || n.name === "UpdateStatement") && n.firstChild?.name === "VariableName" && textOf(text, n.firstChild) === name) assigned = true;
  });
  if (assigned) return undefined;
  return {
    lookup: (n) => (n === name ? undefined : outer.lookup(n)),
    alternatives: (n) => (n === name ? (values as PyConst[]) : outer.alternatives?.(n)),
  };
}

/** `grid = lambda meta: (…)` at a host function's top level: name → the lambda as written. */
function gridNames(text: string, fn: SyntaxNode): Map<string, string> {
  const grids = new Map<string, string>();
  const body = children(fn).find((c) => c.name === "Body");
  for (const s of body ? bodyStatements(body) : []) {
    const kids = children(s);
    if (s.name === "AssignStatement" && kids.length === 3 && kids[0].name === "VariableName" && kids[2].name === "LambdaExpression") grids.set(textOf(text, kids[0]), textOf(text, kids[2]));
  }
  return grids;
}

/** Names a host function binds to literals once, at its top level (`BLOCK = 1024`). */
function functionScope(text: string, fn: SyntaxNode, outer: ConstScope): ConstScope {
  const body = children(fn).find((c) => c.name === "Body");
  const values = new Map<string, PyConst>();
  const counts = new Map<string, number>();
  if (body) walk(body, (n) => {
    if (n.name === "AssignStatement" || n.name === "UpdateStatement") {
      const first = n.firstChild;
      if (first?.name === "VariableName") counts.set(textOf(text, first), (counts.get(textOf(text, first)) ?? 0) + 1);
    }
  });
  const either = new Map<string, PyConst[]>();
  const scope: ConstScope = {
    lookup: (name) => (values.has(name) ? values.get(name) : counts.has(name) ? undefined : outer.lookup(name)),
    alternatives: (name) => either.get(name) ?? (counts.has(name) ? undefined : outer.alternatives?.(name)),
  };
  for (const s of body ? bodyStatements(body) : []) {
    if (s.name !== "AssignStatement") continue;
    const kids = children(s);
    if (kids.length !== 3 || kids[0].name !== "VariableName") continue;
    const name = textOf(text, kids[0]);
    if (counts.get(name) !== 1) continue;
    const v = literalValue(text, kids[2], scope);
    if (v !== undefined) values.set(name, v);
    else if (kids[2].name === "ConditionalExpression") {
      const both = alternativeValues(text, kids[2], scope);
      if (both) either.set(name, both);
    }
  }
  return scope;
}

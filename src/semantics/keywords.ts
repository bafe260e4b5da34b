// Keyword arguments (docs/LANGUAGE.md §2.1): Triton's `tl.load(p, mask=m, other=0)` is written with a trailing
// object literal, `tl.load(p, { mask: m, other: 0 })`, its keys Triton's parameter names in
// camelCase. The same parameters given positionally stay valid. This file turns a call's
// arguments into one list in the order of the function's parameters (a hole where one is left
// out), so each lowering reads its arguments by position whichever way they were written.

import ts from "typescript";
import { Codes } from "../diagnostics/codes";
import type { Span } from "../diagnostics/diagnostic";
import type { DiagnosticLog } from "../diagnostics/diagnostic";
import { skipParens } from "./operators";

/** A call's arguments in parameter order; `undefined` where a parameter was left out. */
export type Args = readonly (ts.Expression | undefined)[];

/** Every keyword given, by parameter name (also those placed in `Args`). */
export type Keywords = ReadonlyMap<string, ts.Expression>;

/**
 * A function's parameters for keyword arguments: Triton's names in camelCase, in Triton's
 * positional order. A name starting with `...` takes every remaining positional argument (a
 * shape or dims as separate arguments, print values); parameters after it are keywords only.
 */
export interface ParameterList {
  params: readonly string[];
  /** Parameters accepted and not used (hints to Triton's own compiler: eviction policy, cache modifier…). */
  ignored?: readonly string[];
}

export interface SplitArguments {
  args: Args;
  keywords: Keywords;
}

/** The keyword object of a call: its last argument when that is an object literal. */
export function keywordObject(raw: readonly ts.Expression[]): ts.ObjectLiteralExpression | undefined {
  const last = raw[raw.length - 1];
  const inner = last && skipParens(last);
  return inner && ts.isObjectLiteralExpression(inner) ? inner : undefined;
}

/**
 * The arguments of a call of `callee` (e.g. "tl.load") in parameter order, or undefined after a
 * diagnostic (an unknown keyword, a parameter given twice, a property that isn't `name: value`).
 */
export function splitArguments(log: DiagnosticLog, spanOf: (node: ts.Node) => Span, callee: string, list: ParameterList, raw: readonly ts.Expression[]): SplitArguments | undefined {
  const object = keywordObject(raw);
  const positional = object ? raw.slice(0, -1) : raw;
  const names = list.params.map((p) => p.replace(/^\.\.\./, ""));
  const restAt = list.params.findIndex((p) => p.startsWith("..."));
  const keywords = new Map<string, ts.Expression>();
  let ok = true;
  for (const property of object?.properties ?? []) {
    const entry = keywordEntry(property);
    if (!entry) {
      log.error(Codes.keywordArgument, spanOf(property), `keyword arguments are written name: value in the trailing object, e.g. ${callee}(…, { ${names[1] ?? names[0]}: … })`);
      ok = false;
      continue;
    }
    const index = names.indexOf(entry.name);
    if (index < 0 || index === restAt) {
      log.error(Codes.keywordArgument, spanOf(entry.key), unknownKeywordMessage(callee, entry.name, names.filter((_, i) => i !== restAt)));
      ok = false;
      continue;
    }
    const positionally = restAt >= 0 ? index < restAt && index < positional.length : index < positional.length;
    if (positionally || keywords.has(entry.name)) {
      log.error(Codes.keywordArgument, spanOf(entry.key), `${callee}'s ${entry.name} is given twice${positionally ? ", by position and as a keyword" : ""}; give it once`);
      ok = false;
      continue;
    }
    keywords.set(entry.name, entry.value);
  }
  if (!ok) return undefined;
  const args: (ts.Expression | undefined)[] = [...positional];
  for (const [name, value] of keywords) {
    const index = names.indexOf(name);
    // After a rest parameter a keyword has no position: the lowering reads it from `keywords`.
    if (restAt < 0 || index < restAt) args[index] = value;
  }
  for (const name of list.ignored ?? []) {
    const index = names.indexOf(name);
    if (index >= 0 && (restAt < 0 || index < restAt)) args[index] = undefined;
  }
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return { args: Array.from(args, (a) => a), keywords };
}

function keywordEntry(property: ts.ObjectLiteralElementLike): { name: string; key: ts.Node; value: ts.Expression } | undefined {
  if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) {
    return { name: property.name.text, key: property.name, value: property.initializer };
  }
  // `{ mask }` passes the kernel's own `mask`.
  if (ts.isShorthandPropertyAssignment(property)) return { name: property.name.text, key: property.name, value: property.name };
  return undefined;
}

/** An unknown keyword: Triton's snake_case spelling of a known one, else the list of valid ones. */
export function unknownKeywordMessage(callee: string, name: string, valid: readonly string[]): string {
  const camel = name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  const hint = camel !== name && valid.includes(camel) ? `; did you mean ${camel}? (keywords are Triton's names in camelCase)` : "";
  const list = valid.length > 0 ? `its keywords are ${valid.join(", ")}` : "it takes no keyword arguments";
  return `${callee} has no keyword '${name}'${hint}; ${list}`;
}

// What lowering one Python function to TypeScript needs: the file, the writer, the log, and the
// names in scope.

import type { DiagnosticLog, Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { PyConst } from "./literals";
import type { PythonFile } from "./module";
import type { DeclarationPlan } from "./declarations";
import type { TsWriter } from "./writer";
import type { SyntaxNode } from "./tree";
import type { Externals } from "./externals";
import type { NoneMasks } from "./none-masks";
import { spanOf, textOf } from "./tree";

export interface LowerContext {
  file: PythonFile;
  text: string;
  w: TsWriter;
  log: DiagnosticLog;
  /** The function's parameters. */
  params: ReadonlySet<string>;
  /** Parameter → its TypeScript annotation (`Ptr<f16>`, `i32`), where the launch gives it. */
  annotations: ReadonlyMap<string, string>;
  /**
   * Constexpr parameters whose value is known while lowering (None and strings are decided here), and
   * the `NAME: tl.constexpr = …` locals decided from them (statements.ts).
   */
  known: Map<string, PyConst>;
  plan: DeclarationPlan;
  /** Names declared so far, per open block (innermost last). */
  scopes: Set<string>[];
  /** The @triton.jit functions of the file, by name. */
  jitFunctions: ReadonlySet<string>;
  /** Default values of each @triton.jit function's parameters (to pass them at a call that leaves them out). */
  defaults: ReadonlyMap<string, { name: string; node?: SyntaxNode; constexpr: boolean }[]>;
  /** The names of this file's @triton.jit functions start with this in the TypeScript file ("" for the kernel's own file). */
  prefix: string;
  /** Functions of other modules the kernel calls (externals.ts). */
  externals: Externals;
  /** tl.load's / tl.store's mask arguments, where None means no mask: written as True (none-masks.ts). */
  noneMasks: NoneMasks;
  /** Names bound to None at this point of the function (none-names.ts). */
  noneNames: Set<string>;
  /** Inside a branch decided not taken while lowering (a constexpr `if`), which Triton never compiles: how many deep. */
  deadBranches: number;
  /** How many branches decided only at run time enclose the statement being lowered (a constexpr local bound there isn't known after). */
  runTimeBranches: number;
  /** A specialized function's parameters decided while lowering (specialize.ts): not in its signature, so each is its value. */
  decided: ReadonlySet<string>;
}

/** Reports a construct outside the language; writes `0` in its place so the TypeScript still parses. */
export function unsupported(ctx: LowerContext, node: SyntaxNode | Span, what: string, advice: string): void {
  const span = "from" in node ? spanOf(node) : node;
  ctx.log.error(Codes.pythonUnsupported, span, `${what} isn't part of the kernel language${advice ? `: ${advice}` : ""}`);
  ctx.w.token("0", span);
}

export function declared(ctx: LowerContext, name: string): boolean {
  return ctx.params.has(name) || ctx.scopes.some((s) => s.has(name));
}

export function nodeText(ctx: LowerContext, node: SyntaxNode): string {
  return textOf(ctx.text, node);
}

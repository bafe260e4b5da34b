// Records one program instance's run for the debugger (record and replay): a stop before each
// statement of the kernel's TypeScript, with the named bindings visible there and their blocks.
// Blocks are never mutated by the interpreter, so a stop keeps references, not copies.
//
// A stop is a TypeScript statement, not an IR statement: the many `let`s one line lowers to are
// one step. A loop's body statement seen again is a new stop (the next trip).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { LineMap } from "../diagnostics/position";
import type { ProgramState } from "../interpreter/interpret";
import type { KernelIR, Stmt, Value, ValueType } from "../ir/ir";
import { bodiesOf } from "../ir/walk";
import type { KernelSource } from "../compile";

/** A block as the interpreter holds it: row-major, one number per element. */
export type BlockValues = ArrayLike<number>;

export interface DebugBinding {
  name: string;
  type: ValueType;
  values: BlockValues;
  /** A kernel parameter (or constexpr), rather than a binding of the body. */
  parameter: boolean;
}

export interface DebugStop {
  /** The TypeScript statement about to run. */
  span: Span;
  line: number;
  column: number;
  bindings: DebugBinding[];
  /** Set on the last stop when the interpreter failed there (an out-of-bounds access…). */
  error?: string;
}

/** A name the user wrote, the IR value or variable it stands for, and where it is visible. */
interface NameRecord {
  name: string;
  declaredAt: number;
  scope: ts.Node;
  type: ValueType;
  parameter: boolean;
  read: (state: ProgramState) => BlockValues | undefined;
}

/** Thrown by the hook to end the run once the stop cap is reached. */
export class StopCapReached extends Error {}

export class StopRecorder {
  readonly stops: DebugStop[] = [];
  private readonly lines: LineMap;
  private readonly sites = new Map<Stmt, ts.Node | undefined>();
  private readonly visibleAt = new Map<ts.Node, NameRecord[]>();
  private readonly names: NameRecord[];
  private currentSite: ts.Node | undefined;
  private firstOfStop: Stmt | undefined;
  private lastState: ProgramState | undefined;

  constructor(
    private readonly kernel: KernelSource,
    ir: KernelIR,
    text: string,
    private readonly maxStops: number,
  ) {
    this.lines = new LineMap(text);
    this.names = nameRecords(kernel, ir);
  }

  /** The interpreter's statement hook. */
  readonly hook = (statement: Stmt, state: ProgramState): void => {
    this.lastState = state;
    const site = this.siteOf(statement);
    if (!site || (site === this.currentSite && statement !== this.firstOfStop)) return;
    if (this.stops.length >= this.maxStops) throw new StopCapReached();
    this.currentSite = site;
    this.firstOfStop = statement;
    this.stops.push(this.stopAt(site, state));
  };

  /** The last stop: where the interpreter failed, with what was bound then. */
  recordError(span: Span, message: string): void {
    const site = siteContaining(this.kernel, span.start) ?? this.currentSite;
    const stop = site && this.lastState ? this.stopAt(site, this.lastState) : { ...this.position(span), bindings: [] };
    const at = this.position(span);
    this.stops.push({ ...stop, ...at, error: message });
  }

  /** The 1-based lines that hold a statement of `ir` (where a breakpoint can stop). */
  statementLines(ir: KernelIR): number[] {
    const lines = new Set<number>();
    const visit = (statements: readonly Stmt[]) => {
      for (const s of statements) {
        const site = this.siteOf(s);
        if (site) lines.add(this.lines.at(site.getStart(this.kernel.sourceFile)).line);
        for (const body of bodiesOf(s)) visit(body);
      }
    };
    visit(ir.body);
    return [...lines].sort((a, b) => a - b);
  }

  private stopAt(site: ts.Node, state: ProgramState): DebugStop {
    const start = site.getStart(this.kernel.sourceFile);
    const bindings: DebugBinding[] = [];
    for (const record of this.visible(site, start)) {
      const values = record.read(state);
      if (values) bindings.push({ name: record.name, type: record.type, values, parameter: record.parameter });
    }
    return { ...this.position({ start, end: site.getEnd() }), bindings };
  }

  private position(span: Span): { span: Span; line: number; column: number } {
    const { line, column } = this.lines.at(span.start);
    return { span, line, column };
  }

  /** The names in scope before `site` runs; an inner declaration hides an outer one of the same name. */
  private visible(site: ts.Node, start: number): NameRecord[] {
    let known = this.visibleAt.get(site);
    if (!known) {
      const byName = new Map<string, NameRecord>();
      for (const r of this.names) {
        const inScope = r.scope.getStart(this.kernel.sourceFile) <= start && start < r.scope.getEnd();
        if (inScope && r.declaredAt < start && (byName.get(r.name)?.declaredAt ?? -Infinity) < r.declaredAt) byName.set(r.name, r);
      }
      known = [...byName.values()].sort((a, b) => a.declaredAt - b.declaredAt);
      this.visibleAt.set(site, known);
    }
    return known;
  }

  private siteOf(s: Stmt): ts.Node | undefined {
    if (this.sites.has(s)) return this.sites.get(s);
    const span = s.kind === "let" ? s.value.span : s.span;
    const site = siteContaining(this.kernel, span.start);
    this.sites.set(s, site);
    return site;
  }
}

/** Statements a debugger steps over; blocks are not steps of their own. */
function isSite(node: ts.Node): boolean {
  return (
    ts.isVariableStatement(node) || ts.isExpressionStatement(node) || ts.isForStatement(node) ||
    ts.isIfStatement(node) || ts.isReturnStatement(node) || ts.isWhileStatement(node) || ts.isDoStatement(node) ||
    ts.isBreakStatement(node) || ts.isContinueStatement(node)
  );
}

/** The innermost statement of the kernel's body that contains `offset` (an expression body is one statement). */
export function siteContaining(kernel: KernelSource, offset: number): ts.Node | undefined {
  const sf = kernel.sourceFile;
  const body = kernel.fn.body;
  if (offset < body.getStart(sf) || offset >= body.getEnd()) return undefined;
  let found: ts.Node | undefined = ts.isBlock(body) ? undefined : body;
  const descend = (node: ts.Node): void => {
    ts.forEachChild(node, (child) => {
      if (child.getStart(sf) <= offset && offset < child.getEnd()) {
        if (isSite(child)) found = child;
        descend(child);
        return true;
      }
      return undefined;
    });
  };
  descend(body);
  return found;
}

/** The innermost block, loop or function around a declaration: where its name is visible. */
function scopeOf(kernel: KernelSource, offset: number): ts.Node {
  const sf = kernel.sourceFile;
  let scope: ts.Node = kernel.fn;
  const descend = (node: ts.Node): void => {
    ts.forEachChild(node, (child) => {
      if (child.getStart(sf) <= offset && offset < child.getEnd()) {
        if (ts.isBlock(child) || ts.isForStatement(child)) scope = child;
        descend(child);
        return true;
      }
      return undefined;
    });
  };
  descend(kernel.fn);
  return scope;
}

/** Every user name of the kernel: parameters and consts (KernelIR.valueNames), `let` variables and loop counters. */
function nameRecords(kernel: KernelSource, ir: KernelIR): NameRecord[] {
  const values = new Map<number, Value>();
  const records: NameRecord[] = [];
  const paramsEnd = kernel.fn.body.getStart(kernel.sourceFile);
  const variable = (v: { id: number; name: string; type: ValueType; span: Span }) =>
    records.push({
      name: v.name,
      declaredAt: v.span.start,
      scope: scopeOf(kernel, v.span.start),
      type: v.type,
      parameter: false,
      read: (state) => state.variables.get(v.id),
    });
  const visit = (statements: readonly Stmt[]) => {
    for (const s of statements) {
      if (s.kind === "let") values.set(s.value.id, s.value);
      if (s.kind === "declare") variable(s.variable);
      if (s.kind === "for") variable(s.counter);
      for (const body of bodiesOf(s)) visit(body);
    }
  };
  visit(ir.body);
  for (const n of ir.valueNames ?? []) {
    const value = values.get(n.value);
    if (!value) continue;
    const parameter = n.span.start < paramsEnd;
    records.push({
      name: n.name,
      // A parameter is visible from the body's first statement on.
      declaredAt: parameter ? -1 : n.span.start,
      scope: parameter ? kernel.fn : scopeOf(kernel, n.span.start),
      type: value.type,
      parameter,
      read: (state) => state.values.get(n.value),
    });
  }
  return records;
}

// Records one program instance's run for the debugger (record and replay): a stop before each
// statement of the kernel's TypeScript, with the named bindings visible there and their blocks.
// Blocks are never mutated by the interpreter, so a stop keeps references, not copies.
//
// A stop is a TypeScript statement, not an IR statement: the many `let`s one line lowers to are
// one step. A loop's body statement seen again is a new stop (the next trip). A device function
// is inlined, so its statements come in the kernel's IR with spans in its own body: a stop there
// is a frame above the caller's, whose line is the call (the caller's next call of that function).

import ts from "typescript";
import type { Span } from "../../diagnostics/diagnostic";
import { LineMap } from "../../diagnostics/position";
import type { ProgramState } from "../../interpreter/interpret";
import type { KernelIR, Stmt, Value, ValueType } from "../../ir/ir";
import { bodiesOf } from "../../ir/walk";
import type { KernelSource } from "../../compile";

/** A block as the interpreter holds it: row-major, one number per element. */
export type BlockValues = ArrayLike<number>;

export interface DebugBinding {
  name: string;
  type: ValueType;
  values: BlockValues;
  /** A kernel parameter (or constexpr), rather than a binding of the body. */
  parameter: boolean;
}

export interface DebugFrame {
  /** The kernel, or the device function being run. */
  name: string;
  /** The TypeScript statement about to run (in a caller: the call's statement). */
  span: Span;
  line: number;
  column: number;
  /** The file `line` is in when it isn't the debugged one: a Python kernel's call into another module's @triton.jit function. */
  file?: string;
  bindings: DebugBinding[];
}

/** The innermost frame's fields, and every frame innermost first (the kernel last). */
export interface DebugStop extends DebugFrame {
  frames: DebugFrame[];
  /** Set on the last stop when the interpreter failed there (an out-of-bounds access…). */
  error?: string;
}

interface OpenFrame {
  fn: KernelSource;
  site: ts.Node;
}

/** A name the user wrote, the IR value or variable it stands for, and where it is visible. */
interface NameRecord {
  name: string;
  declaredAt: number;
  scope: ts.Node;
  type: ValueType;
  parameter: boolean;
  /** `v<id>` for a value, `x<id>` for a variable: what definedAt is keyed by. */
  key: string;
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
  /** The kernel and its device functions. */
  private readonly functions: KernelSource[];
  /** The frames open at the current stop, the kernel first. */
  private stack: OpenFrame[] = [];
  private currentSite: ts.Node | undefined;
  private firstOfStop: Stmt | undefined;
  private lastState: ProgramState | undefined;
  /** When each value or variable was last (re)defined, in statements run: picks the live one of a name inlined twice. */
  private readonly definedAt = new Map<string, number>();
  /** Variables assigned so far: one declared without a value (`let total;`) has none to show before. */
  private readonly assigned = new Set<number>();
  private statementsRun = 0;

  constructor(
    private readonly kernel: KernelSource,
    ir: KernelIR,
    text: string,
    private readonly maxStops: number,
  ) {
    this.lines = new LineMap(text);
    this.functions = [kernel, ...new Set(kernel.helpers?.values() ?? [])].filter((f, i, all) => all.findIndex((g) => g.fn === f.fn) === i);
    this.names = nameRecords(this.functions, ir, this.assigned);
  }

  /** The interpreter's statement hook. */
  readonly hook = (statement: Stmt, state: ProgramState): void => {
    this.lastState = state;
    this.noteDefinition(statement);
    const site = this.siteOf(statement);
    if (!site || (site === this.currentSite && statement !== this.firstOfStop)) return;
    if (this.stops.length >= this.maxStops) throw new StopCapReached();
    this.currentSite = site;
    this.firstOfStop = statement;
    this.enter(site);
    this.stops.push(this.stopAt(state));
  };

  /** The last stop: where the interpreter failed, with what was bound then. */
  recordError(span: Span, message: string): void {
    const site = this.siteAt(span.start) ?? this.currentSite;
    if (site) this.enter(site);
    const at = this.position(span);
    const stop: DebugStop = site && this.lastState ? this.stopAt(this.lastState) : { name: this.kernel.name, ...at, bindings: [], frames: [] };
    this.stops.push({ ...stop, ...at, frames: stop.frames.map((f, i) => (i === 0 ? { ...f, ...at } : f)), error: message });
  }

  private noteDefinition(s: Stmt): void {
    const n = this.statementsRun++;
    if (s.kind === "let") this.definedAt.set(`v${s.value.id}`, n);
    else if (s.kind === "declare" || s.kind === "assign") this.definedAt.set(`x${s.variable.id}`, n);
    if (s.kind === "assign") this.assigned.add(s.variable.id);
    else if (s.kind === "for") this.definedAt.set(`x${s.counter.id}`, n);
  }

  /** The frames at `site`: the same function moves on, a caller's function returns to it, another is called. */
  private enter(site: ts.Node): void {
    const fn = this.functionOf(site.getStart(this.kernel.sourceFile)) ?? this.kernel;
    const open = this.stack.findIndex((f) => f.fn === fn);
    if (open >= 0) {
      this.stack.length = open + 1;
      this.stack[open].site = site;
      return;
    }
    const caller = this.stack[this.stack.length - 1];
    if (caller) caller.site = callSite(caller, fn.name, this.kernel.sourceFile) ?? caller.site;
    this.stack.push({ fn, site });
  }

  /** The first and last line of the kernel and of each device function it may call. */
  functionLines(): [number, number][] {
    const sf = this.kernel.sourceFile;
    return this.functions.map((f) => [this.lines.at(f.fn.getStart(sf)).line, this.lines.at(f.fn.getEnd()).line]);
  }

  /** The 1-based lines that hold a statement of `ir` (where a breakpoint can stop). */
  statementLines(ir: KernelIR): number[] {
    const lines = new Set(this.statementSpans(ir).map((span) => this.lines.at(span.start).line));
    return [...lines].sort((a, b) => a - b);
  }

  /** The spans of the statements of `ir` (each TypeScript statement once). */
  statementSpans(ir: KernelIR): Span[] {
    const sites = new Set<ts.Node>();
    const visit = (statements: readonly Stmt[]) => {
      for (const s of statements) {
        const site = this.siteOf(s);
        if (site) sites.add(site);
        for (const body of bodiesOf(s)) visit(body);
      }
    };
    visit(ir.body);
    return [...sites].map((site) => ({ start: site.getStart(this.kernel.sourceFile), end: site.getEnd() }));
  }

  private stopAt(state: ProgramState): DebugStop {
    const frames = this.stack.map((f) => this.frameAt(f, state)).reverse();
    return { ...frames[0], frames };
  }

  private frameAt(frame: OpenFrame, state: ProgramState): DebugFrame {
    const start = frame.site.getStart(this.kernel.sourceFile);
    // Of the names in scope, an inner declaration hides an outer one; of a device function's
    // names (one per inlined call), the one defined last is the running call's.
    const byName = new Map<string, { record: NameRecord; values: BlockValues; at: number }>();
    for (const record of this.visible(frame.site, start)) {
      const values = record.read(state);
      if (!values) continue;
      const at = this.definedAt.get(record.key) ?? -1;
      const known = byName.get(record.name);
      if (!known || record.declaredAt > known.record.declaredAt || (record.declaredAt === known.record.declaredAt && at > known.at)) byName.set(record.name, { record, values, at });
    }
    const bindings = [...byName.values()]
      .sort((a, b) => a.record.declaredAt - b.record.declaredAt)
      .map(({ record, values }) => ({ name: record.name, type: record.type, values, parameter: record.parameter }));
    return { name: frame.fn.name, ...this.position({ start, end: frame.site.getEnd() }), bindings };
  }

  /** The function (kernel or device function) whose body holds `offset`. */
  private functionOf(offset: number): KernelSource | undefined {
    const sf = this.kernel.sourceFile;
    return this.functions.find((f) => f.fn.body.getStart(sf) <= offset && offset < f.fn.body.getEnd());
  }

  private siteAt(offset: number): ts.Node | undefined {
    const fn = this.functionOf(offset);
    return fn && siteContaining(fn, offset);
  }

  private position(span: Span): { span: Span; line: number; column: number } {
    const { line, column } = this.lines.at(span.start);
    return { span, line, column };
  }

  /** The names in scope before `site` runs, declared before it. */
  private visible(site: ts.Node, start: number): NameRecord[] {
    let known = this.visibleAt.get(site);
    if (!known) {
      known = this.names.filter((r) => r.scope.getStart(this.kernel.sourceFile) <= start && start < r.scope.getEnd() && r.declaredAt < start);
      this.visibleAt.set(site, known);
    }
    return known;
  }

  private siteOf(s: Stmt): ts.Node | undefined {
    if (this.sites.has(s)) return this.sites.get(s);
    const span = s.kind === "let" ? s.value.span : s.span;
    const site = this.siteAt(span.start);
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

/** Whether the declaration at `offset` is a `let x;` with no value. */
function declaredWithoutValue(fn: KernelSource, offset: number): boolean {
  const sf = fn.sourceFile;
  let found = false;
  const visit = (node: ts.Node): void => {
    if (node.getStart(sf) > offset || node.getEnd() <= offset) return;
    if (ts.isVariableDeclaration(node) && node.name.getStart(sf) === offset) found = node.initializer === undefined;
    else ts.forEachChild(node, visit);
  };
  visit(fn.fn);
  return found;
}

/** The caller's statement that calls `name`: its next call from where it is, else its first. */
function callSite(caller: OpenFrame, name: string, sf: ts.SourceFile): ts.Node | undefined {
  const calls: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === name) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(caller.fn.fn.body);
  const from = caller.site.getStart(sf);
  const call = calls.find((c) => c.getStart(sf) >= from) ?? calls[0];
  return call && siteContaining(caller.fn, call.getStart(sf));
}

/**
 * Every user name of the kernel and its device functions: parameters and consts (KernelIR.valueNames),
 * `let` variables and loop counters. A `let` without a value (`let total;`, as a Python variable
 * assigned in both branches of an `if` is lowered) shows once it is assigned (`assigned`).
 */
function nameRecords(functions: readonly KernelSource[], ir: KernelIR, assigned: ReadonlySet<number>): NameRecord[] {
  const values = new Map<number, Value>();
  const records: NameRecord[] = [];
  const sf = functions[0].sourceFile;
  const around = (offset: number) => functions.find((f) => f.fn.getStart(sf) <= offset && offset < f.fn.getEnd()) ?? functions[0];
  const variable = (v: { id: number; name: string; type: ValueType; span: Span }) => {
    const unset = declaredWithoutValue(around(v.span.start), v.span.start);
    records.push({
      name: v.name,
      declaredAt: v.span.start,
      scope: scopeOf(around(v.span.start), v.span.start),
      type: v.type,
      parameter: false,
      key: `x${v.id}`,
      read: (state) => (unset && !assigned.has(v.id) ? undefined : state.variables.get(v.id)),
    });
  };
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
    const fn = around(n.span.start);
    const parameter = n.span.start < fn.fn.body.getStart(sf);
    records.push({
      name: n.name,
      // A parameter is visible from the body's first statement on.
      declaredAt: parameter ? -1 : n.span.start,
      scope: parameter ? fn.fn : scopeOf(fn, n.span.start),
      type: value.type,
      parameter,
      key: `v${n.value}`,
      read: (state) => state.values.get(n.value),
    });
  }
  return records;
}

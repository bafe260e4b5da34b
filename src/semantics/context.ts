// The state of lowering one kernel: the IR being built, the diagnostics log, and the scopes of
// names. Statement and expression lowering (statements.ts, expressions.ts) and the intrinsics
// all work through it.

import type ts from "typescript";
import { DiagnosticLog, type Span } from "../diagnostics/diagnostic";
import { typeToString, type PointerView, type Stmt, type Value, type ValueName, type Variable } from "../ir/ir";
import type { Target } from "../ir/target";
import type { KernelSource } from "../syntax/parse";
import { spanOf } from "../syntax/parse";
import { IrBuilder } from "./builder";
import { lowerExpression } from "./expressions";
import { describeAggregate, isAggregate, type Aggregate, type Lowered, type Slot } from "./aggregates";
import { Codes } from "../diagnostics/codes";
import { ValueFactory } from "./values";
import type { IntrinsicContext } from "./intrinsic-args";
import { TypesSeen } from "./types-seen";
import { loopBody } from "./definite-assignment";
import { inlineHelperWith } from "./device-functions";

/** What a name in a kernel stands for. */
export type Binding =
  | { kind: "value"; value: Value; declaredAt: Span; what: "const" | "parameter" }
  /**
   * A `let` (or a parameter reassigned in a loop or branch). `depth` is the run-time depth where
   * the variable starts: assigned a value of another type at that depth (straight-line code after
   * it, as Triton's SSA names allow: `c0 = seed; c0 += offsets`), the name starts a new variable.
   */
  | {
      kind: "variable";
      variable: Variable;
      counter: boolean;
      depth?: number;
      /**
       * The name's variable outside the run-time loop or branch this one was started in, when the
       * name was given a value of another dtype or shape there (double sparsity's `att_value`, f32,
       * assigned an f16 tl.sum and then `*= sm_scale`, f32 again): Triton checks only the type a
       * loop carries or a branch yields, so the name holds the new value until a value of the outer
       * variable's type is stored back into it (assignment.ts). Still set where the scope ends: KL2007.
       */
      carries?: { outer: Binding & { kind: "variable" }; span: Span };
    }
  /** A tuple or block pointer bound to a `const` (or a parameter). */
  | { kind: "aggregate"; value: Aggregate; declaredAt: Span; what: "const" | "parameter" }
  /** A tuple or block pointer held in variables (a `let`, or a parameter reassigned in a loop or branch). */
  /** `depth`: the run-time depth it was declared at (a tuple's name given another kind of value there is rebound). */
  | { kind: "slot"; slot: Slot; declaredAt: Span; depth?: number }
  /**
   * A name whose declaration failed (its initialiser had an error, already reported): uses of it
   * stay quiet, so one mistake gives one diagnostic.
   */
  | { kind: "unknown"; declaredAt: Span; what: "const" | "let" | "parameter" }
  /**
   * `let x;`, Python's name that is first assigned later (in each branch of an if, say): its first
   * assignment gives it its type (assignment.ts); whether it has a value where it is read depends
   * on the paths to there (definite-assignment.ts). `depth` is the run-time depth of the
   * declaration; `first` the variable, once a run-time branch or loop has assigned it.
   */
  | Unassigned;

/** A `let x;` binding (see Binding). Its object stays in the scope, so the paths can track it. */
export interface Unassigned {
  kind: "unassigned";
  name: string;
  declaredAt: Span;
  depth: number;
  /**
   * The variable declared before the outermost run-time if or loop holding the first assignment, and that assignment;
   * `loops`: the run-time loops around it (LoweringContext.runtimeLoops), whose end ends the name's value in Triton.
   */
  first?: { variable: Variable; span: Span; loops: readonly object[]; depth: number; otherPaths?: true };
  /** The last place where a path that didn't assign it joined one that did (for the message where it is read). */
  skipped?: Skipped;
}

/** Where a path without an assignment of a `let x;` joined: the branch or loop, why, and what to do, in words. */
export interface Skipped {
  span: Span;
  why: string;
  fix: string;
  related: string;
}

/**
 * What the compiler may assume about launch arguments besides constexprs (Triton specialises the
 * same way): integer scalars known to be 1 at this launch become the constant 1, so a unit stride
 * makes `ptr + offs * stride` contiguous and its loads wide; integer scalars that are non-negative
 * multiples of 16 (`divisible`: sizes and strides of tensors whose rows are whole 32-byte sectors of halves)
 * stay parameters, known to be multiples of 16, so runs of those loads are aligned and their
 * masks the same across each run (codegen/contiguity.ts). The harness compiles one variant per
 * specialisation.
 */
export interface Specialization {
  ones?: readonly string[];
  divisible?: readonly string[];
  /**
   * Pointer arguments of the launch that share memory (one tensor passed as two, or two views of
   * one storage): each pointer parameter named here is compiled as a view of its storage, a
   * binding of its own in their place (KernelIR.views), so a store through one is seen by a load
   * through the other in the same launch, as on CUDA (WebGPU forbids binding one buffer twice
   * where one binding is written).
   */
  views?: Readonly<Record<string, PointerView>>;
}

/** What a `divisible` parameter is known to be a multiple of (Triton's `tt.divisibility`). */
export const DIVISIBILITY = 16;

export class LoweringContext implements IntrinsicContext {
  readonly log = new DiagnosticLog();
  readonly b = new IrBuilder();
  readonly values = new ValueFactory(this.b, this.log);
  /** The pointer parameters a tl.store writes through. */
  readonly written = new Set<string>();
  /** Every name bound to a value, for the debugger (KernelIR.valueNames). */
  readonly valueNames: ValueName[] = [];
  readonly sf: ts.SourceFile;
  /** The type of every name bound and expression lowered, for the editor (types-seen.ts). */
  readonly seen = new TypesSeen();
  /** The node being lowered, where an internal error is reported. */
  current: ts.Node;
  /** The loops around the statement being lowered, innermost last (break/continue, control-flow.ts). */
  readonly loops: ("loop" | "unrolled")[] = [];
  /** One object per run-time loop being lowered, innermost last: which loop a `let x;` was first assigned in (Unassigned.first). */
  readonly runtimeLoops: object[] = [];
  /** Above 0 while lowering the branch a constexpr condition doesn't take: it binds nothing for later statements. */
  discarding = 0;
  /**
   * The statement list that each run-time if or loop being lowered goes into, outermost first
   * (index = the run-time depth outside it): where a `let x;` first assigned inside it is declared.
   */
  readonly runtimeLists: Stmt[][] = [];
  /** How many run-time branches and loops surround the statement being lowered (ifs and loops the GPU runs). */
  get runtimeDepth(): number {
    return this.runtimeLists.length;
  }
  /** The `let x;` names first assigned in a run-time branch or loop that have a value on every path to here (definite-assignment.ts). */
  assigned = new Set<Unassigned>();
  /** The kernel's early-return flag, where its returns need one (returns.ts). */
  returnFlag?: Variable;
  /** The device functions being inlined, outermost first (device-functions.ts); `sites`: their calls' spans, made once per frame. */
  readonly calls: { kernel: KernelSource; span: Span; result?: Lowered; returns?: boolean; sites?: readonly Span[] }[] = [];
  private readonly scopes: Map<string, Binding>[] = [];

  constructor(
    readonly kernel: KernelSource,
    readonly target: Target,
    readonly specialization: Specialization,
  ) {
    this.sf = kernel.sourceFile;
    this.current = kernel.fn;
  }

  /** `node`'s span; inside an inlined device function, with the calls that inlined it (Span.inlinedAt). */
  span(node: ts.Node): Span {
    const span = spanOf(node, this.sf);
    const frame = this.calls[this.calls.length - 1];
    if (!frame) return span;
    frame.sites ??= this.calls.map((c) => ({ start: c.span.start, end: c.span.end }));
    return { ...span, inlinedAt: frame.sites };
  }

  /** Lowers `node` to one value, with `current` pointing at it meanwhile (an argument left out: undefined). */
  expression(node: ts.Expression | undefined): Value | undefined {
    const lowered = this.lowered(node);
    return lowered && this.valueOf(lowered, node!);
  }

  /** `lowered` (lowered from `node`) as one value: a tuple, block pointer or dtype is reported. */
  valueOf(lowered: Lowered, node: ts.Expression): Value | undefined {
    if (!isAggregate(lowered)) return lowered;
    this.log.error(lowered.kind === "dtype" ? Codes.dtypeAsValue : Codes.aggregateValue, this.span(node), aggregateAsValueMessage(lowered));
    return undefined;
  }

  /** Lowers `node` where a tuple or a block pointer may stand as well as a value (declarations, arguments, returns). */
  lowered(node: ts.Expression | undefined): Lowered | undefined {
    if (!node) return undefined;
    const saved = this.current;
    this.current = node;
    try {
      const result = lowerExpression(this, node);
      if (result && !isAggregate(result)) this.seen.expression(this.span(node), result.type);
      return result;
    } finally {
      this.current = saved;
    }
  }

  markWritten(param: string): void {
    this.written.add(param);
  }

  withValue<T>(v: Value | undefined, fn: (v: Value) => T | undefined): T | undefined {
    return v ? fn(v) : undefined;
  }

  /** Runs `fn` in a new innermost scope, optionally holding `bindings`. */
  inScope(fn: () => void, bindings?: Map<string, Binding>): void {
    this.scopes.push(bindings ?? new Map());
    for (const [name, binding] of bindings ?? []) {
      this.seen.bound(name, binding);
      // A device function's parameters, named for the debugger.
      if (binding.kind === "value") this.valueNames.push({ name, span: binding.declaredAt, value: binding.value.id });
    }
    try {
      fn();
    } finally {
      const scope = this.scopes.pop();
      for (const [name, binding] of scope ?? []) if (binding.kind === "variable" && binding.carries) this.carriedTypeError(name, binding, binding.carries.span);
    }
  }

  /**
   * KL2007 for a name that holds a value of another type than its variable outside the loop or
   * branch it was given it in (Binding.carries), where the loop or branch ends or is left (`at`).
   */
  carriedTypeError(name: string, binding: Binding & { kind: "variable" }, at: Span): void {
    const { outer, span } = binding.carries!;
    const [have, want] = [typeToString(binding.variable.type), typeToString(outer.variable.type)];
    this.log.error(Codes.assignType, at, `'${name}' is ${want} but is assigned ${have} in this loop or branch, and holds it still where the loop or branch ends or is left; a loop carries, and a branch yields, one dtype and shape per name — give it a value of ${want} again before then (convert with .to(…)), or initialise it with the final type`, [
      { span, message: `assigned ${have} here` },
      { span: outer.variable.span, message: `'${name}' declared here as ${want}` },
    ]);
  }

  /** Names holding a value of another type than their variable outside the loops and branches they are in (Binding.carries): KL2007 at a break, continue or return. */
  checkCarried(at: Span): void {
    for (const scope of this.scopes) for (const [name, binding] of scope) if (binding.kind === "variable" && binding.carries) this.carriedTypeError(name, binding, at);
  }

  /** The statements `fn` emits, lowered in a scope of their own (a block, a branch). */
  scoped(fn: () => void): Stmt[] {
    return this.b.collect(() => this.inScope(fn));
  }

  /** `fn`'s result, lowered inside a loop of this kind (what break and continue may leave); `node` is the loop. */
  inLoop<T>(kind: "loop" | "unrolled", fn: () => T, node?: ts.Node): T {
    this.loops.push(kind);
    if (kind === "loop") this.runtimeLoops.push({});
    try {
      return kind === "loop" ? loopBody(this, this.span(node ?? this.current), () => this.atRunTime(fn)) : fn();
    } finally {
      this.loops.pop();
      if (kind === "loop") this.runtimeLoops.pop();
    }
  }

  /** `fn`'s result, lowered inside a branch or loop the GPU decides on (not a constexpr one). */
  atRunTime<T>(fn: () => T): T {
    this.runtimeLists.push(this.b.statements);
    try {
      return fn();
    } finally {
      this.runtimeLists.pop();
    }
  }

  /** The run-time depths whose branch runs to the end of the kernel (statements.ts: what an early return moves into a branch). */
  private readonly tails = new Map<number, number>();

  /** `fn`'s result, lowered in a run-time branch that runs to the kernel's end when `tail` (`fn` opens the branch's scope). */
  asTail<T>(tail: boolean, fn: () => T): T {
    if (!tail) return fn();
    const depth = this.runtimeDepth;
    this.tails.set(depth, this.scopes.length);
    try {
      return fn();
    } finally {
      this.tails.delete(depth);
    }
  }

  /** Whether every run-time branch from `depth` in to here runs to the kernel's end: nothing after them reads a name bound here. */
  runsToEnd(depth: number): boolean {
    for (let d = depth + 1; d <= this.runtimeDepth; d++) if (!this.tails.has(d)) return false;
    return depth < this.runtimeDepth;
  }

  /** `fn`'s result, lowered as the branch a constexpr condition doesn't take (its code, diagnostics and assignments are dropped). */
  discarded<T>(fn: () => T): T {
    const assigned = new Set(this.assigned);
    this.discarding++;
    try {
      return fn();
    } finally {
      this.discarding--;
      this.assigned = assigned;
    }
  }

  /** Runs `fn` seeing only `bindings` and no enclosing loop: a device function's body, inlined. */
  isolated(bindings: Map<string, Binding>, fn: () => void): void {
    const scopes = this.scopes.splice(0);
    const loops = this.loops.splice(0);
    try {
      this.inScope(fn, bindings);
    } finally {
      this.scopes.splice(0, this.scopes.length, ...scopes);
      this.loops.splice(0, this.loops.length, ...loops);
    }
  }

  bind(name: string, binding: Binding): void {
    this.scopes[this.scopes.length - 1].set(name, binding);
    if (binding.kind === "value") this.valueNames.push({ name, span: binding.declaredAt, value: binding.value.id });
    this.seen.bound(name, binding);
  }

  /** Binds `name` in the scope of the innermost branch that runs to the kernel's end (runsToEnd), for the rest of that branch. */
  bindInTail(name: string, binding: Binding): void {
    const scope = this.scopes[this.tails.get(this.runtimeDepth) ?? this.scopes.length - 1] ?? this.scopes[this.scopes.length - 1];
    scope.set(name, binding);
    if (binding.kind === "value") this.valueNames.push({ name, span: binding.declaredAt, value: binding.value.id });
    this.seen.bound(name, binding);
  }

  /** Binds `name` again where it is bound now (a parameter reassigned in straight-line code takes the new value). */
  rebind(name: string, binding: Binding): void {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      if (!this.scopes[i].has(name)) continue;
      this.scopes[i].set(name, binding);
      if (binding.kind === "value") this.valueNames.push({ name, span: binding.declaredAt, value: binding.value.id });
      this.seen.bound(name, binding);
      return;
    }
  }

  helperNamed(name: string): KernelSource | undefined {
    return this.lookup(name) ? undefined : this.kernel.helpers?.get(name);
  }

  inlineHelper(helper: KernelSource, args: readonly Value[], span: Span): Lowered | undefined {
    return inlineHelperWith(this, helper, args, span);
  }

  lookupValue(name: string): Value | undefined {
    const binding = this.lookup(name);
    return binding?.kind === "value" ? binding.value : undefined;
  }

  lookup(name: string): Binding | undefined {
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const found = this.scopes[i].get(name);
      if (found) return found;
    }
    return undefined;
  }
}

/** What to write instead of using a tuple or a block pointer as one value. */
function aggregateAsValueMessage(a: Aggregate): string {
  if (a.kind === "dtype") return `this is ${describeAggregate(a)}, known while compiling, not a number: use it where a dtype goes (tl.cast(x, dtype), x.to(dtype), tl.full(shape, v, dtype)) or compare it (x.dtype === tl.float16)`;
  if (a.kind === "blockPtr") return `this is ${describeAggregate(a)}, not a value: read it with tl.load(p, { boundaryCheck: [0, 1] }), write with tl.store, move it with tl.advance`;
  if (a.kind === "tensorDesc") return `this is ${describeAggregate(a)}, not a value: read a block with desc.load([o0, o1]), write one with desc.store([o0, o1], value), update one with desc.atomic_add([o0, o1], value)`;
  if (a.wide) return `this is ${describeAggregate(a)}; blocks have no more than 3 axes: split it first, const [a, b] = tl.split(x), as Triton's kernels do with a last axis of 2`;
  const names = a.elements.map((_, i) => String.fromCharCode(97 + (i % 26))).join(", ");
  return `this is ${describeAggregate(a)}, not one value: destructure it, const [${names}] = …, or take one element, t[0]`;
}

// Device functions, as Triton's @triton.jit helpers: a kernel(...) called from another kernel's
// body is inlined at the call. Its parameters are bound to the arguments (checked against their
// annotations; generic ones take what comes), its body is lowered in a scope of its own, and its
// last statement `return expr;` gives the call's value. Recursion is reported at the call.

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { NumDtype, Stmt, Value } from "../ir/ir";
import { typeToString } from "../ir/ir";
import type { HelperParam, KernelSource } from "../syntax/parse";
import type { Binding, LoweringContext } from "./context";
import { lowerStatement, scalarCondition } from "./statements";
import { alwaysReturns, mayReturn, splittable, statementsOf } from "./returns";
import { runtimeIf } from "./definite-assignment";
import { dtypeOf, isConst, operandOf } from "./values";
import { data } from "./builder";
import { promote } from "./rules";
import { at, describeAggregate, isAggregate, type Lowered } from "./aggregates";
import { storeInitial } from "./assignment";
import { joinedVariable } from "./ternary";
import { parametersReassignedInControlFlow } from "./reassigned";
import { splitArguments } from "./keywords";

/** The kernel a call's callee names, unless a local name shadows it. */
export function helperCalled(ctx: LoweringContext, callee: ts.Expression): KernelSource | undefined {
  if (!ts.isIdentifier(callee) || ctx.lookup(callee.text)) return undefined;
  return ctx.kernel.helpers?.get(callee.text);
}

/** Inlines `helper` at `node`: its value, "void" when it returns none, undefined after an error. */
export function callHelper(ctx: LoweringContext, helper: KernelSource, node: ts.CallExpression, asStatement: boolean): Lowered | undefined {
  const span = ctx.span(node);
  if (recursive(ctx, helper, span)) return undefined;
  const bindings = bindArguments(ctx, helper, node, span);
  if (!bindings) return undefined;
  const frame = inline(ctx, helper, bindings, span);
  if (!frame) return undefined;
  if (frame.result) return at(frame.result, span);
  if (frame.returns) return undefined;
  if (!asStatement) ctx.log.error(Codes.helperReturn, span, `${helper.name}(…) returns no value; end it with return <value>; or call it as a statement of its own`);
  return undefined;
}

/**
 * Inlines `helper` with its parameters bound to `args` (a combine function's operands, passed by
 * name to tl.reduce or tl.associativeScan): its value, undefined after a diagnostic.
 */
export function inlineHelperWith(ctx: LoweringContext, helper: KernelSource, args: readonly Value[], span: Span): Lowered | undefined {
  if (recursive(ctx, helper, span)) return undefined;
  const bindings = new Map<string, Binding>();
  let ok = true;
  helper.signature.forEach((p, i) => {
    const value = checkArgument(ctx, helper, p, { ...args[i], span });
    if (value) bindings.set(p.name, { kind: "value", value: { ...value, span: p.span }, declaredAt: p.span, what: "parameter" });
    else ok = false;
  });
  if (!ok) return undefined;
  const frame = inline(ctx, helper, bindings, span);
  if (frame && !frame.result) ctx.log.error(Codes.helperReturn, span, `${helper.name} returns no value; a combine function ends with return <value>;`, [{ span: helper.nameSpan, message: `'${helper.name}' is defined here` }]);
  return frame?.result && at(frame.result, span);
}

/** A call of `helper` from inside itself (directly or not) is reported at `span`. */
function recursive(ctx: LoweringContext, helper: KernelSource, span: Span): boolean {
  const chain = [ctx.kernel, ...ctx.calls.map((c) => c.kernel)];
  const from = chain.indexOf(helper);
  if (from < 0) return false;
  const cycle = [...chain.slice(from), helper].map((k) => k.name).join(" → ");
  ctx.log.error(Codes.unsupportedCall, span, `kernels can't call themselves (no recursion on the GPU: device functions are inlined at each call): ${cycle}; write the repetition as a loop`, [
    { span: helper.nameSpan, message: `'${helper.name}' is defined here` },
  ]);
  return true;
}

/** Lowers `helper`'s body with `bindings` as its parameters: the frame with its result, undefined after an error. */
function inline(ctx: LoweringContext, helper: KernelSource, bindings: Map<string, Binding>, span: Span): { result?: Lowered; returns?: boolean } | undefined {
  const before = ctx.log.diagnostics.length;
  const frame: LoweringContext["calls"][number] = { kernel: helper, span };
  ctx.calls.push(frame);
  try {
    ctx.isolated(bindings, () => lowerHelperBody(ctx, helper));
  } finally {
    ctx.calls.pop();
  }
  relateToCall(ctx, before, helper, span);
  if (ctx.log.diagnostics.slice(before).some((d) => d.severity === "error")) return undefined;
  return frame;
}

/** Arguments evaluated in the caller's scope, checked against the parameters' annotations. */
function bindArguments(ctx: LoweringContext, helper: KernelSource, node: ts.CallExpression, span: Span): Map<string, Binding> | undefined {
  const params = helper.signature;
  // Arguments by position, or by name in a trailing object literal (Triton's keyword arguments).
  const split = splitArguments(ctx.log, (n) => ctx.span(n), helper.name, { params: params.map((p) => p.name) }, node.arguments);
  if (!split) return undefined;
  const args = split.args;
  if (args.length !== params.length || args.some((a) => !a)) {
    const list = params.map((p) => p.name).join(", ");
    const missing = params.filter((_, i) => !args[i]).map((p) => `'${p.name}'`);
    const count = args.filter((a) => a).length;
    const named = split.keywords.size > 0 && missing.length > 0 ? `; ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing` : "";
    ctx.log.error(Codes.helperCall, span, `${helper.name} takes ${params.length} argument${params.length === 1 ? "" : "s"} (${list}), got ${count}${named}`, [
      { span: helper.nameSpan, message: `'${helper.name}' is defined here` },
    ]);
    return undefined;
  }
  const bindings = new Map<string, Binding>();
  let ok = true;
  params.forEach((p, i) => {
    const arg = ctx.lowered(args[i]);
    if (arg && isAggregate(arg)) {
      // A tuple or a block pointer passes to a generic parameter (Triton's helpers take block
      // pointers); a dtype to a generic or constexpr one (Triton's `dtype: tl.constexpr`).
      if (p.type && !(arg.kind === "dtype" && p.type.kind === "constexpr")) {
        ctx.log.error(Codes.helperArgType, ctx.span(args[i]!), `${helper.name}'s parameter '${p.name}' is annotated, and takes one value, got ${describeAggregate(arg)}; leave it unannotated to pass it`, [{ span: p.span, message: `'${p.name}' of ${helper.name} is declared here` }]);
        ok = false;
      } else {
        bindings.set(p.name, { kind: "aggregate", value: at(arg, p.span), declaredAt: p.span, what: "parameter" });
      }
      return;
    }
    const value = arg && checkArgument(ctx, helper, p, arg);
    if (value) bindings.set(p.name, { kind: "value", value: { ...value, span: p.span }, declaredAt: p.span, what: "parameter" });
    else ok = false;
  });
  return ok ? bindings : undefined;
}

function checkArgument(ctx: LoweringContext, helper: KernelSource, p: HelperParam, arg: Value): Value | undefined {
  const type = p.type;
  if (!type) return arg;
  const declared = [{ span: p.span, message: `'${p.name}' of ${helper.name} is declared here` }];
  const mismatch = (want: string) => {
    ctx.log.error(Codes.helperArgType, arg.span, `${helper.name}'s parameter '${p.name}' takes ${want}, got ${typeToString(arg.type)}`, declared);
    return undefined;
  };
  if (type.kind === "constexpr") {
    if (!isConst(arg) || arg.type.kind !== "data" || (arg.type.dtype !== "i32" && arg.type.dtype !== "u32")) {
      ctx.log.error(Codes.helperCall, arg.span, `${helper.name}'s parameter '${p.name}' is a constexpr: pass a compile-time integer (a literal, a constexpr or a module constant), got ${isConst(arg) ? typeToString(arg.type) : `a run-time ${typeToString(arg.type)}`}`, declared);
      return undefined;
    }
    return arg;
  }
  if (type.kind === "pointer") {
    return arg.type.kind === "pointer" && arg.type.pointee === type.dtype ? arg : mismatch(`Ptr<${type.dtype}> (a pointer or a block of pointers)`);
  }
  if (arg.type.kind === "pointer") return mismatch(`${type.dtype} values`);
  if (arg.type.dtype === type.dtype) return arg;
  // A literal adapts to the annotation, as it does to a variable's type.
  // Scalar annotations are never 8-bit (those are pointees only: syntax/parse.ts readParamType).
  if (isConst(arg) && arg.type.dtype !== "bool") return ctx.values.cast(arg, type.dtype as NumDtype, arg.span);
  return mismatch(`${type.dtype} values (a scalar or a block)`);
}

/** The helper's statements; a trailing `return expr;` (or an arrow's expression body) sets the call's result. */
function lowerHelperBody(ctx: LoweringContext, helper: KernelSource): void {
  const body = helper.fn.body;
  const frame = ctx.calls[ctx.calls.length - 1];
  promoteReassignedParameters(ctx, helper);
  if (!ts.isBlock(body)) {
    frame.returns = true;
    frame.result = ctx.lowered(body);
    return;
  }
  lowerTail(ctx, frame, body.statements);
}

/**
 * Statements ending the function: the last one may be its `return`, or an `if` on a constexpr
 * whose branches end in returns (tutorial 06's `_maybe_make_tensor_desc`: `if isinstance(p,
 * tl.tensor_descriptor): return p else: return tl.make_tensor_descriptor(p, …)`), decided while
 * compiling so only the branch taken is lowered, its return the call's result. An `if` on a
 * constexpr anywhere in the list may return too (FlagGems' limits.py: `if dtype_.is_floating():
 * … return value` then `if dtype_.is_int_signed(): …`): the branch taken goes on as the tail; so may the last
 * statement, its branches not all returning (an `elif` chain ending in a `tl.static_assert(False, …)`).
 */
function lowerTail(ctx: LoweringContext, frame: LoweringContext["calls"][number], statements: readonly ts.Statement[]): void {
  for (const [i, s] of statements.entries()) {
    const last = i === statements.length - 1;
    if (last && ts.isReturnStatement(s)) {
      ctx.current = s;
      frame.returns = s.expression !== undefined;
      // A value, or a tuple: `return [acc, l_i, m_i];` (Triton's `return acc, l_i, m_i`).
      if (s.expression) frame.result = ctx.lowered(s.expression);
    } else if (ts.isIfStatement(s) && mayReturn(s)) {
      ctx.current = s;
      const cond = scalarCondition(ctx, s.expression);
      if (!cond) return;
      // The last statement, an `if` on constexprs where not every path returns (tritonbench's profile.py:
      // `if IS_HIP: return … elif IS_CUDA: return … else: tl.static_assert(False, …)`): the branch taken is the tail.
      if (!isConst(cond) && last && !alwaysReturns(s)) return lowerStatement(ctx, s); // its returns are reported there
      if (!isConst(cond)) {
        // A function that returns no value may return early at run time (flash-attention's
        // _bwd_kernel_one_col_block: `if begin_m >= seqlen_q: …store…; return`): the rest of its
        // body goes to the branches that don't return, as a kernel's early return does (statements.ts).
        // One that returns a value may too (flash-attention's compute_block_masking: `if k_max_token < 0: return 0, 0,
        // 0, 0, n_extra_tokens`): each branch's result is assigned to variables the call then reads.
        if (splittable(s)) return splitTailAtReturn(ctx, frame, s, cond, statements.slice(i + 1));
        return lowerStatement(ctx, s); // its returns are reported there
      }
      const taken = cond.value !== 0 ? s.thenStatement : s.elseStatement;
      if (!taken) continue;
      // The branch taken, then what follows it (unless it returns), as the function's tail.
      const tail = alwaysReturns(taken) ? statementsOf(taken) : [...statementsOf(taken), ...statements.slice(i + 1)];
      for (const lowered of ctx.scoped(() => lowerTail(ctx, frame, tail))) ctx.b.push(lowered);
      return;
    } else {
      lowerStatement(ctx, s);
    }
  }
}

/**
 * `if (c) { …; return r; } rest` in a device function with a run-time c: `if (c) { … } else { rest }`, each branch
 * lowered as the function's tail; where the function returns a value, each branch assigns its result to variables
 * declared before the `if` (a tuple's elements one each), which the call reads.
 */
function splitTailAtReturn(ctx: LoweringContext, frame: LoweringContext["calls"][number], s: ts.IfStatement, cond: Value, rest: readonly ts.Statement[]): void {
  const branch = (b: ts.Statement | undefined) => [...(b ? statementsOf(b) : []), ...(b && alwaysReturns(b) ? [] : rest)];
  const results: (Lowered | undefined)[] = [];
  const lowerBranch = (b: ts.Statement | undefined) => () =>
    ctx.atRunTime(() =>
      ctx.scoped(() => {
        frame.result = undefined;
        lowerTail(ctx, frame, branch(b));
        results.push(frame.result);
      }),
    );
  const ends = [alwaysReturns(s.thenStatement), s.elseStatement !== undefined && alwaysReturns(s.elseStatement)] as const;
  const [then, otherwise] = runtimeIf(ctx, s, lowerBranch(s.thenStatement), lowerBranch(s.elseStatement), ends);
  const span = ctx.span(s);
  if (!returnsValue(frame.kernel.fn.body)) {
    ctx.b.push({ kind: "if", span, cond, then, else: otherwise });
    return;
  }
  const [a, b] = results;
  const read = a && b ? mergedResult(ctx, frame.kernel.name, a, b, then, otherwise, span) : undefined;
  if (a && b && !read) return;
  ctx.b.push({ kind: "if", span, cond, then, else: otherwise });
  frame.result = read?.();
}

/**
 * The results of a run-time if's two branches as one: a variable per value, declared here and assigned at the end of
 * each branch; what it returns reads them (after the if).
 */
function mergedResult(ctx: LoweringContext, name: string, a: Lowered, b: Lowered, then: Stmt[], otherwise: Stmt[], span: Span): (() => Lowered) | undefined {
  if (isAggregate(a) || isAggregate(b)) {
    if (!isAggregate(a) || !isAggregate(b) || a.kind !== "tuple" || b.kind !== "tuple" || a.elements.length !== b.elements.length) {
      ctx.log.error(Codes.helperReturn, span, `${name} returns ${isAggregate(a) ? describeAggregate(a) : "a value"} on one side of this run-time if and ${isAggregate(b) ? describeAggregate(b) : "a value"} on the other; its returns must give as many values`);
      return undefined;
    }
    const elements: (() => Lowered)[] = [];
    for (const [i, e] of a.elements.entries()) {
      const merged = mergedResult(ctx, name, e, b.elements[i], then, otherwise, span);
      if (!merged) return undefined;
      elements.push(merged);
    }
    return () => ({ kind: "tuple", elements: elements.map((read) => read()), span });
  }
  if (a.type.kind === "pointer" || b.type.kind === "pointer") {
    ctx.log.error(Codes.helperReturn, span, `${name} returns a pointer from a branch of a run-time if; return the offset and add it to the pointer after the call`);
    return undefined;
  }
  const dtype = dtypeOf(a) === "bool" && dtypeOf(b) === "bool" ? "bool" : promote(operandOf(a), operandOf(b));
  const shape = ctx.values.commonShape(a, b, span, `${name}'s returns`);
  const joined = shape && joinedVariable(ctx, `${name}.result`, data(dtype, shape), a, b, span);
  if (!joined) return undefined;
  then.push(...joined.assignA);
  otherwise.push(...joined.assignB);
  return () => ctx.b.emit({ op: "readVar", variable: joined.variable }, joined.variable.type, span);
}

/** Whether a function body returns a value anywhere (an arrow's expression body does). */
function returnsValue(body: ts.ConciseBody): boolean {
  if (!ts.isBlock(body)) return true;
  const visit = (node: ts.Node): boolean => {
    if (ts.isReturnStatement(node)) return node.expression !== undefined;
    if (ts.isFunctionLike(node)) return false;
    return ts.forEachChild(node, (child) => (visit(child) ? true : undefined)) ?? false;
  };
  return visit(body);
}

/**
 * The parameters a function reassigns inside a loop or a branch become variables holding their
 * argument (reassigned.ts); those reassigned in straight-line code stay bound to values (assignment.ts).
 */
export function promoteReassignedParameters(ctx: LoweringContext, fn: KernelSource): void {
  const names = new Set(fn.signature.map((p) => p.name));
  for (const name of parametersReassignedInControlFlow(fn.fn.body, names, fn.tlNames)) {
    const binding = ctx.lookup(name);
    if (binding?.kind !== "value" && binding?.kind !== "aggregate") continue;
    ctx.rebind(name, storeInitial(ctx, name, binding.declaredAt, binding.value, binding.declaredAt));
  }
}

/** `return` where it isn't a device function's last statement: a kernel's early return (returns.ts), or an error. */
export function returnStatement(ctx: LoweringContext, node: ts.ReturnStatement): void {
  const helper = ctx.calls[ctx.calls.length - 1]?.kernel;
  const span = ctx.span(node);
  if (helper) {
    ctx.log.error(Codes.helperReturn, span, `a device function returns only as its last statement; restructure ${helper.name}: let result = …; if (…) { result = …; } return result;`);
    return;
  }
  if (node.expression) {
    ctx.log.error(Codes.helperReturn, ctx.span(node.expression), "a kernel returns no value (its results are stored with tl.store); write return; — return <value> is for device functions, kernels called from other kernels");
    return;
  }
  if (ctx.loops.includes("unrolled")) {
    ctx.log.error(Codes.loopExit, span, "return can't leave a tl.staticRange loop: its body is copied once per value by the compiler; use a for loop, or guard the rest with if (…) { … }");
    return;
  }
  const flag = ctx.returnFlag;
  if (!flag) return; // the statements after it are placed where it doesn't run (statements.ts)
  ctx.b.push({ kind: "assign", span, variable: flag, value: ctx.b.constant(1, "bool", span) });
  if (ctx.loops.length > 0) ctx.b.push({ kind: "break", span });
}

/** Diagnostics reported inside the helper's body also point at the call. */
function relateToCall(ctx: LoweringContext, from: number, helper: KernelSource, call: Span): void {
  const diagnostics = ctx.log.diagnostics;
  for (let i = from; i < diagnostics.length; i++) {
    const d = diagnostics[i];
    if (d.span.start < helper.span.start || d.span.end > helper.span.end) continue;
    diagnostics[i] = { ...d, related: [...(d.related ?? []), { span: call, message: `in ${helper.name}, called from here` }] };
  }
}

/** A call of a plain function of the file: device functions are made with kernel(...). */
export function plainFunctionMessage(ctx: LoweringContext, name: string): string | undefined {
  for (const s of ctx.sf.statements) {
    const isFunction = ts.isFunctionDeclaration(s) && s.name?.text === name;
    const isArrow =
      ts.isVariableStatement(s) &&
      s.declarationList.declarations.some((d) => ts.isIdentifier(d.name) && d.name.text === name && d.initializer && (ts.isArrowFunction(d.initializer) || ts.isFunctionExpression(d.initializer)));
    if (isFunction || isArrow) {
      return `'${name}' is a plain function, which runs on the CPU; to call it from a kernel make it a device function: const ${name} = kernel(function ${name}(…) { … }), as Triton's @triton.jit helpers`;
    }
  }
  return undefined;
}

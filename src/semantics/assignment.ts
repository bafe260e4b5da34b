// Names given values: `const`/`let` declarations (a name or a destructuring pattern, Triton's
// `a, b = f(…)`), assignments (to a `let`, to a reassigned parameter, or to a pattern of them),
// and the variables that hold a tuple or a block pointer in a `let` (`Slot`, aggregates.ts).
//
// A parameter reassigned only in straight-line code is rebound to each new value (SSA, as Triton's
// code generator does it, so its type may change); one reassigned inside a loop or a branch is a
// variable from the start of the function (reassigned.ts decides), and keeps its type.

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Value, Variable } from "../ir/ir";
import { typeToString } from "../ir/ir";
import { describeAggregate, isAggregate, type Aggregate, type Lowered, type Slot, type TensorDescriptor } from "./aggregates";
import type { Binding, LoweringContext, Unassigned } from "./context";
import { declareBefore } from "./definite-assignment";
import { sameShape } from "./rules";
import { isConst } from "./values";
import { sameType } from "./dtypes";

type DeclarationKind = "const" | "let";

/** Binds a declaration's name or pattern to `init` (already lowered; undefined after its error). */
export function declare(ctx: LoweringContext, name: ts.BindingName, init: Lowered | undefined, kind: DeclarationKind, span: Span): void {
  if (ts.isIdentifier(name)) return declareName(ctx, name.text, ctx.span(name), init, kind, span);
  if (ts.isObjectBindingPattern(name)) {
    ctx.log.error(Codes.destructuring, ctx.span(name), "only tuples destructure in kernels, with [a, b] = …; objects aren't kernel values");
    quietly(ctx, name, kind);
    return;
  }
  const elements = patternElements(ctx, name, init);
  if (!elements) return quietly(ctx, name, kind);
  name.elements.forEach((element, i) => {
    if (ts.isOmittedExpression(element)) return;
    declare(ctx, element.name, elements[i], kind, span);
  });
}

function declareName(ctx: LoweringContext, name: string, at: Span, init: Lowered | undefined, kind: DeclarationKind, span: Span): void {
  if (!init) {
    // The initialiser's error is reported; later uses of the name stay quiet.
    ctx.bind(name, { kind: "unknown", declaredAt: at, what: kind });
    return;
  }
  if (kind === "const") {
    ctx.bind(name, isAggregate(init) ? { kind: "aggregate", value: init, declaredAt: at, what: "const" } : { kind: "value", value: init, declaredAt: at, what: "const" });
    return;
  }
  ctx.bind(name, storeInitial(ctx, name, at, init, span));
}

/** A variable (or a slot of them, for an aggregate) holding `init` from here on: a `let`'s binding. */
export function storeInitial(ctx: LoweringContext, name: string, at: Span, init: Lowered, span: Span): Binding {
  if (!isAggregate(init)) {
    const variable = ctx.b.variable(name, init.type, at);
    ctx.b.push({ kind: "declare", span, variable, init });
    ctx.values.declareVariable(variable, init);
    return { kind: "variable", variable, counter: false, depth: ctx.runtimeDepth };
  }
  return { kind: "slot", slot: declareSlot(ctx, name, at, init, span), declaredAt: at, depth: ctx.runtimeDepth };
}

function declareSlot(ctx: LoweringContext, name: string, at: Span, init: Aggregate, span: Span): Slot {
  const variable = (label: string, value: Value): Variable => {
    const v = ctx.b.variable(label, value.type, at);
    ctx.b.push({ kind: "declare", span, variable: v, init: value });
    ctx.values.declareVariable(v, value);
    return v;
  };
  // A dtype is known while compiling: the slot holds it, no variable.
  if (init.kind === "dtype") return { kind: "dtype", value: init, depth: ctx.runtimeDepth };
  if (init.kind === "tensorDesc") return { kind: "tensorDesc", value: init, depth: ctx.runtimeDepth };
  if (init.kind === "blockPtr") {
    const { kind: _kind, span: _span, offsets, ...fixed } = init;
    return { kind: "blockPtr", fixed, offsets: offsets.map((o, i) => variable(`${name}.offsets[${i}]`, o)), depth: ctx.runtimeDepth };
  }
  return {
    kind: "tuple",
    elements: init.elements.map((e, i) => (isAggregate(e) ? declareSlot(ctx, `${name}[${i}]`, at, e, span) : { kind: "variable", variable: variable(`${name}[${i}]`, e) })),
    ...(init.wide ? { wide: init.wide } : {}),
  };
}

/** The current contents of a slot. */
export function readSlot(ctx: LoweringContext, slot: Slot, span: Span): Lowered {
  const read = (variable: Variable) => ctx.values.readVariable(variable, span);
  switch (slot.kind) {
    case "variable":
      return read(slot.variable);
    case "tuple":
      return { kind: "tuple", elements: slot.elements.map((e) => readSlot(ctx, e, span)), span, ...(slot.wide ? { wide: slot.wide } : {}) };
    case "blockPtr":
      return { kind: "blockPtr", ...slot.fixed, offsets: slot.offsets.map(read), span };
    case "dtype":
    case "tensorDesc":
      return { ...slot.value, span };
  }
}

/** Assigns `value` to a slot, part by part; false after a diagnostic (the slot keeps its shape and types). */
function writeSlot(ctx: LoweringContext, slot: Slot, value: Lowered, name: string, span: Span): boolean {
  if (slot.kind === "variable") {
    if (isAggregate(value)) {
      ctx.log.error(Codes.assignType, span, `'${slot.variable.name}' holds ${typeToString(slot.variable.type)} and can't be assigned ${describeAggregate(value)}`);
      return false;
    }
    const coerced = coerceToVariable(ctx, value, slot.variable, span);
    if (coerced) ctx.b.push({ kind: "assign", span, variable: slot.variable, value: coerced });
    return coerced !== undefined;
  }
  if (slot.kind === "tuple") {
    if (isAggregate(value) && value.kind === "tuple" && value.elements.length === slot.elements.length && (value.wide ?? []).join() === (slot.wide ?? []).join()) {
      return slot.elements.every((e, i) => writeSlot(ctx, e, value.elements[i], `${name}[${i}]`, span));
    }
    ctx.log.error(Codes.assignType, span, `'${name}' holds a tuple of ${slot.elements.length} values and can only be assigned another, got ${isAggregate(value) ? describeAggregate(value) : typeToString(value.type)}`);
    return false;
  }
  if (slot.kind === "dtype") return writeDtype(ctx, slot, value, name, span);
  if (slot.kind === "tensorDesc") return writeDescriptor(ctx, slot, value, name, span);
  const fixed = slot.fixed;
  const same = (a: readonly Value[], b: readonly Value[]) => a.length === b.length && a.every((v, i) => v.id === b[i].id);
  // In straight-line code (a constexpr branch taken included) a new tl.make_block_ptr of as many axes replaces the
  // whole pointer from here on (inductor's flex attention remakes K_block_ptr for the full blocks in `if HAS_FULL_BLOCKS:`).
  const remade = isAggregate(value) && value.kind === "blockPtr" && ctx.runtimeDepth === slot.depth && value.offsets.length === slot.offsets.length;
  if (remade && ctx.discarding === 0) {
    const { kind: _kind, span: _span, offsets: _offsets, ...parts } = value;
    slot.fixed = parts;
  }
  if (!remade && (!isAggregate(value) || value.kind !== "blockPtr" || value.base.id !== fixed.base.id || !same(value.shape, fixed.shape) || !same(value.strides, fixed.strides) || value.blockShape.join() !== fixed.blockShape.join())) {
    ctx.log.error(Codes.assignType, span, `'${name}' is a block pointer, which keeps its base, shape, strides and block shape; move it with ${name} = tl.advance(${name}, offsets), or declare another with tl.makeBlockPtr`);
    return false;
  }
  return slot.offsets.every((variable, i) => {
    const coerced = coerceToVariable(ctx, value.offsets[i], variable, span);
    if (coerced) ctx.b.push({ kind: "assign", span, variable, value: coerced });
    return coerced !== undefined;
  });
}

/**
 * A `let` holding a dtype, assigned again: in straight-line code (a constexpr branch taken
 * included) it holds the new dtype from here on; in a run-time branch or loop only the same dtype,
 * since a dtype is decided while compiling.
 */
function writeDtype(ctx: LoweringContext, slot: Extract<Slot, { kind: "dtype" }>, value: Lowered, name: string, span: Span): boolean {
  if (!isAggregate(value) || value.kind !== "dtype") {
    ctx.log.error(Codes.dtypeAsValue, span, `'${name}' holds ${describeAggregate(slot.value)} and can only be assigned another dtype, got ${isAggregate(value) ? describeAggregate(value) : typeToString(value.type)}`);
    return false;
  }
  if (ctx.runtimeDepth === slot.depth) {
    if (ctx.discarding === 0) slot.value = value;
    return true;
  }
  if (sameType(value.type, slot.value.type)) return true;
  ctx.log.error(Codes.dtypeAsValue, span, `'${name}' is assigned ${describeAggregate(value)} inside a run-time if or loop, but a dtype is decided while compiling; choose it with a constexpr condition (if (BLOCK > 64) …, or c ? tl.float16 : tl.float32 with c a constexpr)`);
  return false;
}

/**
 * A `let` holding a tensor descriptor, assigned again: in straight-line code it holds the new one
 * from here on (`desc = tl.make_tensor_descriptor(…)` after `desc = …`); in a run-time branch or
 * loop only the same descriptor, since its parts are values of the code before the branch.
 */
function writeDescriptor(ctx: LoweringContext, slot: Extract<Slot, { kind: "tensorDesc" }>, value: Lowered, name: string, span: Span): boolean {
  if (isAggregate(value) && value.kind === "tensorDesc") {
    if (ctx.runtimeDepth === slot.depth) {
      if (ctx.discarding === 0) slot.value = value;
      return true;
    }
    if (sameDescriptor(value, slot.value)) return true;
  }
  ctx.log.error(
    Codes.descriptorMisuse,
    span,
    `'${name}' holds ${describeAggregate(slot.value)}; inside a run-time if or loop it can only be assigned the same descriptor, got ${isAggregate(value) ? describeAggregate(value) : typeToString(value.type)} — make each descriptor before the branch and give it a name of its own`,
  );
  return false;
}

function sameDescriptor(a: TensorDescriptor, b: TensorDescriptor): boolean {
  const same = (x: readonly Value[], y: readonly Value[]) => x.length === y.length && x.every((v, i) => v.id === y[i].id);
  return a.base.id === b.base.id && same(a.shape, b.shape) && same(a.strides, b.strides) && a.blockShape.join() === b.blockShape.join() && a.padding === b.padding;
}

/**
 * `target = value` where the target is a name or a pattern of names (`[acc, l, m] = inner(…)`);
 * `value` is lowered by the caller (after the target's current value, for `x op= y`).
 */
export function assignTo(ctx: LoweringContext, target: ts.Expression, value: Lowered | undefined, span: Span): void {
  if (ts.isParenthesizedExpression(target)) return assignTo(ctx, target.expression, value, span);
  if (ts.isArrayLiteralExpression(target)) {
    const elements = patternElements(ctx, target, value);
    target.elements.forEach((element, i) => {
      if (ts.isOmittedExpression(element)) return;
      if (ts.isSpreadElement(element)) return; // reported by patternElements
      assignTo(ctx, element, elements?.[i], span);
    });
    return;
  }
  if (!ts.isIdentifier(target)) {
    const what = ts.isObjectLiteralExpression(target) ? "only tuples destructure in kernels, with [a, b] = …; objects aren't kernel values" : "only local 'let' variables, parameters and [a, b] patterns of them can be assigned in kernels; memory is written with tl.store";
    ctx.log.error(ts.isObjectLiteralExpression(target) ? Codes.destructuring : Codes.declarationForm, ctx.span(target), what);
    return;
  }
  const name = target.text;
  const binding = ctx.lookup(name);
  if (!binding) {
    ctx.log.error(Codes.unknownName, ctx.span(target), `'${name}' is not defined in this kernel`);
    return;
  }
  if (!value) {
    // The value's error is reported. A `let x;` assigned it is unknown from here on, not
    // unassigned: its reads stay quiet, so one mistake gives one diagnostic.
    if (binding.kind === "unassigned" && ctx.discarding === 0) ctx.rebind(name, { kind: "unknown", declaredAt: binding.declaredAt, what: "let" });
    return;
  }
  switch (binding.kind) {
    case "unknown":
      if (binding.what !== "const") return; // its declaration's error is reported
      return constReassigned(ctx, target, binding.declaredAt);
    case "unassigned":
      return assignUnassigned(ctx, target, binding, value, span);
    case "value":
    case "aggregate":
      if (binding.what !== "parameter") return constReassigned(ctx, target, binding.declaredAt);
      // A parameter reassigned in straight-line code: the name stands for the new value from here on.
      ctx.rebind(name, isAggregate(value) ? { kind: "aggregate", value, declaredAt: binding.declaredAt, what: "parameter" } : { kind: "value", value, declaredAt: binding.declaredAt, what: "parameter" });
      return;
    case "variable":
      if (binding.counter) {
        ctx.log.error(Codes.counterAssigned, ctx.span(target), `the loop counter '${name}' can't be assigned inside the loop; the for statement steps it`);
        return;
      }
      if (!isAggregate(value) && (binding.depth === ctx.runtimeDepth || (binding.depth !== undefined && ctx.runsToEnd(binding.depth)))) return reassignStraight(ctx, name, binding.variable, binding.depth, value, span, binding.carries);
      // Another dtype or shape inside a run-time loop or branch: the name holds it until the outer type comes back (Binding.carries).
      if (!isAggregate(value) && ctx.discarding === 0 && !fitsVariable(ctx, value, binding.variable)) {
        ctx.bind(name, { ...(storeInitial(ctx, name, binding.variable.span, value, span) as Binding & { kind: "variable" }), carries: { outer: binding, span } });
        return;
      }
      // A pointer parameter made a tensor descriptor in a constexpr branch (tutorial 06's
      // `if FP8_OUTPUT: desc_v = _maybe_make_tensor_desc(desc_v, …)`): the name holds it from here on.
      // And a block's name given its reshape to four axes (TransformerEngine's `x = tl.reshape(x, (M, C, 2, 2))`, then tl.split(x)).
      if (isAggregate(value) && (value.kind === "tensorDesc" || (value.kind === "tuple" && value.wide !== undefined)) && binding.depth === ctx.runtimeDepth) {
        if (ctx.discarding === 0) ctx.rebind(name, storeInitial(ctx, name, binding.variable.span, value, span));
        return;
      }
      writeSlot(ctx, { kind: "variable", variable: binding.variable }, value, name, span);
      return;
    case "slot":
      // A tuple's name given a value of another kind in straight-line code, a constexpr branch taken
      // included (kernl's `attention_mask_batch_idx = (current_batch_idx,)`, then `= 0` under
      // `if MASK_BATCH_SIZE == 1:`): the name holds the new value from here on, as Python rebinds it.
      // In a run-time if or loop the tuple keeps its shape (KL2007), as Triton's yielded values do; a
      // tuple of another length stays KL2007 everywhere.
      if (binding.slot.kind === "tuple" && binding.depth === ctx.runtimeDepth && !(isAggregate(value) && value.kind === "tuple")) {
        if (ctx.discarding === 0) ctx.rebind(name, storeInitial(ctx, name, binding.declaredAt, value, span));
        return;
      }
      writeSlot(ctx, binding.slot, value, name, span);
      return;
  }
}

/**
 * A variable assigned in straight-line code after its start: a value of its type is stored in it;
 * one of another dtype or block shape (a scalar seed plus a block of offsets, a block's name given
 * a run-time scalar) starts a new variable
 * under the same name, as Triton's names are rebound (a parameter is too). In a loop or a run-time
 * branch the variable keeps its type (KL2007), as Triton's loop-carried and if-yielded values do.
 */
/** Binding.carries: the outer variable of a name given another type in a loop or branch. */
type Carried = NonNullable<Extract<Binding, { kind: "variable" }>["carries"]>;

function reassignStraight(ctx: LoweringContext, name: string, variable: Variable, depth: number, value: Value, span: Span, carries?: Carried): void {
  // A name given another type in a loop or branch (Binding.carries) and now a value of its outer
  // variable's type again: stored there, and the name is that variable's again.
  if (carries && ctx.discarding === 0 && fitsVariable(ctx, value, carries.outer.variable)) {
    const back = coerceToVariable(ctx, value, carries.outer.variable, span);
    if (back) ctx.b.push({ kind: "assign", span, variable: carries.outer.variable, value: back });
    ctx.rebind(name, carries.outer);
    return;
  }
  // A scalar computed at run time rebinds a block's name to it (FlagGems' layer norm: the block `m`
  // of running means, then `m = final_m` and `tl.store(out_mean_ptr + pid, m)`), as Triton rebinds
  // it; a constant (`acc = 0`) still fills the block.
  let changed = value.type.shape.length === 0 && variable.type.shape.length > 0 && !isConst(value);
  // An int8 / uint8 where the variable held an i32, or the other way: Python rebinds the name to a
  // value of the new dtype (`q = q.to(tl.int32)`), so it starts a new variable (values.ts bytes).
  if (!isConst(value) && ctx.values.variableByteKind(variable) !== ctx.values.byteKind(value)) changed = true;
  const coerced = changed ? undefined : coerceToVariable(ctx, value, variable, span, () => (changed = true));
  if (coerced) ctx.b.push({ kind: "assign", span, variable, value: coerced });
  else if (changed && ctx.discarding === 0) {
    // In a branch that runs to the kernel's end (runsToEnd) the new variable is the branch's own, so the other branch still sees the old one.
    if (depth === ctx.runtimeDepth) ctx.rebind(name, { ...storeInitial(ctx, name, variable.span, value, span), depth, ...(carries ? { carries } : {}) } as Binding);
    else ctx.bindInTail(name, storeInitial(ctx, name, variable.span, value, span));
  }
}

/**
 * An assignment of a `let` declared without a value. Triton's names have no declarations, so a port
 * writes `let loss;` before `if beta == 0.0: loss = … else: loss = …`. The first assignment in
 * straight-line code (or a constexpr branch taken) starts the variable there, with the value's type;
 * one inside a run-time if or loop declares it before the outermost of them (definite-assignment.ts),
 * and the other branches must assign the same dtype and block shape (KL2076), as Triton's if does.
 */
function assignUnassigned(ctx: LoweringContext, target: ts.Identifier, u: Unassigned, value: Lowered, span: Span): void {
  if (ctx.discarding > 0) return; // a branch not taken: later statements don't see its assignments
  const name = target.text;
  if (!u.first && ctx.runtimeDepth === u.depth) {
    ctx.rebind(name, storeInitial(ctx, name, u.declaredAt, value, span));
    return;
  }
  if (!u.first) {
    if (isAggregate(value)) {
      ctx.log.error(Codes.unassignedLet, ctx.span(target), `'${name}' is declared without a value and first assigned ${describeAggregate(value)} inside a run-time if or loop; a tuple or block pointer needs its initial value where it is declared, e.g. let ${name} = …`, [{ span: u.declaredAt, message: "declared here" }]);
      ctx.rebind(name, { kind: "unknown", declaredAt: u.declaredAt, what: "let" });
      return;
    }
    u.first = { variable: declareBefore(ctx, u, value.type), span, loops: [...ctx.runtimeLoops], depth: ctx.runtimeDepth };
    ctx.b.push({ kind: "assign", span, variable: u.first.variable, value });
    ctx.assigned.add(u);
    return;
  }
  const variable = u.first.variable;
  // Straight-line code at the declaration's depth (a constexpr branch taken included) after the loop
  // or if that first assigned it, given another dtype or shape: the name is rebound, as Python
  // rebinds it (DeepSpeed's matmul: `b = tl.load(B)`, [BLOCK_K, BLOCK_N], in the K loop, then
  // `b = tl.load(bias_ptr)`, [BLOCK_N], under `if BIAS_ADD:`). Nothing after reads the loop's value.
  if (ctx.runtimeDepth === u.depth && !isAggregate(value) && !fitsVariable(ctx, value, variable)) {
    ctx.rebind(name, storeInitial(ctx, name, u.declaredAt, value, span));
    return;
  }
  // After the run-time loop that first assigned it, in a run-time branch, given another dtype or shape: in
  // Triton a name first assigned in a loop's body isn't defined after the loop (only names bound before it are
  // carried), so this is a new name (ColossalAI's context attention: `k = tl.load(K_block_ptr)`, [D, BLOCK_N], in
  // the loop, then `k = tl.load(offsets_k, …)`, [BLOCK_M, D], under `if cur_head_idx % KV_GROUPS == 0:`). It is
  // bound in this branch; after it the name is the loop's variable again.
  if (!isAggregate(value) && !fitsVariable(ctx, value, variable) && u.first.loops.some((loop) => !ctx.runtimeLoops.includes(loop))) {
    ctx.bind(name, storeInitial(ctx, name, u.declaredAt, value, span));
    return;
  }
  // Again in the run-time branch or loop body that first assigned it, on the same path, given another dtype or shape,
  // where no other path has assigned it yet: Python rebinds the name inside the branch, and only the value the branch
  // ends with must agree with the other branches (aiter's a16w16 GEMM: `accumulator = tl.load(bias_ptr + offs_bn)`,
  // [BLOCK_N], then `accumulator = tl.broadcast_to(accumulator[None, :], (BLOCK_M, BLOCK_N))` under a run-time `if`,
  // tl.zeros((BLOCK_M, BLOCK_N)) in its else). So the name starts a new variable, declared where the first was; the
  // first keeps the value the branch read on the way.
  const first0 = u.first;
  if (ctx.assigned.has(u) && !first0.otherPaths && first0.depth === ctx.runtimeDepth && !isAggregate(value) && !fitsVariable(ctx, value, first0.variable)) {
    u.first = { variable: declareBefore(ctx, u, value.type), span, loops: [...ctx.runtimeLoops], depth: ctx.runtimeDepth };
    ctx.b.push({ kind: "assign", span, variable: u.first.variable, value });
    return;
  }
  const elsewhere = !ctx.assigned.has(u);
  if (elsewhere) first0.otherPaths = true;
  ctx.assigned.add(u); // one mistake, one diagnostic: later reads stay quiet
  if (isAggregate(value)) {
    writeSlot(ctx, { kind: "variable", variable }, value, name, span);
    return;
  }
  const first = u.first;
  const mismatch = elsewhere ? () => branchTypes(ctx, name, value, first, span) : undefined;
  const coerced = coerceToVariable(ctx, value, variable, span, mismatch);
  if (coerced) ctx.b.push({ kind: "assign", span, variable, value: coerced });
}

/** KL2076: a `let x;` given another type on this path than where it was first assigned. */
function branchTypes(ctx: LoweringContext, name: string, value: Value, first: NonNullable<Unassigned["first"]>, span: Span): void {
  const want = typeToString(first.variable.type);
  const [a, b] = [value.type, first.variable.type];
  if (a.kind === "pointer" && b.kind === "pointer" && a.param !== b.param) {
    const message = `'${name}' points into ${a.param} here but into ${b.param} on another path (its first assignment); a pointer variable points into one parameter's buffer, known while compiling — keep the offset in the variable instead and add it to each pointer where it is used`;
    ctx.log.error(Codes.branchTypes, span, message, [{ span: first.span, message: `first assigned here, a pointer into ${b.param}` }]);
    return;
  }
  ctx.log.error(
    Codes.branchTypes,
    span,
    `'${name}' is assigned ${typeToString(value.type)} here but ${want} on another path (its first assignment); after a run-time if a name has one dtype and block shape, so every branch must give it the same — convert this value (tl.cast, tl.broadcastTo, tl.full), or give '${name}' an initial value of the final type where it is declared`,
    [{ span: first.span, message: `first assigned here, as ${want}` }],
  );
}

/** The current value of an assignment's target name (for `x op= y`), or undefined after a diagnostic. */
export function currentValue(ctx: LoweringContext, target: ts.Expression): Value | undefined {
  if (!ts.isIdentifier(target)) {
    ctx.log.error(Codes.declarationForm, ctx.span(target), "only local 'let' variables and parameters can be updated in kernels (x += y); memory is written with tl.store");
    return undefined;
  }
  const binding = ctx.lookup(target.text);
  if (binding?.kind === "value" && binding.what === "const") {
    constReassigned(ctx, target, binding.declaredAt);
    return undefined;
  }
  if (binding?.kind === "variable" && binding.counter) {
    ctx.log.error(Codes.counterAssigned, ctx.span(target), `the loop counter '${target.text}' can't be assigned inside the loop; the for statement steps it`);
    return undefined;
  }
  return ctx.expression(target);
}

function constReassigned(ctx: LoweringContext, target: ts.Identifier, declaredAt: Span): void {
  ctx.log.error(Codes.constReassigned, ctx.span(target), `'${target.text}' is a const; declare it with 'let' to reassign it`, [{ span: declaredAt, message: "declared here" }]);
}

/**
 * The values a pattern's elements take from a tuple: exactly as many as it has (Triton unpacks
 * exactly), holes allowed, no rest or defaults. Undefined after a diagnostic (or when the value's
 * own error was reported).
 */
function patternElements(ctx: LoweringContext, pattern: ts.ArrayBindingPattern | ts.ArrayLiteralExpression, value: Lowered | undefined): Lowered[] | undefined {
  for (const element of pattern.elements) {
    const rest = ts.isSpreadElement(element) || (ts.isBindingElement(element) && element.dotDotDotToken);
    const defaulted = ts.isBindingElement(element) && element.initializer;
    const defaultAssigned = ts.isBinaryExpression(element) && element.operatorToken.kind === ts.SyntaxKind.EqualsToken;
    if (rest || defaulted || defaultAssigned) {
      ctx.log.error(Codes.destructuring, ctx.span(element), rest ? "a rest element (...x) can't take part of a tuple in kernels; name each element" : "destructuring defaults aren't supported in kernels: every element of the tuple has a value");
      return undefined;
    }
  }
  if (!value) return undefined;
  const count = pattern.elements.length;
  if (!isAggregate(value) || value.kind !== "tuple") {
    const what = isAggregate(value) ? describeAggregate(value) : `one value, ${typeToString(value.type)}`;
    ctx.log.error(Codes.destructuring, ctx.span(pattern), `[…] = destructures a tuple, but this is ${what}; a tuple comes from a device function's return [a, b], tl.split, tl.broadcast, tl.max(…, { returnIndices: true }) and the like`);
    return undefined;
  }
  if (value.elements.length !== count) {
    ctx.log.error(Codes.destructuring, ctx.span(pattern), `this pattern names ${count} element${count === 1 ? "" : "s"} but the tuple has ${value.elements.length}; name each of them (leave a hole, [a, , c], for one you don't need)`);
    return undefined;
  }
  return value.elements;
}

/** Binds every name of a pattern as unknown, so that uses after a failed declaration stay quiet. */
function quietly(ctx: LoweringContext, name: ts.BindingName, kind: DeclarationKind): void {
  if (ts.isIdentifier(name)) return ctx.bind(name.text, { kind: "unknown", declaredAt: ctx.span(name), what: kind });
  for (const element of name.elements) if (!ts.isOmittedExpression(element)) quietly(ctx, element.name, kind);
}

/** A variable keeps its declared type; constants and scalars adapt to it, anything else is an error. */
export function coerceToVariable(ctx: LoweringContext, value: Value, variable: Variable, span: Span, mismatch = () => typeChanged(ctx, value, variable, span)): Value | undefined {
  const want = variable.type;
  const have = value.type;
  if (want.kind === "pointer" || have.kind === "pointer") {
    if (want.kind === "pointer" && have.kind === "pointer" && want.param === have.param && sameShape(want.shape, have.shape)) return value;
    mismatch();
    return undefined;
  }
  const dtypeOk = have.dtype === want.dtype || (isConst(value) && want.dtype !== "bool" && have.dtype !== "bool");
  const shapeOk = sameShape(have.shape, want.shape) || have.shape.length === 0;
  if (!dtypeOk || !shapeOk) {
    mismatch();
    return undefined;
  }
  const coerced = ctx.values.coerce(value, want.dtype, want.shape, span);
  return coerced && ctx.values.storedInVariable(variable, coerced, span);
}

/** Whether `value` can be stored in `variable` as it is (coerceToVariable without a diagnostic). */
function fitsVariable(ctx: LoweringContext, value: Value, variable: Variable): boolean {
  const want = variable.type;
  const have = value.type;
  if (want.kind === "pointer" || have.kind === "pointer") return want.kind === "pointer" && have.kind === "pointer" && want.param === have.param && sameShape(want.shape, have.shape);
  const dtypeOk = have.dtype === want.dtype || (isConst(value) && want.dtype !== "bool" && have.dtype !== "bool");
  return dtypeOk && (sameShape(have.shape, want.shape) || have.shape.length === 0);
}

function typeChanged(ctx: LoweringContext, value: Value, variable: Variable, span: Span): void {
  ctx.log.error(
    Codes.assignType,
    span,
    `'${variable.name}' is ${typeToString(variable.type)} but is assigned ${typeToString(value.type)}; a variable keeps the dtype and shape of its initial value — initialise it with the final type (e.g. tl.zeros([N], "f32") or 0.0)`,
    [{ span: variable.span, message: `'${variable.name}' declared here as ${typeToString(variable.type)}` }],
  );
}

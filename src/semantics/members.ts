// Members, as Triton code reads them: `tl.float32` (a dtype), a value's `.dtype`, `.type` and
// `.shape`, a dtype's `.element_ty`, `.scalar`, `.primitive_bitwidth` and `.is_floating()`…, a
// value's methods (`x.to(tl.float32)`, and `x.sum(0)` for `tl.sum(x, 0)`: Triton's tensor member
// functions), and the math namespaces (`tl.math.rsqrt`, `tl.extra.libdevice.tanh`, math-names.ts).

import ts from "typescript";
import type { Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import { numel, typeToString, type Value } from "../ir/ir";
import { at, describeAggregate, isAggregate, type Lowered } from "./aggregates";
import { DESCRIPTOR_ATOMICS, DESCRIPTOR_PROPERTIES, atomicDescriptor, descriptorProperty, loadDescriptor, storeDescriptor } from "./tensor-descriptors";
import type { LoweringContext } from "./context";
import { dtypeOf, isConst } from "./values";
import { isFloat } from "./rules";
import { DTYPE_PREDICATES, bitwidth, dtypeOfValue, dtypeValue, isTritonDtypeName, sameType, typeOfValue, typeText, TRITON_DTYPE_NAMES, type DtypeValue } from "./dtypes";
import { intrinsicNamed, INTRINSICS } from "./intrinsics";
import { splitArguments } from "./keywords";
import { mathFunction, nearestOf, unknownMathMessage, type MathNamespace } from "./math-names";
import { libdeviceFunction } from "./libdevice";
import { camelCase } from "./triton-api";
import { castValue } from "./intrinsics-math";

const VALUE_PROPERTIES = ".dtype, .type, .shape and .numel";
const DTYPE_PROPERTIES = ".element_ty (of a pointer or block type), .scalar, .primitive_bitwidth, .int_bitwidth (of an integer dtype), .value (of a constexpr) and the predicates .is_floating(), .is_int(), .is_fp16() …";

/**
 * Triton's tensor member functions (`x.sum(0)` is `tl.sum(x, 0)`): the tl.* functions whose first
 * parameter is the value, in Triton's spelling.
 */
const MEMBER_FUNCTIONS: ReadonlySet<string> = new Set([
  "abs", "exp", "exp2", "log", "log2", "cos", "sin", "sqrt", "rsqrt", "floor", "ceil", "erf", "sigmoid", "softmax",
  "sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce", "cumsum", "cumprod", "associative_scan", "sort", "flip", "histogram", "gather",
  "reshape", "view", "ravel", "trans", "permute", "broadcast_to", "expand_dims", "split", "join", "cdiv", "fdiv", "umulhi",
]);

/** Is `name` one of the kernel's names for `tl` (and not shadowed by a local)? */
function isTl(ctx: LoweringContext, node: ts.Expression): node is ts.Identifier {
  return ts.isIdentifier(node) && ctx.kernel.tlNames.has(node.text) && !ctx.lookup(node.text);
}

/** `x.p`: a dtype of tl, or a property of a value or a dtype. */
export function propertyAccess(ctx: LoweringContext, node: ts.PropertyAccessExpression, span: Span): Lowered | undefined {
  const object = node.expression;
  const name = node.name.text;
  if (isTl(ctx, object)) {
    if (isTritonDtypeName(name)) return dtypeValue({ of: "scalar", name }, span);
    const namespace = name === "math" || name === "extra";
    const meant = !intrinsicNamed(name) && !namespace ? nearestOf(name, TRITON_DTYPE_NAMES) : undefined;
    if (meant) {
      const fix = { title: `Change to ${object.text}.${meant}`, edits: [{ span: ctx.span(node.name), text: meant }] };
      ctx.log.error(Codes.unknownIntrinsic, ctx.span(node.name), `tl.${name} doesn't exist; did you mean tl.${meant}?`, undefined, [fix]);
      return undefined;
    }
    if (!intrinsicNamed(name) && !namespace) {
      // No such name (gptq's h100_qlinear.py: `a.to(tl.float)`, in a constexpr branch its launch leaves out).
      ctx.log.error(Codes.unknownIntrinsic, ctx.span(node.name), `tl.${name} doesn't exist; Triton's dtypes are ${TRITON_DTYPE_NAMES.filter((d) => d.startsWith(name.replace(/\d+$/, "")) || d === "float32").map((d) => `tl.${d}`).join(", ")} …`);
      return undefined;
    }
    ctx.log.error(Codes.unsupportedSyntax, span, namespace ? `tl.${name} is a namespace; call one of its functions, e.g. tl.math.rsqrt(x)` : `tl.${name} is a function; call it`);
    return undefined;
  }
  if (ts.isIdentifier(object) && object.text === "Math" && !ctx.lookup("Math")) {
    ctx.log.error(Codes.unsupportedSyntax, span, "Math isn't available in kernels; write the constant as a literal or use the tl.* function");
    return undefined;
  }
  const lowered = ctx.lowered(object);
  if (!lowered) return undefined;
  if (isAggregate(lowered) && lowered.kind === "dtype") return dtypeProperty(ctx, lowered, name, node, span);
  if (isAggregate(lowered) && lowered.kind === "tensorDesc") {
    const property = descriptorProperty(ctx, lowered, name, span);
    if (!property) ctx.log.error(Codes.descriptorMisuse, ctx.span(node.name), `a tensor descriptor has no property '${name}'; it has ${DESCRIPTOR_PROPERTIES}, and the methods .load(offsets), .store(offsets, value) and .atomic_add(offsets, value) (_min, _max, _and, _or, _xor)`);
    return property;
  }
  // A block pointer's `.type` / `.dtype` (applied-ai's AMD flash attention: `q.to(Q_block_ptr.type.element_ty)`):
  // a pointer to its base's element. Triton's element_ty there is the block type, whose element it is.
  if (isAggregate(lowered) && lowered.kind === "blockPtr" && (name === "type" || name === "dtype")) return dtypeValue(dtypeOfValue(lowered.base), span);
  // A reshape to four axes held for tl.split (wide-reshapes.ts): its dtype and shape, as Triton's block's (`out_acc.to(x.dtype)`).
  if (isAggregate(lowered) && lowered.kind === "tuple" && lowered.wide && !isAggregate(lowered.elements[0])) {
    const half = lowered.elements[0];
    if (name === "dtype") return dtypeValue(dtypeOfValue(half), span);
    if (name === "shape") return { kind: "tuple", elements: lowered.wide.map((n) => ctx.b.constant(n, "i32", span)), span };
    if (name === "numel") return ctx.b.constant(numel(lowered.wide), "i32", span);
  }
  if (isAggregate(lowered)) {
    ctx.log.error(Codes.unknownMember, ctx.span(node.name), `${lowered.kind === "tuple" ? (lowered.wide ? describeAggregate(lowered) : "a tuple") : "a block pointer"} has no property '${name}' in kernels`);
    return undefined;
  }
  switch (name) {
    case "dtype":
    case "type": {
      // An 8-bit value (held as i32: a load through a Ptr<i8>, a cast to tl.int8) is Triton's int8 / uint8 (tritonbench's
      // int4 matmul: `tl.static_assert(b.dtype == tl.int8)` on the loaded weights). An fp8 value (held as f32: a load through a float8 pointer, a cast to a float8 dtype) is Triton's float8.
      const byte = ctx.values.byteKind(lowered);
      const f8 = ctx.values.f8Kind(lowered);
      const held = byte === "i8" ? "int8" : byte === "u8" ? "uint8" : f8 === "f8e4m3" ? "float8e4nv" : f8 === "f8e5m2" ? "float8e5" : undefined;
      const element = held ? ({ of: "scalar", name: held } as const) : undefined;
      if (name === "dtype") return dtypeValue(element ?? dtypeOfValue(lowered), span);
      return dtypeValue(element && lowered.type.shape.length > 0 ? { of: "block", element, shape: lowered.type.shape } : element ?? typeOfValue(lowered), span);
    }
    case "shape":
      return { kind: "tuple", elements: lowered.type.shape.map((n) => ctx.b.constant(n, "i32", span)), span };
    case "numel":
      // Triton's `x.numel`, a constexpr (TransformerEngine's argsort: `x.numel >> n_dims`).
      return ctx.b.constant(numel(lowered.type.shape), "i32", span);
    case "value":
      // A tl.constexpr's `.value`: the number it holds (a run-time value has none).
      if (isConst(lowered)) return lowered;
      break;
  }
  ctx.log.error(Codes.unknownMember, ctx.span(node.name), `a kernel value (${typeToString(lowered.type)}) has no property '${name}'; values have ${VALUE_PROPERTIES}`);
  return undefined;
}

function dtypeProperty(ctx: LoweringContext, d: DtypeValue, name: string, node: ts.PropertyAccessExpression, span: Span): Lowered | undefined {
  const t = d.type;
  if (name === "element_ty" && t.of !== "scalar") return dtypeValue(t.of === "pointer" ? { of: "scalar", name: t.pointee } : t.element, span);
  if (name === "scalar") return dtypeValue(t.of === "block" ? t.element : t, span);
  if (name === "primitive_bitwidth" && t.of === "scalar") return ctx.b.constant(bitwidth(t.name), "i32", span);
  if (name === "int_bitwidth" && t.of === "scalar" && t.name.includes("int")) return ctx.b.constant(bitwidth(t.name), "i32", span);
  // A tl.constexpr's `.value` (FlagGems' limits.py: `dtype_ = dtype.value`): the dtype it holds.
  if (name === "value") return { ...d, span };
  const hint = name === "element_ty" ? `; ${typeText(t)} is already an element dtype` : `; dtypes have ${DTYPE_PROPERTIES}`;
  ctx.log.error(Codes.unknownMember, ctx.span(node.name), `${typeText(t)} has no property '${name}'${hint}`);
  return undefined;
}

/**
 * A call whose callee is `a.b(…)` other than `tl.f(…)`: a math namespace's function, a value's
 * method (`.to`, a tensor member function) or a dtype's predicate. Undefined when it is none of
 * these (the caller reports it), else the lowered call (or "error" after a diagnostic).
 */
export function memberCall(ctx: LoweringContext, node: ts.CallExpression, callee: ts.PropertyAccessExpression, span: Span): Lowered | "void" | "error" | "none" {
  const namespace = mathNamespace(ctx, callee.expression);
  if (namespace) return namespacedCall(ctx, namespace, node, callee, span);
  const name = callee.name.text;
  if (name === "to") return methodTo(ctx, node, callee, span) ?? "error";
  if (Object.hasOwn(DTYPE_PREDICATES, name)) {
    const d = ctx.lowered(callee.expression);
    if (!d) return "error";
    if (!isAggregate(d) || d.kind !== "dtype") {
      ctx.log.error(Codes.unknownMember, ctx.span(callee.name), `.${name}() is a dtype's; write x.dtype.${name}()`);
      return "error";
    }
    return ctx.b.constant(DTYPE_PREDICATES[name](d.type) ? 1 : 0, "bool", span);
  }
  if (name === "load" || name === "store" || Object.hasOwn(DESCRIPTOR_ATOMICS, name)) return descriptorMethod(ctx, node, callee, name, span);
  const camel = camelCase(name);
  if (MEMBER_FUNCTIONS.has(name) || (MEMBER_FUNCTIONS.has(name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)) && intrinsicNamed(camel))) {
    // x.f(args) is tl.f(x, args): the value goes first, the rest keep their positions and keywords.
    const intrinsic = intrinsicNamed(camel)!;
    const split = splitArguments(ctx.log, (n) => ctx.span(n), `.${name}`, { params: intrinsic.params.slice(1), ignored: intrinsic.ignored }, node.arguments);
    if (!split) return "error";
    const result = intrinsic.lower(ctx, [callee.expression, ...split.args], span, camel, split.keywords);
    return result === "void" || result === undefined ? "error" : result;
  }
  return "none";
}

/** `desc.load(offsets)`, `desc.store(offsets, value)`, `desc.atomic_add(offsets, value)` …: a tensor descriptor's methods (tensor-descriptors.ts). */
function descriptorMethod(ctx: LoweringContext, node: ts.CallExpression, callee: ts.PropertyAccessExpression, name: string, span: Span): Lowered | "void" | "error" {
  const desc = ctx.lowered(callee.expression);
  if (!desc) return "error";
  const atomic = Object.hasOwn(DESCRIPTOR_ATOMICS, name) ? DESCRIPTOR_ATOMICS[name] : undefined;
  if (!isAggregate(desc) || desc.kind !== "tensorDesc") {
    const what = isAggregate(desc) ? describeAggregate(desc) : typeToString(desc.type);
    const instead = atomic ? `update pointers with tl.atomic${atomic[0].toUpperCase()}${atomic.slice(1)}(pointers, value, mask)` : `load and store pointers with tl.${name}(pointers, …)`;
    ctx.log.error(Codes.descriptorMisuse, ctx.span(callee.name), `.${name}(…) is a tensor descriptor's method, and this is ${what}; ${instead}`);
    return "error";
  }
  const args = node.arguments;
  const want = name === "load" ? 1 : 2;
  if (args.length !== want || args.some((a) => ts.isSpreadElement(a) || ts.isObjectLiteralExpression(a))) {
    ctx.log.error(Codes.intrinsicArgs, span, name === "load" ? "desc.load takes the block's offsets, one per axis: desc.load([o0, o1])" : `desc.${name} takes the block's offsets and the value: desc.${name}([o0, o1], value)`);
    return "error";
  }
  const result = name === "load"
    ? loadDescriptor(ctx, at(desc, ctx.span(callee.expression)), args[0], span, "desc.load")
    : atomic
      ? atomicDescriptor(ctx, at(desc, ctx.span(callee.expression)), atomic, args[0], args[1], span, `desc.${name}`)
      : storeDescriptor(ctx, desc, args[0], args[1], span, "desc.store");
  return result === undefined ? "error" : result;
}

/** `tl.math`, `tl.extra.libdevice`, `tl.extra.cuda.libdevice` or an imported `libdevice`: the namespace, else undefined. */
function mathNamespace(ctx: LoweringContext, e: ts.Expression): MathNamespace | undefined {
  if (ts.isIdentifier(e)) return ctx.kernel.libdeviceNames?.has(e.text) && !ctx.lookup(e.text) ? "libdevice" : undefined;
  if (!ts.isPropertyAccessExpression(e)) return undefined;
  if (isTl(ctx, e.expression) && e.name.text === "math") return "tl.math";
  if (e.name.text !== "libdevice") return undefined;
  const inner = e.expression;
  if (ts.isPropertyAccessExpression(inner) && inner.name.text === "extra" && isTl(ctx, inner.expression)) return "tl.extra.libdevice";
  const cuda = ts.isPropertyAccessExpression(inner) && ["cuda", "hip"].includes(inner.name.text) ? inner.expression : undefined;
  if (cuda && ts.isPropertyAccessExpression(cuda) && cuda.name.text === "extra" && isTl(ctx, cuda.expression)) return "tl.extra.libdevice";
  return undefined;
}

function namespacedCall(ctx: LoweringContext, namespace: MathNamespace, node: ts.CallExpression, callee: ts.PropertyAccessExpression, span: Span): Lowered | "error" {
  const name = callee.name.text;
  if (name === "round" || name === "roundf") return roundAway(ctx, `${namespace}.${name}`, node, span) ?? "error";
  if (ROUND_EVEN.has(name)) return roundEven(ctx, `${namespace}.${name}`, node, span, name.startsWith("ll")) ?? "error";
  // A tl.* function's name, or libdevice's own (libdevice.ts: lgamma, tan, isnan, …).
  const fn = mathFunction(name);
  const intrinsic = fn ? INTRINSICS[fn] : libdeviceFunction(name);
  if (!intrinsic) {
    const { message, nearest } = unknownMathMessage(namespace, name);
    const fix = nearest ? [{ title: `Change to ${namespace}.${nearest}`, edits: [{ span: ctx.span(callee.name), text: nearest }] }] : undefined;
    ctx.log.error(Codes.unknownIntrinsic, ctx.span(callee.name), message, undefined, fix);
    return "error";
  }
  const split = splitArguments(ctx.log, (n) => ctx.span(n), `${namespace}.${name}`, intrinsic, node.arguments);
  if (!split) return "error";
  const result = intrinsic.lower(ctx, split.args, span, fn ?? name, split.keywords);
  return result === "void" || result === undefined ? "error" : result;
}

/**
 * libdevice's round (sglang's per_token_quant_int8: `libdevice.round(x).to(tl.int8)`): the nearest
 * integer, halves away from zero (WGSL's round takes them to even). Exact: t = trunc(x) and x - t
 * are exact in x's dtype, so |x - t| >= 0.5 decides; floor(x + 0.5) is not (0.49999997 + 0.5 rounds
 * to 1). Integers are themselves.
 */
function roundAway(ctx: LoweringContext, written: string, node: ts.CallExpression, span: Span): Lowered | undefined {
  const arg = roundingArgument(ctx, written, node, span);
  if (!arg || !arg.float) return arg?.value;
  const x = arg.float;
  const dtype = dtypeOf(x);
  const c = (n: number) => ctx.b.constant(n, dtype, span);
  const floor = ctx.b.emit({ op: "math", fn: "floor", args: [x] }, x.type, span);
  const ceil = ctx.b.emit({ op: "math", fn: "ceil", args: [x] }, x.type, span);
  const negative = ctx.values.binary("lt", x, c(0), span);
  if (!negative) return undefined;
  const t = ctx.b.emit({ op: "where", cond: negative, a: ceil, b: floor }, x.type, span);
  const frac = ctx.values.binary("sub", x, t, span);
  const down = ctx.values.binary("sub", t, c(1), span);
  const up = ctx.values.binary("add", t, c(1), span);
  const half = frac && ctx.b.emit({ op: "math", fn: "abs", args: [frac] }, x.type, span);
  const far = half && ctx.values.binary("ge", half, c(0.5), span);
  if (!far || !down || !up) return undefined;
  const away = ctx.b.emit({ op: "where", cond: negative, a: down, b: up }, x.type, span);
  return ctx.b.emit({ op: "where", cond: far, a: away, b: t }, x.type, span);
}

/**
 * The one argument of a libdevice rounding function: `value` as written, and `float` the value to
 * round (a bool as f32), absent for an integer, which is itself.
 */
function roundingArgument(ctx: LoweringContext, written: string, node: ts.CallExpression, span: Span): { value: Value; float?: Value } | undefined {
  if (node.arguments.length !== 1) {
    ctx.log.error(Codes.intrinsicArgs, span, `${written} takes one argument, (x)`);
    return undefined;
  }
  const x0 = ctx.expression(node.arguments[0]);
  if (!x0) return undefined;
  if (x0.type.kind !== "data") {
    ctx.log.error(Codes.operandDtype, x0.span, `${written} rounds numbers, not ${typeToString(x0.type)}`);
    return undefined;
  }
  if (!isFloat(dtypeOf(x0)) && dtypeOf(x0) !== "bool") return { value: x0 };
  const float = isFloat(dtypeOf(x0)) ? x0 : ctx.values.cast(x0, "f32", x0.span);
  return float ? { value: x0, float } : undefined;
}

/** libdevice's rounding to the nearest integer, halves to even (llrint gives it as an int64). */
const ROUND_EVEN = new Set(["rint", "rintf", "nearbyint", "nearbyintf", "llrint", "llrintf"]);

/**
 * libdevice's rint / nearbyint / llrint (bitsandbytes' quantisers: `tl.libdevice.llrint(127.0 * (x /
 * max_val))` stored through a Ptr<i8>): the nearest integer, halves to even, as the GPU's default
 * rounding; llrint's an i64. Exact: f = floor(x) and x - f are exact in x's dtype, so x - f against
 * 0.5 decides, and a half goes to whichever of f, f + 1 is even (f * 0.5 is an integer). Integers
 * are themselves. (A negative half rounded to 0 gives +0.0, where C's rint gives -0.0.)
 */
function roundEven(ctx: LoweringContext, written: string, node: ts.CallExpression, span: Span, toInt: boolean): Lowered | undefined {
  const arg = roundingArgument(ctx, written, node, span);
  if (!arg) return undefined;
  const rounded = (): Value | undefined => {
    if (!arg.float) return arg.value;
    const x = arg.float;
    const dtype = dtypeOf(x);
    const c = (n: number) => ctx.b.constant(n, dtype, span);
    const f = ctx.b.emit({ op: "math", fn: "floor", args: [x] }, x.type, span);
    const up = ctx.values.binary("add", f, c(1), span);
    const frac = ctx.values.binary("sub", x, f, span);
    const halfF = ctx.values.binary("mul", f, c(0.5), span);
    const halfFloor = halfF && ctx.b.emit({ op: "math", fn: "floor", args: [halfF] }, x.type, span);
    const even = halfF && halfFloor && ctx.values.binary("eq", halfF, halfFloor, span);
    const above = frac && ctx.values.binary("gt", frac, c(0.5), span);
    const below = frac && ctx.values.binary("lt", frac, c(0.5), span);
    if (!up || !even || !above || !below) return undefined;
    const tie = ctx.b.emit({ op: "where", cond: even, a: f, b: up }, x.type, span);
    const notAbove = ctx.b.emit({ op: "where", cond: below, a: f, b: tie }, x.type, span);
    return ctx.b.emit({ op: "where", cond: above, a: up, b: notAbove }, x.type, span);
  };
  const r = rounded();
  return r && toInt ? ctx.values.cast(r, "i64", span) : r;
}

/** `x.to(dtype, { bitcast })`: Triton's cast, tl.cast(x, dtype). */
function methodTo(ctx: LoweringContext, node: ts.CallExpression, callee: ts.PropertyAccessExpression, span: Span): Lowered | undefined {
  const split = splitArguments(ctx.log, (n) => ctx.span(n), ".to", { params: ["dtype", "fpDowncastRounding", "bitcast"], ignored: ["fpDowncastRounding"] }, node.arguments);
  if (!split) return undefined;
  const x = ctx.lowered(callee.expression);
  if (!x) return undefined;
  if (isAggregate(x)) {
    ctx.log.error(Codes.unknownMember, ctx.span(callee.name), x.kind === "dtype" ? `${typeText(x.type)} is a dtype; .to(…) converts values` : ".to(…) converts one value, not a tuple or a block pointer");
    return undefined;
  }
  if (!split.args[0]) {
    ctx.log.error(Codes.intrinsicArgs, span, "x.to(dtype) takes the dtype to convert to, e.g. x.to(tl.float32)");
    return undefined;
  }
  return castValue(ctx, at(x, ctx.span(callee.expression)), split.args[0], split.args[2], span);
}

/** `a === b` / `a !== b` where one side is a dtype: decided while compiling (Python's `is` and `==`). */
export function compareDtypes(ctx: LoweringContext, fn: "eq" | "ne", a: Lowered, b: Lowered, span: Span): Lowered | undefined {
  const da = isAggregate(a) && a.kind === "dtype" ? a : undefined;
  const db = isAggregate(b) && b.kind === "dtype" ? b : undefined;
  if (!da || !db) {
    const other = da ? b : a;
    const what = isAggregate(other) ? (other.kind === "dtype" ? "a dtype" : "a tuple or block pointer") : typeToString(other.type);
    ctx.log.error(Codes.dtypeAsValue, span, `a dtype compares only with another dtype (x.dtype === tl.float16), not with ${what}`);
    return undefined;
  }
  const same = sameType(da.type, db.type);
  return ctx.b.constant(same === (fn === "eq") ? 1 : 0, "bool", span);
}

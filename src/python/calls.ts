// Python calls in a kernel → TypeScript: `tl.program_id(axis=0)` → `tl.programId({ axis: 0 })`,
// libdevice / `tl.math` functions → `tl.*`, methods of blocks (`x.to(tl.float16)`, `x.sum(axis=1)`)
// → the tl.* function with the block first, @triton.jit helpers called with their keywords by name.

import type { LowerContext } from "./context";
import { nodeText, unsupported } from "./context";
import { Codes } from "../diagnostics/codes";
import { lowerExpr, lowerList } from "./expressions";
import { literalValue } from "./literals";
import { nearestOf } from "../semantics/math-names";
import { BUILTIN_CALLS, camelCase, DTYPE_PREDICATES, DTYPES, SHAPE_METHODS, tsName } from "./names";
import { children, dottedName, parts, spanOf, stringValue, type SyntaxNode } from "./tree";
import type { Span } from "../diagnostics/diagnostic";
import type { PythonFile, PythonKernel } from "./module";
import { LIBDEVICE_ONLY } from "./module";
import { knownArguments, staticArgument } from "./specialize";
import { isNoneValue, type NamedArgument } from "./none-names";
import { tritonArguments } from "./triton-signatures";

/** A keyword argument of a call (`name=value`). */
type Keyword = NamedArgument;

type Callee =
  | { kind: "tl"; name: string }
  /** `libdevice.fast_expf(x)`: tl's math namespace and the name as written (`fnNode`, where a fix edits it). */
  | { kind: "math"; namespace: "math" | "extra.libdevice"; fnNode: SyntaxNode; name?: string }
  | { kind: "method"; object: SyntaxNode; name: string }
  | { kind: "helper"; name: string }
  /** A function of the kernel-lab package evaluated on constexprs while compiling (semantics/compile-time-calls.ts). */
  | { kind: "package"; name: string }
  | { kind: "conversion"; to: "f32" | "i32" }
  | { kind: "otherModule"; module: string; name: string }
  | { kind: "external"; file: PythonFile; kernel: PythonKernel }
  | { kind: "range" }
  | { kind: "isinstance" }
  /** `Cls.name(…)` where class Cls of this file has @triton.jit functions, but none named so. */
  | { kind: "noSuchMethod"; className: string; name: string }
  | { kind: "unknown" };

/** A tensor descriptor's methods, written as methods in the TypeScript (no tl.* function of tensors has these names). */
const DESCRIPTOR_METHODS: ReadonlySet<string> = new Set(["load", "store", "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor"]);

/** triton.language's modules whose functions are tl's own (`tl.random.randint`). */
const TL_OWN_MODULES = ["random", "standard", "core"];

// `libdevice` alone: Triton 2.0's `tl.libdevice.tanh` (kernl's activation_func.py), since moved to tl.math and then extra.
const MATH_SUFFIXES = ["math", "libdevice", "extra.libdevice", "extra.cuda.libdevice", "extra.hip.libdevice", "extra.intel.libdevice"];

/**
 * Functions of Triton's own modules that a kernel calls and Triton runs as Python while compiling
 * (triton.language.standard's `_log2`, triton.language.core's `get_int_dtype`, both constexpr
 * functions in Triton 3.5): the kernel-lab package's functions semantics/compile-time-calls.ts evaluates.
 */
const COMPILE_TIME_FUNCTIONS: Readonly<Record<string, string>> = { _log2: "log2Floor", get_int_dtype: "intDtype" };

/**
 * `getattr(tl, func)` and `getattr(tl.PropagateNan, mode)` with a name known while compiling (a string literal, a
 * constexpr: test_core.py's test_propagate_nan calls `getattr(tl, func)(a, b, propagate_nan=getattr(tl.PropagateNan,
 * propagate_nan))`): the object's dotted name with the attribute after it, as `tl.maximum` reads; undefined for any
 * other expression (a getattr of a run-time value or name stays a call, refused as before).
 */
export function staticGetattr(ctx: LowerContext, n: SyntaxNode): string[] | undefined {
  if (n.name !== "CallExpression") return undefined;
  const [callee, argList] = children(n);
  if (!callee || callee.name !== "VariableName" || nodeText(ctx, callee) !== "getattr" || ctx.params.has("getattr") || ctx.plan.locals.has("getattr") || argList?.name !== "ArgList") return undefined;
  const args = children(argList).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  if (args.length !== 2) return undefined;
  const object = dottedName(ctx.text, args[0]);
  const name = staticArgument(ctx, args[1]);
  return object && typeof name === "string" && /^[A-Za-z_]\w*$/.test(name) ? [...object, name] : undefined;
}

function resolve(ctx: LowerContext, callee: SyntaxNode): Callee {
  const { imports } = ctx.file;
  const dotted = dottedName(ctx.text, callee) ?? staticGetattr(ctx, callee);
  const isTl = (head: string) => imports.tl.has(head) || head === "triton.language" || [...imports.triton].some((t) => head === `${t}.language`) || (head === "tl" && imports.tl.size === 0);
  if (dotted && dotted.length === 1) {
    const name = dotted[0];
    if (ctx.params.has(name) || ctx.plan.locals.has(name)) return { kind: "unknown" };
    if (ctx.jitFunctions.has(name)) return { kind: "helper", name };
    // `round_triton = round_triton_nvidia` (in an `if IS_HIP:` / `else:`), `next_power_of_2_triton = …_bitwise_triton`
    // at this file's module level (gemlite's quant_utils.py): the function the name is bound to.
    const aliasOf = ctx.file.jitAliases.get(name);
    if (aliasOf !== undefined && ctx.jitFunctions.has(aliasOf)) return { kind: "helper", name: aliasOf };
    // `from mod import helper`: a @triton.jit function of a module the run sent.
    const named = imports.imported.get(name);
    const found = named && ctx.externals.find(named.module, named.name, ctx.file);
    if (found) return { kind: "external", ...found };
    const aliased = named && ctx.externals.alias(named.module, named.name, ctx.file);
    if (aliased) return { kind: "tl", name: camelCase(aliased) };
    // `from .utils import *`: a @triton.jit function of a module the file takes every public name of (gemlite's
    // kernel files call utils.py's `dequantize` and `swizzle_tile`).
    if (!named) {
      for (const star of imports.star) {
        const starred = ctx.externals.find(star, name, ctx.file);
        if (starred) return { kind: "external", ...starred };
      }
    }
    const imported = imports.functions.get(name);
    // A name bound to a libdevice function with no tl.* one (`tl_round = tl.extra.cuda.libdevice.round`): libdevice's.
    if (imported?.startsWith(LIBDEVICE_ONLY)) return { kind: "math", namespace: "extra.libdevice", fnNode: callee, name: imported.slice(LIBDEVICE_ONLY.length) };
    if (imported && Object.hasOwn(COMPILE_TIME_FUNCTIONS, imported)) return { kind: "package", name: COMPILE_TIME_FUNCTIONS[imported] };
    if (imported) return { kind: "tl", name: camelCase(imported) };
    if (BUILTIN_CALLS[name]) return { kind: "tl", name: BUILTIN_CALLS[name] };
    if (name === "float") return { kind: "conversion", to: "f32" };
    if (name === "int") return { kind: "conversion", to: "i32" };
    if (name === "range") return { kind: "range" };
    if (name === "isinstance") return { kind: "isinstance" };
    // `get_dtype_min(x.dtype)` with `from flag_gems.utils.limits import get_dtype_min`: another module's function.
    const from = imports.others.get(name);
    if (from !== undefined) return { kind: "otherModule", module: from, name };
    return { kind: "unknown" };
  }
  if (dotted && dotted.length >= 2) {
    // `Cls.helper(…)`: a @triton.jit function of a class body of this file (trident's layout, module.ts readMethodKernels).
    if (!ctx.params.has(dotted[0]) && !ctx.plan.locals.has(dotted[0]) && ctx.jitFunctions.has(dotted.join("."))) return { kind: "helper", name: dotted.join(".") };
    if (dotted.length === 2 && !ctx.params.has(dotted[0]) && !ctx.plan.locals.has(dotted[0]) && ctx.file.kernels.some((k) => k.className === dotted[0])) return { kind: "noSuchMethod", className: dotted[0], name: dotted[1] };
    const head = dotted.slice(0, -1).join(".");
    const fn = dotted[dotted.length - 1];
    // `tl` taken from another module (vllm's `from vllm.triton_utils import tl, triton`) is Triton's too, as isTl reads it.
    const tlHead = [...imports.tl, ...(imports.tl.size === 0 ? ["tl"] : []), "triton.language", ...[...imports.triton].map((t) => `${t}.language`)];
    // `core.get_int_dtype(…)`, `tl.core.get_int_dtype(…)`, `standard._log2(…)`.
    const defining = isTl(head) ? undefined : dotted.length === 2 ? imports.functions.get(head) : isTl(dotted.slice(0, -2).join(".")) ? dotted[dotted.length - 2] : undefined;
    if ((defining === "core" || defining === "standard" || isTl(head)) && Object.hasOwn(COMPILE_TIME_FUNCTIONS, fn)) return { kind: "package", name: COMPILE_TIME_FUNCTIONS[fn] };
    if (isTl(head)) return { kind: "tl", name: camelCase(fn) };
    // `tl.random.uint_to_uniform_float(x)` (test_random.py), `tl.standard.sum`, `tl.core.full`: tl's own
    // modules, whose functions are tl's (it read `tl.random` as a receiver: "got 2 arguments").
    if (tlHead.some((t) => TL_OWN_MODULES.some((m) => head === `${t}.${m}`))) return { kind: "tl", name: camelCase(fn) };
    // libdevice / tl.math names go to the kernel language's math namespaces as written (fast_expf is
    // tl.exp there; tan is KL1005 saying what to write instead): semantics/math-names.ts.
    const suffix = tlHead.map((t) => MATH_SUFFIXES.find((s) => head === `${t}.${s}`)).find((s) => s !== undefined);
    const fnNode = children(callee).at(-1);
    if ((imports.math.has(head) || suffix) && fnNode) return { kind: "math", namespace: suffix === "math" ? "math" : "extra.libdevice", fnNode };
    // `tl.extra.cuda.gdc_wait()` (sglang's elementwise.py, under `if USE_PDL:`): a backend's own function,
    // as tl's (none is Kernel Lab's: KL1005 says what each is where a branch compiles it).
    if (tlHead.some((t) => head === `${t}.extra.cuda` || head === `${t}.extra.hip`)) return { kind: "tl", name: camelCase(fn) };
    if (imports.triton.has(head) || head === "triton") {
      if (fn === "cdiv") return { kind: "tl", name: "cdiv" };
      // `BLOCK_K: tl.constexpr = triton.next_power_of_2(ROTARY_DIM)` (flash-attention's rotary.py): Triton
      // runs it as Python on the constexpr; the kernel language's spelling is the package's nextPowerOf2.
      if (fn === "next_power_of_2") return { kind: "package", name: "nextPowerOf2" };
      return { kind: "unknown" };
    }
    // `m.helper(…)` with `import pkg.mod as m`, `pkg.mod.helper(…)` with `import pkg.mod`, `tle.program_id(0)` with `from pkg import tle`.
    // `language.math.ReLU.forward(x)` (a class-level function of another module), `Sum.forward(…)` with the class imported by name.
    const module = imports.modules.get(dotted[0]);
    const found = isModuleName(ctx, dotted[0]) ? ctx.externals.callee(dotted, ctx.file) : undefined;
    if (found) return { kind: "external", ...found };
    if (module !== undefined && dotted.length > 2 && isModuleName(ctx, dotted[0])) return { kind: "otherModule", module: dotted.slice(0, -1).join("."), name: fn };
  }
  const kids = children(callee);
  if (callee.name === "MemberExpression" && kids[1]?.name === ".") {
    const object = kids[0];
    // `tle.program_id(0)`: the receiver is a module-level name (an imported module), not a value of the kernel.
    if (dotted && dotted.length === 2 && object.name === "VariableName" && isModuleName(ctx, dotted[0])) return { kind: "otherModule", module: dotted[0], name: dotted[1] };
    return { kind: "method", object, name: nodeText(ctx, kids[2]) };
  }
  return { kind: "unknown" };
}

/** A name the kernel doesn't bind and the module doesn't hold a value or kernel in: an imported module (or a name Python would fail on). */
function isModuleName(ctx: LowerContext, name: string): boolean {
  return !ctx.params.has(name) && !ctx.plan.locals.has(name) && !ctx.jitFunctions.has(name) && !ctx.file.constants.has(name) && !ctx.file.imports.functions.has(name);
}

/** `keepNone`: a @triton.jit function's keyword given None is passed (specialize.ts), not left to its default. */
function readArgs(ctx: LowerContext, argList: SyntaxNode, keepNone = false): { positional: SyntaxNode[]; keywords: Keyword[] } {
  const positional: SyntaxNode[] = [];
  const keywords: Keyword[] = [];
  const kids = children(argList).filter((c) => c.name !== "(" && c.name !== ")");
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (c.name === ",") continue;
    if (c.name === "*" || c.name === "**") {
      unsupported(ctx, { start: c.from, end: kids[i + 1]?.to ?? c.to }, `unpacking arguments with ${c.name}`, "pass each argument by itself");
      i++;
      continue;
    }
    if (c.name === "VariableName" && kids[i + 1]?.name === "AssignOp") {
      keywords.push({ name: nodeText(ctx, c), nameNode: c, value: kids[i + 2] });
      i += 2;
      continue;
    }
    if (kids[i + 1]?.name === "for") {
      unsupported(ctx, c, "a generator expression", "write the loop out with tl.static_range");
      return { positional, keywords };
    }
    positional.push(c);
  }
  // A keyword given None means "the default" in Triton's functions: leave it out.
  return { positional, keywords: keepNone ? keywords : keywords.filter((k) => !isNoneValue(ctx, k.value)) };
}

export function lowerCall(ctx: LowerContext, n: SyntaxNode): void {
  const [callee, argList] = children(n);
  const span = spanOf(n);
  if (!argList || argList.name !== "ArgList") return unsupported(ctx, n, "this call", "");
  const target = resolve(ctx, callee);
  let { positional, keywords } = readArgs(ctx, argList, target.kind === "helper" || target.kind === "external");
  switch (target.kind) {
    case "tl":
      if (target.name === "constexpr" && positional.length === 1) return lowerExpr(ctx, positional[0]);
      // A dtype called on a value makes a scalar of it: `m = tl.float32(-float("inf"))` (Liger's softmax).
      if (Object.hasOwn(DTYPES, target.name) && positional.length === 1 && keywords.length === 0) {
        return ctx.w.node(span, () => {
          ctx.w.write("tl.cast(");
          lowerExpr(ctx, positional[0]);
          ctx.w.write(", ");
          ctx.w.token(`tl.${target.name}`, spanOf(callee));
          ctx.w.write(")");
        });
      }
      // An f-string message of tl.static_assert (xformers' splitk kernel), as Triton formats it from
      // constexprs while compiling: here its text as written, shown with the constexprs' values if it fails.
      const message = target.name === "staticAssert" && positional.length === 2 ? messageTemplate(ctx, positional[1]) : undefined;
      if (message !== undefined) {
        return ctx.w.node(span, () => {
          ctx.w.write("tl.staticAssert(");
          lowerExpr(ctx, positional[0]);
          ctx.w.write(", ");
          ctx.w.token(JSON.stringify(message), spanOf(positional[1]));
          ctx.w.write(")");
        });
      }
      // Python's print(x) in a kernel is tl.device_print with an empty prefix.
      if (target.name === "devicePrint" && nodeText(ctx, callee) === "print" && positional[0]?.name !== "String" && positional[0]?.name !== "FormatString") {
        return ctx.w.node(span, () => {
          ctx.w.write('tl.devicePrint(""');
          for (const p of positional) {
            ctx.w.write(", ");
            lowerExpr(ctx, p);
          }
          ctx.w.write(")");
        });
      }
      if (target.name === "expandDims") ({ positional, keywords } = oneAxisUnwrapped(positional, 1, keywords));
      const args = tritonArguments(ctx, target.name, positional, keywords);
      return writeCall(ctx, span, `tl.${target.name}`, callee, undefined, args.positional, args.keywords, true);
    case "math": {
      const writeName = () => ctx.w.node(spanOf(callee), () => {
        ctx.w.write(`tl.${target.namespace}.`);
        ctx.w.token(target.name ?? nodeText(ctx, target.fnNode), spanOf(target.fnNode));
      });
      return writeCall(ctx, span, writeName, callee, undefined, positional, keywords, true);
    }
    case "method": {
      // A dtype's predicate (`x.dtype.is_fp16()`) stays a method: the kernel language decides it while compiling (semantics/members.ts).
      if (DTYPE_PREDICATES.has(target.name)) {
        return ctx.w.node(span, () => {
          lowerExpr(ctx, target.object);
          ctx.w.write(`.${target.name}(`);
          positional.forEach((p, i) => {
            if (i > 0) ctx.w.write(", ");
            lowerExpr(ctx, p);
          });
          ctx.w.write(")");
        });
      }
      // A tensor descriptor's methods stay methods (semantics/members.ts): desc.load(offsets), desc.store(offsets, value).
      if (DESCRIPTOR_METHODS.has(target.name)) return writeCall(ctx, span, undefined, callee, undefined, positional, keywords, true);
      const name = target.name === "to" ? "cast" : camelCase(target.name);
      if (name === "expandDims") ({ positional, keywords } = oneAxisUnwrapped(positional, 0, keywords));
      const shape = SHAPE_METHODS.has(target.name) && positional.length > 1 && !["TupleExpression", "ArrayExpression"].includes(positional[0].name);
      return writeCall(ctx, span, `tl.${name}`, callee, target.object, positional, keywords, true, shape);
    }
    case "helper": {
      const all = [...keywords, ...defaultsLeftOut(ctx, target.name, positional, keywords)];
      const helper = ctx.file.kernels.find((k) => k.name === target.name);
      const given = helper && knownArguments(ctx, helper, positional, all);
      if (!helper || !given) return writeCall(ctx, span, `${ctx.prefix}${tsName(target.name)}`, callee, undefined, positional, all, false);
      const name = ctx.externals.specialize(ctx.file, helper, given.known, ctx.prefix === "" ? spanOf(callee) : ctx.externals.lowering?.site ?? spanOf(callee));
      return writeCall(ctx, span, name, callee, undefined, given.positional, given.keywords, false);
    }
    case "package":
      return writeCall(ctx, span, target.name, callee, undefined, positional, keywords, false);
    case "external":
      return lowerExternalCall(ctx, n, span, callee, target.file, target.kernel, positional, keywords);
    case "conversion": {
      const only = positional[0];
      const literal = only && positional.length === 1 ? literalValue(ctx.text, only) : undefined;
      if (typeof literal === "string" && target.to === "f32") {
        // Python's float() of a string: "inf", "-Infinity", "nan", "-nan" (a NaN: its sign is never read), spaces around.
        const text = literal.trim();
        const v = Number(text.replace(/^([+-]?)inf(inity)?$/i, "$1Infinity"));
        if (!Number.isNaN(v) || /^[+-]?nan$/i.test(text)) return ctx.w.token(Number.isNaN(v) ? "NaN" : String(v), span);
      }
      if (typeof literal === "number") return ctx.w.token(target.to === "f32" && Number.isInteger(literal) ? `${literal}.0` : String(target.to === "i32" ? Math.trunc(literal) : literal), span);
      if (!only || positional.length !== 1) return unsupported(ctx, n, `${nodeText(ctx, callee)}() of this`, "");
      return ctx.w.node(span, () => {
        ctx.w.write("tl.cast(");
        lowerExpr(ctx, only);
        ctx.w.write(`, "${target.to}")`);
      });
    }
    case "range":
      return unsupported(ctx, n, "range() outside a for loop's header", "write `for i in range(…):`");
    case "isinstance":
      return lowerIsinstance(ctx, n, positional, keywords);
    case "otherModule": {
      // The module was read (beside the script, or Kernel Lab's own): it has no @triton.jit function of the name.
      const read = ctx.file.modules.get(ctx.file.imports.modules.get(target.module) ?? target.module);
      if (read) {
        const nearest = nearestOf(target.name, read.kernels.filter((k) => k.className === undefined).map((k) => k.name));
        ctx.log.error(Codes.pythonKernelMissing, spanOf(callee), `${target.module} (${read.fileName}) has no @triton.jit function '${target.name}'${nearest ? `; did you mean ${target.module}.${nearest}?` : ""}`);
        return ctx.w.token("0", span);
      }
      ctx.log.error(
        Codes.pythonOtherModule,
        spanOf(callee),
        `${nodeText(ctx, callee) === target.name ? `${target.name} is a function of another module (${target.module})` : `${target.module}.${target.name} is a function of another module`} that Kernel Lab can't read here: ` +
          `runs, kernel-lab check and the editor compile the @triton.jit functions of a .py module beside the script that it imports (relative imports inside a package's modules); ` +
          `a module that isn't a Python file there (a C extension, an installed package) can't be: copy ${target.name} into this file`,
      );
      return ctx.w.token("0", span);
    }
    case "noSuchMethod": {
      const has = ctx.file.kernels.filter((k) => k.className === target.className).map((k) => k.name.slice(target.className.length + 1));
      ctx.log.error(Codes.pythonKernelMissing, spanOf(callee), `class ${target.className} has no @triton.jit function '${target.name}' (it has ${has.join(", ")}): a kernel calls a class's @triton.jit functions as ${target.className}.name(…)`);
      return ctx.w.token("0", span);
    }
    case "unknown":
      return writeCall(ctx, span, undefined, callee, undefined, positional, keywords, false);
  }
}

/**
 * tl.expand_dims's axis given as a tuple of one (`(1,)`, positional at `at` or `axis=`) as that one axis: Triton reads the two
 * alike (core.py: `axes = list(axis) if isinstance(axis, (Sequence, tuple)) else [axis]`). tl.expandDims(s, [1]) is how
 * indexing `s[:, None]` lowers (expressions.ts), which gives a scalar its one axis wherever the None stands, as Triton's
 * indexing does; `tl.expand_dims(s, (1,))` is Triton's "invalid axis 1" on a scalar, as tl.expandDims(s, 1) is (KL2012).
 */
function oneAxisUnwrapped(positional: SyntaxNode[], at: number, keywords: Keyword[]): { positional: SyntaxNode[]; keywords: Keyword[] } {
  const unwrapped = (n: SyntaxNode) => ((n.name === "TupleExpression" || n.name === "ArrayExpression") && parts(n).length === 1 ? parts(n)[0] : n);
  return {
    positional: positional.map((p, i) => (i === at ? unwrapped(p) : p)),
    keywords: keywords.map((k) => (k.name === "axis" ? { ...k, value: unwrapped(k.value) } : k)),
  };
}

/** An f-string, or adjacent strings with one among them, as its text between the quotes ({…} kept); undefined for anything else. */
function messageTemplate(ctx: LowerContext, n: SyntaxNode): string | undefined {
  const parts = n.name === "ContinuedString" ? children(n) : [n];
  if (!parts.some((p) => p.name === "FormatString")) return undefined;
  let text = "";
  for (const p of parts) {
    const m = /^[fFrRuU]{0,2}('\'\'|"""|'|")([\s\S]*)\1$/.exec(nodeText(ctx, p));
    if (!m || (p.name !== "String" && p.name !== "FormatString")) return undefined;
    text += m[2];
  }
  return text;
}

/** Triton's classes a kernel's `isinstance` tests for (semantics/tensor-descriptors.ts), by their names under tl or triton.language.core. */
const TL_CLASSES = new Set(["tensor_descriptor", "tensor_descriptor_base", "tensor", "tuple", "dtype"]);

/** `isinstance(x, tl.tensor_descriptor)` → `(x instanceof tl.tensorDescriptor)`, decided while compiling. */
function lowerIsinstance(ctx: LowerContext, n: SyntaxNode, positional: readonly SyntaxNode[], keywords: readonly Keyword[]): void {
  const [value, cls] = positional;
  const dotted = cls ? dottedName(ctx.text, cls) : undefined;
  const name = dotted?.[dotted.length - 1];
  const head = dotted?.slice(0, -1).join(".");
  const tl = head !== undefined && (ctx.file.imports.tl.has(head) || head === "tl" || /(^|\.)language(\.core)?$/.test(head));
  if (positional.length !== 2 || keywords.length > 0 || !name || !tl || !TL_CLASSES.has(name)) {
    return unsupported(ctx, n, "this isinstance", "in a kernel isinstance tests a value for one of tl.tensor_descriptor, tl.tensor, tl.tuple or tl.dtype");
  }
  ctx.w.node(spanOf(n), () => {
    ctx.w.write("(");
    lowerExpr(ctx, value);
    ctx.w.write(" instanceof ");
    ctx.w.token(`tl.${camelCase(name)}`, spanOf(cls));
    ctx.w.write(")");
  });
}

/**
 * A call to a @triton.jit function of another module: the function is lowered into this file
 * (externals.ts). A default the call leaves out is passed by name, as for a helper of this file;
 * it is written in the other module, so only a literal one (`axis=0`, `BLOCK: tl.constexpr = 128`) can be.
 */
function lowerExternalCall(ctx: LowerContext, n: SyntaxNode, span: Span, callee: SyntaxNode, file: PythonFile, kernel: PythonKernel, positional: readonly SyntaxNode[], keywords: readonly Keyword[]): void {
  const site = spanOf(callee);
  const at = ctx.prefix === "" ? site : ctx.externals.lowering?.site ?? site;
  const passed = positional.length;
  const defaults = new Map(kernel.params.slice(passed).filter((p) => p.defaultSpan && !keywords.some((k) => k.name === p.name)).map((p) => [p.name, p.default]));
  const given = knownArguments(ctx, kernel, positional, keywords, defaults, file.text);
  if (given) ({ positional, keywords } = given);
  const name = given ? ctx.externals.specialize(file, kernel, given.known, at) : ctx.externals.use(file, kernel, at);
  const literals: string[] = [];
  for (const p of kernel.params.slice(passed)) {
    if (!p.defaultSpan || keywords.some((k) => k.name === p.name) || given?.known.has(p.name)) continue;
    if (typeof p.default === "number" || typeof p.default === "boolean") literals.push(`${tsName(p.name)}: ${String(p.default)}`);
    else if (p.default !== null) return unsupported(ctx, n, `leaving out ${kernel.name}'s argument ${p.name} (its default isn't a number)`, `pass ${p.name}=… at the call`);
  }
  writeCall(ctx, span, name, callee, undefined, positional, keywords, false, false, literals);
}

/** Parameters of a @triton.jit helper with a default that the call leaves out: passed by name. */
function defaultsLeftOut(ctx: LowerContext, helper: string, positional: readonly SyntaxNode[], keywords: readonly Keyword[]): Keyword[] {
  const params = ctx.defaults.get(helper) ?? [];
  return params.slice(positional.length).filter((p) => p.node && !keywords.some((k) => k.name === p.name)).map((p) => ({ name: p.name, value: p.node! }));
}

function writeCall(
  ctx: LowerContext,
  span: { start: number; end: number },
  /** The callee as written (undefined), a name, or a function that writes it. */
  name: string | undefined | (() => void),
  callee: SyntaxNode,
  receiver: SyntaxNode | undefined,
  positional: readonly SyntaxNode[],
  keywords: readonly Keyword[],
  camelKeys: boolean,
  shapeArgs = false,
  /** Keyword arguments written as they are (`axis: 0`): an other module's defaults. */
  written: readonly string[] = [],
): void {
  const { w } = ctx;
  w.node(span, () => {
    if (name === undefined) lowerExpr(ctx, callee);
    else if (typeof name === "function") name();
    else w.token(name, spanOf(callee));
    w.write("(");
    let first = true;
    const comma = () => {
      if (!first) w.write(", ");
      first = false;
    };
    if (receiver) {
      comma();
      lowerExpr(ctx, receiver);
    }
    if (shapeArgs) {
      comma();
      w.node({ start: positional[0].from, end: positional[positional.length - 1].to }, () => lowerList(ctx, positional));
    } else {
      for (const p of positional) {
        comma();
        lowerExpr(ctx, p);
      }
    }
    if (keywords.length > 0 || written.length > 0) {
      comma();
      w.write("{ ");
      w.write(written.join(", "));
      if (written.length > 0 && keywords.length > 0) w.write(", ");
      keywords.forEach((k, i) => {
        if (i > 0) w.write(", ");
        // A helper's parameter named by a word TypeScript reserves (fla's `do`) is `do_` there (names.ts tsName).
        const key = camelKeys ? camelCase(k.name) : tsName(k.name);
        if (k.nameNode) w.token(key, spanOf(k.nameNode), key === k.name);
        else w.write(key);
        w.write(": ");
        lowerExpr(ctx, k.value);
      });
      w.write(" }");
    }
    w.write(")");
  });
}

export { stringValue };

// What `kernel-lab check file.py` assumes about a kernel it can't see launched: a parameter is a
// pointer where it is the base of the address a tl.load / tl.store / atomic / block pointer uses
// (`x_ptr + offsets`, followed through the names it is assigned to, both sides of `a if C else b`,
// and into helpers), an f32
// pointer by default (an i32 one where it is a lock: atomic_cas, atomic_xchg…); other parameters are i32, or f32 where a launch in the file passes a float
// literal. Constexpr values come from the launches' keywords, else the first autotune config,
// else the heuristics (evaluated where their inputs are known), else the default, else 16.

import type { PyConst } from "./literals";
import type { LaunchSite } from "./launches";
import { literalValue, isDtypeConst } from "./literals";
import type { PythonFile, PythonKernel } from "./module";
import { externalCallee } from "./externals";
import type { PythonArgType } from "./compile-python";
import type { PointeeDtype } from "../ir/ir";
import { assignmentTargets, targetNames } from "./declarations";
import { camelCase } from "./names";
import { children, dottedName, moduleFunction, parts, stringValue, textOf, walk, type SyntaxNode } from "./tree";
import { keywordArgs } from "./signature";

const ADDRESS_TAKERS = new Set(["load", "store", "makeBlockPtr", "makeTensorDescriptor", "atomicAdd", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor", "atomicXchg", "atomicCas"]);
/** tl.* functions that give back their first argument's pointers (reshaped or hinted). */
const PASS_THROUGH = new Set(["expandDims", "broadcastTo", "reshape", "view", "multipleOf", "maxContiguous", "maxConstancy", "advance"]);

/** The parameters of `kernel` used as pointers. */
export function pointerParams(file: PythonFile, kernel: PythonKernel, seen = new Set<string>(), takers: ReadonlySet<string> = ADDRESS_TAKERS, modules: ReadonlyMap<string, PythonFile> = file.modules): Set<string> {
  const text = file.text;
  seen.add(`${file.fileName}\0${kernel.name}`);
  const body = children(kernel.node).find((c) => c.name === "Body");
  const params = new Set(kernel.params.map((p) => p.name));
  const assignments = new Map<string, SyntaxNode[]>();
  const addressRoots: SyntaxNode[] = [];
  const innerPointers = new Map<string, Set<string>>();
  if (!body) return new Set();
  walk(body, (n) => {
    if (n.name === "AssignStatement") {
      const kids = children(n);
      const targets = assignmentTargets(n);
      const values = kids.slice(kids.findIndex((k) => k.name === "AssignOp") + 1).filter((k) => k.name !== ",");
      if (targets.length === 1 && targets[0].name === "VariableName" && values.length === 1) {
        const name = textOf(text, targets[0]);
        assignments.set(name, [...(assignments.get(name) ?? []), values[0]]);
      }
      void targetNames;
    }
    if (n.name === "CallExpression") {
      const [callee, argList] = children(n);
      const name = dottedName(text, callee);
      const { positional: args, keywords } = argList ? keywordArgs(text, argList) : { positional: [], keywords: new Map<string, SyntaxNode>() };
      const fn = name ? camelCase(name[name.length - 1]) : undefined;
      const address = args[0] ?? keywords.get("pointer") ?? keywords.get("ptr") ?? keywords.get("base");
      if (name && name.length >= 2 && fn && takers.has(fn) && address) addressRoots.push(address);
      // A helper of this file, or another module's (`tle.load_block(X, offs, mask)`): its pointer parameters make the arguments pointers.
      const own = name?.length === 1 ? file.kernels.find((k) => k.name === name[0]) : undefined;
      const external = !own && name ? externalCallee(modules, file, name) : undefined;
      const helper = own ?? external?.kernel;
      const helperFile = own ? file : external?.file;
      const key = helper && helperFile ? `${helperFile.fileName}\0${helper.name}` : "";
      if (helper && helperFile && !seen.has(key)) {
        // Each call of a helper makes its arguments pointers (tutorial 06 calls _maybe_make_tensor_desc four times): its own result is kept.
        const inner = innerPointers.get(key) ?? pointerParams(helperFile, helper, new Set(seen), takers, modules);
        innerPointers.set(key, inner);
        helper.params.forEach((p, i) => {
          const arg = args[i] ?? keywords.get(p.name);
          if (inner.has(p.name) && arg) addressRoots.push(arg);
        });
      }
    }
    return undefined;
  });
  const pointers = new Set<string>();
  // Whether each name holds a pointer, remembered: a name met again (mamba's `tl.store(ptrs + stride, …)`
  // after `ptrs` was followed for an earlier load) still holds one, so `stride` isn't taken for it.
  const holds = new Map<string, boolean>();
  /** Marks the parameters `e` takes its pointer from; whether it holds one. */
  const follow = (e: SyntaxNode | undefined): boolean => {
    if (!e) return false;
    switch (e.name) {
      case "VariableName": {
        const name = textOf(text, e);
        const known = holds.get(name);
        if (known !== undefined) return known;
        holds.set(name, false); // while its own assignments are followed
        let found = params.has(name);
        if (found) pointers.add(name);
        for (const value of assignments.get(name) ?? []) found = follow(value) || found;
        holds.set(name, found);
        return found;
      }
      case "BinaryExpression": {
        const op = children(e).slice(1, -1).map((k) => textOf(text, k)).join(" ");
        if (op !== "+" && op !== "-") return false;
        // The pointer is the left operand (`X + offs`), or the right of a `+` whose left holds none (attorch's `tl.load(feat_pid + mean_pointer)`).
        const left = follow(children(e)[0]);
        return left || (op === "+" && follow(children(e).at(-1)));
      }
      case "ParenthesizedExpression":
        return follow(parts(e)[0]);
      case "ConditionalExpression": {
        // `iptr = a if A_TO_B else b` (megablocks' _padded_copy): either side may be the pointer, whichever the constexpr picks.
        const kids = children(e);
        const values = [kids[0], kids[kids.findIndex((k) => k.name === "else") + 1]];
        return values.map(follow).some(Boolean);
      }
      case "MemberExpression":
        return children(e)[1]?.name === "[" ? follow(children(e)[0]) : false;
      case "CallExpression": {
        const [callee, argList] = children(e);
        const name = dottedName(text, callee);
        const fn = name ? camelCase(name[name.length - 1]) : undefined;
        if (fn && PASS_THROUGH.has(fn) && argList) return follow(name!.length >= 2 && !isTlHead(file, name!) ? callee.firstChild ?? undefined : parts(argList)[0]);
        return false;
      }
      default:
        return false;
    }
  };
  for (const root of addressRoots) follow(root);
  return pointers;
}

function isTlHead(file: PythonFile, name: string[]): boolean {
  const head = name.slice(0, -1).join(".");
  return file.imports.tl.has(head) || head === "tl" || head === "triton.language";
}

/** The types `check` compiles a kernel with. */
export function assumedArgTypes(file: PythonFile, kernel: PythonKernel): Record<string, PythonArgType> {
  const pointers = pointerParams(file, kernel);
  // Locks and flags (tutorial 05's atomic_cas / atomic_xchg on Lock): WGSL's atomics need integers.
  const integers = pointerParams(file, kernel, new Set(), new Set(["atomicCas", "atomicXchg", "atomicAnd", "atomicOr", "atomicXor"]));
  const launches = file.launches.filter((l) => l.kernel === kernel.name);
  const types: Record<string, PythonArgType> = {};
  const descriptors = descriptorParams(file, kernel);
  // The tensors the first launch passes by name, where the file says their dtype.
  const made = launches.length > 0 ? boundBefore(file, launches[0]) : new Map<string, SyntaxNode>();
  kernel.params.forEach((p, i) => {
    if (p.constexpr) return;
    if (pointers.has(p.name)) {
      const arg = launches[0]?.args[i];
      const passed = arg && /^[A-Za-z_]\w*$/.test(arg.text) ? passedDtype(file, made, arg.text) : undefined;
      types[p.name] = { kind: "pointer", dtype: passed ?? (integers.has(p.name) ? "i32" : "f32") };
      return;
    }
    const descriptor = descriptors.get(p.name);
    if (descriptor !== undefined) {
      types[p.name] = { kind: "descriptor", dtype: descriptor.integer ? "i32" : "f32", blockShape: Array.from({ length: descriptor.rank }, () => PLACEHOLDER), padding: "zero" };
      return;
    }
    const passed = launches.map((l) => (i < l.args.length ? l.args[i].value : l.keywords[p.name]));
    if (passed.some((v) => v === null)) types[p.name] = { kind: "none" };
    else if (passed.some((v) => typeof v === "number" && !Number.isInteger(v)) || (typeof p.default === "number" && !Number.isInteger(p.default))) types[p.name] = { kind: "scalar", dtype: "f32" };
    // An int argument equal to 1 at every launch is Triton's constant 1 (`if mask_batch_size == 1:` decided while compiling).
    else if (passed.length > 0 && passed.every((v) => v === 1) && !kernel.doNotSpecialize?.has(p.name)) types[p.name] = { kind: "one" };
    else types[p.name] = { kind: "scalar", dtype: "i32" };
  });
  return types;
}

export const PLACEHOLDER = 16;

/** The value of the last assignment to each plain name before `launch`, in the function that launches (or the module). */
function boundBefore(file: PythonFile, launch: LaunchSite): Map<string, SyntaxNode> {
  let scope: SyntaxNode = file.tree.topNode;
  walk(file.tree.topNode, (n) => {
    if (n.name === "FunctionDefinition" && n.from <= launch.span.start && launch.span.end <= n.to) scope = n;
    return undefined;
  });
  const made = new Map<string, SyntaxNode>();
  walk(scope, (n) => {
    if (n.name !== "AssignStatement" || n.from >= launch.span.start) return undefined;
    const [target, , value] = children(n);
    if (target?.name === "VariableName" && value) made.set(textOf(file.text, target), value);
    return undefined;
  });
  return made;
}

/** A torch dtype as a script names it (`torch.float16`, `.half()`), and the element type of a pointer to it. */
const TORCH_DTYPES: [RegExp, PointeeDtype][] = [
  [/\btorch\.(float16|half)\b|\.half\(\)/, "f16"],
  [/\btorch\.bfloat16\b|\.bfloat16\(\)/, "bf16"],
  [/\btorch\.(float32|float)\b|\.float\(\)/, "f32"],
  [/\btorch\.int32\b|\.int\(\)/, "i32"],
  [/\btorch\.(int64|long)\b|\.long\(\)/, "i64"],
  [/\btorch\.int8\b/, "i8"],
  [/\btorch\.uint8\b/, "u8"],
  [/\btorch\.bool\b|\.bool\(\)/, "bool"],
  [/\btorch\.float8_e4m3fn\b/, "f8e4m3"],
  [/\btorch\.float8_e5m2\b/, "f8e5m2"],
];

/**
 * The dtype of the tensor a launch passes by name, where the assignment that made it names exactly one
 * (`h = x.half()`, `w = torch.randn(k, n, dtype=torch.float16)`), or copies another's shape and dtype
 * (`out = torch.empty_like(h)`); undefined where it names none, or several.
 */
function passedDtype(file: PythonFile, made: ReadonlyMap<string, SyntaxNode>, name: string, seen = new Set<string>()): PointeeDtype | undefined {
  const value = made.get(name);
  if (!value || seen.has(name)) return undefined;
  seen.add(name);
  const source = textOf(file.text, value);
  const named = TORCH_DTYPES.filter(([pattern]) => pattern.test(source)).map(([, dtype]) => dtype);
  if (named.length > 0) return named.length === 1 ? named[0] : undefined;
  const like = /^torch\.(empty|zeros|ones|full|rand|randn)_like\(\s*([A-Za-z_]\w*)\s*[,)]/.exec(source);
  return like ? passedDtype(file, made, like[2], seen) : undefined;
}

/**
 * The block shapes of the tensor descriptors the file's first launch of the kernel passes, where the function that
 * launches it makes them (`desc = TensorDescriptor.from_tensor(t, block_shape=[1, BLOCK_M, BLOCK_K])`, Liger's
 * backward): numbers, and names taken as the kernel's constexprs of the same name (`BLOCK_M=BLOCK_M` at the launch).
 */
export function launchBlockShapes(file: PythonFile, kernel: PythonKernel, constexprs: Record<string, PyConst>): Map<string, number[]> {
  const shapes = new Map<string, number[]>();
  const launch = file.launches.find((l) => l.kernel === kernel.name);
  const text = file.text;
  if (!launch) return shapes;
  const made = boundBefore(file, launch);
  launch.args.forEach((arg, i) => {
    const param = kernel.params[i];
    const call = param && made.get(arg.text);
    const callee = call?.name === "CallExpression" ? dottedName(text, children(call)[0]) : undefined;
    const argList = call && children(call).find((c) => c.name === "ArgList");
    if (!callee || !argList || !/^(from_tensor|TensorDescriptor|make_tensor_descriptor)$/.test(callee[callee.length - 1])) return;
    const { positional, keywords } = keywordArgs(text, argList);
    const shape = keywords.get("block_shape") ?? (callee[callee.length - 1] === "from_tensor" ? positional[1] : undefined);
    if (shape?.name !== "ArrayExpression" && shape?.name !== "TupleExpression") return;
    shapes.set(param.name, parts(shape).map((e) => {
      const v = e.name === "VariableName" ? constexprs[textOf(text, e)] : literalValue(text, e);
      return typeof v === "number" ? v : PLACEHOLDER;
    }));
  });
  return shapes;
}

/**
 * The block shapes the first autotune config's `pre_hook` gives the kernel's tensor descriptors (Liger's mlp.py makes
 * them with a dummy [1, 1, 1] and sets `nargs["desc_x"].block_shape = [1, BLOCK_M, BLOCK_K]`), read from the hook's
 * assignments: numbers, and the constexprs it reads from its argument, directly or through a local (`BLOCK_M =
 * nargs["BLOCK_M"]`), at `constexprs`' values. Walked in order: a local is bound before the shapes that read it.
 */
export function preHookBlockShapes(file: PythonFile, kernel: PythonKernel, constexprs: Record<string, PyConst>): Map<string, number[]> {
  const shapes = new Map<string, number[]>();
  const name = kernel.autotune?.configs[0]?.preHook;
  const text = file.text;
  const hook = name && moduleFunction(text, file.tree.topNode, name);
  const param = hook && children(children(hook).find((c) => c.name === "ParamList")!).find((c) => c.name === "VariableName");
  const body = hook && children(hook).find((c) => c.name === "Body");
  if (!param || !body) return shapes;
  const nargs = textOf(text, param);
  // `nargs["NAME"]`: NAME, where the subscript is of the hook's argument.
  const key = (n: SyntaxNode): string | undefined => {
    if (n.name !== "MemberExpression") return undefined;
    const [object, ...rest] = children(n);
    const index = rest.find((c) => c.name === "String");
    return object.name === "VariableName" && textOf(text, object) === nargs && rest[0]?.name === "[" && index ? stringValue(text, index) : undefined;
  };
  // `BLOCK_M = nargs["BLOCK_M"]` first (Liger's hooks), then `nargs["desc"].block_shape = [1, BLOCK_M, BLOCK_K]`.
  const locals = new Map<string, string>();
  const element = (e: SyntaxNode): PyConst | undefined => {
    const named = key(e) ?? (e.name === "VariableName" ? locals.get(textOf(text, e)) : undefined);
    return named !== undefined ? constexprs[named] : literalValue(text, e);
  };
  walk(body, (n) => {
    if (n.name !== "AssignStatement") return undefined;
    const [target, , value] = children(n);
    const local = target?.name === "VariableName" && value ? key(value) : undefined;
    if (local !== undefined) locals.set(textOf(text, target), local);
    const [object, dot, attribute] = target?.name === "MemberExpression" ? children(target) : [];
    const desc = object && key(object);
    if (!desc || dot?.name !== "." || !attribute || textOf(text, attribute) !== "block_shape") return undefined;
    if (value?.name !== "ArrayExpression" && value?.name !== "TupleExpression") return undefined;
    shapes.set(desc, parts(value).map((e) => {
      const v = element(e);
      return typeof v === "number" ? v : PLACEHOLDER;
    }));
    return undefined;
  });
  return shapes;
}

/** A tensor descriptor's methods that take the block's offsets first. */
const DESCRIPTOR_ACCESSES: ReadonlySet<string> = new Set(["load", "store", "atomic_add", "atomic_min", "atomic_max", "atomic_and", "atomic_or", "atomic_xor"]);

/**
 * The parameters a kernel reads or writes as tensor descriptors (`a_desc.load([m, k])`, tutorial
 * 09's host TensorDescriptor arguments), with the rank their offsets give: `check` assumes a
 * descriptor of f32 with blocks of 16 on each axis (of i32 where an integer-only atomic updates it).
 */
function descriptorParams(file: PythonFile, kernel: PythonKernel): Map<string, { rank: number; integer: boolean }> {
  const text = file.text;
  const params = new Set(kernel.params.map((p) => p.name));
  const found = new Map<string, { rank: number; integer: boolean }>();
  const integer = new Set<string>();
  const body = children(kernel.node).find((c) => c.name === "Body");
  if (body) walk(body, (n) => {
    if (n.name !== "CallExpression") return;
    const [callee, argList] = children(n);
    const name = dottedName(text, callee);
    if (!name || name.length !== 2 || !params.has(name[0]) || !DESCRIPTOR_ACCESSES.has(name[1])) return;
    // The atomics other than add have WGSL atomics on integers only: such a descriptor holds i32.
    if (name[1].startsWith("atomic_") && name[1] !== "atomic_add") integer.add(name[0]);
    if (found.has(name[0])) return;
    const offsets = argList ? keywordArgs(text, argList).positional[0] : undefined;
    if (offsets?.name === "ArrayExpression" || offsets?.name === "TupleExpression") found.set(name[0], { rank: parts(offsets).length, integer: false });
  });
  for (const [name, d] of found) d.integer = integer.has(name);
  return found;
}

/** Kernel Lab's names of the Triton dtypes with no WGSL type (KL2080 where a kernel makes a value of one). */
const NO_WGSL_TYPE: ReadonlySet<string> = new Set(["f64", "u64", "i16", "u16", "f8e4b8", "f8e5b16", "f8e4b15"]);

/** The sets of constexpr values `check` compiles a kernel with: one per launch in the file, or one (with autotune's config `configIndex`). */
export function assumedConstexprs(file: PythonFile, kernel: PythonKernel, configIndex = 0): Record<string, PyConst>[] {
  const launches = file.launches.filter((l) => l.kernel === kernel.name);
  const config = kernel.autotune?.configs[configIndex];
  // A launch whose constexpr is one of two literals (`STAGE=stage`, `stage = 3 if is_causal else 1`: SpargeAttn) is
  // checked with each, as Triton compiles each launch's own (at most 8 combinations).
  const choices = (launch: LaunchSite | undefined): Record<string, PyConst>[] => {
    let out: Record<string, PyConst>[] = [{}];
    if (launch) kernel.params.forEach((p, i) => {
      const given = i < launch.args.length ? launch.args[i].alternatives : launch.alternatives?.[p.name];
      // A dtype with no WGSL type beside one that has one (FlagGems' igammac: `tl.float64 if out.dtype == torch.float64
      // else tl.float32`): a run can only take the other, so check compiles that one (a run with float64 fails earlier).
      const runnable = given?.filter((v) => !(isDtypeConst(v) && NO_WGSL_TYPE.has(v.dtype)));
      const either = runnable && runnable.length > 0 ? runnable : given;
      if (!p.constexpr || !either || out.length * either.length > 8) return;
      out = out.flatMap((o) => either.map((v) => ({ ...o, [p.name]: v })));
    });
    return out;
  };
  const variants = (launches.length > 0 ? launches : [undefined]).flatMap((launch) => choices(launch).map((chosen) => ({ launch, chosen }))).map(({ launch, chosen }) => {
    const values: Record<string, PyConst> = {};
    const args: Record<string, PyConst> = {};
    kernel.params.forEach((p, i) => {
      const v = chosen[p.name] ?? (launch ? (i < launch.args.length ? launch.args[i].value : launch.keywords[p.name]) : undefined);
      if (v !== undefined) args[p.name] = v;
      if (!p.constexpr) return;
      const fromConfig = config?.kwargs[p.name];
      const value = v ?? fromConfig ?? p.default;
      if (value !== undefined) values[p.name] = value;
    });
    if (config?.numWarps !== undefined) values.num_warps = config.numWarps;
    if (config?.numStages !== undefined) values.num_stages = config.numStages;
    for (const h of kernel.heuristics) {
      if (values[h.name] !== undefined && !(launch && launch.keywords[h.name] === undefined && h.name in launch.keywords)) continue;
      values[h.name] = evaluateHeuristic(file.text, h.argName, h.body, { ...args, ...values });
    }
    const dtypes = dtypeParams(file, kernel);
    for (const p of kernel.params) if (p.constexpr && values[p.name] === undefined) values[p.name] = dtypes.has(p.name) ? { dtype: "f32" } : PLACEHOLDER;
    return values;
  });
  const seen = new Set<string>();
  return variants.filter((v) => {
    const key = JSON.stringify(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The constexpr parameters a kernel uses as dtypes (`x.to(X_dtype)`, `tl.cast(x, DT)`, `dtype=DT`):
 * not seen launched, `check` takes them as tl.float32, not the number 16.
 */
function dtypeParams(file: PythonFile, kernel: PythonKernel): Set<string> {
  const text = file.text;
  const constexprs = new Set(kernel.params.filter((p) => p.constexpr).map((p) => p.name));
  const found = new Set<string>();
  const body = children(kernel.node).find((c) => c.name === "Body");
  if (!body) return found;
  walk(body, (n) => {
    if (n.name !== "CallExpression") return undefined;
    const [callee, argList] = children(n);
    const name = dottedName(text, callee) ?? (callee.name === "MemberExpression" ? [textOf(text, callee.lastChild ?? callee)] : undefined);
    if (!argList) return undefined;
    const { positional, keywords } = keywordArgs(text, argList);
    const last = name?.[name.length - 1];
    const candidates = [keywords.get("dtype"), last === "to" ? positional[0] : undefined, last === "cast" ? positional[1] : undefined];
    for (const c of candidates) if (c?.name === "VariableName" && constexprs.has(textOf(text, c))) found.add(textOf(text, c));
    return undefined;
  });
  return found;
}

/** `lambda args: args['K'] % args['BLOCK_K'] == 0` with what is known; a condition not known is taken as true. */
function evaluateHeuristic(text: string, argName: string | undefined, body: SyntaxNode | undefined, values: Record<string, PyConst>): PyConst {
  if (!body) return PLACEHOLDER;
  const v = literalValue(text, body, { lookup: () => undefined, item: (object, key) => (object === argName ? values[key] : undefined) });
  if (v !== undefined) return v;
  const isCondition = body.name === "BinaryExpression" && /^(==|!=|<|<=|>|>=|and|or|is|is not)$/.test(children(body).slice(1, -1).map((k) => textOf(text, k)).join(" "));
  return isCondition ? true : PLACEHOLDER;
}

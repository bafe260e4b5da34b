// `kernel-lab check file.py` and the editor's diagnostics for a Python file: every @triton.jit
// kernel (a function no other one calls) compiled with what the file says about its launches
// (infer.ts), its device functions checked through the kernels that call them.

import type { Diagnostic } from "../diagnostics/diagnostic";
import { distinctDiagnostics } from "../diagnostics/diagnostic";
import type { Target } from "../ir/target";
import { DEFAULT_TARGET } from "../ir/target";
import { adapterDependent, NO_ADAPTER_TARGET } from "../compile";
import { Codes } from "../diagnostics/codes";
import { compilePythonKernel, type PythonArgType } from "./compile-python";
import { assumedArgTypes, assumedConstexprs, launchBlockShapes, PLACEHOLDER, pointerParams, preHookBlockShapes } from "./infer";
import { readPythonFile, type PythonFile, type PythonKernel } from "./module";
import { children, dottedName, textOf, walk, type SyntaxNode } from "./tree";
import { externalCallee } from "./externals";
import { literalValue, type PyConst } from "./literals";
import { keywordArgs } from "./signature";

export function checkPythonFile(fileName: string, text: string, target: Target = DEFAULT_TARGET): Diagnostic[] {
  return checkPython(readPythonFile(fileName, text), target);
}

export function checkPython(file: PythonFile, target: Target = DEFAULT_TARGET): Diagnostic[] {
  const checked = target === DEFAULT_TARGET ? NO_ADAPTER_TARGET : target;
  const diagnostics = [...file.diagnostics];
  // With a syntax error, Lezer's recovery leaves a tree whose kernels would report noise.
  if (file.diagnostics.some((d) => d.code === Codes.pythonSyntax)) return diagnostics;
  for (const kernel of file.kernels) {
    const launched = file.launches.some((l) => l.kernel === kernel.name);
    if (kernel.called && !launched) continue;
    // A device function no kernel of this file calls (a library's helper module, FlagGems'
    // triton_lang_extension): it returns a value, so it isn't a kernel, and nothing says its types.
    if (!launched && returnsValue(kernel)) continue;
    const types = assumedArgTypes(file, kernel);
    // Descriptors given their block shapes where the launching function makes them, then by the first config's
    // pre_hook (which a run calls after, before compiling); else blocks of 16 on each axis.
    const variants = assumedConstexprs(file, kernel);
    const firstVariant = variants[0] ?? {};
    for (const [name, shape] of [...launchBlockShapes(file, kernel, firstVariant), ...preHookBlockShapes(file, kernel, firstVariant)]) {
      const t = types[name];
      if (t?.kind === "descriptor" && t.blockShape.length === shape.length) types[name] = { ...t, blockShape: shape };
    }
    // A pointer's dtype is a guess (float32; a launch in the file says which tensor, not its dtype):
    // a diagnostic that goes away when they point to int32 instead, or to torch.bool, may be the
    // guess's, not the kernel's, and is left out (Liger's cross entropy loads its int64 targets
    // through Y_ptr; FlagGems' dropout stores its keep-mask through a bool pointer). The other
    // guesses are compiled only while something is left to rule out.
    // The bool guess: only the pointers stored through, and it rules out only a mask stored (KL2003).
    const stored = pointerParams(file, kernel, new Set(), new Set(["store"]));
    const masks = onlyMasks(file, kernel);
    const others = [
      { types: otherGuess(types, "i32"), rules: () => true },
      { types: otherGuess(types, "bool", stored), rules: (d: Diagnostic) => d.code === Codes.operandDtype },
      // The int8 guess rules out only a static assertion on a loaded dtype (tritonbench's int4 matmul:
      // `tl.static_assert(b.dtype == tl.int8)` on packed weights).
      { types: otherGuess(types, "i8"), rules: (d: Diagnostic) => d.code === Codes.staticAssert },
      // A parameter used only as a load's, store's or atomic's mask (cce's helper `tl_lock_add(ptrs, v, mask, lock_ptr)`,
      // which no kernel of its file calls) is a block of bools its callers give, which the int32 guess isn't: "the mask
      // must be a comparison" at it is the guess's where it goes with no mask given.
      { types: masks.size > 0 ? { ...types, ...Object.fromEntries([...masks].map((name) => [name, { kind: "none" } as const])) } : undefined, rules: (d: Diagnostic) => d.code === Codes.operandDtype && masks.has(file.text.slice(d.span.start, d.span.end)) },
    ];
    for (const first of variants) {
      let constexprs = first;
      let kept = compilePythonKernel(file, kernel.name, types, constexprs, checked).diagnostics;
      // Triton's autotuner drops a config whose blocks don't fit (OutOfResources), and so does a run:
      // where the first config's don't, the kernel is checked with the first that fits (mamba's SSD kernels list 128×256 first).
      const fits = kept.some((d) => d.code === Codes.workgroupMemory) ? laterConfigThatFits(file, kernel, types, checked) : undefined;
      if (fits) ({ constexprs, diagnostics: kept } = fits);
      // A flag the file gives no value for (tutorial 08 launches FP8=<an expression>) is taken as true:
      // a diagnostic that goes away with it false (its `tl.float8e4nv if FP8 else …`) is the guess's.
      // So is a mode compared with constants (Liger's grpo_loss: `if LOSS_TYPE == _LOSS_TYPE_GRPO:` …
      // `elif LOSS_TYPE == 1:`), taken as the first it's compared with: 16 takes no branch.
      const unknown = kernel.params.filter((p) => p.constexpr && constexprs[p.name] === PLACEHOLDER);
      const guesses: [string, PyConst][] = unknown.flatMap((p): [string, PyConst][] => {
        if (onlyTested(file, kernel, p.name)) return [[p.name, false]];
        const first = firstComparedWith(file, kernel, p.name);
        return first === undefined ? [] : [[p.name, first]];
      });
      const flagsOff = guesses.length === 0 ? undefined : { ...constexprs, ...Object.fromEntries(guesses) };
      // A static assertion on a size the file gives no value for (Liger's int2 matmul: `K % (4 * BLOCK_SIZE_K) == 0`,
      // K the placeholder 16) is the guess's where it holds with those sizes 1024, a multiple of every block.
      const sizes = unknown.filter((p) => !guesses.some(([name]) => name === p.name));
      const larger = sizes.length === 0 ? undefined : { ...constexprs, ...Object.fromEntries(sizes.map((p) => [p.name, 1024])) };
      for (const other of [...others, { types: flagsOff && types, constexprs: flagsOff, rules: () => true }, { types: larger && types, constexprs: larger, rules: (d: Diagnostic) => d.code === Codes.staticAssert }]) {
        if (!other.types || kept.length === 0) continue;
        const alsoOther = compilePythonKernel(file, kernel.name, other.types, ("constexprs" in other && other.constexprs) || constexprs, checked).diagnostics;
        kept = kept.filter((d) => !other.rules(d) || alsoOther.some((o) => o.code === d.code && o.span.start === d.span.start && o.span.end === d.span.end));
      }
      // A module tl.constexpr bound by a host call (tritonbench's `IS_CUDA = tl.constexpr(is_cuda())`) has its value only
      // in a run: "not defined" of one is check's, not the kernel's, and is left out.
      const runTime = new Set([file, ...file.modules.values()].flatMap((m) => [...(m.runTimeConstexprs ?? [])]));
      kept = kept.filter((d) => !(d.code === Codes.unknownName && runTime.has(/^'([^']+)'/.exec(d.message)?.[1] ?? "")));
      for (const d of kept) diagnostics.push(adapterDependent(d, checked));
    }
  }
  return distinctDiagnostics(diagnostics);
}

/** The constexprs of the first autotune config after the first that compiles within the workgroup memory, and its diagnostics. */
function laterConfigThatFits(file: PythonFile, kernel: PythonKernel, types: Record<string, PythonArgType>, target: Target): { constexprs: Record<string, PyConst>; diagnostics: Diagnostic[] } | undefined {
  const count = kernel.autotune?.configs.length ?? 0;
  for (let i = 1; i < count; i++) {
    for (const constexprs of assumedConstexprs(file, kernel, i)) {
      const diagnostics = compilePythonKernel(file, kernel.name, types, constexprs, target).diagnostics;
      if (!diagnostics.some((d) => d.code === Codes.workgroupMemory)) return { constexprs, diagnostics };
    }
  }
  return undefined;
}

/**
 * Whether the kernel uses `name` only as a condition: `if name:`, `a if name else b`, `not name`, `name and …`, or as
 * the argument of a @triton.jit helper that uses its parameter so (flash-attention's bwd.py hands
 * `DEBUG_TRITON=DEBUG_TRITON` to its inner loops, which only test it).
 */
function onlyTested(file: PythonFile, kernel: PythonKernel, name: string, seen = new Set<string>()): boolean {
  const body = children(kernel.node).find((c) => c.name === "Body");
  seen.add(`${file.fileName}\0${kernel.name}\0${name}`);
  let uses = 0;
  let tested = 0;
  if (body) walk(body, (n) => {
    if (n.name !== "VariableName" || textOf(file.text, n) !== name || isKeywordName(n)) return;
    uses++;
    const passed = n.parent?.name === "ArgList" ? helperParam(file, n.parent, n) : undefined;
    const key = passed && `${passed.file.fileName}\0${passed.kernel.name}\0${passed.param}`;
    if (isCondition(file, n) || (passed && key && (seen.has(key) || onlyTested(passed.file, passed.kernel, passed.param, seen)))) tested++;
  });
  return uses === tested && (uses > 0 || seen.size > 1);
}

/**
 * The constant the kernel first compares `name` with (`name == 0`, `name != K` of a module constant,
 * `act == 'gelu'`; None where it is only ever tested against None), when every use is such a comparison, an `is None` test, or an argument to a
 * @triton.jit helper that uses its parameter so (attorch hands `act_func` to `apply_act_func`).
 */
function firstComparedWith(file: PythonFile, kernel: PythonKernel, name: string, seen = new Set<string>()): PyConst | undefined {
  const body = children(kernel.node).find((c) => c.name === "Body");
  const scope = { lookup: (n: string) => file.constants.get(n)?.value };
  seen.add(`${file.fileName}\0${kernel.name}\0${name}`);
  let first: PyConst | undefined;
  let every = true;
  let none = false;
  if (body) walk(body, (n) => {
    if (n.name !== "VariableName" || textOf(file.text, n) !== name || isKeywordName(n)) return;
    const parent = n.parent;
    const kids = parent ? children(parent) : [];
    const op = kids[1] ? kids.slice(1, -1).map((k) => textOf(file.text, k)).join(" ") : "";
    const other = kids[0]?.from === n.from ? kids[kids.length - 1] : kids[0];
    if (parent?.name === "BinaryExpression" && ["==", "!=", "is", "is not"].includes(op) && other) {
      const value = literalValue(file.text, other, scope);
      if (value === null) {
        none = true; // `name is None`: says nothing of its value otherwise
        return;
      }
      if (typeof value === "number" || typeof value === "string") first ??= value;
      else every = false;
      return;
    }
    const passed = parent?.name === "ArgList" ? helperParam(file, parent, n) : undefined;
    const key = passed && `${passed.file.fileName}\0${passed.kernel.name}\0${passed.param}`;
    // A helper's parameter already looked at (flash-attention's _bwd_kernel calls _bwd_kernel_one_col_block
    // at two places with BIAS_TYPE=BIAS_TYPE): what that look found already counts.
    if (key && seen.has(key)) return;
    const inner = passed && key ? firstComparedWith(passed.file, passed.kernel, passed.param, seen) : undefined;
    if (inner === undefined) every = false;
    else first ??= inner;
  });
  // Only ever tested against None (sglang's `if quant_max is not None: raise …`): taken as None.
  return !every ? undefined : first !== undefined ? first : none ? null : undefined;
}

/** Whether `n` is a keyword argument's name (`BIAS_TYPE` before `=` in `f(…, BIAS_TYPE=BIAS_TYPE)`), not a use of the name. */
function isKeywordName(n: SyntaxNode): boolean {
  return n.parent?.name === "ArgList" && n.nextSibling?.name === "AssignOp";
}

/** The @triton.jit helper (this file's or another module's) and parameter that `arg`, an argument in `argList`, is passed to. */
function helperParam(file: PythonFile, argList: SyntaxNode, arg: SyntaxNode): { file: PythonFile; kernel: PythonKernel; param: string } | undefined {
  const call = argList.parent;
  const callee = call ? children(call)[0] : undefined;
  const dotted = callee ? dottedName(file.text, callee) : undefined;
  if (!dotted) return undefined;
  const own = dotted.length === 1 ? file.kernels.find((k) => k.name === dotted[0]) : undefined;
  const found = own ? { file, kernel: own } : externalCallee(file.modules, file, dotted);
  if (!found) return undefined;
  const kids = children(argList).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  const at = kids.findIndex((k) => k.from === arg.from);
  if (kids[at + 1]?.name === "AssignOp") return undefined; // a keyword's name, not a value
  const keyword = kids[at - 2] && kids[at - 1]?.name === "AssignOp" ? textOf(file.text, kids[at - 2]) : undefined;
  const index = kids.slice(0, at).filter((k, i, all) => k.name !== "AssignOp" && all[i + 1]?.name !== "AssignOp" && all[i - 1]?.name !== "AssignOp").length;
  const param = keyword ?? found.kernel.params[index]?.name;
  return param ? { ...found, param } : undefined;
}

function isCondition(file: PythonFile, n: SyntaxNode): boolean {
  const parent = n.parent;
  if (!parent) return false;
  const kids = children(parent);
  const at = kids.findIndex((k) => k.from === n.from && k.to === n.to);
  const word = (i: number) => (kids[i] ? textOf(file.text, kids[i]) : "");
  switch (parent.name) {
    case "IfStatement":
    case "WhileStatement":
      return ["if", "elif", "while"].includes(word(at - 1));
    case "ConditionalExpression":
      return word(at - 1) === "if";
    case "UnaryExpression":
      return word(at - 1) === "not";
    case "BinaryExpression":
      return ["and", "or"].includes(word(1)) && isCondition(file, parent);
    default:
      return false;
  }
}

function returnsValue(kernel: PythonKernel): boolean {
  let found = false;
  const body = children(kernel.node).find((c) => c.name === "Body");
  if (body) walk(body, (n) => {
    if (n.name === "ReturnStatement" && children(n).some((c) => c.name !== "return")) found = true;
    return undefined;
  });
  return found;
}

/** The types with every guessed float32 pointer (of `only`, where given) one to `dtype` instead; undefined when nothing was guessed. */
function otherGuess(types: Readonly<Record<string, PythonArgType>>, dtype: "i32" | "bool" | "i8", only?: ReadonlySet<string>): Record<string, PythonArgType> | undefined {
  const guessed = Object.entries(types).filter(([name, t]) => t.kind === "pointer" && t.dtype === "f32" && (!only || only.has(name)));
  return guessed.length === 0 ? undefined : { ...types, ...Object.fromEntries(guessed.map(([name]) => [name, { kind: "pointer", dtype } as const])) };
}

/** The parameters of a kernel the file doesn't launch that it uses only as the mask of a load, store or atomic, as they are. */
function onlyMasks(file: PythonFile, kernel: PythonKernel): Set<string> {
  const body = children(kernel.node).find((c) => c.name === "Body");
  if (!body || file.launches.some((l) => l.kernel === kernel.name)) return new Set();
  const params = new Set(kernel.params.filter((p) => !p.constexpr).map((p) => p.name));
  const uses = new Map<string, number>();
  const asMask = new Map<string, number>();
  const count = (counts: Map<string, number>, name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  walk(body, (n) => {
    if (n.name === "VariableName" && params.has(textOf(file.text, n)) && !isKeywordName(n)) count(uses, textOf(file.text, n));
    if (n.name !== "CallExpression") return;
    const [callee, argList] = children(n);
    const fn = dottedName(file.text, callee)?.at(-1);
    if (!fn || !argList || !(fn === "load" || fn === "store" || fn.startsWith("atomic_"))) return;
    const { positional, keywords } = keywordArgs(file.text, argList);
    const mask = keywords.get("mask") ?? positional[fn === "load" ? 1 : 2];
    if (mask?.name === "VariableName" && params.has(textOf(file.text, mask))) count(asMask, textOf(file.text, mask));
  });
  return new Set([...asMask].filter(([name, n]) => uses.get(name) === n).map(([name]) => name));
}

/**
 * What `check` assumed of each kernel the file doesn't launch (its arguments' types come from a
 * launch), one line each: said on the command line, so a diagnostic isn't read as the kernel's
 * when it is the guess's.
 */
export function pythonCheckAssumptions(file: PythonFile): string[] {
  const lines: string[] = [];
  for (const kernel of file.kernels) {
    if (kernel.called || file.launches.some((l) => l.kernel === kernel.name) || returnsValue(kernel)) continue;
    const types = Object.entries(assumedArgTypes(file, kernel));
    if (types.length === 0) continue;
    const named = (kind: string, dtype: string) => types.filter(([, t]) => t.kind === kind && "dtype" in t && t.dtype === dtype).map(([n]) => n);
    const parts = (
      [
        [named("pointer", "f32"), "a pointer to float32", "pointers to float32"],
        [named("pointer", "i32"), "a pointer to int32 (a lock)", "pointers to int32 (locks)"],
        [named("scalar", "i32"), "an int32", "int32s"],
        [named("scalar", "f32"), "a float32", "float32s"],
      ] as const
    ).flatMap(([names, one, many]) => (names.length === 0 ? [] : [`${list(names)} as ${names.length === 1 ? one : many}`]));
    const guessed = named("pointer", "f32").length > 0;
    lines.push(
      `${kernel.name} isn't launched in ${file.fileName}, so it was checked with ${parts.join(", ")}` +
        `${guessed ? " (a diagnostic only that float32 guess gives is left out)" : ""}. ` +
        `A launch in the file (${kernel.name}[grid](…)) checks it with the launch's types.`,
    );
  }
  return lines;
}

function list(names: readonly string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

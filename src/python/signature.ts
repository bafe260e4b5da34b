// One `@triton.jit` function at the module level: its parameters (which are `tl.constexpr`, their
// defaults), the `@triton.autotune` configs and key and the `@triton.heuristics` above it.

import type { Span } from "../diagnostics/diagnostic";
import type { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import { literalValue, type ConstScope, type PyConst } from "./literals";
import type { PythonImports } from "./module";
import { annotationDtype, isConstexprAnnotation } from "./module";
import { children, dottedName, functionName, moduleFunction, parts, spanOf, stringValue, textOf, walk, type SyntaxNode } from "./tree";
import { assignmentTargets, targetNames } from "./declarations";

export interface PythonParam {
  name: string;
  span: Span;
  /** Annotated `tl.constexpr`. */
  constexpr: boolean;
  /** The Kernel Lab dtype of a Triton dtype annotation (`s: tl.bfloat16` → "bf16"), which Triton makes the argument's type. */
  annotation?: string;
  /** The default's value where it is a literal (`BLOCK: tl.constexpr = 128`). */
  default?: PyConst;
  /** The default as written, where there is one. */
  defaultSpan?: Span;
}

export interface AutotuneConfig {
  /** The config's dict: constexpr name → value. */
  kwargs: Record<string, PyConst>;
  numWarps?: number;
  numStages?: number;
  /** `pre_hook=NAME`: a function of the file that Triton calls with the launch's arguments before the config runs. */
  preHook?: string;
  span: Span;
}

export interface Heuristic {
  /** The constexpr it computes. */
  name: string;
  /** The lambda, as written (`lambda args: args['K'] % args['BLOCK_K'] == 0`). */
  source: string;
  span: Span;
  /** The lambda's parameter and body, for evaluating it while checking (check-types.ts). */
  argName?: string;
  body?: SyntaxNode;
}

export interface PythonKernel {
  /** Its name, or `Cls.name` for one defined in a class body (module.ts readMethodKernels). */
  name: string;
  /** The class whose body defines it (trident's `class ReLU:`); undefined at the module's top level. */
  className?: string;
  /** The whole decorated definition. */
  span: Span;
  nameSpan: Span;
  /** The FunctionDefinition node (parameters and body). */
  node: SyntaxNode;
  params: PythonParam[];
  autotune?: { configs: AutotuneConfig[]; key: string[]; span: Span };
  heuristics: Heuristic[];
  /** Every name the body mentions, and every dotted one (`Cls.helper`), to find the @triton.jit functions it calls. */
  names: Set<string>;
  /** The @triton.jit functions this one calls or passes (filled by readPythonFile). */
  calls: Set<string>;
  /** Called from another @triton.jit function: a device function (helper). */
  called: boolean;
  /** `@triton.jit(do_not_specialize=[…])`: the parameters (named or by position) never specialized as the constant 1. */
  doNotSpecialize?: ReadonlySet<string>;
}

/** `quiet`: decorators named so that aren't warned about (`staticmethod` in a class body). */
export function readJitFunction(text: string, decorated: SyntaxNode, imports: PythonImports, scope: ConstScope, log: DiagnosticLog, quiet: ReadonlySet<string> = new Set()): PythonKernel | undefined {
  const decorators = children(decorated).filter((c) => c.name === "Decorator");
  const fn = children(decorated).find((c) => c.name === "FunctionDefinition");
  if (!fn) return undefined;
  const named = decorators.map((d) => ({ node: d, name: decoratorName(text, d, imports), args: children(d).find((c) => c.name === "ArgList") }));
  if (!named.some((d) => d.name === "jit")) return undefined;
  const kernel = kernelOf(text, fn, decorated, imports, scope, log);
  const jitArgs = named.find((d) => d.name === "jit")?.args;
  const listed = jitArgs && keywordArgs(text, jitArgs).keywords.get("do_not_specialize");
  if (listed && (listed.name === "ArrayExpression" || listed.name === "TupleExpression")) {
    const names = parts(listed).map((n) => literalValue(text, n, scope)).map((n) => (typeof n === "number" ? kernel.params[n]?.name : n));
    kernel.doNotSpecialize = new Set(names.filter((n): n is string => typeof n === "string"));
  }
  for (const d of named) {
    if (d.name === "autotune" || d.name === "heuristics") wrap(text, kernel, d.name, d.args, decorated.parent!, scope, log);
    if (d.name === undefined && !quiet.has(textOf(text, d.node).replace(/^@\s*/, "").trim()) && !isInductorDecorator(text, d.node, imports)) log.warning(Codes.pythonDecorator, spanOf(d.node), `check and the editor don't read this decorator (they read triton.jit, triton.autotune and triton.heuristics): configs or checks it adds count only when the file runs, as Python applies it`);
  }
  return kernel;
}

function kernelOf(text: string, fn: SyntaxNode, whole: SyntaxNode, imports: PythonImports, scope: ConstScope, log: DiagnosticLog): PythonKernel {
  const nameNode = children(fn).find((c) => c.name === "VariableName")!;
  const kernel: PythonKernel = {
    name: textOf(text, nameNode),
    span: spanOf(whole),
    nameSpan: spanOf(nameNode),
    node: fn,
    params: readParams(text, fn, imports, scope, log),
    heuristics: [],
    names: new Set(),
    calls: new Set(),
    called: false,
  };
  const body = children(fn).find((c) => c.name === "Body");
  if (body) walk(body, (n) => {
    if (n.name === "VariableName") kernel.names.add(textOf(text, n));
    // `Cls.helper(…)`, `mod.Cls.helper`: a class-level @triton.jit function is found by its dotted name.
    if (n.name === "MemberExpression") {
      const dotted = dottedName(text, n);
      if (dotted && dotted.length >= 2) kernel.names.add(dotted.join("."));
    }
  });
  return kernel;
}

function wrap(text: string, kernel: PythonKernel, name: "autotune" | "heuristics", args: SyntaxNode | undefined, top: SyntaxNode, scope: ConstScope, log: DiagnosticLog): void {
  if (!args) return;
  if (name === "autotune") kernel.autotune = readAutotune(text, args, top, scope, log);
  else kernel.heuristics.push(...readHeuristics(text, args, log));
}

/**
 * The decorators called as functions at the module's top level, as unsloth writes its backward
 * kernel: `f = triton.jit(f)`, then `f = triton.heuristics({…})(f)` or `triton.autotune(…)(f)`.
 * Adds the kernels they make to `kernels` (a name rebound to another function isn't followed).
 */
export function readWrappedKernels(text: string, top: SyntaxNode, imports: PythonImports, scope: ConstScope, log: DiagnosticLog, kernels: PythonKernel[]): void {
  const functions = new Map<string, SyntaxNode>();
  for (const s of children(top)) {
    if (s.name === "FunctionDefinition") functions.set(functionName(text, s) ?? "", s);
    if (s.name !== "AssignStatement") continue;
    const kids = children(s);
    if (kids.length !== 3 || kids[0].name !== "VariableName" || kids[1].name !== "AssignOp" || kids[2].name !== "CallExpression") continue;
    const [callee, argList] = children(kids[2]);
    const args = argList ? parts(argList) : [];
    const target = textOf(text, kids[0]);
    if (args.length !== 1 || args[0].name !== "VariableName" || textOf(text, args[0]) !== target) continue;
    if (wrapperName(text, dottedName(text, callee), imports) === "jit") {
      const fn = functions.get(target);
      if (fn && !kernels.some((k) => k.name === target)) kernels.push(kernelOf(text, fn, fn, imports, scope, log));
      continue;
    }
    const [inner, innerArgs] = callee.name === "CallExpression" ? children(callee) : [];
    const name = inner ? wrapperName(text, dottedName(text, inner), imports) : undefined;
    const kernel = kernels.find((k) => k.name === target);
    if (kernel && (name === "autotune" || name === "heuristics")) wrap(text, kernel, name, innerArgs, top, scope, log);
  }
}

function decoratorName(text: string, d: SyntaxNode, imports: PythonImports): "jit" | "autotune" | "heuristics" | undefined {
  return wrapperName(text, children(d).filter((c) => c.name === "VariableName").map((c) => textOf(text, c)), imports);
}

/** torch._inductor's heuristics modules: their decorators choose a kernel's configs when the file runs (lib/torch/_inductor/runtime/triton_heuristics.py). */
const INDUCTOR_HEURISTICS = new Set(["torch._inductor.runtime.triton_heuristics", "torch._inductor.triton_heuristics"]);

/**
 * `@triton_heuristics.pointwise(…)`, `@persistent_reduction(…)` imported from torch._inductor: Kernel Lab's
 * port of inductor's decorators, which pick the configs from size_hints as inductor does when the file
 * runs; `check` gives the constexprs they set stand-ins, as for autotune configs it can't read.
 */
function isInductorDecorator(text: string, d: SyntaxNode, imports: PythonImports): boolean {
  const names = children(d).filter((c) => c.name === "VariableName").map((c) => textOf(text, c));
  if (names.length === 1) return INDUCTOR_HEURISTICS.has(imports.imported.get(names[0])?.module ?? "");
  return names.length === 2 && INDUCTOR_HEURISTICS.has(imports.modules.get(names[0]) ?? "");
}

/** `triton.jit` / `jit` imported from triton (and autotune, heuristics), by the dotted name written. */
function wrapperName(text: string, names: string[] | undefined, imports: PythonImports): "jit" | "autotune" | "heuristics" | undefined {
  if (!names) return undefined;
  // `@tl.constexpr` on a function (FlagGems' `get_scan_accum_type(inp_dtype)`): Triton calls it while
  // compiling; a device function decided on its constexpr arguments is the same thing here.
  if (names.length === 2 && names[1] === "constexpr" && (imports.tl.has(names[0]) || (names[0] === "tl" && imports.tl.size === 0))) return "jit";
  const last = names[names.length - 1];
  if (last !== "jit" && last !== "autotune" && last !== "heuristics") return undefined;
  if (names.length === 1) return imports.functions.get(last) === last ? last : undefined;
  return names.length === 2 && (imports.triton.has(names[0]) || names[0] === "triton") ? last : undefined;
}

function readParams(text: string, fn: SyntaxNode, imports: PythonImports, scope: ConstScope, log: DiagnosticLog): PythonParam[] {
  const list = children(fn).find((c) => c.name === "ParamList");
  const params: PythonParam[] = [];
  if (!list) return params;
  let current: PythonParam | undefined;
  let defaultNext = false;
  for (const c of children(list)) {
    if (c.name === "VariableName") {
      if (defaultNext) continue;
      current = { name: textOf(text, c), span: spanOf(c), constexpr: false };
      params.push(current);
    } else if (c.name === "TypeDef" && current) {
      current.constexpr = isConstexprAnnotation(text, c, imports);
      const dtype = annotationDtype(text, c, imports);
      if (dtype) current.annotation = dtype;
      current.span = { start: current.span.start, end: c.to };
    } else if (c.name === "AssignOp") {
      defaultNext = true;
    } else if (c.name === ",") {
      defaultNext = false;
    } else if (c.name === "*" || c.name === "**" || c.name === "/") {
      log.error(Codes.pythonUnsupported, spanOf(c), `'${c.name}' parameters (variadic or keyword-only markers) aren't part of a kernel's signature in Kernel Lab; list each parameter by name`);
    } else if (defaultNext && current && c.name !== ")" && c.name !== "(") {
      const v = literalValue(text, c, scope);
      if (v !== undefined) current.default = v;
      current.defaultSpan = spanOf(c);
    }
  }
  return params;
}

function keywordArgs(text: string, argList: SyntaxNode): { positional: SyntaxNode[]; keywords: Map<string, SyntaxNode> } {
  const positional: SyntaxNode[] = [];
  const keywords = new Map<string, SyntaxNode>();
  const kids = children(argList).filter((c) => c.name !== "(" && c.name !== ")");
  for (let i = 0; i < kids.length; i++) {
    const c = kids[i];
    if (c.name === ",") continue;
    if (c.name === "VariableName" && kids[i + 1]?.name === "AssignOp") {
      keywords.set(textOf(text, c), kids[i + 2]);
      i += 2;
    } else positional.push(c);
  }
  return { positional, keywords };
}

export { keywordArgs };

function readAutotune(text: string, args: SyntaxNode, top: SyntaxNode, scope: ConstScope, log: DiagnosticLog): PythonKernel["autotune"] {
  const { positional, keywords } = keywordArgs(text, args);
  const configsNode = keywords.get("configs") ?? positional[0];
  const keyNode = keywords.get("key") ?? positional[1];
  const configs: AutotuneConfig[] = [];
  if (configsNode) for (const call of configCalls(text, configsNode, top, new Set())) {
    const config = readConfig(text, call, scope);
    if (config) configs.push(config);
  }
  if (configsNode && configs.length === 0) {
    log.warning(Codes.pythonDecorator, spanOf(configsNode), "Kernel Lab could not read these autotune configs without running the file; `check` uses the launch's keywords or placeholders for the constexprs they set");
  }
  const key = keyNode && keyNode.name === "ArrayExpression" ? parts(keyNode).map((k) => stringValue(text, k)).filter((k): k is string => k !== undefined) : [];
  return { configs, key, span: spanOf(args) };
}

/** The `triton.Config(…)` calls a configs expression builds: a list, a module-level name, or a module function's result. */
function configCalls(text: string, node: SyntaxNode, top: SyntaxNode, seen: Set<string>): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const visit = (n: SyntaxNode) => {
    if (n.name === "CallExpression") {
      const callee = children(n)[0];
      const name = dottedName(text, callee);
      if (name && name[name.length - 1] === "Config") {
        found.push(n);
        return;
      }
      if (name && name.length === 1) found.push(...fromModule(name[0]));
    }
    if (n.name === "VariableName") found.push(...fromModule(textOf(text, n)));
    for (const c of children(n)) visit(c);
  };
  const fromModule = (name: string): SyntaxNode[] => {
    if (seen.has(name)) return [];
    seen.add(name);
    for (const s of children(top)) {
      if (s.name === "FunctionDefinition" && functionName(text, s) === name) {
        return configCalls(text, children(s).find((c) => c.name === "Body")!, top, seen);
      }
      if (s.name !== "AssignStatement") continue;
      const targets = targetNames(text, assignmentTargets(s));
      const at = targets.findIndex((t) => textOf(text, t) === name);
      const value = children(s)[children(s).length - 1];
      if (at >= 0 && targets.length === 1) return configCalls(text, value, top, seen);
      // One name of a tuple target: that element of the value (flash-attention's `(preprocess_autotune_configs,
      // causal_autotune_configs, noncausal_autotune_configs) = get_bwd_configs(AUTOTUNE)`; `a, b = [ … ], [ … ]`).
      const kids = children(s);
      const values = kids.slice(kids.findIndex((k) => k.name === "AssignOp") + 1).filter((k) => k.name !== ",");
      const elements = values.length > 1 ? [values.map((node) => ({ node }))] : tupleElements(text, value, top);
      if (at >= 0) return elements.flatMap((e) => elementConfigs(e[at]));
    }
    return [];
  };
  // An element of a returned tuple naming a local of the function: what that local is assigned, or has appended.
  const elementConfigs = (e: { node: SyntaxNode; fn?: SyntaxNode } | undefined): SyntaxNode[] => {
    if (!e) return [];
    if (e.node.name !== "VariableName" || !e.fn) return configCalls(text, e.node, top, seen);
    const local = textOf(text, e.node);
    const found: SyntaxNode[] = [];
    walk(e.fn, (n) => {
      const kids = children(n);
      if (n.name === "AssignStatement" && kids[0]?.name === "VariableName" && textOf(text, kids[0]) === local && kids[1]?.name === "AssignOp") found.push(...configCalls(text, kids[kids.length - 1], top, seen));
      if (n.name === "CallExpression" && textOf(text, kids[0]) === `${local}.append`) found.push(...configCalls(text, kids[1], top, seen));
      return undefined;
    });
    return found;
  };
  visit(node);
  return found;
}

/** The elements of a tuple value: a tuple written out, or each `return a, b` of the module function it calls (with that function). */
function tupleElements(text: string, value: SyntaxNode, top: SyntaxNode): { node: SyntaxNode; fn?: SyntaxNode }[][] {
  if (value.name === "TupleExpression") return [parts(value).map((node) => ({ node }))];
  const callee = value.name === "CallExpression" ? dottedName(text, children(value)[0]) : undefined;
  const fn = callee?.length === 1 ? moduleFunction(text, top, callee[0]) : undefined;
  if (!fn) return [];
  const returned: { node: SyntaxNode; fn?: SyntaxNode }[][] = [];
  walk(fn, (n) => {
    if (n.name === "FunctionDefinition" && n.from !== fn.from) return false;
    if (n.name !== "ReturnStatement") return undefined;
    const values = parts(n).filter((c) => c.name !== "return");
    const items = values.length === 1 && values[0].name === "TupleExpression" ? parts(values[0]) : values;
    returned.push(items.map((node) => ({ node, fn })));
    return false;
  });
  return returned;
}

function readConfig(text: string, call: SyntaxNode, scope: ConstScope): AutotuneConfig | undefined {
  const argList = children(call).find((c) => c.name === "ArgList");
  if (!argList) return undefined;
  const { positional, keywords } = keywordArgs(text, argList);
  const dict = keywords.get("kwargs") ?? positional[0];
  const kwargs: Record<string, PyConst> = {};
  if (dict?.name === "DictionaryExpression") {
    const kids = parts(dict);
    for (let i = 0; i + 1 < kids.length; i += 2) {
      const key = stringValue(text, kids[i]);
      const value = literalValue(text, kids[i + 1], scope);
      if (key !== undefined && value !== undefined) kwargs[key] = value;
    }
  }
  const number = (name: string) => {
    const n = keywords.get(name);
    const v = n ? literalValue(text, n, scope) : undefined;
    return typeof v === "number" ? v : undefined;
  };
  const numWarps = number("num_warps");
  const numStages = number("num_stages");
  const hook = keywords.get("pre_hook");
  const preHook = hook?.name === "VariableName" ? textOf(text, hook) : undefined;
  return { kwargs, ...(numWarps !== undefined ? { numWarps } : {}), ...(numStages !== undefined ? { numStages } : {}), ...(preHook ? { preHook } : {}), span: spanOf(call) };
}

function readHeuristics(text: string, args: SyntaxNode, log: DiagnosticLog): Heuristic[] {
  const { positional, keywords } = keywordArgs(text, args);
  const dict = keywords.get("values") ?? positional[0];
  if (!dict || dict.name !== "DictionaryExpression") {
    if (dict) log.warning(Codes.pythonDecorator, spanOf(dict), "Kernel Lab reads @triton.heuristics given a dict literal of lambdas; `check` uses placeholders for these constexprs");
    return [];
  }
  const out: Heuristic[] = [];
  const kids = parts(dict);
  for (let i = 0; i + 1 < kids.length; i += 2) {
    const name = stringValue(text, kids[i]);
    const fn = kids[i + 1];
    if (name === undefined) continue;
    const h: Heuristic = { name, source: textOf(text, fn), span: spanOf(fn) };
    if (fn.name === "LambdaExpression") {
      const params = children(fn).find((c) => c.name === "ParamList");
      const arg = params ? children(params).find((c) => c.name === "VariableName") : undefined;
      if (arg) h.argName = textOf(text, arg);
      const body = children(fn)[children(fn).length - 1];
      if (body && body.name !== ":") h.body = body;
    }
    out.push(h);
  }
  return out;
}

// Reads a Python file's module level: the `@triton.jit` functions (with `@triton.autotune` and
// `@triton.heuristics` above them), the names it imports `triton.language` and libdevice under,
// its `tl.constexpr` globals, and the launches `kernel[grid](…)` written in it.

import type { Diagnostic, Span } from "../diagnostics/diagnostic";
import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import { mathFunction } from "../semantics/math-names";
import { DTYPES, TRITON_DTYPES } from "./names";
import type { Tree } from "@lezer/common";
import { LineMap } from "../diagnostics/position";
import { isDtypeConst, literalValue, type ConstScope, type PyConst } from "./literals";
import { bodyStatements, children, dottedName, firstError, parsePython, parts, spanOf, stringValue, textOf, type SyntaxNode } from "./tree";
import { readLaunches, type LaunchSite } from "./launches";
import { readJitFunction, readWrappedKernels, type PythonKernel } from "./signature";

export type { LaunchSite, PythonKernel };

/** The names a file binds to Triton's modules and functions. */
export interface PythonImports {
  /** Names of `triton` (`import triton`). */
  triton: Set<string>;
  /** Names of `triton.language` (`import triton.language as tl`). */
  tl: Set<string>;
  /** Names of a libdevice or `tl.math` module (`from triton.language.extra import libdevice`). */
  math: Set<string>;
  /** Functions imported by name: local name → Triton's name (`from …libdevice import tanh`, `from triton import jit`). */
  functions: Map<string, string>;
  /** Names imported by name from a module that isn't Triton's: local name → the module (`from flag_gems.utils.limits import get_dtype_min`). */
  others: Map<string, string>;
  /**
   * Names that may stand for another module, local name → its dotted name: `import pkg.mod as m`
   * (m → pkg.mod), `import mod` (mod), `from pkg import mod as m` (m → pkg.mod, or a function of pkg:
   * the modules a launch sends say which).
   */
  modules: Map<string, string>;
  /** Functions imported by name from another module: local name → the module and the name there (`from mod import helper as h`). */
  imported: Map<string, { module: string; name: string }>;
  /** The dotted names `import pkg.mod` imports without `as` (bound as `pkg`): read too, since a namespace package (no __init__.py) doesn't import its modules. */
  dotted: Set<string>;
  /** The modules `from mod import *` takes every public name of (trident's `language/__init__.py`: `from .sum import *`), as written (relative names too). */
  star: string[];
}

export interface ModuleConstant {
  value: PyConst;
  span: Span;
  /** Declared `tl.constexpr` (`N = tl.constexpr(4)`, `N: tl.constexpr = 4`): a kernel may read it. */
  constexpr: boolean;
  /** The value as written (`2.0`, `1e-5`). */
  text: string;
}

export interface PythonFile {
  fileName: string;
  text: string;
  tree: Tree;
  kernels: PythonKernel[];
  imports: PythonImports;
  /** Module-level names bound to a literal value. */
  constants: Map<string, ModuleConstant>;
  /** Module-level tl.constexprs bound to what only running tells (`IS_CUDA = tl.constexpr(is_cuda())`), and dtypes bound in a module-level `if` (`REDUCE_TYPE = tl.float32` or `tl.float16`): a run sends their values (addMathNames). */
  runTimeConstexprs?: Set<string>;
  launches: LaunchSite[];
  /**
   * The modules beside the script that this file imports, by dotted name, as a run sends them
   * (lib/_kernel_lab_imports.py): a kernel's call to one of their @triton.jit functions compiles
   * from them. Empty without a run: such a call is KL1150.
   */
  modules: Map<string, PythonFile>;
  /**
   * Its dotted module name where it was imported as one (`pkg.ops.kernels`), against which its
   * relative imports (`from ..utils import helper`) resolve; undefined for the script itself, whose
   * relative imports are an ImportError in Python.
   */
  moduleName?: string;
  /** Syntax errors and mistakes in decorators; a kernel's own are found when it is compiled. */
  diagnostics: Diagnostic[];
  /**
   * Module-level names bound to another of its @triton.jit functions (fla's softplus.py: `softplus =
   * softplus_nv` or `softplus_triton`, in an `if` on the vendor): name → that function's name. From
   * the run where one says what Python bound (readPythonFile's `boundJit`), else the last such
   * assignment in the text.
   */
  jitAliases: Map<string, string>;
}

/** Whether a `.py` text is a Kernel Lab file (docs/LANGUAGE.md §2.2): it holds a `@triton.jit` function. */
export function isTritonFile(text: string): boolean {
  return /@\s*(?:triton\.)?jit\b/.test(text);
}

/**
 * `boundJit`: where a run says which of the module's names Python bound to a @triton.jit function
 * and the line that function's definition starts at (its first decorator's, as Python's
 * co_firstlineno), a definition inside a module-level `if` / `try` is read only where it is the one
 * bound (fla's ops/utils/op.py defines `exp` in both branches of an `if` on an environment variable,
 * and `gather` in one branch, binding it to `tl.gather` in the other). Without one (check, the
 * editor), the last definition of a name is read, as for definitions at the top level.
 */
export function readPythonFile(fileName: string, text: string, moduleName?: string, boundJit?: Readonly<Record<string, number>>): PythonFile {
  const tree = parsePython(text);
  const log = new DiagnosticLog();
  const error = firstError(tree, text);
  if (error) {
    const at = Math.min(error.from, Math.max(0, text.length - 1));
    log.error(Codes.pythonSyntax, { start: at, end: Math.max(error.to, at + 1) }, "this is not valid Python here (a syntax error): check the brackets, colons and indentation");
  }
  const imports = readImports(text, tree.topNode);
  const runTimeConstexprs = new Set<string>();
  const constants = readConstants(text, tree.topNode, imports, runTimeConstexprs);
  const scope: ConstScope = { lookup: (name) => constants.get(name)?.value };
  const kernels: PythonKernel[] = [];
  const lines = new LineMap(text);
  const visit = (node: SyntaxNode, inBranch: boolean) => {
    for (const statement of children(node)) {
      if (statement.name === "ClassDefinition") {
        for (const kernel of readMethodKernels(text, statement, imports, scope, log)) {
          const clash = kernels.findIndex((k) => k.name === kernel.name);
          if (clash >= 0) kernels.splice(clash, 1);
          kernels.push(kernel);
        }
        continue;
      }
      if (statement.name === "IfStatement" || statement.name === "TryStatement") {
        for (const b of children(statement)) if (b.name === "Body") visit(b, true);
        continue;
      }
      if (statement.name !== "DecoratedStatement") continue;
      if (inBranch && boundJit && !boundByRun(text, lines, statement, boundJit)) continue;
      const kernel = readJitFunction(text, statement, imports, scope, log);
      if (!kernel) continue;
      // Python lets a later definition replace an earlier one of the same name (notebooks do).
      const clash = kernels.findIndex((k) => k.name === kernel.name);
      if (clash >= 0) kernels.splice(clash, 1);
      kernels.push(kernel);
    }
  };
  visit(tree.topNode, false);
  readWrappedKernels(text, tree.topNode, imports, scope, log, kernels);
  const jitAliases = readJitAliases(text, lines, tree.topNode, kernels, boundJit);
  for (const k of kernels) for (const other of kernels) {
    if (other === k || !k.names.has(other.name)) continue;
    k.calls.add(other.name);
    other.called = true;
  }
  const launches = readLaunches(text, tree.topNode, new Set(kernels.map((k) => k.name)), scope);
  return { fileName, text, tree, kernels, imports, constants, ...(runTimeConstexprs.size > 0 ? { runTimeConstexprs } : {}), launches, modules: new Map(), ...(moduleName !== undefined ? { moduleName } : {}), diagnostics: log.diagnostics, jitAliases };
}

/** PythonFile.jitAliases: `name = other_jit_function` at module level (in `if` / `try` bodies too). */
function readJitAliases(text: string, lines: LineMap, top: SyntaxNode, kernels: readonly PythonKernel[], boundJit?: Readonly<Record<string, number>>): Map<string, string> {
  const aliases = new Map<string, string>();
  const names = new Set(kernels.map((k) => k.name));
  if (boundJit) {
    // The run's word: a name bound to a function defined under another name, found by its line.
    for (const [name, line] of Object.entries(boundJit)) {
      if (names.has(name)) continue;
      const target = kernels.find((k) => lines.at(k.span.start).line === line);
      if (target) aliases.set(name, target.name);
    }
    return aliases;
  }
  const visit = (node: SyntaxNode) => {
    for (const s of children(node)) {
      if (s.name === "IfStatement" || s.name === "TryStatement") for (const b of children(s)) if (b.name === "Body") visit(b);
      if (s.name !== "AssignStatement") continue;
      const kids = children(s);
      if (kids.length !== 3 || kids[0].name !== "VariableName" || kids[1].name !== "AssignOp" || kids[2].name !== "VariableName") continue;
      const name = textOf(text, kids[0]);
      // `group_scale = next_power_of_2_triton`, itself bound in an `if` above (gemlite): the function it names by then.
      const target = aliases.get(textOf(text, kids[2])) ?? textOf(text, kids[2]);
      if (names.has(target) && !names.has(name)) aliases.set(name, target);
    }
  };
  visit(top);
  return aliases;
}

/**
 * The `@triton.jit` functions of a class body (trident 1.1.0 puts every kernel in one: `class ReLU:`,
 * `@staticmethod @util.autotune(…) @triton.jit def forward(…)`, launched as `ReLU.forward[grid](…)` and
 * called as `language.math.ReLU.forward(x)`), named by their qualified name (`ReLU.forward`), as a launch
 * names them (lib/triton/_jit.py) and a call in a kernel writes them. `@staticmethod` (or `@classmethod`,
 * whose class argument a launch can't pass, so none is written) is Python's business: not warned about.
 */
function readMethodKernels(text: string, cls: SyntaxNode, imports: PythonImports, scope: ConstScope, log: DiagnosticLog): PythonKernel[] {
  const classNameNode = children(cls).find((c) => c.name === "VariableName");
  const body = children(cls).find((c) => c.name === "Body");
  if (!classNameNode || !body) return [];
  const className = textOf(text, classNameNode);
  const found: PythonKernel[] = [];
  for (const statement of children(body)) {
    if (statement.name !== "DecoratedStatement") continue;
    const kernel = readJitFunction(text, statement, imports, scope, log, new Set(["staticmethod"]));
    if (!kernel) continue;
    kernel.name = `${className}.${kernel.name}`;
    kernel.className = className;
    const clash = found.findIndex((k) => k.name === kernel.name);
    if (clash >= 0) found.splice(clash, 1);
    found.push(kernel);
  }
  return found;
}

/** Whether the run says Python bound this decorated definition's name to it (readPythonFile's `boundJit`). */
function boundByRun(text: string, lines: LineMap, decorated: SyntaxNode, boundJit: Readonly<Record<string, number>>): boolean {
  const fn = children(decorated).find((c) => c.name === "FunctionDefinition");
  const name = fn && children(fn).find((c) => c.name === "VariableName");
  if (!name) return false;
  return boundJit[textOf(text, name)] === lines.at(decorated.from).line;
}

function readImports(text: string, top: SyntaxNode): PythonImports {
  const imports: PythonImports = { triton: new Set(), tl: new Set(), math: new Set(), functions: new Map(), others: new Map(), modules: new Map(), imported: new Map(), dotted: new Set(), star: [] };
  const visit = (node: SyntaxNode) => {
    for (const s of children(node)) {
      if (s.name === "ImportStatement") readImport(text, s, imports);
      // Imports inside `if`/`try` at module level (tutorials guard optional ones) count too.
      else if (s.name === "IfStatement" || s.name === "TryStatement") for (const b of children(s)) if (b.name === "Body") visit(b);
    }
  };
  visit(top);
  readFunctionAliases(text, top, imports);
  return imports;
}

/**
 * Module-level names bound to a tl / libdevice function, as unsloth's utils.py binds them
 * (`triton_tanh = libdevice.tanh`, `triton_cast = tl.cast`, in an `if` on Triton's version): a
 * kernel calling `triton_tanh(x)` calls tl.tanh. Only a name bound once is followed.
 */
export function readFunctionAliases(text: string, top: SyntaxNode, imports: PythonImports): void {
  const bound = new Map<string, string | undefined>();
  const visit = (node: SyntaxNode) => {
    for (const s of children(node)) {
      if (s.name === "IfStatement" || s.name === "TryStatement") for (const b of children(s)) if (b.name === "Body") visit(b);
      if (s.name !== "AssignStatement") continue;
      const kids = children(s);
      if (kids.length !== 3 || kids[0].name !== "VariableName" || kids[1].name !== "AssignOp") continue;
      const name = textOf(text, kids[0]);
      // `libdevice = tl.extra.libdevice`, `math = tl.math` (torch._inductor's triton_helpers.py): a name of a
      // math module, which a file importing it by name (`from …triton_helpers import libdevice`) calls through.
      if (isMathModule(dottedName(text, kids[2]), imports) || MATH_MODULES.has(importedModule(text, kids[2], top) ?? "")) {
        imports.math.add(name);
        continue;
      }
      // `get_int_dtype = triton.constexpr_function(get_int_dtype)` (TransformerEngine's permutation.py,
      // under a Triton version check): Triton 3.5's mark for a host function a kernel calls while
      // compiling; the name stays the function it wraps.
      // `make_tensor_descriptor_fn = None` in the other branch of `if hasattr(tl, "make_tensor_descriptor"):` (FlagGems'
      // group_gemm.py): no function to call, so the branch that binds one is the alias.
      if (kids[2].name === "None") continue;
      const wrapped = constexprFunctionArgument(text, kids[2], imports);
      const fn = wrapped !== undefined ? (bound.has(wrapped) ? bound.get(wrapped) : imports.functions.get(wrapped)) : tlFunction(dottedName(text, kids[2]), imports);
      // Bound twice (each branch of a version check) to the same function is still one alias.
      bound.set(name, bound.has(name) && bound.get(name) !== fn ? undefined : fn);
    }
  };
  visit(top);
  for (const [name, fn] of bound) if (fn && !imports.functions.has(name)) imports.functions.set(name, fn);
}

/**
 * `importlib.import_module("triton.language.extra.libdevice")`, or of a module-level string constant (FlagGems'
 * tl_extra_shim picks its backend's math module so): the module's name; undefined for any other expression.
 */
function importedModule(text: string, value: SyntaxNode, top: SyntaxNode): string | undefined {
  if (value.name !== "CallExpression") return undefined;
  const [callee, args] = children(value);
  const dotted = dottedName(text, callee)?.join(".");
  if (dotted !== "importlib.import_module" && dotted !== "import_module") return undefined;
  const given = children(args).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  if (given.length !== 1) return undefined;
  if (given[0].name === "String") return stringValue(text, given[0]);
  if (given[0].name !== "VariableName") return undefined;
  const name = textOf(text, given[0]);
  const bound = children(top).filter((s) => s.name === "AssignStatement" && children(s)[0]?.name === "VariableName" && textOf(text, children(s)[0]) === name);
  const literal = bound.length === 1 ? children(bound[0])[2] : undefined;
  return literal?.name === "String" ? stringValue(text, literal) : undefined;
}

/** `triton.constexpr_function(name)`: the name it wraps; undefined for any other expression. */
function constexprFunctionArgument(text: string, value: SyntaxNode, imports: PythonImports): string | undefined {
  if (value.name !== "CallExpression") return undefined;
  const [callee, args] = children(value);
  const dotted = dottedName(text, callee);
  if (!dotted || dotted.length !== 2 || dotted[1] !== "constexpr_function" || !(dotted[0] === "triton" || imports.triton.has(dotted[0]))) return undefined;
  const given = children(args).filter((c) => c.name !== "(" && c.name !== ")" && c.name !== ",");
  return given.length === 1 && given[0].name === "VariableName" ? textOf(text, given[0]) : undefined;
}

/** Triton's modules where tl's functions are defined, whose own functions libraries import too (`from triton.language import core`). */
const TL_DEFINING_MODULES = new Set(["core", "standard"]);

/** `libdevice.tanh`, `tl.math.tanh`, `tl.cast`, `triton.language.extra.libdevice.tanh`, `core.get_int_dtype` → its function's name. */
function tlFunction(dotted: string[] | undefined, imports: PythonImports): string | undefined {
  if (!dotted || dotted.length < 2) return undefined;
  const head = dotted.slice(0, -1);
  const fn = dotted[dotted.length - 1];
  const headText = head.join(".");
  if (imports.math.has(headText)) return libdeviceFunction(fn);
  // `core.get_int_dtype` with `from triton.language import core`.
  if (head.length === 1 && TL_DEFINING_MODULES.has(imports.functions.get(head[0]) ?? "")) return fn;
  const full = tritonModule(head, imports);
  if (full === undefined) return undefined;
  if (full === "triton.language" || full === "triton.language.core" || full === "triton.language.standard") return fn;
  return MATH_MODULES.has(full) || full === "triton.language.extra.libdevice" ? libdeviceFunction(fn) : undefined;
}

/** `tl.math`, `tl.extra.libdevice`, `triton.language.extra.cuda.libdevice`, or a name already bound to one. */
function isMathModule(dotted: string[] | undefined, imports: PythonImports): boolean {
  if (!dotted) return false;
  if (dotted.length === 1) return imports.math.has(dotted[0]);
  const full = tritonModule(dotted, imports);
  return full !== undefined && MATH_MODULES.has(full);
}

/** A dotted module name written from the file's names for triton and triton.language (`tl.extra.libdevice` → `triton.language.extra.libdevice`); undefined for another head. */
function tritonModule(dotted: readonly string[], imports: PythonImports): string | undefined {
  const head = imports.tl.has(dotted[0]) ? ["triton", "language"] : dotted[0] === "triton" || imports.triton.has(dotted[0]) ? ["triton"] : undefined;
  return head && [...head, ...dotted.slice(1)].join(".");
}

/**
 * Names Python bound at run time to a libdevice / tl.math module or one of its functions, or to a tl
 * function (FlagGems' `tl_extra_shim`, chosen by its backend and imported from its utils, and
 * `rsqrt = tl_extra_shim.rsqrt`; `uint_to_uniform_float`, imported from a module that bound it to tl's):
 * what a launch says of them, added where the file's own text didn't bind the name to something else.
 */
export function addMathNames(
  file: Pick<PythonFile, "imports" | "constants" | "text">,
  names: Readonly<Record<string, { kind: "module" } | { kind: "function" | "tl" | "dtype"; name: string } | { kind: "constexpr"; value: number | boolean | string | null }>>,
): void {
  const { imports } = file;
  for (const [name, bound] of Object.entries(names)) {
    if (bound.kind === "constexpr") {
      // A module-level tl.constexpr Python computed (tritonbench's profile.py: `IS_CUDA = tl.constexpr(is_cuda())`):
      // a kernel reads its value, as Triton does; a literal the text gives stays as read.
      if (!file.constants.has(name)) {
        const at = new RegExp(`\\b${name}\\s*=`).exec(file.text)?.index ?? 0;
        const text = bound.value === null ? "None" : typeof bound.value === "boolean" ? (bound.value ? "True" : "False") : typeof bound.value === "string" ? JSON.stringify(bound.value) : String(bound.value);
        file.constants.set(name, { value: bound.value, span: { start: at, end: at + name.length }, constexpr: true, text });
      }
      continue;
    }
    if (bound.kind === "dtype") {
      // A module-level name Python bound to a tl dtype where the text can't tell which (sglang's
      // double_sparsity_attention.py: `REDUCE_TRITON_TYPE = tl.float16` in one branch of a module-level
      // `if`): Triton lets a kernel read a dtype global, as if a tl.constexpr.
      if (!file.constants.has(name)) {
        const at = new RegExp(`\\b${name}\\s*=`).exec(file.text)?.index ?? 0;
        file.constants.set(name, { value: { dtype: bound.name }, span: { start: at, end: at + name.length }, constexpr: true, text: `tl.${TRITON_DTYPES[bound.name] ?? bound.name}` });
      }
      continue;
    }
    if (bound.kind === "module") imports.math.add(name);
    else if (!imports.functions.has(name)) imports.functions.set(name, bound.kind === "tl" ? bound.name : libdeviceFunction(bound.name));
  }
}

/**
 * A libdevice / tl.math name as the tl.* function that computes it (`fast_expf` → `exp`); one with none stays in its
 * namespace, `libdevice.round` (LIBDEVICE_ONLY), so a call of a name bound to it is lowered as libdevice's
 * (lmdeploy's w8a8_triton_kernels.py: `tl_round = tl.extra.cuda.libdevice.round`, then `tl_round(y_q)`).
 */
function libdeviceFunction(name: string): string {
  return mathFunction(name) ?? `${LIBDEVICE_ONLY}${name}`;
}

/** The prefix of a bound name's function (PythonImports.functions) that is libdevice's own, with no tl.* function. */
export const LIBDEVICE_ONLY = "libdevice.";

// Intel's (XPU) libdevice has the same names: unsloth's utils.py binds `triton_tanh` to it on XPU.
const MATH_MODULES = new Set(["triton.language.math", "triton.language.libdevice", "triton.language.extra.libdevice", "triton.language.extra.cuda.libdevice", "triton.language.extra.hip.libdevice", "triton.language.extra.intel.libdevice"]);

function readImport(text: string, s: SyntaxNode, imports: PythonImports): void {
  const kids = children(s);
  // Group the dotted names: `import a.b as c, d` / `from a.b import c as d, e`.
  const items: { name: string; alias?: string }[] = [];
  let from: string | undefined;
  let current: string[] = [];
  let alias = false;
  let pendingAlias: string | undefined;
  // `from ..ops import x`: the dots before the first name (a relative import, resolved by absoluteModule).
  let dots = "";
  const flush = () => {
    if (current.length > 0) items.push({ name: current.join("."), ...(pendingAlias ? { alias: pendingAlias } : {}) });
    current = [];
    pendingAlias = undefined;
  };
  for (const k of kids) {
    if (k.name === "from") continue;
    if (k.name === "." && kids[0].name === "from" && from === undefined && current.length === 0) {
      dots += ".";
      continue;
    }
    if (k.name === "import") {
      if (kids[0].name === "from") {
        from = dots + current.join(".");
        current = [];
      }
      continue;
    }
    if (k.name === "VariableName") {
      if (alias) {
        pendingAlias = textOf(text, k);
        alias = false;
        flush();
      } else {
        current.push(textOf(text, k));
      }
    } else if (k.name === "as") alias = true;
    else if (k.name === ",") flush();
  }
  flush();
  if (from !== undefined && kids.some((k) => k.name === "*")) imports.star.push(from);
  for (const item of items) {
    const full = from !== undefined ? (from.endsWith(".") ? `${from}${item.name}` : `${from}.${item.name}`) : item.name;
    const local = item.alias ?? (from !== undefined ? item.name : item.name.split(".")[0]);
    if (from === undefined && !item.alias) {
      const head = item.name.split(".")[0];
      if (head === "triton") imports.triton.add("triton");
      else {
        imports.modules.set(head, head);
        if (item.name !== head) imports.dotted.add(item.name);
      }
      continue;
    }
    if (!isTritonModule(full) && (from === undefined || !isTritonModule(from))) imports.modules.set(local, full);
    if (from !== undefined && !isTritonModule(from)) imports.imported.set(local, { module: from, name: item.name });
    if (full === "triton") imports.triton.add(local);
    else if (full === "triton.language") imports.tl.add(local);
    // `import triton.language.core as core` (FlagGems' topk.py: core.reshape, core.where, core.int8, core.constexpr) and
    // `from triton.language import core` (aiter's topk.py: core.static_range): the modules tl's names are defined in, read as tl.
    else if (full === "triton.language.core" || full === "triton.language.standard") imports.tl.add(local);
    else if (MATH_MODULES.has(full)) imports.math.add(local);
    else if (from !== undefined && MATH_MODULES.has(from)) imports.functions.set(local, libdeviceFunction(item.name));
    else if (from !== undefined && (from === "triton" || from === "triton.language")) imports.functions.set(local, item.name);
    // `from triton.language.standard import _log2`: where tl's functions are defined (calls.ts reads the private ones it evaluates).
    else if (from !== undefined && (from === "triton.language.core" || from === "triton.language.standard")) imports.functions.set(local, item.name);
    else if (from !== undefined && !isTritonModule(from)) imports.others.set(local, from);
  }
}

/** `triton` or one of its modules — not a package whose name only starts so (tritonbench's `from tritonbench.kernels.profile import time`). */
function isTritonModule(name: string): boolean {
  return name === "triton" || name.startsWith("triton.");
}

function readConstants(text: string, top: SyntaxNode, imports: PythonImports, runTime?: Set<string>): Map<string, ModuleConstant> {
  const constants = new Map<string, ModuleConstant>();
  const scope: ConstScope = { lookup: (name) => constants.get(name)?.value, stdlibMath: (name) => imports.modules.get(name) === "math" && !constants.has(name) };
  for (const s of children(top)) {
    if (s.name !== "AssignStatement") continue;
    const kids = children(s);
    if (kids.filter((k) => k.name === "AssignOp").length !== 1 || kids[0].name !== "VariableName" || (kids[1].name !== "AssignOp" && kids[1].name !== "TypeDef")) continue;
    const value = kids[kids.length - 1];
    const typeDef = kids.find((k) => k.name === "TypeDef");
    const annotatedConstexpr = typeDef !== undefined && isConstexprAnnotation(text, typeDef, imports);
    const wrapped = value.name === "CallExpression" && isConstexprName(text, children(value)[0], imports);
    const v = literalValue(text, value, scope);
    if (v === undefined) {
      if (annotatedConstexpr || wrapped) runTime?.add(textOf(text, kids[0]));
      continue;
    }
    const written = wrapped ? parts(children(value).find((c) => c.name === "ArgList")!)[0] ?? value : value;
    constants.set(textOf(text, kids[0]), { value: v, span: spanOf(s), constexpr: annotatedConstexpr || wrapped, text: textOf(text, written) });
  }
  // A dtype bound only inside module-level `if` / `try` bodies (sglang: `REDUCE_TYPE = tl.float32` or `tl.float16` on a
  // server setting), which a kernel reads as Triton lets it read a dtype global: which one, only running tells (a run
  // sends it, addMathNames), so for `check` it is one of the run-time names.
  const topLevel = new Set(constants.keys());
  const visit = (node: SyntaxNode, inBranch: boolean) => {
    for (const s of children(node)) {
      if (s.name === "IfStatement" || s.name === "TryStatement") for (const b of children(s)) if (b.name === "Body") visit(b, true);
      const kids = children(s);
      if (!inBranch || s.name !== "AssignStatement" || kids.length !== 3 || kids[0].name !== "VariableName" || kids[1].name !== "AssignOp") continue;
      const name = textOf(text, kids[0]);
      if (isDtypeConst(literalValue(text, kids[2], scope)) && !topLevel.has(name)) runTime?.add(name);
    }
  };
  visit(top, false);
  return constants;
}

/** `tl.constexpr`, `triton.language.constexpr`, or `constexpr` imported from them. */
export function isConstexprName(text: string, node: SyntaxNode, imports: PythonImports): boolean {
  const name = dottedName(text, node);
  if (!name) return false;
  if (name.length === 1) return imports.functions.get(name[0]) === "constexpr";
  const head = name.slice(0, -1).join(".");
  return name[name.length - 1] === "constexpr" && (imports.tl.has(head) || head === "triton.language" || head === "tl");
}

/**
 * The Kernel Lab dtype a parameter's annotation names, where it is a Triton dtype (`x: tl.bfloat16`,
 * `triton.language.bfloat16`, the string `"bf16"` or `"tl.bfloat16"`): Triton's jit.py makes the argument that
 * type (KernelParam.annotation_type), as the launcher packs it. Undefined for any other annotation.
 */
export function annotationDtype(text: string, typeDef: SyntaxNode, imports: PythonImports): string | undefined {
  const annotation = parts(typeDef)[0];
  if (!annotation) return undefined;
  if (annotation.name === "String") {
    const named = /^(?:tl\.|triton\.language\.)?(\w+)$/.exec(stringValue(text, annotation) ?? "")?.[1];
    return named === undefined ? undefined : (DTYPES[named] ?? (Object.values(DTYPES).includes(named) ? named : undefined));
  }
  const name = dottedName(text, annotation);
  if (!name || name.length < 2) return undefined;
  const head = name.slice(0, -1).join(".");
  return imports.tl.has(head) || head === "triton.language" || head === "tl" ? DTYPES[name[name.length - 1]] : undefined;
}

export function isConstexprAnnotation(text: string, typeDef: SyntaxNode, imports: PythonImports): boolean {
  const annotation = parts(typeDef)[0];
  if (!annotation) return false;
  if (annotation.name === "String") return /^(?:tl\.|triton\.language\.)?constexpr$/.test(stringValue(text, annotation) ?? "");
  return isConstexprName(text, annotation, imports);
}

export { bodyStatements };

/**
 * A module name as `file` imports it, made absolute as Python's importlib does: `..utils` in
 * `pkg.ops.kernels` is `pkg.utils`, `.` in the package `pkg.ops` (its __init__.py) is `pkg.ops`.
 * Undefined for a relative name where it can't resolve: in the script (Python's "attempted relative
 * import with no known parent package") or past the top-level package.
 */
export function absoluteModule(file: PythonFile, name: string): string | undefined {
  const level = /^\.*/.exec(name)![0].length;
  if (level === 0) return name;
  if (file.moduleName === undefined) return undefined;
  const isPackage = /(^|[\\/])__init__\.py$/.test(file.fileName);
  const parts = file.moduleName.split(".");
  const packageParts = isPackage ? parts : parts.slice(0, -1);
  if (packageParts.length < level) return undefined;
  const base = packageParts.slice(0, packageParts.length - (level - 1)).join(".");
  const rest = name.slice(level);
  return rest ? `${base}.${rest}` : base;
}

/** The @triton.jit functions `kernel` calls, directly or through others. */
export function helpersOf(file: PythonFile, kernel: PythonKernel): PythonKernel[] {
  const out: PythonKernel[] = [];
  const visit = (k: PythonKernel) => {
    for (const other of file.kernels) {
      if (other === kernel || out.includes(other) || !k.names.has(other.name)) continue;
      out.push(other);
      visit(other);
    }
  };
  visit(kernel);
  return out;
}

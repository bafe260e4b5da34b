// A kernel's calls to @triton.jit functions of another module (`tle.program_id(0)` with FlagGems'
// `from flag_gems.utils import triton_lang_extension as tle`, `from mod import helper`): the
// module's text comes with the run (PythonFile.modules), and each function called is lowered into
// the kernel's TypeScript file under a name of its module's (`xmod_helpers_lang__program_id`), with
// the helpers it calls in turn. Its pieces are mapped past the end of the kernel's file (each
// module at a base offset of its own), so a diagnostic inside it is told apart: it keeps the kernel
// file's call as its span and the helper's file, line and column as its origin (`check` and runs
// report it there, the editor at the call with the helper's place as related information).

import type { Diagnostic, FilePlace, Span } from "../diagnostics/diagnostic";
import { LineMap } from "../diagnostics/position";
import { absoluteModule, helpersOf, type ModuleConstant, type PythonFile, type PythonKernel } from "./module";
import type { PyConst } from "./literals";
import { pythonName, tsName } from "./names";
import { specializationKey } from "./specialize";

export interface ExternalFile {
  file: PythonFile;
  /** Where its offsets start in the combined range the source map gives. */
  base: number;
  /** The names of its @triton.jit functions in the TypeScript file start with this. */
  prefix: string;
  /** Its dotted name, as the kernel's file imports it. */
  module: string;
  /** The call in the kernel's own file that led to it. */
  site: Span;
  lines: LineMap;
}

export interface ExternalFunction {
  external: ExternalFile;
  kernel: PythonKernel;
  /** The call in the kernel's own file that led to it (first), directly or through other helpers. */
  site: Span;
  /** Its parameters given a string or None (specialize.ts), and its name in the TypeScript file then. */
  known?: ReadonlyMap<string, PyConst>;
  name?: string;
}

/** A @triton.jit function of the kernel's own file, lowered for strings or None given to some parameters (specialize.ts). */
export interface SpecializedFunction {
  kernel: PythonKernel;
  known: ReadonlyMap<string, PyConst>;
  name: string;
}

export class Externals {
  readonly files: ExternalFile[] = [];
  /** Functions to lower still; each is queued once. */
  readonly queue: ExternalFunction[] = [];
  /** The queued function being lowered now (its calls to others lead there from its site). */
  lowering: ExternalFunction | undefined;
  /** The kernel file's own functions specialized for strings or None, to lower still. */
  readonly specialized: SpecializedFunction[] = [];
  private readonly queued = new Set<string>();
  private readonly specializedNames = new Map<string, string>();
  private next: number;

  constructor(
    readonly main: PythonFile,
    /** The modules the run sent, by dotted name (the kernel file's, which holds them for all). */
    readonly modules: ReadonlyMap<string, PythonFile>,
  ) {
    this.next = main.text.length + 1;
  }

  /**
   * The @triton.jit function `name` of module `module` as `from` imports it (a relative name,
   * `..utils`, against `from`'s package), if the run sent that module and it has one, or imports one
   * under that name (a package's __init__.py that does `from .lang import program_id`).
   */
  find(module: string, name: string, from: PythonFile = this.main): { file: PythonFile; kernel: PythonKernel } | undefined {
    return externalFunction(this.modules, from, module, name);
  }

  /** The other module's @triton.jit function a dotted name written in `from` names (externalCallee). */
  callee(dotted: readonly string[], from: PythonFile = this.main): { file: PythonFile; kernel: PythonKernel } | undefined {
    return externalCallee(this.modules, from, dotted);
  }

  /** The other module's module-level constant a dotted name written in `from` names (`language.eps`). */
  constant(dotted: readonly string[], from: PythonFile = this.main): ModuleConstant | undefined {
    if (dotted.length < 2) return undefined;
    const module = from.imports.modules.get(dotted[0]);
    if (module === undefined) return undefined;
    for (const split of moduleSplits(module, dotted.slice(1))) {
      const found = externalConstant(this.modules, from, split.module, split.name);
      if (found) return found;
    }
    return undefined;
  }

  /** The tl function `name` of module `module` is bound to there, if it is an alias of one (externalAlias). */
  alias(module: string, name: string, from: PythonFile = this.main): string | undefined {
    return externalAlias(this.modules, from, module, name);
  }

  /** Queues `kernel` of `file` (and the helpers of its file it calls); its name in the TypeScript file. */
  use(file: PythonFile, kernel: PythonKernel, site: Span): string {
    const external = this.fileOf(file, site);
    for (const k of [kernel, ...helpersOf(file, kernel)]) {
      const key = `${file.fileName}\0${k.name}`;
      if (this.queued.has(key)) continue;
      this.queued.add(key);
      this.queue.push({ external, kernel: k, site });
    }
    return `${external.prefix}${tsName(kernel.name)}`;
  }

  /**
   * `kernel` of `file` (the kernel's own or another module's) with `known` values for some parameters
   * (specialize.ts), queued once per set of values; its name in the TypeScript file.
   */
  specialize(file: PythonFile, kernel: PythonKernel, known: ReadonlyMap<string, PyConst>, site: Span): string {
    const key = specializationKey(file.fileName, kernel, known);
    const done = this.specializedNames.get(key);
    if (done) return done;
    const external = file === this.main ? undefined : this.fileOf(file, site);
    const name = `${external?.prefix ?? ""}${tsName(kernel.name)}__${this.specializedNames.size + 1}`;
    this.specializedNames.set(key, name);
    if (!external) {
      this.specialized.push({ kernel, known, name });
      return name;
    }
    this.queue.push({ external, kernel, site, known, name });
    // The generic helpers of its module it calls (those it passes strings to are specialized in turn).
    for (const k of helpersOf(file, kernel)) this.use(file, k, site);
    return name;
  }

  /** A specialized function's name (`apply_act_func__2`) as Python writes it, in a message. */
  static unspecialized(message: string): string {
    return message.replace(/\b(\w+)__\d+\b/g, "$1");
  }

  private fileOf(file: PythonFile, site: Span): ExternalFile {
    let external = this.files.find((f) => f.file === file);
    if (!external) {
      const name = [...this.modules].find(([, f]) => f === file)?.[0] ?? `module${this.files.length}`;
      external = { file, module: name, base: this.next, prefix: `${name.replace(/\W/g, "_")}__`, site, lines: new LineMap(file.text) };
      this.next += file.text.length + 1;
      this.files.push(external);
    }
    return external;
  }

  /** The external file a combined offset falls in (undefined: the kernel's own file). */
  at(offset: number): ExternalFile | undefined {
    return this.files.find((f) => offset >= f.base && offset <= f.base + f.file.text.length);
  }

  /** A span of the combined range on the kernel's own file: a helper's own becomes the call that led to it. */
  toMain(span: Span): Span {
    const external = this.at(span.start);
    return external ? this.siteOf(external, span.start - external.base) : span;
  }

  /** The call in the kernel's file that leads to the function of `external` holding `offset` (of that file's text). */
  private siteOf(external: ExternalFile, offset: number): Span {
    return this.queue.find((f) => f.external === external && offset >= f.kernel.node.from && offset <= f.kernel.node.to)?.site ?? external.site;
  }

  /** Where a span of the combined range is in another module's file; undefined in the kernel's own. */
  origin(span: Span): FilePlace | undefined {
    const external = this.at(span.start);
    return external && place(external, span.start - external.base, span.end - external.base);
  }

  /** A function's name in the TypeScript file as Python writes it (`xmod_helpers.lang.program_id`); undefined for the kernel file's own. */
  pythonName(tsName: string): string | undefined {
    const external = this.files.find((f) => tsName.startsWith(f.prefix));
    return external && `${external.module}.${pythonName(tsName.slice(external.prefix.length))}`;
  }

  /** A diagnostic at a combined span → at the kernel file's call, with its place in the helper's file as its origin. */
  relocate(diagnostic: Diagnostic): Diagnostic {
    // The TypeScript names of other modules' functions, in a message, as Python writes them (`pkg.mod.helper`).
    const d = this.files.reduce((m, f) => (m.message.includes(f.prefix) ? { ...m, message: m.message.split(f.prefix).join(`${f.module}.`).replace(/\b([A-Za-z_]\w*)\$([A-Za-z_]\w*)\b/g, "$1.$2") } : m), diagnostic);
    const external = this.at(d.span.start);
    if (external) return this.inFile(external, d, d.span.start - external.base, d.span.end - external.base);
    return d.related ? { ...d, related: d.related.map((r) => ({ ...r, span: this.toMain(r.span) })) } : d;
  }

  /** A diagnostic found while lowering `external` (its span in that file's own text). */
  inFile(external: ExternalFile, d: Diagnostic, start = d.span.start, end = d.span.end): Diagnostic {
    const { related: _related, ...rest } = d;
    return { ...rest, span: this.siteOf(external, start), origin: place(external, start, end) };
  }
}

function place(external: ExternalFile, start: number, end: number): FilePlace {
  const a = external.lines.at(start);
  const b = external.lines.at(Math.max(start, end));
  return { file: external.file.fileName, line: a.line, column: a.column, endLine: b.line, endColumn: b.column };
}

/**
 * The @triton.jit function `name` of `module` as `from` imports it (a relative name against
 * `from`'s package), among the modules a run sent, following a package's re-export (`from .lang
 * import program_id` in its __init__.py, or `from .relu import *`). `name` may be a class-level
 * function's qualified name (`ReLU.forward`), re-exported by its class's name.
 */
export function externalFunction(modules: ReadonlyMap<string, PythonFile>, from: PythonFile, module: string, name: string): { file: PythonFile; kernel: PythonKernel } | undefined {
  return inModule(modules, from, module, name, (file, n) => {
    const aliased = file.jitAliases.get(n);
    const kernel = file.kernels.find((k) => k.name === (aliased ?? n));
    return kernel && { file, kernel };
  });
}

/** The module-level constant `name` of `module` (trident's `language.eps`, a `tl.constexpr` of language/constant.py taken by `from .constant import *`). */
export function externalConstant(modules: ReadonlyMap<string, PythonFile>, from: PythonFile, module: string, name: string): ModuleConstant | undefined {
  return inModule(modules, from, module, name, (file, n) => (file.kernels.some((k) => k.name === n) ? undefined : file.constants.get(n)));
}

/**
 * Looks `name` up in `module` with `pick`, then where that module takes it from: an import by name
 * (the first part of a dotted name: a class), a submodule (`from . import math`, then `math.ReLU.forward`),
 * or its `from … import *` modules in turn.
 */
function inModule<T>(modules: ReadonlyMap<string, PythonFile>, from: PythonFile, module: string, name: string, pick: (file: PythonFile, name: string) => T | undefined, depth = 0): T | undefined {
  const absolute = absoluteModule(from, module);
  if (absolute === undefined || depth > 8) return undefined;
  const file = modules.get(absolute);
  if (!file) return undefined;
  const found = pick(file, name);
  if (found !== undefined) return found;
  const dot = name.indexOf(".");
  const head = dot >= 0 ? name.slice(0, dot) : name;
  const rest = dot >= 0 ? name.slice(dot + 1) : undefined;
  const imported = file.imports.imported.get(head);
  if (imported) {
    const source = absoluteModule(file, imported.module);
    // `from . import math` then `math.ReLU.forward`: the submodule, where the run sent it.
    if (rest !== undefined && source !== undefined && modules.has(`${source}.${imported.name}`)) return inModule(modules, file, `${source}.${imported.name}`, rest, pick, depth + 1);
    return inModule(modules, file, imported.module, rest !== undefined ? `${imported.name}.${rest}` : imported.name, pick, depth + 1);
  }
  if (rest !== undefined && modules.has(`${absolute}.${head}`)) return inModule(modules, file, `${absolute}.${head}`, rest, pick, depth + 1);
  for (const star of file.imports.star) {
    const got = inModule(modules, file, star, name, pick, depth + 1);
    if (got !== undefined) return got;
  }
  return undefined;
}

/**
 * The ways to read a dotted name after a module's name as a module and a name in it: `language.math.ReLU.forward`
 * (with `from trident import language`) → trident.language.math.ReLU / forward, trident.language.math /
 * ReLU.forward, trident.language / math.ReLU.forward, longest module first.
 */
export function moduleSplits(module: string, rest: readonly string[]): { module: string; name: string }[] {
  const out: { module: string; name: string }[] = [];
  for (let i = rest.length - 1; i >= 0; i--) out.push({ module: [module, ...rest.slice(0, i)].join("."), name: rest.slice(i).join(".") });
  return out;
}

/**
 * The tl function a name imported from another module is bound to there (unsloth's
 * `from .utils import triton_tanh`, where utils.py binds `triton_tanh = libdevice.tanh` in an `if` on
 * Triton's version: module.ts's readFunctionAliases), following re-exports as externalFunction does.
 */
export function externalAlias(modules: ReadonlyMap<string, PythonFile>, from: PythonFile, module: string, name: string): string | undefined {
  let absolute = absoluteModule(from, module);
  for (let hops = 0; absolute !== undefined && hops < 8; hops++) {
    const file = modules.get(absolute);
    if (!file || file.kernels.some((k) => k.name === name) || file.jitAliases.has(name)) return undefined;
    const bound = file.imports.functions.get(name);
    if (bound) return bound;
    const imported = file.imports.imported.get(name);
    if (!imported) return undefined;
    absolute = absoluteModule(file, imported.module);
    name = imported.name;
  }
  return undefined;
}

/** The other module's @triton.jit function a call's dotted callee names in `from` (`helper` imported by name, `m.helper`, `pkg.mod.helper`, `m.Cls.helper`, `Cls.helper` with the class imported by name). */
export function externalCallee(modules: ReadonlyMap<string, PythonFile>, from: PythonFile, dotted: readonly string[]): { file: PythonFile; kernel: PythonKernel } | undefined {
  const named = from.imports.imported.get(dotted[0]);
  if (named) {
    const found = externalFunction(modules, from, named.module, [named.name, ...dotted.slice(1)].join("."));
    if (found || dotted.length === 1) return found;
  }
  if (dotted.length === 1) {
    // A name the file takes with `from .utils import *` (gemlite's kernel files call utils.py's `dequantize`, `swizzle_tile`).
    for (const star of from.imports.star) {
      const found = externalFunction(modules, from, star, dotted[0]);
      if (found) return found;
    }
    return undefined;
  }
  const module = from.imports.modules.get(dotted[0]);
  if (module === undefined) return undefined;
  for (const split of moduleSplits(module, dotted.slice(1))) {
    const found = externalFunction(modules, from, split.module, split.name);
    if (found) return found;
  }
  return undefined;
}

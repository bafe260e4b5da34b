// A Python file's @triton.jit functions → one TypeScript kernel file (docs/LANGUAGE.md §2.2): each function
// becomes `export const f = kernel(function f(…) { … });` with its parameters annotated as a
// launch gives them (helpers keep theirs generic), plus the map back to the Python text.

import { DiagnosticLog, type Diagnostic } from "../diagnostics/diagnostic";
import type { LowerContext } from "./context";
import { planDeclarations } from "./declarations";
import { noneMasks } from "./none-masks";
import type { PyConst } from "./literals";
import type { PythonFile, PythonKernel } from "./module";
import { tsName } from "./names";
import { lowerBlock } from "./statements";
import { children, spanOf, type SyntaxNode } from "./tree";
import { TsWriter, type SourceMap } from "./writer";
import { Externals } from "./externals";
import { writeDescriptorParams, writeDescriptorPrologue, type DescriptorArg } from "./descriptors";

export interface FunctionToLower {
  kernel: PythonKernel;
  /** Parameter → its TypeScript annotation (`Ptr<f32>`, `i32`, `constexpr`); absent: generic (a helper's). */
  annotations: ReadonlyMap<string, string>;
  /** Constexpr parameters whose value is known (None and strings are decided while lowering). */
  known: ReadonlyMap<string, PyConst>;
  /** Parameters given a host TensorDescriptor (descriptors.ts): the base pointer plus its shape and stride scalars. */
  descriptors?: ReadonlyMap<string, DescriptorArg>;
  /** A helper specialized for the strings or None given to some parameters (specialize.ts): its name; those parameters are left out of its signature. */
  specializedAs?: string;
}

export interface LoweredFile {
  typescript: string;
  map: SourceMap;
  /** Python constructs outside the language, at their Python ranges. */
  diagnostics: Diagnostic[];
  /** The other modules' functions lowered into it, and how to map their ranges back. */
  externals: Externals;
}

export function lowerFunctions(file: PythonFile, functions: readonly FunctionToLower[]): LoweredFile {
  // A helper called only with strings or None is called by its specialized names alone (specialize.ts):
  // its generic copy, called by nothing, would be a kernel with untyped parameters. Lowered again without it.
  let skip = new Set<string>();
  for (;;) {
    const lowered = lowerOnce(file, functions, skip);
    if (lowered.externals.specialized.length === 0 && !lowered.externals.queue.some((f) => f.name)) return lowered;
    const generic = [...functions.filter((f) => f.kernel.called && f.annotations.size === 0).map((f) => tsName(f.kernel.name)), ...lowered.externals.queue.filter((f) => !f.name).map((f) => `${f.external.prefix}${tsName(f.kernel.name)}`)];
    // Its definition names it twice (`export const f = kernel(function f(`); a call or a combine function once more.
    const unused = generic.filter((name) => !skip.has(name) && (lowered.typescript.match(new RegExp(`(?<![\\w$])${name.replace(/\$/g, "\\$")}(?![\\w$])`, "g"))?.length ?? 0) <= 2);
    if (unused.length === 0) return lowered;
    skip = new Set([...skip, ...unused]);
  }
}

function lowerOnce(file: PythonFile, functions: readonly FunctionToLower[], skip: ReadonlySet<string>): LoweredFile {
  const w = new TsWriter();
  const log = new DiagnosticLog();
  const externals = new Externals(file, file.modules);
  w.write('import { kernel, tl } from "kernel-lab";\nimport type { Ptr, f32, f16, i32, u32, constexpr } from "kernel-lab";\n');
  for (const f of functions) if (!skip.has(tsName(f.kernel.name)) || !f.kernel.called) lowerFunction(w, log, file, "", externals, f);
  // Functions of other modules the kernel called, and the ones they call in turn; this file's
  // helpers called with strings or None (specialize.ts), each queuing more of either.
  for (let i = 0, j = 0; i < externals.queue.length || j < externals.specialized.length; ) {
    if (j < externals.specialized.length) {
      const { kernel, known, name } = externals.specialized[j++];
      lowerFunction(w, log, file, "", externals, { kernel, annotations: new Map(), known, specializedAs: name });
      continue;
    }
    const next = externals.queue[i++];
    if (!next.name && skip.has(`${next.external.prefix}${tsName(next.kernel.name)}`)) continue;
    const { external, kernel, known, name } = (externals.lowering = next);
    const own = new DiagnosticLog();
    w.offset = external.base;
    lowerFunction(w, own, external.file, external.prefix, externals, { kernel, annotations: new Map(), known: known ?? new Map(), ...(name ? { specializedAs: name } : {}) });
    w.offset = 0;
    externals.lowering = undefined;
    for (const d of own.diagnostics) log.diagnostics.push(externals.inFile(external, d));
  }
  return { typescript: w.text, map: w.sourceMap(functions[0] ? functions[0].kernel.nameSpan : { start: 0, end: 0 }), diagnostics: log.diagnostics, externals };
}

function lowerFunction(w: TsWriter, log: DiagnosticLog, file: PythonFile, prefix: string, externals: Externals, f: FunctionToLower): void {
  const k = f.kernel;
  const body = children(k.node).find((c) => c.name === "Body");
  if (!body) return;
  const params = new Set(k.params.map((p) => p.name));
  const ctx: LowerContext = {
    file,
    text: file.text,
    w,
    log,
    params,
    known: new Map(f.known),
    annotations: f.annotations,
    plan: planDeclarations(file.text, body, params),
    noneMasks: noneMasks(file.text, body, file.imports),
    scopes: [],
    jitFunctions: new Set(file.kernels.map((x) => x.name)),
    defaults: defaultsOf(file),
    prefix,
    externals,
    noneNames: new Set(),
    deadBranches: 0,
    runTimeBranches: 0,
    decided: new Set(f.specializedAs ? k.params.filter((p) => f.known.has(p.name)).map((p) => p.name) : []),
  };
  const name = f.specializedAs ?? `${prefix}${tsName(k.name)}`;
  // A specialized helper's known parameters are decided while lowering: the call passes nothing for them.
  const written = f.specializedAs ? k.params.filter((p) => !f.known.has(p.name)) : k.params;
  w.write("\nexport const ");
  w.token(name, k.nameSpan);
  w.write(" = ");
  w.node({ start: k.node.from, end: k.nameSpan.end }, () => {
    w.write("kernel(function ");
    w.token(name, k.nameSpan);
    w.write("(");
    written.forEach((p, i) => {
      if (i > 0) w.write(", ");
      const annotation = f.annotations.get(p.name);
      w.token(`${tsName(p.name)}${annotation ? `: ${annotation}` : ""}`, p.span);
      const descriptor = f.descriptors?.get(p.name);
      if (descriptor) writeDescriptorParams(w, tsName(p.name), descriptor);
    });
    w.write(") {\n");
    for (const p of k.params) {
      const descriptor = f.descriptors?.get(p.name);
      if (descriptor) writeDescriptorPrologue(w, tsName(p.name), descriptor, p.span);
    }
    lowerBlock(ctx, body, "  ");
    w.write("})");
  });
  w.write(";\n");
}

/** Each @triton.jit function's parameters with their default values (a call that leaves one out passes it by name). */
export function defaultsOf(file: PythonFile): Map<string, { name: string; node?: SyntaxNode; constexpr: boolean }[]> {
  const defaults = new Map<string, { name: string; node?: SyntaxNode; constexpr: boolean }[]>();
  for (const k of file.kernels) {
    defaults.set(k.name, k.params.map((p) => ({ name: p.name, constexpr: p.constexpr, ...(p.defaultSpan ? { node: nodeAt(k.node, p.defaultSpan.start) } : {}) })));
  }
  return defaults;
}

function nodeAt(root: SyntaxNode, from: number): SyntaxNode | undefined {
  let found: SyntaxNode | undefined;
  const visit = (n: SyntaxNode) => {
    if (found || n.to < from || n.from > from) return;
    if (n.from === from && n.name !== "ParamList" && n.name !== "FunctionDefinition") {
      found = n;
      return;
    }
    for (const c of children(n)) visit(c);
  };
  visit(root);
  return found;
}

export { spanOf };

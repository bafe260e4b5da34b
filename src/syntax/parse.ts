// Reads a kernel file with the TypeScript compiler API: finds every `kernel(...)` call, reads the
// kernel's parameter annotations, and collects the constexpr values written literally in the
// file's `defineRun` calls (so diagnostics can be computed without running any of its code).

import ts from "typescript";
import { DiagnosticLog, type Diagnostic, type Span } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { Param, PointeeDtype } from "../ir/ir";
import { isGenericType, linkHelpers } from "./helpers";
import { moduleConstants, moduleObjects, readLiteralConstexprs, type RunTimeConstexprs } from "./run-constexprs";

export type { RunTimeConstexprs };

export interface KernelSource {
  name: string;
  /** The whole `kernel(...)` call. */
  span: Span;
  /** Where the name is written (function name or `const` name). */
  nameSpan: Span;
  params: Param[];
  /** False when the parameter list has errors; such a kernel is not lowered. */
  ok: boolean;
  fn: ts.FunctionExpression | ts.ArrowFunction;
  sourceFile: ts.SourceFile;
  /** The names the file uses for the package's `tl` namespace (normally just "tl"). */
  tlNames: ReadonlySet<string>;
  /** Local names of the package's `libdevice` (Triton's `from triton.language.extra import libdevice`): `libdevice.tanh(x)`. */
  libdeviceNames?: ReadonlySet<string>;
  /** Every parameter as written; `type` is absent for a generic one (no annotation, `any`, `number`…). */
  signature: HelperParam[];
  /** The file's kernels by the names a kernel body calls them by (device functions, device-functions.ts). */
  helpers: ReadonlyMap<string, KernelSource>;
  /** Called from another kernel's body. */
  called: boolean;
  /** Has generic parameters, so it can only be called from another kernel, not launched. */
  deviceOnly: boolean;
}

export interface HelperParam {
  name: string;
  span: Span;
  type?: { kind: Param["kind"]; dtype: PointeeDtype };
  /** Where a generic parameter's annotation (`any`, `number`…) is written, if it has one. */
  annotationSpan?: Span;
}

export interface ParsedFile {
  fileName: string;
  text: string;
  sourceFile: ts.SourceFile;
  kernels: KernelSource[];
  diagnostics: Diagnostic[];
  /** Kernel name → the literal `constexprs` objects of the `defineRun` calls that name it. */
  literalConstexprs: Map<string, Record<string, number>[]>;
  /** Kernel name → the constexprs some `defineRun` call gives values only running the file knows (a function of the size, a variable). */
  runTimeConstexprs: Map<string, RunTimeConstexprs>;
  /** The kernels a `defineRun` call names. */
  launched: Set<string>;
}

const PACKAGE = "kernel-lab";

export function spanOf(node: ts.Node, sourceFile: ts.SourceFile): Span {
  return { start: node.getStart(sourceFile), end: node.getEnd() };
}

/**
 * Deeper syntax than this inside a kernel is refused before lowering: the compiler's passes recurse
 * on it (a real kernel nests a few dozen levels). Measured: lowering overflows Node's stack at ~3000.
 */
export const MAX_KERNEL_NESTING = 500;

export function parseKernelFile(fileName: string, text: string): ParsedFile {
  try {
    return parseUnguarded(fileName, text);
  } catch (error) {
    // TypeScript's parser and our visitors recurse: a file nested thousands of levels deep overflows
    // the stack. Any other throw here is a bug; either way the user gets a diagnostic, not a crash.
    const log = new DiagnosticLog();
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      const at = deepestBracket(text);
      log.error(Codes.tooDeep, { start: at, end: Math.min(text.length, at + 1) }, `this file nests too deeply to parse (around here); kernels may nest at most ${MAX_KERNEL_NESTING} levels — split long expressions into const values`);
    } else {
      log.error(Codes.internal, { start: 0, end: 0 }, `internal error while parsing this file: ${(error as Error)?.message ?? String(error)}. This is a bug in Kernel Lab; please report it with this file.`);
    }
    const sourceFile = ts.createSourceFile(fileName, "", ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    return { fileName, text, sourceFile, kernels: [], diagnostics: log.diagnostics, literalConstexprs: new Map(), runTimeConstexprs: new Map(), launched: new Set() };
  }
}

/** The offset where brackets nest deepest, or the start of the longest line for a long unbracketed chain. */
function deepestBracket(text: string): number {
  let depth = 0;
  let best = 0;
  let at = text.length > 0 ? text.length - 1 : 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      depth++;
      if (depth > best) {
        best = depth;
        at = i;
      }
    } else if (c === 41 || c === 93 || c === 125) {
      depth--;
    }
  }
  return best >= 100 ? at : longestLineStart(text);
}

function longestLineStart(text: string): number {
  let best = 0;
  let bestLength = -1;
  let start = 0;
  for (const line of text.split("\n")) {
    if (line.length > bestLength) {
      bestLength = line.length;
      best = start + (line.length - line.trimStart().length);
    }
    start += line.length + 1;
  }
  return Math.min(best, Math.max(0, text.length - 1));
}

/** The deepest node under `root` and its depth, found without recursion. */
function deepestNode(root: ts.Node): { node: ts.Node; depth: number } {
  let deepest = { node: root, depth: 0 };
  const stack: { node: ts.Node; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (top.depth > deepest.depth) deepest = top;
    ts.forEachChild(top.node, (child) => {
      stack.push({ node: child, depth: top.depth + 1 });
    });
  }
  return deepest;
}

function parseUnguarded(fileName: string, text: string): ParsedFile {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const log = new DiagnosticLog();
  reportSyntaxErrors(sourceFile, log);

  const imports = packageImports(sourceFile);
  const kernels: KernelSource[] = [];
  /** `const add = kernel(...)` — variable name → kernel name, for defineRun's `kernel:` field. */
  const kernelByVariable = new Map<string, string>();

  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isPackageCall(node, imports.kernel)) {
      const kernel = readKernel(node, sourceFile, imports.tl, log);
      if (kernel) kernel.libdeviceNames = imports.libdevice;
      if (kernel) {
        const clash = kernels.find((k) => k.name === kernel.name);
        if (clash) {
          log.error(Codes.duplicateKernel, kernel.nameSpan, `another kernel is already named '${kernel.name}'; give each kernel its own name`, [
            { span: clash.nameSpan, message: "the first kernel with this name" },
          ]);
        } else {
          kernels.push(kernel);
        }
        const decl = node.parent;
        if (ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) kernelByVariable.set(decl.name.text, kernel.name);
      }
      return; // kernels don't nest
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  linkHelpers(kernels, kernelByVariable, log);

  const literalConstexprs = new Map<string, Record<string, number>[]>();
  const runTimeConstexprs = new Map<string, RunTimeConstexprs>();
  const launched = new Set<string>();
  const constants = moduleConstants(sourceFile);
  const objects = moduleObjects(sourceFile);
  const visitRuns = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && isPackageCall(node, imports.defineRun)) {
      for (const found of readLiteralConstexprs(node, kernelByVariable, constants, objects)) {
        launched.add(found.kernel);
        const list = literalConstexprs.get(found.kernel) ?? [];
        list.push(...found.variants);
        literalConstexprs.set(found.kernel, list);
        if (found.runTime.unlisted || found.runTime.names.size > 0) {
          const known = runTimeConstexprs.get(found.kernel) ?? { names: new Set<string>(), unlisted: false };
          for (const name of found.runTime.names) known.names.add(name);
          known.unlisted ||= found.runTime.unlisted;
          runTimeConstexprs.set(found.kernel, known);
        }
      }
    }
    ts.forEachChild(node, visitRuns);
  };
  visitRuns(sourceFile);

  return { fileName, text, sourceFile, kernels, diagnostics: log.diagnostics, literalConstexprs, runTimeConstexprs, launched };
}

function reportSyntaxErrors(sourceFile: ts.SourceFile, log: DiagnosticLog): void {
  // The parser's own diagnostics are not part of the public API, but they are what `tsc` prints.
  const parseDiagnostics = (sourceFile as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  for (const d of parseDiagnostics) {
    const start = d.start ?? 0;
    log.error(Codes.typescriptSyntax, { start, end: start + (d.length ?? 0) }, ts.flattenDiagnosticMessageText(d.messageText, " "));
  }
}

interface PackageImports {
  kernel: Set<string>;
  defineRun: Set<string>;
  tl: Set<string>;
  libdevice: Set<string>;
}

/** Local names bound to the package's exports; without an import, the plain names are assumed. */
function packageImports(sourceFile: ts.SourceFile): PackageImports {
  const names: PackageImports = { kernel: new Set(), defineRun: new Set(), tl: new Set(), libdevice: new Set() };
  let sawImport = false;
  for (const statement of sourceFile.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== PACKAGE) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        const exported = (element.propertyName ?? element.name).text;
        if (exported === "libdevice") names.libdevice.add(element.name.text);
        if (exported === "kernel" || exported === "defineRun" || exported === "tl") {
          names[exported].add(element.name.text);
          sawImport = true;
        }
      }
    }
  }
  if (!sawImport) {
    names.kernel.add("kernel");
    names.defineRun.add("defineRun");
    names.tl.add("tl");
  }
  return names;
}

function isPackageCall(node: ts.CallExpression, names: ReadonlySet<string>): boolean {
  return ts.isIdentifier(node.expression) && names.has(node.expression.text);
}

function readKernel(call: ts.CallExpression, sourceFile: ts.SourceFile, tlNames: ReadonlySet<string>, log: DiagnosticLog): KernelSource | undefined {
  const callSpan = spanOf(call, sourceFile);
  const arg = call.arguments[0];
  if (!arg || call.arguments.length !== 1 || !(ts.isFunctionExpression(arg) || ts.isArrowFunction(arg))) {
    log.error(Codes.kernelArgument, arg ? spanOf(arg, sourceFile) : callSpan, "kernel(...) takes one function: kernel(function name(x_ptr: Ptr<f32>, …) { … })");
    return undefined;
  }
  if (arg.asteriskToken || arg.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword)) {
    log.error(Codes.kernelArgument, spanOf(arg, sourceFile), "a kernel must be a plain function, not async or a generator");
    return undefined;
  }
  let name: string | undefined;
  let nameSpan: Span = callSpan;
  if (ts.isFunctionExpression(arg) && arg.name) {
    name = arg.name.text;
    nameSpan = spanOf(arg.name, sourceFile);
  } else if (ts.isVariableDeclaration(call.parent) && ts.isIdentifier(call.parent.name)) {
    name = call.parent.name.text;
    nameSpan = spanOf(call.parent.name, sourceFile);
  }
  if (!name) {
    log.error(Codes.kernelName, callSpan, "this kernel has no name: write kernel(function my_kernel(…) { … }) or assign it to a const");
    return undefined;
  }

  let ok = true;
  const params: Param[] = [];
  const signature: HelperParam[] = [];
  const seen = new Set<string>();
  for (const p of arg.parameters) {
    const pSpan = spanOf(p, sourceFile);
    if (!ts.isIdentifier(p.name)) {
      log.error(Codes.paramForm, pSpan, "kernel parameters must be plain names, not destructuring patterns");
      ok = false;
      continue;
    }
    const pname = p.name.text;
    if (p.dotDotDotToken || p.initializer || p.questionToken) {
      log.error(Codes.paramForm, pSpan, `parameter '${pname}' can't be optional, have a default or be a rest parameter: every kernel argument is passed at launch`);
      ok = false;
      continue;
    }
    if (seen.has(pname)) {
      log.error(Codes.paramForm, pSpan, `duplicate parameter '${pname}'`);
      ok = false;
      continue;
    }
    seen.add(pname);
    const annotation = readParamType(p.type);
    if (!annotation && isGenericType(p.type)) {
      // Reported by linkHelpers unless another kernel calls this one (a generic device function).
      signature.push({ name: pname, span: pSpan, ...(p.type ? { annotationSpan: spanOf(p.type, sourceFile) } : {}) });
      continue;
    }
    if (!annotation) {
      log.error(
        Codes.paramAnnotation,
        p.type ? spanOf(p.type, sourceFile) : pSpan,
        `parameter '${pname}' needs a kernel type: Ptr<f32>, Ptr<i32>, Ptr<u32>, Ptr<f16>, Ptr<bf16>, Ptr<i64>, Ptr<bool>, Ptr<i8>, Ptr<u8>, f32, f16, bf16, i32, u32, i64 or constexpr`,
      );
      ok = false;
      continue;
    }
    params.push({ name: pname, kind: annotation.kind, dtype: annotation.dtype, span: pSpan });
    signature.push({ name: pname, span: pSpan, type: annotation });
  }
  const deepest = deepestNode(arg.body);
  if (deepest.depth > MAX_KERNEL_NESTING) {
    log.error(Codes.tooDeep, spanOf(deepest.node, sourceFile), `this is nested ${deepest.depth} levels deep in the kernel; kernels may nest at most ${MAX_KERNEL_NESTING} — split the expression into const values`);
    ok = false;
  }
  return { name, span: callSpan, nameSpan, params, ok, fn: arg, sourceFile, tlNames, signature, helpers: new Map(), called: false, deviceOnly: false };
}

const DTYPES: readonly PointeeDtype[] = ["f32", "f16", "bf16", "i32", "u32", "i64", "bool", "i8", "u8", "f8e4m3", "f8e5m2"];

function readParamType(type: ts.TypeNode | undefined): { kind: Param["kind"]; dtype: PointeeDtype } | undefined {
  if (!type || !ts.isTypeReferenceNode(type)) return undefined;
  const name = ts.isIdentifier(type.typeName) ? type.typeName.text : type.typeName.right.text;
  const args = type.typeArguments ?? [];
  if (name === "Ptr") {
    const inner = args[0];
    if (args.length !== 1 || !inner || !ts.isTypeReferenceNode(inner) || !ts.isIdentifier(inner.typeName)) return undefined;
    const pointee = inner.typeName.text as PointeeDtype;
    return DTYPES.includes(pointee) ? { kind: "pointer", dtype: pointee } : undefined;
  }
  if (args.length > 0) return undefined;
  if (name === "constexpr") return { kind: "constexpr", dtype: "i32" };
  // A bf16 scalar is Triton's `x: tl.bfloat16` parameter: the launch narrows the number to f32 and keeps its top 16 bits (ir/bf16.ts bf16Argument);
  // an f16 one Triton's `x: tl.float16`, the number rounded to the nearest half (runtime/launch.ts, interpreter/kernel-args.ts).
  if (name === "f32" || name === "i32" || name === "u32" || name === "i64" || name === "bf16" || name === "f16") return { kind: "scalar", dtype: name };
  return undefined;
}

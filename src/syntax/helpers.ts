// Device functions at the syntax level: which kernels of a file another kernel's body calls (or
// passes by name as tl.reduce's or tl.associativeScan's combine function), by which names, and the
// generic (unannotated) parameters only such a called kernel may have.

import ts from "typescript";
import type { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { KernelSource } from "./parse";

/** A parameter annotation that says nothing about the kernel type: none, `any`, `unknown`, `number`. */
export function isGenericType(type: ts.TypeNode | undefined): boolean {
  if (!type) return true;
  return type.kind === ts.SyntaxKind.AnyKeyword || type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.NumberKeyword;
}

/** Fills each kernel's `helpers`, `called` and `deviceOnly`; generic parameters of an uncalled kernel are errors. */
export function linkHelpers(kernels: KernelSource[], kernelByVariable: ReadonlyMap<string, string>, log: DiagnosticLog): void {
  const helpers = new Map<string, KernelSource>();
  for (const k of kernels) helpers.set(k.name, k);
  for (const [variable, name] of kernelByVariable) {
    const k = kernels.find((x) => x.name === name);
    if (k && !helpers.has(variable)) helpers.set(variable, k);
  }
  for (const k of kernels) {
    k.helpers = helpers;
    for (const callee of calledNames(k.fn.body, k.tlNames)) {
      const target = helpers.get(callee);
      if (target && target !== k) target.called = true;
    }
  }
  for (const k of kernels) {
    const generic = k.signature.filter((p) => !p.type);
    if (generic.length === 0) continue;
    if (k.called) {
      k.deviceOnly = true;
      continue;
    }
    k.ok = false;
    for (const p of generic) {
      log.error(
        Codes.paramAnnotation,
        p.annotationSpan ?? p.span,
        `parameter '${p.name}' needs a kernel type: Ptr<f32>, Ptr<i32>, Ptr<u32>, Ptr<f16>, Ptr<bf16>, Ptr<i64>, Ptr<bool>, Ptr<i8>, Ptr<u8>, f32, f16, bf16, i32, u32, i64 or constexpr (only a device function, a kernel(...) called from another kernel, may leave it generic)`,
      );
    }
  }
}

/** The tl.* functions that take a combine function, which Triton code passes by name (combine_fn=welford). */
const TAKES_COMBINE = new Set(["reduce", "associativeScan"]);

/** Names called as functions in `body`, and names given as the combine function of tl.reduce / tl.associativeScan. */
function calledNames(body: ts.Node, tlNames: ReadonlySet<string>): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) names.add(node.expression.text);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression)) {
      if (tlNames.has(node.expression.expression.text) && TAKES_COMBINE.has(node.expression.name.text)) {
        for (const arg of node.arguments) {
          if (ts.isIdentifier(arg)) names.add(arg.text);
          if (!ts.isObjectLiteralExpression(arg)) continue;
          for (const p of arg.properties) {
            if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.initializer)) names.add(p.initializer.text);
            if (ts.isShorthandPropertyAssignment(p)) names.add(p.name.text);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(body);
  return names;
}

// What a file's kernels need from the adapter, read off their source before anything runs, so
// the GPU can be opened with Dawn's toggles for f16 (runtime/dawn-toggles.ts) while the file loads.

import ts from "typescript";
import type { HalfPrecisionNeeds } from "../ir/target";
import type { ParsedFile } from "./parse";

/** f16: a kernel has an f16 parameter (`Ptr<f16>`, `f16`) or writes "f16"; f16Dot: such a file also calls `tl.dot`. */
export function halfPrecisionNeeds(parsed: ParsedFile): HalfPrecisionNeeds {
  let f16 = false;
  let dot = false;
  for (const kernel of parsed.kernels) {
    if (kernel.params.some((p) => p.dtype === "f16")) f16 = true;
    const visit = (node: ts.Node): void => {
      if (ts.isStringLiteralLike(node) && node.text === "f16") f16 = true;
      if (ts.isPropertyAccessExpression(node) && node.name.text === "dot" && ts.isIdentifier(node.expression) && kernel.tlNames.has(node.expression.text)) dot = true;
      ts.forEachChild(node, visit);
    };
    visit(kernel.fn);
  }
  return { f16, f16Dot: f16 && dot };
}

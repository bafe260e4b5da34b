// Inlay hints in kernel bodies: after each `const`, `let` and loop counter, the dtype and block
// shape the compiler gave it (`offsets: i32[1024]`), for the constexprs of the file's first run.

import * as vscode from "vscode";
import type { KernelTypesCache } from "./kernel-types-cache";

export class KernelInlayHints implements vscode.InlayHintsProvider {
  constructor(private readonly types: KernelTypesCache) {}

  provideInlayHints(document: vscode.TextDocument, range: vscode.Range): vscode.InlayHint[] {
    const hints: vscode.InlayHint[] = [];
    for (const kernel of this.types.typesOf(document)) {
      for (const binding of kernel.bindings) {
        const at = document.positionAt(binding.span.end);
        if (!range.contains(at)) continue;
        const hint = new vscode.InlayHint(at, `: ${binding.type}`, vscode.InlayHintKind.Type);
        hint.tooltip = `${binding.name} is ${binding.type}${forConstexprs(kernel.constexprs)} (Kernel Lab's checker)`;
        hints.push(hint);
      }
    }
    return hints;
  }
}

function forConstexprs(constexprs: Readonly<Record<string, number>>): string {
  const entries = Object.entries(constexprs);
  return entries.length === 0 ? "" : ` with ${entries.map(([n, v]) => `${n} = ${v}`).join(", ")}`;
}

// Hover in kernel bodies (a .kernel.ts file's, or a Python file's @triton.jit functions): over a tl.* call, the shapes it got here and its Triton name; over a
// name, its dtype and block shape. What a tl.* function does is TypeScript's own hover (from
// types/kernel-lab.d.ts's doc comments), shown next to this one, so it isn't repeated here.

import * as vscode from "vscode";
import { compiler, pythonCompiler } from "./compiler";
import type { KernelTypesCache } from "./kernel-types-cache";

export class KernelHover implements vscode.HoverProvider {
  constructor(private readonly types: KernelTypesCache) {}

  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const types = this.types.typesOf(document);
    const offset = document.offsetAt(position);
    // Over a Python kernel, the call as written in Python (there is no TypeScript hover beside it).
    const found = document.uri.path.endsWith(".py") ? pythonCompiler().pythonHoverAt(document.getText(), types, offset) : compiler().hoverAt(types, offset);
    if (!found) return undefined;
    const range = new vscode.Range(document.positionAt(found.span.start), document.positionAt(found.span.end));
    return new vscode.Hover(new vscode.MarkdownString(found.text), range);
  }
}

// The checker's types of a kernel document's bindings and tl.* calls (src/inspect/), computed once
// per document version and shared by the inlay hints and the hover.

import type * as vscode from "vscode";
import type { KernelTypes } from "../compile";
import { compiler, pythonCompiler } from "./compiler";
import { isTritonPythonDocument } from "./kernel-document";

export class KernelTypesCache {
  private readonly byDocument = new Map<string, { version: number; types: KernelTypes[] }>();

  constructor(private readonly log: vscode.LogOutputChannel) {}

  typesOf(document: vscode.TextDocument): KernelTypes[] {
    const key = document.uri.toString();
    const cached = this.byDocument.get(key);
    if (cached && cached.version === document.version) return cached.types;
    let types: KernelTypes[] = [];
    try {
      // A Python kernel's types come from its lowering, at Python ranges (python/inspect-python.ts).
      if (document.uri.path.endsWith(".py")) types = isTritonPythonDocument(document) ? pythonCompiler().pythonBindingTypes(document.fileName, document.getText()) : [];
      else types = compiler().bindingTypes(document.fileName, document.getText());
    } catch (error) {
      // The diagnostics report a compiler bug on this file; hints and hovers just stay empty.
      this.log.error(`internal error while typing ${document.fileName}:`, error instanceof Error ? (error.stack ?? error.message) : String(error));
    }
    this.byDocument.set(key, { version: document.version, types });
    return types;
  }

  forget(document: vscode.TextDocument): void {
    this.byDocument.delete(document.uri.toString());
  }
}

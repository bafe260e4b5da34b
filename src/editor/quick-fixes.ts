// Quick fixes for Kernel Lab's diagnostics: the fixes the compiler attached to them (Math.max →
// tl.maximum, tl.program_id → tl.programId, a missing mask, a tl.arange rounded up to a power of
// two and masked), offered in the light bulb for the diagnostic they belong to. Nothing is
// derived from a message: a diagnostic is matched by its code and range to what the last check
// of the same version of the document found, and its fix's spans become the edit.

import * as vscode from "vscode";
import type { KernelDiagnostics } from "./diagnostics";
import { DIAGNOSTIC_SOURCE } from "./diagnostics";

/** Run after a fix is applied: the walkthrough's "fix it" step completes on it (onCommand). */
export const FIX_APPLIED_COMMAND = "kernelLab.quickFixApplied";

export class KernelQuickFixes implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly diagnostics: KernelDiagnostics) {}

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const known = this.diagnostics.fixesOf(document);
    if (!known) return [];
    const rangeOf = (span: { start: number; end: number }) => new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) continue;
      const code = typeof diagnostic.code === "object" ? String(diagnostic.code.value) : String(diagnostic.code);
      const entry = known.diagnostics.find((d) => d.code === code && rangeOf(d.span).isEqual(diagnostic.range));
      for (const fix of entry?.fixes ?? []) {
        const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        action.diagnostics = [diagnostic];
        action.isPreferred = fix.preferred === true;
        action.edit = new vscode.WorkspaceEdit();
        for (const edit of fix.edits) action.edit.replace(document.uri, rangeOf(edit.span), edit.text);
        action.command = { command: FIX_APPLIED_COMMAND, title: fix.title, arguments: [code] };
        actions.push(action);
      }
    }
    return actions;
  }
}

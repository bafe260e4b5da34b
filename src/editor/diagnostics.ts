// Live diagnostics: the compiler's `checkFile` runs on every kernel document when it is opened,
// shortly after each change and on save; its diagnostics go to one DiagnosticCollection (the
// editor squiggles and the Problems panel). A Python document is also checked again when a module it
// imports is saved, edited or closed (module-dependents.ts): its diagnostics depend on that text.
// Nothing here throws out of a listener: an internal error becomes one diagnostic on the file and a
// line in the log.

import * as vscode from "vscode";
import type { DiagnosticFix, Diagnostic as KernelDiagnostic, Span } from "../diagnostics/diagnostic";
import { compiler, pythonCompiler } from "./compiler";
import { isKernelDocument, isTritonPythonDocument } from "./kernel-document";
import { exerciseNamed } from "../exercises/course";
import { checkPythonExercise, pythonExerciseId } from "../python/exercise";
import { forgetModuleText, readWithModules } from "./python-modules";
import { ModuleDependents } from "./module-dependents";

/** Kernel files, and Python files with a @triton.jit kernel (docs/LANGUAGE.md §2.2); other Python is left alone. */
function isChecked(document: vscode.TextDocument): boolean {
  return isKernelDocument(document) || isTritonPythonDocument(document);
}

export const DIAGNOSTIC_SOURCE = "kernel-lab";
/** Typing pauses shorter than this don't trigger a check. */
const DEBOUNCE_MS = 150;
const INTERNAL_ERROR_CODE = "KL9000";

const SEVERITY: Record<KernelDiagnostic["severity"], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** The fixes the compiler attached to a document's diagnostics, for the version it checked (quick-fixes.ts). */
export interface DocumentFixes {
  version: number;
  diagnostics: { code: string; span: Span; fixes: DiagnosticFix[] }[];
}

export class KernelDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DIAGNOSTIC_SOURCE);
  private readonly fixes = new Map<string, DocumentFixes>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private readonly dependents = new ModuleDependents();
  private readonly subscriptions: vscode.Disposable[] = [];

  /** `pythonLibrary`: Kernel Lab's Python modules (the extension's dist/python-lib/), read where a document imports one of KERNEL_LAB_MODULES. */
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly pythonLibrary: vscode.Uri,
  ) {
    this.subscriptions.push(
      this.collection,
      vscode.workspace.onDidOpenTextDocument((document) => this.checkNow(document)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length === 0) return;
        this.checkSoon(event.document);
        // The documents importing it read its unsaved text (python-modules.ts).
        this.checkDependents(event.document.uri, (d) => this.checkSoon(d));
      }),
      vscode.workspace.onDidSaveTextDocument((document) => {
        forgetModuleText(document.uri);
        this.checkNow(document);
        this.checkDependents(document.uri, (d) => this.checkNow(d));
      }),
      vscode.workspace.onDidCloseTextDocument((document) => {
        this.forget(document.uri);
        // Closed unsaved, a module is its file again for the documents importing it.
        this.checkDependents(document.uri, (d) => this.checkSoon(d));
      }),
    );
    for (const document of vscode.workspace.textDocuments) this.checkNow(document);
  }

  /** Checks a document at once (open, save, and documents already open at activation). */
  checkNow(document: vscode.TextDocument): void {
    if (!isChecked(document)) return;
    this.cancelPending(document.uri);
    this.check(document);
  }

  private checkSoon(document: vscode.TextDocument): void {
    if (!isChecked(document)) {
      // A Python file that stops holding a @triton.jit kernel keeps no stale squiggles.
      if (document.uri.path.endsWith(".py")) this.collection.delete(document.uri);
      return;
    }
    const key = document.uri.toString();
    this.cancelPending(document.uri);
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        if (!document.isClosed) this.check(document);
      }, DEBOUNCE_MS),
    );
  }

  private check(document: vscode.TextDocument): void {
    // A Python file's imports are read through the workspace first (asynchronously): its calls to
    // other modules' @triton.jit functions are checked in their files.
    if (!isKernelDocument(document) && !exerciseNamed(pythonExerciseId(document.getText()) ?? "")) {
      const version = document.version;
      readWithModules(document, this.pythonLibrary).then(
        (read) => {
          if (document.isClosed || document.version !== version) return;
          this.dependents.record(document.uri.toString(), read.lookedAt.map((uri) => uri.toString()));
          this.show(document, () => pythonCompiler().checkPython(read.file), read.uris);
        },
        (error: unknown) => this.show(document, () => {
          throw error;
        }),
      );
      return;
    }
    this.show(document, () => (isKernelDocument(document) ? compiler().checkFile(document.fileName, document.getText()) : checkPython(document.fileName, document.getText())));
  }

  private show(document: vscode.TextDocument, check: () => KernelDiagnostic[], uris?: ReadonlyMap<string, vscode.Uri>): void {
    const started = performance.now();
    try {
      const found = check();
      this.collection.set(document.uri, found.map((d) => toVscode(document, d, uris)));
      this.fixes.set(document.uri.toString(), {
        version: document.version,
        diagnostics: found.flatMap((d) => (d.fixes ? [{ code: d.code, span: d.span, fixes: d.fixes }] : [])),
      });
      this.log.debug(`checked ${vscode.workspace.asRelativePath(document.uri)} v${document.version}: ${found.length} diagnostic(s) in ${(performance.now() - started).toFixed(1)} ms`);
    } catch (error) {
      this.log.error(`internal error while checking ${document.fileName}:`, error instanceof Error ? (error.stack ?? error.message) : String(error));
      const message = `Kernel Lab could not check this file: ${error instanceof Error ? error.message : String(error)}. This is a bug in Kernel Lab; the "Kernel Lab" output has the details.`;
      const diagnostic = new vscode.Diagnostic(new vscode.Range(0, 0, 0, 0), message, vscode.DiagnosticSeverity.Error);
      diagnostic.code = INTERNAL_ERROR_CODE;
      diagnostic.source = DIAGNOSTIC_SOURCE;
      this.collection.set(document.uri, [diagnostic]);
    }
  }

  /** The fixes of the document's diagnostics, if they were computed for its current text. */
  fixesOf(document: vscode.TextDocument): DocumentFixes | undefined {
    const known = this.fixes.get(document.uri.toString());
    return known && known.version === document.version ? known : undefined;
  }

  /** Checks again (`how`) each open document whose last check read the module at `uri`. */
  private checkDependents(uri: vscode.Uri, how: (document: vscode.TextDocument) => void): void {
    for (const dependent of this.dependents.dependentsOf(uri.toString())) {
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === dependent);
      if (document && !document.isClosed) how(document);
    }
  }

  private forget(uri: vscode.Uri): void {
    this.dependents.forget(uri.toString());
    this.cancelPending(uri);
    this.collection.delete(uri);
    this.fixes.delete(uri.toString());
  }

  private cancelPending(uri: vscode.Uri): void {
    const key = uri.toString();
    const timer = this.pending.get(key);
    if (timer) clearTimeout(timer);
    this.pending.delete(key);
  }

  dispose(): void {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    for (const s of this.subscriptions) s.dispose();
  }
}

/** A Python exercise is checked with its exercise's parameter types (python/exercise.ts); any other file as `kernel-lab check` does. */
function checkPython(fileName: string, text: string): KernelDiagnostic[] {
  const exercise = exerciseNamed(pythonExerciseId(text) ?? "");
  return exercise ? checkPythonExercise(exercise, fileName, text) : pythonCompiler().checkPythonFile(fileName, text);
}

/**
 * Spans are UTF-16 offsets, as `document.positionAt` expects. A mistake inside another module's
 * function (`origin`) squiggles the call that leads there, the helper's place in front of the message
 * and as its related location (`uris`: the modules read, by the file name the diagnostic carries).
 */
function toVscode(document: vscode.TextDocument, d: KernelDiagnostic, uris?: ReadonlyMap<string, vscode.Uri>): vscode.Diagnostic {
  const range = (span: Span) => new vscode.Range(document.positionAt(span.start), document.positionAt(span.end));
  const message = d.origin ? `${vscode.workspace.asRelativePath(uris?.get(d.origin.file) ?? d.origin.file)}:${d.origin.line}:${d.origin.column}: ${d.message}` : d.message;
  const diagnostic = new vscode.Diagnostic(range(d.span), message, SEVERITY[d.severity]);
  diagnostic.code = d.code;
  diagnostic.source = DIAGNOSTIC_SOURCE;
  const elsewhere = d.origin && uris?.get(d.origin.file);
  if (d.origin && elsewhere) {
    const at = new vscode.Range(d.origin.line - 1, d.origin.column - 1, d.origin.endLine - 1, d.origin.endColumn - 1);
    diagnostic.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(elsewhere, at), `${d.message} (inside the function this line calls)`)];
  } else if (d.related && d.related.length > 0) {
    diagnostic.relatedInformation = d.related.map(
      (r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(document.uri, range(r.span)), r.message),
    );
  }
  return diagnostic;
}

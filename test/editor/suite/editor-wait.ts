// Waiting on the editor: diagnostics and panels update asynchronously (debounced checks, a
// webview in another page), so tests poll with a deadline and say what they last saw.
import * as vscode from "vscode";

export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined && value !== false) return value as T;
    last = value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
}

export function kernelLabDiagnostics(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === "kernel-lab");
}

export function describeDiagnostics(diagnostics: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(
    diagnostics.map((d) => ({
      code: typeof d.code === "object" ? d.code.value : d.code,
      range: `${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1}`,
      message: d.message,
    })),
  );
}

/** The range of the `occurrence`-th (0-based) appearance of `snippet` in the document. */
export function rangeOf(document: vscode.TextDocument, snippet: string, occurrence = 0): vscode.Range {
  const text = document.getText();
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = text.indexOf(snippet, at + 1);
    if (at < 0) throw new Error(`fixture ${document.fileName} has no ${JSON.stringify(snippet)} (occurrence ${occurrence})`);
  }
  return new vscode.Range(document.positionAt(at), document.positionAt(at + snippet.length));
}

export async function openFixture(relativePath: string): Promise<vscode.TextDocument> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error("the test run has no workspace folder");
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, relativePath));
  await vscode.window.showTextDocument(document, { preview: false });
  return document;
}

// Keystroke to diagnostics, measured in the extension host: for each example, N times, put the
// cursor before a `tl.` call inside a kernel, type one character through the `type` command
// (the command a key press runs in the editor: it edits the model in the window, which syncs the
// document to this host), and time until vscode.languages.getDiagnostics shows a kernel-lab
// error; then `undo`, and time until they are gone. Nothing is saved: undo brings each file back
// to its saved text, and it is reverted and closed at the end.
import * as vscode from "vscode";
import type { KernelLabApi } from "../../../src/editor/extension";
import { extensionId, kernelLabDiagnostics, readConfig, repoRoot, sleep, until, writeResult } from "./common";

interface Config {
  insert: string;
  edits: number;
  /** Pause before each edit, so each one starts from a quiet editor. */
  settleMs: number;
  files: { file: string; sites: number[] }[];
}

interface Sample {
  site: number;
  /** The `type` command's round trip (the edit applied in the window and synced here). */
  typedMs: number;
  /** From issuing the keystroke to a kernel-lab error in getDiagnostics. */
  showMs: number;
  /** From issuing `undo` to no kernel-lab diagnostics. */
  clearMs: number;
}

export async function run(): Promise<void> {
  const config = readConfig<Config>();
  const extension = vscode.extensions.getExtension<KernelLabApi>(extensionId)!;
  await extension.activate();
  const results: { file: string; samples: Sample[]; error?: string }[] = [];
  for (const { file, sites } of config.files) {
    const uri = vscode.Uri.file(`${repoRoot}/${file}`);
    const document = await vscode.workspace.openTextDocument(uri);
    const editor = await vscode.window.showTextDocument(document, { preview: false });
    const samples: Sample[] = [];
    const entry: { file: string; samples: Sample[]; error?: string } = { file, samples };
    results.push(entry);
    try {
      await sleep(1000); // the check on open, and TypeScript's first look at the file
      if (kernelLabDiagnostics(uri).length > 0) throw new Error(`${file} has kernel-lab diagnostics before any edit`);
      // One edit first that is not counted (the TypeScript server's first look at the file competes for the CPU).
      for (let i = -1; i < config.edits; i++) {
        const site = sites[Math.max(i, 0) % sites.length];
        const at = document.positionAt(site);
        editor.selection = new vscode.Selection(at, at);
        await sleep(config.settleMs);
        const version = document.version;
        const t0 = performance.now();
        await vscode.commands.executeCommand("type", { text: config.insert });
        const typed = performance.now();
        if (document.version === version) throw new Error(`the keystroke did not change ${file}`);
        const shown = await until(`a kernel-lab error on ${file}`, () => kernelLabDiagnostics(uri).some((d) => d.severity === vscode.DiagnosticSeverity.Error));
        await sleep(config.settleMs);
        const t1 = performance.now();
        await vscode.commands.executeCommand("undo");
        const cleared = await until(`the diagnostics of ${file} to clear`, () => kernelLabDiagnostics(uri).length === 0);
        if (document.isDirty) throw new Error(`undo left ${file} different from its saved text`);
        if (i >= 0) samples.push({ site, typedMs: typed - t0, showMs: shown - t0, clearMs: cleared - t1 });
      }
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
    }
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  }
  writeResult("keystroke", { insert: config.insert, settleMs: config.settleMs, files: results });
}

// The commands behind the walkthrough's buttons (contributes.walkthroughs, "Kernel Lab: your
// first GPU kernel"): write a vector add into the workspace and open it, run it, take its masks
// out (to see the KL2075 warnings and a run's out-of-bounds report), open the quick fixes that put
// them back, and sweep it (the speed-of-light line and the roofline). A walkthrough's page is the
// active editor when its buttons are clicked, so each command names the tour's file itself.

import * as vscode from "vscode";
import { DIAGNOSTIC_SOURCE } from "./diagnostics";

export const TOUR_FILE = ["kernel-lab-tour", "vector-add.kernel.ts"] as const;

const VECTOR_ADD = `// Vector add, Triton's first tutorial, in Kernel Lab (the walkthrough "Kernel Lab: your first GPU kernel").
// Each program instance adds one block of BLOCK_SIZE elements: its offsets are
// pid * BLOCK_SIZE + [0, 1, …, BLOCK_SIZE - 1], and the mask keeps the last block inside the arrays.
import { kernel, tl, defineRun, rand, empty, cdiv, builtins } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";

export const add_kernel = kernel(function add_kernel(
  x_ptr: Ptr<f32>, y_ptr: Ptr<f32>, output_ptr: Ptr<f32>, n_elements: i32, BLOCK_SIZE: constexpr,
) {
  const pid = tl.programId(0);
  const offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE);
  const mask = offsets < n_elements;
  const x = tl.load(x_ptr + offsets, mask);
  const y = tl.load(y_ptr + offsets, mask);
  tl.store(output_ptr + offsets, x + y, mask);
});

// Run checks the first size against the reference and times it; Sweep runs every size.
export const vectorAdd = defineRun({
  kernel: add_kernel,
  sizes: [98432, 1 << 20, 1 << 22],
  constexprs: { BLOCK_SIZE: 1024 },
  grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)],
  args: (n) => ({ x_ptr: rand(n), y_ptr: rand(n), output_ptr: empty(n), n_elements: n }),
  outputs: ["output_ptr"],
  reference: ({ x_ptr, y_ptr }) => ({ output_ptr: x_ptr.map((v, i) => v + y_ptr[i]) }),
  bytes: (n) => 12 * n,
  baseline: builtins.add,
});
`;

/** The tour's file in the first workspace folder; undefined (and the user told) without a folder. */
function tourFile(): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    const open = "Open Folder";
    void vscode.window
      .showErrorMessage("Kernel Lab: open a folder first; the walkthrough writes its vector add into it (kernel-lab-tour/).", open)
      .then((choice) => choice === open && vscode.commands.executeCommand("workbench.action.files.openFolder"));
    return undefined;
  }
  return vscode.Uri.joinPath(folder.uri, ...TOUR_FILE);
}

/** Writes the vector add unless it is there (the learner's changes are kept), and opens it. */
export async function openVectorAdd(): Promise<{ uri: string; created: boolean } | undefined> {
  const uri = tourFile();
  if (!uri) return undefined;
  let created = false;
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, ".."));
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(VECTOR_ADD));
    created = true;
  }
  await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.One });
  return { uri: uri.toString(), created };
}

/** Runs (or sweeps) the tour's file, opening it first. */
export async function runVectorAdd(mode: "run" | "sweep"): Promise<unknown> {
  const opened = await openVectorAdd();
  if (!opened) return undefined;
  return vscode.commands.executeCommand(mode === "run" ? "kernelLab.runKernel" : "kernelLab.sweepKernel", vscode.Uri.parse(opened.uri), "vectorAdd");
}

/** Takes the masks out of the tour's loads and store (unsaved: Run saves it). Returns how many. */
export async function removeMasks(): Promise<number> {
  const opened = await openVectorAdd();
  if (!opened) return 0;
  const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(opened.uri));
  const text = document.getText();
  const edit = new vscode.WorkspaceEdit();
  let removed = 0;
  for (const m of text.matchAll(/(tl\.(?:load|store)\([^;]*?), mask\)/g)) {
    const at = m.index + m[1].length;
    edit.delete(document.uri, new vscode.Range(document.positionAt(at), document.positionAt(at + ", mask".length)));
    removed++;
  }
  if (removed > 0) await vscode.workspace.applyEdit(edit);
  void vscode.window.showInformationMessage(
    removed > 0
      ? `Kernel Lab: took the mask out of ${removed} tl.load/tl.store. The compiler warns (KL2075); run it to see where the last program reads past the end.`
      : "Kernel Lab: the tour's loads and store have no mask to take out; run it as it is.",
  );
  return removed;
}

/** Puts the cursor on the tour's first Kernel Lab warning and opens its quick fixes. */
export async function showQuickFixes(): Promise<boolean> {
  const opened = await openVectorAdd();
  if (!opened) return false;
  const uri = vscode.Uri.parse(opened.uri);
  const first = vscode.languages.getDiagnostics(uri).find((d) => d.source === DIAGNOSTIC_SOURCE);
  if (!first) {
    void vscode.window.showInformationMessage("Kernel Lab: the tour's file has no warning to fix: every access has its mask.");
    return false;
  }
  const editor = await vscode.window.showTextDocument(uri, { preview: false, viewColumn: vscode.ViewColumn.One });
  editor.selection = new vscode.Selection(first.range.start, first.range.start);
  editor.revealRange(first.range);
  await vscode.commands.executeCommand("editor.action.quickFix");
  return true;
}

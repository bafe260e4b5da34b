// The modules beside a Python document that it imports, read through the workspace (vscode.workspace.fs:
// the disk on the desktop, the remote or virtual file system in VS Code for the Web), so the live
// diagnostics check a kernel's calls to another module's @triton.jit functions as `kernel-lab check`
// does (src/cli/main.ts) instead of reporting them as KL1150. A document inside a package (its folder
// holds an __init__.py) is read as that package's module: its relative imports resolve. A module open
// in the editor is read from its document (its unsaved edits); any other from the file, kept between
// checks while its mtime and size stay (module-texts.ts).

import * as vscode from "vscode";
import { exists } from "./file-exists";
import type { PythonFile } from "../python";
import { pythonCompiler } from "./compiler";
import { ModuleTexts } from "./module-texts";

const texts = new ModuleTexts({
  stat: async (uri) => {
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(uri));
      return stat.type & vscode.FileType.File ? { mtime: stat.mtime, size: stat.size } : undefined;
    } catch {
      return undefined;
    }
  },
  read: async (uri) => new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(uri))),
});

/** A document was saved: the next check reads its file again (a file system may keep only whole seconds of mtime). */
export function forgetModuleText(uri: vscode.Uri): void {
  texts.forget(uri.toString());
}

/** Kernel Lab's Python modules in the extension (dist/python-lib/, also in the web package): where KERNEL_LAB_MODULES are read from. */
export function pythonLibrary(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, "dist", "python-lib");
}

/** Packages nest only so deep; a deeper chain of __init__.py files is not one program's. */
const MAX_DEPTH = 32;

export interface PythonWithModules {
  file: PythonFile;
  /** The modules read, by the file name their diagnostics carry: where a related location points. */
  uris: Map<string, vscode.Uri>;
  /** Every module file looked for, found or not: a change to any of them changes this check (module-dependents.ts). */
  lookedAt: vscode.Uri[];
}

function parent(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(uri, "..");
}

/**
 * The document read as Python, its imported modules beside it read too, and Kernel Lab's own that it
 * imports (KERNEL_LAB_MODULES, from `pythonLibrary`). A module name's file is
 * shown as `fsPath` (a path on the desktop; the Uri's path in a browser), as `check` shows its path.
 */
export async function readWithModules(document: vscode.TextDocument, pythonLibrary: vscode.Uri): Promise<PythonWithModules> {
  const python = pythonCompiler();
  const uris = new Map<string, vscode.Uri>();
  const lookedAt: vscode.Uri[] = [];
  let folder = parent(document.uri);
  const base = document.uri.path.slice(document.uri.path.lastIndexOf("/") + 1);
  const names = base === "__init__.py" ? [] : [base.replace(/\.py$/, "")];
  let depth = 0;
  while (depth++ < MAX_DEPTH && folder.path !== "/" && (await exists(vscode.Uri.joinPath(folder, "__init__.py")))) {
    names.unshift(folder.path.slice(folder.path.lastIndexOf("/") + 1));
    folder = parent(folder);
  }
  const inPackage = depth > 1;
  const file = python.readPythonFile(document.fileName, document.getText(), inPackage ? names.join(".") : undefined);
  const imports = file.imports;
  if (imports.modules.size === 0 && imports.imported.size === 0) return { file, uris, lookedAt };
  await python.readImportedModules(file, async (module) => {
    const parts = module.split(".");
    const candidates = [vscode.Uri.joinPath(folder, ...parts, "__init__.py"), vscode.Uri.joinPath(folder, ...parts.slice(0, -1), `${parts[parts.length - 1]}.py`)];
    for (const uri of candidates) {
      lookedAt.push(uri);
      let text: string | undefined;
      try {
        text = openText(uri) ?? (await texts.text(uri.toString()));
      } catch {
        // Unreadable: as if not there.
      }
      // Not there: the next candidate; none is KL1150 at the call, as in `check`.
      if (text === undefined) continue;
      const shown = uri.scheme === "file" ? uri.fsPath : uri.path;
      uris.set(shown, uri);
      return { file: shown, text };
    }
    // Kernel Lab's own module (torch._inductor's triton_helpers), where no file of the name is beside the document.
    const own = python.KERNEL_LAB_MODULES.get(module);
    if (!own) return undefined;
    const uri = vscode.Uri.joinPath(pythonLibrary, ...own);
    const text = await ownModuleText(uri);
    if (text === undefined) return undefined;
    const shown = uri.scheme === "file" ? uri.fsPath : uri.path;
    uris.set(shown, uri);
    return { file: shown, text };
  });
  return { file, uris, lookedAt };
}

/** Kernel Lab's own modules, read once (they change only with the extension): by readFile, which the web's extension resources answer, as web-workers.ts reads them. */
const ownModules = new Map<string, Promise<string | undefined>>();

function ownModuleText(uri: vscode.Uri): Promise<string | undefined> {
  let text = ownModules.get(uri.toString());
  if (!text) {
    text = Promise.resolve(vscode.workspace.fs.readFile(uri)).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => undefined,
    );
    ownModules.set(uri.toString(), text);
  }
  return text;
}

/** An open document's text (its unsaved edits) rather than the file's. */
function openText(uri: vscode.Uri): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())?.getText();
}

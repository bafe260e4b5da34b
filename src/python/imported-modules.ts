// `kernel-lab check FILE.py` runs no Python, so the modules a run would send (lib/_kernel_lab_imports.py)
// are read here instead, as Python would find them beside the script: each dotted name the file
// imports (`import pkg.mod as m`, `from pkg import mod`, `from mod import helper`, and inside a package
// `from . import utils`, `from ..ops import x`) and theirs in turn.
// The reader is the caller's (the command line reads the file system, the editor the workspace's).

import { absoluteModule, readFunctionAliases, readPythonFile, type PythonFile } from "./module";

/** A module's text by its dotted name (`pkg.mod` → FOLDER/pkg/mod/__init__.py or FOLDER/pkg/mod.py), or undefined; the editor's reads are asynchronous. */
export type ModuleReader = (module: string) => { file: string; text: string } | undefined | Promise<{ file: string; text: string } | undefined>;

/** A Python program imports few modules of its own: more than this is a folder that isn't one program's. */
const MAX_MODULES = 64;

/** Fills `file.modules` with the modules beside it that it imports, read by `read`. */
export async function readImportedModules(file: PythonFile, read: ModuleReader): Promise<void> {
  const tried = new Set<string>();
  const pending = [file];
  while (pending.length > 0 && file.modules.size < MAX_MODULES) {
    const from = pending.pop()!;
    // `from .sum import *` (trident's language/__init__.py) too.
    for (const written of [...from.imports.modules.values(), ...from.imports.dotted, ...[...from.imports.imported.values()].map((i) => i.module), ...from.imports.star]) {
      // `from ..utils import helper` inside a package module: as Python resolves it (the script's own relative imports don't).
      const name = absoluteModule(from, written);
      if (name === undefined || tried.has(name)) continue;
      tried.add(name);
      const found = await read(name);
      if (!found) continue;
      const module = readPythonFile(found.file, found.text, name);
      file.modules.set(name, module);
      pending.push(module);
    }
  }
  // Until nothing changes: a math module re-exported through a package's __init__ (FlagGems: ops/norm.py imports
  // tl_extra_shim from flag_gems.utils, which imports it from flag_gems.utils.triton_lang_helper) reaches the importer.
  for (let changed = true; changed; ) {
    changed = false;
    for (const from of [file, ...file.modules.values()]) changed = importMathNames(from, file.modules) || changed;
  }
}

/**
 * Modules Kernel Lab itself provides whose @triton.jit functions kernels call: torch.compile's generated
 * kernels call torch._inductor's triton_helpers (`triton_helpers.max2(…)`, `libdevice.rsqrt(…)` imported
 * from it). Where no file beside the script has the name, `check` and the editor read these from Kernel
 * Lab's Python library (src/harness/python/lib/, dist/python-lib/ in the bundle), where a run imports
 * them from. Dotted name → the file's path under that folder; torch ≤ 2.3's files import the helpers
 * from torch._inductor itself.
 */
export const KERNEL_LAB_MODULES: ReadonlyMap<string, readonly string[]> = new Map([
  ["torch._inductor.runtime.triton_helpers", ["torch", "_inductor", "runtime", "triton_helpers.py"]],
  ["torch._inductor.triton_helpers", ["torch", "_inductor", "runtime", "triton_helpers.py"]],
]);

/** `from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math`: names the module read binds to a math module are math modules here too. */
function importMathNames(file: PythonFile, modules: ReadonlyMap<string, PythonFile>): boolean {
  let added = false;
  for (const [local, { module, name }] of file.imports.imported) {
    const absolute = absoluteModule(file, module);
    if (absolute !== undefined && modules.get(absolute)?.imports.math.has(name) && !file.imports.math.has(local)) {
      file.imports.math.add(local);
      added = true;
    }
  }
  // Names bound to its functions (`rsqrt = math_shim.rsqrt`, FlagGems' groupnorm.py) are aliases now too.
  if (added) readFunctionAliases(file.text, file.tree.topNode, file.imports);
  return added;
}

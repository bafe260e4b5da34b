// Which checked Python documents read which module files in their last live check
// (python-modules.ts), so that saving, editing or closing a module re-checks the documents that
// import it: their diagnostics come from the module's text (a mistake inside its @triton.jit helper,
// a helper it lacks), and without this they would stay as the module was when they were last checked.
// A file a check looked for and didn't find counts too, so creating the missing module clears the
// KL1150 of the documents that wanted it. Keys are URIs as strings; no `vscode` import, so the unit
// tests drive it directly.

export class ModuleDependents {
  /** Document → the module files its last check looked at. */
  private readonly modulesOf = new Map<string, ReadonlySet<string>>();

  /** A check of `document` read (or looked for) these module files; replaces what its last check read. */
  record(document: string, modules: Iterable<string>): void {
    const read = new Set(modules);
    read.delete(document);
    if (read.size === 0) this.modulesOf.delete(document);
    else this.modulesOf.set(document, read);
  }

  /** The document was closed: it depends on nothing any more. */
  forget(document: string): void {
    this.modulesOf.delete(document);
  }

  /** The documents whose last check read `module` (never `module` itself). */
  dependentsOf(module: string): string[] {
    return [...this.modulesOf].filter(([, modules]) => modules.has(module)).map(([document]) => document);
  }
}

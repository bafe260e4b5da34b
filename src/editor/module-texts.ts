// The texts of the modules a Python document's live check reads beside it (python-modules.ts), kept
// between checks: a check runs on every pause in typing, and re-reading each imported module each
// time (through the workspace's file system: a remote or virtual one in VS Code for the Web) costs
// more than the check. An entry is keyed by the file's URI and holds the modification time and size
// it was read at; each check asks for the file's stat (one call, no read) and reads again only where
// those changed, so an edit made outside the editor is seen too. A save in the editor forgets the
// entry (a file system may keep whole seconds of mtime). An open document's unsaved text is not
// asked for here: python-modules.ts takes it from the document. No `vscode` import, so the unit
// tests drive it with a file system of their own.

/** What the cache asks of a file system; `stat` gives undefined for a file that isn't there. */
export interface ModuleFileSystem {
  stat(uri: string): Promise<{ mtime: number; size: number } | undefined>;
  read(uri: string): Promise<string>;
}

/** More files than one program imports: beyond it the entry read longest ago goes. */
const MAX_ENTRIES = 256;

export class ModuleTexts {
  private readonly entries = new Map<string, { mtime: number; size: number; text: string }>();

  constructor(private readonly fs: ModuleFileSystem) {}

  /** The file's text, read again only where its mtime or size changed; undefined where it isn't there. */
  async text(uri: string): Promise<string | undefined> {
    const stamp = await this.fs.stat(uri);
    if (!stamp) {
      this.entries.delete(uri);
      return undefined;
    }
    const known = this.entries.get(uri);
    if (known && known.mtime === stamp.mtime && known.size === stamp.size) return known.text;
    const text = await this.fs.read(uri);
    this.entries.delete(uri);
    this.entries.set(uri, { ...stamp, text });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    return text;
  }

  /** The file was saved (or changed) in the editor: the next check reads it again. */
  forget(uri: string): void {
    this.entries.delete(uri);
  }

  get size(): number {
    return this.entries.size;
  }
}

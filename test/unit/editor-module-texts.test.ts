// The editor's cache of the modules a Python document imports (src/editor/module-texts.ts): a live
// check re-reads a module only where its mtime or size changed, or after a save; a missing file is
// undefined and drops its entry. Driven by a file system of the test's own that counts its reads.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ModuleTexts, type ModuleFileSystem } from "../../src/editor/module-texts";

function fileSystem(files: Map<string, { mtime: number; text: string }>) {
  const reads: string[] = [];
  const fs: ModuleFileSystem = {
    stat: async (uri) => {
      const f = files.get(uri);
      return f && { mtime: f.mtime, size: f.text.length };
    },
    read: async (uri) => {
      reads.push(uri);
      const f = files.get(uri);
      if (!f) throw new Error(`ENOENT ${uri}`);
      return f.text;
    },
  };
  return { fs, reads };
}

test("a module is read once while its mtime and size stay; again after it changes, is saved (forget) or comes back", async () => {
  const files = new Map([["file:///w/helpers.py", { mtime: 1, text: "A = 1\n" }]]);
  const { fs, reads } = fileSystem(files);
  const texts = new ModuleTexts(fs);
  for (let i = 0; i < 3; i++) assert.equal(await texts.text("file:///w/helpers.py"), "A = 1\n");
  assert.equal(reads.length, 1, "three checks, one read");

  // Changed outside the editor: a new mtime (or size) is read again.
  files.set("file:///w/helpers.py", { mtime: 2, text: "A = 2\n" });
  assert.equal(await texts.text("file:///w/helpers.py"), "A = 2\n");
  files.set("file:///w/helpers.py", { mtime: 2, text: "A = 22\n" });
  assert.equal(await texts.text("file:///w/helpers.py"), "A = 22\n");
  assert.equal(reads.length, 3);

  // Saved within the same mtime and size (a file system with whole seconds): forget makes the next check read it.
  files.set("file:///w/helpers.py", { mtime: 2, text: "A = 33\n" });
  assert.equal(await texts.text("file:///w/helpers.py"), "A = 22\n", "same stamp: the cached text");
  texts.forget("file:///w/helpers.py");
  assert.equal(await texts.text("file:///w/helpers.py"), "A = 33\n");
  assert.equal(reads.length, 4);

  // Deleted: undefined, and its entry goes; created again with the old stamp: read again, not the stale text.
  files.delete("file:///w/helpers.py");
  assert.equal(await texts.text("file:///w/helpers.py"), undefined);
  assert.equal(texts.size, 0);
  files.set("file:///w/helpers.py", { mtime: 2, text: "B = 0\n" });
  assert.equal(await texts.text("file:///w/helpers.py"), "B = 0\n");
  assert.equal(reads.length, 5);
});

test("a missing candidate (pkg/__init__.py before pkg.py) is never read, and entries are per URI", async () => {
  const files = new Map([["file:///w/a.py", { mtime: 1, text: "a" }], ["file:///w/b.py", { mtime: 1, text: "b" }]]);
  const { fs, reads } = fileSystem(files);
  const texts = new ModuleTexts(fs);
  assert.equal(await texts.text("file:///w/a/__init__.py"), undefined);
  assert.equal(await texts.text("file:///w/a.py"), "a");
  assert.equal(await texts.text("file:///w/b.py"), "b");
  assert.equal(await texts.text("file:///w/a.py"), "a");
  assert.deepEqual(reads, ["file:///w/a.py", "file:///w/b.py"]);
});

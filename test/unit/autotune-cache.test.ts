// The autotuner's cache file when it is damaged (src/harness/autotune/autotune-cache.ts): never a
// failed run, a warning once, then a file that holds the new choice. The command line's run on a
// damaged file (the warning on stderr, tuned afresh, rewritten) is test/cli/autotune.test.ts; each
// damage here would cost it a whole tuning on the GPU, and the code reading the file is the same.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { lookupChoice, storeChoice, type CachedChoice } from "../../src/harness/autotune/autotune-cache";
import { host } from "../../src/runtime/host";

const BUILD = "0.1.0+0123456789ab";
const choice: CachedChoice = {
  run: "tuned", kernel: "scale_kernel", size: 777, adapter: "lavapipe", picked: { BLOCK: 512 },
  candidates: [{ constexprs: { BLOCK: 128 }, medianMs: null, correct: false, note: "does not match the reference" }, { constexprs: { BLOCK: 512 }, medianMs: 0.01, correct: true }],
  date: new Date(0).toISOString(),
};

/** What the cache code said through host.warn (stderr in the CLI) while `body` ran. */
function said(body: () => void): string[] {
  const lines: string[] = [];
  const warn = host.warn;
  host.warn = (line) => void lines.push(line);
  try {
    body();
  } finally {
    host.warn = warn;
  }
  return lines;
}

for (const [damage, kept] of [["{ not json", false], ["[]", false], ['{"version":99,"entries":{}}', false], ['{"version":1,"entries":{"x":1}}', true]] as const) {
  test(`a cache file ${damage}: ${kept ? "parses, so someone else's entry is kept and ours added" : "ignored with one warning, then rewritten with the new choice"}`, () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kl-autotune-cache-"));
    const file = path.join(dir, "autotune.json");
    writeFileSync(file, damage);
    const lines = said(() => {
      assert.equal(lookupChoice("ours", file, BUILD), undefined, "nothing to reuse");
      storeChoice("ours", choice, file, BUILD);
    });
    const entries = JSON.parse(readFileSync(file, "utf8")).entries;
    if (kept) {
      assert.deepEqual(lines, []);
      assert.deepEqual(Object.keys(entries), ["x", "ours"]);
    } else {
      // Once per file and process, though both the look-up and the store read it.
      assert.equal(lines.length, 1, lines.join("\n"));
      assert.match(lines[0], /^kernel-lab: warning: ignoring the autotune cache .*autotune\.json: .*\. It will be rewritten\.$/);
      assert.deepEqual(Object.keys(entries), ["ours"]);
    }
    assert.deepEqual(entries.ours, { ...choice, build: BUILD });
    assert.deepEqual(lookupChoice("ours", file, BUILD), { ...choice, build: BUILD }, "the rewritten file is read back");
    assert.deepEqual(readdirSync(dir), ["autotune.json"], "written atomically: no temporary left behind");
  });
}

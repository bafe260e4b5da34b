// The editor's record of which Python documents read which modules (src/editor/module-dependents.ts):
// a module's save re-checks exactly the documents whose last check read it, or looked for it and
// found nothing; a new check replaces what the last one read; a closed document depends on nothing.
// The real editor's side (a save clearing a dependent's diagnostic) is in
// test/editor/suite/trusted/diagnostics.test.ts.

import { test } from "node:test";
import assert from "node:assert/strict";
import { ModuleDependents } from "../../src/editor/module-dependents";

const KERNEL = "file:///w/kernel.py";
const OTHER = "file:///w/other.py";
const HELPERS = "file:///w/pkg/helpers.py";
const UTILS = "file:///w/pkg/utils.py";
const MISSING = "file:///w/absent.py";

test("a module's dependents are the documents whose last check read it or looked for it", () => {
  const deps = new ModuleDependents();
  assert.deepEqual(deps.dependentsOf(HELPERS), []);
  deps.record(KERNEL, [HELPERS, UTILS, MISSING]);
  deps.record(OTHER, [UTILS]);
  assert.deepEqual(deps.dependentsOf(HELPERS), [KERNEL]);
  assert.deepEqual(deps.dependentsOf(UTILS).sort(), [KERNEL, OTHER]);
  assert.deepEqual(deps.dependentsOf(MISSING), [KERNEL], "creating a module a check looked for re-checks the document");
  assert.deepEqual(deps.dependentsOf(KERNEL), [], "nothing imports the kernel script");
});

test("a new check replaces what the last one read; a closed document and a document's own file are no dependents", () => {
  const deps = new ModuleDependents();
  deps.record(KERNEL, [HELPERS, UTILS]);
  deps.record(KERNEL, [UTILS]);
  assert.deepEqual(deps.dependentsOf(HELPERS), [], "the import of helpers was removed");
  assert.deepEqual(deps.dependentsOf(UTILS), [KERNEL]);
  deps.record(HELPERS, [HELPERS, UTILS]);
  assert.deepEqual(deps.dependentsOf(HELPERS), [], "a module is not its own dependent");
  deps.forget(KERNEL);
  assert.deepEqual(deps.dependentsOf(UTILS), [HELPERS]);
  deps.record(HELPERS, []);
  assert.deepEqual(deps.dependentsOf(UTILS), []);
});

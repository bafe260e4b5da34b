// An endless `while (n > 0) {}` on the command line with --cpu: the interpreter's step budget stops
// it with KL3102 at the while statement (exit 4) instead of hanging. (The GPU side, stopped by the
// run's timeout, is test/cli/faults.test.ts's.)

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { ensureBuilt, root } from "./build";

process.env.XDG_RUNTIME_DIR ??= "/tmp";
const ENDLESS_WHILE = path.join(root, "test/fixtures/endless-while.kernel.ts");

before(ensureBuilt);

test("kernel-lab run --cpu stops an endless while (n > 0) {} at the step budget: KL3102 at the while, exit 4", () => {
  // The default budget, 5e8 steps, takes about 40 s on one slow core: --max-steps makes it 5e6.
  // The spawn's timeout turns a hang into a failure.
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "run", ENDLESS_WHILE, "--cpu", "--json", "--max-steps", "5000000"], { cwd: root, env: process.env, encoding: "utf8", timeout: 150_000 });
  assert.equal(r.signal, null, "the run hung and was killed");
  assert.equal(r.status, 4, r.stderr);
  const [d] = JSON.parse(r.stdout).diagnostics;
  assert.equal(d.code, "KL3102");
  assert.match(d.message, /^Run 'endlessWhile': spin_while: kernel did not finish after 5000000 steps \(endless loop\?\) in program \(0, 0, 0\)/);
  assert.deepEqual([d.line, d.column, d.endLine, d.endColumn], [9, 3, 9, 19]); // while (n > 0) {}
});

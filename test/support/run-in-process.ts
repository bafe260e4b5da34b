// Test support: what `kernel-lab run FILE --json` prints and exits with, run in the test's own
// process. A spawned CLI pays ~0.5 s of CPU before it starts (Node, TypeScript's 9 MB, the bundle)
// and opens its own GPU device; a test file that runs dozens of files (the learner and as-written
// fixtures) pays that once this way. The command line itself (arguments, exit codes, stdout) is
// tested by spawning it, in test/cli/run.test.ts and the others.

import { mkdtempSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { runFileWithOutcome } from "../../src/harness/run/run";
import { EXIT_CODES } from "../../src/harness/report";
import type { RunOptions } from "../../src/harness/session";

const root = path.resolve(__dirname, "../..");

/** The report as `--json` prints it (through JSON, so NaN reads null as there) and the exit code the CLI would give. */
export async function runJson(file: string, opts: RunOptions): Promise<{ code: number; report: any }> {
  const { report, outcome } = await runFileWithOutcome(path.resolve(root, file), opts);
  return { code: EXIT_CODES[outcome], report: JSON.parse(JSON.stringify(report)) };
}

/** runJson on a kernel file written from `source` into a fresh temporary folder as `name`. */
export async function runSourceJson(name: string, source: string, opts: RunOptions): Promise<{ code: number; report: any }> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "kernel-lab-test-")), name);
  writeFileSync(file, source);
  return runJson(file, opts);
}

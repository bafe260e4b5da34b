// Builds dist/ once per test session, even when the runner runs test files in parallel:
// the first process to take the lock builds; the others wait for it to finish. A session is the
// test runner, the parent of every test file's process: once its build is done, a file that
// starts later must not build again, since rewriting dist/cli.js while another file's tests
// start it gives them half a file (CI, stop 25: "SyntaxError: Unexpected end of input").

import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";

export const root = path.resolve(__dirname, "../..");
const lock = path.join(root, "dist", ".test-build.lock");
const stamp = path.join(root, "dist", ".test-build.session");
const session = `${process.ppid}`;

export async function ensureBuilt(): Promise<void> {
  // `npm test` (scripts/test-all.mjs) built dist/ just before starting test:core, and nothing
  // rebuilds it while the tests run.
  if (process.env.KERNEL_LAB_DIST_BUILT === "1") return;
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    if (builtThisSession()) return;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A build in progress: wait; a lock older than a minute was left by a killed run.
      const age = Date.now() - statSafe(lock);
      if (age > 60_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
      if (age <= 60_000 && !exists(lock)) return;
    }
  }
  try {
    if (builtThisSession()) return;
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
    writeFileSync(stamp, session);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function builtThisSession(): boolean {
  try {
    return readFileSync(stamp, "utf8") === session;
  } catch {
    return false;
  }
}

function statSafe(p: string): number {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return Date.now();
  }
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

// Builds dist/ once per test session, even when the runner runs test files in parallel:
// the first process to take the lock builds; the others wait for it to finish.

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import * as path from "node:path";

export const root = path.resolve(__dirname, "../..");
const lock = path.join(root, "dist", ".test-build.lock");

export async function ensureBuilt(): Promise<void> {
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
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
    execFileSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
  } finally {
    rmSync(lock, { recursive: true, force: true });
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

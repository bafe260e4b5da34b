// The extension's worker processes, seen from the extension host (tests check none is left behind).
import { readdirSync, readFileSync } from "node:fs";

/** Kernel Lab workers: child processes of this extension host running dist/worker.js. */
export function workerPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("worker.js")) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

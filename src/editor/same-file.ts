// Whether two paths name the same file, as the OS's file system sees it: on Windows `c:\k.ts`
// (VS Code's fsPath) and `C:\k.ts` (Node's cwd) are one file, and so are `C:/k.ts` and `C:\k.ts`.
// Pure, with the platform passed in, so Windows' answers are tested on Linux.

import * as path from "node:path";

/**
 * Each path resolved (a relative one against `folder`: the run's worker reports files relative to
 * its working folder, as the command line shows them), then compared case-insensitively on Windows
 * and macOS, whose file systems are by default (as VS Code compares file URIs there), exactly elsewhere.
 */
export function samePath(a: string, b: string, platform: string, folder?: string): boolean {
  const p = platform === "win32" ? path.win32 : path.posix;
  const resolve = (file: string) => (folder === undefined ? p.resolve(file) : p.resolve(folder, file));
  const [first, second] = [resolve(a), resolve(b)];
  return platform === "win32" || platform === "darwin" ? first.toLowerCase() === second.toLowerCase() : first === second;
}

// Whether two paths name one file (src/editor/same-file.ts), with Windows-, macOS- and
// Linux-shaped paths: drive-letter case, backslashes and forward slashes, spaces, `..`, and the
// worker's relative report paths resolved against its folder.

import { test } from "node:test";
import assert from "node:assert/strict";
import { samePath } from "../../src/editor/same-file";

/** [platform, a, b, folder, same?] */
const CASES: [string, string, string, string | undefined, boolean][] = [
  // Windows: VS Code's fsPath has a lower-case drive letter, Node's cwd an upper-case one.
  ["win32", "c:\\Users\\Ada Lovelace\\k.kernel.ts", "C:\\Users\\Ada Lovelace\\k.kernel.ts", undefined, true],
  ["win32", "C:/Users/Ada Lovelace/k.kernel.ts", "C:\\Users\\Ada Lovelace\\k.kernel.ts", undefined, true],
  ["win32", "C:\\Users\\ADA LOVELACE\\K.Kernel.TS", "c:\\users\\ada lovelace\\k.kernel.ts", undefined, true],
  ["win32", "C:\\work\\src\\..\\k.kernel.ts", "C:\\work\\k.kernel.ts", undefined, true],
  ["win32", "C:\\work\\k.kernel.ts", "D:\\work\\k.kernel.ts", undefined, false],
  ["win32", "C:\\work\\k.kernel.ts", "C:\\work\\k2.kernel.ts", undefined, false],
  // The worker's report: relative to its folder (the workspace folder).
  ["win32", "examples\\k.kernel.ts", "c:\\My Kernels\\examples\\k.kernel.ts", "C:\\My Kernels", true],
  ["win32", "examples/k.kernel.ts", "c:\\My Kernels\\examples\\k.kernel.ts", "C:\\My Kernels", true],
  ["win32", "D:\\elsewhere\\k.kernel.ts", "d:\\elsewhere\\k.kernel.ts", "C:\\My Kernels", true],
  ["win32", "k.kernel.ts", "C:\\other\\k.kernel.ts", "C:\\My Kernels", false],
  // macOS: case-insensitive by default, like VS Code's file URIs there.
  ["darwin", "/Users/Ada Lovelace/k.kernel.ts", "/Users/ada lovelace/K.kernel.ts", undefined, true],
  ["darwin", "examples/k.kernel.ts", "/Users/Ada/Kernels/examples/k.kernel.ts", "/Users/Ada/Kernels", true],
  // Linux: exact.
  ["linux", "/home/ada/k.kernel.ts", "/home/ada/k.kernel.ts", undefined, true],
  ["linux", "/home/ada/K.kernel.ts", "/home/ada/k.kernel.ts", undefined, false],
  ["linux", "/home/ada/./src/../k.kernel.ts", "/home/ada/k.kernel.ts", undefined, true],
  ["linux", "examples/k.kernel.ts", "/work/my kernels/examples/k.kernel.ts", "/work/my kernels", true],
  ["linux", "examples/k.kernel.ts", "/work/examples/k.kernel.ts", "/home/ada", false],
];

for (const [platform, a, b, folder, same] of CASES) {
  test(`${platform}: ${a} ${same ? "is" : "is not"} ${b}${folder ? ` (from ${folder})` : ""}`, () => {
    assert.equal(samePath(a, b, platform, folder), same);
    assert.equal(samePath(b, a, platform, folder), same, "either way round");
  });
}

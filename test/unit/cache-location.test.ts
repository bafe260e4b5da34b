// Where the caches go on each OS (src/harness/cache-location.ts), Windows' and macOS' answers
// computed here on Linux: platform, environment, home folder and working folder in, folder out.

import { test } from "node:test";
import assert from "node:assert/strict";
import { cacheDirFor } from "../../src/harness/cache-location";

type Env = Record<string, string>;

const LINUX = { platform: "linux", homedir: "/home/ada", cwd: "/work/kernels" };
const MAC = { platform: "darwin", homedir: "/Users/Ada Lovelace", cwd: "/Users/Ada Lovelace/kernels" };
const WINDOWS = { platform: "win32", homedir: "C:\\Users\\Ada Lovelace", cwd: "C:\\Users\\Ada Lovelace\\kernels" };

const CASES: [string, typeof LINUX, Env, string][] = [
  // Linux (and every other Unix): XDG's cache folder, only when it is absolute.
  ["linux default", LINUX, {}, "/home/ada/.cache/kernel-lab"],
  ["linux XDG_CACHE_HOME", LINUX, { XDG_CACHE_HOME: "/var/cache/ada" }, "/var/cache/ada/kernel-lab"],
  ["linux relative XDG_CACHE_HOME is ignored", LINUX, { XDG_CACHE_HOME: "cache" }, "/home/ada/.cache/kernel-lab"],
  ["linux empty XDG_CACHE_HOME", LINUX, { XDG_CACHE_HOME: "" }, "/home/ada/.cache/kernel-lab"],
  ["freebsd is Linux's rule", { ...LINUX, platform: "freebsd" }, {}, "/home/ada/.cache/kernel-lab"],
  ["browser (in-memory caches, keyed by this path)", { platform: "browser", homedir: "", cwd: "/ws" }, {}, ".cache/kernel-lab"],
  // macOS: ~/Library/Caches, whatever XDG says.
  ["mac default", MAC, {}, "/Users/Ada Lovelace/Library/Caches/kernel-lab"],
  ["mac ignores XDG_CACHE_HOME", MAC, { XDG_CACHE_HOME: "/tmp/xdg" }, "/Users/Ada Lovelace/Library/Caches/kernel-lab"],
  // Windows: %LOCALAPPDATA%\kernel-lab\Cache, else the home folder's AppData\Local.
  ["windows LOCALAPPDATA", WINDOWS, { LOCALAPPDATA: "C:\\Users\\Ada Lovelace\\AppData\\Local" }, "C:\\Users\\Ada Lovelace\\AppData\\Local\\kernel-lab\\Cache"],
  ["windows LOCALAPPDATA on another drive", WINDOWS, { LOCALAPPDATA: "D:\\profiles\\ada\\Local" }, "D:\\profiles\\ada\\Local\\kernel-lab\\Cache"],
  ["windows without LOCALAPPDATA", WINDOWS, {}, "C:\\Users\\Ada Lovelace\\AppData\\Local\\kernel-lab\\Cache"],
  ["windows relative LOCALAPPDATA is ignored", WINDOWS, { LOCALAPPDATA: "Local" }, "C:\\Users\\Ada Lovelace\\AppData\\Local\\kernel-lab\\Cache"],
  ["windows ignores XDG_CACHE_HOME", WINDOWS, { XDG_CACHE_HOME: "C:\\xdg" }, "C:\\Users\\Ada Lovelace\\AppData\\Local\\kernel-lab\\Cache"],
  // KERNEL_LAB_CACHE_DIR wins everywhere; a relative one is relative to the working folder.
  ["linux KERNEL_LAB_CACHE_DIR", LINUX, { KERNEL_LAB_CACHE_DIR: "/tmp/kl", XDG_CACHE_HOME: "/var/cache" }, "/tmp/kl"],
  ["linux relative KERNEL_LAB_CACHE_DIR", LINUX, { KERNEL_LAB_CACHE_DIR: ".kernel-lab-cache" }, "/work/kernels/.kernel-lab-cache"],
  ["linux empty KERNEL_LAB_CACHE_DIR is unset", LINUX, { KERNEL_LAB_CACHE_DIR: "" }, "/home/ada/.cache/kernel-lab"],
  ["mac KERNEL_LAB_CACHE_DIR", MAC, { KERNEL_LAB_CACHE_DIR: "/Volumes/Fast/kl" }, "/Volumes/Fast/kl"],
  ["windows KERNEL_LAB_CACHE_DIR", WINDOWS, { KERNEL_LAB_CACHE_DIR: "D:\\kl cache", LOCALAPPDATA: "C:\\x" }, "D:\\kl cache"],
  ["windows KERNEL_LAB_CACHE_DIR with forward slashes", WINDOWS, { KERNEL_LAB_CACHE_DIR: "D:/kl/cache/" }, "D:\\kl\\cache"],
  ["windows relative KERNEL_LAB_CACHE_DIR", WINDOWS, { KERNEL_LAB_CACHE_DIR: "..\\kl" }, "C:\\Users\\Ada Lovelace\\kl"],
  ["windows KERNEL_LAB_CACHE_DIR rooted on the working drive", WINDOWS, { KERNEL_LAB_CACHE_DIR: "\\kl" }, "C:\\kl"],
];

for (const [name, where, env, expected] of CASES) {
  test(`cache folder: ${name}`, () => {
    assert.equal(cacheDirFor({ ...where, env: (key) => env[key] }), expected);
  });
}

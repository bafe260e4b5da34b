// Where Kernel Lab keeps its caches (the autotuner's choices, V8's code cache of TypeScript): each
// OS's own place for caches, which the OS or the user may clear. A pure function of the platform,
// the environment and the home folder, so Windows' and macOS' answers are tested on Linux.

import * as path from "node:path";
import { host } from "../runtime/host";

export interface CacheLocationInput {
  /** `process.platform` ("linux", "darwin", "win32", …), or "browser". */
  platform: string;
  /** An environment variable (`host.env`): KERNEL_LAB_CACHE_DIR, LOCALAPPDATA, XDG_CACHE_HOME are read. */
  env: (name: string) => string | undefined;
  homedir: string;
  /** What a relative KERNEL_LAB_CACHE_DIR is relative to (the process's working folder). */
  cwd: string;
}

/**
 * The cache folder: KERNEL_LAB_CACHE_DIR wherever it is set; else Windows
 * `%LOCALAPPDATA%\kernel-lab\Cache` (`<home>\AppData\Local\…` without it), macOS
 * `~/Library/Caches/kernel-lab`, Linux and the rest `$XDG_CACHE_HOME/kernel-lab` (the XDG spec
 * ignores a relative one) else `~/.cache/kernel-lab`.
 */
export function cacheDirFor({ platform, env, homedir, cwd }: CacheLocationInput): string {
  // Windows' rules on any machine, so the tests can ask; in a browser path.win32 does not exist and is never asked for.
  const p = platform === "win32" ? path.win32 : path.posix;
  const override = env("KERNEL_LAB_CACHE_DIR");
  if (override) return p.resolve(cwd, override);
  switch (platform) {
    case "win32": {
      const appData = env("LOCALAPPDATA");
      const local = appData && p.isAbsolute(appData) ? appData : p.join(homedir, "AppData", "Local");
      return p.join(local, "kernel-lab", "Cache");
    }
    case "darwin":
      return p.join(homedir, "Library", "Caches", "kernel-lab");
    default: {
      const xdg = env("XDG_CACHE_HOME");
      return p.join(xdg && p.isAbsolute(xdg) ? xdg : p.join(homedir, ".cache"), "kernel-lab");
    }
  }
}

/** This process's cache folder (cacheDirFor on the host's platform, environment and home). */
export function cacheDir(): string {
  return cacheDirFor({ platform: host.platform, env: (name) => host.env(name), homedir: host.homedir(), cwd: host.cwd() });
}

/** What names an adapter (the run report's AdapterReport has these and more). */
export interface AdapterIdentity {
  vendor: string;
  device: string;
  description: string;
}

/** How a cache file keys an adapter (the autotuner's choices, the peaks): "vendor / device / description". */
export function adapterLabel(adapter: AdapterIdentity): string {
  return [adapter.vendor, adapter.device, adapter.description].filter(Boolean).join(" / ");
}

// Dawn's two adapter-discovery notices, kept off the user's terminal.
//
// When Dawn first enumerates the Vulkan devices (synchronously, inside `requestAdapter()`), its
// `NormalizeLimits` clamps two limits the driver reports as huge (lavapipe: 1000000) and says so:
//   Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 …
//   Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 …
// These go through `dawn::WarningLog()`, which `fprintf`s straight to the C `stderr`: no instance
// or device logging callback sees them, no toggle turns them off, and they come before any device
// exists, so requesting other limits cannot help either (bench/NOTES.md §10). Kernel Lab never
// uses dynamic offsets, so they say nothing to a user.
//
// So for the length of that one synchronous call, file descriptor 2 points at a temporary file;
// afterwards it points at the original stderr again, and everything Dawn wrote there except those
// two exact lines is written on. Node has no dup2: closing fd 2 and opening a file takes the lowest
// free descriptor, 2, and the original is reopened through /proc/self/fd (in append mode, so a
// file stderr is written at its end as before). Done only on Linux and only when stderr is a
// terminal, a pipe or a file (a socket cannot be reopened: it keeps the notices).
// KERNEL_LAB_DAWN_NOTICES=1 turns this off.

import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const NOTICE = /^Warning: maxDynamic(?:Uniform|Storage)BuffersPerPipelineLayout artificially reduced from \d+ to \d+ to fit dynamic offset allocation limit\.$/;

/** Lines of `text` that are not Dawn's limit notices (the text's line breaks kept). */
export function withoutNotices(text: string): string {
  return text
    .split(/(?<=\n)/)
    .filter((line) => !NOTICE.test(line.replace(/\r?\n$/, "")))
    .join("");
}

/**
 * Whether fd 2 is filtered: only on Linux, where /proc/self/fd can reopen the original stderr
 * (elsewhere quietDawn just makes the call, and nothing here touches /proc); not with
 * KERNEL_LAB_DAWN_NOTICES=1.
 */
export function filtersNotices(platform: string, env: Readonly<Record<string, string | undefined>>): boolean {
  return platform === "linux" && env.KERNEL_LAB_DAWN_NOTICES !== "1";
}

function canRedirect(): boolean {
  if (!filtersNotices(process.platform, process.env)) return false;
  try {
    // 0 and 1 open, so that closing 2 frees the lowest descriptor.
    fs.fstatSync(0);
    fs.fstatSync(1);
    const st = fs.fstatSync(2);
    return st.isCharacterDevice() || st.isFIFO() || st.isFile();
  } catch {
    return false;
  }
}

/** Runs the synchronous `call` with Dawn's limit notices removed from what it writes to fd 2. */
export function quietDawn<T>(call: () => T): T {
  if (!canRedirect()) return call();
  let saved: number;
  try {
    saved = fs.openSync("/proc/self/fd/2", "a");
  } catch {
    return call();
  }
  const file = path.join(os.tmpdir(), `kernel-lab-dawn-${process.pid}-${Date.now()}.log`);
  let captured = -1;
  try {
    fs.closeSync(2);
    captured = fs.openSync(file, "w+", 0o600);
  } catch {
    // fd 2 is closed now: put the original back and run unfiltered.
    restore(saved, captured);
    return call();
  }
  if (captured !== 2) {
    restore(saved, captured);
    return call();
  }
  try {
    return call();
  } finally {
    let text = "";
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      // nothing to pass on
    }
    restore(saved, captured);
    try {
      fs.unlinkSync(file);
    } catch {
      // left in the temporary folder
    }
    const rest = withoutNotices(text);
    if (rest) fs.writeSync(2, rest);
  }
}

/** Closes `captured` (when open) and makes fd 2 the stream `saved` reopened. */
function restore(saved: number, captured: number): void {
  if (captured >= 0) fs.closeSync(captured);
  const back = fs.openSync(`/proc/self/fd/${saved}`, "a");
  // Another descriptor below 2 was free (canRedirect checks 0 and 1, so this should not happen).
  if (back !== 2) fs.closeSync(back);
  fs.closeSync(saved);
}

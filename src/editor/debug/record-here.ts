// The desktop's debug host (session.ts's `DebugHost`): the adapter's own Node process records the
// program itself, with the file's console output sent to the Debug Console instead of stdout
// (which carries the protocol). A Python file's script runs on a Python thread of this process
// (it ends with the process: VS Code stops the adapter with its session).

import { format } from "node:util";
import { DebugLaunchError, traceProgram } from "../../harness/debug/debug-run";
import { startPythonThread } from "../../harness/python/thread-node";
import { samePath } from "../same-file";
import type { DebugHost } from "./session";

export const recordHere: DebugHost = {
  async record(launch, print) {
    const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
    const to = (category: "stdout" | "stderr") => (...args: unknown[]) => print(`${format(...args)}\n`, category);
    Object.assign(console, { log: to("stdout"), info: to("stdout"), debug: to("stdout"), warn: to("stderr"), error: to("stderr") });
    try {
      return await traceProgram(launch, { start: startPythonThread, print });
    } catch (err) {
      if (err instanceof DebugLaunchError) return { launchError: err.message };
      throw err;
    } finally {
      Object.assign(console, saved);
    }
  },
  isFile: (sourcePath, file) => samePath(sourcePath, file, process.platform),
};

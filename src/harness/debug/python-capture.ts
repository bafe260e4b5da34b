// The launch a Python kernel is debugged at: the script runs (python/session.ts, every launch
// on the interpreter, benchmarks off) until it first launches that kernel; that launch is taken
// (its arguments, the tensors' elements as they are then, its grid and constexprs) and the script
// ends there, through an exception `except Exception` does not catch (triton/_bridge.py's
// LaunchTaken). What the script printed before goes to the Debug Console.

import type { PythonProcess } from "../python/session";
import { runPythonFile } from "../python/session";
import type { LaunchArg, LaunchRequest, TensorStorage } from "../python/protocol";
import type { PythonFileReport } from "../python/report";
import { DebugLaunchError } from "./debug-launch";

/**
 * Runs `file`'s script to `kernel`'s first launch and gives that launch, with its tensors copied,
 * and how Python started for it (a web worker's warm Pyodide is reused: no second start).
 */
export async function runToLaunch(
  file: string,
  shown: string,
  text: string,
  kernel: string,
  startPython: () => PythonProcess,
  print: (text: string, category: "stdout" | "stderr") => void,
): Promise<{ request: LaunchRequest; pyodide: PythonFileReport["pyodide"] }> {
  let taken: LaunchRequest | undefined;
  const { report, outcome } = await runPythonFile(
    file,
    {
      cpu: true,
      bench: "off",
      onStdout: (t) => print(t, "stdout"),
      onStderr: (t) => print(t, "stderr"),
      interceptLaunch: (request) => {
        // A warmup only compiles; a kernel of Kernel Lab's own torch is not the script's.
        if (taken || request.kernel !== kernel || request.warmup || request.module) return undefined;
        taken = { ...request, args: request.args.map(copied) };
        return { kind: "error", error: "stopped", message: `Kernel Lab's debugger took this launch of ${kernel}` };
      },
    },
    startPython,
    text,
  );
  if (taken) return { request: taken, pyodide: report.pyodide };
  const how = `Debug program… records the first launch of ${kernel}`;
  if (report.traceback && outcome !== "ok") {
    throw new DebugLaunchError(`${shown} stopped before it launched ${kernel}: ${how}, so the script must reach it.\n${report.traceback.trimEnd()}`);
  }
  const why = report.diagnostics.map((d) => d.message).join("\n");
  if (outcome !== "ok") throw new DebugLaunchError(`${shown} could not run up to a launch of ${kernel}${why ? `: ${why}` : ""}`);
  throw new DebugLaunchError(
    `${kernel} is never launched when ${shown} runs: the script ended without calling ${kernel}[grid](…). ${how}: ` +
      `launch it from the script (at its top level, or in a function the script calls), then try again.`,
  );
}

/** The launch's tensors are views of the script's storage, which changes as the script goes on: copied as they are at the launch. */
function copied(arg: LaunchArg): LaunchArg {
  return arg.kind === "tensor" ? { ...arg, data: arg.data.slice() as TensorStorage } : arg;
}

// Errors of a run → located diagnostics. A run's own problems (its definition, a timeout, a GPU
// error) point at its `export const NAME`; an interpreter error at the tl.load/tl.store it hit;
// anything else is a bug of Kernel Lab, still shown at the run and never as a stack trace.

import type { Diagnostic } from "../../diagnostics/diagnostic";
import { locate, type LocatedDiagnostic } from "../../diagnostics/position";
import { InterpreterError } from "../../interpreter/interpret";
import { GpuError } from "../../runtime";
import { RunDefinitionError } from "../codes";
import type { LoadedRun } from "../load/load";
import { host } from "../../runtime/host";

/** Places a diagnostic about a run at its `export const NAME` (else its defineRun call). */
export type RunLocator = (run: LoadedRun, code: string, message: string) => LocatedDiagnostic;

export function runLocator(file: string, text: string): RunLocator {
  return (run, code, message) => {
    const escaped = run.exportName.replace(/[$]/g, "\\$");
    const match = new RegExp(`export\\s+(?:const|let|var)\\s+(${escaped})\\b`).exec(text);
    const start = match ? match.index + match[0].length - run.exportName.length : Math.max(0, text.indexOf("defineRun"));
    const span = { start, end: start + (match ? run.exportName.length : "defineRun".length) };
    const d: Diagnostic = { code: code as Diagnostic["code"], severity: "error", message, span };
    return locate(file, text, [d])[0];
  };
}

/** What the user sees of an error thrown while running `run`. */
export function diagnosticOf(err: unknown, run: LoadedRun, file: string, text: string, at: RunLocator): LocatedDiagnostic {
  if (host.env("KERNEL_LAB_DEBUG") && err instanceof Error) host.warn(err.stack ?? err.message);
  if (err instanceof RunDefinitionError) return at(run, err.code, err.message);
  if (err instanceof InterpreterError) {
    return locate(file, text, [{ ...err.toDiagnostic(), message: `Run '${run.name}': ${err.message}` }])[0];
  }
  if (err instanceof GpuError) return at(run, err.code, `Run '${run.name}': ${err.message}`);
  return at(run, codeOf(err, "KL9300"), `Run '${run.name}': internal error: ${messageOf(err)}. This is a bug in Kernel Lab; run with --debug for details.`);
}

/** The error's own KL code, else `fallback`. */
export function codeOf(err: unknown, fallback: string): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^KL\d+$/.test(code) ? code : fallback;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A run's warning (KL3105), located, into the report's diagnostics. */
export function warnFor(s: { file: string; text: string; diagnose: (diagnostics: LocatedDiagnostic[]) => void }): (d: Diagnostic) => void {
  return (d) => s.diagnose(locate(s.file, s.text, [d]));
}

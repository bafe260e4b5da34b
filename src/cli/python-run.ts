// `kernel-lab run FILE.py`: the script's output streamed as it prints, its traceback and the
// kernels' diagnostics on stderr, docs/LANGUAGE.md §4.1's exit codes, or one JSON object with --json.

import { formatDiagnostic, locate } from "../diagnostics/position";
import * as path from "node:path";
import { exerciseNamed } from "../exercises/course";
import { EXIT_CODES } from "../harness/report";
import { exerciseRunText, pythonExerciseId } from "../python/exercise";
import { runPythonFile, PYTHON_EXIT_CODES } from "../harness/python/session";
import { startPythonThread } from "../harness/python/thread-node";
import type { PythonFileReport } from "../harness/python/report";
import type { Command } from "./args";
import { formatAutotune } from "./format";
import { readFileSync } from "node:fs";

export async function runPythonCommand(cmd: Extract<Command, { kind: "run" }>, write: (stream: NodeJS.WriteStream, text: string) => Promise<void>): Promise<number> {
  const { report, outcome } = await runPythonFile(
    cmd.file,
    {
      cpu: cmd.cpu,
      bench: cmd.bench,
      ...(cmd.timeoutMs !== undefined ? { timeoutMs: cmd.timeoutMs } : {}),
      tuneCodegen: cmd.tuneCodegen,
      retune: cmd.retune,
      onStdout: cmd.json ? undefined : (text) => void process.stdout.write(text),
      onStderr: (text) => void process.stderr.write(text),
      onStart: cmd.json ? undefined : (r) => void process.stderr.write(`${startLine(r)}\n`),
    },
    startPythonThread,
  );
  const code = PYTHON_EXIT_CODES[outcome];
  if (cmd.json) {
    await write(process.stdout, `${JSON.stringify(report, null, 2)}\n`);
    return code;
  }
  // Each tuning's table after the script's output, as a .kernel.ts run prints its autotune.
  const tables = (report.autotune ?? []).flatMap((t) => [`${t.kernel} (line ${t.line}, key ${t.key}):`, ...formatAutotune(t)]);
  if (tables.length > 0) await write(process.stdout, `${tables.join("\n")}\n`);
  const lines: string[] = [];
  if (report.traceback) lines.push(report.traceback.trimEnd());
  let text: string | undefined;
  try {
    text = readFileSync(cmd.file, "utf8");
  } catch {
    text = undefined;
  }
  for (const d of report.diagnostics) lines.push(outcome === "no-adapter" ? `kernel-lab: ${d.message} (${d.code})` : formatDiagnostic(d, text, report.file));
  const failed = report.checks.filter((c) => !c.passed);
  if (failed.length > 0) lines.push(`kernel-lab: ${failed.length} of ${report.checks.length} checks failed (${failed.map((c) => `${report.file}:${c.line}`).join(", ")})`);
  if (lines.length > 0) await write(process.stderr, lines.join("\n") + "\n");
  return code;
}

/** Where the kernels run and how much benchmarking runs: said before the script's own output. */
function startLine(r: PythonFileReport): string {
  const adapter = r.adapter ? `${r.adapter.device || r.adapter.description}` : "no GPU";
  const why = { flag: "--bench", gpu: "the default on a GPU", "software-adapter": "the default on a software adapter", cpu: "the default with --cpu" }[r.bench.chosen];
  return `[kernel-lab] ${adapter} · benchmarks: ${r.bench.mode} (${why}) · Python ${r.pyodide.warm ? "reused" : `started in ${(r.pyodide.startMs / 1000).toFixed(1)} s${r.pyodide.startKind === "snapshot" ? " (from its snapshot)" : ""}`}`;
}

/**
 * A Python exercise (`kernel_lab.check_exercise("…")`, src/python/exercise.ts) runs as its
 * TypeScript exercise does: the exercise's run on the file's kernel. Undefined for any other file;
 * the exit code when its kernel has errors (printed here, at the Python lines).
 */
export async function pythonExerciseSource(fileArg: string, write: (stream: NodeJS.WriteStream, text: string) => Promise<void>): Promise<{ file: string; text: string } | number | undefined> {
  let text: string;
  try {
    text = readFileSync(fileArg, "utf8");
  } catch {
    return undefined;
  }
  const exercise = exerciseNamed(pythonExerciseId(text) ?? "");
  if (!exercise) return undefined;
  const source = exerciseRunText(exercise, path.resolve(fileArg), text);
  if (!("diagnostics" in source)) return source;
  await write(process.stderr, `${locate(fileArg, text, source.diagnostics).map((d) => formatDiagnostic(d, text, fileArg)).join("\n")}\n`);
  return EXIT_CODES["compile-error"];
}

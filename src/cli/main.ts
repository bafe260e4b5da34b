// `kernel-lab run | check | wgsl`: the command line over the harness and the compiler.
// stdout carries the result (one JSON object with --json); messages go to stderr; the exit code
// follows docs/LANGUAGE.md §4. Users never see a stack trace unless they ask with --debug.

// First: a `.py` run's Python thread starts (it boots while the rest loads).
import "./prestart-python";
// Then: loads TypeScript from V8's code cache before the compiler's modules require it.
import { saveTypescriptCache } from "../harness/load/typescript-cache";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Target } from "../ir/target";
import { checkFile, compileKernel, halfPrecisionNeeds, NO_ADAPTER_TARGET, NUM_STAGES, NUM_WARPS, parseKernelFile } from "../compile";
import { formatDiagnostic, locate, type LocatedDiagnostic } from "../diagnostics/position";
import { displayPath } from "../harness/load/load";
import { pythonLibFolder } from "../harness/python/lib-folder-node";
import { EXIT_CODES } from "../harness/report";
import { runFileWithOutcome } from "../harness/run/run";
import { runValuesOf } from "../harness/run/size-constexprs";
import { trace } from "../harness/trace";
import { acquireGpu, NoAdapterError } from "../runtime";
import { parseArgs, USAGE, UsageError, type Command } from "./args";
import { pythonExerciseSource, runPythonCommand } from "./python-run";
import { formatPrints, formatRunCheck, formatRunTiming } from "./format";
import { compareFiles, formatComparison, formatHistory, recordHistory, type HistoryLine } from "./history";
import { version } from "../../package.json";
import { convertCommand, wgslPython } from "./python";
import { checkPython, KERNEL_LAB_MODULES, pythonCheckAssumptions, readImportedModules, readPythonFile } from "../python";

const FAILURE = EXIT_CODES.failure;

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`kernel-lab: ${err.message}\n`);
      return FAILURE;
    }
    throw err;
  }
  if ("debug" in command && command.debug) process.env.KERNEL_LAB_DEBUG = "1";
  trace("started");
  switch (command.kind) {
    case "help":
      await write(process.stdout, `${USAGE}\n`);
      return 0;
    case "version":
      await write(process.stdout, `${version}\n`);
      return 0;
    case "run": {
      if (!command.file.endsWith(".py")) return runCommand(command);
      const exercise = await pythonExerciseSource(command.file, write);
      if (typeof exercise === "number") return exercise;
      return exercise ? runCommand(command, exercise) : runPythonCommand(command, write);
    }
    case "check":
      return checkCommand(command);
    case "compare":
      return compareCommand(command);
    case "wgsl":
      return wgslCommand(command);
    case "convert":
      return convertCommand(command);
  }
}

/** `source`: the file's text under another name (a Python exercise's run, python/exercise.ts). */
async function runCommand(cmd: Extract<Command, { kind: "run" }>, source?: { file: string; text: string }): Promise<number> {
  const progress = !cmd.json && process.stderr.isTTY;
  // Human output comes as soon as it is known: a run's first lines (did it match?) before it is
  // timed, the rest after. Together they are the block formatRun prints; blocks are one line apart.
  let blocks = 0;
  let noted = false;
  const show = (lines: string[], startsBlock: boolean) => {
    if (progress) process.stderr.write("\r\x1b[2K");
    const gap = startsBlock && blocks++ > 0 ? "\n" : "";
    if (lines.length > 0) process.stdout.write(`${gap}${lines.join("\n")}\n`);
  };
  const { report, outcome } = await runFileWithOutcome(source?.file ?? cmd.file, {
    run: cmd.run,
    size: cmd.size,
    sweep: cmd.sweep,
    cpu: cmd.cpu,
    reps: cmd.reps,
    timeoutMs: cmd.timeoutMs,
    maxSteps: cmd.maxSteps,
    ...(Object.keys(cmd.constexprs).length ? { constexprs: cmd.constexprs } : {}),
    retune: cmd.retune,
    ...(cmd.tuneCodegen ? { tuneCodegen: true } : {}),
    ...(cmd.program ? { program: cmd.program } : {}),
    onProgress: progress ? (p) => process.stderr.write(`\r\x1b[2K${p.message}…`) : undefined,
    onRunChecked: cmd.json ? undefined : (run, adapter) => {
      // What the kernel printed goes to stderr, as Triton's device_print goes to the process's output.
      if (run.prints) process.stderr.write(formatPrints(run).join("\n") + "\n");
      show(formatRunCheck(run, adapter, !noted), true);
      noted = true;
    },
    onRunDone: cmd.json ? undefined : (run) => show(formatRunTiming(run), false),
  }, source?.text);
  if (progress) process.stderr.write("\r\x1b[2K");
  const code = EXIT_CODES[outcome];
  let history: HistoryLine[] | undefined;
  if (cmd.history) {
    try {
      history = recordHistory(cmd.history, report);
    } catch (err) {
      process.stderr.write(`kernel-lab: cannot write the history ${cmd.history}: ${(err as Error).message}\n`);
    }
  }
  if (cmd.json) {
    // `history` is added after docs/LANGUAGE.md §4's keys, only with --history.
    const json = history ? { ...report, history: { file: cmd.history, runs: history } } : report;
    await write(process.stdout, `${JSON.stringify(json, null, 2)}\n`);
    return code;
  }
  if (history && cmd.history) show(formatHistory(cmd.history, history), true);
  await write(process.stdout, "");
  trace("results written");
  if (report.diagnostics.length > 0) {
    // Having no GPU is about the machine, not a place in the file.
    const shown = report.diagnostics.map((d) => (outcome === "no-adapter" ? `kernel-lab: ${d.message} (${d.code})` : formatDiagnostic(d)));
    await write(process.stderr, shown.join("\n") + "\n");
  }
  if (outcome === "mismatch") await write(process.stderr, "kernel-lab: a run did not match its reference.\n");
  return code;
}

async function checkCommand(cmd: Extract<Command, { kind: "check" }>): Promise<number> {
  const all: LocatedDiagnostic[] = [];
  const lines: string[] = [];
  const notes: string[] = [];
  let unreadable = false;
  for (const fileArg of cmd.files) {
    const file = displayPath(path.resolve(fileArg));
    let text: string;
    try {
      text = readFileSync(fileArg, "utf8");
    } catch (err) {
      process.stderr.write(`kernel-lab: cannot read ${fileArg}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
      unreadable = true;
      continue;
    }
    // The texts of the modules a Python file's kernels call into: --pretty shows a helper's line too.
    const texts = new Map([[file, text]]);
    const located = locate(file, text, file.endsWith(".py") ? await checkPythonBesideModules(fileArg, file, text, texts) : await checkKernelFile(fileArg, file, text));
    all.push(...located);
    for (const d of located) lines.push(formatDiagnostic(d, cmd.pretty ? texts.get(d.file) : undefined));
    // A Python kernel the file doesn't launch is checked with guessed types: said, beside the diagnostics.
    if (file.endsWith(".py") && !cmd.json) notes.push(...pythonCheckAssumptions(readPythonFile(file, text)).map((n) => `kernel-lab: note: ${n}`));
  }
  if (notes.length > 0) await write(process.stderr, `${notes.join("\n")}\n`);
  if (cmd.json) await write(process.stdout, `${JSON.stringify({ diagnostics: all }, null, 2)}\n`);
  else if (lines.length > 0) await write(process.stdout, `${lines.join("\n")}\n`);
  if (all.some((d) => d.severity === "error")) return EXIT_CODES["compile-error"];
  return unreadable ? FAILURE : 0;
}

/**
 * A Python file's diagnostics, its calls to the @triton.jit functions of modules beside it compiled
 * from their files, as a run would. A file inside a package (its folder holds an __init__.py, a
 * kernel library's ops/x.py) is read as that package's module, so its relative imports
 * (`from ..utils import helper`) resolve from the folder above the outermost package.
 */
async function checkPythonBesideModules(fileArg: string, file: string, text: string, texts: Map<string, string>) {
  return checkPython(await readPythonBesideModules(fileArg, file, text, texts));
}

/** A Python file read with the modules it imports (beside it, and Kernel Lab's own), as a run sends them; `texts` gets each module's text by its shown path. */
async function readPythonBesideModules(fileArg: string, file: string, text: string, texts = new Map<string, string>()) {
  let folder = path.dirname(path.resolve(fileArg));
  // A package's __init__.py is the package itself.
  const names = path.basename(fileArg) === "__init__.py" ? [] : [path.basename(fileArg).replace(/\.py$/, "")];
  while (names.length < 32 && existsSync(path.join(folder, "__init__.py")) && path.dirname(folder) !== folder) {
    names.unshift(path.basename(folder));
    folder = path.dirname(folder);
  }
  const inPackage = folder !== path.dirname(path.resolve(fileArg));
  const python = readPythonFile(file, text, inPackage ? names.join(".") : undefined);
  await readImportedModules(python, (module) => {
    const base = path.join(folder, ...module.split("."));
    const own = KERNEL_LAB_MODULES.get(module);
    // Kernel Lab's own module (torch._inductor's triton_helpers) after a file of the name beside the script.
    for (const candidate of [path.join(base, "__init__.py"), `${base}.py`, ...(own ? [path.join(pythonLibFolder(), ...own)] : [])]) {
      try {
        const found = { file: displayPath(candidate), text: readFileSync(candidate, "utf8") };
        texts.set(found.file, found.text);
        return found;
      } catch {
        // Not there: the next candidate; none is KL1150 at the call.
      }
    }
    return undefined;
  });
  return python;
}

/**
 * A `.kernel.ts` file's diagnostics. Constexprs only running the file gives (a function of the
 * size): its top level is run (no GPU) for the values of every size; where it can't be, the check
 * takes stand-ins (compile.ts checkFile).
 */
async function checkKernelFile(fileArg: string, file: string, text: string) {
  const parsed = parseKernelFile(file, text);
  const runValues = parsed.runTimeConstexprs.size > 0 ? await runValuesOf(path.resolve(fileArg), text, parsed) : undefined;
  return checkFile(file, text, undefined, runValues);
}

async function compareCommand(cmd: Extract<Command, { kind: "compare" }>): Promise<number> {
  let rows;
  try {
    rows = compareFiles(cmd.before, cmd.after);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`kernel-lab: ${err.message}\n`);
    return FAILURE;
  }
  await write(process.stdout, cmd.json ? `${JSON.stringify({ runs: rows }, null, 2)}\n` : `${formatComparison(rows).join("\n")}\n`);
  return 0;
}

async function wgslCommand(cmd: Extract<Command, { kind: "wgsl" }>): Promise<number> {
  const file = displayPath(path.resolve(cmd.file));
  let text: string;
  try {
    text = readFileSync(cmd.file, "utf8");
  } catch (err) {
    process.stderr.write(`kernel-lab: cannot read ${cmd.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}\n`);
    return FAILURE;
  }
  if (file.endsWith(".py")) return wgslPython(file, text, cmd, await readPythonBesideModules(cmd.file, file, text));
  const parsed = parseKernelFile(file, text);
  const report = async (diagnostics: LocatedDiagnostic[]) => {
    if (diagnostics.length > 0) await write(process.stderr, diagnostics.map((d) => formatDiagnostic(d)).join("\n") + "\n");
  };
  if (parsed.diagnostics.some((d) => d.severity === "error")) {
    await report(locate(file, text, parsed.diagnostics));
    return EXIT_CODES["compile-error"];
  }
  // Without --kernel, device functions are shown inlined in their callers, not on their own.
  const kernels = cmd.kernel === undefined ? parsed.kernels.filter((k) => !k.deviceOnly) : parsed.kernels.filter((k) => k.name === cmd.kernel);
  if (kernels.length === 0) {
    const found = parsed.kernels.map((k) => k.name).join(", ") || "none";
    process.stderr.write(`kernel-lab: ${cmd.kernel === undefined ? "no kernel in this file" : `no kernel named '${cmd.kernel}'`} (kernels: ${found}).\n`);
    return FAILURE;
  }
  // Without --gpu, f16 is taken as available (as `check` does).
  let target: Target = NO_ADAPTER_TARGET;
  if (cmd.gpu) {
    try {
      target = (await acquireGpu(halfPrecisionNeeds(parsed))).target;
    } catch (err) {
      process.stderr.write(`kernel-lab: ${(err as Error).message}\n`);
      return err instanceof NoAdapterError ? EXIT_CODES["no-adapter"] : FAILURE;
    }
  }
  const out: string[] = [];
  let failed = false;
  let values: Promise<Map<string, Record<string, number>[]> | undefined> | undefined;
  const runValues = () => (values ??= runValuesOf(path.resolve(cmd.file), text, parsed));
  for (const kernel of kernels) {
    // Constexprs only the run knows (a function of the size): the first size's, from running the file's top level.
    const runTime = parsed.runTimeConstexprs.has(kernel.name) ? (await runValues())?.get(kernel.name)?.[0] : undefined;
    const literal = { ...parsed.literalConstexprs.get(kernel.name)?.[0], ...runTime };
    const constexprs: Record<string, number> = {};
    for (const p of kernel.params) {
      if (p.kind !== "constexpr") continue;
      const value = cmd.constexprs[p.name] ?? literal[p.name];
      if (value !== undefined) constexprs[p.name] = value;
    }
    // num_warps and num_stages tune the generated code as in a run's constexprs (compile.ts).
    for (const name of [NUM_WARPS, NUM_STAGES]) {
      const value = cmd.constexprs[name] ?? literal[name];
      if (value !== undefined && constexprs[name] === undefined) constexprs[name] = value;
    }
    const result = compileKernel(kernel, constexprs, target);
    await report(locate(file, text, result.diagnostics));
    if (!result.kernel) {
      failed = true;
      continue;
    }
    const values = Object.entries(constexprs).map(([k, v]) => `${k}=${v}`).join(", ");
    if (kernels.length > 1) out.push(`// ---- kernel ${kernel.name}${values ? ` (${values})` : ""} ----`);
    out.push(result.kernel.wgsl.trimEnd());
  }
  if (out.length > 0) await write(process.stdout, `${out.join("\n\n")}\n`);
  return failed ? EXIT_CODES["compile-error"] : 0;
}

function write(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((resolve) => stream.write(text, () => resolve()));
}

main(process.argv.slice(2)).then(
  (code) => {
    saveTypescriptCache();
    process.exit(code);
  },
  (err: unknown) => {
    // A bug of Kernel Lab: one line for the user, the stack only with --debug.
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`kernel-lab: internal error: ${message}\n`);
    if (process.env.KERNEL_LAB_DEBUG && err instanceof Error) process.stderr.write(`${err.stack}\n`);
    else process.stderr.write("Run again with --debug for details; this is a bug in Kernel Lab.\n");
    process.exit(FAILURE);
  },
);

// Command-line parsing: `kernel-lab <command> [options]`, options in any order after the command.

export type Command =
  | { kind: "run"; file: string; run?: string; size?: number; sweep: boolean; json: boolean; cpu: boolean; reps?: number; timeoutMs?: number; maxSteps?: number; constexprs: Record<string, number>; retune: boolean; tuneCodegen: boolean; history?: string; program?: [number, number, number]; bench?: "off" | "quick" | "full"; debug: boolean }
  | { kind: "compare"; before: string; after: string; json: boolean; debug: boolean }
  | { kind: "check"; files: string[]; json: boolean; pretty: boolean; debug: boolean }
  | { kind: "wgsl"; file: string; kernel?: string; constexprs: Record<string, number>; gpu: boolean; debug: boolean }
  | { kind: "convert"; file: string; out?: string; debug: boolean }
  | { kind: "help" }
  | { kind: "version" };

export class UsageError extends Error {
  override name = "UsageError";
}

export const USAGE = `Usage: kernel-lab <command> [options]

Commands:
  run FILE     Compile, run, check and time the runs a .kernel.ts file exports; or run a Python
               file (FILE.py) whole on Kernel Lab's embedded Python, every kernel launch checked
    --bench off|quick|full  FILE.py: how much of triton.testing.do_bench / perf_report runs
                       (default: full on a GPU, quick on a software adapter or with --cpu)
    --run NAME         only the run of this name
    --size N           one size instead of the run's first
    --sweep            every size of the run's \`sizes\`
    --cpu              interpret the kernel on the CPU instead of launching it on the GPU
    --json             print one JSON object (docs/LANGUAGE.md §4) on stdout, nothing else
    --reps N           at most N timed repetitions (default 100); 0: check only, no timing
                       (a run with configs then runs its first config)
    --timeout SECONDS  limit per run and size; for a .py file, per launch (default 120)
    --max-steps N      with --cpu, element operations a launch may take before it counts as
                       endless (default 500000000)
    --constexpr NAME=VALUE  replace a constexpr of the run and of each of its configs (repeatable;
                       an integer, or a float for a float constexpr)
    --retune           tune runs with \`configs\` afresh instead of using the cached choice
    --tune-codegen     let the autotuner also try the code generator's knobs each kernel uses
                       (load forms, staging, matrices per subgroup), for runs with or without configs;
                       for FILE.py, @triton.autotune's kernels (their table follows the output)
    --program P        also print what program P (x, or x,y, or x,y,z) loads and stores: a map per
                       tl.load/tl.store line (small buffers drawn, larger ones summarised)
    --history FILE     append the results to FILE (JSON lines) and say how each compares with its last run there
  check FILE...  Print the diagnostics of kernel files, one a line (path:line:col - error KLxxxx: message)
    --pretty           show the source line and a caret under each diagnostic
    --json             print { "diagnostics": [...] } on stdout
  compare OLD.json NEW.json  Compare two saved \`run --json\` reports: each run and size in both, old and new median
    --json             print { "runs": [...] } on stdout
  convert FILE  Convert a kernel file both ways: Triton's Python (FILE.py) → a .kernel.ts with a
               defineRun from each launch; a .kernel.ts → @triton.jit Python. Prints it, or:
    --out FILE         write it to FILE
  wgsl FILE    Print the WGSL generated for a kernel
    --kernel NAME              the kernel (default: every kernel of the file)
    --constexpr NAME=VALUE     a constexpr value (repeatable; default: the file's defineRun constexprs)
    --gpu                      generate for this machine's GPU (features, limits) instead of WebGPU defaults

Options:
  --debug      print stack traces of internal errors, and the time of each step of a run
  --help, -h   show this help
  --version    print the version

Exit codes: 0 all good; 1 a run did not match its reference; 2 the file has compile errors;
3 no usable GPU adapter; 4 any other failure (GPU error, timeout, bad run definition, bad usage).`;

export function parseArgs(argv: readonly string[]): Command {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") return { kind: "help" };
  if (argv.includes("--version") || argv[0] === "version") return { kind: "version" };
  const [command, ...rest] = argv;
  const positional: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string[]>();
  const takesValue = new Set(["--program", "--bench", "--run", "--size", "--reps", "--timeout", "--max-steps", "--kernel", "--constexpr", "--history", "--out"]);
  const allowed: Record<string, string[]> = {
    run: ["--program", "--bench", "--run", "--size", "--sweep", "--json", "--cpu", "--reps", "--timeout", "--max-steps", "--constexpr", "--retune", "--tune-codegen", "--history", "--debug"],
    compare: ["--json", "--debug"],
    check: ["--json", "--pretty", "--debug"],
    wgsl: ["--kernel", "--constexpr", "--gpu", "--debug"],
    convert: ["--out", "--debug"],
  };
  if (!(command in allowed)) throw new UsageError(`Unknown command '${command}'. Commands: run, check, compare, convert, wgsl (see --help).`);
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!allowed[command].includes(name)) throw new UsageError(`Unknown option '${name}' for '${command}' (see --help).`);
    if (takesValue.has(name)) {
      const value = eq > 0 ? arg.slice(eq + 1) : rest[++i];
      if (value === undefined) throw new UsageError(`Option ${name} needs a value.`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else {
      if (eq > 0) throw new UsageError(`Option ${name} takes no value.`);
      flags.add(name);
    }
  }
  const one = (name: string) => values.get(name)?.at(-1);
  const debug = flags.has("--debug");

  switch (command) {
    case "run": {
      if (positional.length !== 1) throw new UsageError("Usage: kernel-lab run FILE [--run NAME] [--size N] [--sweep] [--json] [--cpu]");
      return {
        kind: "run",
        file: positional[0],
        run: one("--run"),
        size: optionalInt("--size", one("--size")),
        sweep: flags.has("--sweep"),
        json: flags.has("--json"),
        cpu: flags.has("--cpu"),
        reps: optionalInt("--reps", one("--reps"), 0),
        timeoutMs: optionalSeconds(one("--timeout")),
        maxSteps: optionalInt("--max-steps", one("--max-steps")),
        constexprs: constexprPairs(values.get("--constexpr")),
        retune: flags.has("--retune"),
        tuneCodegen: flags.has("--tune-codegen"),
        history: one("--history"),
        ...programOption(one("--program")),
        bench: benchMode(one("--bench")),
        debug,
      };
    }
    case "compare":
      if (positional.length !== 2) throw new UsageError("Usage: kernel-lab compare OLD.json NEW.json [--json]");
      return { kind: "compare", before: positional[0], after: positional[1], json: flags.has("--json"), debug };
    case "check":
      if (positional.length === 0) throw new UsageError("Usage: kernel-lab check FILE...");
      return { kind: "check", files: positional, json: flags.has("--json"), pretty: flags.has("--pretty"), debug };
    case "convert":
      if (positional.length !== 1 || !/\.(py|kernel\.ts)$/.test(positional[0])) throw new UsageError("Usage: kernel-lab convert FILE.py | FILE.kernel.ts [--out FILE]");
      return { kind: "convert", file: positional[0], out: one("--out"), debug };
    default: {
      if (positional.length !== 1) throw new UsageError("Usage: kernel-lab wgsl FILE [--kernel NAME] [--constexpr NAME=VALUE]...");
      return { kind: "wgsl", file: positional[0], kernel: one("--kernel"), constexprs: constexprPairs(values.get("--constexpr")), gpu: flags.has("--gpu"), debug };
    }
  }
}

function benchMode(value: string | undefined): "off" | "quick" | "full" | undefined {
  if (value === undefined || value === "off" || value === "quick" || value === "full") return value;
  throw new UsageError(`--bench wants off, quick or full, got '${value}'.`);
}

function optionalInt(name: string, value: string | undefined, least = 1): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value.replace(/_/g, ""));
  if (!/^\d[\d_]*$/.test(value) || !Number.isSafeInteger(n) || n < least) throw new UsageError(`${name} wants ${least === 0 ? "a whole number" : "a positive integer"}, got '${value}'.`);
  return n;
}

function optionalSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const s = Number(value);
  if (!Number.isFinite(s) || s <= 0) throw new UsageError(`--timeout wants a positive number of seconds, got '${value}'.`);
  return s * 1000;
}

/** `--constexpr NAME=NUMBER`, repeated: an integer, or a float for a float constexpr (`beta=0.5`). */
function constexprPairs(pairs: readonly string[] | undefined): Record<string, number> {
  const constexprs: Record<string, number> = {};
  for (const pair of pairs ?? []) {
    const m = /^([A-Za-z_$][\w$]*)=(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$/.exec(pair);
    if (!m || !Number.isFinite(Number(m[2]))) throw new UsageError(`--constexpr wants NAME=NUMBER (an integer, or a float such as 0.5), got '${pair}'.`);
    constexprs[m[1]] = Number(m[2]);
  }
  return constexprs;
}

/** `--program 3` or `--program 1,2`: a program id of the run's grid. */
function programOption(value: string | undefined): { program?: [number, number, number] } {
  if (value === undefined) return {};
  const parts = value.split(",").map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) throw new UsageError(`--program wants a program id such as 3 or 1,2 (x, y, z; y and z default to 0), got '${value}'.`);
  const [x, y = 0, z = 0] = parts.map(Number);
  return { program: [x, y, z] };
}

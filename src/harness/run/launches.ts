// A run with several launches: `launches: [{ kernel, grid, args?, constexprs? }, …]` in place of
// `kernel`/`grid`/`constexprs`. The run's `args(size)` holds every buffer (inputs, outputs and
// scratch buffers such as partial sums) and scalar; each launch binds its kernel's parameters to
// them — by the same name, through a mapping `{ param: "runArg" | number }`, or through a function
// returning the run's own arrays — so launches share buffers. Checked here, field by field.

import type { KernelSource, ParsedFile } from "../../compile";
import type { PointeeDtype } from "../../ir/ir";
import type { HostArray } from "../../language";
import { call, checkKernelArgs, checkKnownFields, checkSharedFields, evaluateGridOf, type CheckedRun, type Fn, type KernelArgs, type KernelSignature, type RunLimits } from "./args";
import { checkConstexprs } from "./check-constexprs";
import { fail, RunCodes } from "../codes";
import type { LoadedRun } from "../load/load";
import { resolveKernelHandle } from "./resolve-runs";
import { show } from "../show";

export interface CheckedLaunch {
  kernel: KernelSource;
  constexprs: Record<string, number>;
  grid: Fn;
  /** Undefined: every parameter takes the run's arg of its name. */
  args?: Record<string, string | number> | Fn;
}

/** A run definition with `launches`, its fields of the right kinds. */
export interface CheckedLaunchRun extends Pick<CheckedRun, "name" | "exportName" | "sizes" | "args" | "outputs" | "reference" | "tolerance" | "bytes" | "flops"> {
  launches: CheckedLaunch[];
}

const KNOWN_FIELDS = new Set(["name", "sizes", "launches", "args", "outputs", "reference", "tolerance", "bytes", "flops"]);
const LAUNCH_FIELDS = new Set(["kernel", "grid", "args", "constexprs"]);
/** Fields of a single-launch run, and what to write instead with `launches`. */
const SINGLE_LAUNCH_FIELDS: Record<string, string> = {
  kernel: "give each launch its own `kernel`: `launches: [{ kernel, grid }, …]`",
  grid: "give each launch its own `grid`",
  constexprs: "give each launch its own `constexprs`",
  configs: "autotuning a run with several launches is not supported yet; remove `configs`",
  baseline: "a baseline for a run with several launches is not supported yet; remove `baseline`",
};

export function hasLaunches(run: LoadedRun): boolean {
  return (run.definition as unknown as Record<string, unknown>).launches !== undefined;
}

export function checkLaunchRunDefinition(run: LoadedRun, kernels: readonly { name: string; ordinal: number }[], parsed: ParsedFile): CheckedLaunchRun {
  const def = run.definition as unknown as Record<string, unknown>;
  const name = run.name;
  for (const [field, instead] of Object.entries(SINGLE_LAUNCH_FIELDS)) {
    if (def[field] !== undefined) fail(name, RunCodes.badLaunches, `\`${field}\``, `a run with \`launches\` has no run-wide \`${field}\`: ${instead}.`);
  }
  checkKnownFields(name, def, KNOWN_FIELDS);
  const shared = checkSharedFields(name, def);
  const given = def.launches;
  if (!Array.isArray(given) || given.length === 0) {
    fail(name, RunCodes.badLaunches, "`launches`", `must be a non-empty array of \`{ kernel, grid, args?, constexprs? }\`, one per kernel launched in order; got ${show(given)}.`);
  }
  const launches = given.map((launch: unknown, i) => checkLaunch(name, i, launch, kernels, parsed));
  const outputs = def.outputs;
  if (!Array.isArray(outputs) || outputs.length === 0 || !outputs.every((o) => typeof o === "string")) {
    fail(name, RunCodes.badOutputs, "`outputs`", `must be a non-empty list of names of the run's \`args\` arrays, e.g. \`outputs: ["out"]\`; got ${show(outputs)}.`);
  }
  if (new Set(outputs).size !== outputs.length) fail(name, RunCodes.badOutputs, "`outputs`", "names an output twice.");
  return { ...shared, exportName: run.exportName, launches, outputs: outputs as string[] };
}

function checkLaunch(name: string, i: number, launch: unknown, kernels: readonly { name: string; ordinal: number }[], parsed: ParsedFile): CheckedLaunch {
  const at = `launches[${i}]`;
  if (typeof launch !== "object" || launch === null || Array.isArray(launch)) {
    fail(name, RunCodes.badLaunches, `\`${at}\``, `must be an object \`{ kernel, grid, args?, constexprs? }\`; got ${show(launch)}.`);
  }
  const l = launch as Record<string, unknown>;
  for (const key of Object.keys(l)) {
    if (!LAUNCH_FIELDS.has(key)) fail(name, RunCodes.badLaunches, `\`${at}.${key}\``, `not a field of a launch. Known fields: ${[...LAUNCH_FIELDS].join(", ")}.`);
  }
  const kernel = resolveKernelHandle(l.kernel, `${at}.kernel`, name, kernels, parsed);
  const { constexprs } = checkConstexprs(name, kernel, l.constexprs ?? {}, undefined, `${at}.constexprs`);
  if (typeof l.grid !== "function") fail(name, RunCodes.notAFunction, `\`${at}.grid\``, `must be a function of the size and the launch's constexprs, e.g. \`grid: (n, c) => [cdiv(n, c.BLOCK_SIZE)]\`; got ${show(l.grid)}.`);
  const args = l.args;
  if (args !== undefined && typeof args !== "function") {
    const ok = typeof args === "object" && args !== null && !Array.isArray(args) && Object.values(args).every((v) => typeof v === "string" || typeof v === "number");
    if (!ok) {
      fail(name, RunCodes.badLaunches, `\`${at}.args\``, `must map the kernel's parameters to names of the run's args (or numbers), e.g. \`{ x_ptr: "x" }\`, or be a function \`(size, constexprs, args) => ({ … })\`; got ${show(args)}.`);
    }
  }
  return { kernel, constexprs, grid: l.grid as Fn, args: args as CheckedLaunch["args"] };
}

/** One launch evaluated for a size: its grid, its kernel's arguments, and the run's arg each pointer is. */
export interface BoundLaunch {
  grid: [number, number, number];
  args: KernelArgs;
  /** Pointer parameter → the name of the run's arg it is bound to. */
  bound: Map<string, string>;
}

export type RunArgs = Record<string, HostArray | number>;

/** The run's `args(size)`: typed arrays and numbers. */
export function makeRunArgs(run: CheckedLaunchRun, size: number): RunArgs {
  const args = call(run.name, RunCodes.argsThrew, "args", run.args, [size]);
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    fail(run.name, RunCodes.argsThrew, "`args`", `must return an object holding every buffer and scalar the launches use; got ${show(args)}.`);
  }
  for (const [key, value] of Object.entries(args)) {
    // Uint8Array / Int8Array: the 8-bit elements of a Ptr<bool>, Ptr<u8>, Ptr<i8> (docs/LANGUAGE.md §2.10).
    const ok = typeof value === "number" || value instanceof Float32Array || value instanceof Int32Array || value instanceof Uint32Array || value instanceof Uint8Array || value instanceof Int8Array;
    if (!ok) fail(run.name, RunCodes.pointerArgType, `\`args.${key}\``, `must be a Float32Array, Int32Array, Uint32Array, Uint8Array, Int8Array or a number; got ${show(value)}.`);
  }
  return args as RunArgs;
}

/** Launch `i`'s parameters bound to the run's args and checked against its kernel. */
export function bindLaunch(run: CheckedLaunchRun, i: number, params: KernelSignature, runArgs: RunArgs, size: number, limits?: RunLimits): BoundLaunch {
  const launch = run.launches[i];
  const at = `launches[${i}].args`;
  const grid = evaluateGridOf(run.name, `launches[${i}].grid`, launch.grid, size, launch.constexprs, limits);
  const launchParams = params.params.filter((p) => p.kind !== "constexpr");
  const given: Record<string, unknown> = {};
  const bound = new Map<string, string>();
  const byName = (param: string, runArg: string) => {
    if (!(runArg in runArgs)) {
      const hint = param === runArg ? `add '${runArg}' to the run's args, or bind it: \`args: { ${param}: "…" }\`` : `the run's args are: ${Object.keys(runArgs).join(", ")}`;
      fail(run.name, RunCodes.badLaunchArgs, `\`${at}\``, `kernel '${params.name}''s parameter '${param}' is bound to '${runArg}', which is not one of the run's args; ${hint}.`);
    }
    given[param] = runArgs[runArg];
    if (typeof runArgs[runArg] !== "number") bound.set(param, runArg);
  };
  if (typeof launch.args === "function") {
    const result = call(run.name, RunCodes.argsThrew, at, launch.args, [size, { ...launch.constexprs }, runArgs]);
    if (typeof result !== "object" || result === null) fail(run.name, RunCodes.argsThrew, `\`${at}\``, `must return an object of the kernel's parameters; got ${show(result)}.`);
    for (const [param, value] of Object.entries(result as Record<string, unknown>)) {
      given[param] = value;
      if (typeof value === "number") continue;
      const runArg = Object.keys(runArgs).find((k) => runArgs[k] === value);
      if (!runArg) {
        fail(run.name, RunCodes.badLaunchArgs, `\`${at}.${param}\``, `${show(value)} is not one of the run's args arrays; launches share buffers through the run's args, so return one of them (e.g. \`args.${param}\`) or add it to the run's args.`);
      }
      bound.set(param, runArg);
    }
  } else {
    const mapping = launch.args ?? {};
    for (const key of Object.keys(mapping)) if (!launchParams.some((p) => p.name === key)) given[key] = mapping[key];
    for (const p of launchParams) {
      const value = mapping[p.name] ?? p.name;
      if (typeof value === "number") given[p.name] = value;
      else byName(p.name, value);
    }
  }
  return { grid, args: checkKernelArgs(run.name, at, params, given, size, limits), bound };
}

/** The dtype of each of the run's args that a launch binds to a pointer; one arg, one dtype. */
export function runArgDtypes(run: CheckedLaunchRun, launches: readonly BoundLaunch[], params: readonly KernelSignature[]): Map<string, PointeeDtype> {
  const dtypes = new Map<string, PointeeDtype>();
  launches.forEach((launch, i) => {
    for (const [param, runArg] of launch.bound) {
      const p = params[i].params.find((q) => q.name === param);
      if (!p || p.kind !== "pointer") continue;
      const known = dtypes.get(runArg);
      if (known && known !== p.dtype) {
        fail(run.name, RunCodes.badLaunchArgs, `\`launches[${i}].args\``, `'${runArg}' is Ptr<${known}> in an earlier launch but ${param} of '${params[i].name}' is Ptr<${p.dtype}>; one buffer has one dtype.`);
      }
      dtypes.set(runArg, p.dtype);
    }
  });
  for (const o of run.outputs) {
    if (!dtypes.has(o)) {
      fail(run.name, RunCodes.badOutputs, "`outputs`", `'${o}' is not bound to a pointer parameter of any launch; outputs are names of the run's args that a launch writes (bound: ${[...dtypes.keys()].join(", ") || "none"}).`);
    }
  }
  return dtypes;
}

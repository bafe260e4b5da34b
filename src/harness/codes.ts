// Stable codes of what can go wrong around a run (KL3xxx, ARCHITECTURE.md). Codes never change
// meaning; retired codes are not reused. GPU failures are the runtime's KL4xxx (runtime/errors.ts).

export const RunCodes = {
  /** The file could not be loaded: unreadable, an import that does not resolve, a syntax error. */
  bundleFailed: "KL3001",
  /** The file threw while its top level ran. */
  loadThrew: "KL3002",
  /** The file exports no `defineRun(...)`. */
  noRuns: "KL3003",
  /** `--run NAME` names no exported run. */
  unknownRun: "KL3004",
  /** Two runs of the file have the same name. */
  duplicateRun: "KL3005",
  /** `--size` is not a positive integer. */
  badSizeOption: "KL3006",

  /** `kernel` is not a value made by `kernel(...)`. */
  notAKernel: "KL3010",
  /** `kernel` names no kernel the compiler found in this file. */
  kernelNotInFile: "KL3011",
  /** `sizes` is not a non-empty array of positive integers. */
  badSizes: "KL3012",
  /** `constexprs` is not an object of numbers (finite; integers for num_warps/num_stages), misses a constexpr parameter, or names an unknown one. */
  badConstexprs: "KL3013",
  /** A field that must be a function is not one. */
  notAFunction: "KL3014",
  /** `grid(...)` threw, or did not return 1 to 3 positive integers. */
  badGrid: "KL3015",
  /** `args(...)` threw or did not return an object. */
  argsThrew: "KL3016",
  /** `args(...)` left out a kernel parameter. */
  missingArg: "KL3017",
  /** `args(...)` gave a name that is not a kernel parameter. */
  extraArg: "KL3018",
  /** A pointer argument is not a typed array of the pointer's dtype. */
  pointerArgType: "KL3019",
  /** A scalar argument is not a finite number of its dtype's range. */
  scalarArg: "KL3020",
  /** `outputs` is not a list of the kernel's pointer parameters. */
  badOutputs: "KL3021",
  /** `reference(...)` threw. */
  referenceThrew: "KL3022",
  /** `reference(...)` left out an output or gave one of the wrong length. */
  referenceShape: "KL3023",
  /** `tolerance` is not `{ atol?, rtol? }` of non-negative numbers. */
  badTolerance: "KL3024",
  /** `bytes(...)` or `flops(...)` threw or did not give a non-negative number. */
  badCount: "KL3025",
  /** `baseline` is not a built-in op, or the run's arguments don't fit it. */
  badBaseline: "KL3026",
  /** A run field the harness does not know (likely a typo). */
  unknownField: "KL3027",
  /** `configs` is not a non-empty list of constexpr alternatives (objects of numbers naming constexpr parameters). */
  badConfigs: "KL3028",
  /** A pointer argument needs a bigger buffer than the adapter allows (maxBufferSize, maxStorageBufferBindingSize). */
  argTooLarge: "KL3029",
  /**
   * `launches` is not a non-empty list of `{ kernel, grid, args?, constexprs? }`, or is given
   * with a field only a single-launch run has (`kernel`, `grid`, `constexprs`, `configs`, `baseline`).
   */
  badLaunches: "KL3030",
  /** A launch's `args` binds a parameter to something that is not one of the run's `args` (a name, or an array by identity). */
  badLaunchArgs: "KL3031",
  /** `shapes(...)` threw, or gave an output a shape that is not [rows, cols] of its length. */
  badShapes: "KL3032",
  /** An i64 argument (a scalar, or an element of a Ptr<i64>'s BigInt64Array) outside 32 bits (README "64-bit integers"; issue 31's KL2090–KL2099). */
  int64Argument: "KL2092",

  /** A launch or readback did not finish within the time limit. */
  timeout: "KL3900",
} as const;

export type RunCode = (typeof RunCodes)[keyof typeof RunCodes];

/** A problem with a run definition or its evaluation, reported as a diagnostic at the run. */
export class RunDefinitionError extends Error {
  constructor(
    readonly code: RunCode,
    message: string,
    /** The exported run it belongs to, when known. */
    readonly run?: string,
  ) {
    super(message);
    this.name = "RunDefinitionError";
  }
}

/** Throws the RunDefinitionError of `field` of run `run`. */
export function fail(run: string, code: RunCode, field: string, message: string): never {
  throw new RunDefinitionError(code, `Run '${run}', ${field}: ${message}`, run);
}

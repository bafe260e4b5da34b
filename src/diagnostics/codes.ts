// Every error code of Kernel Lab, in one table: what the compiler, the harness, the interpreter and
// the GPU runtime report, each with its stable code and what it means. docs/ERRORS.md is generated
// from this file (npx tsx test/support/error-table.ts --write), and test/unit/error-codes.test.ts
// checks that every KLnnnn written anywhere in src/ is here and that every code here is used.
// Codes never change meaning; a retired code is not reused.
//
// Where a new code goes (each group keeps its range):
//   KL1000–1999  COMPILER_CODES     syntax, kernel discovery, unsupported constructs
//   KL2000–2999  COMPILER_CODES     dtypes, block shapes, limits
//   KL3001–3099  RUN_CODES          a run definition and loading its file (harness)
//   KL3100–3119  CPU_RUN_CODES      what a run finds while it runs (interpreter, instrumented GPU launch)
//   KL3120–3139  PYTHON_CODES       running a Python file: the script and its launches
//   KL3140–3199  CPU_RUN_CODES
//   KL3900       RUN_CODES          a run that timed out
//   KL3930–3939  RUN_CODES          a Python launch's pointer arguments that share memory
//   KL4000–4009  GPU_CODES          the GPU runtime (Dawn / WebGPU)
//   KL4010–4019  PYTHON_CODES       the embedded Python (Pyodide)
//   KL4020–4999  GPU_CODES
//   KL9000–9999  BUG_CODES          a bug in Kernel Lab, still reported as a diagnostic

/** One code: its number and what it means, in the user's words (docs/ERRORS.md shows both). */
export interface CodeEntry {
  readonly code: `KL${number}`;
  readonly meaning: string;
}

type Table = Readonly<Record<string, CodeEntry>>;

/** The compiler's diagnostics (semantics, codegen): KL1xxx syntax and constructs, KL2xxx types and shapes. */
export const COMPILER_CODES = {
  // KL1xxx — syntax, kernel discovery, unsupported constructs
  typescriptSyntax: { code: "KL1000", meaning: "The file is not valid TypeScript (TypeScript's own syntax error, at its position)." },
  kernelArgument: { code: "KL1001", meaning: "`kernel(...)` is not given one plain function (an arrow or function expression; not async, not a generator)." },
  kernelName: { code: "KL1002", meaning: "A kernel has no name: name its function or assign it to a `const`." },
  unsupportedSyntax: { code: "KL1003", meaning: "A construct a kernel can't contain (closures, objects, labels, …); the message says what to write instead." },
  unsupportedCall: { code: "KL1004", meaning: "A call of something that is neither `tl.*` nor a kernel (e.g. `Math.exp`), or a kernel that calls itself." },
  unknownIntrinsic: { code: "KL1005", meaning: "A `tl.` name that doesn't exist, or a Triton function with no WGSL meaning; the message names the nearest function or says why." },
  unknownName: { code: "KL1006", meaning: "A name not defined in the kernel (nor a kernel, nor a parameter)." },
  paramAnnotation: { code: "KL1010", meaning: "A kernel parameter without a kernel type (`Ptr<f32>`, `f32`, `i32`, `u32`, `constexpr`, …)." },
  paramForm: { code: "KL1011", meaning: "A parameter that is a pattern, optional, defaulted, a rest parameter or a duplicate." },
  declarationForm: { code: "KL1020", meaning: "A declaration or update kernels don't have: `var`, a `const` without a value, assignment to something other than a local." },
  constReassigned: { code: "KL1021", meaning: "A `const` assigned again; declare it with `let`." },
  unassignedLet: { code: "KL1022", meaning: "A `let` declared without a value, read where some path to it didn't assign it (or a tuple first assigned in a run-time branch or loop)." },
  forLoopForm: { code: "KL1030", meaning: "A `for` loop not of the form `for (let i = a; i < b; i += s)`." },
  counterAssigned: { code: "KL1031", meaning: "A loop counter assigned inside its loop; the `for` statement steps it." },
  intrinsicArgs: { code: "KL1040", meaning: "A `tl.*` call with the wrong number or kind of arguments (count, dtype string, axes)." },
  constantRequired: { code: "KL1041", meaning: "An argument that must be known at compile time (a literal or a constexpr) isn't: `tl.arange` bounds, shapes, flags, the string options of loads, stores and atomics (`evictionPolicy`, `cacheModifier`, `sem`, `scope`)." },
  keywordArgument: { code: "KL1042", meaning: "A keyword argument (the trailing object literal) a function doesn't take, or a parameter given twice." },
  aggregateValue: { code: "KL1043", meaning: "A tuple or a block pointer where one value is needed." },
  destructuring: { code: "KL1044", meaning: "A destructuring pattern that doesn't fit its tuple (count, nesting, rest, defaults, objects)." },
  duplicateKernel: { code: "KL1050", meaning: "Two kernels of the file have the same name." },
  tooDeep: { code: "KL1060", meaning: "Syntax nested deeper than the compiler's passes can recurse (thousands of levels)." },
  helperCall: { code: "KL1070", meaning: "A call of a device function (a kernel(...) called from a kernel): argument count or a constexpr argument." },
  helperReturn: { code: "KL1071", meaning: "`return` where a device function can't have it (not its last statement, or in a launched kernel)." },
  loopExit: { code: "KL1072", meaning: "`break`/`continue` outside a loop, or leaving a `tl.staticRange` loop." },
  staticRange: { code: "KL1073", meaning: "`tl.staticRange`'s bounds, step, trip count or form." },
  combineFunction: { code: "KL1074", meaning: "A `tl.associativeScan` / `tl.reduce` combine function that isn't `(a, b) => expression of a and b`." },
  debugText: { code: "KL1075", meaning: "`tl.devicePrint` / `tl.deviceAssert` text that isn't a string literal." },
  printTooManyValues: { code: "KL1076", meaning: "`tl.devicePrint` given more values than one call prints." },
  staticPrint: { code: "KL1077", meaning: "`tl.staticPrint`'s message (severity info): the values as the compiler sees them." },
  /** A property or method a kernel value, a dtype or `tl` doesn't have (`x.foo`, `tl.float32.element_ty`). */
  unknownMember: { code: "KL1080", meaning: "A property or method that a kernel value, a dtype or `tl` doesn't have (values have `.dtype`, `.type`, `.shape` and `.to(…)`; dtypes `.element_ty`, `.scalar`, `.primitive_bitwidth`, `.is_floating()` …); the message lists what there is." },

  // Triton's own Python (src/python/): KL1100–KL1149
  pythonSyntax: { code: "KL1100", meaning: "A `.py` kernel file that isn't valid Python (a syntax error, found by Lezer's Python parser)." },
  pythonUnsupported: { code: "KL1101", meaning: "A Python construct outside the kernel language (lambda, comprehension, `with`, `try`, class, `**`, slicing…), named in the message." },
  pythonDecorator: { code: "KL1102", meaning: "Warning: a decorator on a `@triton.jit` function that `check` and the editor don't read (a run applies it, as Python does), or autotune configs / heuristics they can't read without running the file." },
  pythonGlobal: { code: "KL1103", meaning: "Warning: a module-level name read in a kernel that isn't a `tl.constexpr` global (Triton refuses it; a dtype global it accepts)." },
  pythonKernelMissing: { code: "KL1104", meaning: "No `@triton.jit` function of the name asked for." },
  pythonLaunchArgs: { code: "KL1105", meaning: "A launch's arguments don't fit the Python kernel's parameters: one missing, or a constexpr without a value." },
  // Kernel-library code as published (Liger-Kernel, FlagGems, unsloth): KL1150–KL1159
  pythonOtherModule: { code: "KL1150", meaning: "A kernel calls a function of another module that Kernel Lab can't read (`tle.program_id(0)` without FlagGems' triton_lang_extension.py beside the script, a C extension, an installed package): runs, `check` and the editor compile the `@triton.jit` functions of `.py` modules beside the script (relative imports inside packages too); copy any other function into the kernel's file and call it by its name." },
  // Tensor descriptors (tl.make_tensor_descriptor, host TensorDescriptor): KL1160–KL1169
  descriptorMisuse: { code: "KL1160", meaning: "A tensor descriptor used where it has no meaning: as a value, with `tl.load`/`tl.store` (use `desc.load(offsets)` / `desc.store(offsets, value)`), with a member it lacks, or assigned another descriptor inside a run-time branch or loop." },

  // KL2xxx — dtypes, block shapes, limits
  shapeMismatch: { code: "KL2001", meaning: "Block shapes that don't broadcast together, or a block where a scalar is needed (or the reverse)." },
  notPowerOfTwo: { code: "KL2002", meaning: "A block extent that isn't a power of two; round it up and mask the rest." },
  operandDtype: { code: "KL2003", meaning: "An operand of the wrong dtype or kind: a pointer where a value is needed, a mask where a number is, a float where an integer is." },
  pointerArithmetic: { code: "KL2004", meaning: "Pointer arithmetic other than `ptr + offsets` / `ptr - offsets` with integer offsets." },
  notAPointer: { code: "KL2005", meaning: "A value where pointers (or a block pointer) are needed: `tl.load`, `tl.store`, atomics, `tl.advance`." },
  blockCondition: { code: "KL2006", meaning: "A block used as the condition of `if`, a loop or `?:`; use masks or `tl.where`." },
  assignType: { code: "KL2007", meaning: "A variable assigned a value of another dtype, block shape or kind than it holds." },
  divisionByZero: { code: "KL2008", meaning: "An integer division or remainder by a constant zero." },
  literalRange: { code: "KL2009", meaning: "An integer literal that doesn't fit in 32 bits." },
  dtypeUnavailable: { code: "KL2010", meaning: "f16 on an adapter without the `shader-f16` feature; the message says what to do instead." },
  constexprMissing: { code: "KL2011", meaning: "A constexpr parameter with no value, or a value out of range (the run's `constexprs` gives it)." },
  badAxis: { code: "KL2012", meaning: "An axis that the block (or the grid: 0, 1, 2) doesn't have, or one axis named twice (`tl.expandDims(x, [0, 0])`)." },
  blockTooLarge: { code: "KL2013", meaning: "A block with more elements than the compiler allows per program (or, as a warning, than compiles well)." },
  storeShape: { code: "KL2014", meaning: "`tl.store` of a value whose shape doesn't fit the pointers' shape." },
  dotShape: { code: "KL2015", meaning: "`tl.dot` of blocks that aren't 2-D (or 3-D batches) with matching inner sizes and batches." },
  workgroupMemory: { code: "KL2016", meaning: "The kernel needs more workgroup memory than the adapter (or, as a warning, WebGPU's default limits) allows; use smaller blocks." },
  reshapeSize: { code: "KL2017", meaning: "`tl.reshape` / `tl.view` to a shape with another number of elements." },
  helperArgType: { code: "KL2070", meaning: "A device function's argument doesn't have the dtype or kind its parameter's annotation names." },
  divergentBarrier: { code: "KL2071", meaning: "A loop with a barrier (reduction, `tl.dot`) left or steered by a value WGSL can't prove uniform." },
  printBlockTooLarge: { code: "KL2072", meaning: "`tl.devicePrint` of a block larger than one call prints; print a smaller block or a reduction of it." },
  assertCondition: { code: "KL2073", meaning: "`tl.deviceAssert`'s condition isn't a mask." },
  staticAssert: { code: "KL2074", meaning: "`tl.staticAssert` whose condition is false, or not known at compile time." },
  unmaskedAccess: { code: "KL2075", meaning: "Warning: a `tl.load`/`tl.store` without a mask whose 1-D offsets come from `tl.programId` and `tl.arange` (the last block can run past the end)." },
  branchTypes: { code: "KL2076", meaning: "A `let` declared without a value, assigned another dtype or block shape in one branch of a run-time `if` than in another." },
  // Tensor descriptors: KL2120–KL2129
  descriptorRank: { code: "KL2120", meaning: "A tensor descriptor's shape, strides or a load's or store's offsets don't have one integer per axis of its block shape." },
  descriptorLastStride: { code: "KL2121", meaning: "`tl.make_tensor_descriptor`'s last stride isn't the constant 1: Triton requires the innermost axis to be contiguous." },
  descriptorStoreShape: { code: "KL2122", meaning: "`desc.store(offsets, value)` (or one of the descriptor's atomics, `desc.atomic_add(offsets, value)` …) of a value whose shape isn't the descriptor's block shape (Triton requires them equal)." },
  // Issue 31: int64, computed in 32 bits (docs/LANGUAGE.md, "64-bit integers")
  int64Constant: { code: "KL2090", meaning: "An i64 constant outside 32 bits where its value, not only its low word, matters (anywhere but `&`, `\|`, `^`, e.g. `x & 0xFFFFFFFF`); int64 is computed in 32 bits." },
  int64Overflow: { code: "KL2091", meaning: "While a kernel runs on the interpreter (`--cpu`): an i64 value outside 32 bits, which the GPU's i32 register can't hold." },
  int64Argument: { code: "KL2092", meaning: "An i64 argument (a scalar, or an element of a `Ptr<i64>`'s BigInt64Array) outside [-2^31, 2^31)." },
  philoxWideCounter: { code: "KL2093", meaning: "`tl.philox` with i64 counters (Triton's Philox 4×64); split them into u32 words as FlagGems does." },
  /** A Triton dtype WGSL has no type for (f64, u64, 8/16-bit integers, fp8), where a value of it would be made. */
  dtypeMissing: { code: "KL2080", meaning: "A Triton dtype that WGSL has no type for (`tl.float64`, `tl.uint64`, 8- and 16-bit integers, fp8), used where a value of it would be made (a cast, `tl.full`, `tl.zeros`); naming and comparing it is fine. The message says what to write instead." },
  /** A dtype where a number is needed, or a dtype compared with a number, or chosen at run time. */
  dtypeAsValue: { code: "KL2081", meaning: "A dtype (`tl.float32`, `x.dtype`) where a number is needed, compared with a number, or chosen by a run-time condition: dtypes are known while compiling." },
  // Multi-operand tl.reduce / tl.associativeScan (Triton's tuple form): KL2130–KL2139
  combineResults: { code: "KL2130", meaning: "A `tl.reduce` / `tl.associativeScan` combine function of a tuple of blocks that returns a different number of values than the blocks it combines (one each), or takes other than two parameters per block." },
  combineOperands: { code: "KL2131", meaning: "The blocks of a multi-operand `tl.reduce` / `tl.associativeScan` (a tuple) differ in shape, or one isn't a block: each must have the first's shape." },
} as const satisfies Table;

/** Problems with a run definition (`defineRun`) or loading its file, reported at the run (harness). */
export const RUN_CODES = {
  bundleFailed: { code: "KL3001", meaning: "The file could not be loaded: unreadable, an import that does not resolve, a syntax error." },
  loadThrew: { code: "KL3002", meaning: "The file threw while its top level ran." },
  noRuns: { code: "KL3003", meaning: "The file exports no `defineRun(...)`." },
  unknownRun: { code: "KL3004", meaning: "`--run NAME` names no exported run." },
  duplicateRun: { code: "KL3005", meaning: "Two runs of the file have the same name." },
  badSizeOption: { code: "KL3006", meaning: "`--size` is not a positive integer." },
  notAKernel: { code: "KL3010", meaning: "`kernel` is not a value made by `kernel(...)`." },
  kernelNotInFile: { code: "KL3011", meaning: "`kernel` names no kernel the compiler found in this file." },
  badSizes: { code: "KL3012", meaning: "`sizes` is not a non-empty array of positive integers." },
  badConstexprs: { code: "KL3013", meaning: "`constexprs` is not an object of numbers (finite; integers for num_warps/num_stages), misses a constexpr parameter, or names an unknown one." },
  notAFunction: { code: "KL3014", meaning: "A field that must be a function is not one." },
  badGrid: { code: "KL3015", meaning: "`grid(...)` threw, or did not return 1 to 3 positive integers." },
  argsThrew: { code: "KL3016", meaning: "`args(...)` threw or did not return an object." },
  missingArg: { code: "KL3017", meaning: "`args(...)` left out a kernel parameter." },
  extraArg: { code: "KL3018", meaning: "`args(...)` gave a name that is not a kernel parameter." },
  pointerArgType: { code: "KL3019", meaning: "A pointer argument is not a typed array of the pointer's dtype." },
  scalarArg: { code: "KL3020", meaning: "A scalar argument is not a finite number of its dtype's range." },
  badOutputs: { code: "KL3021", meaning: "`outputs` is not a list of the kernel's pointer parameters." },
  referenceThrew: { code: "KL3022", meaning: "`reference(...)` threw." },
  referenceShape: { code: "KL3023", meaning: "`reference(...)` left out an output or gave one of the wrong length." },
  badTolerance: { code: "KL3024", meaning: "`tolerance` is not `{ atol?, rtol? }` of non-negative numbers." },
  badCount: { code: "KL3025", meaning: "`bytes(...)` or `flops(...)` threw or did not give a non-negative number." },
  badBaseline: { code: "KL3026", meaning: "`baseline` is not a built-in op, or the run's arguments don't fit it." },
  unknownField: { code: "KL3027", meaning: "A run field the harness does not know (likely a typo)." },
  badConfigs: { code: "KL3028", meaning: "`configs` is not a non-empty list of constexpr alternatives (objects of numbers naming constexpr parameters)." },
  argTooLarge: { code: "KL3029", meaning: "A pointer argument needs a bigger buffer than the adapter allows (maxBufferSize, maxStorageBufferBindingSize)." },
  badLaunches: { code: "KL3030", meaning: "`launches` is not a non-empty list of `{ kernel, grid, args?, constexprs? }`, or is given with a field only a single-launch run has (`kernel`, `grid`, `constexprs`, `configs`, `baseline`)." },
  badLaunchArgs: { code: "KL3031", meaning: "A launch's `args` binds a parameter to something that is not one of the run's `args` (a name, or an array by identity)." },
  badShapes: { code: "KL3032", meaning: "`shapes(...)` threw, or gave an output a shape that is not [rows, cols] of its length." },
  constexprsThrew: { code: "KL3040", meaning: "`constexprs` given as a function of the size (a run's or a launch's) threw for a size." },
  timeout: { code: "KL3900", meaning: "A launch or readback did not finish within the time limit." },
  sharedMemoryDtypes: { code: "KL3930", meaning: "A launch on the GPU whose kernel stores through a pointer argument that shares memory with another one of a different dtype (or not a whole number of elements apart): Kernel Lab binds memory two pointers share as one array of one dtype, so it refuses the launch rather than run it on separate copies; the message says what to pass instead. Same-dtype views of one storage run as on CUDA." },
} as const satisfies Table;

/** What a run finds while the kernel runs, where the GPU would go on silently (interpreter, instrumented launch). */
export const CPU_RUN_CODES = {
  "out-of-bounds": { code: "KL3101", meaning: "An unmasked lane of a load, store or atomic indexed outside its buffer (the GPU would clamp the index)." },
  "step-limit": { code: "KL3102", meaning: "The interpreter did its maximum number of element operations and the kernel was still running." },
  "bad-argument": { code: "KL3103", meaning: "A kernel parameter got no argument, or one of the wrong kind." },
  race: { code: "KL3104", meaning: "Two programs of one launch stored to the same element, not through `tl.atomic*`: which lands last is undefined (an overlapping grid, say). (Issue 29 asked for KL3102, which already meant the step limit.)" },
  "load-of-another-store": { code: "KL3105", meaning: "A warning: a program loads an element another program of the same launch stores, so it may see the old value or the new one." },
  "timed-differs": { code: "KL3106", meaning: "The program Kernel Lab times (specialised for the launch, without the bounds checks of the checked one) gave outputs that mismatch the reference where the checked program matched: the run is reported as not matching; a bug in Kernel Lab's code generation unless programs of the launch race." },
  assertion: { code: "KL3110", meaning: "A `tl.deviceAssert` with a false lane." },
} as const satisfies Table;

/**
 * Running a Python file (`kernel-lab run FILE.py`, docs/LANGUAGE.md §4.1): the script, its launches,
 * the embedded Python. Planned, to be added here when first used: KL3120 the script raised (its
 * traceback), KL3121 a launch of a function the file doesn't define with `@triton.jit`, KL3122 a
 * launch argument a kernel can't take, KL3123 a launch grid that isn't 1 to 3 positive integers.
 */
export const PYTHON_CODES = {
  pythonRaised: { code: "KL3124", meaning: "The Python script raised an exception: the editor marks the script's line of its last frame, with the exception's last line; the traceback is in the results panel and the Kernel Lab Python output." },
  pythonInBrowser: { code: "KL3125", meaning: "A Python file can't run in this browser's VS Code for the Web: the message says what the browser lacks (WebAssembly JSPI, Chrome 137 or later) and where the file does run (the desktop editor, `kernel-lab run FILE.py`)." },
  pythonStart: { code: "KL4010", meaning: "Kernel Lab's embedded Python (Pyodide) could not be started: its files are missing or unreadable." },
} as const satisfies Table;

/** Failures of the GPU runtime; a device error never crashes the process, it surfaces as one of these. */
export const GPU_CODES = {
  "no-adapter": { code: "KL4001", meaning: "No usable WebGPU adapter; the message says how to get one on this OS (exit code 3)." },
  "device-lost": { code: "KL4002", meaning: "The GPU device was lost (driver reset, watchdog)." },
  validation: { code: "KL4003", meaning: "WebGPU rejected an operation (a validation error)." },
  "out-of-memory": { code: "KL4004", meaning: "The GPU ran out of memory." },
  internal: { code: "KL4005", meaning: "The WebGPU implementation reported an internal error." },
  "shader-compile": { code: "KL4006", meaning: "The generated WGSL did not compile; the message lists the WGSL compiler's messages." },
  "buffer-too-large": { code: "KL4007", meaning: "A buffer larger than the adapter allows." },
  "bad-launch": { code: "KL4008", meaning: "A launch the adapter can't run (grid or workgroup size over its limits)." },
} as const satisfies Table;

/** A bug in Kernel Lab: still reported as a diagnostic, never as a stack trace. */
export const BUG_CODES = {
  internal: { code: "KL9000", meaning: "A bug in the compiler, reported at the node being compiled." },
  interpreterInternal: { code: "KL9101", meaning: "IR the interpreter cannot run: a bug in Kernel Lab." },
  runInternal: { code: "KL9300", meaning: "A run or its worker failed in a way no other code describes: a bug in Kernel Lab (--debug shows the stack)." },
  unknownRequest: { code: "KL9301", meaning: "The run worker got a request it doesn't know: a bug in Kernel Lab's editor/worker protocol." },
} as const satisfies Table;

/** Every group, in the order docs/ERRORS.md lists them, with the heading it gets there. */
export const CODE_GROUPS = [
  { title: "Compiler", table: COMPILER_CODES as Table },
  { title: "Run definitions", table: RUN_CODES as Table },
  { title: "While a run runs", table: CPU_RUN_CODES as Table },
  { title: "Running a Python file", table: PYTHON_CODES as Table },
  { title: "GPU runtime", table: GPU_CODES as Table },
  { title: "Bugs in Kernel Lab", table: BUG_CODES as Table },
] as const;

type CodesOf<T extends Table> = { readonly [K in keyof T]: T[K]["code"] };

/** A group's codes by name: `codesOf(RUN_CODES).badSizes` is "KL3012". */
export function codesOf<T extends Table>(table: T): CodesOf<T> {
  return Object.fromEntries(Object.entries(table).map(([name, entry]) => [name, entry.code])) as CodesOf<T>;
}

/** The compiler's codes by name, as diagnostics use them (`Codes.shapeMismatch`); `internal` is KL9000. */
export const Codes = { ...codesOf(COMPILER_CODES), internal: BUG_CODES.internal.code };

export type CodeName = keyof typeof Codes;

// The harness: load a kernel file, check its runs, launch, compare, time, report (docs/LANGUAGE.md §4).
export { runFile, runFileWithOutcome, CPU_ADAPTER, type RunOptions, type FileResult } from "./run/run";
export { loadKernelFile, displayPath, type LoadedFile, type LoadedRun } from "./load/load";
export { checkRunDefinition, evaluateGrid, makeArgs, computeReference, evaluateCount, type CheckedRun, type KernelArgs, type KernelSignature, type Tolerance } from "./run/args";
export { compareOutputs, defaultTolerance, FLOAT32_TOLERANCE, FLOAT16_TOLERANCE, EXACT, type Comparison, type Mismatch, type OutputToCompare } from "./run/compare";
export { RunCodes, RunDefinitionError, type RunCode } from "./codes";
export { EXIT_CODES, type FileReport, type RunReport, type AdapterReport, type TimingReport, type BaselineReport, type MismatchReport, type MismatchMap, type Outcome } from "./report";
export type { WorkerRequest, RunRequest, WorkerMessage, ProgressMessage, ResultMessage, ErrorMessage, Progress } from "./workers/protocol";

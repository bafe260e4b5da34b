// What the main thread (the GPU, the harness) and the Python thread (Pyodide, Kernel Lab's
// `torch` and `triton` modules) say to each other. Python runs synchronously, and a launch needs
// the GPU's answer before the script's next line: the Python thread posts a request and sleeps
// on `Atomics.wait` until the main thread has written the answer into the shared reply block.
// Tensors live in SharedArrayBuffers, so a launch reads and writes their elements in place.

import type { KnobSetting } from "../../ir/knobs";

/** A torch dtype as the kernels see it. */
export type TensorDtype = "float32" | "float16" | "bfloat16" | "int32" | "int64" | "int8" | "uint8" | "uint32" | "bool" | "float8_e4m3fn" | "float8_e5m2";

export type TensorStorage = Float32Array | Int32Array | Uint16Array | Uint8Array | Int8Array | Uint32Array;

/** One argument of `kernel[grid](…)`, bound to its parameter by name (Python's own binding). */
export type LaunchArg =
  /**
   * `data`: the tensor's CPU copy from its first element on (a view passes its offset this way, as a
   * pointer does). With `storage`: the whole storage, bound as its GPU buffer of that id, which is
   * first made or refreshed from `data` when `upload` says the buffer is out of date.
   */
  | { name: string; kind: "tensor"; dtype: TensorDtype; data: TensorStorage; storage?: number; upload?: boolean; descriptor?: DescriptorFields }
  /** `equalTo1`: the value is 1 and the parameter may be specialized on it, as Triton does (compiled as the constant 1). */
  | { name: string; kind: "int"; value: number; equalTo1?: boolean }
  | { name: string; kind: "float"; value: number }
  | { name: string; kind: "bool"; value: boolean }
  | { name: string; kind: "none" }
  /** A parameter annotated `tl.constexpr`: its value specialises the kernel. */
  | { name: string; kind: "constexpr"; value: ConstexprValue };

/** A constexpr argument's value: a tuple (a Python tuple or list of them) crosses as an array. */
export type ConstexprValue = number | boolean | string | null | { dtype: string } | readonly ConstexprValue[];

/**
 * A module beside the script that a kernel's file imports (LaunchRequest.imports). `jitLines`: its
 * names Python bound to a @triton.jit function defined in it, and the line that definition starts
 * at, so a definition inside a module-level `if` is compiled only where it is the one bound.
 */
export interface ImportedModule {
  name: string;
  file: string;
  text: string;
  jitLines?: Record<string, number>;
  /** Its module-level names bound at run time as MathName says (a constexpr bound by a host call: LaunchRequest.mathNames). */
  mathNames?: Record<string, MathName>;
}

/** What a module-level name is bound to at run time (LaunchRequest.mathNames); a dtype by Kernel Lab's name ("f16"). */
export type MathName =
  | { kind: "module" }
  | { kind: "function"; name: string }
  | { kind: "tl"; name: string }
  | { kind: "dtype"; name: string }
  /** A `tl.constexpr` of a number, bool, string or None that the module's text doesn't give (`IS_CUDA = tl.constexpr(is_cuda())`). */
  | { kind: "constexpr"; value: number | boolean | string | null };

/**
 * A host `TensorDescriptor` (triton.tools.tensor_descriptor) passed for the parameter: the tensor is its
 * base; shape and strides are in elements (the last stride 1, Python checked), block shape and padding
 * specialise the kernel (src/python/descriptors.ts).
 */
export interface DescriptorFields {
  shape: number[];
  strides: number[];
  blockShape: number[];
  padding: "zero" | "nan";
}

export interface LaunchRequest {
  kind: "launch";
  kernel: string;
  /** The line of the kernel's `def` (1-based), so two kernels of one name are told apart. */
  defLine: number;
  /** The line of the `kernel[grid](…)` call in the user's file. */
  callLine: number;
  grid: [number, number, number];
  args: LaunchArg[];
  /** `num_warps` / `num_stages` from the launch or an autotune config. */
  options: Record<string, number>;
  /** Inside do_bench's timed calls: queue the launch for timing instead of running it checked. */
  record: boolean;
  /** `kernel.warmup(…)`: compile only; the reply says what Triton's CompiledKernel would (stand-ins in the README). */
  warmup: boolean;
  /**
   * The autotuner compiling a config to see whether it fits (with `warmup`): a config whose blocks
   * don't fit the workgroup memory is an "out-of-resources" error, and its KL2016 isn't the run's.
   */
  probe?: boolean;
  /**
   * A kernel defined in a module other than the script: where to compile it from. `name` is its
   * dotted module name (its relative imports resolve against it); `user` says it is a module beside
   * the script (a kernel library's), launched checked and listed as the script's own kernels are,
   * not one of Kernel Lab's torch's GPU ops. `jitLines` as ImportedModule's, for the kernel's own
   * module: which of its definitions in a module-level `if` Python bound (flashinfer's
   * ssd_chunk_state.py defines `softplus` under `if TRITON3:` and again under `else:`).
   */
  module?: { file: string; text: string; name?: string; user?: boolean; jitLines?: Record<string, number> };
  /**
   * The modules beside the script that the kernel's file imports (`import pkg.mod as m`, `from mod
   * import helper`), by their dotted names, and theirs in turn: a call to one of their @triton.jit
   * functions compiles from their text. Sent with a kernel's first launch of the run.
   */
  imports?: ImportedModule[];
  /**
   * Module-level names of the kernel's file that Python bound at run time to a libdevice / tl.math
   * module or function, or to a tl function, which no static read can tell (FlagGems' `tl_extra_shim`,
   * the backend's math module, imported from its utils; `rsqrt = tl_extra_shim.rsqrt`;
   * `uint_to_uniform_float` imported from random_utils, which bound it to tl's): name → the module,
   * or the function's name there. Sent with a kernel's first launch of the run.
   */
  mathNames?: Record<string, MathName>;
  /** The code generator's knobs @triton.autotune picked with --tune-codegen (autotune.ts); absent: the defaults. */
  codegen?: KnobSetting;
}

/**
 * @triton.autotune's first launch for a key, with --tune-codegen: every config as the launch it
 * would be (its constexprs, num_warps/num_stages and grid). The reply: the picked config's index
 * and knobs, or null where the main thread does not tune code generation (Python then times the
 * configs itself, as without the flag), or "hooks" where it would but `hooks` is set.
 */
export interface AutotuneRequest {
  kind: "autotune";
  kernel: string;
  callLine: number;
  /** The values of the autotuner's `key` arguments, as Python writes them: a new key is tuned afresh. */
  key: string;
  configs: LaunchRequest[];
  /** `reset_to_zero`'s arguments: zeroed in the copies the candidates run on, as Triton zeroes them before each timed run. */
  resetToZero?: string[];
  /** The autotuner or a config has a pre_hook/post_hook: Python code the main thread cannot run on its copies, so Python tunes. */
  hooks?: boolean;
}

/**
 * @triton.autotune(cache_results=True) (autotune-results.ts): "lookup" asks for this key's remembered
 * pick before Python times the configs; "store" remembers the one it picked, with each config's median.
 */
export interface AutotuneResultsRequest {
  kind: "autotune-results";
  op: "lookup" | "store";
  kernel: string;
  /** The key's values and the tensors' dtypes, as Python writes them. */
  key: string;
  /** Every config's constexprs with num_warps and num_stages (integers only: Python asks only then). */
  configs: Record<string, number>[];
  /** The text of the module beside the script that defines the kernel; null: the script does. */
  moduleText: string | null;
  /** "store": the picked config's index and each config's median time in ms (Infinity/NaN: not timed). */
  picked?: number;
  timings?: number[];
}

export type Request =
  | LaunchRequest
  | AutotuneRequest
  | AutotuneResultsRequest
  /** do_bench: the launches recorded since `bench-start`, timed on the GPU. */
  | { kind: "bench-start" }
  | { kind: "bench-stop"; reps: number; warmupMs: number; quantiles: number[] | null }
  | { kind: "device-properties" }
  /**
   * `import mod` of a name Python found nowhere else: the text of mod.py (or mod/__init__.py) beside the script, a
   * namespace package (the folder mod/ without either), or null. With `data`: the text of that one of the package's
   * data files (launch.ts ModuleSource.data), `{ text }`, or null. With `root`: looked for in that folder instead, one
   * the script put on sys.path (`sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))`), as the host names it.
   */
  | { kind: "module-source"; module: string; data?: string; root?: string }
  /** The elements of a storage's GPU buffer, copied into its CPU copy `data` (the script reads a tensor a launch wrote). */
  | { kind: "download"; storage: number; data: TensorStorage };

/**
 * The main thread's answers; `error` becomes a Python exception. "stopped": the debugger took the
 * launch (harness/debug/python-capture.ts) and the script ends there, through an exception that
 * `except Exception` doesn't catch.
 */
export type Reply =
  | { kind: "ok"; value?: unknown }
  | { kind: "error"; error: "compile" | "out-of-resources" | "out-of-bounds" | "assert" | "runtime" | "not-implemented" | "stopped"; message: string };

/** Messages the Python thread posts without waiting. */
export type Notice =
  /** startKind: "snapshot" when Pyodide was restored from the memory snapshot in the cache folder (snapshot-node.ts), "cold" when it started from scratch. */
  | { kind: "ready"; startMs: number; startKind?: "cold" | "snapshot" }
  | { kind: "stdout"; text: string }
  | { kind: "stderr"; text: string }
  | { kind: "check"; line: number; check: "assert_close" | "allclose"; passed: boolean; maxAbsDiff: number | null }
  | { kind: "plot"; title: string; data: unknown }
  /** `id` counts the thread's requests: an answer is taken only for the request the thread still waits on. */
  | { kind: "request"; request: Request; id: number }
  /** A storage Python no longer holds: its GPU buffer can go. */
  | { kind: "free"; storage: number }
  /** The script ended: `error` is the formatted traceback (with `FILE.py:LINE`), absent when it finished. */
  | { kind: "done"; error?: { traceback: string; line: number | null; type: string; launchError?: string } };

/** The main thread's command to the Python thread. */
export interface RunScript {
  kind: "run";
  file: string;
  /** The name the script's frames carry (what a traceback shows). */
  displayName: string;
  text: string;
  bench: BenchMode;
  /** --cpu: launches are interpreted. */
  cpu: boolean;
  /** What the script's `os.environ` holds besides Pyodide's own (host.ts scriptEnvironment; _kernel_lab_runner.py). */
  environ: Record<string, string>;
}

export type BenchMode = "off" | "quick" | "full";

/** The shared block a reply is written into: [state, byte length] then the JSON's bytes. */
export const REPLY_BYTES = 1 << 20;
/** The reply block's header: the state, the reply's length, the id of the request waited on (Int32 each), padded to 16 bytes. */
export const REPLY_HEADER_BYTES = 16;
export const STATE_WAITING = 0;
export const STATE_ANSWERED = 1;

// Checks a run definition against its kernel's parameters and evaluates it for one size: the grid,
// the arguments, the reference. Every problem is a RunDefinitionError with a KL3xxx code, naming
// the run and the field, and saying what to write instead.

import type { Param, PointeeDtype } from "../../ir/ir";
import { isBuiltinHandle, type HostArray } from "../../language";
import { BYTES_PER_ELEMENT } from "../../runtime";
import { checkConstexprs, type KernelSignature } from "./check-constexprs";
import { fail, RunCodes, type RunCode } from "../codes";
import { Codes } from "../../diagnostics/codes";
import { show } from "../show";
import type { LoadedRun } from "../load/load";
import { checkKnobRequest, type KnobRequest } from "../autotune/knob-candidates";

export type { KernelSignature };

export type Fn = (...args: never[]) => unknown;

export interface Tolerance {
  atol: number;
  rtol: number;
}

/** A run definition whose fields have the right kinds; sizes and constexprs are final. */
export interface CheckedRun {
  name: string;
  exportName: string;
  sizes: number[];
  constexprs: Record<string, number>;
  /**
   * Full constexpr sets to autotune over (each of `configs` merged over `constexprs`), in the
   * order written; undefined when the run has no `configs`. `constexprs` may then be incomplete.
   */
  configs?: Record<string, number>[];
  grid: Fn;
  args: Fn;
  outputs: string[];
  reference: Fn;
  /** Undefined: the defaults (exact for integers, float32 defaults for floats). */
  tolerance?: Partial<Tolerance>;
  bytes?: Fn;
  flops?: Fn;
  /** E.g. "builtins.add". */
  baseline?: string;
  /** `(size, constexprs) => ({ out: [rows, cols] })`: outputs read as 2-D (shapes.ts; the mismatch map). */
  shapes?: Fn;
  /** Which code-generation knobs the autotuner crosses with the configs (knob-candidates.ts); false: none, even with `--tune-codegen`. */
  tuneCodegen?: KnobRequest | false;
}

export type KernelArgs = Record<string, HostArray | number>;

const KNOWN_FIELDS = new Set([
  "kernel", "name", "sizes", "constexprs", "configs", "grid", "args", "outputs", "reference", "tolerance", "bytes", "flops", "baseline", "launches", "shapes", "tuneCodegen",
]);

/** Checks every field of a run that does not need calling its functions. */
export function checkRunDefinition(run: LoadedRun, kernel: KernelSignature, knownBuiltins?: ReadonlySet<string>): CheckedRun {
  const def = run.definition as unknown as Record<string, unknown>;
  const name = run.name;
  checkKnownFields(name, def, KNOWN_FIELDS);
  const shared = checkSharedFields(name, def);
  const { constexprs, configs } = checkConstexprs(name, kernel, def.constexprs ?? {}, def.configs);
  if (typeof def.grid !== "function") fail(name, RunCodes.notAFunction, "`grid`", `must be a function; got ${show(def.grid)}.`);
  if (def.shapes !== undefined && typeof def.shapes !== "function") {
    fail(name, RunCodes.notAFunction, "`shapes`", `must be a function of the size and constexprs, e.g. \`shapes: (n) => ({ c_ptr: [n, n] })\`; got ${show(def.shapes)}.`);
  }
  const outputs = checkOutputs(name, kernel, def.outputs);

  let baseline: string | undefined;
  if (def.baseline !== undefined) {
    if (!isBuiltinHandle(def.baseline)) {
      fail(name, RunCodes.badBaseline, "`baseline`", `must be a built-in op such as \`builtins.add\` (import builtins from "kernel-lab"); got ${show(def.baseline)}.`);
    }
    baseline = def.baseline.name;
    if (knownBuiltins && !knownBuiltins.has(baseline)) {
      fail(name, RunCodes.badBaseline, "`baseline`", `'${baseline}' is not available; the built-in ops are ${[...knownBuiltins].join(", ")}.`);
    }
  }

  const tuneCodegen = checkKnobRequest(name, def.tuneCodegen);
  return {
    exportName: run.exportName,
    ...shared,
    constexprs,
    ...(configs ? { configs } : {}),
    ...(tuneCodegen !== undefined ? { tuneCodegen } : {}),
    grid: def.grid as Fn,
    outputs,
    baseline,
  };
}

/** A field not in `known` is likely a typo. */
export function checkKnownFields(name: string, def: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const field of Object.keys(def)) {
    if (!known.has(field)) {
      fail(name, RunCodes.unknownField, `\`${field}\``, `not a field of defineRun. Known fields: ${[...known].join(", ")}.`);
    }
  }
  if (def.name !== undefined && typeof def.name !== "string") {
    fail(name, RunCodes.unknownField, "`name`", "must be a string.");
  }
}

/** The fields every run has, with one launch or several: sizes, args, reference, tolerance, bytes, flops. */
export function checkSharedFields(name: string, def: Record<string, unknown>): Pick<CheckedRun, "name" | "sizes" | "args" | "reference" | "tolerance" | "bytes" | "flops"> {
  const sizes = def.sizes;
  if (!Array.isArray(sizes) || sizes.length === 0 || !sizes.every((s) => Number.isInteger(s) && s > 0)) {
    fail(name, RunCodes.badSizes, "`sizes`", `must be a non-empty array of positive integers, e.g. \`sizes: [98432]\`; got ${show(sizes)}.`);
  }
  for (const field of ["args", "reference"] as const) {
    if (typeof def[field] !== "function") {
      fail(name, RunCodes.notAFunction, `\`${field}\``, `must be a function; got ${show(def[field])}.`);
    }
  }
  for (const field of ["bytes", "flops"] as const) {
    if (def[field] !== undefined && typeof def[field] !== "function") {
      fail(name, RunCodes.notAFunction, `\`${field}\``, `must be a function of the size, e.g. \`${field}: (n) => 12 * n\`; got ${show(def[field])}.`);
    }
  }
  let tolerance: Partial<Tolerance> | undefined;
  if (def.tolerance !== undefined) {
    const t = def.tolerance as Record<string, unknown>;
    const ok = typeof t === "object" && t !== null &&
      Object.keys(t).every((k) => (k === "atol" || k === "rtol") && typeof t[k] === "number" && (t[k] as number) >= 0 && Number.isFinite(t[k]));
    if (!ok) fail(name, RunCodes.badTolerance, "`tolerance`", `must be \`{ atol?: number, rtol?: number }\` with non-negative finite numbers; got ${show(t)}.`);
    tolerance = { ...(t as Partial<Tolerance>) };
  }
  return {
    name,
    sizes: sizes as number[],
    args: def.args as Fn,
    reference: def.reference as Fn,
    tolerance,
    bytes: def.bytes as Fn | undefined,
    flops: def.flops as Fn | undefined,
    ...(def.shapes ? { shapes: def.shapes as Fn } : {}),
  };
}

/** `outputs`: distinct pointer parameters of the kernel. */
function checkOutputs(name: string, kernel: KernelSignature, outputs: unknown): string[] {
  const pointers = kernel.params.filter((p) => p.kind === "pointer").map((p) => p.name);
  if (!Array.isArray(outputs) || outputs.length === 0 || !outputs.every((o) => typeof o === "string")) {
    fail(name, RunCodes.badOutputs, "`outputs`", `must be a non-empty list of pointer parameter names, e.g. \`outputs: ["${pointers.at(-1) ?? "out_ptr"}"]\`; got ${show(outputs)}.`);
  }
  for (const o of outputs as string[]) {
    const param = kernel.params.find((p) => p.name === o);
    if (!param) fail(name, RunCodes.badOutputs, "`outputs`", `'${o}' is not a parameter of kernel '${kernel.name}'. Its pointer parameters are: ${pointers.join(", ") || "none"}.`);
    if (param.kind !== "pointer") fail(name, RunCodes.badOutputs, "`outputs`", `'${o}' is a ${param.kind} parameter, not a pointer; only pointer parameters hold outputs (${pointers.join(", ") || "none"}).`);
  }
  if (new Set(outputs).size !== outputs.length) fail(name, RunCodes.badOutputs, "`outputs`", "names an output twice.");
  return outputs as string[];
}

export function call(run: string, code: RunCode, field: string, fn: Fn, args: unknown[]): unknown {
  try {
    return (fn as (...a: unknown[]) => unknown)(...args);
  } catch (err) {
    fail(run, code, `\`${field}\``, `threw ${err instanceof Error ? `${err.name}: ${err.message}` : show(err)}. Fix the function; it runs on the host.`);
  }
}

/** What the device can take: checked here so the message names the run and its field. */
export interface RunLimits {
  /** Programs in one launch (the grid's product). */
  maxPrograms: number;
  /** Bytes of one pointer argument's buffer. */
  maxBufferBytes: number;
}

/** Launches of more programs than this are refused even on the CPU (WebGPU's dispatch limits allow no more). */
const MAX_PROGRAMS = 2 ** 31 - 1;

/** A device's limits as a run sees them. */
export function runLimits(limits: { maxBufferSize: number; maxStorageBufferBindingSize: number; maxComputeWorkgroupsPerDimension: number }): RunLimits {
  return {
    maxPrograms: Math.min(MAX_PROGRAMS, limits.maxComputeWorkgroupsPerDimension ** 3),
    maxBufferBytes: Math.min(limits.maxBufferSize, limits.maxStorageBufferBindingSize),
  };
}

/** The launch grid, padded to three axes. */
export function evaluateGrid(run: CheckedRun, size: number, limits?: RunLimits): [number, number, number] {
  return evaluateGridOf(run.name, "grid", run.grid, size, run.constexprs, limits);
}

/** `gridFn(size, constexprs)` checked; `field` names it in messages ("grid", "launches[1].grid"). */
export function evaluateGridOf(run: string, field: string, gridFn: Fn, size: number, constexprs: Record<string, number>, limits?: RunLimits): [number, number, number] {
  const at = `\`${field}\``;
  const grid = call(run, RunCodes.badGrid, field, gridFn, [size, { ...constexprs }]);
  if (!Array.isArray(grid) || grid.length < 1 || grid.length > 3) {
    fail(run, RunCodes.badGrid, at, `must return 1 to 3 numbers, e.g. \`[cdiv(n, c.BLOCK_SIZE)]\`; for size ${size} it returned ${show(grid)}.`);
  }
  for (const g of grid) {
    if (typeof g !== "number" || !Number.isInteger(g) || g <= 0) {
      fail(run, RunCodes.badGrid, at, `every axis must be a positive integer (use cdiv to round up); for size ${size} it returned ${show(grid)}.`);
    }
  }
  const full: [number, number, number] = [grid[0], grid[1] ?? 1, grid[2] ?? 1];
  const maxPrograms = limits?.maxPrograms ?? MAX_PROGRAMS;
  const programs = full[0] * full[1] * full[2];
  if (programs > maxPrograms) {
    fail(run, RunCodes.badGrid, at, `for size ${size} it returned ${show(grid)} = ${programs} programs, more than one launch can hold on this device (${maxPrograms}). Give each program more work (a bigger block).`);
  }
  return full;
}

const ARRAY_FOR: Record<PointeeDtype, { ctor: Function; name: string }> = {
  f32: { ctor: Float32Array, name: "Float32Array" },
  i32: { ctor: Int32Array, name: "Int32Array" },
  u32: { ctor: Uint32Array, name: "Uint32Array" },
  // f16 data is written as a Float32Array and rounded to half precision on upload.
  f16: { ctor: Float32Array, name: "Float32Array" },
  // bf16 data too, rounded to bf16 (nearest even) on upload.
  bf16: { ctor: Float32Array, name: "Float32Array" },
  // torch.int64's storage; the values must fit in 32 bits (README "64-bit integers").
  i64: { ctor: BigInt64Array, name: "BigInt64Array" },
  // 8-bit elements one byte each (torch.bool, uint8, int8; codegen/bytes.ts).
  bool: { ctor: Uint8Array, name: "Uint8Array" },
  u8: { ctor: Uint8Array, name: "Uint8Array" },
  i8: { ctor: Int8Array, name: "Int8Array" },
  // fp8 as its bit patterns (ir/f8.ts), as torch's float8_e4m3fn / float8_e5m2 storage holds them.
  f8e4m3: { ctor: Uint8Array, name: "Uint8Array" },
  f8e5m2: { ctor: Uint8Array, name: "Uint8Array" },
};

const HELPER_FOR: Record<PointeeDtype, string> = { f32: "rand(n)", i32: 'rand(n, "i32")', u32: 'rand(n, "u32")', f16: "rand(n)", bf16: "rand(n)", i64: 'rand(n, "i64")', bool: "new Uint8Array(n)", u8: "new Uint8Array(n)", i8: "new Int8Array(n)", f8e4m3: "new Uint8Array(n)", f8e5m2: "new Uint8Array(n)" };

/** Fresh arguments for one size, checked against the kernel's parameters. */
export function makeArgs(run: CheckedRun, kernel: KernelSignature, size: number, limits?: RunLimits): KernelArgs {
  const args = call(run.name, RunCodes.argsThrew, "args", run.args, [size, { ...run.constexprs }]);
  return checkKernelArgs(run.name, "args", kernel, args, size, limits);
}

/**
 * `given` checked against the kernel's parameters, one entry each; `field` names where they came
 * from in messages ("args", or "launches[1].args" for a launch of a run with several).
 */
export function checkKernelArgs(run: string, field: string, kernel: KernelSignature, given: unknown, size: number, limits?: RunLimits): KernelArgs {
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    fail(run, RunCodes.argsThrew, `\`${field}\``, `must return an object with one entry per kernel parameter; got ${show(given)}.`);
  }
  const entries = given as Record<string, unknown>;
  const launchParams = kernel.params.filter((p) => p.kind !== "constexpr");
  for (const key of Object.keys(entries)) {
    const param = kernel.params.find((p) => p.name === key);
    if (!param) {
      fail(run, RunCodes.extraArg, `\`${field}\``, `'${key}' is not a parameter of kernel '${kernel.name}' (its parameters: ${launchParams.map((p) => p.name).join(", ")}). Remove it or fix the name.`);
    }
    if (param.kind === "constexpr") {
      fail(run, RunCodes.extraArg, `\`${field}\``, `'${key}' is a constexpr parameter; give it in \`constexprs\`, not in args.`);
    }
  }
  const out: KernelArgs = {};
  for (const p of launchParams) {
    if (!(p.name in entries)) {
      const hint = p.kind === "pointer" ? HELPER_FOR[p.dtype] : "a number";
      fail(run, RunCodes.missingArg, `\`${field}\``, `no value for kernel parameter '${p.name}' (${describeParam(p)}). Add \`${p.name}: ${hint}\`.`);
    }
    const value = entries[p.name];
    if (p.kind === "pointer") {
      const want = ARRAY_FOR[p.dtype];
      if (!(value instanceof want.ctor)) {
        fail(run, RunCodes.pointerArgType, `\`${field}.${p.name}\``, `${p.name} is ${describeParam(p)}, so its argument must be a ${want.name} (e.g. ${HELPER_FOR[p.dtype]}); got ${show(value)}.`);
      }
      // f16 travels as 2 bytes, 8-bit elements as 1; buffers are padded to 16 (runtime/buffers.ts).
      const bytes = Math.max(16, Math.ceil(((value as HostArray).length * BYTES_PER_ELEMENT[p.dtype]) / 16) * 16);
      if (limits && bytes > limits.maxBufferBytes) {
        const amount = (n: number) => `${n.toLocaleString("en-US")} bytes (${(n / 2 ** 20).toFixed(1)} MiB)`;
        fail(run, RunCodes.argTooLarge, `\`${field}.${p.name}\``, `${show(value)} needs a buffer of ${amount(bytes)}, more than this GPU allows for one storage buffer: ${amount(limits.maxBufferBytes)} (its maxBufferSize / maxStorageBufferBindingSize). Use a smaller size.`);
      }
      if (value instanceof BigInt64Array) checkInt64s(run, `\`${field}.${p.name}\``, p.name, value);
      out[p.name] = value as HostArray;
    } else {
      checkScalar(run, field, p, value, size);
      out[p.name] = value as number;
    }
  }
  return out;
}

function checkScalar(run: string, prefix: string, p: Param, value: unknown, size: number): void {
  const field = `\`${prefix}.${p.name}\``;
  if (typeof value !== "number") fail(run, RunCodes.scalarArg, field, `${p.name} is ${describeParam(p)}, so its argument must be a number; got ${show(value)}.`);
  if (!Number.isFinite(value)) fail(run, RunCodes.scalarArg, field, `must be a finite number; for size ${size} it is ${value}.`);
  if (p.dtype === "i32" && !(Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31)) {
    fail(run, RunCodes.scalarArg, field, `${p.name} is i32, so its argument must be an integer in [-2^31, 2^31); got ${value}.`);
  }
  if (p.dtype === "u32" && !(Number.isInteger(value) && value >= 0 && value < 2 ** 32)) {
    fail(run, RunCodes.scalarArg, field, `${p.name} is u32, so its argument must be an integer in [0, 2^32); got ${value}.`);
  }
  if (p.dtype === "i64" && !(Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31)) {
    fail(run, Codes.int64Argument, field, `${p.name} is i64, which Kernel Lab computes in 32 bits, so its argument must be an integer in [-2^31, 2^31); got ${value}.`);
  }
}

/** A Ptr<i64>'s elements travel as their i32 low words: each must be that word's value. */
function checkInt64s(run: string, field: string, name: string, values: BigInt64Array): void {
  const at = values.findIndex((x) => x < -(2n ** 31n) || x >= 2n ** 31n);
  if (at >= 0) {
    fail(run, Codes.int64Argument, field, `${name} is Ptr<i64>, whose elements Kernel Lab holds in 32 bits, so each must be in [-2^31, 2^31); element ${at} is ${values[at]}.`);
  }
}

function describeParam(p: Param): string {
  return p.kind === "pointer" ? `Ptr<${p.dtype}>` : p.dtype;
}

/** A copy of the arguments: the reference must see the inputs as they were before the kernel ran. */
export function copyArgs(args: KernelArgs): KernelArgs {
  const out: KernelArgs = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === "number" ? v : v.slice();
  return out;
}

/** The expected contents of each output, checked for presence and length. */
export function computeReference(run: Pick<CheckedRun, "name" | "reference" | "outputs">, args: KernelArgs, size: number): Record<string, ArrayLike<number>> {
  const result = call(run.name, RunCodes.referenceThrew, "reference", run.reference, [copyArgs(args), size]);
  if (typeof result !== "object" || result === null) {
    fail(run.name, RunCodes.referenceShape, "`reference`", `must return an object with the expected contents of each output (${run.outputs.join(", ")}); got ${show(result)}.`);
  }
  const expected: Record<string, ArrayLike<number>> = {};
  for (const o of run.outputs) {
    const value = (result as Record<string, unknown>)[o];
    if (value === undefined) {
      fail(run.name, RunCodes.referenceShape, "`reference`", `returned no '${o}'; it must return every output: { ${run.outputs.map((x) => `${x}: …`).join(", ")} }.`);
    }
    if (!isArrayLike(value)) fail(run.name, RunCodes.referenceShape, "`reference`", `'${o}' must be an array or typed array of numbers; got ${show(value)}.`);
    const want = (args[o] as HostArray).length;
    if (value.length !== want) {
      fail(run.name, RunCodes.referenceShape, "`reference`", `'${o}' has ${value.length} elements but the output array has ${want} (size ${size}).`);
    }
    expected[o] = value;
  }
  return expected;
}

function isArrayLike(x: unknown): x is ArrayLike<number> {
  return (Array.isArray(x) || ArrayBuffer.isView(x)) && typeof (x as { length?: unknown }).length === "number";
}

/** A positive count from `bytes(size)` / `flops(size)`, or null when the run declares none. */
export function evaluateCount(run: Pick<CheckedRun, "name" | "bytes" | "flops">, field: "bytes" | "flops", size: number): number | null {
  const fn = run[field];
  if (!fn) return null;
  const n = call(run.name, RunCodes.badCount, field, fn, [size]);
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) {
    fail(run.name, RunCodes.badCount, `\`${field}\``, `must return a non-negative number; for size ${size} it returned ${show(n)}.`);
  }
  return n;
}

// What a kernel file gets from `import { … } from "kernel-lab"` when the harness runs it on the host.
// Kernels are never executed here: `kernel(fn)` only names the function for the compiler, which
// reads the source. Everything else (`defineRun`, the array helpers) is plain host code.

import { EXERCISE_REFERENCES } from "../exercises/references";

/** "bool", "u8" and "i8": one byte per element (Uint8Array, Int8Array), for Ptr<bool>, Ptr<u8>, Ptr<i8>. */
export type HostDtype = "f32" | "i32" | "u32" | "i64" | "bool" | "u8" | "i8";
/** A Ptr<i64>'s argument is a BigInt64Array, as torch.int64's storage (README "64-bit integers"). */
export type HostArray = Float32Array | Int32Array | Uint32Array | BigInt64Array | Uint8Array | Int8Array;

/** Marks values made by this module, so the harness recognises them whatever realm they came from. */
export const BRAND: unique symbol = Symbol.for("kernel-lab.value") as never;

export interface KernelHandle {
  readonly kind: "kernel";
  /** The function's name; empty for an anonymous arrow (the harness then uses the const's name). */
  name: string;
  /** Creation order within the file, used to match an anonymous kernel to the one the compiler found. */
  readonly ordinal: number;
  readonly [BRAND]: true;
}

export interface BuiltinHandle {
  readonly kind: "builtin";
  readonly name: string;
  readonly [BRAND]: true;
}

/** The run definition as the harness receives it; checked field by field in src/harness/run/args.ts. */
export interface RunDefinition {
  kernel: unknown;
  name?: unknown;
  sizes: unknown;
  constexprs?: unknown;
  configs?: unknown;
  tuneCodegen?: unknown;
  grid: unknown;
  args: unknown;
  outputs: unknown;
  reference: unknown;
  tolerance?: unknown;
  bytes?: unknown;
  flops?: unknown;
  baseline?: unknown;
  shapes?: unknown;
}

export interface RunHandle {
  readonly kind: "run";
  readonly definition: RunDefinition;
  readonly [BRAND]: true;
}

let kernelCount = 0;

export function kernel(fn: (...args: never[]) => unknown, name?: string): KernelHandle {
  if (typeof fn !== "function") throw new TypeError("kernel(fn) expects a function expression or an arrow function");
  return Object.freeze({ kind: "kernel", name: fn.name || name || "", ordinal: kernelCount++, [BRAND]: true as const }) as KernelHandle;
}

export function defineRun(definition: RunDefinition): RunHandle {
  return Object.freeze({ kind: "run", definition, [BRAND]: true as const });
}

export function isKernelHandle(x: unknown): x is KernelHandle {
  return isBranded(x) && (x as { kind?: unknown }).kind === "kernel";
}
export function isRunHandle(x: unknown): x is RunHandle {
  return isBranded(x) && (x as { kind?: unknown }).kind === "run";
}
export function isBuiltinHandle(x: unknown): x is BuiltinHandle {
  return isBranded(x) && (x as { kind?: unknown }).kind === "builtin";
}
function isBranded(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[BRAND] === true;
}

// ---- tl: only meaningful inside a kernel, which the compiler reads rather than runs ----

const TL_NAMES = [
  "programId", "numPrograms", "arange", "load", "store", "where",
  "exp", "log", "sqrt", "rsqrt", "abs", "sin", "cos", "floor", "ceil", "sigmoid",
  "maximum", "minimum", "fma", "cast", "cdiv", "zeros", "full",
  "expandDims", "broadcastTo", "reshape", "trans", "sum", "max", "min", "argmax", "dot",
  "atomicAdd", "atomicMax", "atomicMin", "atomicAnd", "atomicOr", "atomicXor", "atomicXchg", "atomicCas",
  "argmin", "xorSum", "cumsum", "cumprod", "associativeScan", "reduce",
] as const;

export type TlName = (typeof TL_NAMES)[number];

export const tl: Readonly<Record<TlName, (...args: unknown[]) => never>> = Object.freeze(
  Object.fromEntries(
    TL_NAMES.map((name) => [
      name,
      () => {
        throw new Error(`tl.${name} can only be called inside a kernel; run the file with kernel-lab`);
      },
    ]),
  ) as Record<TlName, (...args: unknown[]) => never>,
);

// ---- built-in ops to time a kernel against ----

function builtin(name: string): BuiltinHandle {
  return Object.freeze({ kind: "builtin", name, [BRAND]: true as const });
}

export const builtins = Object.freeze({
  add: builtin("builtins.add"),
  sub: builtin("builtins.sub"),
  mul: builtin("builtins.mul"),
  copy: builtin("builtins.copy"),
});

// ---- host-side arrays ----

/** What `empty` fills integer arrays with: an unlikely value, so an element the kernel never wrote shows up. */
export const INT_POISON = 0x7fbadbad;

function allocate(n: number, dtype: HostDtype): HostArray {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`array length must be a non-negative integer, got ${n}`);
  switch (dtype) {
    case "f32":
      return new Float32Array(n);
    case "i32":
      return new Int32Array(n);
    case "u32":
      return new Uint32Array(n);
    case "i64":
      return new BigInt64Array(n);
    case "bool":
    case "u8":
      return new Uint8Array(n);
    case "i8":
      return new Int8Array(n);
    default:
      throw new TypeError(`dtype must be "f32", "i32", "u32", "i64", "bool", "u8" or "i8", got ${JSON.stringify(dtype)}`);
  }
}

/** Fills `a` with `value(i)` (a BigInt64Array takes the integers as BigInts). */
function fill(a: HostArray, value: (i: number) => number): HostArray {
  if (a instanceof BigInt64Array) for (let i = 0; i < a.length; i++) a[i] = BigInt(value(i));
  else for (let i = 0; i < a.length; i++) a[i] = value(i);
  return a;
}

/** Uniform in [0, 1) for f32; integers in [-1024, 1024) for i32 and i64, [0, 2048) for u32; 0 or 1 for bool, every byte for u8 and i8. */
export function rand(n: number, dtype: HostDtype = "f32"): HostArray {
  const a = allocate(n, dtype);
  if (dtype === "f32") return fill(a, () => Math.random());
  if (dtype === "bool") return fill(a, () => (Math.random() < 0.5 ? 1 : 0));
  if (dtype === "u8" || dtype === "i8") return fill(a, () => Math.floor(Math.random() * 256));
  if (dtype === "u32") return fill(a, () => Math.floor(Math.random() * 2048));
  return fill(a, () => Math.floor(Math.random() * 2048) - 1024);
}

/** Standard normal for f32; for integers, a normal of standard deviation 100, rounded (u32: its absolute value). */
export function randn(n: number, dtype: HostDtype = "f32"): HostArray {
  return fill(allocate(n, dtype), () => {
    // Box–Muller; 1 - random() keeps the logarithm finite.
    const g = Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
    return dtype === "f32" ? g : dtype === "u32" ? Math.abs(Math.round(g * 100)) : Math.round(g * 100);
  });
}

export function zeros(n: number, dtype: HostDtype = "f32"): HostArray {
  return allocate(n, dtype);
}

export function full(n: number, value: number, dtype: HostDtype = "f32"): HostArray {
  return fill(allocate(n, dtype), () => value);
}

export function arange(n: number, dtype: HostDtype = "f32"): HostArray {
  return fill(allocate(n, dtype), (i) => i);
}

/** An output buffer filled with poison (NaN, or INT_POISON for integers). */
export function empty(n: number, dtype: HostDtype = "f32"): HostArray {
  const a = allocate(n, dtype);
  poison(a);
  return a;
}

/** Poisons an array in place, as `empty` would have made it. */
export function poison(a: HostArray): void {
  if (a instanceof BigInt64Array) a.fill(BigInt(INT_POISON));
  else a.fill(a instanceof Float32Array ? NaN : INT_POISON);
}

export function cdiv(a: number, b: number): number {
  return Math.floor((a + b - 1) / b);
}

/**
 * The smallest power of two at least `n` (1 for n <= 1), as Triton's `triton.next_power_of_2`:
 * a block that covers a row, `constexprs: (n) => ({ BLOCK_N: nextPowerOf2(n) })`.
 */
export function nextPowerOf2(n: number): number {
  if (!Number.isFinite(n)) throw new RangeError(`nextPowerOf2(${n}): the size must be a finite number`);
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/** Triton's spelling of nextPowerOf2, for code ported from a launcher (`triton.next_power_of_2(N)`). */
export const next_power_of_2 = nextPowerOf2;

/** The exponent of the largest power of two at most `n` (0 for n <= 1), as Triton's `triton.language.standard._log2`. */
export function log2Floor(n: number): number {
  let e = 0;
  for (let m = Math.trunc(n); m > 1; m = Math.floor(m / 2)) e++;
  return e;
}

// ---- exercises: references the learner's file names but does not contain ----

/** Marks a reference made by `exerciseReference`, so a run's report can say which exercise it checked. */
const EXERCISE: unique symbol = Symbol.for("kernel-lab.exercise") as never;

/**
 * The hidden reference of a Kernel Lab exercise (src/exercises/): an exercise file's run says
 * `reference: exerciseReference("puzzle-01")`. An unknown id throws while the file loads.
 */
export function exerciseReference(id: string): (args: unknown, size: number) => Record<string, ArrayLike<number>> {
  const reference = Object.hasOwn(EXERCISE_REFERENCES, id) ? EXERCISE_REFERENCES[id] : undefined;
  if (!reference) {
    throw new Error(`exerciseReference("${id}"): there is no such exercise; the course has ${Object.keys(EXERCISE_REFERENCES).join(", ")}`);
  }
  const checked = (args: unknown, size: number) => reference(args as never, size);
  return Object.defineProperty(checked, EXERCISE, { value: id });
}

/** The exercise a run's reference belongs to, if it was made by `exerciseReference`. */
export function exerciseIdOf(reference: unknown): string | undefined {
  const id = typeof reference === "function" ? (reference as { [EXERCISE]?: unknown })[EXERCISE] : undefined;
  return typeof id === "string" ? id : undefined;
}

/** Triton's libdevice math names (`libdevice.tanh(x)`): only meaningful inside a kernel, which the compiler reads. */
export const libdevice: Readonly<Record<string, never>> = Object.freeze({});

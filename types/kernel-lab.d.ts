// Type declarations for kernel files (`import { … } from "kernel-lab"`).
//
// TypeScript has no operator overloading, so every kernel value — scalar, block or pointer — is a
// `number`, and every mask a `boolean`. The kernel compiler reads the source, infers dtypes and
// block shapes itself and reports its own diagnostics; these types only keep the editor quiet on
// valid kernels and give completion and hover text.

// ---------------------------------------------------------------- kernel value types

/** A 32-bit float value (scalar or block). */
export type f32 = number;
/** A 32-bit signed integer value (scalar or block). */
export type i32 = number;
/** A 32-bit unsigned integer value (scalar or block). */
export type u32 = number;
/** A 16-bit float value; needs an adapter with `shader-f16`. */
export type f16 = number;
/** A compile-time integer parameter: the kernel is specialised for each value. */
export type constexpr = number;
/** A pointer into a buffer of `T`; `ptr + offsets` addresses elements (not bytes). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- T documents the pointee; the compiler reads it.
export type Ptr<T extends f32 | i32 | u32 | f16 = f32> = number;
/** A mask: the result of a comparison, combined with `&&`, `||`, `!`. */
export type Mask = boolean;
/** Names of the element types `tl.cast`, `tl.zeros` and `tl.full` accept. */
export type DtypeName = "f32" | "i32" | "u32" | "f16";
/** A block shape: an array of constexprs, each a power of two. */
export type Shape = readonly number[];

// ---------------------------------------------------------------- kernels

declare const kernelBrand: unique symbol;

/** A kernel function made by `kernel(...)`; launched by a run, never called on the host. */
export interface Kernel<F extends (...args: any[]) => void = (...args: any[]) => void> {
  /**
   * Called from another kernel's body, a kernel is a device function (Triton's `@triton.jit`
   * helper): inlined at the call, its `return` value the call's value. Never called on the host.
   */
  (...args: Parameters<F>): ReturnType<F>;
  readonly kind: "kernel";
  /** The function's name, else the name of the `const` it is assigned to. */
  readonly name: string;
  readonly [kernelBrand]: F;
}

/** Declares a GPU kernel. Its body is compiled to WGSL by Kernel Lab, in the language of `tl`. */
export declare function kernel<F extends (...args: any[]) => void>(fn: F): Kernel<F>;

/** The Triton-style kernel language. Only valid inside a `kernel(...)` body. */
export declare namespace tl {
  /** The id of this program instance along grid axis 0, 1 or 2 (Triton `tl.program_id`). */
  function programId(axis: 0 | 1 | 2): i32;
  /** The number of program instances along grid axis 0, 1 or 2 (Triton `tl.num_programs`). */
  function numPrograms(axis: 0 | 1 | 2): i32;
  /** The i32 block `[start, start + 1, …, end - 1]`; constexpr bounds, length a power of two. */
  function arange(start: constexpr, end: constexpr): i32;
  /** Loads the elements at a block of pointers; masked-off lanes read `other` (default 0). */
  function load(ptrs: number, mask?: Mask, other?: number): number;
  /** Stores a block at a block of pointers; masked-off lanes write nothing. */
  function store(ptrs: number, value: number, mask?: Mask): void;
  /** Element-wise `cond ? a : b`. */
  function where(cond: Mask, a: number, b: number): number;
  /** Element-wise `cond ? a : b` of two masks: a mask. */
  function where(cond: Mask, a: Mask, b: Mask): Mask;
  /** Element-wise e^x. */
  function exp(x: number): number;
  /** Element-wise natural logarithm. */
  function log(x: number): number;
  /** Element-wise square root. */
  function sqrt(x: number): number;
  /** Element-wise 1 / sqrt(x). */
  function rsqrt(x: number): number;
  /** Element-wise absolute value. */
  function abs(x: number): number;
  /** Element-wise sine (radians). */
  function sin(x: number): number;
  /** Element-wise cosine (radians). */
  function cos(x: number): number;
  /** Element-wise round towards -infinity. */
  function floor(x: number): number;
  /** Element-wise round towards +infinity. */
  function ceil(x: number): number;
  /** Element-wise 1 / (1 + e^-x). */
  function sigmoid(x: number): number;
  /** Element-wise larger of `a` and `b`. */
  function maximum(a: number, b: number): number;
  /** Element-wise smaller of `a` and `b`. */
  function minimum(a: number, b: number): number;
  /** Element-wise `a * b + c`. */
  function fma(a: number, b: number, c: number): number;
  /** Converts element-wise to another dtype (Triton `x.to(dtype)`). */
  function cast(x: number | Mask, dtype: DtypeName): number;
  /** Ceiling division `(a + b - 1) / b` of integers. */
  function cdiv(a: number, b: number): number;
  /** Element-wise 2^x (Triton `tl.exp2`). */
  function exp2(x: number): number;
  /** Element-wise base-2 logarithm (Triton `tl.log2`). */
  function log2(x: number): number;
  /** Element-wise hyperbolic tangent (Triton `tl.math.tanh`). */
  function tanh(x: number): number;
  /**
   * Element-wise error function (Triton `tl.erf`). WGSL has none: a series below |x| = 0.5 and
   * Abramowitz–Stegun 7.1.26 above, |error| ≤ 1.5e-7 plus f32 rounding (about 3e-7 in all).
   */
  function erf(x: number): number;
  /** Element-wise x^y on floats (Triton `tl.math.pow`, C's powf: a negative x with an integer y is defined). */
  function pow(x: number, y: number): number;
  /** Float division: integers are converted to f32 first (Triton `tl.fdiv`). */
  function fdiv(x: number, y: number): number;
  /** The high 32 bits of the 64-bit product of two i32/u32 (Triton `tl.umulhi`; unsigned product, on i32 the bits reinterpreted). */
  function umulhi(a: number, b: number): number;
  /** Element-wise `min(max(x, min), max)` (Triton `tl.clamp`); floats or integers. */
  function clamp(x: number, min: number, max: number): number;
  /**
   * Uniform f32 random numbers in [0, 1), one per offset (Triton `tl.rand`): Philox 4×32-10 on
   * counter (offset, 0, 0, 0) and key `seed` (an i32/u32 scalar; offsets an i32/u32 block or
   * scalar). The same seed and offsets give the same numbers on every GPU and with --cpu.
   */
  function rand(seed: number, offsets: number): number;
  /** Standard normal f32 random numbers, one per offset (Triton `tl.randn`: Box–Muller on Philox words 0 and 1). */
  function randn(seed: number, offsets: number): number;
  /** Random u32s, one per offset: Philox's first word (Triton `tl.randint`, which returns uint32). */
  function randint(seed: number, offsets: number): number;
  /**
   * Word `word` (a constexpr 0..3) of Philox's four for each offset, a u32 (Triton `tl.randint4x`
   * returns the four as a tuple; here one call per word: `tl.randint4x(seed, offs, 0)` is `tl.randint`).
   */
  function randint4x(seed: number, offsets: number, word: number): number;
  /**
   * Prints each value (up to 8 scalars or blocks of at most 1024 elements) once per element per
   * program, after the launch: `pid (4, 0, 0) idx (0) x: 0.51` (Triton `tl.device_print`). The
   * prefix is a string literal. Output goes to stderr, or the run's `prints` with `--json`.
   */
  function devicePrint(prefix: string, ...values: (number | Mask)[]): void;
  /**
   * Fails the run where `cond` (a mask, scalar or block) is false, with `message`, the program id
   * and the lane, at this call (Triton `tl.device_assert`). `message` is a string literal.
   */
  function deviceAssert(cond: Mask, message?: string): void;
  /** A block of zeros of a constexpr shape (dtype defaults to f32). */
  function zeros(shape: Shape, dtype?: DtypeName): number;
  /** A block of one value, of a constexpr shape (dtype defaults to f32). */
  function full(shape: Shape, value: number, dtype?: DtypeName): number;
  /** Inserts a size-1 axis at `axis`. */
  function expandDims(x: number, axis: number): number;
  function expandDims(x: Mask, axis: number): Mask;
  /** Stretches size-1 axes (and scalars) to `shape`. */
  function broadcastTo(x: number, shape: Shape): number;
  function broadcastTo(x: Mask, shape: Shape): Mask;
  /** Same elements, new shape with the same element count. */
  function reshape(x: number, shape: Shape): number;
  function reshape(x: Mask, shape: Shape): Mask;
  /** Transposes a 2-D block. */
  function trans(x: number): number;
  function trans(x: Mask): Mask;
  /** Sum along `axis` (all axes when omitted). */
  function sum(x: number, axis?: number): number;
  /** Maximum along `axis` (all axes when omitted). */
  function max(x: number, axis?: number): number;
  /** Minimum along `axis` (all axes when omitted). */
  function min(x: number, axis?: number): number;
  /** Index of the maximum along `axis` (all axes when omitted). */
  function argmax(x: number, axis?: number): i32;
  /** Index of the minimum along `axis`; ties give the smallest index. Triton: `tl.argmin`. */
  function argmin(x: number, axis?: number): i32;
  /** Bitwise xor of an integer block along `axis`. Triton: `tl.xor_sum`. */
  function xorSum(x: number, axis?: number): number;
  /**
   * Inclusive cumulative sum along `axis` (0 for a 1-D block), same shape; `reverse` (a literal)
   * sums from the end. Triton: `tl.cumsum(x, axis, reverse=False)`.
   */
  function cumsum(x: number, axis?: number, reverse?: boolean): number;
  /** Inclusive cumulative product along `axis`; `reverse` from the end. Triton: `tl.cumprod`. */
  function cumprod(x: number, axis?: number, reverse?: boolean): number;
  /**
   * Inclusive scan along `axis` with an associative `combineFn`, an inline arrow of one expression
   * of its two parameters, e.g. `(a, b) => tl.maximum(a, b)` (operators and element-wise tl.* only;
   * it can't use other kernel values). Triton: `tl.associative_scan(x, axis, combine_fn, reverse=False)`.
   */
  function associativeScan(x: number, axis: number, combineFn: (a: number, b: number) => number, reverse?: boolean): number;
  /**
   * Reduction along `axis` with an associative `combineFn` (an inline arrow, as in
   * tl.associativeScan), folded from the axis's first element. Triton: `tl.reduce(x, axis, combine_fn)`.
   */
  function reduce(x: number, axis: number, combineFn: (a: number, b: number) => number): number;
  /** Index of the minimum along `axis`; ties give the smallest index. Triton: `tl.argmin`. */
  function argmin(x: number, axis?: number): i32;
  /** Bitwise xor of an integer block along `axis`. Triton: `tl.xor_sum`. */
  function xorSum(x: number, axis?: number): number;
  /**
   * Inclusive cumulative sum along `axis` (0 for a 1-D block), same shape; `reverse` (a literal)
   * sums from the end. Triton: `tl.cumsum(x, axis, reverse=False)`.
   */
  function cumsum(x: number, axis?: number, reverse?: boolean): number;
  /** Inclusive cumulative product along `axis`; `reverse` from the end. Triton: `tl.cumprod`. */
  function cumprod(x: number, axis?: number, reverse?: boolean): number;
  /**
   * Inclusive scan along `axis` with an associative `combineFn`, an inline arrow of one expression
   * of its two parameters, e.g. `(a, b) => tl.maximum(a, b)` (operators and element-wise tl.* only;
   * it can't use other kernel values). Triton: `tl.associative_scan(x, axis, combine_fn, reverse=False)`.
   */
  function associativeScan(x: number, axis: number, combineFn: (a: number, b: number) => number, reverse?: boolean): number;
  /**
   * Reduction along `axis` with an associative `combineFn` (an inline arrow, as in
   * tl.associativeScan), folded from the axis's first element. Triton: `tl.reduce(x, axis, combine_fn)`.
   */
  function reduce(x: number, axis: number, combineFn: (a: number, b: number) => number): number;
  /**
   * Block matrix product `[M,K] x [K,N] (+ acc)`, accumulated in f32. Two f16 blocks are
   * multiplied exactly (on tensor cores where the GPU offers subgroup matrices: README).
   */
  function dot(a: number, b: number, acc?: number): number;
  /**
   * Atomically adds `value` at each pointer; returns the old contents (Triton `tl.atomic_add(ptr, val, mask=)`).
   * `Ptr<i32>`, `Ptr<u32>` or `Ptr<f32>`; masked-off lanes touch nothing and return 0. WGSL has no
   * float atomics: on `Ptr<f32>` it is a compare-and-swap loop on the float's bits
   * (atomicCompareExchangeWeak on an atomic<u32> view), so many programs adding at one address
   * retry. Programs run in no fixed order (the CPU interpreter runs them one after another), so
   * only order-independent results (sums, counts) are reproducible; f32 sums round differently.
   */
  function atomicAdd(ptrs: number, value: number, mask?: Mask): number;
  /** Atomic maximum at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_max`). Masked-off lanes return 0. */
  function atomicMax(ptrs: number, value: number, mask?: Mask): number;
  /** Atomic minimum at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_min`). Masked-off lanes return 0. */
  function atomicMin(ptrs: number, value: number, mask?: Mask): number;
  /** Atomic bitwise and at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_and`). */
  function atomicAnd(ptrs: number, value: number, mask?: Mask): number;
  /** Atomic bitwise or at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_or`). */
  function atomicOr(ptrs: number, value: number, mask?: Mask): number;
  /** Atomic bitwise xor at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_xor`). */
  function atomicXor(ptrs: number, value: number, mask?: Mask): number;
  /** Atomically writes `value` at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_xchg`; releases a spin lock). */
  function atomicXchg(ptrs: number, value: number, mask?: Mask): number;
  /**
   * Atomic compare-and-swap at each pointer of `Ptr<i32>`/`Ptr<u32>`: writes `value` where the
   * contents equal `cmp`; returns the old contents either way (Triton `tl.atomic_cas(ptr, cmp, val)`,
   * strong: never fails spuriously). On a scalar pointer one invocation per program does it and
   * every invocation gets the result, so `tl.atomicCas(lock, 0, 1) === 1` can steer a spin loop.
   */
  function atomicCas(ptrs: number, cmp: number, value: number, mask?: Mask): number;
  /**
   * The values of a loop unrolled at compile time (Triton `tl.static_range`):
   * `for (const i of tl.staticRange(0, 4)) { … }` copies the body once per value, with `i` a
   * constant. `(end)`, `(start, end)` or `(start, end, step)`, all constexpr; at most 256 trips;
   * no `break`/`continue` inside. Only valid as the iterable of a `for…of`.
   */
  function staticRange(startOrEnd: constexpr, end?: constexpr, step?: constexpr): Iterable<number>;
}

// ---------------------------------------------------------------- runs

/** A host array for a pointer argument. */
export type HostArray = Float32Array | Int32Array | Uint32Array;
/** The dtype of a host array made by the helpers below (default "f32"). */
export type HostDtype = "f32" | "i32" | "u32";
/** An argument of a kernel parameter: a typed array for a pointer, a number for a scalar. */
export type KernelArg = HostArray | number;

/** The names of the pointer (array) arguments of `A`. */
export type PointerArgNames<A> = { [K in keyof A]: A[K] extends number ? never : K }[keyof A] & string;

/** A built-in operation to time a kernel against. */
export interface Builtin {
  readonly kind: "builtin";
  /** E.g. "builtins.add". */
  readonly name: string;
}

/** How a file says what to run: which kernel, on what, how to check and time it. */
export interface RunDefinition<A extends Record<string, KernelArg>, C extends Record<string, number>> {
  /** The kernel to launch, a value made by `kernel(...)`. */
  kernel: Kernel;
  /** Name shown in reports; defaults to the exported name. */
  name?: string;
  /** Problem sizes: the first is the default single run, all of them form a sweep. */
  sizes: number[];
  /**
   * Values of the kernel's `constexpr` parameters (with `configs`: the part they share).
   * `num_warps` (as in Triton) sets the invocations per program instance to 32 × num_warps;
   * `num_stages` 1 turns off the loading of tl.dot's tiles one loop trip ahead (2, the default).
   */
  constexprs?: C;
  /**
   * Alternatives for the autotuner, each merged over `constexprs`: Kernel Lab checks every one
   * against the reference, times the correct ones and runs the fastest for the adapter and size.
   * The choice is cached on disk (`kernel-lab run --retune` tunes again).
   */
  configs?: NoInfer<Partial<C> & { num_warps?: number; num_stages?: number }>[];
  /** The launch grid: 1 to 3 positive integers. */
  grid: (size: number, constexprs: C) => number[];
  /** Every kernel parameter by name: a typed array for a pointer, a number for a scalar. Fresh for every run. */
  args: (size: number, constexprs: C) => A;
  /** The pointer parameters whose contents are checked against the reference. */
  outputs: PointerArgNames<A>[];
  /** Plain TypeScript on the CPU: the expected contents of each output. */
  reference: (args: A, size: number) => Partial<Record<PointerArgNames<A>, ArrayLike<number>>>;
  /** A float output passes where `abs(out - ref) <= atol + rtol * abs(ref)`; integers are exact by default. */
  tolerance?: { atol?: number; rtol?: number };
  /** Bytes moved, for GB/s. */
  bytes?: (size: number) => number;
  /** Floating-point operations, for GFLOP/s. */
  flops?: (size: number) => number;
  /** A built-in op to time the kernel against, e.g. `builtins.add`. */
  baseline?: Builtin;
  /**
   * Outputs that are 2-D matrices, as `[rows, cols]` (row-major): a mismatch then comes with
   * `mismatchMap`, a coarse map of the wrong regions (the results panel draws it as a heatmap).
   */
  shapes?: (size: number, constexprs: C) => Partial<Record<PointerArgNames<A>, [number, number]>>;
}

declare const runBrand: unique symbol;

/** A run made by `defineRun`; export it so `kernel-lab run` finds it. */
export interface Run {
  readonly kind: "run";
  readonly [runBrand]: true;
}

/**
 * One launch of a run with several (`launches`): a kernel, its grid and constexprs, and which of
 * the run's args each of its parameters is. Launches run in order and share the run's buffers.
 */
export interface Launch<A extends Record<string, KernelArg>> {
  /** The kernel to launch, a value made by `kernel(...)`. */
  kernel: Kernel;
  /** Values of this kernel's `constexpr` parameters (and `num_warps`, `num_stages`). */
  constexprs?: Record<string, number>;
  /** This launch's grid: 1 to 3 positive integers. */
  grid: (size: number, constexprs: Record<string, number>) => number[];
  /**
   * Which of the run's args each kernel parameter takes. Left out: the arg of the parameter's own
   * name. A mapping `{ param: "runArgName" | number }`: the parameters it names (others still by
   * their own name). A function: the parameters' values, each array one of the run's args (`a.X`).
   */
  args?: { [param: string]: (keyof A & string) | number } | ((size: number, constexprs: Record<string, number>, args: NoInfer<A>) => Record<string, KernelArg>);
}

/**
 * A run that launches several kernels in sequence (e.g. partial sums, then their reduction):
 * `launches` replaces `kernel`, `grid` and `constexprs`. It is checked once, after the last
 * launch, and timed as a whole and each launch on its own.
 */
export interface LaunchesRunDefinition<A extends Record<string, KernelArg>> {
  /** The kernels launched, in order. */
  launches: Launch<A>[];
  /** Name shown in reports; defaults to the exported name. */
  name?: string;
  /** Problem sizes: the first is the default single run, all of them form a sweep. */
  sizes: number[];
  /** Every buffer (inputs, outputs, scratch such as partial sums) and scalar the launches use. Fresh for every run. */
  args: (size: number) => A;
  /** The run's args whose contents are checked against the reference after the last launch. */
  outputs: PointerArgNames<A>[];
  /** Plain TypeScript on the CPU: the expected contents of each output. */
  reference: (args: A, size: number) => Partial<Record<PointerArgNames<A>, ArrayLike<number>>>;
  /** A float output passes where `abs(out - ref) <= atol + rtol * abs(ref)`; integers are exact by default. */
  tolerance?: { atol?: number; rtol?: number };
  /** Bytes moved by the whole sequence, for GB/s. */
  bytes?: (size: number) => number;
  /** Floating-point operations of the whole sequence, for GFLOP/s. */
  flops?: (size: number) => number;
}

/** Declares a run of several launches: export the result from a `.kernel.ts` file. */
export declare function defineRun<A extends Record<string, KernelArg>>(definition: LaunchesRunDefinition<A>): Run;
/** Declares a run: export the result from a `.kernel.ts` file. */
// C comes from `constexprs`; with only `configs`, any constexpr name reads as a number.
export declare function defineRun<A extends Record<string, KernelArg>, C extends Record<string, number> = Record<string, number>>(
  definition: RunDefinition<A, C>,
): Run;

// ---------------------------------------------------------------- host helpers

/** Uniform random numbers: [0, 1) for f32, integers in [-1024, 1024) for i32, [0, 2048) for u32. */
export declare function rand(n: number): Float32Array;
export declare function rand(n: number, dtype: "f32"): Float32Array;
export declare function rand(n: number, dtype: "i32"): Int32Array;
export declare function rand(n: number, dtype: "u32"): Uint32Array;
/** Normal random numbers (mean 0, standard deviation 1; integers: 100, rounded). */
export declare function randn(n: number): Float32Array;
export declare function randn(n: number, dtype: "f32"): Float32Array;
export declare function randn(n: number, dtype: "i32"): Int32Array;
export declare function randn(n: number, dtype: "u32"): Uint32Array;
/** An array of zeros. */
export declare function zeros(n: number): Float32Array;
export declare function zeros(n: number, dtype: "f32"): Float32Array;
export declare function zeros(n: number, dtype: "i32"): Int32Array;
export declare function zeros(n: number, dtype: "u32"): Uint32Array;
/** An array of one value. */
export declare function full(n: number, value: number): Float32Array;
export declare function full(n: number, value: number, dtype: "f32"): Float32Array;
export declare function full(n: number, value: number, dtype: "i32"): Int32Array;
export declare function full(n: number, value: number, dtype: "u32"): Uint32Array;
/** The array `[0, 1, …, n - 1]`. */
export declare function arange(n: number): Float32Array;
export declare function arange(n: number, dtype: "f32"): Float32Array;
export declare function arange(n: number, dtype: "i32"): Int32Array;
export declare function arange(n: number, dtype: "u32"): Uint32Array;
/** An output array filled with poison (NaN, or 0x7fbadbad for integers): an element the kernel never writes is caught. */
export declare function empty(n: number): Float32Array;
export declare function empty(n: number, dtype: "f32"): Float32Array;
export declare function empty(n: number, dtype: "i32"): Int32Array;
export declare function empty(n: number, dtype: "u32"): Uint32Array;
/** Ceiling division of integers: `ceil(a / b)`. */
export declare function cdiv(a: number, b: number): number;

/** Built-in operations to time kernels against (`baseline: builtins.add`). */
export declare const builtins: {
  /** out = x + y, element-wise. */
  readonly add: Builtin;
  /** out = x - y, element-wise. */
  readonly sub: Builtin;
  /** out = x * y, element-wise. */
  readonly mul: Builtin;
  /** out = x. */
  readonly copy: Builtin;
};

// ---------------------------------------------------------------- exercises

/** The exercises of Kernel Lab's course (Kernel Lab: Open Exercise…): Triton-Puzzles 1–12 and Triton's tutorials 1–6. */
export type ExerciseId =
  | "puzzle-01" | "puzzle-02" | "puzzle-03" | "puzzle-04" | "puzzle-05" | "puzzle-06"
  | "puzzle-07" | "puzzle-08" | "puzzle-09" | "puzzle-10" | "puzzle-11" | "puzzle-12"
  | "tutorial-01" | "tutorial-02" | "tutorial-03" | "tutorial-04" | "tutorial-05" | "tutorial-06";

/**
 * An exercise's hidden reference (`reference: exerciseReference("puzzle-01")`): Kernel Lab keeps
 * it, so the exercise file doesn't give the answer away. A run checked against it that matches
 * marks the exercise solved (the Exercises view).
 */
// The arguments and outputs are the exercise's own, checked by the run against its kernel.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export declare function exerciseReference(id: ExerciseId): (args: any, size: number) => any;

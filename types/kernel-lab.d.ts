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
/**
 * A bfloat16 value (Triton's tl.bfloat16, torch.bfloat16), held in an f32 register; no adapter feature needed.
 * Arithmetic of two bf16s is rounded to bf16 after each op, as Triton's; `/` and `%` give f32, as Triton's.
 * A `Ptr<bf16>`'s argument is a Float32Array, rounded to bf16 on upload; a store rounds to nearest even.
 */
export type bf16 = number;
/**
 * A 64-bit signed integer (Triton's int64), computed in 32 bits: its values must fit in
 * [-2^31, 2^31), as every offset into a buffer does (`--cpu` stops with KL2091 where one doesn't).
 * A `Ptr<i64>`'s argument is a BigInt64Array.
 */
export type i64 = number;
/** A compile-time integer parameter: the kernel is specialised for each value. */
export type constexpr = number;
/**
 * 8-bit elements, only as a pointer's `T` (torch.bool, int8, uint8: one byte each in memory).
 * `tl.load` of a `Ptr<bool>` gives a mask; of a `Ptr<i8>` / `Ptr<u8>` an i32, sign- / zero-extended.
 * `tl.store` writes the byte (a value's low 8 bits; a mask as 0 or 1). Arguments: Uint8Array (Int8Array for i8).
 */
export type bool = boolean;
/** A signed byte, only as `Ptr<i8>`'s element (see `bool`). */
export type i8 = number;
/** An unsigned byte, only as `Ptr<u8>`'s element (see `bool`). */
export type u8 = number;
/**
 * An 8-bit float, fp8 e4m3fn (torch.float8_e4m3fn, Triton's tl.float8e4nv: no infinities, largest 448),
 * only as `Ptr<f8e4m3>`'s element: one byte each in memory. `tl.load` gives its value as an f32 (exact);
 * `tl.store` of an f32 rounds to nearest even, saturating at ±448, as Triton's conversion. Arguments:
 * Uint8Array of the bit patterns.
 */
export type f8e4m3 = number;
/**
 * An 8-bit float, fp8 e5m2 (torch.float8_e5m2, Triton's tl.float8e5: an f16's top byte, with infinities, largest
 * finite 57344), only as `Ptr<f8e5m2>`'s element, as `f8e4m3`: loads exact, stores rounded to nearest even
 * saturating at ±57344 (Triton's conversion). Arguments: Uint8Array of the bit patterns.
 */
export type f8e5m2 = number;
/** A pointer into a buffer of `T`; `ptr + offsets` addresses elements (not bytes). */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- T documents the pointee; the compiler reads it.
export type Ptr<T extends f32 | i32 | u32 | f16 | bf16 | i64 | bool | i8 | u8 | f8e4m3 | f8e5m2 = f32> = number;
/** A mask: the result of a comparison, combined with `&&`, `||`, `!`. */
export type Mask = boolean;
/**
 * The element types `tl.cast`, `x.to`, `tl.zeros` and `tl.full` accept: a dtype value (`tl.float32`,
 * `x.dtype`, `p.dtype.element_ty`, a const holding one) or Kernel Lab's name of it.
 */
export type DtypeName = "f32" | "i32" | "u32" | "f16" | "bf16" | "i64" | tl.dtype;
/** A block shape: an array of constexprs, each a power of two. */
export type Shape = readonly number[];
/** A window into a strided tensor, made by `tl.makeBlockPtr`, moved by `tl.advance`, read and written by `tl.load` / `tl.store`. */
export interface BlockPointer {
  readonly kind: "blockPointer";
}
/**
 * A tensor descriptor (Triton's `tl.tensor_descriptor`), made by `tl.makeTensorDescriptor` or given
 * by a Python launch's host `TensorDescriptor`: a strided tensor read and written a block at a time.
 * Elements outside its shape read as 0 (or NaN with `paddingOption: "nan"`) and are not written.
 */
export interface TensorDescriptor {
  readonly kind: "tensorDescriptor";
  /** The block at element `offsets`, one per axis (Triton `desc.load(offsets)`). */
  load(offsets: readonly number[]): number;
  /** Writes `value` (of the block shape) at element `offsets` (Triton `desc.store(offsets, value)`). */
  store(offsets: readonly number[], value: number): void;
  /** Adds `value` (of the block shape) atomically to the block at `offsets`, elements outside the shape left out (Triton `desc.atomic_add`): i32, u32 and f32. */
  atomic_add(offsets: readonly number[], value: number): void;
  /** Atomic elementwise minimum into the block at `offsets` (Triton `desc.atomic_min`): i32 and u32. */
  atomic_min(offsets: readonly number[], value: number): void;
  /** Atomic elementwise maximum into the block at `offsets` (Triton `desc.atomic_max`): i32 and u32. */
  atomic_max(offsets: readonly number[], value: number): void;
  /** Atomic bitwise and into the block at `offsets` (Triton `desc.atomic_and`): i32 and u32. */
  atomic_and(offsets: readonly number[], value: number): void;
  /** Atomic bitwise or into the block at `offsets` (Triton `desc.atomic_or`): i32 and u32. */
  atomic_or(offsets: readonly number[], value: number): void;
  /** Atomic bitwise xor into the block at `offsets` (Triton `desc.atomic_xor`): i32 and u32. */
  atomic_xor(offsets: readonly number[], value: number): void;
  readonly shape: readonly number[];
  readonly strides: readonly number[];
  readonly block_shape: readonly number[];
  readonly block_type: tl.dtype;
  readonly dtype: tl.dtype;
}

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

/**
 * The Triton-style kernel language. Only valid inside a `kernel(...)` body. Each function is
 * Triton's `tl.<name>` in camelCase, with Triton's positional parameters in Triton's order; its
 * keyword arguments go in a trailing object literal with camelCase keys (docs/LANGUAGE.md §2.1):
 * `tl.load(p, { mask: m, other: 0 })` is Triton's `tl.load(p, mask=m, other=0)`.
 */
export declare namespace tl {
  /**
   * A Triton dtype as a kernel value, known while compiling (`tl.float32`, `x.dtype`): held in a
   * const, compared with `===` (Python's `is`), chosen with a constexpr condition, passed to device
   * functions, used wherever a dtype goes. One WGSL has no type for (`tl.float64`, `tl.int16`,
   * 64-bit unsigned, fp8) may be named and compared; making a value of it is KL2080.
   */
  interface dtype {
    /** A pointer type's pointee (`p.dtype.element_ty`, `p.type.element_ty`), a block type's element. */
    readonly element_ty: dtype;
    /** A block type's element type; a dtype's itself. */
    readonly scalar: dtype;
    /** Its width in bits (int1: 1). */
    readonly primitive_bitwidth: number;
    is_floating(): boolean;
    is_int(): boolean;
    is_int_signed(): boolean;
    is_int_unsigned(): boolean;
    is_bool(): boolean;
    is_fp16(): boolean;
    is_bf16(): boolean;
    is_fp32(): boolean;
    is_fp64(): boolean;
    is_int1(): boolean;
    is_int32(): boolean;
    is_int64(): boolean;
    is_uint32(): boolean;
    is_ptr(): boolean;
    is_block(): boolean;
  }
  /** The dtype a name makes, while compiling (Triton `tl.dtype("int32")`; `tl.dtype("fp32")` is tl.float32): a string, or a template of constexprs. */
  function dtype(name: string): dtype;
  /** Triton `tl.float32`: 32-bit float; Kernel Lab's "f32". */
  const float32: dtype;
  /** Triton `tl.float16`: 16-bit float; Kernel Lab's "f16" (needs shader-f16). */
  const float16: dtype;
  /** Triton `tl.int32`: 32-bit signed integer; Kernel Lab's "i32". */
  const int32: dtype;
  /** Triton `tl.uint32`: 32-bit unsigned integer; Kernel Lab's "u32". */
  const uint32: dtype;
  /** Triton `tl.int1`: a mask (a comparison's result); `x.to(tl.int1)` is `x != 0`. */
  const int1: dtype;
  /** Triton `tl.bfloat16`: bfloat16; Kernel Lab's "bf16" (held in an f32, rounded to bf16 where Triton's result is one). */
  const bfloat16: dtype;
  /** Triton `tl.float64`: 64-bit float: WGSL has none (KL2080 where a value of it is made). */
  const float64: dtype;
  /** Triton `tl.int64`: 64-bit signed integer. */
  const int64: dtype;
  /** Triton `tl.uint64`: 64-bit unsigned integer: WGSL has none (KL2080). */
  const uint64: dtype;
  /** Triton `tl.int8`: 8-bit integer: WGSL has none (KL2080). */
  const int8: dtype;
  /** Triton `tl.int16`: 16-bit integer: WGSL has none (KL2080). */
  const int16: dtype;
  /** Triton `tl.uint8`: 8-bit unsigned integer: WGSL has none (KL2080). */
  const uint8: dtype;
  /** Triton `tl.uint16`: 16-bit unsigned integer: WGSL has none (KL2080). */
  const uint16: dtype;
  /** Triton `tl.float8e4nv`: fp8 (e4m3): WGSL has none (KL2080). */
  const float8e4nv: dtype;
  /** Triton `tl.float8e5`: fp8 (e5m2): WGSL has none (KL2080). */
  const float8e5: dtype;
  /** Triton `tl.float8e4b15`: fp8: WGSL has none (KL2080). */
  const float8e4b15: dtype;
  /** Triton `tl.float8e4b8`: fp8: WGSL has none (KL2080). */
  const float8e4b8: dtype;
  /** Triton `tl.float8e5b16`: fp8: WGSL has none (KL2080). */
  const float8e5b16: dtype;
  /**
   * Marks a value known while compiling (Triton `tl.constexpr(…)`): `if (tl.constexpr(x.dtype === tl.float16))`
   * keeps only the branch taken; a run-time value is KL1041.
   */
  function constexpr<T>(value: T): T;
  /** Triton's `tl.math`: the math functions under their libdevice names (`tl.math.rsqrt(x)`; README, *Math namespaces*). */
  export import math = kl_libdevice;
  /** Triton's `tl.extra.libdevice` (and `tl.extra.cuda.libdevice`): the portable libdevice names. */
  namespace extra {
    export import libdevice = kl_libdevice;
    namespace cuda {
      export import libdevice = kl_libdevice;
    }
  }
  /** The id of this program instance along grid axis 0, 1 or 2 (Triton `tl.program_id`). */
  function programId(axis: 0 | 1 | 2 | { axis: 0 | 1 | 2 }): i32;
  /** The number of program instances along grid axis 0, 1 or 2 (Triton `tl.num_programs`). */
  function numPrograms(axis: 0 | 1 | 2 | { axis: 0 | 1 | 2 }): i32;
  /** The i32 block `[start, start + 1, …, end - 1]`; constexpr bounds, length a power of two (Triton `tl.arange`). */
  function arange(start: constexpr, end: constexpr): i32;

  /** `tl.load`'s keyword arguments (Triton's names in camelCase). */
  interface LoadKeywords {
    mask?: Mask;
    /** What masked-off lanes read (default 0). */
    other?: number;
    /** For a block pointer: the axes whose bounds are checked (Triton's `boundary_check`). */
    boundaryCheck?: readonly number[];
    /** For a block pointer: what out-of-bounds elements read, `"zero"` or `"nan"` (Triton's `padding_option`). */
    paddingOption?: "" | "zero" | "nan";
    /** Accepted; a hint to Triton's compiler with no effect here. */
    cacheModifier?: string;
    /** Accepted; a hint to Triton's compiler with no effect here. */
    evictionPolicy?: string;
    /** Accepted; a hint to Triton's compiler with no effect here. */
    volatile?: boolean;
  }
  /**
   * Loads the elements at a block of pointers; masked-off lanes read `other` (default 0) and touch
   * no memory (Triton `tl.load(pointer, mask=None, other=None, …)`). Through a `Ptr<bool>` it
   * gives a mask (`other` may be `false`); through a `Ptr<i8>` / `Ptr<u8>` i32 values.
   */
  function load(pointer: number, mask?: Mask | LoadKeywords, other?: number | boolean | LoadKeywords, keywords?: LoadKeywords): number;
  /**
   * Loads a block pointer's window: `tl.load(bp, { boundaryCheck: [0, 1], paddingOption: "zero" })`
   * reads 0 (or NaN) where an axis it names is out of the tensor's shape (Triton `tl.load(block_ptr, boundary_check=…)`).
   */
  function load(pointer: BlockPointer, keywords?: LoadKeywords): number;

  /** `tl.store`'s keyword arguments. */
  interface StoreKeywords {
    value?: number;
    mask?: Mask;
    /** For a block pointer: the axes whose bounds are checked (Triton's `boundary_check`). */
    boundaryCheck?: readonly number[];
    /** Accepted; a hint to Triton's compiler with no effect here. */
    cacheModifier?: string;
    /** Accepted; a hint to Triton's compiler with no effect here. */
    evictionPolicy?: string;
  }
  /** Stores a block at a block of pointers; masked-off lanes write nothing (Triton `tl.store(pointer, value, mask=None)`). A mask is stored through a `Ptr<bool>` only. */
  function store(pointer: number, value: number | boolean | StoreKeywords, mask?: Mask | StoreKeywords, keywords?: StoreKeywords): void;
  /** Stores a block at a block pointer's window, where the axes `boundaryCheck` names are in bounds (Triton `tl.store(block_ptr, value, boundary_check=…)`). */
  function store(pointer: BlockPointer, value: number, keywords?: StoreKeywords): void;

  /** Element-wise `condition ? x : y` (Triton `tl.where`); a numeric condition is true where it is nonzero, as Triton casts it. */
  function where(condition: Mask | number, x: number, y: number): number;
  /** Element-wise `condition ? x : y` of two masks: a mask (Triton `tl.where`). */
  function where(condition: Mask | number, x: Mask, y: Mask): Mask;
  /** Element-wise e^x (Triton `tl.exp`). */
  function exp(x: number): number;
  /** Element-wise natural logarithm (Triton `tl.log`). */
  function log(x: number): number;
  /** Element-wise square root (Triton `tl.sqrt`; WGSL's accuracy, see `tl.sqrtRn`). */
  function sqrt(x: number): number;
  /** Element-wise 1 / sqrt(x) (Triton `tl.rsqrt`). */
  function rsqrt(x: number): number;
  /** Element-wise absolute value (Triton `tl.abs`). */
  function abs(x: number): number;
  /** Element-wise sine, radians (Triton `tl.sin`). */
  function sin(x: number): number;
  /** Element-wise cosine, radians (Triton `tl.cos`). */
  function cos(x: number): number;
  /** Element-wise round towards -infinity (Triton `tl.floor`). */
  function floor(x: number): number;
  /** Element-wise round towards +infinity (Triton `tl.ceil`). */
  function ceil(x: number): number;
  /** Element-wise 1 / (1 + e^-x) (Triton `tl.sigmoid`). */
  function sigmoid(x: number): number;

  /** Keyword arguments of `tl.maximum`, `tl.minimum` and `tl.clamp`. */
  interface NanKeywords {
    /** Triton's `propagate_nan`: `"all"` (`tl.PropagateNan.ALL`) gives NaN wherever an operand is NaN; `"none"` (the default) leaves NaN handling to the GPU (WGSL's min and max). */
    propagateNan?: "all" | "none" | null;
  }
  /** Element-wise larger of `x` and `y` (Triton `tl.maximum`). */
  function maximum(x: number, y: number, keywords?: NanKeywords): number;
  /** Element-wise smaller of `x` and `y` (Triton `tl.minimum`). */
  function minimum(x: number, y: number, keywords?: NanKeywords): number;
  /** Element-wise `x * y + z` (Triton `tl.fma`). */
  function fma(x: number, y: number, z: number): number;
  /** Converts element-wise to another dtype (Triton `tl.cast(input, dtype)`, `x.to(dtype)`). */
  function cast(input: number | Mask, dtype: DtypeName, keywords?: { fpDowncastRounding?: string; bitcast?: boolean }): number;
  /** Ceiling division `(x + div - 1) / div` of integers (Triton `tl.cdiv`). */
  function cdiv(x: number, div: number): number;
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
  /** Float division: integers are converted to f32 first (Triton `tl.fdiv`; `ieeeRounding` accepted, see `tl.divRn`). */
  function fdiv(x: number, y: number, keywords?: { ieeeRounding?: boolean }): number;
  /** The high 32 bits of the 64-bit product of two i32/u32 (Triton `tl.umulhi`; unsigned product, on i32 the bits reinterpreted). */
  function umulhi(x: number, y: number): number;
  /** Element-wise arc sine, in radians (Triton `libdevice.asin`; NaN outside [-1, 1]). */
  function asin(x: number): number;
  /** Element-wise arc cosine, in radians (Triton `libdevice.acos`; NaN outside [-1, 1]). */
  function acos(x: number): number;
  /** Element-wise arc tangent, in radians (Triton `libdevice.atan`). */
  function atan(x: number): number;
  /** Element-wise log(1 + x), exact for tiny x (Triton `libdevice.log1p`). */
  function log1p(x: number): number;
  /** Element-wise exp(x) - 1, exact for tiny x (Triton `libdevice.expm1`). */
  function expm1(x: number): number;
  /** Element-wise `min(max(x, min), max)` (Triton `tl.clamp`); floats or integers. */
  function clamp(x: number, min: number, max: number, keywords?: NanKeywords): number;

  /** Keyword argument of the random functions. */
  interface RandomKeywords {
    /** Philox's rounds, a constexpr 1–64: 10 by default, as Triton's. */
    nRounds?: number;
  }
  /**
   * Uniform f32 random numbers in [0, 1), one per offset (Triton `tl.rand`): Philox 4×32-10 on
   * counter (offset, 0, 0, 0) and key `seed` (an i32/u32 scalar; offsets an i32/u32 block or
   * scalar). The same seed and offsets give the same numbers on every GPU and with --cpu.
   */
  function rand(seed: number, offset: number, keywords?: RandomKeywords): number;
  /** Standard normal f32 random numbers, one per offset (Triton `tl.randn`: Box–Muller on Philox words 0 and 1). */
  function randn(seed: number, offset: number, keywords?: RandomKeywords): number;
  /** Random u32s, one per offset: Philox's first word (Triton `tl.randint`, which returns uint32). */
  function randint(seed: number, offset: number, keywords?: RandomKeywords): number;
  /**
   * Word `word` (a constexpr 0..3) of Philox's four for each offset, a u32 (Triton `tl.randint4x`
   * returns the four as a tuple; here one call per word: `tl.randint4x(seed, offs, 0)` is `tl.randint`).
   */
  function randint4x(seed: number, offset: number, word: number, keywords?: RandomKeywords): number;
  /**
   * Philox's four u32 words for each offset (Triton `tl.randint4x`): `const [r0, r1, r2, r3] = tl.randint4x(seed, offs)`.
   * An i64 offset is the counter's low and high words, as Triton's full counter.
   */
  function randint4x(seed: number, offset: number, keywords?: RandomKeywords): [number, number, number, number];
  /**
   * The four u32 words of Philox 4×32 on counter (c0, c1, c2, c3) and key `seed` (Triton `tl.philox`):
   * `const [r0, r1, r2, r3] = tl.philox(seed, c0, c1, c2, c3)`. The seed is an i32, u32 or i64
   * scalar, split as Triton's `seed.to(tl.uint64)` into the key's low and high words; the counters
   * are i32/u32 blocks or scalars (bits kept), broadcast together. Bit for bit Triton's words.
   */
  function philox(seed: number, c0: number, c1: number, c2: number, c3: number, keywords?: RandomKeywords): [number, number, number, number];
  /**
   * Random integers to f32 in [0, 1) (Triton `tl.uint_to_uniform_float`): the word read as signed,
   * `x < 0 ? -x - 1 : x`, times 4.6566127342e-10 (an i64: times 1.0842020432385337e-19).
   */
  function uintToUniformFloat(x: number): number;
  /**
   * Two uniform floats in [0, 1) to two normal ones by Box-Muller (Triton `tl.pair_uniform_to_normal`):
   * r = sqrt(-2 log(max(1e-7, u1))), θ = 2π u2, `const [n1, n2] = tl.pairUniformToNormal(u1, u2)` is (r cos θ, r sin θ), f32.
   */
  function pairUniformToNormal(u1: number, u2: number): [number, number];
  /**
   * Prints each value (up to 8 scalars or blocks of at most 1024 elements) once per element per
   * program, after the launch: `pid (4, 0, 0) idx (0) x: 0.51` (Triton `tl.device_print`). The
   * prefix is a string literal. Output goes to stderr, or the run's `prints` with `--json`.
   * A trailing `{ hex: true }` is accepted; values print in decimal.
   */
  function devicePrint(prefix: string, ...values: (number | Mask | { hex?: boolean })[]): void;
  /**
   * Fails the run where `cond` (a mask, scalar or block) is false, with `msg`, the program id
   * and the lane, at this call (Triton `tl.device_assert`). `msg` is a string literal.
   */
  function deviceAssert(cond: Mask, msg?: string): void;
  /** A block of zeros of a constexpr shape (Triton `tl.zeros`; dtype defaults to f32). */
  function zeros(shape: Shape, dtype?: DtypeName | { dtype?: DtypeName }): number;
  /** A block of one value, of a constexpr shape (Triton `tl.full`; dtype defaults to the value's). */
  function full(shape: Shape, value: number, dtype?: DtypeName | { dtype?: DtypeName }): number;
  /** `tl.full(shape, { value, dtype })`: Triton's `tl.full([BLOCK_M], dtype=…, value=…)`. */
  function full(shape: Shape, keywords: { value: number; dtype?: DtypeName }): number;
  /** Inserts a size-1 axis at `axis`, or at each of several in turn (Triton `tl.expand_dims`; `x[:, None]` is `tl.expandDims(x, 1)`, `x[:, :, None]` `tl.expandDims(x, 2)`). */
  function expandDims(input: number, axis: number | readonly number[]): number;
  function expandDims(input: Mask, axis: number | readonly number[]): Mask;
  /** Stretches size-1 axes (and scalars) to `shape`, an array or the extents one by one (Triton `tl.broadcast_to`). */
  function broadcastTo(input: number, ...shape: (number | Shape)[]): number;
  function broadcastTo(input: Mask, ...shape: (number | Shape)[]): Mask;
  /** Same elements, new shape with the same element count: an array or the extents one by one (Triton `tl.reshape`). */
  function reshape(input: number, ...shape: (number | Shape | { canReorder?: boolean })[]): number;
  function reshape(input: Mask, ...shape: (number | Shape | { canReorder?: boolean })[]): Mask;
  /** Swaps the last two axes, or reorders them as `dims` says (Triton `tl.trans(input, *dims)`). */
  function trans(input: number, ...dims: (number | Shape)[]): number;
  function trans(input: Mask, ...dims: (number | Shape)[]): Mask;
  /** Reorders the axes: axis i of the result is axis `dims[i]` of `input`, e.g. `tl.permute(x, [2, 0, 1])` (Triton `tl.permute`). */
  function permute(input: number, ...dims: (number | Shape)[]): number;
  function permute(input: Mask, ...dims: (number | Shape)[]): Mask;

  /** Keyword arguments of the reductions (Triton's names in camelCase). */
  interface ReduceKeywords {
    /** The axis to reduce; left out, every axis (a scalar result). */
    axis?: number;
    /** Keep the reduced axis with extent 1. */
    keepDims?: boolean;
  }
  /** Sum along `axis` (every axis when left out; Triton `tl.sum`); `dtype` converts first. */
  function sum(input: number, axis?: number | (ReduceKeywords & { dtype?: DtypeName }), keepDims?: boolean | (ReduceKeywords & { dtype?: DtypeName }), dtype?: DtypeName): number;
  /** Maximum and the index of its first occurrence along `axis` (Triton `tl.max(x, axis, return_indices=True)`). */
  function max(input: number, axis: number | undefined, keywords: ReduceKeywords & { returnIndices: true; returnIndicesTieBreakLeft?: boolean }): [number, i32];
  function max(input: number, keywords: ReduceKeywords & { returnIndices: true; returnIndicesTieBreakLeft?: boolean }): [number, i32];
  /** Maximum along `axis` (every axis when left out; Triton `tl.max`). */
  function max(input: number, axis?: number | (ReduceKeywords & { returnIndicesTieBreakLeft?: boolean }), keywords?: ReduceKeywords & { returnIndicesTieBreakLeft?: boolean }): number;
  /** Minimum and the index of its first occurrence along `axis` (Triton `tl.min(x, axis, return_indices=True)`). */
  function min(input: number, axis: number | undefined, keywords: ReduceKeywords & { returnIndices: true; returnIndicesTieBreakLeft?: boolean }): [number, i32];
  function min(input: number, keywords: ReduceKeywords & { returnIndices: true; returnIndicesTieBreakLeft?: boolean }): [number, i32];
  /** Minimum along `axis` (every axis when left out; Triton `tl.min`). */
  function min(input: number, axis?: number | (ReduceKeywords & { returnIndicesTieBreakLeft?: boolean }), keywords?: ReduceKeywords & { returnIndicesTieBreakLeft?: boolean }): number;
  /** Index of the maximum along `axis`; ties give the smallest index (Triton `tl.argmax`). */
  function argmax(input: number, axis?: number | (ReduceKeywords & { tieBreakLeft?: boolean }), keywords?: ReduceKeywords & { tieBreakLeft?: boolean }): i32;
  /** Index of the minimum along `axis`; ties give the smallest index (Triton `tl.argmin`). */
  function argmin(input: number, axis?: number | (ReduceKeywords & { tieBreakLeft?: boolean }), keywords?: ReduceKeywords & { tieBreakLeft?: boolean }): i32;
  /** Bitwise xor of an integer block along `axis` (Triton `tl.xor_sum`). */
  function xorSum(input: number, axis?: number | ReduceKeywords, keywords?: ReduceKeywords): number;

  /** Keyword arguments of the scans. */
  interface ScanKeywords {
    axis?: number;
    /** Scan from the end of the axis. */
    reverse?: boolean;
  }
  /**
   * Inclusive cumulative sum along `axis` (0 by default), same shape; `reverse` sums from the end;
   * `dtype` converts first (Triton `tl.cumsum(input, axis=0, reverse=False, dtype=None)`).
   */
  function cumsum(input: number, axis?: number | (ScanKeywords & { dtype?: DtypeName }), reverse?: boolean | (ScanKeywords & { dtype?: DtypeName }), dtype?: DtypeName): number;
  /** Inclusive cumulative product along `axis`; `reverse` from the end (Triton `tl.cumprod`). */
  function cumprod(input: number, axis?: number | ScanKeywords, reverse?: boolean | ScanKeywords): number;
  /**
   * The combineFn of tl.associativeScan and tl.reduce: an inline arrow of one expression of
   * its two parameters, e.g. `(a, b) => tl.maximum(a, b)`, or a two-parameter device function
   * (a kernel(…)) passed by name, as Triton passes a `@triton.jit` one (`combine_fn=reduce_mul`).
   * Operators and element-wise tl.* only; it can't use other kernel values.
   */
  type CombineFn = (a: number, b: number) => number;
  /**
   * The combineFn of a tuple of n blocks (Triton's multi-operand tl.reduce / tl.associative_scan):
   * 2·n parameters, the left side's n values then the right side's, returning n values, e.g.
   * `(va, ia, vb, ib) => [tl.maximum(va, vb), tl.where(vb > va, ib, ia)]`.
   */
  type TupleCombineFn = (...operands: number[]) => number[];
  /** tl.associativeScan's keyword arguments. */
  interface AssociativeScanKeywords {
    axis?: number;
    combineFn?: CombineFn;
    /** Scan from the end of the axis. */
    reverse?: boolean;
  }
  /** tl.reduce's keyword arguments. */
  interface ReduceWithKeywords {
    axis?: number;
    combineFn?: CombineFn;
    /** Keep the reduced axis with extent 1. */
    keepDims?: boolean;
  }
  /**
   * Inclusive scan along `axis` with an associative `combineFn`: an inline arrow of one expression
   * of its two parameters, e.g. `(a, b) => tl.maximum(a, b)`, or a two-parameter device
   * function (a kernel(…)) passed by name, as Triton passes a @triton.jit one (operators and element-wise tl.*
   * only; it can't use other kernel values). Triton: `tl.associative_scan(input, axis, combine_fn, reverse=False)`.
   */
  function associativeScan(input: number, axis: number, combineFn: CombineFn, reverse?: boolean | { reverse?: boolean }): number;
  function associativeScan(input: number, axis: number | AssociativeScanKeywords, keywords?: AssociativeScanKeywords): number;
  /** A tuple of blocks of one shape scanned together by one combine function (2·n parameters); a tuple of n results. */
  function associativeScan(input: readonly number[], axis: number, combineFn: TupleCombineFn, reverse?: boolean | { reverse?: boolean }): number[];
  /**
   * Reduction along `axis` with an associative `combineFn` (an inline arrow, or a device function
   * passed by name, as in tl.associativeScan), folded from the axis's first element. Triton:
   * `tl.reduce(input, axis, combine_fn, keep_dims=False)`.
   */
  function reduce(input: number, axis: number, combineFn: CombineFn, keepDims?: boolean | { keepDims?: boolean }): number;
  function reduce(input: number, axis: number | ReduceWithKeywords, keywords?: ReduceWithKeywords): number;
  /** A tuple of blocks of one shape reduced together (Welford's mean, m2 and weight; a value and its index); a tuple of n results. */
  function reduce(input: readonly number[], axis: number, combineFn: TupleCombineFn, keepDims?: boolean | { keepDims?: boolean }): number[];

  /** `tl.dot`'s keyword arguments. */
  interface DotKeywords {
    acc?: number;
    /** Accepted (`"ieee"`, `"tf32"`, `"tf32x3"`): products are always exact f32 multiply-adds here. */
    inputPrecision?: string;
    /** Accepted, with no effect (see `inputPrecision`). */
    allowTf32?: boolean;
    /** Accepted, with no effect. */
    maxNumImpreciseAcc?: number;
    /** The result's dtype (default `"f32"`): the f32 accumulation converted at the end. */
    outDtype?: DtypeName;
    /** Triton 2.0.0.dev's `trans_a`: `input` transposed first (its last two axes), as `tl.trans(input)`. */
    transA?: boolean;
    /** Triton 2.0.0.dev's `trans_b`: `other` transposed first, as `tl.trans(other)` (`tl.dot(q, k, trans_b=True)`). */
    transB?: boolean;
  }
  /**
   * Block matrix product `[M,K] x [K,N] (+ acc)`, accumulated in f32 (Triton `tl.dot`). Two f16
   * blocks are multiplied exactly (on tensor cores where the GPU offers subgroup matrices: README).
   */
  function dot(input: number, other: number, acc?: number | DotKeywords, keywords?: DotKeywords): number;

  /** Keyword arguments of the atomics. */
  interface AtomicKeywords {
    mask?: Mask;
    /** Accepted (Triton's memory order); WGSL's atomics are relaxed. */
    sem?: string;
    /** Accepted (Triton's scope); WGSL's atomics are device-wide. */
    scope?: string;
  }
  /**
   * Atomically adds `val` at each pointer; returns the old contents (Triton `tl.atomic_add(pointer, val, mask=)`).
   * `Ptr<i32>`, `Ptr<u32>`, `Ptr<f32>`, `Ptr<f16>` or `Ptr<bf16>`; masked-off lanes touch nothing and return 0. WGSL has no
   * float atomics: on `Ptr<f32>` it is a compare-and-swap loop on the float's bits
   * (atomicCompareExchangeWeak on an atomic<u32> view), on `Ptr<f16>`/`Ptr<bf16>` one on the word holding the
   * element (its other half kept, the sum rounded once), so many programs adding at one address
   * retry. Programs run in no fixed order (the CPU interpreter runs them one after another), so
   * only order-independent results (sums, counts) are reproducible; f32 sums round differently.
   */
  function atomicAdd(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /**
   * Atomic maximum at each pointer of `Ptr<i32>`, `Ptr<u32>` or `Ptr<f32>`; returns the old contents (Triton `tl.atomic_max`).
   * Masked-off lanes return 0. On `Ptr<f32>` a compare-and-swap loop ordering the floats as Triton's lowering does, by
   * their bits: -0.0 below +0.0, a NaN with the sign bit clear above +inf (stored), one with it set below -inf.
   */
  function atomicMax(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /**
   * Atomic minimum at each pointer of `Ptr<i32>`, `Ptr<u32>` or `Ptr<f32>`; returns the old contents (Triton `tl.atomic_min`).
   * Masked-off lanes return 0. On `Ptr<f32>` a compare-and-swap loop ordering the floats as `atomicMax` does (-0.0 below
   * +0.0; a NaN with the sign bit clear is never stored, one with it set always is).
   */
  function atomicMin(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /** Atomic bitwise and at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_and`). */
  function atomicAnd(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /** Atomic bitwise or at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_or`). */
  function atomicOr(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /** Atomic bitwise xor at each pointer of `Ptr<i32>`/`Ptr<u32>`; returns the old contents (Triton `tl.atomic_xor`). */
  function atomicXor(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /** Atomically writes `val` at each pointer of `Ptr<i32>`/`Ptr<u32>`/`Ptr<f32>`; returns the old contents (Triton `tl.atomic_xchg`; releases a spin lock). */
  function atomicXchg(pointer: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /**
   * Atomic compare-and-swap at each pointer of `Ptr<i32>`/`Ptr<u32>`/`Ptr<f32>`/`Ptr<f16>`/`Ptr<bf16>`: writes `val` where the
   * contents equal `cmp` (floats: bit for bit); returns the old contents either way (Triton `tl.atomic_cas(pointer, cmp, val)`,
   * strong: never fails spuriously; `mask` is Kernel Lab's addition). On a scalar pointer one
   * invocation per program does it and every invocation gets the result, so
   * `tl.atomicCas(lock, 0, 1) === 1` can steer a spin loop.
   */
  function atomicCas(pointer: number, cmp: number, val: number, mask?: Mask | AtomicKeywords, keywords?: AtomicKeywords): number;
  /**
   * The values of a loop unrolled at compile time (Triton `tl.static_range`):
   * `for (const i of tl.staticRange(0, 4)) { … }` copies the body once per value, with `i` a
   * constant. `(end)`, `(start, end)` or `(start, end, step)`, all constexpr; at most 256 trips;
   * no `break`/`continue` inside. Only valid as the iterable of a `for…of`.
   */
  function staticRange(arg1: constexpr, arg2?: constexpr, step?: constexpr): Iterable<number>;

  /** `tl.range`'s options: accepted, for Triton's pipeliner and unroller (Kernel Lab's `num_stages` is the run's). */
  interface RangeKeywords {
    numStages?: number;
    loopUnrollFactor?: number;
    disallowAccMultiBuffer?: boolean;
    flatten?: boolean;
    warpSpecialize?: boolean;
  }
  /**
   * A loop on the GPU (Triton `tl.range`): `for (const i of tl.range(start, end, step, { numStages: 3 })) { … }`
   * is `for (let i = start; i < end; i += step)`; `(end)`, `(start, end)` or `(start, end, step)`,
   * integer scalars computed once (a negative constant step counts down). Only valid as the iterable of a `for…of`.
   */
  function range(arg1: number, arg2?: number | RangeKeywords, step?: number | RangeKeywords, numStages?: number | RangeKeywords, keywords?: RangeKeywords): Iterable<number>;
  /** Gives back `input`: a hint to Triton's compiler that its values are multiples of `values` (Triton `tl.multiple_of`). */
  function multipleOf<T extends number>(input: T, values: number | readonly number[]): T;
  /** Gives back `input`: a hint that its first `values` elements are contiguous (Triton `tl.max_contiguous`). */
  function maxContiguous<T extends number>(input: T, values: number | readonly number[]): T;
  /** Gives back `input`: a hint that groups of `values` elements are equal (Triton `tl.max_constancy`). */
  function maxConstancy<T extends number>(input: T, values: number | readonly number[]): T;
  /** A promise to the compiler that `cond` holds (Triton `tl.assume`); checked to be a mask, then ignored. */
  function assume(cond: Mask): void;
  /** Every invocation of the program waits here for the others: WGSL's `workgroupBarrier()` (Triton `tl.debug_barrier`). */
  function debugBarrier(): void;
  /**
   * Fails compilation, with a diagnostic at this line, where `cond` (on constexprs, literals and
   * module constants) is false (Triton `tl.static_assert`). `msg` is a string literal.
   */
  function staticAssert(cond: Mask | boolean, msg?: string): void;
  /**
   * Prints while compiling (Triton `tl.static_print`), as an info diagnostic at this line: strings
   * as they are, constants with their value (`BLOCK = 64`), other values with their type (`x: f32[64]`).
   */
  function staticPrint(...values: (number | string | Mask)[]): void;

  /**
   * A block pointer (Triton `tl.make_block_ptr`): the `blockShape` window (constexprs) at `offsets`
   * of a tensor of `shape` with `strides` (elements per step of each axis) from `base`; `order`
   * (the axes from slowest to fastest in memory) is checked and otherwise unused. A load through
   * it is the load pointer arithmetic writes by hand.
   */
  function makeBlockPtr(base: number, shape: readonly number[], strides: readonly number[], offsets: readonly number[], blockShape: Shape, order: readonly number[]): BlockPointer;
  /** The block pointer moved by `offsets`, one per axis (Triton `tl.advance`): `bp = tl.advance(bp, [0, BLOCK_K])`. */
  function advance(base: BlockPointer, offsets: readonly number[]): BlockPointer;
  /**
   * A tensor descriptor (Triton `tl.make_tensor_descriptor`): the tensor of `shape` with `strides`
   * (the last one the constant 1) from `base`, read and written `blockShape` blocks (constexpr
   * powers of two) at a time by `desc.load(offsets)` / `desc.store(offsets, value)`; elements outside
   * `shape` read as `paddingOption` ("zero" or "nan") and are not written. Lowered as a block
   * pointer's load with every axis checked; Triton's scratch allocator is not needed.
   */
  function makeTensorDescriptor(base: number, shape: readonly number[], strides: readonly number[], blockShape: Shape, paddingOption?: "zero" | "nan" | { paddingOption?: "zero" | "nan" }): TensorDescriptor;
  /** The block of `desc` at element `offsets` (Triton `tl.load_tensor_descriptor`, the same as `desc.load(offsets)`). */
  function loadTensorDescriptor(desc: TensorDescriptor, offsets: readonly number[]): number;
  /** Writes `value` at element `offsets` of `desc` (Triton `tl.store_tensor_descriptor`, the same as `desc.store(offsets, value)`). */
  function storeTensorDescriptor(desc: TensorDescriptor, offsets: readonly number[], value: number): void;
  /** The class of tensor descriptors, for `x instanceof tl.tensorDescriptor` (Triton's `isinstance(x, tl.tensor_descriptor)`), decided while compiling. */
  const tensorDescriptor: abstract new (...args: never[]) => TensorDescriptor;
  /** Zeros of `input`'s shape and dtype (Triton `tl.zeros_like`). */
  function zerosLike(input: number): number;
  /** Both blocks stretched to their common shape (Triton `tl.broadcast`): `const [a2, b2] = tl.broadcast(a, b)`. */
  function broadcast(input: number, other: number): [number, number];
  function broadcast(input: Mask, other: Mask): [Mask, Mask];
  /** The block as one axis, in row-major order (Triton `tl.ravel`; `canReorder` accepted, the order kept). */
  function ravel(x: number, keywords?: { canReorder?: boolean }): number;
  /** The block in a new shape of the same element count (Triton `tl.view`; the elements keep their order here). */
  function view(input: number, ...shape: (number | Shape)[]): number;
  /**
   * The two blocks one after the other along `dim` (0 by default); they match along every other
   * axis, and the result's extent must be a power of two (Triton `tl.cat`; `canReorder` accepted, the order kept).
   */
  function cat(input: number, other: number, canReorder?: boolean | { canReorder?: boolean; dim?: number }, dim?: number): number;
  /** `a` and `b` (broadcast together) side by side on a new last axis of 2 (Triton `tl.join`): [..., 2]. */
  function join(a: number, b: number): number;
  function join(a: Mask, b: Mask): Mask;
  /** A block whose last axis has 2 elements, as its two halves without that axis (Triton `tl.split`): `const [a, b] = tl.split(x)`. */
  function split(a: number): [number, number];
  function split(a: Mask): [Mask, Mask];
  /** `a` and `b` interleaved along their last axis: a0 b0 a1 b1 … (Triton `tl.interleave`). */
  function interleave(a: number, b: number): number;
  /** The block reversed along `dim` (the last axis by default; Triton `tl.flip`). */
  function flip(x: number, dim?: number): number;
  /**
   * Element e is `src`'s element with its coordinate along `axis` replaced by `index`'s element e
   * (Triton `tl.gather`); `index` has `src`'s shape except along `axis`; an index outside the axis is clamped to it.
   */
  function gather(src: number, index: number, axis: number): number;
  /**
   * The block sorted along `dim` (the last axis by default), stably, ascending or `descending`
   * (Triton `tl.sort`). Floats sort by IEEE totalOrder: -0 before +0, NaN (positive) after +inf.
   */
  function sort(x: number, dim?: number | { dim?: number; descending?: boolean }, descending?: boolean | { descending?: boolean }): number;
  /**
   * The `k` largest elements of each line along `dim` (the last axis by default), largest first (Triton `tl.topk`;
   * `descending: false`, newer Triton's, gives the `k` smallest, smallest first): `x`'s shape with `k` along `dim`.
   * `k` is a compile-time power of two, at most the axis's extent. The line is ordered as `tl.sort` orders it.
   */
  function topk(x: number, k: number, dim?: number | { dim?: number; descending?: boolean }, descending?: boolean | { descending?: boolean }): number;
  /**
   * i32 counts of `input`'s values 0 … numBins - 1, bins of width 1 (Triton `tl.histogram`); other
   * values, and masked-off ones, count nowhere. `numBins` is a power of two.
   */
  function histogram(input: number, numBins: number, mask?: Mask | { mask?: Mask }): i32;
  /**
   * exp(x - max) / sum(exp(x - max)) along `dim` (0 by default), x's shape (Triton `tl.softmax`;
   * `keepDims` and `ieeeRounding` accepted).
   */
  function softmax(x: number, dim?: number | { dim?: number; keepDims?: boolean; ieeeRounding?: boolean }, keywords?: { keepDims?: boolean; ieeeRounding?: boolean }): number;
  /**
   * Row and column of a `sizeI` × `sizeJ` matrix's element `(i, j)` when its rows are taken in
   * groups of `sizeG`, each numbered column by column (Triton `tl.swizzle2d`; tutorial 03's grouped ordering).
   */
  function swizzle2d(i: number, j: number, sizeI: number, sizeJ: number, sizeG: number): [number, number];
  /**
   * x / y rounded to nearest even, exactly (Triton `tl.div_rn`): normal operands' significands divided as integers (the
   * rest: WGSL's division corrected once with an fma); --cpu rounds exactly.
   */
  function divRn(x: number, y: number): number;
  /**
   * sqrt(x) rounded to nearest (Triton `tl.sqrt_rn`): WGSL's square root corrected once with an fma (correctly rounded
   * where the GPU's fma is fused); --cpu rounds exactly.
   */
  function sqrtRn(x: number): number;
}

/**
 * Triton's libdevice (`from triton.language.extra import libdevice`), also `tl.math` and
 * `tl.extra.libdevice`: most names are the tl.* function that computes it (a "fast" variant is the
 * same WGSL builtin); the functions after them are libdevice's own. Other names are KL1005.
 */
declare namespace kl_libdevice {
  const abs: typeof tl.abs;
  const fabs: typeof tl.abs;
  const ceil: typeof tl.ceil;
  const floor: typeof tl.floor;
  const cos: typeof tl.cos;
  const sin: typeof tl.sin;
  const erf: typeof tl.erf;
  const exp: typeof tl.exp;
  const exp2: typeof tl.exp2;
  const log: typeof tl.log;
  const log2: typeof tl.log2;
  const sqrt: typeof tl.sqrt;
  const rsqrt: typeof tl.rsqrt;
  const tanh: typeof tl.tanh;
  const pow: typeof tl.pow;
  const fma: typeof tl.fma;
  const fma_rn: typeof tl.fma;
  const fdiv: typeof tl.fdiv;
  const div_rn: typeof tl.divRn;
  const sqrt_rn: typeof tl.sqrtRn;
  const umulhi: typeof tl.umulhi;
  const mulhi: typeof tl.umulhi;
  const cdiv: typeof tl.cdiv;
  const max: typeof tl.maximum;
  const fmax: typeof tl.maximum;
  const min: typeof tl.minimum;
  const fmin: typeof tl.minimum;
  const sigmoid: typeof tl.sigmoid;
  const clamp: typeof tl.clamp;
  const fast_expf: typeof tl.exp;
  const fast_exp2f: typeof tl.exp2;
  const fast_logf: typeof tl.log;
  const fast_log2f: typeof tl.log2;
  const fast_powf: typeof tl.pow;
  const fast_sinf: typeof tl.sin;
  const fast_cosf: typeof tl.cos;
  const fast_dividef: typeof tl.fdiv;
  const fast_tanhf: typeof tl.tanh;
  const expf: typeof tl.exp;
  const exp2f: typeof tl.exp2;
  const logf: typeof tl.log;
  const log2f: typeof tl.log2;
  const sqrtf: typeof tl.sqrt;
  const rsqrtf: typeof tl.rsqrt;
  const tanhf: typeof tl.tanh;
  const powf: typeof tl.pow;
  const erff: typeof tl.erf;
  const asin: typeof tl.asin;
  const asinf: typeof tl.asin;
  const acos: typeof tl.acos;
  const acosf: typeof tl.acos;
  const atan: typeof tl.atan;
  const atanf: typeof tl.atan;
  const log1p: typeof tl.log1p;
  const log1pf: typeof tl.log1p;
  const expm1: typeof tl.expm1;
  const expm1f: typeof tl.expm1;
  /** Element-wise log |Γ(x)| (+∞ at 0 and the negative integers), in float32 (Cephes' lgamf). */
  function lgamma(x: number): number;
  const lgammaf: typeof lgamma;
  /** Element-wise 1 - erf(x), without its cancellation for large x. */
  function erfc(x: number): number;
  const erfcf: typeof erfc;
  /** Element-wise exp(x²) erfc(x), which doesn't underflow for large x. */
  function erfcx(x: number): number;
  const erfcxf: typeof erfcx;
  /** Element-wise tangent, sin(x) / cos(x). */
  function tan(x: number): number;
  const tanf: typeof tan;
  /** Element-wise hyperbolic sine. */
  function sinh(x: number): number;
  const sinhf: typeof sinh;
  /** Element-wise hyperbolic cosine. */
  function cosh(x: number): number;
  const coshf: typeof cosh;
  /** Element-wise base-10 logarithm. */
  function log10(x: number): number;
  const log10f: typeof log10;
  /** Element-wise 10^x. */
  function exp10(x: number): number;
  const exp10f: typeof exp10;
  /** Element-wise rounding towards 0. */
  function trunc(x: number): number;
  const truncf: typeof trunc;
  /** Element-wise 1 / x, correctly rounded. */
  function rcp_rn(x: number): number;
  /** Element-wise: is x NaN? */
  function isnan(x: number): boolean;
  /** Element-wise: is x +∞ or -∞? */
  function isinf(x: number): boolean;
  /** Element-wise: is x neither ∞ nor NaN? */
  function finitef(x: number): boolean;
  const isfinited: typeof finitef;
  /** Element-wise: 1 (an int32) where x's sign bit is set (-0.0 too), else 0. */
  function signbit(x: number): number;
  /** Element-wise |x| with y's sign. */
  function copysign(x: number, y: number): number;
  const copysignf: typeof copysign;
  /** Element-wise: the float32 next to x in the direction of y (y where they are equal). */
  function nextafter(x: number, y: number): number;
  const nextafterf: typeof nextafter;
  /** Element-wise: a float32's bits as an int32. */
  function float_as_int(x: number): number;
  /** Element-wise: an int32's bits as a float32. */
  function int_as_float(x: number): number;
  /** Element-wise: how many bits of a 32-bit integer are set, an int32. */
  function popc(x: number): number;
  /** Element-wise: how many leading bits of a 32-bit integer are 0 (32 for 0), an int32. */
  function clz(x: number): number;
  /** Element-wise: the position of the lowest set bit, counting from 1 (0 for 0), an int32. */
  function ffs(x: number): number;
}
export import libdevice = kl_libdevice;

/**
 * Kernel values are numbers to TypeScript; in a kernel they also have Triton's members (the
 * compiler reads them; on the CPU they don't exist).
 */
declare global {
  interface Number {
    /** In a kernel: the value's dtype (Triton `x.dtype`); a pointer's is its pointer type, whose `.element_ty` is the pointee. */
    readonly dtype: tl.dtype;
    /** In a kernel: the value's type (Triton `x.type`): a scalar's dtype, a block's block type (`.element_ty`, `.scalar`). */
    readonly type: tl.dtype;
    /** In a kernel: a block's shape, a tuple of compile-time integers (Triton `x.shape`). */
    readonly shape: readonly number[];
    /** In a kernel: a block's number of elements, a compile-time integer (Triton `x.numel`; a scalar's is 1). */
    readonly numel: number;
    /** In a kernel: converts element-wise (Triton `x.to(dtype)`), as `tl.cast(x, dtype)`. */
    to(dtype: DtypeName, keywords?: { fpDowncastRounding?: string; bitcast?: boolean }): number;
  }
  interface Boolean {
    /** In a kernel: a mask's dtype, `tl.int1`. */
    readonly dtype: tl.dtype;
    /** In a kernel: a mask's type. */
    readonly type: tl.dtype;
    /** In a kernel: a mask's shape. */
    readonly shape: readonly number[];
    /** In a kernel: converts a mask element-wise (true → 1), as `tl.cast(m, dtype)`. */
    to(dtype: DtypeName, keywords?: { fpDowncastRounding?: string; bitcast?: boolean }): number;
  }
}

// ---------------------------------------------------------------- runs

/** A host array for a pointer argument (a `Ptr<i64>`'s: a BigInt64Array, as torch.int64's storage). */
export type HostArray = Float32Array | Int32Array | Uint32Array | BigInt64Array | Uint8Array | Int8Array;
/** The dtype of a host array made by the helpers below (default "f32"); "bool" and "u8" make a Uint8Array, "i8" an Int8Array. */
export type HostDtype = "f32" | "i32" | "u32" | "i64" | "bool" | "u8" | "i8";
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
   * Or a function of the size giving them, evaluated per size (`(n) => ({ BLOCK_N: nextPowerOf2(n) })`):
   * a sweep compiles the kernel once per distinct set.
   */
  constexprs?: C | ((size: number) => C);
  /**
   * Alternatives for the autotuner, each merged over `constexprs`: Kernel Lab checks every one
   * against the reference, times the correct ones and runs the fastest for the adapter and size.
   * The choice is cached on disk (`kernel-lab run --retune` tunes again).
   */
  configs?: NoInfer<Partial<C> & { num_warps?: number; num_stages?: number }>[];
  /**
   * Let the autotuner also try the code generator's choices (on the GPU), crossed with `configs`
   * (or with `constexprs` alone): `true` every knob the kernel uses, or a list of them.
   * `"halfLoadForm"`: how a masked f16 load reads its runs of 4 ("block": a branch; "select": read,
   * then select). On subgroup matrices (an f16 tl.dot where the GPU has them): `"mmaDoubleBuffer"`
   * (two staging buffers), `"mmaDirectStore"` (C stored straight from the matrices),
   * `"mmaStageInvariant"` (attention's Q staged once), `"mmaSubgroupsM"` (how the tile is split
   * over the subgroups: how many matrices each holds). Settings that give the same WGSL are timed
   * once; the picked knobs are cached with the config. `false`: never, even with `--tune-codegen`.
   */
  tuneCodegen?: boolean | ("halfLoadForm" | "mmaDoubleBuffer" | "mmaDirectStore" | "mmaStageInvariant" | "mmaSubgroupsM")[];
  /** The launch grid: 1 to 3 positive integers. */
  grid: (size: number, constexprs: C) => number[];
  /** Every kernel parameter by name: a typed array for a pointer, a number for a scalar. Fresh for every run. */
  args: (size: number, constexprs: C) => A;
  /** The pointer parameters whose contents are checked against the reference. */
  outputs: PointerArgNames<A>[];
  /** Plain TypeScript on the CPU: the expected contents of each output. */
  reference: (args: A, size: number) => Partial<Record<PointerArgNames<A>, ArrayLike<number> | BigInt64Array>>;
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
  /** Values of this kernel's `constexpr` parameters (and `num_warps`, `num_stages`), or a function of the size giving them. */
  constexprs?: Record<string, number> | ((size: number) => Record<string, number>);
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
export declare function rand(n: number, dtype: "i64"): BigInt64Array;
export declare function rand(n: number, dtype: "bool" | "u8"): Uint8Array;
export declare function rand(n: number, dtype: "i8"): Int8Array;
/** Normal random numbers (mean 0, standard deviation 1; integers: 100, rounded). */
export declare function randn(n: number): Float32Array;
export declare function randn(n: number, dtype: "f32"): Float32Array;
export declare function randn(n: number, dtype: "i32"): Int32Array;
export declare function randn(n: number, dtype: "u32"): Uint32Array;
export declare function randn(n: number, dtype: "i64"): BigInt64Array;
export declare function randn(n: number, dtype: "bool" | "u8"): Uint8Array;
export declare function randn(n: number, dtype: "i8"): Int8Array;
/** An array of zeros. */
export declare function zeros(n: number): Float32Array;
export declare function zeros(n: number, dtype: "f32"): Float32Array;
export declare function zeros(n: number, dtype: "i32"): Int32Array;
export declare function zeros(n: number, dtype: "u32"): Uint32Array;
export declare function zeros(n: number, dtype: "i64"): BigInt64Array;
export declare function zeros(n: number, dtype: "bool" | "u8"): Uint8Array;
export declare function zeros(n: number, dtype: "i8"): Int8Array;
/** An array of one value. */
export declare function full(n: number, value: number): Float32Array;
export declare function full(n: number, value: number, dtype: "f32"): Float32Array;
export declare function full(n: number, value: number, dtype: "i32"): Int32Array;
export declare function full(n: number, value: number, dtype: "u32"): Uint32Array;
export declare function full(n: number, value: number, dtype: "i64"): BigInt64Array;
export declare function full(n: number, value: number, dtype: "bool" | "u8"): Uint8Array;
export declare function full(n: number, value: number, dtype: "i8"): Int8Array;
/** The array `[0, 1, …, n - 1]`. */
export declare function arange(n: number): Float32Array;
export declare function arange(n: number, dtype: "f32"): Float32Array;
export declare function arange(n: number, dtype: "i32"): Int32Array;
export declare function arange(n: number, dtype: "u32"): Uint32Array;
export declare function arange(n: number, dtype: "i64"): BigInt64Array;
export declare function arange(n: number, dtype: "bool" | "u8"): Uint8Array;
export declare function arange(n: number, dtype: "i8"): Int8Array;
/** An output array filled with poison (NaN, or 0x7fbadbad for integers): an element the kernel never writes is caught. */
export declare function empty(n: number): Float32Array;
export declare function empty(n: number, dtype: "f32"): Float32Array;
export declare function empty(n: number, dtype: "i32"): Int32Array;
export declare function empty(n: number, dtype: "u32"): Uint32Array;
export declare function empty(n: number, dtype: "i64"): BigInt64Array;
export declare function empty(n: number, dtype: "bool" | "u8"): Uint8Array;
export declare function empty(n: number, dtype: "i8"): Int8Array;
/** Ceiling division of integers: `ceil(a / b)`. */
export declare function cdiv(a: number, b: number): number;
/**
 * The smallest power of two at least `n` (1 for n <= 1), as Triton's `triton.next_power_of_2`:
 * a block that covers a row, `constexprs: (n) => ({ BLOCK_N: nextPowerOf2(n) })`.
 */
export declare function nextPowerOf2(n: number): number;
/** Triton's spelling of `nextPowerOf2` (`triton.next_power_of_2(N)` in a launcher). */
export declare function next_power_of_2(n: number): number;
/**
 * The exponent of the largest power of two at most `n` (0 for n <= 1), as Triton's
 * `triton.language.standard._log2`: in a kernel, evaluated while compiling on a constexpr
 * (`n_dims: tl.constexpr = _log2(BLOCK)`, the axes a power-of-2 block is reshaped by).
 */
export declare function log2Floor(n: number): number;
/**
 * In a kernel: the integer dtype of `bitwidth` bits, signed or not, as Triton's
 * `triton.language.core.get_int_dtype(bitwidth, signed)`, evaluated while compiling
 * (`x.to(intDtype(x.dtype.primitive_bitwidth, true), { bitcast: true })`).
 */
export declare function intDtype(bitwidth: number, signed: boolean | { signed: boolean }): tl.dtype;

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

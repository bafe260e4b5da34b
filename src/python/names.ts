// Triton's spelling → Kernel Lab's (docs/LANGUAGE.md §2.1's mechanical rule): snake_case tl.* names and
// keywords become camelCase, dtype objects become the dtype names the TypeScript language takes.

/** `program_id` → `programId`, `allow_tf32` → `allowTf32`. */
export function camelCase(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `programId` → `program_id` (the other way, for "Copy as Triton Python"). */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z])([A-Z][a-z])/g, "$1_$2").toLowerCase();
}

/** Triton's dtype objects (`tl.float16`) → the names `tl.cast`, `tl.zeros`… take. */
export const DTYPES: Readonly<Record<string, string>> = {
  float32: "f32",
  float16: "f16",
  int32: "i32",
  uint32: "u32",
  // Not (yet) in Kernel Lab: written as their Kernel Lab names, so the dtype check names them.
  int64: "i64",
  uint64: "u64",
  int16: "i16",
  uint16: "u16",
  int8: "i8",
  uint8: "u8",
  int1: "bool",
  bfloat16: "bf16",
  float64: "f64",
  float8e4nv: "f8e4m3",
  float8e5: "f8e5m2",
  // ROCm's and the older fp8 formats (xformers' `tl.float8e4b8 if torch.version.hip is not None else tl.float8e4nv`).
  float8e4b8: "f8e4b8",
  float8e5b16: "f8e5b16",
  float8e4b15: "f8e4b15",
};

/** The dtypes a scalar parameter's annotation may name (`n: tl.int64`): Kernel Lab's scalar kernel types. */
export const SCALAR_ANNOTATIONS: ReadonlySet<string> = new Set(["f32", "f16", "bf16", "i32", "u32", "i64"]);

/** The other way: Kernel Lab's dtype name → Triton's dtype object. */
export const TRITON_DTYPES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(DTYPES).map(([k, v]) => [v, k]));

/** Python's builtins Triton gives a meaning inside a kernel, and the tl.* function they become. */
export const BUILTIN_CALLS: Readonly<Record<string, string>> = {
  min: "minimum",
  max: "maximum",
  abs: "abs",
  print: "devicePrint",
};

/** Names that are keywords or globals in TypeScript: a Python name that collides gets a `_` appended. */
const TS_RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends false finally for function if import in " +
    "instanceof new null return super switch this throw true try typeof var void while with yield let static implements interface package " +
    "private protected public await arguments eval undefined NaN Infinity Math kernel tl Object Array Number String Boolean Symbol").split(" "),
);

/**
 * A Python name as the lowered TypeScript writes it: a reserved word gets a `_`; a class-level
 * @triton.jit function's qualified name (`Softmax.forward`, module.ts readMethodKernels) is one
 * identifier with `$` for the dot (`Softmax$forward`), which no Python name holds, so pythonName reads it back.
 */
export function tsName(name: string): string {
  if (name.includes(".")) return name.replace(/\./g, "$");
  return TS_RESERVED.has(name) ? `${name}_` : name;
}

/** Methods of a block that take its shape as separate arguments as well as one tuple: `x.reshape(M, N)`. */
export const SHAPE_METHODS = new Set(["reshape", "view", "broadcast_to", "permute"]);

/**
 * Triton's dtype predicates (`x.dtype.is_fp16()`): written as the same method in TypeScript, which
 * the kernel language decides while compiling (semantics/dtypes.ts DTYPE_PREDICATES has each).
 */
export const DTYPE_PREDICATES: ReadonlySet<string> = new Set([
  "is_floating", "is_int", "is_int_signed", "is_int_unsigned", "is_bool", "is_fp16", "is_bf16", "is_fp32", "is_fp64",
  "is_int1", "is_int32", "is_int64", "is_uint32", "is_int8", "is_int16", "is_uint8", "is_uint16", "is_uint64", "is_standard_floating",
  "is_ptr", "is_block", "is_fp8", "is_fp8e4nv", "is_fp8e4b8", "is_fp8e4b15", "is_fp8e5", "is_fp8e5b16",
]);

/** The other way: a TypeScript name of the lowered kernel → the Python name it was written as. */
export function pythonName(name: string): string {
  if (name.includes("$")) return name.replace(/\$/g, ".");
  return name.endsWith("_") && TS_RESERVED.has(name.slice(0, -1)) ? name.slice(0, -1) : name;
}

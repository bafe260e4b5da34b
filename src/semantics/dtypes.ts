// Dtypes as compile-time values, as Triton's library code uses them: `tl.float32` held in a const,
// `x.dtype`, `p.dtype.element_ty` and `p.type.element_ty` read from values, compared with `===`
// (Python's `is` / `==`), chosen by a constexpr condition, passed to device functions and used
// wherever a dtype goes (dtypeArg in intrinsic-args.ts). A dtype is never IR: it is known while
// compiling, like a tuple (aggregates.ts). Every Triton dtype may be named and compared; one WGSL
// has no type for is reported where a value of it would be made (KL2080), saying what to write.

import type { Span } from "../diagnostics/diagnostic";
import type { Dtype, NumDtype, PointeeDtype, Shape, Value } from "../ir/ir";

/** Triton's scalar dtypes, by their `tl.*` names. */
export const TRITON_DTYPE_NAMES = [
  "int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
  "float8e4nv", "float8e5", "float8e4b15", "float8e4b8", "float8e5b16", "float16", "bfloat16", "float32", "float64",
] as const;
export type TritonDtypeName = (typeof TRITON_DTYPE_NAMES)[number];

/** A Triton type: a scalar dtype, a pointer to one, or a block of either (Triton's `x.type` of a block). */
export type TritonType =
  | { of: "scalar"; name: TritonDtypeName }
  | { of: "pointer"; pointee: TritonDtypeName }
  | { of: "block"; element: { of: "scalar"; name: TritonDtypeName } | { of: "pointer"; pointee: TritonDtypeName }; shape: Shape };

/** A dtype (or a pointer or block type) as a kernel value: `tl.float32`, `x.dtype`, `p.type`. */
export interface DtypeValue {
  kind: "dtype";
  type: TritonType;
  span: Span;
}

/** Kernel Lab's dtype → Triton's name (every Kernel Lab dtype is a Triton one). */
const TRITON_NAME: Record<Dtype, TritonDtypeName> = { f32: "float32", f16: "float16", bf16: "bfloat16", i32: "int32", u32: "uint32", i64: "int64", bool: "int1" };
/** A pointee's Triton name: 8-bit elements are named as Triton names them (their values are held as i32). */
const POINTEE_NAME: Record<PointeeDtype, TritonDtypeName> = { ...TRITON_NAME, i8: "int8", u8: "uint8", f8e4m3: "float8e4nv", f8e5m2: "float8e5" };

/** Triton's name → Kernel Lab's dtype, where WGSL has one. */
const KERNEL_DTYPE: Partial<Record<TritonDtypeName, Dtype>> = Object.fromEntries(Object.entries(TRITON_NAME).map(([k, v]) => [v, k as Dtype]));

/** What to write instead of a dtype WGSL has no type for. */
const INSTEAD: Partial<Record<TritonDtypeName, string>> = {
  float64: "WGSL has no 64-bit floats; compute in tl.float32 (a run's reference may use float64)",
  int8: "WGSL's smallest integer is 32 bits; use tl.int32 (a block bound for a torch.int8 pointer: compute in tl.int32 and store it, or .to(tl.int8) to wrap it to 8 bits)",
  int16: "WGSL's smallest integer is 32 bits; use tl.int32 (and a Ptr<i32> buffer)",
  uint8: "WGSL's smallest integer is 32 bits; use tl.int32 (a block bound for a torch.uint8 pointer: compute in tl.int32 and store it, or .to(tl.uint8) to wrap it to 8 bits)",
  uint16: "WGSL's smallest integer is 32 bits; use tl.uint32 (and a Ptr<u32> buffer)",
  uint64: "WGSL has no 64-bit integers; use tl.uint32",
};
const FP8 = "WGSL has no 8-bit floats; dequantise to tl.float16 or tl.float32";

export function isTritonDtypeName(name: string): name is TritonDtypeName {
  return (TRITON_DTYPE_NAMES as readonly string[]).includes(name);
}

/** Triton's own short names of dtypes, as `tl.dtype(name)` takes them (`tl.dtype("fp32")` is tl.float32). */
const SHORT_NAMES: Readonly<Record<string, TritonDtypeName>> = {
  fp8e4nv: "float8e4nv", fp8e5: "float8e5", fp8e4b15: "float8e4b15", fp8e4b8: "float8e4b8", fp8e5b16: "float8e5b16",
  fp16: "float16", bf16: "bfloat16", fp32: "float32", fp64: "float64",
};

/** The dtype `tl.dtype(name)` makes (FlagGems' `tl.dtype(f"uint{bits}")`): Triton's names, or its tl.* spellings. */
export function dtypeNamed(name: string): TritonDtypeName | undefined {
  return Object.hasOwn(SHORT_NAMES, name) ? SHORT_NAMES[name] : isTritonDtypeName(name) ? name : undefined;
}

export function dtypeValue(type: TritonType, span: Span): DtypeValue {
  return { kind: "dtype", type, span };
}

/** `x.dtype`: a value's element dtype; a pointer's is its pointer type (Triton: `p.dtype.element_ty` is the pointee). */
export function dtypeOfValue(v: Value): TritonType {
  return v.type.kind === "pointer" ? { of: "pointer", pointee: POINTEE_NAME[v.type.pointee] } : { of: "scalar", name: TRITON_NAME[v.type.dtype] };
}

/** `x.type`: a scalar's dtype (or pointer type), a block's block type. */
export function typeOfValue(v: Value): TritonType {
  const element = dtypeOfValue(v) as Extract<TritonType, { of: "scalar" | "pointer" }>;
  return v.type.shape.length === 0 ? element : { of: "block", element, shape: v.type.shape };
}

/** The Kernel Lab dtype of a scalar Triton type; else what to write instead (a message). */
export function kernelDtype(type: TritonType): { dtype: Dtype } | { instead: string } {
  if (type.of !== "scalar") return { instead: `${typeText(type)} isn't an element dtype; use its element_ty` };
  const dtype = KERNEL_DTYPE[type.name];
  if (dtype) return { dtype };
  return { instead: INSTEAD[type.name] ?? FP8 };
}

/** Is this Kernel Lab dtype one of the numeric ones (not a mask)? */
export function isNumDtype(d: Dtype): d is NumDtype {
  return d !== "bool";
}

export function sameType(a: TritonType, b: TritonType): boolean {
  return typeText(a) === typeText(b);
}

/** Triton's spelling of a type: `tl.float32`, `pointer<fp32>` as `tl.pointer_type(tl.float32)`, `<[16], fp32>` as a block. */
export function typeText(t: TritonType): string {
  switch (t.of) {
    case "scalar":
      return `tl.${t.name}`;
    case "pointer":
      return `tl.pointer_type(tl.${t.pointee})`;
    case "block":
      return `a block type [${t.shape.join(", ")}] of ${typeText(t.element)}`;
  }
}

/** A Triton dtype's width in bits (`primitive_bitwidth`). */
export function bitwidth(name: TritonDtypeName): number {
  if (name === "int1") return 1;
  if (name.startsWith("float8")) return 8;
  return Number(/\d+$/.exec(name)![0]);
}

/** Triton's dtype predicates, `dtype.is_floating()` and the like, each a compile-time boolean. */
export const DTYPE_PREDICATES: Readonly<Record<string, (t: TritonType) => boolean>> = {
  is_floating: (t) => t.of === "scalar" && t.name.includes("float"),
  is_int: (t) => t.of === "scalar" && t.name.includes("int"),
  is_int_signed: (t) => t.of === "scalar" && t.name.startsWith("int"),
  is_int_unsigned: (t) => t.of === "scalar" && t.name.startsWith("uint"),
  is_bool: (t) => t.of === "scalar" && t.name === "int1",
  is_fp16: (t) => t.of === "scalar" && t.name === "float16",
  is_bf16: (t) => t.of === "scalar" && t.name === "bfloat16",
  is_fp32: (t) => t.of === "scalar" && t.name === "float32",
  is_fp64: (t) => t.of === "scalar" && t.name === "float64",
  is_int1: (t) => t.of === "scalar" && t.name === "int1",
  is_int32: (t) => t.of === "scalar" && t.name === "int32",
  is_int64: (t) => t.of === "scalar" && t.name === "int64",
  is_uint32: (t) => t.of === "scalar" && t.name === "uint32",
  is_int8: (t) => t.of === "scalar" && t.name === "int8",
  is_int16: (t) => t.of === "scalar" && t.name === "int16",
  is_uint8: (t) => t.of === "scalar" && t.name === "uint8",
  is_uint16: (t) => t.of === "scalar" && t.name === "uint16",
  is_uint64: (t) => t.of === "scalar" && t.name === "uint64",
  is_standard_floating: (t) => t.of === "scalar" && ["float16", "bfloat16", "float32", "float64"].includes(t.name),
  // Triton's fp8 tests (vllm's prefix_prefill.py dequantizes `if k_load.dtype.is_fp8()`).
  is_fp8: (t) => t.of === "scalar" && t.name.startsWith("float8"),
  is_fp8e4nv: (t) => t.of === "scalar" && t.name === "float8e4nv",
  is_fp8e4b8: (t) => t.of === "scalar" && t.name === "float8e4b8",
  is_fp8e4b15: (t) => t.of === "scalar" && t.name === "float8e4b15",
  is_fp8e5: (t) => t.of === "scalar" && t.name === "float8e5",
  is_fp8e5b16: (t) => t.of === "scalar" && t.name === "float8e5b16",
  is_ptr: (t) => t.of === "pointer",
  is_block: (t) => t.of === "block",
};

// WGSL spellings of dtypes and constants.

import type { Dtype } from "../ir/ir";

/** The dtypes WGSL has: an i64 is held in an i32 (ir/int64.ts), a bf16 in an f32 (codegen/bf16.ts). */
export type RegisterDtype = Exclude<Dtype, "i64" | "bf16">;

export function wgslType(dtype: RegisterDtype): string {
  return dtype;
}

const bits = new DataView(new ArrayBuffer(4));

/** A module-scope zero the shader reads at run time (see `literal`). */
export const RUNTIME_ZERO = "kl_zero";

/**
 * A WGSL literal of `dtype`. WGSL can't spell NaN or infinities, and rejects constant expressions
 * that produce them, so those are a bitcast of a run-time value (the bits plus RUNTIME_ZERO).
 */
export function literal(value: number, dtype: RegisterDtype): string {
  switch (dtype) {
    case "bool":
      return value ? "true" : "false";
    case "i32":
      // -2147483648i would be parsed as -(2147483648i), which overflows.
      return value === -2147483648 ? "i32(-2147483647 - 1)" : value < 0 ? `(${value}i)` : `${value}i`;
    case "u32":
      return `${value >>> 0}u`;
    case "f32":
    case "f16": {
      const suffix = dtype === "f32" ? "f" : "h";
      if (!Number.isFinite(value)) {
        bits.setFloat32(0, value);
        const f32 = `bitcast<f32>(0x${bits.getUint32(0).toString(16)}u + ${RUNTIME_ZERO})`;
        return dtype === "f32" ? f32 : `f16(${f32})`;
      }
      const text = Object.is(value, -0) ? "-0.0" : String(value);
      const spelled = /[.eE]/.test(text) ? text : `${text}.0`;
      return value < 0 || Object.is(value, -0) ? `(${spelled}${suffix})` : `${spelled}${suffix}`;
    }
  }
}

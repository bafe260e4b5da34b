// The arguments of a CPU launch, checked against the kernel's parameters: every pointer gets a
// typed array of its dtype (f16 as IEEE half bits in a Uint16Array), every scalar a number,
// rounded to its dtype as the GPU's uniform buffer would hold it.

import { type KernelIR, type NumDtype, type PointeeDtype } from "../ir/ir";
import { assertNever } from "../ir/never";
import { InterpreterError } from "./errors";
import { roundTo } from "../ir/arithmetic";
import { bf16Argument } from "../ir/bf16";

/** 8-bit elements (Ptr<bool>, Ptr<u8>: Uint8Array; Ptr<i8>: Int8Array) one byte each, as on the GPU (codegen/bytes.ts). */
export type KernelBuffer = Float32Array | Int32Array | Uint32Array | Uint16Array | Uint8Array | Int8Array;
export type KernelArgs = Readonly<Record<string, KernelBuffer | number>>;

export interface BoundBuffer {
  param: string;
  dtype: PointeeDtype;
  array: KernelBuffer;
}

export interface BoundArgs {
  buffers: Map<string, BoundBuffer>;
  scalars: Map<string, number>;
}

const ARRAY_OF: Record<PointeeDtype, { name: string; is: (x: unknown) => boolean }> = {
  f32: { name: "Float32Array", is: (x) => x instanceof Float32Array },
  f16: { name: "Uint16Array (IEEE half bits)", is: (x) => x instanceof Uint16Array },
  bf16: { name: "Uint16Array (bfloat16 bits)", is: (x) => x instanceof Uint16Array },
  i32: { name: "Int32Array", is: (x) => x instanceof Int32Array },
  u32: { name: "Uint32Array", is: (x) => x instanceof Uint32Array },
  // The interpreter holds a Ptr<i64> as the GPU does: its i32 low words (harness/run/gpu-args.ts).
  i64: { name: "Int32Array (the int64 values' low words)", is: (x) => x instanceof Int32Array },
  bool: { name: "Uint8Array (one byte per element, 0 or 1)", is: (x) => x instanceof Uint8Array },
  u8: { name: "Uint8Array", is: (x) => x instanceof Uint8Array },
  i8: { name: "Int8Array", is: (x) => x instanceof Int8Array },
  f8e4m3: { name: "Uint8Array (float8_e4m3fn bits)", is: (x) => x instanceof Uint8Array },
  f8e5m2: { name: "Uint8Array (float8_e5m2 bits)", is: (x) => x instanceof Uint8Array },
};

export function bindArgs(ir: KernelIR, args: KernelArgs): BoundArgs {
  const bound: BoundArgs = { buffers: new Map(), scalars: new Map() };
  for (const param of ir.params) {
    const arg = args[param.name];
    const fail = (what: string) =>
      new InterpreterError("bad-argument", `${ir.name}: parameter '${param.name}' ${what}`, ir.name, param.span);
    switch (param.kind) {
      case "pointer": {
        const expected = ARRAY_OF[param.dtype];
        if (!expected.is(arg)) {
          throw fail(`is a Ptr<${param.dtype}> and needs a ${expected.name}, got ${describe(arg)}`);
        }
        bound.buffers.set(param.name, { param: param.name, dtype: param.dtype, array: arg as KernelBuffer });
        break;
      }
      case "scalar":
        if (typeof arg !== "number") throw fail(`is a scalar ${param.dtype} and needs a number, got ${describe(arg)}`);
        // A bf16 one as Triton's launcher packs it (f32, then its top 16 bits); the WGSL truncates the same (codegen/values.ts).
        bound.scalars.set(param.name, param.dtype === "bf16" ? bf16Argument(arg) : roundTo(param.dtype as NumDtype)(arg));
        break;
      case "constexpr":
        // Already folded into the IR; the specialised value lives in `ir.constexprs`.
        break;
      default:
        assertNever(param.kind, "parameter kind");
    }
  }
  return bound;
}

function describe(arg: unknown): string {
  if (arg === undefined) return "nothing";
  if (typeof arg === "number") return `the number ${arg}`;
  if (ArrayBuffer.isView(arg)) return `a ${arg.constructor.name}`;
  return typeof arg;
}

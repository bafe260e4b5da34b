// A host `TensorDescriptor` passed to a kernel (triton.tools.tensor_descriptor): as Triton expands it
// into the base pointer and its shape and stride scalars at the launch, the lowered kernel takes the
// base under the parameter's own name (so a bounds error names it) and each extent and leading
// stride as an i32 parameter of its own; its block shape and padding specialise the kernel, as they
// are part of Triton's signature. The kernel's first statement makes the descriptor of them
// (semantics/tensor-descriptors.ts), the last stride the constant 1 Python checked.

import type { PointeeDtype } from "../ir/ir";
import type { TsWriter } from "./writer";
import type { Span } from "../diagnostics/diagnostic";

/** What a launch tells of a TensorDescriptor argument. */
export interface DescriptorArg {
  kind: "descriptor";
  dtype: PointeeDtype;
  blockShape: readonly number[];
  padding: "zero" | "nan";
}

/** The scalar parameters a descriptor parameter `name` (its TypeScript name) adds: its extents, then its strides but the last. */
export function descriptorScalars(name: string, rank: number): { shape: string[]; strides: string[] } {
  return {
    shape: Array.from({ length: rank }, (_, i) => `${name}__shape${i}`),
    strides: Array.from({ length: rank - 1 }, (_, i) => `${name}__stride${i}`),
  };
}

/** `, d__shape0: i32, d__shape1: i32, d__stride0: i32` after the base parameter `d: Ptr<f16>`. */
export function writeDescriptorParams(w: TsWriter, name: string, d: DescriptorArg): void {
  const { shape, strides } = descriptorScalars(name, d.blockShape.length);
  for (const p of [...shape, ...strides]) w.write(`, ${p}: i32`);
}

/** The kernel's first statement for a descriptor parameter: `d = tl.makeTensorDescriptor(d, [...], [..., 1], [64, 64], "zero");`, at the parameter's range. */
export function writeDescriptorPrologue(w: TsWriter, name: string, d: DescriptorArg, span: Span): void {
  const { shape, strides } = descriptorScalars(name, d.blockShape.length);
  w.write("  ");
  w.node(span, () => w.write(`${name} = tl.makeTensorDescriptor(${name}, [${shape.join(", ")}], [${[...strides, "1"].join(", ")}], [${d.blockShape.join(", ")}], "${d.padding}")`));
  w.write(";\n");
}

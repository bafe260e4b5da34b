// The built-in ops a run may name as its `baseline` (docs/LANGUAGE.md §3), launched through the same runtime
// and ABI as compiled kernels: `launch(gpu, BUILTINS["builtins.add"].program(n), grid(n), …)` with
// buffers { a, b, out } and scalars { n }.

import type { KernelAbi } from "../codegen/abi";
import { ELEMENTS_PER_PROGRAM, elementwiseAbi, elementwiseWgsl, type ElementwiseOp } from "./elementwise";

export interface BuiltinProgram {
  abi: KernelAbi;
  wgsl: string;
}

export interface Builtin {
  description: string;
  /** The program for `n` elements (the same program for every n: n is a uniform). */
  program(n: number): BuiltinProgram;
  /** Programs to launch for `n` elements (at least one). */
  grid(n: number): [number, number, number];
  /** Input buffers (a, then b), bound before `out`. */
  arity: 1 | 2;
  /** The CPU reference, element by element (for tests and the harness). */
  reference(a: Float32Array, b?: Float32Array): Float32Array;
}

const OPS: (ElementwiseOp & { reference: (x: number, y: number) => number })[] = [
  { name: "builtins.add", description: "out = a + b, f32", arity: 2, expression: "a[i] + b[i]", reference: (x, y) => x + y },
  { name: "builtins.sub", description: "out = a - b, f32", arity: 2, expression: "a[i] - b[i]", reference: (x, y) => x - y },
  { name: "builtins.mul", description: "out = a * b, f32", arity: 2, expression: "a[i] * b[i]", reference: (x, y) => x * y },
  { name: "builtins.copy", description: "out = a, f32", arity: 1, expression: "a[i]", reference: (x) => x },
];

function makeBuiltin(op: (typeof OPS)[number]): Builtin {
  const program: BuiltinProgram = { abi: elementwiseAbi(op), wgsl: elementwiseWgsl(op) };
  return {
    description: op.description,
    program: () => program,
    grid: (n) => [Math.max(1, Math.ceil(n / ELEMENTS_PER_PROGRAM)), 1, 1],
    arity: op.arity,
    reference: (a, b) => {
      const out = new Float32Array(a.length);
      for (let i = 0; i < a.length; i++) out[i] = op.reference(a[i], b ? b[i] : 0);
      return out;
    },
  };
}

export const BUILTINS: Record<string, Builtin> = Object.fromEntries(OPS.map((op) => [op.name, makeBuiltin(op)]));

export { ELEMENTS_PER_PROGRAM, WORKGROUP_SIZE } from "./elementwise";

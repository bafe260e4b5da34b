// What a Python launch binds: the compiled kernel with its way back to the Python text, and the
// launch's arguments by parameter name. Shared by the launcher (launch.ts) and the bench (bench.ts),
// which need them without needing each other.

import type { CompiledKernel, KernelSource } from "../../compile";
import type { FilePlace, Span } from "../../diagnostics/diagnostic";
import type { ConstexprValue, KernelArgType } from "./kernel-compiler";
import type { TensorStorage } from "./protocol";

/** A compiled kernel and how to move its spans (in the TypeScript it was lowered to) onto the Python text. */
export interface Program {
  kernel: CompiledKernel;
  toPython: (span: Span) => Span;
  /** Where a span is in another module's file (a fault inside a cross-module @triton.jit helper); undefined in the kernel's own. */
  origin?: (span: Span) => FilePlace | undefined;
  source?: KernelSource;
}

/** A tensor argument: its CPU copy from the pointer on; with `storage`, the whole storage, bound as its resident GPU buffer (resident.ts). */
export interface TensorArg {
  /** The Python argument's name (the reply names the arguments a launch wrote). */
  python: string;
  data: TensorStorage;
  storage?: number;
  upload?: boolean;
}

/** A launch's arguments by the compiled kernel's parameter names. */
export interface BoundArgs {
  types: Record<string, KernelArgType>;
  constexprs: Record<string, ConstexprValue>;
  tensors: Map<string, TensorArg>;
  scalars: Record<string, number>;
}

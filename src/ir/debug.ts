// tl.devicePrint and tl.deviceAssert, as both back ends see them: the table of a kernel's print
// and assert sites (ids in source order, so the GPU's records and the interpreter's agree), the
// record each printed element or failed lane leaves, and the words of the GPU's record buffer.

import type { Span } from "../diagnostics/diagnostic";
import type { Dtype, Shape, Stmt } from "./ir";
import { forEachStmt, mapStmt } from "./walk";

/** One value a print site prints. */
export interface PrintOperand {
  /** The argument's source text (e.g. `x`, `offs * 2`). */
  name: string;
  dtype: Dtype;
  shape: Shape;
}

/** A tl.devicePrint or tl.deviceAssert call, as the site table of the KernelAbi lists it. */
export type DebugSite =
  | { id: number; kind: "print"; prefix: string; operands: PrintOperand[]; span: Span }
  | { id: number; kind: "assert"; message: string; shape: Shape; span: Span };

/** One printed element (`operand` ≥ 0) or one failed assertion lane (`operand` -1). */
export interface DebugRecord {
  site: number;
  programId: readonly [number, number, number];
  /** Flat (row-major) index of the element in its block; 0 for a scalar. */
  index: number;
  operand: number;
  /** The element's value (a bool as 0 or 1). */
  value: number;
}

/** The GPU's record buffer: header words, then fixed-size records until it is full (64 KiB in all). */
export const DEBUG_BUFFER = {
  /** Word 0: records written or attempted (the cursor); word 1: failed assertion lanes. */
  headerWords: 4,
  /** site, program x, y, z, element index, operand, value bits, dtype tag. */
  recordWords: 8,
  records: 2047,
  words: 4 + 2047 * 8,
} as const;

/** The dtype tag of a record's value bits (an f16 travels as its f32 value). */
export const DTYPE_TAGS = { f32: 0, i32: 1, u32: 2, f16: 3, bool: 4, assert: 255 } as const;

/** The print and assert sites of a kernel body, numbered in source order. */
export function debugSites(body: readonly Stmt[]): DebugSite[] {
  const found = new Map<number, Stmt>();
  forEachStmt(body, (s) => {
    if ((s.kind === "print" || s.kind === "assert") && !found.has(s.span.start)) found.set(s.span.start, s);
  });
  const ordered = [...found.values()].sort((a, b) => spanOfStmt(a).start - spanOfStmt(b).start);
  return ordered.map((s, id): DebugSite => {
    if (s.kind === "print") {
      const operands = s.values.map((v, k) => ({ name: s.names[k] ?? `operand ${k}`, dtype: dataDtype(v.type), shape: v.type.shape }));
      return { id, kind: "print", prefix: s.prefix, operands, span: s.span };
    }
    if (s.kind !== "assert") throw new Error("unreachable");
    return { id, kind: "assert", message: s.message, shape: s.cond.type.shape, span: s.span };
  });
}

/** The site id of each print/assert statement, by its span's start. */
export function siteIds(sites: readonly DebugSite[]): Map<number, number> {
  return new Map(sites.map((s) => [s.span.start, s.id]));
}

/** Whether `body` prints or asserts anywhere. */
export function hasDebugOutput(body: readonly Stmt[]): boolean {
  let found = false;
  forEachStmt(body, (s) => {
    if (s.kind === "print" || s.kind === "assert") found = true;
  });
  return found;
}

/** `body` without its prints and assertions: the variant that is timed. */
export function withoutDebugOutput(body: readonly Stmt[]): Stmt[] {
  return body.filter((s) => s.kind !== "print" && s.kind !== "assert").map((s) => mapStmt(s, (v) => v, withoutDebugOutput));
}

/** `(3)`, `(1, 2)` or `()` for a scalar: an element's index in its block, as Triton prints it. */
export function indexText(shape: Shape, flat: number): string {
  const parts: number[] = [];
  let rest = flat;
  for (let axis = shape.length - 1; axis >= 0; axis--) {
    parts.unshift(rest % shape[axis]);
    rest = Math.floor(rest / shape[axis]);
  }
  return `(${parts.join(", ")})`;
}

/** The message of a failed tl.deviceAssert, the same on the GPU and in the interpreter. */
export function assertionMessage(kernel: string, message: string, programId: readonly number[], shape: Shape, index: number): string {
  return `${kernel}: tl.deviceAssert failed: ${message} (program (${programId.join(", ")}), idx ${indexText(shape, index)})`;
}

function spanOfStmt(s: Stmt): Span {
  return s.kind === "let" ? s.value.span : s.span;
}

function dataDtype(type: { kind: string; dtype?: Dtype }): Dtype {
  return type.kind === "pointer" ? "i32" : (type.dtype as Dtype);
}

// What a CPU run reports instead of doing what the GPU would do silently (clamp an out-of-bounds
// index, spin forever). Each kind has one stable code; the span is the kernel node at fault, so
// the harness shows the error as a diagnostic on the user's own line.

import { BUG_CODES, CPU_RUN_CODES, Codes } from "../diagnostics/codes";
import type { Diagnostic, DiagnosticCode, Span } from "../diagnostics/diagnostic";

export type InterpreterErrorKind =
  /** An unmasked lane of a load, store or atomic indexed outside its buffer. */
  | "out-of-bounds"
  /** `maxSteps` element operations done and the kernel still running. */
  | "step-limit"
  /** A kernel parameter got no argument, or one of the wrong kind. */
  | "bad-argument"
  /** An i64 value outside 32 bits, which the GPU's i32 register can't hold (ir/int64.ts). */
  | "int64-overflow"
  /** A tl.deviceAssert with a false lane (the GPU's records give the same error, harness/debug/prints.ts). */
  | "assertion"
  /** Two programs of one launch stored to one element, not through an atomic (harness/debug/races.ts). */
  | "race"
  /** IR the interpreter cannot run: a bug in Kernel Lab. */
  | "internal";

// The codes and their meanings: diagnostics/codes.ts (docs/ERRORS.md).
const CODES: Record<InterpreterErrorKind, DiagnosticCode> = {
  "out-of-bounds": CPU_RUN_CODES["out-of-bounds"].code,
  "step-limit": CPU_RUN_CODES["step-limit"].code,
  "bad-argument": CPU_RUN_CODES["bad-argument"].code,
  "int64-overflow": Codes.int64Overflow,
  assertion: CPU_RUN_CODES.assertion.code,
  race: CPU_RUN_CODES.race.code,
  internal: BUG_CODES.interpreterInternal.code,
};

export type ProgramId = readonly [number, number, number];

/** Where an out-of-bounds access went. */
export interface OutOfBounds {
  /** The pointer parameter whose buffer was indexed. */
  param: string;
  /** "atomic": a tl.atomic* read-modify-write. */
  access: "load" | "store" | "atomic";
  index: number;
  /** Elements in the parameter's buffer. */
  length: number;
}

export class InterpreterError extends Error {
  readonly code: DiagnosticCode;

  constructor(
    readonly kind: InterpreterErrorKind,
    message: string,
    readonly kernel: string,
    readonly span: Span,
    /** The program instance running when it happened; absent for errors before any ran. */
    readonly programId?: ProgramId,
    readonly outOfBounds?: OutOfBounds,
  ) {
    super(message);
    this.name = "InterpreterError";
    this.code = CODES[kind];
  }

  toDiagnostic(): Diagnostic {
    return { code: this.code, severity: "error", message: this.message, span: this.span };
  }
}

const ACCESS_VERBS: Record<OutOfBounds["access"], string> = { load: "loads", store: "stores", atomic: "atomically updates" };

/**
 * The one wording of an out-of-bounds access, shared by the interpreter and the GPU's
 * instrumented launch (harness/run/instrumented-launch.ts): "program (5,0,0), lane 17 loads
 * x_ptr[100037] but x_ptr has 100000 elements". The lane is the element's flat index in its block.
 */
export function outOfBoundsMessage(kernel: string, programId: ProgramId, lane: number, oob: OutOfBounds): string {
  return (
    `${kernel}: program (${programId.join(",")}), lane ${lane} ${ACCESS_VERBS[oob.access]} ${oob.param}[${oob.index}] but ${oob.param} has ${oob.length} element${oob.length === 1 ? "" : "s"}; ` +
    `mask the lanes past the end (the GPU would silently clamp this index)`
  );
}

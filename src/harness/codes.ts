// The codes of what can go wrong around a run, by name (`RunCodes.badSizes`), and the error that
// carries one. The codes and their meanings are diagnostics/codes.ts's RUN_CODES (docs/ERRORS.md).

import { Codes, RUN_CODES, codesOf } from "../diagnostics/codes";

export const RunCodes = codesOf(RUN_CODES);

/** RUN_CODES', and the one compiler code a run's arguments can break: KL2092, an i64 argument outside 32 bits. */
export type RunCode = (typeof RunCodes)[keyof typeof RunCodes] | typeof Codes.int64Argument;

/** A problem with a run definition or its evaluation, reported as a diagnostic at the run. */
export class RunDefinitionError extends Error {
  constructor(
    readonly code: RunCode,
    message: string,
    /** The exported run it belongs to, when known. */
    readonly run?: string,
  ) {
    super(message);
    this.name = "RunDefinitionError";
  }
}

/** Throws the RunDefinitionError of `field` of run `run`. */
export function fail(run: string, code: RunCode, field: string, message: string): never {
  throw new RunDefinitionError(code, `Run '${run}', ${field}: ${message}`, run);
}

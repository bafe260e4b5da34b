// The exhaustiveness check of every switch over a union's `kind` or `op` (docs/CONVENTIONS.md §5).

/** Unreachable when the switch covers every case; a new case without a branch is a type error. */
export function assertNever(x: never, what = "value"): never {
  throw new Error(`internal: unhandled ${what}: ${JSON.stringify(x)}`);
}

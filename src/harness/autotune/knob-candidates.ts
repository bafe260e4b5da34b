// What the autotuner tries: each of a run's configs, crossed — where the run asks for it
// (`tuneCodegen`, or `--tune-codegen`) — with the code generator's knobs its kernel uses at that
// config (codegen/knobs.ts). Crossing is bounded: past MAX_CROSSED settings per config, each knob
// is varied alone from the defaults, then each pair of knobs together (the f16 matmul's best
// measured kernels take two knobs at once: `tile` with mmaSubgroupsM 2 at 256×128 over 16,
// `tile` with mmaPackedPrefetch at 128×128 over 4; bench/NOTES.md §44). Settings that emit the same WGSL at a launch are one
// candidate; the tuner sees that per size (autotune.ts), as only the launch's specialisation
// tells whether a load form changes anything.

import type { CodegenKnob, KnobChoice, KnobSetting } from "../../ir/knobs";
import { CODEGEN_KNOBS, isCodegenKnob } from "../../ir/knobs";
import { RunCodes, fail } from "../codes";
import { show } from "../show";

/** Which knobs a run tunes: all its kernel uses (`true`), or only these. */
export type KnobRequest = true | readonly CodegenKnob[];

/** One candidate: a full set of constexprs, and with knob tuning the knobs' values. */
export interface TuneCandidate {
  constexprs: Record<string, number>;
  codegen?: KnobSetting;
}

/** Most settings of the knobs crossed in full for one config (2 × 2 × 2 × 4 is 32). */
export const MAX_CROSSED = 32;

/**
 * The settings to try for a config whose kernel offers `choices`: every combination of the
 * requested knobs' values, defaults first; or, past `maxCrossed` (the bench raises it for a case),
 * the defaults, then each knob's other values alone, then every two knobs' other values together
 * (the rest at their defaults).
 */
export function knobSettings(choices: readonly KnobChoice[], request: KnobRequest, maxCrossed = MAX_CROSSED): KnobSetting[] {
  const asked = request === true ? choices : choices.filter((c) => request.includes(c.knob));
  const defaults: KnobSetting = Object.fromEntries(asked.map((c) => [c.knob, c.values[0]]));
  const crossed = asked.reduce((n, c) => n * c.values.length, 1);
  if (crossed > maxCrossed) {
    const alone = asked.flatMap((c) => c.values.slice(1).map((v): KnobSetting => ({ ...defaults, [c.knob]: v })));
    const pairs = asked.flatMap((a, i) => asked.slice(i + 1).flatMap((b) =>
      a.values.slice(1).flatMap((x) => b.values.slice(1).map((y): KnobSetting => ({ ...defaults, [a.knob]: x, [b.knob]: y })))));
    return [defaults, ...alone, ...pairs];
  }
  let settings: KnobSetting[] = [{}];
  for (const c of asked) settings = settings.flatMap((s) => c.values.map((v): KnobSetting => ({ ...s, [c.knob]: v })));
  return settings;
}

/** A run's `tuneCodegen`: absent, false, true, or a list of knob names (KL3027 otherwise, as a mistyped `name` is). */
export function checkKnobRequest(run: string, value: unknown): KnobRequest | false | undefined {
  if (value === undefined || value === false || value === true) return value;
  const known = CODEGEN_KNOBS.join(", ");
  if (!Array.isArray(value) || value.length === 0) {
    fail(run, RunCodes.unknownField, "`tuneCodegen`", `must be true, false or a non-empty list of code-generation knobs (${known}); got ${show(value)}.`);
  }
  for (const k of value) {
    if (typeof k !== "string" || !isCodegenKnob(k)) fail(run, RunCodes.unknownField, "`tuneCodegen`", `${show(k)} is not a code-generation knob; the knobs are ${known}.`);
  }
  return value as CodegenKnob[];
}

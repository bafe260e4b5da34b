// What the autotuner tries: each of a run's configs, crossed — where the run asks for it
// (`tuneCodegen`, or `--tune-codegen`) — with the code generator's knobs its kernel uses at that
// config (codegen/knobs.ts). Crossing is bounded: past MAX_CROSSED settings per config, each knob
// is varied alone from the defaults, then each pair of knobs together (the f16 matmul's best
// measured kernels take two knobs at once: `tile` with mmaSubgroupsM 2 at 256×128 over 16,
// `tile` with mmaPackedPrefetch at 128×128 over 4; bench/NOTES.md §44); then the tuner moves from
// its fastest candidate to any faster one knob away (`neighbours`), a few rounds, since the
// attention leader takes five knobs at once (§56). Settings that emit the same WGSL at a launch are one
// candidate; the tuner sees that per size (autotune.ts), as only the launch's specialisation
// tells whether a load form changes anything.

import type { CodegenKnob, KnobChoice, KnobSetting } from "../../ir/knobs";
import { CODEGEN_KNOBS, isCodegenKnob, knobsKey } from "../../ir/knobs";
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

/**
 * The settings one knob away from `setting` (each requested knob's other values, one at a time; a
 * knob not in the setting is at its default): where the tuner goes from its fastest candidate past
 * a full crossing (autotune.ts).
 */
export function neighbours(setting: KnobSetting, choices: readonly KnobChoice[], request: KnobRequest): KnobSetting[] {
  const asked = request === true ? choices : choices.filter((c) => request.includes(c.knob));
  const at = (c: KnobChoice) => setting[c.knob] ?? c.values[0];
  return asked.flatMap((c) => c.values.filter((v) => v !== at(c)).map((v): KnobSetting => ({ ...setting, [c.knob]: v })));
}

/** Rounds of moving from the fastest candidate to a faster neighbour, at most (each one candidate per other value of each knob). */
export const MAX_DESCENT_ROUNDS = 4;

/**
 * After the candidates `tried` are timed: the settings one knob away from the fastest (`fastest`,
 * as timed so far) not tried yet, each timed with `time`; where one of them is faster, again from
 * it, at most `rounds` times. `choicesOf` gives a config's knobs (undefined: it does not compile).
 */
export async function descend(
  tried: readonly TuneCandidate[],
  fastest: () => Pick<TuneCandidate, "constexprs" | "codegen"> | undefined,
  choicesOf: (constexprs: Record<string, number>) => readonly KnobChoice[] | undefined,
  request: KnobRequest,
  time: (candidate: TuneCandidate, total: string) => Promise<void>,
  rounds = MAX_DESCENT_ROUNDS,
): Promise<void> {
  const seen = new Set(tried.map(settingKey));
  let count = tried.length;
  for (let round = 0; round < rounds; round++) {
    const best = fastest();
    const choices = best && choicesOf(best.constexprs);
    if (!best || !choices) return;
    const next = neighbours(best.codegen ?? {}, choices, request)
      .map((codegen): TuneCandidate => ({ constexprs: best.constexprs, codegen }))
      .filter((c) => !seen.has(settingKey(c)));
    if (next.length === 0) return;
    count += next.length;
    for (const c of next) {
      seen.add(settingKey(c));
      await time(c, `${count} (from the fastest, round ${round + 1})`);
    }
    const now = fastest();
    if (!now || settingKey(now) === settingKey(best)) return;
  }
}

function settingKey(c: Pick<TuneCandidate, "constexprs" | "codegen">): string {
  return `${JSON.stringify(c.constexprs)} ${knobsKey(c.codegen ?? {})}`;
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

// The code generator's switches a tuner may vary per kernel (CodegenOptions' knobs), their values,
// and how a setting is written. Which of them a kernel uses is codegen/knobs.ts's to say; the
// autotuner (harness/autotune/) crosses them with a run's configs, and its table and cache show
// and keep them, so they live here, under every stage that names them.

import type { CodegenOptions } from "./target";
import { assertNever } from "./never";

/** The CodegenOptions a tuner may vary, in the order its table shows them. */
export const CODEGEN_KNOBS = ["halfLoadForm", "mmaDoubleBuffer", "mmaDirectStore", "mmaStageInvariant", "mmaHoldInvariant", "mmaLeanBarriers", "mmaLaneRows", "mmaRowThreads", "mmaTransferPad", "deferRowSums", "lazyRowMax", "splitTileIndices", "wholeTrips", "mmaSubgroupsM", "mmaPackedPrefetch", "shiftedHalfRows", "runsOf8"] as const;

export type CodegenKnob = (typeof CODEGEN_KNOBS)[number];

/** One value of each knob tried: a part of CodegenOptions. */
export type KnobSetting = Pick<CodegenOptions, CodegenKnob>;

export type KnobValue = NonNullable<KnobSetting[CodegenKnob]>;

/** A knob and the values worth trying for this kernel, the code generator's default first. */
export interface KnobChoice {
  knob: CodegenKnob;
  values: readonly KnobValue[];
}

export function isCodegenKnob(name: string): name is CodegenKnob {
  return (CODEGEN_KNOBS as readonly string[]).includes(name);
}

/** Whether `value` is one a knob takes (a cached setting read back from disk is checked with it). */
export function isKnobValue(knob: CodegenKnob, value: unknown): boolean {
  switch (knob) {
    case "halfLoadForm":
      return value === "block" || value === "select" || value === "tile";
    case "mmaDoubleBuffer":
    case "mmaDirectStore":
    case "mmaStageInvariant":
    case "mmaHoldInvariant":
    case "mmaLeanBarriers":
    case "mmaLaneRows":
    case "shiftedHalfRows":
      return typeof value === "boolean" || value === "words" || value === "chunks";
    case "mmaPackedPrefetch":
    case "runsOf8":
    case "deferRowSums":
    case "lazyRowMax":
    case "splitTileIndices":
    case "wholeTrips":
      return typeof value === "boolean";
    case "mmaSubgroupsM":
      return Number.isInteger(value) && (value as number) >= 1;
    case "mmaTransferPad":
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 32 && (value as number) % 4 === 0;
    case "mmaRowThreads":
      return Number.isInteger(value) && (value as number) >= 1 && ((value as number) & ((value as number) - 1)) === 0;
    default:
      return assertNever(knob);
  }
}

/** "halfLoadForm=select, mmaSubgroupsM=2": a setting as the tables and messages write it. */
export function formatKnobs(setting: KnobSetting): string {
  return CODEGEN_KNOBS.filter((k) => setting[k] !== undefined).map((k) => `${k}=${String(setting[k])}`).join(", ");
}

/** Whether `x` is a setting: an object of known knobs with values they take (a cache entry read back is checked with it). */
export function isKnobSetting(x: unknown): x is KnobSetting {
  if (typeof x !== "object" || x === null || Array.isArray(x)) return false;
  return Object.entries(x).every(([k, v]) => isCodegenKnob(k) && isKnobValue(k, v));
}

/** The same setting gives the same key, whatever order its knobs were written in. */
export function knobsKey(setting: KnobSetting | undefined): string {
  return setting ? JSON.stringify(CODEGEN_KNOBS.filter((k) => setting[k] !== undefined).map((k) => [k, setting[k]])) : "";
}

/** Whether two candidates were compiled with the same knobs (none and none are the same). */
export function sameKnobs(a: KnobSetting | undefined, b: KnobSetting | undefined): boolean {
  return knobsKey(a ?? {}) === knobsKey(b ?? {});
}

/** The knobs whose value differs between some of these candidates: the ones a table gives a column. */
export function varyingKnobs(candidates: readonly { codegen?: KnobSetting }[]): CodegenKnob[] {
  return CODEGEN_KNOBS.filter((k) => new Set(candidates.map((c) => c.codegen?.[k])).size > 1);
}

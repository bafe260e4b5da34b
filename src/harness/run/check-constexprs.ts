// A run's `constexprs` and its autotuner `configs`: numbers for the kernel's constexpr
// parameters, plus `num_warps` and `num_stages` (as in Triton's configs), which tune the code
// generated rather than the kernel (compile.ts).

import { NUM_STAGES, NUM_WARPS } from "../../compile";
import type { Param } from "../../ir/ir";
import { fail, RunCodes } from "../codes";
import { show } from "../show";

/** The kernel as the harness needs it: its name and parameters (from the compiler's parse). */
export interface KernelSignature {
  name: string;
  params: readonly Param[];
}

/** The run's constexprs and, when it has `configs`, the full sets to tune over (then `constexprs` may be incomplete). */
export function checkConstexprs(
  name: string,
  kernel: KernelSignature,
  given: unknown,
  configsGiven?: unknown,
  field = "constexprs",
): { constexprs: Record<string, number>; configs?: Record<string, number>[] } {
  const at = `\`${field}\``;
  const constexprParams = kernel.params.filter((p) => p.kind === "constexpr").map((p) => p.name);
  // `num_warps` and `num_stages` (as in Triton's configs) tune the code generated, not the kernel: see compile.ts.
  const tunable = [...constexprParams, ...[NUM_WARPS, NUM_STAGES].filter((k) => !constexprParams.includes(k))];
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    fail(name, RunCodes.badConstexprs, at, `must be an object of integers, e.g. \`{ BLOCK_SIZE: 1024 }\`; got ${show(given)}.`);
  }
  const constexprs: Record<string, number> = {};
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (!tunable.includes(key)) {
      fail(name, RunCodes.badConstexprs, at, `'${key}' is not a constexpr parameter of kernel '${kernel.name}'` +
        (constexprParams.length ? ` (those are: ${constexprParams.join(", ")}; num_warps sets the invocations per program, num_stages the loads in flight).` : " (it has none; num_warps sets the invocations per program, num_stages the loads in flight)."));
    }
    checkValue(name, at, key, value);
    if (key === NUM_WARPS) checkNumWarps(name, at, value);
    if (key === NUM_STAGES) checkNumStages(name, at, value);
    constexprs[key] = value;
  }
  const configs = configsGiven === undefined ? undefined : checkConfigs(name, kernel, constexprParams, tunable, constexprs, configsGiven);
  for (const p of constexprParams) {
    if (!(p in constexprs) && !configs) {
      fail(name, RunCodes.badConstexprs, at, `no value for kernel '${kernel.name}''s constexpr parameter '${p}'. Add \`${field}: { ${p}: … }\`.`);
    }
  }
  return { constexprs, configs };
}

/**
 * `configs`: alternatives for the autotuner, each an object of integers for constexpr parameters,
 * merged over `constexprs`; together they must give every constexpr parameter a value.
 */
function checkConfigs(
  name: string,
  kernel: KernelSignature,
  constexprParams: readonly string[],
  tunable: readonly string[],
  base: Record<string, number>,
  configs: unknown,
): Record<string, number>[] {
  const example = `\`configs: [{ ${constexprParams[0] ?? "BLOCK_SIZE"}: 64 }, { ${constexprParams[0] ?? "BLOCK_SIZE"}: 128 }]\``;
  if (!Array.isArray(configs) || configs.length === 0) {
    fail(name, RunCodes.badConfigs, "`configs`", `must be a non-empty array of constexpr alternatives, e.g. ${example}; got ${show(configs)}.`);
  }
  if (constexprParams.length === 0 && !configs.every((c) => typeof c === "object" && c !== null && Object.keys(c).every((k) => k === NUM_WARPS || k === NUM_STAGES))) {
    fail(name, RunCodes.badConfigs, "`configs`", `kernel '${kernel.name}' has no constexpr parameter to tune (only num_warps and num_stages can vary); remove \`configs\`.`);
  }
  const seen = new Map<string, number>();
  return configs.map((config: unknown, i) => {
    const field = `\`configs[${i}]\``;
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
      fail(name, RunCodes.badConfigs, field, `must be an object of integers, e.g. \`{ ${constexprParams[0]}: 64 }\`; got ${show(config)}.`);
    }
    const full: Record<string, number> = { ...base };
    for (const [key, value] of Object.entries(config as Record<string, unknown>)) {
      if (!tunable.includes(key)) {
        fail(name, RunCodes.badConfigs, field, `'${key}' is not a constexpr parameter of kernel '${kernel.name}' (those are: ${constexprParams.join(", ")}; num_warps sets the invocations per program, num_stages the loads in flight).`);
      }
      checkValue(name, field, key, value, RunCodes.badConfigs);
      if (key === NUM_WARPS) checkNumWarps(name, field, value);
      if (key === NUM_STAGES) checkNumStages(name, field, value);
      full[key] = value;
    }
    const missing = constexprParams.filter((p) => !(p in full));
    if (missing.length > 0) {
      fail(name, RunCodes.badConfigs, field, `gives no value for ${missing.map((p) => `'${p}'`).join(", ")}, and \`constexprs\` has none either. Add ${missing.join(", ")} to this config or to \`constexprs\`.`);
    }
    // Candidates are told apart by their constexprs; a repeat would only be timed twice.
    const used = tunable.filter((p) => p in full);
    const key = JSON.stringify(used.map((p) => full[p]));
    const twin = seen.get(key);
    if (twin !== undefined) fail(name, RunCodes.badConfigs, field, `is the same set of constexprs as \`configs[${twin}]\`; remove one.`);
    seen.set(key, i);
    return Object.fromEntries(used.map((p) => [p, full[p]]));
  });
}

/**
 * A constexpr's value: a number, as in Triton, where constexprs may be floats (a kernel's `beta`);
 * an integer is an i32 in the kernel, any other finite number an f32. num_warps and num_stages count things.
 */
function checkValue(name: string, field: string, key: string, value: unknown, code: typeof RunCodes.badConstexprs | typeof RunCodes.badConfigs = RunCodes.badConstexprs): asserts value is number {
  const counted = key === NUM_WARPS || key === NUM_STAGES;
  if (typeof value !== "number" || !Number.isFinite(value) || (counted && !Number.isInteger(value))) {
    fail(name, code, field, `${key} must be ${counted ? "an integer" : "an integer or a finite float"}; got ${show(value)}.`);
  }
}

function checkNumStages(name: string, field: string, value: number): void {
  if (value !== 1 && value !== 2) {
    fail(name, RunCodes.badConstexprs, field, `num_stages must be 1 (each trip loads its own tiles) or 2 (tl.dot's tiles are loaded one trip ahead, the default); got ${value}.`);
  }
}

function checkNumWarps(name: string, field: string, value: number): void {
  if (!(value >= 1 && value <= 32 && (value & (value - 1)) === 0)) {
    fail(name, RunCodes.badConstexprs, field, `num_warps must be a power of two from 1 to 32 (32 invocations each); got ${value}.`);
  }
}

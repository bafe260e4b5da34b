// What the suite times for one case: each config with the default code generation, then either the
// case's hand-picked `targets` (CodegenOptions) or, with --tune-codegen, every setting of the knobs
// the kernel uses (the autotuner's crossing: src/harness/autotune/knob-candidates.ts, from
// compile.ts kernelKnobs; crossed in full up to the case's `maxCrossed`; only the case's
// `tuneKnobs` for a config where it names them, or the settings it lists), on the case's first
// `targetConfigs` configs. A knob setting whose WGSL
// at this launch is byte-identical to one already timed for the config is skipped, as the
// autotuner skips it (`identical`).

import { compileKernel, kernelKnobs, type CompiledKernel, type KernelSource, type Specialization } from "../src/compile";
import { formatKnobs, type KnobSetting } from "../src/ir/knobs";
import type { CodegenOptions, Target } from "../src/ir/target";
import { knobSettings, type KnobRequest } from "../src/harness/autotune/knob-candidates";
import type { Case } from "./case";

export interface Variant {
  constexprs: Record<string, number>;
  target: CodegenOptions;
  /** With --tune-codegen: the knobs' values (the default setting included), for the label and the summary. */
  knobs?: KnobSetting;
}

/** Every (config, options) pair to time, default code generation first for each config. */
export function caseVariants(c: Case, kernel: KernelSource, target: Target, specialization: Specialization, opts: { defaultsOnly: boolean; tuneCodegen: boolean; base?: CodegenOptions }): Variant[] {
  const base = opts.base ?? {};
  const tried = (index: number) => c.targetConfigs === undefined || index < c.targetConfigs;
  if (opts.tuneCodegen) {
    return c.configs.flatMap((constexprs, index): Variant[] => {
      const plain = compileKernel(kernel, constexprs, target, specialization, base).kernel;
      if (!plain || !tried(index)) return [{ constexprs, target: {} }];
      const asked = c.tuneKnobs?.(constexprs) ?? true;
      const settings = asked !== true && asked.every((k): k is KnobSetting => typeof k === "object") ? asked : knobSettings(kernelKnobs(kernel, constexprs, plain, target, base), asked as KnobRequest, c.maxCrossed);
      return settings.map((knobs) => ({ constexprs, target: knobs, knobs }));
    });
  }
  const targets: CodegenOptions[] = [{}, ...(opts.defaultsOnly ? [] : c.targets ?? [])];
  return targets.flatMap((t) => c.configs.flatMap((constexprs, index): Variant[] => {
    // num_warps fixes the invocations: a target's preference would time the same code again.
    if ("preferredWorkgroupSize" in t && "num_warps" in constexprs) return [];
    if (Object.keys(t).length > 0 && !tried(index)) return [];
    return [{ constexprs, target: t }];
  }));
}

/** The variant's name in the suite's lines and JSON: the constexprs, then the options or the knobs that are not the defaults. */
export function variantLabel(v: Variant, defaults?: KnobSetting): string {
  const configs = Object.entries(v.constexprs).map(([k, val]) => `${k}=${val}`);
  if (v.knobs) {
    const changed: KnobSetting = Object.fromEntries(Object.entries(v.knobs).filter(([k, val]) => defaults?.[k as keyof KnobSetting] !== val));
    const text = formatKnobs(changed);
    return [...configs, text ? `knobs: ${text}` : "knobs: default"].join(" ");
  }
  const options = Object.entries(v.target).map(([k, val]) => (k === "preferredWorkgroupSize" ? `W≤${val}` : val === true ? k : `${k}=${val}`));
  return [...configs, ...options].join(" ");
}

/** Per config: the WGSL timed so far, so a knob setting that emits the same code is skipped. */
export class SeenWgsl {
  private readonly seen = new Map<string, Set<string>>();

  /** True the first time this config's program is seen. */
  first(v: Variant, program: CompiledKernel): boolean {
    const key = JSON.stringify(v.constexprs);
    let set = this.seen.get(key);
    if (!set) this.seen.set(key, (set = new Set()));
    if (set.has(program.wgsl)) return false;
    set.add(program.wgsl);
    return true;
  }
}

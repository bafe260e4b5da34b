// Which of Dawn's toggles Kernel Lab asks for itself. Dawn withholds two things a half-precision
// kernel needs unless asked: `shader-f16` on NVIDIA's Vulkan drivers older than 615.71 (toggle
// `vulkan_enable_f16_on_nvidia`: f16 conformance failures on those drivers, https://crbug.com/42251215;
// docs/LANGUAGE.md §2.7, bench/NOTES.md §12) and the subgroup-matrix feature (tensor cores for
// an f16 tl.dot) everywhere (`allow_unsafe_apis`). A run asks for them only when its file's kernels
// use f16; a toggle the user names in KERNEL_LAB_DAWN_FLAGS (enabled or disabled) is theirs, so
// `disable-dawn-features=vulkan_enable_f16_on_nvidia,allow_unsafe_apis` turns this off.

import type { HalfPrecisionNeeds } from "../ir/target";

export { NO_NEEDS, type HalfPrecisionNeeds } from "../ir/target";

export const F16_TOGGLE = "vulkan_enable_f16_on_nvidia";
export const UNSAFE_APIS_TOGGLE = "allow_unsafe_apis";

/** The toggles a Dawn flag list names, enabled or disabled (`enable-dawn-features=a,b`, `disable-dawn-features=c`). */
export function namedToggles(flags: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (const flag of flags) {
    const m = /^(?:--)?(?:enable|disable)-dawn-features=(.*)$/.exec(flag);
    if (m) for (const t of m[1].split(",")) if (t.trim()) named.add(t.trim());
  }
  return named;
}

/** The toggles to ask Dawn for, given what the kernels need and the user's own flags. */
export function togglesToAsk(needs: HalfPrecisionNeeds, userFlags: readonly string[]): string[] {
  const wanted = [...(needs.f16 ? [F16_TOGGLE] : []), ...(needs.f16 && needs.f16Dot ? [UNSAFE_APIS_TOGGLE] : [])];
  const named = namedToggles(userFlags);
  return wanted.filter((t) => !named.has(t));
}

/** `flags` with `toggles` enabled: added to an `enable-dawn-features=` flag already there (Dawn reads one), else a new one. */
export function withToggles(flags: readonly string[], toggles: readonly string[]): string[] {
  if (toggles.length === 0) return [...flags];
  const at = flags.findIndex((f) => /^(?:--)?enable-dawn-features=/.test(f));
  if (at < 0) return [...flags, `enable-dawn-features=${toggles.join(",")}`];
  return flags.map((f, i) => (i === at ? `${f}${f.endsWith("=") ? "" : ","}${toggles.join(",")}` : f));
}

/** The one line a run shows about the toggles it asked for (once per file: CLI and results panel). */
export function togglesNote(toggles: readonly string[]): string | undefined {
  if (toggles.length === 0) return undefined;
  return `Kernel Lab asked Dawn for ${toggles.join(" and ")}: this file's kernels use f16 (kernelLab.dawnToggles "off", or KERNEL_LAB_DAWN_FLAGS="disable-dawn-features=${toggles.join(",")}", turns this off)`;
}

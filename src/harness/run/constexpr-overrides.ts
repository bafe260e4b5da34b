// `run --constexpr NAME=VALUE`: values that replace a run's own, in `constexprs` and in every
// config of `configs`, before the run is checked (so a name the kernel lacks is the usual
// diagnostic). Configs that become the same are tuned once; when one is left, nothing is tuned.

import type { LoadedRun } from "../load/load";

export function withConstexprOverrides(loaded: LoadedRun, overrides: Readonly<Record<string, number>>): LoadedRun {
  if (Object.keys(overrides).length === 0) return loaded;
  const definition = { ...loaded.definition } as Record<string, unknown>;
  const own = (x: unknown) => (typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : {});
  definition.constexprs = { ...own(definition.constexprs), ...overrides };
  if (Array.isArray(definition.configs)) {
    const merged = definition.configs.map((c) => ({ ...own(c), ...overrides }));
    const distinct = [...new Map(merged.map((c) => [JSON.stringify(Object.entries(c).sort()), c])).values()];
    if (distinct.length === 1) {
      definition.constexprs = { ...(definition.constexprs as object), ...distinct[0] };
      delete definition.configs;
    } else {
      definition.configs = distinct;
    }
  }
  return { ...loaded, definition: definition as unknown as LoadedRun["definition"] };
}

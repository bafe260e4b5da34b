// @triton.autotune(cache_results=True) (Triton keeps each key's pick in its cache on disk, so a later
// run launches it without timing): the config Python's timing picked (lib/triton/_autotuner.py) is
// kept in Kernel Lab's autotune cache (autotune-cache.ts), keyed by the kernel's file (the script, or
// the module beside it that defines the kernel: any edit is tuned afresh), the kernel's name, the key's
// values and its tensors' dtypes as Python writes them, every config, the adapter and the compiler
// build. `--retune` tunes afresh and replaces the entry. The picks of --tune-codegen (autotune.ts)
// are kept apart: they carry code-generation knobs, and are always cached.

import { lookupChoice, storeChoice, tuningKey } from "../autotune/autotune-cache";
import { sameConstexprs } from "../autotune/autotune";
import { adapterLabel } from "../cache-location";
import type { AdapterReport } from "../report";
import { assertNever } from "../../ir/never";
import type { AutotuneResultsRequest } from "./protocol";

export interface ResultsAccess {
  adapter: AdapterReport;
  scriptText: string;
  retune: boolean;
}

/** The remembered pick for a lookup: its index among the request's configs and each config's median (ms; null: not timed). */
export interface RememberedPick {
  index: number;
  timings: (number | null)[];
}

function run(request: AutotuneResultsRequest): string {
  return `${request.kernel} key=${request.key} (timed by Python)`;
}

function cacheKey(request: AutotuneResultsRequest, access: ResultsAccess): string {
  return tuningKey({ kernelText: request.moduleText ?? access.scriptText, run: run(request), candidates: request.configs, adapter: access.adapter, size: 0 });
}

/** A lookup's remembered pick (null: none, or --retune), or a store of Python's pick (null). */
export function autotuneResults(request: AutotuneResultsRequest, access: ResultsAccess): RememberedPick | null {
  const key = cacheKey(request, access);
  switch (request.op) {
    case "lookup": {
      const cached = access.retune ? undefined : lookupChoice(key);
      const index = cached ? request.configs.findIndex((c) => sameConstexprs(c, cached.picked)) : -1;
      if (!cached || index < 0) return null;
      const median = (c: Readonly<Record<string, number>>) => cached.candidates.find((k) => sameConstexprs(k.constexprs, c))?.medianMs ?? null;
      return { index, timings: request.configs.map(median) };
    }
    case "store": {
      const picked = request.configs[request.picked ?? -1];
      if (!picked) return null;
      const medianMs = (i: number) => {
        const ms = request.timings?.[i];
        return typeof ms === "number" && Number.isFinite(ms) ? ms : null;
      };
      storeChoice(key, {
        run: run(request),
        kernel: request.kernel,
        size: 0,
        adapter: adapterLabel(access.adapter),
        picked,
        candidates: request.configs.map((constexprs, i) => ({ constexprs, medianMs: medianMs(i), correct: true })),
        date: new Date().toISOString(),
      });
      return null;
    }
    default:
      return assertNever(request.op, "autotune-results op");
  }
}

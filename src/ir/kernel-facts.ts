// What the harness needs to know of a compiled kernel, read off its IR once when it is compiled
// (compile.ts) instead of by each part of the harness walking the IR again: which pointer
// parameters it reads (an output it never reads starts as poison, so an element it forgot to write
// shows), where it updates a buffer atomically (such elements have no single writer), and its
// tl.devicePrint / tl.deviceAssert sites (to turn the records of either back end into lines).

import type { Span } from "../diagnostics/diagnostic";
import { debugSites, siteIds, type DebugSite } from "./debug";
import type { KernelIR } from "./ir";
import { forEachValue } from "./walk";

export interface KernelFacts {
  /** Pointer parameters the kernel loads from or updates atomically (an atomic reads what is there: a histogram adds to its zeros). */
  loaded: ReadonlySet<string>;
  /** Pointer parameter → the span of its first tl.atomic*. */
  atomics: ReadonlyMap<string, Span>;
  /** The tl.devicePrint / tl.deviceAssert sites in source order (ir/debug.ts), their ids by span start. */
  debugSites: readonly DebugSite[];
  debugSiteIds: ReadonlyMap<number, number>;
}

export function kernelFacts(ir: KernelIR): KernelFacts {
  const loaded = new Set<string>();
  const atomics = new Map<string, Span>();
  forEachValue(ir.body, (v) => {
    if ((v.op === "load" || v.op === "atomic") && v.ptr.type.kind === "pointer") loaded.add(v.ptr.type.param);
    if (v.op === "atomic" && v.ptr.type.kind === "pointer" && !atomics.has(v.ptr.type.param)) atomics.set(v.ptr.type.param, v.span);
  });
  const sites = debugSites(ir.body);
  return { loaded, atomics, debugSites: sites, debugSiteIds: siteIds(sites) };
}

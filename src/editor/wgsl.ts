// The WGSL the compiler generates for a file's kernels: for the constexpr values of the runs just
// made (results panel), or for those written literally in its `defineRun` calls (Show WGSL).
// Compiling is pure TypeScript, so it runs in the extension host; only GPU work needs the child.

import { compiler } from "./compiler";
import type { WgslView } from "./webview-protocol";

export const WGSL_TARGET_NOTE = "Generated for WebGPU's default limits; a run specialises further for its adapter and its arguments (those equal to 1, multiples of 16).";

export interface WgslListing {
  entries: WgslView[];
  /** Kernels that did not compile (their diagnostics are in the editor). */
  failed: string[];
}

/** One entry per distinct (kernel, constexprs); `wanted` undefined means every kernel of the file. */
export function wgslFor(
  fileName: string,
  text: string,
  wanted?: readonly { kernel: string; constexprs: Readonly<Record<string, number>> }[],
): WgslListing {
  const { parseKernelFile, compileKernel } = compiler();
  const parsed = parseKernelFile(fileName, text);
  const requests = wanted ?? parsed.kernels.flatMap((k) => {
    const literal = parsed.literalConstexprs.get(k.name) ?? [];
    // No run gives its constexprs literally: show it specialised as the diagnostics are (16 each);
    // likewise those a run gives only at run time (a function of the size).
    const placeholder = Object.fromEntries(k.params.filter((p) => p.kind === "constexpr").map((p) => [p.name, 16]));
    const runTime = parsed.runTimeConstexprs.get(k.name);
    const standIns = runTime ? Object.fromEntries(Object.entries(placeholder).filter(([name]) => runTime.unlisted || runTime.names.has(name))) : {};
    if (literal.length > 0) return literal.map((constexprs) => ({ kernel: k.name, constexprs: { ...standIns, ...constexprs } }));
    return [{ kernel: k.name, constexprs: placeholder }];
  });
  const entries: WgslView[] = [];
  const failed: string[] = [];
  const seen = new Set<string>();
  for (const { kernel: name, constexprs } of requests) {
    const key = `${name}:${JSON.stringify(Object.entries(constexprs).sort())}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const source = parsed.kernels.find((k) => k.name === name);
    const compiled = source?.ok ? compileKernel(source, constexprs).kernel : undefined;
    if (compiled) entries.push({ kernel: name, constexprs: { ...compiled.constexprs }, text: compiled.wgsl });
    else failed.push(name);
  }
  return { entries, failed };
}

/** The text of the Show WGSL document. */
export function formatListing(listing: WgslListing): string {
  const parts = listing.entries.map((e) => {
    const specialisation = Object.entries(e.constexprs).map(([k, v]) => `${k}=${v}`).join(", ");
    return `// ${e.kernel}${specialisation ? ` (${specialisation})` : ""}\n${e.text.trimEnd()}\n`;
  });
  for (const name of listing.failed) parts.push(`// ${name}: does not compile; see the Problems panel.\n`);
  return `// ${WGSL_TARGET_NOTE}\n\n${parts.join("\n")}`;
}

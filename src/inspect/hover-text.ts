// The editor's hover over a kernel body, from the checker's types (binding-types.ts): over a
// `tl.*` call, the shapes it got here and its Triton name (what it does is TypeScript's own hover,
// from types/kernel-lab.d.ts); over a name, its type.

import type { Span } from "../diagnostics/diagnostic";
import type { KernelTypes, TlCall } from "./binding-types";

export interface KernelHover {
  span: Span;
  /** Markdown. */
  text: string;
}

const inside = (span: Span, offset: number) => span.start <= offset && offset <= span.end;

export function hoverAt(kernels: readonly KernelTypes[], offset: number): KernelHover | undefined {
  for (const k of kernels) {
    const call = k.calls.find((c) => inside(c.callee, offset));
    if (call) return { span: call.callee, text: `\`${callText(call)}\` · Triton \`${tritonName(call.name)}\`${forConstexprs(k)}` };
    const bound = k.bindings.find((b) => inside(b.span, offset));
    if (bound) return { span: bound.span, text: `\`${bound.name}: ${bound.type}\`${forConstexprs(k)}` };
    // The innermost typed expression that is a plain name (a use of a binding or parameter).
    const named = k.expressions.find((e) => e.name !== undefined && inside(e.span, offset));
    if (named) return { span: named.span, text: `\`${named.name}: ${named.type}\`${forConstexprs(k)}` };
  }
  return undefined;
}

/** `tl.sum(x: f32[128×256], 1) → f32[128]`. */
export function callText(call: TlCall): string {
  const args = call.args.map((a) => (a.literal || a.type === undefined ? a.text : `${a.text}: ${a.type}`));
  return `tl.${call.name}(${args.join(", ")})${call.result ? ` → ${call.result}` : ""}`;
}

/** Triton spells the same functions in snake_case; `tl.cast` is a method there. */
export function tritonName(name: string): string {
  if (name === "cast") return "x.to(dtype)";
  return `tl.${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
}

function forConstexprs(k: KernelTypes): string {
  const entries = Object.entries(k.constexprs);
  return entries.length === 0 ? "" : ` (with ${entries.map(([n, v]) => `${n} = ${v}`).join(", ")})`;
}

// What the editor shows about a kernel body (inlay hints, hovers): the type the checker gave each
// name it bound and each expression it lowered. Recorded by LoweringContext as it goes, so the
// editor reads the compiler's own results and never re-derives a rule.

import type { Span } from "../diagnostics/diagnostic";
import type { ValueType } from "../ir/ir";
import type { Binding } from "./context";

/** A name bound in the kernel body: a `const`, a `let` variable, a loop counter, or a parameter. */
export interface BoundName {
  name: string;
  /** The name where it is declared. */
  span: Span;
  type: ValueType;
  what: "const" | "let" | "counter" | "parameter";
}

/** An expression the checker gave a value to. */
export interface TypedExpression {
  span: Span;
  type: ValueType;
}

export class TypesSeen {
  readonly bindings: BoundName[] = [];
  readonly expressions: TypedExpression[] = [];

  bound(name: string, binding: Binding): void {
    if (binding.kind === "variable") {
      const v = binding.variable;
      this.bindings.push({ name, span: v.span, type: v.type, what: binding.counter ? "counter" : "let" });
      return;
    }
    // A declaration whose initialiser failed (or that has none yet) has no type to show; a tuple or block pointer no one type.
    if (binding.kind === "unknown" || binding.kind === "unassigned" || binding.kind === "aggregate" || binding.kind === "slot") return;
    this.bindings.push({ name, span: binding.declaredAt, type: binding.value.type, what: binding.what });
  }

  expression(span: Span, type: ValueType): void {
    this.expressions.push({ span, type });
  }
}

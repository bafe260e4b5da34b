// The Variables view of a stop: the kernel's named bindings, its parameters and the program, as
// Debug Adapter Protocol variables. A scalar is its value; a block expands to its shape, dtype,
// a summary, then its first elements (masks as booleans, pointers as `param + offset`).
// References are valid until the next stop (the protocol's rule), so the table is reset then.

import type { DebugProtocol } from "@vscode/debugprotocol";
import type { DebugBinding, DebugFrame, ProgramTrace } from "../../harness/debug/debug-run";
import type { ValueType } from "../../ir/ir";
import { layerSummary, type AccessMapLayer } from "../../harness/debug/access-map";

/** Elements a block shows before its summary says how many more there are. */
export const SHOWN_ELEMENTS = 128;
const PREVIEW_ELEMENTS = 8;

type Expandable =
  | { kind: "bindings"; bindings: DebugBinding[] }
  | { kind: "program" }
  | { kind: "accesses" }
  | { kind: "access"; layer: AccessMapLayer }
  | { kind: "block"; binding: DebugBinding };

/** References of one frame's table lie in [base, base + REFS_PER_FRAME). */
export const REFS_PER_FRAME = 1_000_000;

/** One frame's variables at a stop; frame i's references start at (i + 1) × REFS_PER_FRAME. */
export class VariableTable {
  private readonly refs = new Map<number, Expandable>();
  private next: number;

  constructor(
    private readonly trace: ProgramTrace,
    private readonly frame: DebugFrame,
    private readonly base = REFS_PER_FRAME,
  ) {
    this.refs.set(base, { kind: "bindings", bindings: frame.bindings.filter((b) => !b.parameter) });
    this.refs.set(base + 1, { kind: "bindings", bindings: frame.bindings.filter((b) => b.parameter) });
    this.refs.set(base + 2, { kind: "program" });
    this.refs.set(base + 3, { kind: "accesses" });
    this.next = base + 4;
  }

  scopes(): DebugProtocol.Scope[] {
    return [
      { name: "Locals", presentationHint: "locals", variablesReference: this.base, expensive: false },
      { name: "Parameters", presentationHint: "arguments", variablesReference: this.base + 1, expensive: false },
      { name: "Program", variablesReference: this.base + 2, expensive: false },
      ...(this.trace.accessMap ? [{ name: "Accesses", variablesReference: this.base + 3, expensive: false }] : []),
    ];
  }

  variables(ref: number): DebugProtocol.Variable[] {
    const item = this.refs.get(ref);
    if (!item) return [];
    switch (item.kind) {
      case "bindings":
        return item.bindings.map((b) => this.variable(b));
      case "program":
        return this.programVariables();
      case "accesses":
        return this.accessVariables();
      case "access":
        return accessChildren(item.layer);
      case "block":
        return blockChildren(item.binding);
    }
  }

  /** The binding of this name at the stop, for hovers and the Watch view. */
  lookup(name: string): DebugProtocol.Variable | undefined {
    const binding = [...this.frame.bindings].reverse().find((b) => b.name === name);
    return binding && this.variable(binding);
  }

  private variable(b: DebugBinding): DebugProtocol.Variable {
    const type = typeText(b.type);
    if (b.type.shape.length === 0) return { name: b.name, value: elementText(b.type, b.values[0]), type, variablesReference: 0 };
    const ref = this.next++;
    this.refs.set(ref, { kind: "block", binding: b });
    return { name: b.name, value: blockPreview(b), type, variablesReference: ref };
  }

  /** Per tl.load / tl.store / tl.atomic* line, what the whole program touches (the same map as `--program`). */
  private accessVariables(): DebugProtocol.Variable[] {
    const map = this.trace.accessMap;
    if (!map) return [];
    return map.layers.map((layer) => {
      const ref = this.next++;
      this.refs.set(ref, { kind: "access", layer });
      return { name: `line ${layer.line}: ${layer.kind} ${layer.param}`, value: layerSummary(map, layer), variablesReference: ref };
    });
  }

  private programVariables(): DebugProtocol.Variable[] {
    const t = this.trace;
    const plain = (name: string, value: string): DebugProtocol.Variable => ({ name, value, variablesReference: 0 });
    return [
      plain("programId", `(${t.programId.join(", ")})`),
      plain("grid", `[${t.grid.join(", ")}]`),
      ...(t.launchLine !== undefined ? [plain("launch", `line ${t.launchLine} (its first launch)`)] : []),
      ...(t.run !== undefined ? [plain("run", t.run)] : []),
      ...(t.size !== undefined ? [plain("size", String(t.size))] : []),
      plain("constexprs", Object.entries(t.constexprs).map(([k, v]) => `${k}=${v}`).join(", ") || "none"),
    ];
  }
}

/** An access's lanes, then the index ranges its active lanes touched and those only masked-off lanes pointed at (the first SHOWN_ELEMENTS of each). */
function accessChildren(layer: AccessMapLayer): DebugProtocol.Variable[] {
  const plain = (name: string, value: string): DebugProtocol.Variable => ({ name, value, variablesReference: 0 });
  const ranges = (label: string, runs: readonly [number, number][]) => [
    ...runs.slice(0, SHOWN_ELEMENTS).map(([a, b], i) => plain(`${label}[${i}]`, b - a === 1 ? `${layer.param}[${a}]` : `${layer.param}[${a} … ${b - 1}] (${b - a} elements)`)),
    ...(runs.length > SHOWN_ELEMENTS ? [plain("…", `${runs.length - SHOWN_ELEMENTS} more ranges`)] : []),
  ];
  return [
    plain("lanes", `${layer.lanes} (every trip of its loop), ${layer.active} active, ${layer.lanes - layer.active} masked off`),
    ...ranges("touched", layer.touched),
    ...ranges("masked off", layer.masked),
  ];
}

/** `i32[1024]`, `bool[16, 16]`, `Ptr<f32>[1024]`. */
export function typeText(type: ValueType): string {
  const shape = type.shape.length === 0 ? "" : `[${type.shape.join(", ")}]`;
  return type.kind === "pointer" ? `Ptr<${type.pointee}>${shape}` : `${type.dtype}${shape}`;
}

function blockPreview(b: DebugBinding): string {
  const n = b.values.length;
  const shown = Array.from({ length: Math.min(n, PREVIEW_ELEMENTS) }, (_, i) => elementText(b.type, b.values[i]));
  return `${typeText(b.type)} [${shown.join(", ")}${n > PREVIEW_ELEMENTS ? ", …" : ""}]`;
}

/** shape, dtype, a summary, then the first SHOWN_ELEMENTS elements. */
function blockChildren(b: DebugBinding): DebugProtocol.Variable[] {
  const { type, values } = b;
  const n = values.length;
  const plain = (name: string, value: string): DebugProtocol.Variable => ({ name, value, variablesReference: 0 });
  const children = [
    plain("shape", `[${type.shape.join(", ")}]`),
    plain("dtype", type.kind === "pointer" ? `Ptr<${type.pointee}> into ${type.param}` : type.dtype),
    plain("summary", summary(b)),
  ];
  for (let i = 0; i < Math.min(n, SHOWN_ELEMENTS); i++) {
    children.push({ name: indexText(type.shape, i), value: elementText(type, values[i]), variablesReference: 0 });
  }
  if (n > SHOWN_ELEMENTS) children.push(plain("…", `${n - SHOWN_ELEMENTS} more of ${n} elements`));
  return children;
}

function summary(b: DebugBinding): string {
  const { type, values } = b;
  const n = values.length;
  if (type.kind === "data" && type.dtype === "bool") {
    let on = 0;
    for (let i = 0; i < n; i++) if (values[i] !== 0) on++;
    return `${on} of ${n} true`;
  }
  let min = Infinity;
  let max = -Infinity;
  let nan = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) nan++;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const range = nan === n ? "all NaN" : `min ${elementText(type, min)}, max ${elementText(type, max)}`;
  return `${n} elements, ${range}${nan > 0 && nan < n ? `, ${nan} NaN` : ""}`;
}

/** `[5]`, or `[r, c]` for a 2-D block (row-major). */
function indexText(shape: readonly number[], flat: number): string {
  const index: number[] = [];
  for (let axis = shape.length - 1, rest = flat; axis >= 0; axis--) {
    index.unshift(rest % shape[axis]);
    rest = Math.floor(rest / shape[axis]);
  }
  return `[${index.join(", ")}]`;
}

export function elementText(type: ValueType, v: number): string {
  if (type.kind === "pointer") return `${type.param} + ${v}`;
  switch (type.dtype) {
    case "bool":
      return v !== 0 ? "true" : "false";
    case "i32":
    case "u32":
    case "i64":
      return String(v);
    case "f32":
      return shortest(v, (x) => Math.fround(x), 9);
    case "f16":
      return shortest(v, (x) => x, 5);
    case "bf16":
      return shortest(v, (x) => x, 4);
  }
}

/** The shortest decimal that reads back as the same value of the dtype. */
function shortest(v: number, round: (x: number) => number, digits: number): string {
  if (!Number.isFinite(v)) return String(v);
  for (let p = 1; p < digits; p++) {
    const text = Number(v.toPrecision(p));
    if (round(text) === v) return String(text);
  }
  return String(Number(v.toPrecision(digits)));
}

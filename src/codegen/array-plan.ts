// Every workgroup array a plan's kernel will declare, known before any WGSL is written: tl.dot's
// staging (the plan's, dot-staging.ts and mma-plan.ts) and the arrays of reductions,
// rearrangements, scans, selections and atomics. Each op's arrays are asked for by the same
// functions its emitter calls (`reduceArrays` beside `emitReduce`, …), given the same facts
// (`ArrayFacts`: layouts, dtypes, the loop depth, which values steer control flow), so the plan's
// account and the emitted module can't disagree; generateWgsl picks the plan that fits from it
// and emits once. test/unit/codegen-plan.test.ts compares the two on every kernel.

import type { KernelIR, Stmt, Value, ValueType } from "../ir/ir";
import { numel } from "../ir/ir";
import { assertNever } from "../ir/never";
import { oldValuesArray } from "./atomic-old-values";
import type { ArrayFacts } from "./emitter";
import { resolveLayout, sameLayout, type BlockLayout, type RowSlice, type Tiling } from "./layout";
import type { RegisterDtype } from "./literals";
import { rearrangeArrays } from "./rearrange";
import { reduceArrays } from "./reductions";
import { reduceWithArrays, scanArrays } from "./scans";
import { concatArrays, gatherArrays, histogramArray, sortArrays } from "./selection";
import { valuesSteeringControl } from "./uniformity";
import { requestArray, type WorkgroupArray } from "./workgroup-arrays";
import { knownReads } from "./variable-values";

/** What the planner knows of the kernel it sizes arrays for (the plan's workgroup size and layouts). */
export interface ArrayPlanInput {
  readonly ir: KernelIR;
  readonly workgroupSize: number;
  readonly subgroupMinSize: number;
  readonly subgroups: boolean;
  readonly tiledLayouts: Tiling;
  readonly rowSlices: ReadonlyMap<number, RowSlice>;
  /** tl.trans values only tl.dot reads: not emitted. */
  readonly dotOnlyTransposes: ReadonlySet<number>;
  /** CodegenOptions.shareReductionArrays. */
  readonly sharedReductionArrays: boolean;
}

type ValueArrays = { [K in Value["op"]]: (facts: PlanningFacts, v: Extract<Value, { op: K }>) => void };

const none = (): void => {};

/** The arrays each op's emitter (values.ts) asks for; dots' are the plan's staging, counted already. */
const VALUE_ARRAYS: ValueArrays = {
  const: none,
  splat: none,
  param: none,
  programId: none,
  numPrograms: none,
  arange: none,
  bitcast: none,
  cast: none,
  unary: none,
  binary: none,
  ptrAdd: none,
  math: none,
  where: none,
  load: none,
  readVar: none,
  random: none,
  combineArg: none,
  dot: none,
  reshape: (f, v) => (f.sameLayout(v.type, v.value.type) ? undefined : rearrangeArrays(f, v)),
  broadcast: (f, v) => (numel(v.value.type.shape) === 1 ? undefined : rearrangeArrays(f, v)),
  trans: rearrangeArrays,
  permute: rearrangeArrays,
  slice: rearrangeArrays,
  flip: rearrangeArrays,
  concat: concatArrays,
  gather: gatherArrays,
  histogram: (f, v) => void histogramArray(f, v),
  sort: sortArrays,
  reduce: reduceArrays,
  scan: scanArrays,
  reduceWith: reduceWithArrays,
  atomic: (f, v) => void oldValuesArray(f, f.input.ir, v),
};

/** `ArrayFacts` from the plan: arrays asked for collect in `arrays`; the walk keeps the loop depth. */
class PlanningFacts implements ArrayFacts {
  loopDepth = 0;
  private freshCount = 0;
  private readonly steering: ReadonlySet<number>;
  private readonly reads: ReadonlyMap<number, Value>;

  constructor(
    readonly input: ArrayPlanInput,
    readonly arrays: Map<string, WorkgroupArray>,
  ) {
    this.steering = valuesSteeringControl(input.ir.body);
    this.reads = knownReads(input.ir.body);
  }

  get workgroupSize(): number {
    return this.input.workgroupSize;
  }
  get subgroupMinSize(): number {
    return this.input.subgroupMinSize;
  }
  get hasSubgroups(): boolean {
    return this.input.subgroups;
  }
  get sharedReductionArrays(): boolean {
    return this.input.sharedReductionArrays;
  }
  layout(type: ValueType): BlockLayout {
    return resolveLayout(type.shape, this.input.workgroupSize, this.input.tiledLayouts, this.input.rowSlices);
  }
  sameLayout(a: ValueType, b: ValueType): boolean {
    return sameLayout(a.shape, b.shape, this.input.workgroupSize, this.input.tiledLayouts, this.input.rowSlices);
  }
  dtype(type: ValueType): RegisterDtype {
    return type.kind === "pointer" || type.dtype === "i64" ? "i32" : type.dtype === "bf16" ? "f32" : type.dtype;
  }
  scratch(slot: string, dtype: RegisterDtype, size: number, vec4 = false): string {
    return requestArray(this.arrays, slot, dtype, size, vec4);
  }
  /** A name no other array has (the emitter numbers its own; only the sizes matter here). */
  fresh(prefix: string): string {
    return `${prefix}#${this.freshCount++}`;
  }
  inLoop(): boolean {
    return this.loopDepth > 0;
  }
  steersControl(v: Value): boolean {
    return this.steering.has(v.id);
  }
  knownRead(read: Value): Value | undefined {
    return this.reads.get(read.id);
  }
}

/**
 * The workgroup arrays of `input`'s kernel: `staging` (tl.dot's, planned) and those every other
 * value's emitter will ask for, by name (a fresh array under a name of its own), each as large as
 * its largest use.
 */
export function planWorkgroupArrays(input: ArrayPlanInput, staging: ReadonlyMap<string, WorkgroupArray>): Map<string, WorkgroupArray> {
  const facts = new PlanningFacts(input, new Map(staging));
  walk(facts, input.ir.body);
  return facts.arrays;
}

/** The statements as statements.ts emits them: every `let`'s value once, loops one deeper. */
function walk(facts: PlanningFacts, body: readonly Stmt[]): void {
  for (const s of body) {
    switch (s.kind) {
      case "let":
        if (!facts.input.dotOnlyTransposes.has(s.value.id)) (VALUE_ARRAYS[s.value.op] as (f: PlanningFacts, v: Value) => void)(facts, s.value);
        break;
      case "for":
        facts.loopDepth++;
        walk(facts, s.body);
        facts.loopDepth--;
        break;
      case "while":
        facts.loopDepth++;
        walk(facts, s.head);
        walk(facts, s.body);
        facts.loopDepth--;
        break;
      case "if":
        walk(facts, s.then);
        walk(facts, s.else);
        break;
      case "store":
      case "declare":
      case "assign":
      case "break":
      case "continue":
      case "barrier":
      case "print":
      case "assert":
        break;
      default:
        assertNever(s, "statement");
    }
  }
}

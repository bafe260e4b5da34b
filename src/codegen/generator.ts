// The state of generating one kernel's WGSL: the lines emitted so far, the buffers, uniforms and
// workgroup arrays the shader needs, and where each value's registers are (layout.ts). What to
// emit for each statement and value is in statements.ts and values.ts; wgsl.ts puts the module
// together.

import { DiagnosticLog } from "../diagnostics/diagnostic";
import { Codes } from "../diagnostics/codes";
import type { KernelIR, Stmt, Value, ValueType, Variable } from "../ir/ir";
import { numel } from "../ir/ir";
import type { CodegenOptions, Target } from "../ir/target";
import type { StorageBinding, UniformScalar } from "./abi";
import type { ContiguityAnalysis } from "./contiguity";
import { Instrumentation } from "./instrument";
import type { Emitter } from "./emitter";
import type { MmaPlan } from "./mma-plan";
import type { DirectStore } from "./mma-store";
import type { TileMasks } from "./tile-masks";
import type { CodegenPlan } from "./plan";
import { packedHalf, packedRun, type PackedHalves } from "./packed-halves";
import { dotChunk, type TiledDotStaging } from "./dot-staging";
import { requestArray, type WorkgroupArray } from "./workgroup-arrays";
import { isRowVector, layoutKey, layoutOf, pieceCols, pieceRows, registerOffset, runSpan, rowSliceLayout, rowSliceOffset, rowSlicesOf, sameLayout, tileOffset, type BlockLayout, type RowSlice, type Tiling } from "./layout";
import { literal, wgslType, type RegisterDtype } from "./literals";
import { lowWord } from "../ir/int64";
import { valuesSteeringBarriers, valuesSteeringControl } from "./uniformity";
import { knownReads } from "./variable-values";

/** Registers beyond this per invocation and value are reported: the code would not fit. */
const MAX_REGISTERS = 128;

export class WgslGenerator implements Emitter {
  readonly log = new DiagnosticLog();
  /** The body of `main`, indented. */
  readonly lines: string[] = [];
  private indent = 1;
  readonly w: number;
  readonly buffers = new Map<string, StorageBinding>();
  readonly scalars: UniformScalar[] = [];
  usesF16 = false;
  /** The shader uses subgroup matrices (mma.ts). */
  usesSubgroupMatrix = false;
  /** The loops' tl.dot calls that run on subgroup matrices, by the dot's value id (the plan's). */
  readonly mma: ReadonlyMap<number, MmaPlan>;
  /** Stores a loop plan's matrices write themselves (mma-store.ts), by statement (the plan's). */
  readonly directStores: ReadonlyMap<Stmt, DirectStore>;
  /** Masked f16 loads tested once per tile (tile-masks.ts). */
  readonly tileMasks: TileMasks;
  readonly earlyStaging = new Map<number, unknown>();
  /** Comparisons that hold on the way being emitted (a whole trip's, whole-trips.ts): emitted as `true`. */
  readonly holding = new Set<number>();
  /** tl.trans values read only as operands of tl.dot: not emitted (the dot stages what they transpose, dot.ts). */
  readonly dotOnlyTransposes: ReadonlySet<number>;
  readonly contiguity: ContiguityAnalysis;
  private readonly steering: ReadonlySet<number>;
  private readonly steeringBarriers: ReadonlySet<number>;
  /** What a variable holds where it is read, where straight-line code shows it (variable-values.ts), by the read's id. */
  private readonly reads: ReadonlyMap<number, Value>;
  /** Buffers read or written as vec4 somewhere: every access to them goes through [i >> 2][i & 3]. */
  readonly wideBuffers: ReadonlySet<string>;
  readonly octetBuffers: ReadonlySet<string>;
  readonly wordBuffers: ReadonlySet<string>;
  /** Buffers some tl.atomic* goes through: declared array<atomic<…>>, every access an atomic (atomics.ts). */
  readonly atomicBuffers: ReadonlySet<string>;
  /** Values and loop variables whose runs of 4 halves are one vec2<u32> each (packed-halves.ts). */
  readonly packed: PackedHalves;
  /** How many `for` loops enclose the statement being emitted. */
  loopDepth = 0;
  /** How many enclosing ifs and loops WGSL may take as non-uniform (uniformity.ts uniformInWgsl): no barrier there. */
  nonUniformDepth = 0;
  /** Scalar loads handed out with workgroupUniformLoad (memory.ts): one value per program, as Triton's. */
  readonly uniformLoads = new Set<number>();
  /** Workgroup arrays by name: dtype and element count (the largest any use asked for). */
  readonly scratchArrays = new Map<string, WorkgroupArray>();
  private freshCount = 0;
  /** The blocks being emitted, innermost last (ids: `shared` reuses only what was emitted in one of them). */
  private readonly blocks: number[] = [0];
  private nextBlock = 1;
  private readonly sharedByKey = new Map<object, { block: number; value: unknown }>();
  usesSubgroups = false;
  /** The `laneN` bases the body uses (N elements per run). */
  readonly laneVectors = new Set<number>();
  /** Per-invocation first element of each tiled layout: name → WGSL expression. */
  readonly tileBases = new Map<string, string>();
  /** Function-scope variables declared at the top of the entry point: name → [type, init]. */
  readonly functionVars = new Map<string, [string, string]>();
  /**
   * Layouts by layoutKey: tiled blocks by their shape, the rest by element count. (Keyed by count
   * alone, a [64, 32] tile took the layout of a [32, 64] one computed first — the scores and V of
   * attention when BLOCK_M = HEAD_DIM — and tl.dot used the wrong tile.)
   */
  private readonly layoutCache = new Map<string, BlockLayout>();
  /** Row vectors laid out as the rows of a tiled block, by element count (CodegenOptions.rowLayouts, layout.ts). */
  private readonly rowSlices: ReadonlyMap<number, RowSlice>;
  /** Present when generating the instrumented variant (CodegenOptions.instrument). */
  readonly instrumentation?: Instrumentation;
  readonly ir: KernelIR;
  readonly target: Target;
  readonly options: CodegenOptions;
  private readonly tiled: Tiling;

  /** Emits `plan` (plan.ts): its IR, with every choice made. */
  constructor(readonly plan: CodegenPlan) {
    this.ir = plan.ir;
    this.target = plan.target;
    this.options = plan.options;
    this.w = plan.workgroupSize;
    this.tiled = plan.tiledLayouts;
    this.mma = plan.mma;
    this.dotOnlyTransposes = plan.dotOnlyTransposes;
    this.contiguity = plan.contiguity;
    this.directStores = plan.directStores;
    this.tileMasks = plan.tileMasks;
    this.wideBuffers = plan.wideBuffers;
    this.octetBuffers = plan.octetBuffers;
    this.wordBuffers = plan.wordBuffers;
    this.atomicBuffers = plan.atomicBuffers;
    this.packed = plan.packed;
    this.steering = valuesSteeringControl(this.ir.body);
    this.steeringBarriers = valuesSteeringBarriers(this.ir.body);
    this.reads = knownReads(this.ir.body);
    if (plan.options.instrument) this.instrumentation = new Instrumentation();
    this.rowSlices = plan.tiledLayouts && plan.options.rowLayouts !== false ? rowSlicesOf(this.ir.body, this.w, plan.tiledLayouts) : new Map();
  }

  emit(line: string): void {
    this.lines.push("  ".repeat(this.indent) + line);
  }

  nested(fn: () => void): void {
    this.indent++;
    this.blocks.push(this.nextBlock++);
    fn();
    this.blocks.pop();
    this.indent--;
  }

  shared<T>(key: object, make: () => T): T {
    const known = this.sharedByKey.get(key);
    if (known && this.blocks.includes(known.block)) return known.value as T;
    const value = make();
    this.sharedByKey.set(key, { block: this.blocks[this.blocks.length - 1], value });
    return value;
  }

  /** Defines register j of `v` as `expr(j)`, for each of its registers. */
  elementwise(v: Value, expr: (j: number) => string): void {
    this.registers(v.type, (j) => this.emit(`let ${valueName(v, j)} = ${expr(j)};`));
  }

  /**
   * For an integer or pointer variable whose every value steps by a constant along its last axis
   * (contiguity.ts; `a_ptrs` and its `+= BLOCK_K * stride_ak` in the matmul), that step: such a
   * variable keeps only the first register of each run of 4 and the others are computed from it,
   * so a loop carries a quarter of the registers (fewer registers, more workgroups per SM).
   */
  runStride(variable: Variable): number | undefined {
    const type = variable.type;
    const layout = this.layout(type);
    const last = type.shape[type.shape.length - 1] ?? 1;
    if (this.dtype(type) !== "i32" || layout.replicated || layout.vec !== 4 || last % 4 !== 0) return undefined;
    return this.contiguity.variableStride(variable.id);
  }

  /** Calls `fn` for each register of a value of this type (one for scalars). */
  registers(type: ValueType, fn: (j: number) => void): void {
    const layout = this.layout(type);
    for (let j = 0; j < layout.ept; j++) fn(j);
  }

  layout(type: ValueType): BlockLayout {
    const n = numel(type.shape);
    const slice = isRowVector(type.shape) ? this.rowSlices.get(n) : undefined;
    if (slice) return rowSliceLayout(slice);
    const key = layoutKey(type.shape, this.w, this.tiled);
    let layout = this.layoutCache.get(key);
    if (!layout) {
      layout = layoutOf(type.shape, this.w, this.tiled);
      if (layout.ept > MAX_REGISTERS && ![...this.layoutCache.values()].some((l) => l.numel === n)) {
        this.log.warning(Codes.blockTooLarge, this.ir.span, `a block of ${n} elements gives each of ${this.w} invocations ${layout.ept} elements; expect slow compilation and register spills — use a smaller block`);
      }
      this.layoutCache.set(key, layout);
    }
    return layout;
  }

  /** The flat index of the first element an invocation holds in a tiled layout. */
  tileBase(layout: BlockLayout): string {
    const t = layout.tile!;
    const name = `tile_${t.rows}x${t.cols}`;
    if (!this.tileBases.has(name)) {
      // Lane rows (layout.ts): invocation t's row t.
      const expr = t.rowsPerThread === 1 && t.threadsPerRow === 1 ? `i32(lid) * ${t.cols}` : `(i32(lid) / ${t.threadsPerRow}) * ${pieceRows(t) * t.cols} + (i32(lid) % ${t.threadsPerRow}) * ${pieceCols(t)}`;
      this.tileBases.set(name, expr);
    }
    return name;
  }

  /** The first row a row-slice layout gives this invocation. */
  private sliceBase(slice: RowSlice): string {
    const name = `rows_${slice.rows}`;
    if (!this.tileBases.has(name)) this.tileBases.set(name, slice.rowsPerThread === 1 && slice.threadsPerRow === 1 ? "i32(lid)" : `(i32(lid) / ${slice.threadsPerRow}) * ${pieceRows(slice)}`);
    return name;
  }

  /**
   * Which invocations write a block's elements when several hold each one (replicated and
   * row-slice layouts): a WGSL condition, or undefined when every element has one holder.
   */
  ownerCondition(type: ValueType): string | undefined {
    const layout = this.layout(type);
    if (type.shape.length === 0) return "lid == 0u";
    if (layout.replicated) return `lid < ${layout.numel}u`;
    if (layout.rowSlice) return `lid % ${layout.rowSlice.threadsPerRow}u == 0u`;
    return undefined;
  }

  /** The flat element index (i32) register j holds, as a WGSL expression. */
  elementIndex(type: ValueType, j: number): string {
    const layout = this.layout(type);
    if (layout.numel === 1) return "0";
    if (layout.rowSlice) {
      const offset = rowSliceOffset(layout.rowSlice, this.w, j);
      return offset === 0 ? this.sliceBase(layout.rowSlice) : `(${this.sliceBase(layout.rowSlice)} + ${offset})`;
    }
    if (layout.replicated) return `i32(lid & ${layout.numel - 1}u)`;
    if (layout.tile) {
      const offset = tileOffset(layout.tile, this.w, j);
      return offset === 0 ? this.tileBase(layout) : `(${this.tileBase(layout)} + ${offset})`;
    }
    const span = runSpan(layout);
    this.laneVectors.add(span);
    const offset = registerOffset(layout, this.w, j);
    return offset === 0 ? `lane${span}` : `(lane${span} + ${offset})`;
  }

  /** A WGSL expression for register j of value v (its only register if v is a scalar). */
  reg(v: Value, j: number): string {
    // An i64 constant is its low word (`x & 0xFFFFFFFF` is `x & -1`); a value that needs more is KL2090.
    if (v.op === "const") return literal(v.type.kind === "data" && v.type.dtype === "i64" ? lowWord(v.value) : v.value, this.dtype(v.type));
    if (v.type.kind === "pointer" && v.op === "param") return "0i";
    if (v.op === "splat") return this.reg(v.value, 0);
    if (v.op === "reshape" && this.sameLayout(v.type, v.value.type)) return this.reg(v.value, j);
    if (v.op === "broadcast" && numel(v.value.type.shape) === 1) return this.reg(v.value, 0);
    if (v.type.shape.length === 0 || numel(v.type.shape) === 1) return valueName(v, 0);
    if (this.packed.values.has(v.id)) {
      const run = packedRun(this.packed, v.id);
      return packedHalf(valueName(v, j - (j % run)), j % run);
    }
    return valueName(v, j);
  }

  sameLayout(a: ValueType, b: ValueType): boolean {
    return sameLayout(a.shape, b.shape, this.w, this.tiled, this.rowSlices);
  }

  /** The WGSL dtype of a value: a pointer is its i32 offset, an i64 its low 32 bits (ir/int64.ts), a bf16 an f32 holding a bf16 value (bf16.ts). */
  dtype(type: ValueType): RegisterDtype {
    return type.kind === "pointer" || type.dtype === "i64" ? "i32" : type.dtype === "bf16" ? "f32" : type.dtype;
  }

  typeOf(type: ValueType): string {
    const d = this.dtype(type);
    if (d === "f16") this.usesF16 = true;
    return wgslType(d);
  }

  tiledDotStaging(v: Value): TiledDotStaging {
    const staging = this.plan.tiledDots.get(v.id);
    if (!staging) throw new Error(`tl.dot v${v.id} takes the tiled path but the plan has no staging for it`);
    return staging;
  }

  flatDotChunk(v: Value & { op: "dot" }): number {
    return dotChunk(v.a.type.shape[1], this.options.dotChunkK);
  }

  declareVar(name: string, type: string, init: string): void {
    this.functionVars.set(name, [type, init]);
  }

  get sharedReductionArrays(): boolean {
    return this.plan.options.shareReductionArrays === true;
  }

  get unrollDot(): boolean {
    return this.plan.unrollDot;
  }

  get hasSubgroups(): boolean {
    return this.target.subgroups;
  }

  get subgroupMinSize(): number {
    return this.target.subgroupMinSize;
  }

  get workgroupSize(): number {
    return this.w;
  }

  valueName(v: Value, j: number): string {
    return valueName(v, j);
  }

  scratch(slot: string, dtype: RegisterDtype, size: number, vec4 = false): string {
    if (dtype === "f16") this.usesF16 = true;
    return requestArray(this.scratchArrays, slot, dtype, size, vec4);
  }

  steersControl(v: Value): boolean {
    return this.steering.has(v.id);
  }

  /** Whether `v` steers an `if` or a loop around a barrier (uniformity.ts: valuesSteeringBarriers). */
  steersBarrier(v: Value): boolean {
    return this.steeringBarriers.has(v.id);
  }

  knownRead(read: Value): Value | undefined {
    return this.reads.get(read.id);
  }

  /** A value every invocation holds alike as WGSL sees it: a reduction's or atomic's handed out, or a uniform load (uniformity.ts). */
  handedOut(v: Value): boolean {
    return v.op === "load" ? this.uniformLoads.has(v.id) : this.steering.has(v.id);
  }

  inLoop(): boolean {
    return this.loopDepth > 0;
  }

  useSubgroupMatrix(emulated = false): void {
    this.usesF16 = true;
    if (emulated) return;
    this.usesSubgroupMatrix = true;
    this.usesSubgroups = true;
  }

  mmaPlan(v: Value): MmaPlan | undefined {
    return this.mma.get(v.id);
  }

  useSubgroups(): boolean {
    if (this.target.subgroups) this.usesSubgroups = true;
    return this.target.subgroups;
  }

  get splitTileIndices(): boolean {
    return this.options.splitTileIndices === true;
  }

  get unsignedIndices(): boolean {
    return this.options.unsignedIndices === true;
  }

  lazyFloor(v: Value): Value | undefined {
    return this.plan.lazyMaxima.get(v.id);
  }

  fresh(prefix: string): string {
    return `${prefix}${this.freshCount++}`;
  }
}

export function valueName(v: Value, j: number): string {
  return v.type.shape.length === 0 || numel(v.type.shape) === 1 ? `v${v.id}` : `v${v.id}_${j}`;
}

export function varName(variable: Variable, j: number, type: ValueType): string {
  return type.shape.length === 0 || numel(type.shape) === 1 ? `x${variable.id}` : `x${variable.id}_${j}`;
}

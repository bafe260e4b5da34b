// Who stored each output element, from the GPU's shadow buffers (`kl_prov_<param>` of the
// instrumented variant, codegen/abi.ts InstrumentAbi) or from the interpreter's store hook with
// --cpu, in the same form: 2 words per element, program linear id + 1 (0: never stored) and
// access id << 16 | lane. A mismatch then says which program, lane and tl.store wrote it.

import type { Span } from "../../diagnostics/diagnostic";
import type { LineMap } from "../../diagnostics/position";
import type { StoreHook } from "../../interpreter/interpret";
import type { Mismatch } from "../run/compare";

export interface StoreProvenance {
  grid: readonly [number, number, number];
  /** Output → 2 words per element. */
  words: Map<string, Uint32Array>;
  /** Access id → the tl.store's span. */
  spans: ReadonlyMap<number, Span>;
  /**
   * Output → the span of the first tl.atomic* that updates it. Atomics leave no stamp (many
   * programs add to one element), so an element no store wrote is put down to the atomic.
   */
  atomics: ReadonlyMap<string, Span>;
}

/** What `firstMismatch` gains: null program and lane when no program stored the element. */
export interface MismatchSource {
  program: [number, number, number] | null;
  lane: number | null;
  /** 1-based line and column of the tl.store (or of the tl.atomic* that updates the output); null when nothing stored it. */
  source: { line: number; column: number } | null;
  /** True when no store wrote the element and a tl.atomic* updates its output (`program` is then null: atomics have no single writer). */
  atomic?: true;
}

/** Records the interpreter's stores to `outputs` (with --cpu) as a StoreProvenance. */
/** `atomics`: the kernel's atomic sites (compile.ts KernelFacts). */
export function recordStores(grid: readonly [number, number, number], outputs: Record<string, number>, atomics: ReadonlyMap<string, Span>): { onStore: StoreHook; provenance: StoreProvenance } {
  const words = new Map(Object.entries(outputs).map(([name, length]) => [name, new Uint32Array(2 * length)] as const));
  const spans = new Map<number, Span>();
  const ids = new Map<string, number>();
  const onStore: StoreHook = ({ param, index, programId, lane, span }) => {
    const shadow = words.get(param);
    if (!shadow) return;
    const key = `${span.start}:${span.end}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
      spans.set(id, span);
    }
    shadow[2 * index] = programId[0] + programId[1] * grid[0] + programId[2] * grid[0] * grid[1] + 1;
    shadow[2 * index + 1] = (id << 16) | lane;
  };
  return { onStore, provenance: { grid, words, spans, atomics } };
}

export function sourceOf(provenance: StoreProvenance, lines: LineMap, output: string, index: number): MismatchSource | undefined {
  const shadow = provenance.words.get(output);
  if (!shadow || 2 * index + 1 >= shadow.length) return undefined;
  const stamp = shadow[2 * index];
  if (stamp === 0) {
    // No store wrote it: updated by atomics (no single writer), or by nothing at all.
    const atomic = provenance.atomics.get(output);
    return { program: null, lane: null, source: atomic ? lines.at(atomic.start) : null, ...(atomic ? { atomic: true } : {}) };
  }
  const linear = stamp - 1;
  const [gx, gy] = provenance.grid;
  const program: [number, number, number] = [linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))];
  const span = provenance.spans.get(shadow[2 * index + 1] >>> 16);
  return { program, lane: shadow[2 * index + 1] & 0xffff, source: span ? lines.at(span.start) : null };
}

/** `firstMismatch` with where it came from, when the provenance knows. */
export function withSource(mismatch: Mismatch | null, provenance: StoreProvenance | undefined, lines: LineMap): Mismatch | null {
  if (!mismatch || !provenance) return mismatch;
  const found = sourceOf(provenance, lines, mismatch.output, mismatch.index);
  return found ? { ...mismatch, ...found } : mismatch;
}

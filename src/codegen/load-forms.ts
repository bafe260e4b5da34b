// How a kernel's memory accesses move, decided by the plan (plan.ts) before anything is emitted:
// which buffers some tl.atomic* goes through (every access to them atomic), which loads and stores
// move runs of 4 elements as vec4s (their buffers then bound as vec4 arrays: memory.ts), and which
// stores after a loop on subgroup matrices write straight from the matrices (mma-store.ts).

import type { Stmt, Value, ValueType } from "../ir/ir";
import { isPackedDtype } from "../ir/ir";
import type { CodegenOptions } from "../ir/target";
import { forEachStmt } from "../ir/walk";
import type { ContiguityAnalysis } from "./contiguity";
import type { BlockLayout } from "./layout";

/** What deciding an access's form needs: the plan has it, and the generator (generator.ts) from it. */
export interface AccessFacts {
  readonly atomicBuffers: ReadonlySet<string>;
  readonly options: CodegenOptions;
  readonly contiguity: ContiguityAnalysis;
  layout(type: ValueType): BlockLayout;
}

/** The pointer parameters some tl.atomic* goes through. */
export function atomicBuffersOf(body: readonly Stmt[]): Set<string> {
  const buffers = new Set<string>();
  forEachStmt(body, (s) => {
    if (s.kind === "let" && s.value.op === "atomic" && s.value.ptr.type.kind === "pointer") buffers.add(s.value.ptr.type.param);
  });
  return buffers;
}

/**
 * Whether a load reads its runs as vectors: where `isWide`, except an f16 load whose runs are not
 * known to start on multiples of 4 elements (a row stride not known a multiple of 16, as K = 1003
 * gives A). Its vec4<f16> path needed every run aligned at run time, else every element read on its
 * own behind the test — slower on the H200 than reading every element on its own with no test
 * (1000×1001×1003: 16.0 against 25.6 TFLOP/s, the same program as this; bench/NOTES.md §20, §25).
 * Runs known aligned but masked per lane (a vector add at an odd n) keep the checked vec4 reads.
 * `CodegenOptions.divisibility: false` keeps §19's code (every f16 load checked at run time).
 */
export function readsWide(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  if (!isWide(gen, v.ptr)) return false;
  if (v.ptr.type.kind !== "pointer" || v.ptr.type.pointee !== "f16" || gen.options.divisibility === false) return true;
  return gen.contiguity.divisor(v.ptr) >= 4 || gen.options.shiftedHalfRows === true;
}

/**
 * Whether an f16 load reads each run as the two aligned vec4<f16> around it, shifted in registers
 * (`CodegenOptions.shiftedHalfRows`): its runs are not known to start on multiples of 4 elements.
 */
export function readsShifted(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  return gen.options.shiftedHalfRows === true && v.ptr.type.kind === "pointer" && v.ptr.type.pointee === "f16" && readsWide(gen, v) && gen.options.divisibility !== false && gen.contiguity.divisor(v.ptr) < 4;
}

/**
 * Whether an f16 load reads each run of 4 as the 3 words (4 bytes each) that cover it, shifted by
 * half a word where it starts on an odd element (`CodegenOptions.shiftedHalfRows` "words"): its runs
 * are not known to start on multiples of 4 elements, and its buffer is bound as `array<u32>`
 * (wordBuffersOf, memory.ts). The hand-written matmul read so at 1024³ ran 13% faster than a half
 * a load (bench/NOTES.md §63).
 */
export function readsWords(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  const ptr = v.ptr;
  if (gen.options.shiftedHalfRows !== "words" || gen.options.divisibility === false || gen.options.wideHalfAccesses === false || gen.options.instrument) return false;
  if (ptr.type.kind !== "pointer" || ptr.type.pointee !== "f16" || gen.atomicBuffers.has(ptr.type.param)) return false;
  return inRunsOfFour(gen, ptr) && gen.contiguity.divisor(ptr) < 4;
}

/**
 * The f16 buffers read a word at a time (bound as `array<u32>`, 2 halves an element): some load
 * reads them so (readsWords), and nothing stores to them or reads them as vec4s; their other loads
 * read through the same binding (memory.ts `element`).
 */
export function wordBuffersOf(gen: AccessFacts, body: readonly Stmt[], wide: ReadonlySet<string>, octets: ReadonlySet<string>): Set<string> {
  const words = new Set<string>();
  const excluded = new Set<string>([...gen.atomicBuffers, ...wide, ...octets]);
  forEachStmt(body, (s) => {
    if (s.kind === "store" && s.ptr.type.kind === "pointer") excluded.add(s.ptr.type.param);
    if (s.kind === "let" && s.value.op === "load" && s.value.ptr.type.kind === "pointer" && readsWords(gen, s.value)) words.add(s.value.ptr.type.param);
  });
  for (const param of excluded) words.delete(param);
  return words;
}

/**
 * Whether some f16 load of `body` moves runs of 4 not known to start on multiples of 4 elements:
 * what `shiftedHalfRows` changes. Asked of a program specialised for its launch (bench/knob-variants.ts);
 * before that (the CLI's autotuner asks of the plain program) no load is known to move runs at all.
 */
export function hasUnalignedHalfRuns(gen: AccessFacts, body: readonly Stmt[]): boolean {
  let found = false;
  const shifting = { ...gen, options: { ...gen.options, shiftedHalfRows: true } };
  forEachStmt(body, (s) => {
    if (s.kind === "let" && s.value.op === "load") found ||= readsShifted(shifting, s.value);
  });
  return found;
}

/**
 * Whether an f16 load reads 8 halves (16 bytes) at a time, its buffer bound as `array<vec4<u32>>`
 * (memory.ts): its block held in runs of 8 (CodegenOptions.runsOf8, layout.ts), its runs known to
 * start on multiples of 8 elements and masked whole over each run of 8 (the contiguity analysis
 * over runs of 8), as the hand-written matmul's loads (bench/NOTES.md §60).
 */
export function readsOctets(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  if (v.ptr.type.kind !== "pointer" || v.ptr.type.pointee !== "f16" || gen.contiguity.run !== 8) return false;
  if (!readsWide(gen, v) || !knownWhole(gen, v) || gen.contiguity.divisor(v.ptr) < 8) return false;
  const layout = gen.layout(v.type);
  return layout.span === 8 || layout.tile?.pieceCols === 8;
}

/**
 * Whether an f16 load reads each run of 8 halves as the two aligned 16-byte chunks that cover it,
 * the 8 halves shifted out of their 16 by the run's start mod 8, known at run time (WGSL
 * `kl_shifted8`, memory.ts chunkRunLoad; CodegenOptions.shiftedHalfRows "chunks"): its block held in
 * runs of 8 as readsOctets's, its runs not known to start on multiples of 4 elements (where they are,
 * the runs of 4 are read as vec4s), its buffer bound as `array<vec4<u32>>`. The hand-written
 * 64×64×64 matmul read so ran at 86.0 TFLOP/s at 1024³ on the H100, against 64.2 a half a load and
 * 112.9 reading runs known aligned (bench/NOTES.md §75).
 */
export function readsChunks(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  const ptr = v.ptr;
  if (gen.options.shiftedHalfRows !== "chunks" || gen.options.divisibility === false || gen.contiguity.run !== 8) return false;
  if (ptr.type.kind !== "pointer" || ptr.type.pointee !== "f16" || !isWide(gen, ptr) || gen.contiguity.divisor(ptr) >= 4) return false;
  const layout = gen.layout(v.type);
  return layout.span === 8 || layout.tile?.pieceCols === 8;
}

/**
 * The f16 buffers read 16 bytes at a time (bound as `array<vec4<u32>>`): some load reads them so
 * (readsOctets, or as shifted chunks: readsChunks), and nothing stores to them or reads them shifted
 * by runs of 4 (packed-halves.ts); their other loads read through the same binding (memory.ts
 * `halfRun`, `element`).
 */
export function octetBuffersOf(gen: AccessFacts, body: readonly Stmt[]): Set<string> {
  const octets = new Set<string>();
  const excluded = new Set<string>(gen.atomicBuffers);
  forEachStmt(body, (s) => {
    if (s.kind === "store" && s.ptr.type.kind === "pointer") excluded.add(s.ptr.type.param);
    if (s.kind !== "let" || s.value.op !== "load" || s.value.ptr.type.kind !== "pointer") return;
    if (readsOctets(gen, s.value) || readsChunks(gen, s.value)) octets.add(s.value.ptr.type.param);
    if (readsShifted(gen, s.value)) excluded.add(s.value.ptr.type.param);
  });
  for (const param of excluded) octets.delete(param);
  return octets;
}

/**
 * Whether each run of 4 registers of a wide load is known to start at a multiple of 4 elements
 * and to be masked as a whole (contiguity.ts), so it needs no check at run time; off with
 * `CodegenOptions.divisibility: false`.
 */
export function knownWhole(gen: AccessFacts, v: Value & { op: "load" }): boolean {
  // Rows are 4 or more long here (isWide), so each run lies in one row.
  if (gen.options.divisibility === false || gen.contiguity.divisor(v.ptr) < 4) return false;
  return !v.mask || gen.contiguity.runConstant(v.mask);
}

/** Whether accesses through `ptr` are runs of 4 consecutive elements (layout and stride 1). */
export function isWide(gen: AccessFacts, ptr: Value): boolean {
  // f16 too (vec4<f16>, 8 bytes): buffers are padded to 16 bytes, so the last vec4 is always whole.
  if (ptr.type.kind !== "pointer" || gen.atomicBuffers.has(ptr.type.param) || gen.options.instrument) return false;
  if (ptr.type.pointee === "f16" && gen.options.wideHalfAccesses === false) return false;
  // 8-bit elements are 4 to a word, bf16s 2: their runs move as whole words (bytes.ts), never as vec4s.
  if (isPackedDtype(ptr.type.pointee)) return false;
  return inRunsOfFour(gen, ptr);
}

/** Whether each invocation's registers of `ptr` are runs of 4 consecutive elements of one row (layout, and stride 1). */
export function inRunsOfFour(gen: AccessFacts, ptr: Value): boolean {
  if (ptr.type.kind !== "pointer") return false;
  const layout = gen.layout(ptr.type);
  // A run of 4 registers is 4 consecutive elements of one row only where rows are 4 or more long:
  // a [64, 2] block's run spans two rows, which are not adjacent in memory unless its row stride is 2.
  const shape = ptr.type.shape;
  if (shape.length > 0 && shape[shape.length - 1] < 4) return false;
  return !layout.replicated && layout.vec === 4 && gen.contiguity.stride(ptr) === 1;
}

/** The buffers some load or store of `body` accesses as vec4s (their bindings become vec4 arrays). */
export function wideBuffersOf(gen: AccessFacts, body: readonly Stmt[], directStores: ReadonlyMap<Stmt, unknown>): Set<string> {
  const wide = new Set<string>();
  forEachStmt(body, (s) => {
    if (s.kind === "let" && s.value.op === "load" && s.value.ptr.type.kind === "pointer" && readsWide(gen, s.value)) wide.add(s.value.ptr.type.param);
    if (s.kind === "store" && s.ptr.type.kind === "pointer" && !directStores.has(s) && isWide(gen, s.ptr)) wide.add(s.ptr.type.param);
  });
  return wide;
}

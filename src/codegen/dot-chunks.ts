// tl.dot with its operands staged a chunk of K at a time (CodegenOptions.dotChunkK, the plan's last
// fallback): a loop over K / chunk chunks, each staging A's columns and B's rows of that chunk
// between two barriers, then every invocation accumulating over them. Workgroup memory for
// (BLOCK_M + BLOCK_N) × chunk elements instead of × K; K / chunk times the barriers. attorch's
// attention backward stages `tl.trans(p)`, 128 × 128 f16, whole for `dv += tl.dot(tl.trans(p), do)`:
// 32 KiB, at chunks of 32 columns 8 KiB (bench/NOTES.md §37).

import type { Value } from "../ir/ir";
import type { Emitter } from "./emitter";
import { writeElements } from "./rearrange";
import { transposedSource } from "./dot-staging";

/**
 * Writes the elements of a dot operand (`role` A or B; a tl.trans(x) from x's registers) whose
 * position along K falls in chunk `chunk` (a WGSL i32) of `size`: `write(index, value)` gives the
 * statement storing `value` at `index` = `place(kk, other)`, kk the position within the chunk and
 * `other` the row of A or the column of B.
 */
export function stageChunk(
  ctx: Emitter,
  operand: Value,
  role: "a" | "b",
  size: number,
  chunk: string,
  place: (kk: string, other: string) => string,
  write: (index: string, value: string) => string,
): void {
  const x = transposedSource(operand);
  const source = x ?? operand;
  const cols = source.type.shape[1];
  writeElements(ctx, source, (e, value) => {
    const [row, col] = [`((${e}) / ${cols})`, `((${e}) % ${cols})`];
    // K is A's columns and B's rows; of x = tl.trans(A) its rows, of x = tl.trans(B) its columns.
    const [kk, other] = (role === "a") === !x ? [col, row] : [row, col];
    const index = ctx.fresh("ck");
    ctx.emit(`if (${kk} / ${size} == ${chunk}) {`);
    ctx.nested(() => {
      ctx.emit(`let ${index} = ${place(`${kk} % ${size}`, other)};`);
      ctx.emit(write(index, value));
    });
    ctx.emit("}");
  });
}

/**
 * The loop over `v`'s chunks: `body(chunk)` emitted once inside it, between the barrier that lets
 * the previous chunk's readers finish and the staging it is given (`stage(chunk)`), then a barrier.
 */
export function eachChunk(ctx: Emitter, v: Value & { op: "dot" }, size: number, stage: (chunk: string) => void, body: () => void): void {
  const k = v.a.type.shape[1];
  const chunk = `dot${v.id}_chunk`;
  ctx.emit(`for (var ${chunk}: i32 = 0; ${chunk} < ${k / size}; ${chunk}++) {`);
  ctx.nested(() => {
    ctx.emit("workgroupBarrier();");
    stage(chunk);
    ctx.emit("workgroupBarrier();");
    body();
  });
  ctx.emit("}");
}

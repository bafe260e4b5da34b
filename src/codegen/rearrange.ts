// Broadcasts, transposes and reshapes that change which invocation holds an element. Values
// computed from indices alone (tl.arange, scalars, arithmetic on them) are recomputed at the new
// element (`rematerialize`); others go through workgroup memory: every invocation writes its
// registers at their flat element indices, a barrier, then each reads what its own registers need.
// A barrier also comes first, so an earlier reader of the same scratch array is done before it is
// overwritten.

import type { Shape, Value } from "../ir/ir";
import { numel } from "../ir/ir";
import { BINARY_WGSL, MATH_WGSL } from "./elementwise";
import type { ArrayFacts, Emitter } from "./emitter";
import { literal } from "./literals";
import { sliceMatchesTile } from "./layout";
import { castWgsl } from "./bf16";

/**
 * How a flat element index is cut into row and column: tiled indices split term by term
 * (CodegenOptions.splitTileIndices, `tileTerms`), and quotients and remainders taken unsigned
 * (CodegenOptions.unsignedIndices): a flat index is never negative, and `i32(u32(e) / 64u)` is one
 * shift where the signed `e / 64` is four instructions and `e % 64` five (bench/NOTES.md §84).
 */
export interface IndexForm {
  readonly splitTileIndices?: boolean;
  readonly unsignedIndices?: boolean;
}

/** `[r, c]` of flat index `e` in a 2-D shape, as WGSL expressions. */
function rowCol(shape: Shape, e: string, form: IndexForm): [string, string] {
  const n = shape[shape.length - 1];
  return shape.length === 1 ? ["0", e] : [quotient(e, n, form), remainder(e, n, form)];
}

/** `e / n` and `e % n` of a non-negative index, signed or unsigned as `form` says. */
function div(e: string, n: number, form: IndexForm): string {
  return form.unsignedIndices ? `i32(u32(${e}) / ${n}u)` : `(${e} / ${n})`;
}
function mod(e: string, n: number, form: IndexForm): string {
  return form.unsignedIndices ? `i32(u32(${e}) % ${n}u)` : `(${e} % ${n})`;
}

/**
 * A tiled layout's element index (generator.ts `elementIndex`): `tile_RxC` or `(tile_RxC + K)`,
 * where the tile's base holds the invocation's first row and column and K < the tile's size is a
 * register's offset from it. Its column part (base % C) + (K % C) never reaches C (layout.ts: an
 * invocation's columns are runs of 4 at stride Tc · 4 from (t % Tc) · 4), so row and column split
 * term by term: (base + K) / C = base / C + K / C and (base + K) % C = base % C + K % C. Every
 * register then shares the one `base % C` and `base / C` (the driver computes each once) and
 * registers in the same column get the same text, where `(base + K) % C` costs each register a
 * signed remainder the driver cannot prove equal to another's. CodegenOptions.splitTileIndices: on an
 * H100 the attention leader ran 6% faster with it and the f16 matmul's 128×128-over-8 config 20%
 * slower (bench/NOTES.md §54), so it is the tuner's, off by default.
 */
function tileTerms(e: string, n: number): { base: string; k: number } | undefined {
  const m = /^\(?(tile_\d+x(\d+))(?: \+ (\d+))?\)?$/.exec(e);
  if (!m || Number(m[2]) !== n || (e.startsWith("(") !== (m[3] !== undefined))) return undefined;
  return { base: m[1], k: Number(m[3] ?? 0) };
}

/** `e / n` for a flat index `e` into blocks whose last axis (or axes) hold `n` elements. */
function quotient(e: string, n: number, form: IndexForm): string {
  const t = form.splitTileIndices ? tileTerms(e, n) : undefined;
  if (!t) return div(e, n, form);
  const q = Math.floor(t.k / n);
  return q === 0 ? div(t.base, n, form) : `(${div(t.base, n, form)} + ${q})`;
}

/** `e % n`, as `quotient`. */
function remainder(e: string, n: number, form: IndexForm): string {
  const t = form.splitTileIndices ? tileTerms(e, n) : undefined;
  if (!t) return mod(e, n, form);
  const r = t.k % n;
  return r === 0 ? mod(t.base, n, form) : `(${mod(t.base, n, form)} + ${r})`;
}

/**
 * The flat index in `from` of the element a broadcast to `to` reads at flat index `e`
 * (same rank; size-1 axes of `from` stretch).
 */
function broadcastSource(from: Shape, to: Shape, e: string, form: IndexForm): string {
  if (from.length === 1) return from[0] === 1 ? "0" : e;
  if (from.length > 2) return flatSource(from, to.map((_, axis) => (from[axis] === 1 ? undefined : axis)), to, e);
  const [r, c] = rowCol(to, e, form);
  const row = from[0] === 1 ? "0" : r;
  const col = from[1] === 1 ? "0" : c;
  return from[1] === 1 ? row : row === "0" ? col : `(${row} * ${from[1]} + ${col})`;
}

/**
 * The flat index in `from` of the element at flat index `e` of `to`, where axis a of `from` is
 * axis `axisOf[a]` of `to` (undefined: a stretched axis of extent 1): each axis's index is cut
 * out of `e` and placed at its stride in `from`.
 */
function flatSource(from: Shape, axisOf: readonly (number | undefined)[], to: Shape, e: string): string {
  const terms: string[] = [];
  let stride = 1;
  for (let a = from.length - 1; a >= 0; a--) {
    const axis = axisOf[a];
    if (axis !== undefined && from[a] > 1) {
      const after = to.slice(axis + 1).reduce((x, y) => x * y, 1);
      const index = axis === 0 ? `(${e} / ${after})` : after === 1 ? `(${e} % ${to[axis]})` : `((${e} / ${after}) % ${to[axis]})`;
      terms.push(stride === 1 ? index : `${index} * ${stride}`);
    }
    stride *= from[a];
  }
  return terms.length === 0 ? "0" : `(${terms.join(" + ")})`;
}

/** The flat index in the source of a permute's element at flat index `e` (result axis i is source axis dims[i]). */
function permuteSource(from: Shape, dims: readonly number[], to: Shape, e: string): string {
  return flatSource(from, from.map((_, a) => dims.indexOf(a)), to, e);
}

/** Element e of a block of `shape` along `axis`: [outer index, position on the axis, inner index], as WGSL. */
export function alongAxis(shape: Shape, axis: number, e: string, form: IndexForm = {}): { o: string; k: string; i: string; inner: number } {
  const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
  const length = shape[axis];
  const o = axis === 0 ? "0" : quotient(e, length * inner, form);
  const k = inner === 1 ? (axis === 0 ? e : remainder(e, length, form)) : axis === 0 ? quotient(e, inner, form) : mod(div(e, inner, form), length, form);
  const i = inner === 1 ? "0" : mod(e, inner, form);
  return { o, k, i, inner };
}

/** The flat index of (o, k, i) in a block of `length` along its axis and `inner` after it. */
export function fromAxis(o: string, k: string, i: string, length: number, inner: number): string {
  const line = o === "0" ? k : `${o} * ${length} + ${k}`;
  return inner === 1 ? `(${line})` : `((${line}) * ${inner} + ${i})`;
}

/** tl.split's half and tl.flip: the source index of element e. */
function selectionSource(v: Value & { op: "slice" | "flip" }, e: string): string {
  const { o, k, i, inner } = alongAxis(v.type.shape, v.axis, e);
  const length = v.value.type.shape[v.axis];
  return fromAxis(o, v.op === "slice" ? (v.start === 0 ? k : `${k} + ${v.start}`) : `${length - 1} - ${k}`, i, length, inner);
}

/** The flat index in the [m, n] source of a transpose's element at flat index `e` of [n, m]. */
function transposeSource(from: Shape, e: string): string {
  const [m, n] = from;
  return `((${e} % ${m}) * ${n} + ${e} / ${m})`;
}

/**
 * A WGSL expression for `v`'s element at flat index `e`, when `v` is computed from indices,
 * constants and scalars only; undefined when it depends on memory or variables.
 */
export function rematerialize(ctx: Pick<Emitter, "reg" | "typeOf" | "dtype" | "knownRead"> & IndexForm & { readonly holding?: ReadonlySet<number> }, v: Value, e: string, depth = 0): string | undefined {
  if (depth > 24) return undefined;
  // A comparison a whole trip makes hold (whole-trips.ts).
  if (ctx.holding?.has(v.id)) return "true";
  if (v.type.shape.length === 0 || numel(v.type.shape) === 1) return ctx.reg(v, 0);
  const at = (x: Value, idx = e) => rematerialize(ctx, x, idx, depth + 1);
  switch (v.op) {
    case "arange":
      return v.start === 0 ? `(${e})` : `(${e} + ${literal(v.start, "i32")})`;
    case "splat":
      return ctx.reg(v.value, 0);
    case "reshape":
      return at(v.value);
    case "readVar": {
      // What the variable holds here, where straight-line code shows it (variable-values.ts).
      const held = ctx.knownRead(v);
      return held && at(held);
    }
    case "broadcast":
      return at(v.value, broadcastSource(v.value.type.shape, v.type.shape, e, ctx));
    case "trans":
      return at(v.value, transposeSource(v.value.type.shape, e));
    case "permute":
      return at(v.value, permuteSource(v.value.type.shape, v.dims, v.type.shape, e));
    case "slice":
    case "flip":
      return at(v.value, selectionSource(v, e));
    case "concat": {
      const { o, k, i, inner } = alongAxis(v.type.shape, v.axis, e);
      const [la, lb] = v.values.map((x) => x.type.shape[v.axis]);
      const a = at(v.values[0], fromAxis(o, k, i, la, inner));
      const b = at(v.values[1], fromAxis(o, `${k} - ${la}`, i, lb, inner));
      return a && b && `select(${b}, ${a}, ${k} < ${la})`;
    }
    case "cast": {
      const x = at(v.value);
      return x && castWgsl(v.value.type, v.type, ctx.typeOf(v.type), x);
    }
    case "ptrAdd": {
      const p = at(v.ptr);
      const o = at(v.offset);
      return p && o && `(${p} + ${o})`;
    }
    case "binary": {
      const a = at(v.lhs);
      const b = at(v.rhs);
      if (!a || !b) return undefined;
      // As the element-wise code writes it (a float's != through ==, for lavapipe's NaN; shifts).
      return BINARY_WGSL[v.fn](a, b, ctx.dtype(v.rhs.type), v.lhs.type.kind === "data" ? v.lhs.type.dtype : undefined);
    }
    case "unary": {
      const x = at(v.value);
      if (!x) return undefined;
      if (v.fn === "neg") return ctx.dtype(v.type) === "u32" ? `(0u - ${x})` : `(-${x})`;
      return v.fn === "not" ? `(!${x})` : `(~${x})`;
    }
    case "math": {
      // exp / log / … of indices and scalars (lightning attention's decay mask exp(-s·(i - j)),
      // transposed): recomputed at the element as its own registers were, not staged.
      const args = v.args.map((x) => at(x));
      return args.every((x) => x !== undefined) ? MATH_WGSL[v.fn](args as string[], ctx.typeOf(v.type)) : undefined;
    }
    case "where": {
      const c = at(v.cond);
      const a = at(v.a);
      const b = at(v.b);
      return c && a && b && `select(${b}, ${a}, ${c})`;
    }
    default:
      return undefined;
  }
}

/**
 * Whether `v` can be recomputed at any element from indices, constants and scalars (what
 * `rematerialize` gives, whatever the element): the plan asks it before anything is emitted.
 */
export function recomputable(ctx: Pick<ArrayFacts, "dtype" | "knownRead">, v: Value): boolean {
  const names = { reg: () => "r", typeOf: () => "t", dtype: (type: Value["type"]) => ctx.dtype(type), knownRead: (x: Value) => ctx.knownRead(x) };
  return rematerialize(names, v, "e") !== undefined;
}

/** The workgroup array `stage` writes `v` into: one element per element of the block. */
export function stagingArray(ctx: ArrayFacts, v: Value, slot: string): string {
  return ctx.scratch(slot, ctx.dtype(v.type), ctx.layout(v.type).numel);
}

/** Writes every element of `v` into a scratch array (after a barrier) and returns its name. */
export function stage(ctx: Emitter, v: Value, slot: string): string {
  const array = stagingArray(ctx, v, slot);
  writeElements(ctx, v, (e, value) => ctx.emit(`${array}[${e}] = ${value};`));
  return array;
}

/**
 * Calls `write` with each register's flat element index and value; for a replicated block only
 * the first copy (invocations below its element count) writes, for a row slice the first of each row.
 */
export function writeElements(ctx: Emitter, v: Value, write: (element: string, value: string) => void): void {
  const layout = ctx.layout(v.type);
  const all = () => {
    for (let j = 0; j < layout.ept; j++) write(ctx.elementIndex(v.type, j), ctx.reg(v, j));
  };
  const owner = layout.replicated ? `lid < ${layout.numel}u` : ctx.ownerCondition(v.type);
  if (!owner) return all();
  ctx.emit(`if (${owner}) {`);
  ctx.nested(all);
  ctx.emit("}");
}

type Rearrangement = Value & { op: "broadcast" | "trans" | "reshape" | "permute" | "slice" | "flip" };

/** A row slice [M, 1] broadcast over the columns of a tile with the same rows: each register is already there. */
function sliceOverTile(ctx: ArrayFacts, v: Rearrangement): boolean {
  const layout = ctx.layout(v.type);
  return v.op === "broadcast" && !!layout.tile && sliceMatchesTile(ctx.layout(v.value.type).rowSlice, layout.tile);
}

/** The workgroup array `emitRearrange` moves `v` through, if any (its source, staged). */
export function rearrangeArrays(ctx: ArrayFacts, v: Rearrangement): void {
  if (!sliceOverTile(ctx, v) && !recomputable(ctx, v)) stagingArray(ctx, v.value, "x");
}

/** A broadcast or transpose of a block: recomputed when possible, else through workgroup memory. */
export function emitRearrange(ctx: Emitter, v: Rearrangement): void {
  const layout = ctx.layout(v.type);
  if (sliceOverTile(ctx, v)) {
    const tile = layout.tile!;
    const cc = tile.colsPerThread;
    for (let j = 0; j < layout.ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${ctx.reg(v.value, Math.floor(j / cc))};`);
    return;
  }
  const source = (e: string) =>
    v.op === "trans"
      ? transposeSource(v.value.type.shape, e)
      : v.op === "permute"
        ? permuteSource(v.value.type.shape, v.dims, v.type.shape, e)
        : v.op === "slice" || v.op === "flip"
          ? selectionSource(v, e)
          : v.op === "reshape"
            ? e
            : broadcastSource(v.value.type.shape, v.type.shape, e, ctx);
  const recomputed = Array.from({ length: layout.ept }, (_, j) => rematerialize(ctx, v, ctx.elementIndex(v.type, j)));
  if (recomputed.every((x) => x !== undefined)) {
    recomputed.forEach((x, j) => ctx.emit(`let ${ctx.valueName(v, j)} = ${x};`));
    return;
  }
  ctx.emit("workgroupBarrier();");
  const array = stage(ctx, v.value, "x");
  ctx.emit("workgroupBarrier();");
  for (let j = 0; j < layout.ept; j++) ctx.emit(`let ${ctx.valueName(v, j)} = ${array}[${source(ctx.elementIndex(v.type, j))}];`);
}

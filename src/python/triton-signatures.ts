// A tl function's positional arguments as Triton binds them: by Triton's signature (its parameter
// names in order, as triton/language/core.py, standard.py and random.py declare them). The kernel
// language takes Triton's positional parameters in Triton's order (docs/LANGUAGE.md §2.1) where it
// has them; a call's positional arguments are written as keywords from the first one it can't pass so:
//   - a None given to a parameter with a default is that default, as a keyword None is: left out
//     (`tl.sum(x, None)` reduces every axis, `tl.atomic_add(p, v, None, SEM)` has no mask);
//   - a parameter whose place the kernel language gives another (`atomic_cas(pointer, cmp, val, sem,
//     scope)` has no mask, tl.atomicCas's fourth is one; `randint4x(seed, offset, n_rounds)`'s third
//     is n_rounds, tl.randint4x's is a word): passed by Triton's name.
// A None to a parameter with no default stays in place ("None as a value", KL1101: `tl.store(p, None)`),
// as do tl.load's and tl.store's positional None masks (none-masks.ts writes them True). From a
// parameter that takes the rest (`*shape`) on, the arguments are that parameter's, in place.

import type { LowerContext } from "./context";
import { intrinsicNamed } from "../semantics/intrinsics";
import { camelCase } from "./names";
import { isNoneValue, type NamedArgument } from "./none-names";
import type { SyntaxNode } from "./tree";

/**
 * Triton's signatures, as written in its Python (defaults shown where they are simple), of the tl functions whose
 * signature is not the kernel language's parameters (intrinsics.ts `params`) with only the first one required: more
 * than one parameter without a default, or a parameter in another place.
 */
const TRITON_SIGNATURES: Readonly<Record<string, string>> = {
  // core.py: memory and atomics
  store: `pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""`,
  atomic_add: "pointer, val, mask=None, sem=None, scope=None",
  atomic_max: "pointer, val, mask=None, sem=None, scope=None",
  atomic_min: "pointer, val, mask=None, sem=None, scope=None",
  atomic_and: "pointer, val, mask=None, sem=None, scope=None",
  atomic_or: "pointer, val, mask=None, sem=None, scope=None",
  atomic_xor: "pointer, val, mask=None, sem=None, scope=None",
  atomic_xchg: "pointer, val, mask=None, sem=None, scope=None",
  atomic_cas: "pointer, cmp, val, sem=None, scope=None",
  make_block_ptr: "base, shape, strides, offsets, block_shape, order",
  advance: "base, offsets",
  // core.py, math.py and standard.py: element-wise
  where: "condition, x, y",
  maximum: "x, y, propagate_nan=PropagateNan.NONE",
  minimum: "x, y, propagate_nan=PropagateNan.NONE",
  clamp: "x, min, max, propagate_nan=PropagateNan.NONE",
  fma: "x, y, z",
  fdiv: "x, y, ieee_rounding=False",
  div_rn: "x, y",
  pow: "x, y",
  umulhi: "x, y",
  cast: "input, dtype, fp_downcast_rounding=None, bitcast=False",
  swizzle2d: "i, j, size_i, size_j, size_g",
  // core.py: blocks
  full: "shape, value, dtype",
  dot: "input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None, out_dtype=float32",
  join: "a, b",
  cat: "input, other, can_reorder=False",
  interleave: "a, b",
  gather: "src, index, axis",
  histogram: "input, num_bins, mask=None",
  reshape: "input, *shape, can_reorder=False",
  view: "input, *shape",
  broadcast_to: "input, *shape",
  expand_dims: "input, axis",
  permute: "input, *dims",
  // core.py and standard.py: reductions, scans, sorting
  reduce: "input, axis, combine_fn, keep_dims=False",
  associative_scan: "input, axis, combine_fn, reverse=False",
  topk: "x, k, dim=None",
  // random.py
  rand: "seed, offset, n_rounds=N_ROUNDS_DEFAULT",
  randn: "seed, offset, n_rounds=N_ROUNDS_DEFAULT",
  randint: "seed, offset, n_rounds=N_ROUNDS_DEFAULT",
  randint4x: "seed, offset, n_rounds=N_ROUNDS_DEFAULT",
};

interface Signature {
  /** Triton's parameter names in order, camelCase as the kernel language's keywords; one taking the rest starts with `...`. */
  params: readonly string[];
  /** How many leading parameters have no default. */
  required: number;
}

/** TRITON_SIGNATURES read, keyed by the kernel language's names (`atomicCas`). */
const SIGNATURES: ReadonlyMap<string, Signature> = new Map(
  Object.entries(TRITON_SIGNATURES).map(([name, text]) => {
    const parts = text.split(/,\s*(?![^(]*\))/).map((p) => p.trim());
    const params = parts.map((p) => p.replace(/=.*$/, "")).map((p) => (p.startsWith("*") ? `...${camelCase(p.slice(1))}` : camelCase(p)));
    const required = parts.findIndex((p) => p.includes("=") || p.startsWith("*"));
    return [camelCase(name), { params, required: required < 0 ? parts.length : required }];
  }),
);

/** Triton's signature of tl function `fn` (the kernel language's name); undefined where the kernel language has no such function. */
export function tritonSignature(fn: string): Signature | undefined {
  const own = SIGNATURES.get(fn);
  if (own) return own;
  const params = intrinsicNamed(fn)?.params;
  return params && { params, required: 1 };
}

/**
 * A tl call's arguments as the kernel language takes them: its positional arguments in place up to the first one that
 * isn't (a None to a parameter with a default, or one whose place is another parameter's there), those from it on
 * passed by Triton's names (the None ones left out) before the call's own keywords. Unchanged for a function
 * the kernel language doesn't have.
 */
export function tritonArguments(ctx: LowerContext, fn: string, positional: readonly SyntaxNode[], keywords: readonly NamedArgument[]): { positional: readonly SyntaxNode[]; keywords: readonly NamedArgument[] } {
  const signature = tritonSignature(fn);
  const own = intrinsicNamed(fn)?.params;
  if (!signature || !own) return { positional, keywords };
  const { params, required } = signature;
  const leftOut = (p: SyntaxNode, i: number) => i >= required && isNoneValue(ctx, p) && !ctx.noneMasks.positional.has(p.from);
  // Past Triton's parameters an argument stays in place (the kernel language's arity check reports it), as from one taking the rest.
  const inPlace = (p: SyntaxNode, i: number) => params[i] === undefined || params[i].startsWith("...") || (params[i] === own[i] && !leftOut(p, i));
  const rest = params.findIndex((p) => p.startsWith("..."));
  const first = positional.slice(0, rest < 0 ? undefined : rest).findIndex((p, i) => !inPlace(p, i));
  if (first < 0) return { positional, keywords };
  const named = positional.flatMap((value, i) => (i < first || leftOut(value, i) ? [] : [{ name: params[i] ?? `_${i}`, value }]));
  return { positional: positional.slice(0, first), keywords: [...named, ...keywords] };
}

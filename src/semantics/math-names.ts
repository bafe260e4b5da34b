// Triton's math namespaces, as library code calls them: `tl.math.rsqrt(x)` and libdevice's portable
// names (`from triton.language.extra import libdevice`: `libdevice.tanh(x)`, `fast_expf`, …),
// written `tl.math.f(…)`, `tl.extra.libdevice.f(…)` (also `tl.extra.cuda.libdevice.f`) or, with
// `import { libdevice } from "kernel-lab"`, `libdevice.f(…)`. Each name is Kernel Lab's tl.*
// function that computes it (WGSL's own builtins: a "fast" variant is the same function), or what
// to write for one Kernel Lab has no function for. README's language section lists this mapping.

import { LIBDEVICE_FUNCTIONS } from "./libdevice";

/** libdevice / tl.math name → the tl.* function that computes it. */
export const MATH_NAMES: Readonly<Record<string, string>> = {
  abs: "abs", fabs: "abs", ceil: "ceil", floor: "floor", cos: "cos", sin: "sin", erf: "erf",
  exp: "exp", exp2: "exp2", log: "log", log2: "log2", sqrt: "sqrt", rsqrt: "rsqrt", tanh: "tanh",
  pow: "pow", fma: "fma", fma_rn: "fma", fdiv: "fdiv", div_rn: "divRn", sqrt_rn: "sqrtRn",
  umulhi: "umulhi", mulhi: "umulhi", cdiv: "cdiv", max: "maximum", fmax: "maximum", min: "minimum", fmin: "minimum",
  sigmoid: "sigmoid", clamp: "clamp", asin: "asin", asinf: "asin", acos: "acos", acosf: "acos", atan: "atan", atanf: "atan",
  log1p: "log1p", log1pf: "log1p", expm1: "expm1", expm1f: "expm1",
  fast_expf: "exp", fast_exp2f: "exp2", fast_logf: "log", fast_log2f: "log2", fast_powf: "pow",
  fast_sinf: "sin", fast_cosf: "cos", fast_dividef: "fdiv", fast_tanhf: "tanh",
  expf: "exp", exp2f: "exp2", logf: "log", log2f: "log2", sqrtf: "sqrt", rsqrtf: "rsqrt", tanhf: "tanh", powf: "pow", erff: "erf",
};

/** libdevice names with no tl.* function: what to write instead. */
export const MATH_INSTEAD: Readonly<Record<string, string>> = {
  fmod: "write x - tl.cast(tl.cast(x / y, \"i32\"), \"f32\") * y for values that fit in i32",
};

/** How a call names the namespace (for messages). */
export type MathNamespace = "tl.math" | "tl.extra.libdevice" | "libdevice";

/** The tl.* function a namespaced math name stands for, or undefined. */
export function mathFunction(name: string): string | undefined {
  return Object.hasOwn(MATH_NAMES, name) ? MATH_NAMES[name] : undefined;
}

/** The message for a name the namespace has no function for: what to write, or the nearest name. */
export function unknownMathMessage(namespace: MathNamespace, name: string): { message: string; nearest?: string } {
  if (Object.hasOwn(MATH_INSTEAD, name)) return { message: `${namespace}.${name} has no Kernel Lab function; ${MATH_INSTEAD[name]}` };
  // Aliases of one function (rsqrt, rsqrtf; lgamma, lgammaf) are one candidate.
  const functionOf = (n: string) => (Object.hasOwn(MATH_NAMES, n) ? MATH_NAMES[n] : LIBDEVICE_FUNCTIONS[n]);
  const nearest = nearestOf(name, [...Object.keys(MATH_NAMES), ...Object.keys(LIBDEVICE_FUNCTIONS)], (a, b) => functionOf(a) === functionOf(b));
  const list = "see the README's table of math names";
  return { message: `${namespace}.${name} doesn't exist; ${nearest ? `did you mean ${namespace}.${nearest}?` : list}`, nearest };
}

/**
 * The one candidate within two edits of `name` (none for short names, or a tie between candidates
 * that aren't `same`; of those that are, the shortest).
 */
export function nearestOf(name: string, candidates: readonly string[], same: (a: string, b: string) => boolean = (a, b) => a === b): string | undefined {
  if (name.length < 3) return undefined;
  let nearest: string[] = [];
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [nearest, bestDistance] = [[candidate], d];
    else if (d === bestDistance) nearest.push(candidate);
  }
  if (nearest.length === 0 || !nearest.every((c) => same(c, nearest[0]))) return undefined;
  return nearest.reduce((a, b) => (b.length < a.length ? b : a));
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}

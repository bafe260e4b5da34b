// The per-element math of Kernel Lab's `torch` ops (tensor-ops.ts walks the elements): each in
// double precision, rounded to the result's dtype once by the caller. Runs on the Python thread.

import { erf, erfc, erfcx, lgamma } from "../../ir/gamma-erfc";

export const UNARY: Record<string, (x: number) => number> = {
  neg: (x) => -x,
  abs: Math.abs,
  exp: Math.exp,
  exp2: (x) => 2 ** x,
  log: Math.log,
  log2: Math.log2,
  sqrt: Math.sqrt,
  rsqrt: (x) => 1 / Math.sqrt(x),
  sin: Math.sin,
  cos: Math.cos,
  tanh: Math.tanh,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  log1p: Math.log1p,
  expm1: Math.expm1,
  log10: Math.log10,
  lgamma,
  erfc,
  erfcx,
  sigmoid: (x) => 1 / (1 + Math.exp(-x)),
  relu: (x) => (x > 0 ? x : Number.isNaN(x) ? x : 0),
  silu: (x) => x / (1 + Math.exp(-x)),
  gelu: (x) => 0.5 * x * (1 + erf(x / Math.SQRT2)),
  gelu_tanh: (x) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3))),
  erf: (x) => erf(x),
  floor: Math.floor,
  ceil: Math.ceil,
  round: (x) => {
    // Half to even, as torch.round.
    const r = Math.round(x);
    return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
  },
  trunc: Math.trunc,
  logical_not: (x) => (x === 0 ? 1 : 0),
  isnan: (x) => (Number.isNaN(x) ? 1 : 0),
  isinf: (x) => (x === Infinity || x === -Infinity ? 1 : 0),
  reciprocal: (x) => 1 / x,
  square: (x) => x * x,
  bitwise_not: (x) => ~x,
  sign: (x) => Math.sign(x),
};

/** torch's floor division and Python's remainder (the sign of the divisor); integer division by zero is an error in torch. */
export const BINARY: Record<string, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  floordiv: (a, b) => Math.floor(a / b),
  remainder: (a, b) => a - b * Math.floor(a / b),
  pow: (a, b) => a ** b,
  maximum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.max(a, b)),
  minimum: (a, b) => (Number.isNaN(a) || Number.isNaN(b) ? NaN : Math.min(a, b)),
  eq: (a, b) => (a === b ? 1 : 0),
  ne: (a, b) => (a !== b ? 1 : 0),
  lt: (a, b) => (a < b ? 1 : 0),
  le: (a, b) => (a <= b ? 1 : 0),
  gt: (a, b) => (a > b ? 1 : 0),
  ge: (a, b) => (a >= b ? 1 : 0),
  logical_and: (a, b) => (a !== 0 && b !== 0 ? 1 : 0),
  logical_or: (a, b) => (a !== 0 || b !== 0 ? 1 : 0),
  logical_xor: (a, b) => ((a !== 0) !== (b !== 0) ? 1 : 0),
  bitwise_and: (a, b) => a & b,
  bitwise_or: (a, b) => a | b,
  bitwise_xor: (a, b) => a ^ b,
  shift_left: (a, b) => a << b,
  shift_right: (a, b) => a >> b,
  atan2: Math.atan2,
};


// WGSL's max and min on floats, shared by the arithmetic tables and clamp (special-math.ts).

/** WGSL max on floats: a NaN operand yields the other. */
export function maxFloat(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return a < b ? b : a;
}

/** WGSL min on floats: a NaN operand yields the other. */
export function minFloat(a: number, b: number): number {
  if (Number.isNaN(a)) return b;
  if (Number.isNaN(b)) return a;
  return b < a ? b : a;
}

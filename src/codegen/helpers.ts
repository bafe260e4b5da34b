// Module-scope WGSL functions a kernel's body may call (random numbers, erf, pow, umulhi, a run of
// halves shifted out of two chunks): each is
// added once, after the bindings, when some line of the body calls one of its functions.

import { ERF_WGSL, POW_WGSL, ROUNDED_WGSL } from "./special-math";
import { INVERSE_TRIG_WGSL } from "./inverse-trig";
import { PHILOX_N_ROUNDS_WGSL, PHILOX_ROUNDS_WGSL, UMULHI_WGSL } from "./philox-wgsl";
import { RANDN_WGSL } from "./random";
import { BF16_WGSL } from "./bf16";
import { SHIFTED8_WGSL } from "./packed-halves";
import { F8E4M3_WGSL, F8E5M2_WGSL } from "./f8";
import { ERFC_WGSL, LGAMMA_WGSL } from "./gamma-erfc";

/** Each helper's text and the function names whose use needs it (a helper needs those it calls). */
const HELPERS: readonly { wgsl: string; neededBy: readonly string[] }[] = [
  { wgsl: UMULHI_WGSL, neededBy: ["kl_umulhi(", "kl_philox(", "kl_randint4x(", "kl_philox_rounds("] },
  { wgsl: PHILOX_ROUNDS_WGSL, neededBy: ["kl_philox(", "kl_randint4x(", "kl_uniform(", "kl_randn("] },
  { wgsl: PHILOX_N_ROUNDS_WGSL, neededBy: ["kl_philox_rounds("] },
  { wgsl: RANDN_WGSL, neededBy: ["kl_randn("] },
  { wgsl: ERF_WGSL, neededBy: ["kl_erf("] },
  { wgsl: POW_WGSL, neededBy: ["kl_pow("] },
  { wgsl: ROUNDED_WGSL, neededBy: ["kl_div_rn(", "kl_sqrt_rn("] },
  { wgsl: INVERSE_TRIG_WGSL, neededBy: ["kl_asin(", "kl_acos(", "kl_atan(", "kl_log1p(", "kl_expm1("] },
  { wgsl: LGAMMA_WGSL, neededBy: ["kl_lgamma("] },
  { wgsl: ERFC_WGSL, neededBy: ["kl_erfc(", "kl_erfcx("] },
  { wgsl: BF16_WGSL, neededBy: ["kl_bf16("] },
  { wgsl: SHIFTED8_WGSL, neededBy: ["kl_shifted8("] },
  { wgsl: F8E4M3_WGSL, neededBy: ["kl_f8e4m3"] },
  { wgsl: F8E5M2_WGSL, neededBy: ["kl_f8e5m2"] },
];

/** The helper functions `body` calls, as lines of WGSL (none when it calls none). */
export function helperFunctions(body: readonly string[]): string[] {
  const lines: string[] = [];
  for (const helper of HELPERS) {
    if (!body.some((line) => helper.neededBy.some((name) => line.includes(name)))) continue;
    lines.push(...helper.wgsl.trimEnd().split("\n"));
  }
  return lines.length === 0 ? lines : [...lines, ""];
}

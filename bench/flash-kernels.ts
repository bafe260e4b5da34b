// Hand-written flash-attention forward in WGSL on Dawn's subgroup matrices: this path's attention
// ceiling (issue 28 item 1; bench/NOTES.md §25). Out = softmax(Q·Kᵀ·scale)·V for Z·H heads of
// N tokens × D, Q, K, V and Out f16 in one [Z·H, N, D] layout, everything between f32 except P,
// rounded to f16 for the second product (as Triton's tutorial 06 and examples/attention-f16 do).
//
// A workgroup owns BM = R · subgroups query rows of one head; each subgroup R of them (16 or 32),
// held as left matrices of Q for the whole key loop (loaded once, straight from storage). Per block
// of BN keys: K and V (read into vec4<u32> registers one block ahead) are staged in padded rows;
// S = Q·Kᵀ on the matrices (Kᵀ loaded column-major from K's rows) is stored into a workgroup
// scratch; lane r of the subgroup owns row r (lanes ≥ R idle there) and does the online softmax in
// registers, writing P as f16; then P·V on the matrices. Matrix elements cannot be addressed, so
// the accumulator's rescale by exp2(m_old − m_new) is where the two variants differ:
//   regs  P·V goes into fresh matrices, stored through the scratch, and each row's lane adds it to
//         its O row held in registers after scaling them (O exact per block, one more barrier);
//   lazy  O stays in matrices for the whole loop; a row's reference maximum moves only when the
//         block's maximum passes it by more than LAZY (8, in log2 units: P ≤ 2^8, safe in f16 and
//         the f32 sums), and only then is O rescaled, through the scratch, under a branch every
//         invocation takes alike (the flag read with workgroupUniformLoad). The result is the same
//         function: softmax is unchanged by the reference chosen, and l uses the same one.
// Emulated (lavapipe): every invocation holds whole matrices (src/codegen/mma.ts's matrixOps).

import { matrixOps, type MatrixOps } from "../src/codegen/mma-ops";
import type { SubgroupMatrixConfig } from "../src/ir/target";

export interface HandAttention {
  /** Query rows per subgroup (16 or 32) and subgroups per workgroup. */
  rows: number;
  subgroups: number;
  /** Keys per block. */
  bn: number;
  o: "regs" | "lazy";
  /** Floats of padding per row of the f32 scratch (4 keeps 16-byte rows; 1 spreads scalar reads over the banks). */
  spad: number;
  causal: boolean;
  /**
   * O-regs only: no barrier before K and V are staged (the previous block's barrier before its P·V
   * reaches the lanes already orders the last reads of K and V before these writes).
   */
  merged?: boolean;
  /**
   * Timing only: without the lanes' work (softmax, adding P·V) or without the matrix loads and
   * multiplies. "no-softmax" (O-regs only; NOTES §42) is checked, against its own formula: the lanes
   * write P = f16(S) (no scale, maximum, exp2 or rescale of O) and still add P·V to their O rows,
   * and Out is each O row over its largest magnitude, as bench/kernels/attention-f16-no-softmax
   * computes it.
   */
  isolate?: "no-lane" | "no-mma" | "no-softmax";
}

export const LAZY = 8;
const D = 64;
const C: SubgroupMatrixConfig = { componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 };

export function attentionName(a: HandAttention): string {
  return `flash ${a.rows * a.subgroups}×${a.bn} ${a.subgroups} sg of ${a.rows} rows, O-${a.o}${a.merged ? " merged" : ""}, S pad ${a.spad}${a.causal ? " causal" : ""}${a.isolate ? ` ISOLATE ${a.isolate}` : ""}`;
}

export function attentionFits(a: HandAttention, n: number): boolean {
  const bm = a.rows * a.subgroups;
  const bytes = 2 * 2 * a.bn * (D + 8) + 4 * bm * (a.bn + a.spad) + 2 * bm * (a.bn + 8);
  return n % bm === 0 && n % a.bn === 0 && (a.bn * D / 8) % (32 * a.subgroups) === 0 && bytes <= 49152;
}

/** Workgroups: [query blocks, heads]. */
export function attentionGrid(a: HandAttention, n: number, heads: number): [number, number] {
  return [n / (a.rows * a.subgroups), heads];
}

export function attentionWgsl(a: HandAttention, n: number, emulate: boolean): string {
  const { rows: R, subgroups: S, bn: BN } = a;
  const BM = R * S, w = 32 * S, KS = D + 8, SS = BN + a.spad, PS = BN + 8;
  const tm = R / 16, tk = BN / 16, td = D / 16;
  const vpi = (BN * D) / 8 / w; // vec4<u32> of K (and of V) per invocation per block
  const L: string[] = [
    "enable f16;",
    ...(emulate ? [] : ["enable subgroups;", "enable chromium_experimental_subgroup_matrix;", "diagnostic(off, chromium.subgroup_matrix_uniformity);"]),
    "@group(0) @binding(0) var<storage, read> Q: array<f16>;",
    "@group(0) @binding(1) var<storage, read> K: array<vec4<u32>>;",
    "@group(0) @binding(2) var<storage, read> V: array<vec4<u32>>;",
    "@group(0) @binding(3) var<storage, read_write> O: array<vec4<u32>>;",
    `var<workgroup> ks: array<f16, ${BN * KS}>;`,
    `var<workgroup> vs: array<f16, ${BN * KS}>;`,
    `var<workgroup> ss: array<f32, ${BM * SS}>;`,
    `var<workgroup> ps: array<f16, ${BM * PS}>;`,
    ...(a.o === "lazy" ? ["var<workgroup> flag: u32;"] : []),
    `@compute @workgroup_size(${w})`,
    "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {",
  ];
  const e = (x: string) => L.push(`  ${x}`);
  const ops: MatrixOps = matrixOps(e, emulate);
  e("let sg = lid / 32u; let lane = lid % 32u;");
  e(`let head = wid.y * ${n * D}u; let q0 = wid.x * ${BM}u;`);
  e(`let myrow = sg * ${R}u + lane; let owner = lane < ${R}u;`);
  e(`let qk_scale = ${1 / Math.sqrt(D)}f * 1.44269504f;`);
  // Q: left matrices (i, kk), loaded once from storage.
  for (let i = 0; i < tm; i++) for (let kk = 0; kk < td; kk++)
    ops.operand("left", `q${i}_${kk}`, C, "Q", `head + (q0 + sg * ${R}u + ${16 * i}u) * ${D}u + ${16 * kk}u`, D, false);
  if (a.o === "lazy") ops.results("o", C, tm * td);
  else for (let c = 0; c < D / 4; c++) e(`var o${c} = vec4<f32>(0.0);`);
  e("var m = -1e30f; var l = 0.0f; var alpha = 1.0f;");
  for (let q = 0; q < vpi; q++) e(`var rk${q}: vec4<u32>; var rv${q}: vec4<u32>;`);
  const fetch = (blk: string) => {
    for (let q = 0; q < vpi; q++) {
      e(`{ let v = lid + ${q * w}u; let g = (head + (${blk} * ${BN}u + v / ${D / 8}u) * ${D}u + (v % ${D / 8}u) * 8u) / 8u; rk${q} = K[g]; rv${q} = V[g]; }`);
    }
  };
  const halves = (reg: string, arr: string) => [0, 1, 2, 3].map((h) => `${arr}[at + ${2 * h}u] = bitcast<vec2<f16>>(${reg}[${h}]).x; ${arr}[at + ${2 * h + 1}u] = bitcast<vec2<f16>>(${reg}[${h}]).y;`).join(" ");
  e(a.causal ? `let nb = (q0 + ${BM + BN - 1}u) / ${BN}u;` : `let nb = ${n / BN}u;`);
  fetch("0u");
  e("for (var j = 0u; j < nb; j++) {");
  if (!(a.merged && a.o === "regs")) e("  workgroupBarrier();");
  for (let q = 0; q < vpi; q++) e(`  { let v = lid + ${q * w}u; let at = (v / ${D / 8}u) * ${KS}u + (v % ${D / 8}u) * 8u; ${halves(`rk${q}`, "ks")} ${halves(`rv${q}`, "vs")} }`);
  e("  workgroupBarrier();");
  e("  if (j + 1u < nb) {");
  fetch("(j + 1u)");
  e("  }");
  // S = Q·Kᵀ, stored into this subgroup's rows of the scratch.
  ops.results("sacc", C, tm * tk);
  for (let kk = 0; kk < (a.isolate === "no-mma" ? 0 : td); kk++) {
    for (let c = 0; c < tk; c++) ops.operand("right", `k${kk}_${c}`, C, "ks", `${16 * c * KS + 16 * kk}u`, KS, true);
    for (let i = 0; i < tm; i++) for (let c = 0; c < tk; c++) ops.mma(`sacc[${i * tk + c}]`, `q${i}_${kk}`, `k${kk}_${c}`, C);
  }
  for (let i = 0; i < tm; i++) for (let c = 0; c < tk; c++) ops.storeResult("ss", `(sg * ${R}u + ${16 * i}u) * ${SS}u + ${16 * c}u`, `sacc[${i * tk + c}]`, SS, C);
  e("  workgroupBarrier();");
  // The online softmax, one row per lane.
  e(`  if (owner${a.isolate === "no-lane" ? " && j > nb" : ""}) {`);
  e(`    let sb = myrow * ${SS}u; let pb = myrow * ${PS}u; let qrow = q0 + myrow;`);
  if (a.isolate === "no-softmax") {
    // P = S rounded to f16 (causal: 0 past the query), O neither rescaled nor l summed (NOTES §42).
    for (let x = 0; x < BN; x++) e(`    ps[pb + ${x}u] = f16(${a.causal ? `select(ss[sb + ${x}u], 0.0f, j * ${BN}u + ${x}u > qrow)` : `ss[sb + ${x}u]`});`);
  } else {
    e("    var mx = -1e30f;");
    for (let x = 0; x < BN; x++) {
      const key = `j * ${BN}u + ${x}u`;
      e(`    var x${x} = ss[sb + ${x}u] * qk_scale;${a.causal ? ` x${x} = select(x${x}, -1e30f, ${key} > qrow);` : ""} mx = max(mx, x${x});`);
    }
    if (a.o === "lazy") {
      // First block: m is -1e30 and moves (O is zero: no rescale needed). Later: only past LAZY.
      e(`    let mu = select(m, mx, mx > m + ${LAZY}.0f);`);
      e("    alpha = exp2(m - mu);");
      e("    if (mu != m && m > -1e29f) { flag = j + 1u; }");
      e("    m = mu;");
    } else {
      e("    let mu = max(m, mx); alpha = exp2(m - mu); m = mu;");
      for (let c = 0; c < D / 4; c++) e(`    o${c} = o${c} * alpha;`);
    }
    e("    var sum = 0.0f;");
    for (let x = 0; x < BN; x++) e(`    { let p = exp2(x${x} - m); sum += p; ps[pb + ${x}u] = f16(p); }`);
    e("    l = l * alpha + sum;");
  }
  e("  }");
  // Through the scratch, `per` column matrices at a time: store, barrier, each row's lane, then
  // (reload) a barrier and `after`; a barrier between rounds.
  const per = Math.min(tk, td);
  const at = (i: number, c: number) => `(sg * ${R}u + ${16 * i}u) * ${SS}u + ${16 * (c % per)}u`;
  const rounds = (store: (i: number, c: number) => void, lane: (c0: number) => void, after?: (i: number, c: number) => void) => {
    for (let c0 = 0; c0 < td; c0 += per) {
      if (c0 > 0) e("  workgroupBarrier();");
      for (let i = 0; i < tm; i++) for (let c = c0; c < c0 + per; c++) store(i, c);
      e("  workgroupBarrier();");
      e(`  if (owner${a.isolate === "no-lane" ? " && l < 0.0f" : ""}) {`);
      lane(c0);
      e("  }");
      if (after) {
        e("  workgroupBarrier();");
        for (let i = 0; i < tm; i++) for (let c = c0; c < c0 + per; c++) after(i, c);
      }
    }
  };
  if (a.o === "lazy") {
    e("  if (workgroupUniformLoad(&flag) == j + 1u) {");
    rounds((i, c) => ops.storeResult("ss", at(i, c), `o[${i * td + c}]`, SS, C),
      () => { for (let x = 0; x < 16 * per; x++) e(`    ss[myrow * ${SS}u + ${x}u] *= alpha;`); },
      (i, c) => ops.loadResult(`o[${i * td + c}]`, "ss", at(i, c), SS, C));
    e("  }");
  } else {
    e("  workgroupBarrier();");
  }
  // P·V: P (left) from this subgroup's rows, V (right) from the staged rows.
  const acc = a.o === "lazy" ? "o" : "pv";
  if (a.o === "regs") ops.results("pv", C, tm * td);
  for (let kc = 0; kc < (a.isolate === "no-mma" ? 0 : tk); kc++) {
    for (let i = 0; i < tm; i++) ops.operand("left", `p${kc}_${i}`, C, "ps", `(sg * ${R}u + ${16 * i}u) * ${PS}u + ${16 * kc}u`, PS, false);
    for (let c = 0; c < td; c++) ops.operand("right", `v${kc}_${c}`, C, "vs", `${16 * kc * KS + 16 * c}u`, KS, false);
    for (let i = 0; i < tm; i++) for (let c = 0; c < td; c++) ops.mma(`${acc}[${i * td + c}]`, `p${kc}_${i}`, `v${kc}_${c}`, C);
  }
  if (a.o === "regs") {
    rounds((i, c) => ops.storeResult("ss", at(i, c), `pv[${i * td + c}]`, SS, C),
      (c0) => { for (let x = 0; x < 4 * per; x++) e(`    o${4 * c0 + x} += vec4<f32>(ss[myrow * ${SS}u + ${4 * x}u], ss[myrow * ${SS}u + ${4 * x + 1}u], ss[myrow * ${SS}u + ${4 * x + 2}u], ss[myrow * ${SS}u + ${4 * x + 3}u]);`); });
  }
  e("}");
  // Out = O / l, each row's lane writing its row as f16 (8 halves per vec4<u32>).
  const write = (c0: number, width: number, value: (x: number) => string) => {
    e(`    let ob = (head + (q0 + myrow) * ${D}u + ${16 * c0}u) / 8u; let inv = 1.0f / l;`);
    for (let g = 0; g < (16 * width) / 8; g++) {
      const pk = (h: number) => `pack2x16float(vec2<f32>(${value(8 * g + 2 * h)} * inv, ${value(8 * g + 2 * h + 1)} * inv))`;
      e(`    O[ob + ${g}u] = vec4<u32>(${pk(0)}, ${pk(1)}, ${pk(2)}, ${pk(3)});`);
    }
  };
  if (a.o === "lazy") {
    e("workgroupBarrier();");
    rounds((i, c) => ops.storeResult("ss", at(i, c), `o[${i * td + c}]`, SS, C), (c0) => write(c0, per, (x) => `ss[myrow * ${SS}u + ${x}u]`));
  } else {
    e("if (owner) {");
    if (a.isolate === "no-softmax") {
      for (let c = 0; c < D / 4; c++) e(`    l = max(l, max(max(abs(o${c}.x), abs(o${c}.y)), max(abs(o${c}.z), abs(o${c}.w))));`);
    }
    write(0, td, (x) => `o${x >> 2}[${x & 3}]`);
    e("}");
  }
  L.push("}");
  return L.join("\n");
}

export function attentionVariants(causal: boolean, emulate: boolean): HandAttention[] {
  const base: HandAttention = { rows: 32, subgroups: 2, bn: 64, o: "lazy", spad: 4, causal };
  // Emulated matrices make big shaders (lavapipe compiles the smallest in ~30 s): the two ways for O only.
  // And the O-regs kernel without its softmax (NOTES §42), checked against its own formula.
  if (emulate) return [{ ...base, rows: 16, bn: 32 }, { ...base, rows: 16, bn: 32, o: "regs", spad: 1, merged: true }, { ...base, rows: 16, bn: 32, o: "regs", spad: 1, merged: true, isolate: "no-softmax" }];
  // Run A (NOTES §25): O-regs 128×32 over 4 subgroups of 32 rows led (96.9), then 64×64 over 2 (74.4);
  // 16-row subgroups, 8 subgroups, one subgroup and S pad 1 were slower; every O-lazy kernel was wrong.
  const best: HandAttention = { ...base, o: "regs", subgroups: 4, bn: 32 };
  const out: HandAttention[] = [best, { ...best, merged: true }, { ...base, o: "regs" }, { ...base, o: "regs", merged: true },
    { ...base, o: "regs", bn: 32, merged: true }, { ...best, o: "lazy" }];
  if (!causal) out.push({ ...best, merged: true, isolate: "no-lane" }, { ...best, merged: true, isolate: "no-mma" }, { ...best, merged: true, isolate: "no-softmax" });
  return out;
}

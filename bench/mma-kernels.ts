// Hand-written WGSL f16 matmuls on Dawn's subgroup matrices: the reference set of this path (issue 28
// item 1; bench/NOTES.md §21). C = A·B with A M×K and B K×N row-major f16, read as vec4<u32> (8 halves);
// C f32 (f16 × f16 → f32 matrices) or f16 (the f16 → f16 configuration: half the accumulator registers).
// Every variant is named by its configuration (`handName`); bench/mma-probe.ts checks each against
// float64 before it times it, except the `isolate` kernels, which leave a step out on purpose (they
// compute no product) and are timed only to place the time.
//
// Schedules (K loop):
//   prefetch  one buffer per operand; the next K tile read into registers, this tile multiplied,
//             barrier, the registers stored into the buffer, barrier (two barriers per trip);
//   late      one buffer; barrier, store, barrier, then the next tile's loads, then the multiplies
//             (the order examples/matmul-f16.kernel.ts's generated code had before §21);
//   unroll2   two buffers, the loop unrolled by two so every offset into them is a constant;
//   dyn2      two buffers chosen by a run-time stage index (k / BK) & 1, one barrier per trip;
//   dyn2-const-loads / dyn2-const-stores   dyn2 with the matrix loads / the staging stores under
//             `if (stage == 0)` so that those offsets are constants again;
//   zero-offset / loop-zero-offset   prefetch, with a run-time zero (loop-invariant / changing with k)
//             added to every matrix load's offset.

import type { SubgroupMatrixConfig } from "../src/ir/target";
import { layoutOf, pieceRows, tileOffset } from "../src/codegen/layout";

export type Schedule = "prefetch" | "late" | "unroll2" | "dyn2" | "dyn2-const-loads" | "dyn2-const-stores" | "zero-offset" | "loop-zero-offset";

export interface HandMatmul {
  bm: number; bn: number; bk: number;
  /** Subgroups along M and N. */
  sm: number; sn: number;
  /** Halves added to each staged row. */
  pad: number;
  acc: "f32" | "f16";
  schedule: Schedule;
  /** Workgroups row by row of tiles (2-D grid), or tutorial 03's grouped order (GROUP_M 8, 1-D grid). */
  order: "rows" | "grouped";
  /** Consecutive subgroups walk N ("n", the 244 kernel) or M ("m", Kernel Lab's layout). */
  sgOrder: "n" | "m";
  /** C stored straight from the matrices, or through workgroup memory 32 rows at a time (as generated code did). */
  cOut: "matrices" | "staged";
  /**
   * C stored from the matrices as generated code stores it (mma-store.ts): with a row stride known
   * only at run time, and under a branch on a value every invocation shares — computed from the
   * workgroup id ("plain") or read back from workgroup memory ("uniform-load", workgroupUniformLoad).
   */
  cStore?: { stride: "constant" | "runtime"; branch: "none" | "plain" | "uniform-load" };
  /** Timing-only: the K loop without its global loads ("no-global") or without its multiplies ("no-mma"). */
  isolate?: "no-global" | "no-mma";
  /**
   * The global loads as generated code does them (NOTES §39), one property at a time: `bytes` 8 reads
   * each run as two 8-byte loads (vec2<u32>, 4 halves: the generated code's runs) instead of one of 16;
   * `sizes` "runtime" takes M, N and K as values the compiler can't fold (`+ wid.z`, which is 0), as
   * generated code reads them from its uniforms; `masks` computes tutorial 03's masks per element
   * (row < M, column < K − k for A; row < K − k, column < N for B), tests whether every run of the
   * invocation's share is whole, and reads the vectors under that branch, the masked runs one by one
   * otherwise, as generated code's checked loads do. `masks` "uniform" tests instead, once a trip and
   * the same in every invocation, that the whole tile is inside the bounds (bm + BM ≤ M, bn + BN ≤ N,
   * k + BK ≤ K: scalars only) and computes the per-element masks inside the other branch only. Each
   * is checked like any other variant.
   *
   * `bytes` 2 reads every half with its own 2-byte load from A and B declared `array<f16>`, as generated
   * code reads f16 runs whose starts it can't prove a multiple of 4 halves (1000×1001×1003: no row of A or
   * B starts on one); `bytes` 4 reads each run of 4 halves as the 3 u32 words covering it (A and B
   * declared `array<u32>`) and shifts the halves into place on the start's parity, known only at run
   * time. Both hold the halves one f16 register each and stage them half by half: they need `regs`
   * "halves". With masks, each element has its own mask and, on the masked way, its own load.
   */
  feed?: {
    bytes: 2 | 4 | 8 | 16; sizes: "constant" | "runtime"; masks: boolean | "uniform";
    /**
     * The rest of the generated feed (NOTES §41, §43), one property at a time. `regs` "halves" holds
     * the prefetched tile one f16 register a half, read as `array<vec4<f16>>` (4 halves a load, as
     * generated code declares its f16 buffers) and staged half by half from those registers;
     * "packed" (the default) holds 8 halves in one vec4<u32>. Needs 8-byte loads (2- and 4-byte loads
     * read their own way, as `bytes` says, and need it).
     */
    regs?: "packed" | "halves";
    /**
     * "carried": one i32 element address a run, computed once before the loop and incremented by
     * BK·stride at the end of every trip (`a_ptrs += BLOCK_K * stride_ak`), each load indexed
     * `address >> 2u` as generated; "from-k" (the default) computes each address from k.
     */
    addresses?: "from-k" | "carried";
    /**
     * "tiled": each invocation's share of a tile is the generated code's tiled layout
     * (src/codegen/layout.ts, `layoutOf(…, true)`): runs of 4 halves, 2 a row in 4 rows at 128×32 and
     * 32×128 over 128 invocations, read with one 8-byte load each and staged at the same places as
     * generated code stages them; "row" (the default) gives each invocation runs of 8 halves of one row.
     * Needs 8-byte loads.
     */
    runs?: "row" | "tiled";
    /**
     * "runtime": the K loop as generated code writes it, an i32 trip index up to cdiv(K, BK) of the
     * run-time K, "a next trip exists" tested on it; "constant" (the default) loops over k up to the
     * constant K even with run-time sizes (the 207.3 kernel's loop). Prefetch schedule only.
     */
    trips?: "constant" | "runtime";
    /**
     * Not the feed, the rest of what the generated kernel differs by (§43): "array" holds the
     * accumulators in one `array<subgroup_matrix_result<…>, TM·TN>` indexed by constants, as generated
     * code does, instead of TM·TN variables; `cBuffer` declares C's staging buffer (32 rows of BN + 4
     * f32: 16.5 KiB at BN 128), which generated code declares for its edge tiles' way, and touches it
     * on a way no workgroup takes so that it stays allocated; a number declares that many rows
     * instead of 32 (how its size matters, §44).
     */
    accumulators?: "variables" | "array";
    cBuffer?: boolean | number;
    /**
     * With the uniform test: "two" tests A's tile and B's each on its own, each guarding its own
     * loads, as generated code does (`whole` per operand: A's rows and K, K and B's columns); "one"
     * (the default) tests the whole trip once. §44's open difference.
     */
    tests?: "one" | "two";
    /**
     * With 16-byte loads on runs of 8 (the default `regs` and `runs`): each run read as the two aligned
     * 16-byte chunks that cover it wherever it starts, and its 8 halves shifted out of their 16 by the start
     * mod 8, known only at run time, with selects and funnel shifts (WGSL `shifted8`). At 1024³ every run
     * starts on a chunk, but nothing in the code knows it: the cost of reading rows not known aligned
     * (the odd size's) 16 bytes at a time, against 2- and 4-byte loads (NOTES §75). "carried": the two
     * chunks and the start carried to the next trip and shifted where they are staged, so the loads are
     * not waited on where they are issued, as the generated code carries them (NOTES §78).
     */
    shifted?: boolean | "carried";
  };
}

export const BEST_244: HandMatmul = { bm: 128, bn: 128, bk: 32, sm: 2, sn: 2, pad: 8, acc: "f32", schedule: "prefetch", order: "rows", sgOrder: "n", cOut: "matrices" };

export function handName(s: HandMatmul): string {
  const tm = s.bm / s.sm / 16, tn = s.bn / s.sn / 16;
  const c = s.cStore ? ` (stride ${s.cStore.stride}, branch ${s.cStore.branch})` : "";
  const iso = s.feed ? `${s.feed.shifted === "carried" ? ", shifted carried" : s.feed.shifted ? ", shifted" : ""}${s.feed.regs === "halves" ? ", halves" : ""}${s.feed.addresses === "carried" ? ", carried addresses" : ""}${s.feed.runs === "tiled" ? ", tiled runs" : ""}${s.feed.trips === "runtime" ? ", runtime trips" : ""}${s.feed.accumulators === "array" ? ", acc array" : ""}${s.feed.cBuffer === true ? ", C buffer" : s.feed.cBuffer ? `, C buffer ${s.feed.cBuffer} rows` : ""}${s.feed.tests === "two" ? ", two tests" : ""}` : "";
  const f = s.feed ? ` feed (${s.feed.bytes}-byte loads, ${s.feed.sizes} sizes${s.feed.masks === "uniform" ? ", uniform masks" : s.feed.masks ? ", masks" : ""}${iso})` : "";
  return `${s.bm}×${s.bn}×${s.bk} ${s.sm}×${s.sn} sg of ${tm}×${tn} →${s.acc} pad ${s.pad} ${s.schedule} ${s.order} sg-${s.sgOrder} C-${s.cOut}${c}${f}${s.isolate ? ` ISOLATE ${s.isolate}` : ""}`;
}

/** Workgroups to dispatch for an M×N product (the edge tiles included where the tiles don't divide it). */
export function handGrid(s: HandMatmul, M: number, N: number): [number, number] {
  const tm = Math.ceil(M / s.bm), tn = Math.ceil(N / s.bn);
  return s.order === "rows" ? [tn, tm] : [tm * tn, 1];
}

/**
 * Whether the variant runs at sizes its tiles don't divide (1000×1001×1003, NOTES §84): the uniform tile
 * test with masks per half on its other way, which the 2-byte loads (each half under its own mask) and the
 * carried shifted chunks (each half's mask carried beside its chunks) have. Edge tiles read past a row or
 * the buffer where masked (WebGPU bounds those reads; the mask drops them).
 */
export function handEdges(s: HandMatmul): boolean {
  const f = s.feed;
  return !!f && f.masks === "uniform" && (f.bytes === 2 || f.shifted === "carried") && s.schedule === "prefetch" && s.cOut === "matrices" && !s.isolate && f.addresses !== "carried";
}

/**
 * C's row stride and rows as the kernels store it: M × N where the tiles divide it, else padded to
 * multiples of 256 (every BM and BN), the edge tiles' matrices stored whole into the padding.
 */
export function handCShape(M: number, N: number): { stride: number; rows: number } {
  const odd = M % 256 !== 0 || N % 256 !== 0;
  return odd ? { stride: Math.ceil(N / 256) * 256, rows: Math.ceil(M / 256) * 256 } : { stride: N, rows: M };
}

/** Whether the variant fits: tiles divide the sizes, loads divide among invocations, workgroup memory ≤ 48 KiB. */
export function handFits(s: HandMatmul, M: number, N: number, K: number): boolean {
  const w = 32 * s.sm * s.sn;
  const stages = s.schedule.startsWith("dyn2") || s.schedule === "unroll2" ? 2 : 1;
  const bytes = 2 * stages * (s.bm * (s.bk + s.pad) + s.bk * (s.bn + s.pad)) + (s.cOut === "staged" ? 4 * 32 * (s.bn + 4) : s.feed?.cBuffer ? 4 * cRows(s.feed.cBuffer) * (s.bn + 4) : 0);
  const divides = M % s.bm === 0 && N % s.bn === 0 && K % (stages === 2 ? 2 * s.bk : s.bk) === 0;
  return (divides || handEdges(s)) && s.bm % (16 * s.sm) === 0 && s.bn % (16 * s.sn) === 0
    && (s.bm * s.bk / 8) % w === 0 && (s.bk * s.bn / 8) % w === 0 && bytes <= 49152 && (s.cOut === "matrices" || (32 * s.bn / 4) % w === 0);
}

/** The matrix operations, real or emulated (lavapipe: every invocation of a 32-wide "subgroup" holds whole matrices). */
function ops(emulate: boolean, acc: "f32" | "f16") {
  const C: SubgroupMatrixConfig = { componentType: "f16", resultComponentType: acc, M: 16, N: 16, K: 16 };
  const loop = (n: number, body: string) => `for (var e = 0u; e < ${n}u; e++) { ${body} }`;
  if (!emulate) return {
    C,
    result: (name: string) => `var ${name}: subgroup_matrix_result<${acc}, 16, 16>;`,
    load: (side: "left" | "right", name: string, array: string, off: string, stride: number) =>
      `let ${name} = subgroupMatrixLoad<subgroup_matrix_${side}<f16, 16, 16>, row_major>(&${array}, ${off}, ${stride}u);`,
    mma: (c: string, l: string, r: string) => `${c} = subgroupMatrixMultiplyAccumulate(${l}, ${r}, ${c});`,
    store: (array: string, off: string, c: string, stride: number) => `subgroupMatrixStore<row_major>(&${array}, ${off}, ${c}, ${stride}u);`,
  };
  return {
    C,
    result: (name: string) => `var ${name}: array<${acc}, 256>;`,
    load: (_side: "left" | "right", name: string, array: string, off: string, stride: number) =>
      `var ${name}: array<f16, 256>; ${loop(256, `${name}[e] = ${array}[${off} + (e / 16u) * ${stride}u + e % 16u];`)}`,
    // f32 products summed in the accumulator's type, 16 at a time.
    mma: (c: string, l: string, r: string) =>
      loop(256, `var s = f32(${c}[e]); for (var q = 0u; q < 16u; q++) { s = fma(f32(${l}[(e / 16u) * 16u + q]), f32(${r}[q * 16u + e % 16u]), s); } ${c}[e] = ${acc}(s);`),
    store: (array: string, off: string, c: string, stride: number) => loop(256, `${array}[${off} + (e / 16u) * ${stride}u + e % 16u] = ${c}[e];`),
  };
}

export function handWgsl(s: HandMatmul, M: number, N: number, K: number, emulate: boolean): string {
  const w = 32 * s.sm * s.sn;
  const tm = s.bm / s.sm / 16, tn = s.bn / s.sn / 16;
  const sa = s.bk + s.pad, sb = s.bn + s.pad, sizeA = s.bm * sa, sizeB = s.bk * sb;
  const two = s.schedule === "unroll2" || s.schedule.startsWith("dyn2");
  const ar = (s.bm * s.bk) / 8 / w, br = (s.bk * s.bn) / 8 / w;
  const o = ops(emulate, s.acc);
  const feed = s.feed ?? { bytes: 16, sizes: "constant", masks: false };
  // The properties of §43: any of them takes the general path below (`isoFeed`); without them the
  // WGSL is exactly what it was (the results in bench/results refer to it).
  // 2- and 4-byte loads (one half a load, or the words covering a run of 4) take that path too.
  const narrow = feed.bytes === 2 || feed.bytes === 4;
  const iso = narrow || feed.regs === "halves" || feed.addresses === "carried" || feed.runs === "tiled" || feed.trips === "runtime";
  if (narrow && feed.regs !== "halves") throw new Error("feed: 2- and 4-byte loads hold one f16 register a half (regs \"halves\")");
  if (!narrow && iso && feed.bytes !== 8) throw new Error("feed: halves, carried addresses and tiled runs are measured with 8-byte loads");
  if (feed.tests === "two" && (iso || feed.masks !== "uniform")) throw new Error("feed: two tests are measured with the uniform test on the 244 kernel's own feed");
  if (feed.shifted && (iso || feed.bytes !== 16)) throw new Error("feed: shifted runs are read as 16-byte chunks on the 244 kernel's own feed");
  const elem = feed.bytes === 2 ? "f16" : feed.bytes === 4 ? "u32" : feed.regs === "halves" ? "vec4<f16>" : `vec${feed.bytes === 8 ? 2 : 4}<u32>`;
  const L: string[] = [
    "enable f16;",
    ...(emulate ? [] : ["enable subgroups;", "enable chromium_experimental_subgroup_matrix;", "diagnostic(off, chromium.subgroup_matrix_uniformity);"]),
    `@group(0) @binding(0) var<storage, read> A: array<${elem}>;`,
    `@group(0) @binding(1) var<storage, read> B: array<${elem}>;`,
    `@group(0) @binding(2) var<storage, read_write> C: array<${s.acc}>;`,
    `var<workgroup> sa: array<f16, ${(two ? 2 : 1) * sizeA}>;`,
    `var<workgroup> sb: array<f16, ${(two ? 2 : 1) * sizeB}>;`,
  ];
  if (s.cOut === "staged") L.push(`var<workgroup> sc: array<${s.acc}, ${32 * (s.bn + 4)}>;`);
  else if (feed.cBuffer) L.push(`var<workgroup> scb: array<f32, ${cRows(feed.cBuffer) * (s.bn + 4)}>;`);
  if (s.cStore?.branch === "uniform-load") L.push("var<workgroup> cflag: u32;");
  // A run of 8 halves starting at half a of the chunk p (a in 0..7), the rest in the next chunk q: shifted down
  // by 4 halves (two words), then by 2 (one word), then by 1 (a funnel shift of 16 bits), each by select.
  if (feed.shifted) L.push("fn shifted8(p: vec4<u32>, q: vec4<u32>, a: u32) -> vec4<u32> {",
    "  let four = (a & 4u) != 0u; let two = (a & 2u) != 0u; let odd = (a & 1u) != 0u;",
    "  let t = select(vec3<u32>(p.x, p.y, p.z), vec3<u32>(p.z, p.w, q.x), four); let u = select(vec3<u32>(p.w, q.x, q.y), vec3<u32>(q.y, q.z, q.w), four);",
    "  let lo = select(vec4<u32>(t.x, t.y, t.z, u.x), vec4<u32>(t.y, t.z, u.x, u.y), two);",
    "  let hi = select(vec4<u32>(t.y, t.z, u.x, u.y), vec4<u32>(t.z, u.x, u.y, u.z), two);",
    "  return select(lo, (lo >> vec4<u32>(16u)) | (hi << vec4<u32>(16u)), odd);",
    "}");
  L.push(`@compute @workgroup_size(${w})`,
    "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {");
  const e = (x: string) => L.push(`  ${x}`);
  e("let sg = lid / 32u;");
  e(s.sgOrder === "n" ? `let sy = sg / ${s.sn}u; let sx = sg % ${s.sn}u;` : `let sy = sg % ${s.sm}u; let sx = sg / ${s.sm}u;`);
  if (s.order === "rows") e(`let bm = wid.y * ${s.bm}u; let bn = wid.x * ${s.bn}u;`);
  else {
    const tilesM = Math.ceil(M / s.bm), tilesN = Math.ceil(N / s.bn);
    e(`let pid = wid.x; let first = (pid / ${8 * tilesN}u) * 8u; let gsize = min(${tilesM}u - first, 8u);`);
    e(`let bm = (first + (pid % ${8 * tilesN}u) % gsize) * ${s.bm}u; let bn = ((pid % ${8 * tilesN}u) / gsize) * ${s.bn}u;`);
  }
  e(`let zoff = wid.z * ${sizeA}u; let zoffb = wid.z * ${sizeB}u;`); // a zero the compiler cannot see
  // §43 (g): the accumulators as generated code holds them, one array indexed by constants.
  const accArray = feed.accumulators === "array";
  const cm = (i: number, j: number) => (accArray ? `cacc[${i * tn + j}]` : `c${i}_${j}`);
  if (accArray) e(emulate ? `var cacc: array<array<${s.acc}, 256>, ${tm * tn}>;` : `var cacc = array<subgroup_matrix_result<${s.acc}, 16, 16>, ${tm * tn}>();`);
  else for (let i = 0; i < tm; i++) for (let j = 0; j < tn; j++) e(o.result(`c${i}_${j}`));
  if (!iso) for (let q = 0; q < ar; q++) e(`var ra${q}: vec4<u32>;`);
  if (!iso) for (let q = 0; q < br; q++) e(`var rb${q}: vec4<u32>;`);
  // Carried shifted runs: each register's next chunk and start beside it (a start of 0 leaves the register as it is).
  const carried = feed.shifted === "carried";
  // At sizes the tiles don't divide, each carried run's mask too (0xffff a half kept), applied where it is staged.
  const edges = M % s.bm !== 0 || N % s.bn !== 0 || K % s.bk !== 0;
  if (edges && !handEdges(s)) throw new Error(`${handName(s)}: only the 2-byte and carried shifted feeds run at ${M}×${N}×${K}`);
  const carriedMask = carried && edges;
  if (carried) for (const r of [...Array.from({ length: ar }, (_, q) => `ra${q}`), ...Array.from({ length: br }, (_, q) => `rb${q}`)]) e(`var ${r}q: vec4<u32>; var ${r}s: u32;${carriedMask ? ` var ${r}m = vec4<u32>(0xffffffffu);` : ""}`);
  if (feed.sizes === "runtime") e(`let Mr = ${M}u + wid.z; let Nr = ${N}u + wid.z; let Kr = ${K}u + wid.z;`);
  const [Ms, Ns, Ks] = feed.sizes === "runtime" ? ["Mr", "Nr", "Kr"] : [`${M}u`, `${N}u`, `${K}u`];
  const general = iso ? isoFeed(s, feed, w, sizeA, sizeB, Ms, Ns, Ks) : undefined;
  if (general) L.push(...general.declare.map((x) => `  ${x}`));
  // One run of 8 halves at element `at` into register `reg`: one 16-byte load or two of 8.
  const read = (reg: string, arr: string, at: string) => (carried ? `{ let i = ${at}; let c = i >> 3u; ${reg} = ${arr}[c]; ${reg}q = ${arr}[c + 1u]; ${reg}s = i & 7u;${carriedMask ? ` ${reg}m = vec4<u32>(0xffffffffu);` : ""} }`
    : feed.shifted ? `{ let i = ${at}; let c = i >> 3u; ${reg} = shifted8(${arr}[c], ${arr}[c + 1u], i & 7u); }`
    : feed.bytes === 16 ? `${reg} = ${arr}[(${at}) / 8u];`
    : `{ let i = (${at}) / 4u; ${reg} = vec4<u32>(${arr}[i], ${arr}[i + 1u]); }`);
  // A run of 4 halves (8 bytes) alone, for the masked path: the other half of the register kept zero.
  const readHalf = (reg: string, arr: string, at: string, upper: boolean) => (feed.shifted
    ? `{ let i = ${at}; let c = i >> 3u; let r = shifted8(${arr}[c], ${arr}[c + 1u], i & 7u); ${reg} = select(vec4<u32>(r.xy, ${reg}.zw), vec4<u32>(${reg}.xy, r.zw), ${upper}); }`
    : feed.bytes === 16
    ? `{ let r = ${arr}[(${at}) / 8u]; ${reg} = select(vec4<u32>(r.xy, ${reg}.zw), vec4<u32>(${reg}.xy, r.zw), ${upper}); }`
    : `{ let r = ${arr}[(${at}) / 4u + ${upper ? 1 : 0}u]; ${reg} = ${upper ? `vec4<u32>(${reg}.xy, r)` : `vec4<u32>(r, ${reg}.zw)`}; }`);
  const fetch = (k: string): string[] => {
    if (general) return general.fetch(k);
    const out: string[] = [];
    const runs: { reg: string; arr: string; at: string; row: string; col: string; rowMax: string; colMax: string }[] = [];
    for (let q = 0; q < ar; q++) {
      const row = `(bm + (lid + ${q * w}u) / ${s.bk / 8}u)`, col = `(${k} + ((lid + ${q * w}u) % ${s.bk / 8}u) * 8u)`;
      runs.push({ reg: `ra${q}`, arr: "A", at: `${row} * ${Ks} + ${col}`, row, col: `(${col} - (${k}))`, rowMax: Ms, colMax: `(${Ks} - (${k}))` });
    }
    for (let q = 0; q < br; q++) {
      const row = `(${k} + (lid + ${q * w}u) / ${s.bn / 8}u)`, col = `(bn + ((lid + ${q * w}u) % ${s.bn / 8}u) * 8u)`;
      runs.push({ reg: `rb${q}`, arr: "B", at: `${row} * ${Ns} + ${col}`, row: `(${row} - (${k}))`, col, rowMax: `(${Ks} - (${k}))`, colMax: Ns });
    }
    if (!feed.masks) {
      for (const r of runs) out.push(read(r.reg, r.arr, r.at));
      return out;
    }
    // Tutorial 03's masks per element, each run of 4 whole or not, every run's flag, then the branch;
    // "uniform": one scalar test of the tile's corner first, the per-element masks on the other way only.
    const masks = runs.flatMap((r, n) => [0, 4].map((h) => {
      const els = [0, 1, 2, 3].map((x) => `(${r.row} < ${r.rowMax} && ${r.col} + ${h + x}u < ${r.colMax})`);
      return `let m${n}_${h} = ${els.join(" && ")};`;
    }));
    const uniformTest = feed.masks === "uniform";
    // Carried with its halves' mask (sizes the tiles don't divide): every run read whole, wherever it lies, and
    // each half's mask carried with it (tutorial 03's, per element).
    const maskedCarried = (r: (typeof runs)[number]) => {
      const keep = (e: number) => `(${r.row} < ${r.rowMax} && ${r.col} + ${e}u < ${r.colMax})`;
      const word = (j: number) => `select(0u, 0xffffu, ${keep(2 * j)}) | select(0u, 0xffff0000u, ${keep(2 * j + 1)})`;
      return [read(r.reg, r.arr, r.at), `${r.reg}m = vec4<u32>(${[0, 1, 2, 3].map(word).join(", ")});`];
    };
    if (uniformTest && feed.tests === "two") {
      // A's runs under A's test, then B's under B's (generated code's `whole` per operand).
      const groups = [
        { name: "wholeA", test: `bm + ${s.bm}u <= ${Ms} && ${k} + ${s.bk}u <= ${Ks}`, runs: runs.map((_, n) => n).filter((n) => n < ar) },
        { name: "wholeB", test: `${k} + ${s.bk}u <= ${Ks} && bn + ${s.bn}u <= ${Ns}`, runs: runs.map((_, n) => n).filter((n) => n >= ar) },
      ];
      for (const g of groups) {
        out.push(`let ${g.name} = ${g.test};`, `if (${g.name}) {`);
        for (const n of g.runs) out.push(`  ${read(runs[n].reg, runs[n].arr, runs[n].at)}`);
        out.push("} else {");
        if (carriedMask) for (const n of g.runs) out.push(...maskedCarried(runs[n]).map((x) => `  ${x}`));
        else for (const n of g.runs) {
          out.push(`  ${masks[2 * n]}`, `  ${masks[2 * n + 1]}`, `  ${runs[n].reg} = vec4<u32>(0u);`);
          for (const h of [0, 4]) out.push(`  if (m${n}_${h}) ${readHalf(runs[n].reg, runs[n].arr, runs[n].at, h === 4)}`);
        }
        out.push("}");
      }
      return ["{", ...out.map((x) => `  ${x}`), "}"];
    }
    if (uniformTest) out.push(`let whole = bm + ${s.bm}u <= ${Ms} && bn + ${s.bn}u <= ${Ns} && ${k} + ${s.bk}u <= ${Ks};`, "if (whole) {");
    else out.push(...masks, `let whole = ${runs.map((_, n) => `m${n}_0 && m${n}_4`).join(" && ")};`, "if (whole) {");
    for (const r of runs) out.push(`  ${read(r.reg, r.arr, r.at)}`);
    out.push("} else {");
    if (carriedMask) {
      for (const r of runs) out.push(...maskedCarried(r).map((x) => `  ${x}`));
      out.push("}");
      return ["{", ...out.map((x) => `  ${x}`), "}"];
    }
    if (uniformTest) out.push(...masks.map((m) => `  ${m}`));
    runs.forEach((r, n) => {
      out.push(`  ${r.reg} = vec4<u32>(0u);${carried ? ` ${r.reg}q = vec4<u32>(0u); ${r.reg}s = 0u;` : ""}`);
      for (const h of [0, 4]) out.push(`  if (m${n}_${h}) ${readHalf(r.reg, r.arr, r.at, h === 4)}`);
    });
    out.push("}");
    return ["{", ...out.map((x) => `  ${x}`), "}"];
  };
  const halves = (reg: string, arr: string) => (carried ? `let sr = shifted8(${reg}, ${reg}q, ${reg}s)${carriedMask ? ` & ${reg}m` : ""}; ` : "") + [0, 1, 2, 3].map((h) => `${arr}[at + ${2 * h}u] = bitcast<vec2<f16>>(${carried ? "sr" : reg}[${h}]).x; ${arr}[at + ${2 * h + 1}u] = bitcast<vec2<f16>>(${carried ? "sr" : reg}[${h}]).y;`).join(" ");
  const put = (stage: string): string[] => {
    if (general) return general.put(stage);
    const out: string[] = [];
    for (let q = 0; q < ar; q++) out.push(`{ let v = lid + ${q * w}u; let at = ${stage} * ${sizeA}u + (v / ${s.bk / 8}u) * ${sa}u + (v % ${s.bk / 8}u) * 8u; ${halves(`ra${q}`, "sa")} }`);
    for (let q = 0; q < br; q++) out.push(`{ let v = lid + ${q * w}u; let at = ${stage} * ${sizeB}u + (v / ${s.bn / 8}u) * ${sb}u + (v % ${s.bn / 8}u) * 8u; ${halves(`rb${q}`, "sb")} }`);
    return out;
  };
  let tag = 0;
  const compute = (stage: string, extraA = "", extraB = ""): string[] => {
    if (s.isolate === "no-mma") return [];
    const out: string[] = [];
    for (let kk = 0; kk < s.bk; kk += 16) {
      const t = tag++;
      for (let i = 0; i < tm; i++) out.push(o.load("left", `l${t}_${i}`, "sa", `${stage} * ${sizeA}u${extraA} + (sy * ${16 * tm}u + ${16 * i}u) * ${sa}u + ${kk}u`, sa));
      for (let j = 0; j < tn; j++) out.push(o.load("right", `r${t}_${j}`, "sb", `${stage} * ${sizeB}u${extraB} + ${kk * sb}u + sx * ${16 * tn}u + ${16 * j}u`, sb));
      for (let i = 0; i < tm; i++) for (let j = 0; j < tn; j++) out.push(o.mma(cm(i, j), `l${t}_${i}`, `r${t}_${j}`));
    }
    return out;
  };
  const ind = (xs: string[], n = 4) => xs.map((x) => " ".repeat(n) + x);
  const fetchNext = (k: string) => (s.isolate === "no-global" ? [] : fetch(k));
  L.push(...ind(fetch("0u"), 2), ...ind(put("0u"), 2), "  workgroupBarrier();");
  if (general && (general.advance.length > 0 || feed.trips === "runtime") && s.schedule !== "prefetch") throw new Error("feed: carried addresses and run-time trips are written for the prefetch schedule");
  switch (s.schedule) {
    case "prefetch":
    case "zero-offset":
    case "loop-zero-offset": {
      const [xa, xb] = s.schedule === "zero-offset" ? [" + zoff", " + zoffb"]
        : s.schedule === "loop-zero-offset" ? [` + ((k / ${s.bk}u) & 1u) * zoff`, ` + ((k / ${s.bk}u) & 1u) * zoffb`] : ["", ""];
      // Run-time trips (§43): generated code's loop, an i32 trip index up to cdiv(K, BK) of the run-time K.
      L.push(...(feed.trips === "runtime" ? [`  let trips = (i32(${Ks}) + ${s.bk - 1}i) / ${s.bk}i;`, "  for (var t = 0i; t < trips; t++) {", `    let k = u32(t) * ${s.bk}u;`, "    let more = t + 1i < trips;"]
        : [`  for (var k = 0u; k < ${K}u; k += ${s.bk}u) {`, `    let more = k + ${s.bk}u < ${K}u;`]),
        "    if (more) {", ...ind(fetchNext(`k + ${s.bk}u`), 6), "    }", ...ind(compute("0u", xa, xb)),
        "    workgroupBarrier();", "    if (more) {", ...ind(put("0u"), 6), "    }", "    workgroupBarrier();", ...ind(general?.advance ?? []), "  }");
      break;
    }
    case "late":
      L.push(`  for (var k = 0u; k < ${K}u; k += ${s.bk}u) {`, "    if (k > 0u) {", "      workgroupBarrier();", ...ind(put("0u"), 6), "      workgroupBarrier();", "    }",
        `    if (k + ${s.bk}u < ${K}u) {`, ...ind(fetchNext(`k + ${s.bk}u`), 6), "    }", ...ind(compute("0u")), "  }");
      break;
    case "unroll2":
      L.push(`  for (var k = 0u; k < ${K}u; k += ${2 * s.bk}u) {`, ...ind(fetchNext(`k + ${s.bk}u`)), ...ind(compute("0u")), ...ind(put("1u")), "    workgroupBarrier();",
        `    let more = k + ${2 * s.bk}u < ${K}u;`, "    if (more) {", ...ind(fetchNext(`k + ${2 * s.bk}u`), 6), "    }", ...ind(compute("1u")),
        "    if (more) {", ...ind(put("0u"), 6), "    }", "    workgroupBarrier();", "  }");
      break;
    case "dyn2":
    case "dyn2-const-loads":
    case "dyn2-const-stores": {
      const c = s.schedule === "dyn2-const-loads" ? ["    if (st == 0u) {", ...ind(compute("0u"), 6), "    } else {", ...ind(compute("1u"), 6), "    }"] : ind(compute("st"));
      const p = s.schedule === "dyn2-const-stores" ? ["      if (st == 0u) {", ...ind(put("1u"), 8), "      } else {", ...ind(put("0u"), 8), "      }"] : ind(put("(st ^ 1u)"), 6);
      L.push(`  for (var k = 0u; k < ${K}u; k += ${s.bk}u) {`, `    let st = (k / ${s.bk}u) & 1u;`, `    let more = k + ${s.bk}u < ${K}u;`,
        "    if (more) {", ...ind(fetchNext(`k + ${s.bk}u`), 6), "    }", ...c, "    if (more) {", ...p, "    }", "    workgroupBarrier();", "  }");
      break;
    }
    default: {
      const never: never = s.schedule;
      throw new Error(`schedule ${never}`);
    }
  }
  // §43 (i): C's staging buffer, kept by a write on a way no workgroup takes (wid.z is 0).
  if (feed.cBuffer && s.cOut !== "staged") e("if (wid.z != 0u) { scb[lid] = 0.0; }");
  const row = (i: number) => `sy * ${16 * tm}u + ${16 * i}u`, col = (j: number) => `sx * ${16 * tn}u + ${16 * j}u`;
  if (s.cOut === "matrices") {
    const cs = s.cStore ?? { stride: "constant", branch: "none" };
    // wid.z is 0: a stride and a test the compiler cannot fold, as generated code's are.
    const CS = handCShape(M, N).stride;
    if (cs.stride === "runtime") e(`let cs = ${CS}u + wid.z;`);
    const stride = cs.stride === "runtime" ? "cs" : `${CS}u`;
    const store = (i: number, j: number) => (emulate ? o.store("C", `(bm + ${row(i)}) * ${stride} + bn + ${col(j)}`, cm(i, j), CS)
      : `subgroupMatrixStore<row_major>(&C, (bm + ${row(i)}) * ${stride} + bn + ${col(j)}, ${cm(i, j)}, ${stride});`);
    if (cs.branch === "plain") e(`if (bm + ${s.bm}u <= ${M}u + wid.z) {`);
    if (cs.branch === "uniform-load") e(`if (lid == 0u) { cflag = select(0u, 1u, bm + ${s.bm}u <= ${M}u + wid.z); }`, ), e("if (workgroupUniformLoad(&cflag) == 1u) {");
    for (let i = 0; i < tm; i++) for (let j = 0; j < tn; j++) e(`${cs.branch === "none" ? "" : "  "}${store(i, j)}`);
    if (cs.branch !== "none") e("}");
  } else {
    // 32 rows of the tile at a time: the subgroups holding them store their matrices, then every invocation copies vec4-sized runs out.
    const per = (32 * s.bn) / 4 / w, scs = s.bn + 4;
    L.push(`  for (var r0 = 0u; r0 < ${s.bm}u; r0 += 32u) {`, "    workgroupBarrier();");
    for (let i = 0; i < tm; i++) {
      L.push(`    if (${row(i)} - r0 < 32u) {`);
      for (let j = 0; j < tn; j++) L.push(`      ${o.store("sc", `(${row(i)} - r0) * ${scs}u + ${col(j)}`, cm(i, j), scs)}`);
      L.push("    }");
    }
    L.push("    workgroupBarrier();");
    for (let q = 0; q < per; q++) {
      L.push(`    { let v = lid + ${q * w}u; let r = v / ${s.bn / 4}u; let c4 = (v % ${s.bn / 4}u) * 4u; let g = (bm + r0 + r) * ${N}u + bn + c4;`,
        `      for (var x = 0u; x < 4u; x++) { C[g + x] = sc[r * ${scs}u + c4 + x]; } }`);
    }
    L.push("  }");
  }
  L.push("}");
  return L.join("\n");
}

/**
 * The feed with any of §43's properties (`regs`, `addresses`, `runs`): the global loads of the next
 * tile into registers, their staging into workgroup memory, and (carried addresses) the registers'
 * increments at the end of a trip. The masks are §41's (`masks` true or "uniform"), per run of 4.
 */
function isoFeed(s: HandMatmul, feed: NonNullable<HandMatmul["feed"]>, w: number, sizeA: number, sizeB: number, Ms: string, Ns: string, Ks: string) {
  const halves = feed.regs === "halves", carried = feed.addresses === "carried", tiled = feed.runs === "tiled";
  const narrow = feed.bytes === 2 || feed.bytes === 4;
  interface Run { reg: string; arr: "A" | "B"; n: 4 | 8; row: string; col: string; off: number }
  const declare: string[] = [];
  const runsOf = (arr: "A" | "B", R: number, C: number, stride: number): Run[] => {
    const reg = arr === "A" ? "ra" : "rb";
    if (!tiled) return Array.from({ length: (R * C) / 8 / w }, (_, q) => ({ reg: `${reg}${q}`, arr, n: 8 as const,
      row: `((lid + ${q * w}u) / ${C / 8}u)`, col: `(((lid + ${q * w}u) % ${C / 8}u) * 8u)`, off: 0 }));
    const tile = layoutOf([R, C], w, true).tile;
    if (!tile || tile.threadsPerRow === 1) throw new Error(`feed: no tiled layout for ${R}×${C} over ${w}`);
    // As generated code's tileBase: the invocation's first row and column; the runs at constant offsets.
    declare.push(`let ${arr}r = (lid / ${tile.threadsPerRow}u) * ${pieceRows(tile)}u; let ${arr}c = (lid % ${tile.threadsPerRow}u) * 4u;`);
    return Array.from({ length: (R * C) / w / 4 }, (_, j) => {
      const t = tileOffset(tile, w, 4 * j), dr = Math.floor(t / C), dc = t % C;
      return { reg: `${reg}${j}`, arr, n: 4 as const, row: `(${arr}r + ${dr}u)`, col: `(${arr}c + ${dc}u)`, off: dr * stride + dc };
    });
  };
  const sa = s.bk + s.pad, sb = s.bn + s.pad;
  const runs = [...runsOf("A", s.bm, s.bk, sa), ...runsOf("B", s.bk, s.bn, sb)];
  for (const r of runs) {
    if (halves) declare.push(Array.from({ length: r.n }, (_, e) => `var ${r.reg}_${e}: f16;`).join(" "));
    else declare.push(`var ${r.reg}: vec${r.n === 8 ? 4 : 2}<u32>;`);
  }
  // Element address of a run's first half in A or B, at the K tile starting at k.
  const at = (r: Run, k: string) => (r.arr === "A" ? `(bm + ${r.row}) * ${Ks} + ${k} + ${r.col}` : `(${k} + ${r.row}) * ${Ns} + bn + ${r.col}`);
  const advance: string[] = [];
  if (carried) {
    declare.push(`let bstep = ${s.bk}i * i32(${Ns});`);
    for (const r of runs) {
      declare.push(`var ${r.reg}p: i32 = i32(${at(r, "0u")});`);
      advance.push(`${r.reg}p = ${r.reg}p + ${r.arr === "A" ? `${s.bk}i` : "bstep"};`);
    }
  }
  // The load's index (4 halves an element of A or B): from k, or from the carried address (the next trip's: + BK·stride).
  const index = (r: Run, k: string) => (!carried ? `(${at(r, k)}) / 4u` : k === "0u" ? `${r.reg}p >> 2u` : `(${r.reg}p + ${r.arr === "A" ? `${s.bk}i` : "bstep"}) >> 2u`);
  const take = (r: Run, h: number, v: string) => (halves ? ["x", "y", "z", "w"].map((c, e) => `${r.reg}_${h + e} = ${v}.${c};`).join(" ")
    : r.n === 4 ? `${r.reg} = ${v};` : `${r.reg} = ${h === 0 ? `vec4<u32>(${v}, ${r.reg}.zw)` : `vec4<u32>(${r.reg}.xy, ${v})`};`);
  const read = (r: Run, k: string) => (!halves && r.n === 8 ? `{ let i = ${index(r, k)}; ${r.reg} = vec4<u32>(${r.arr}[i], ${r.arr}[i + 1]); }`
    : `{ let i = ${index(r, k)}; ${[0, 4].filter((h) => h < r.n).map((h) => `let w${h} = ${r.arr}[i${h ? " + 1" : ""}]; ${take(r, h, `w${h}`)}`).join(" ")} }`);
  const readPiece = (r: Run, k: string, h: number) => `{ let i = ${index(r, k)}; let w${h} = ${r.arr}[i${h ? " + 1" : ""}]; ${take(r, h, `w${h}`)} }`;
  const zero = (r: Run) => (halves ? Array.from({ length: r.n }, (_, e) => `${r.reg}_${e} = 0.0h;`).join(" ") : `${r.reg} = vec${r.n === 8 ? 4 : 2}<u32>(0u);`);
  // 2- and 4-byte loads: the element address of a run's first half (u32), each half into its own register.
  const narrowAt = (r: Run, k: string) => (!carried ? `${at(r, k)}` : k === "0u" ? `u32(${r.reg}p)` : `u32(${r.reg}p + ${r.arr === "A" ? `${s.bk}i` : "bstep"})`);
  const halvesOf = (r: Run) => Array.from({ length: r.n }, (_, e) => e);
  const narrowRead = (r: Run, k: string) => {
    if (feed.bytes === 2) return `{ let i = ${narrowAt(r, k)}; ${halvesOf(r).map((e) => `${r.reg}_${e} = ${r.arr}[i${e ? ` + ${e}u` : ""}];`).join(" ")} }`;
    // Each run of 4 halves: the 3 words covering it (word j holds halves 2j, 2j + 1), the halves shifted down by one on an odd start.
    const four = (h: number) => {
      const [a, b, c] = [0, 1, 2].map((x) => `${r.arr}[j + ${h / 2 + x}u]`);
      return `{ let a = ${a}; let b = ${b}; let c = ${c}; let q = bitcast<vec4<f16>>(vec2<u32>(select(a, (a >> 16u) | (b << 16u), odd), select(b, (b >> 16u) | (c << 16u), odd))); `
        + `${["x", "y", "z", "w"].map((x, e) => `${r.reg}_${h + e} = q.${x};`).join(" ")} }`;
    };
    return `{ let i = ${narrowAt(r, k)}; let j = i >> 1u; let odd = (i & 1u) == 1u; ${[0, 4].filter((h) => h < r.n).map(four).join(" ")} }`;
  };
  // One half alone (the masked way): its own 2-byte load, or the word holding it and the half of it the parity picks.
  const narrowPiece = (r: Run, k: string, e: number) => (feed.bytes === 2 ? `${r.reg}_${e} = ${r.arr}[${narrowAt(r, k)} + ${e}u];`
    : `{ let i = ${narrowAt(r, k)} + ${e}u; let v = bitcast<vec2<f16>>(${r.arr}[i >> 1u]); ${r.reg}_${e} = select(v.x, v.y, (i & 1u) == 1u); }`);
  const narrowFetch = (k: string): string[] => {
    if (!feed.masks) return runs.map((r) => narrowRead(r, k));
    const masks = runs.flatMap((r, n) => halvesOf(r).map((e) => `let m${n}_${e} = ${r.arr === "A" ? `bm + ${r.row} < ${Ms} && ${r.col} + ${e}u < ${Ks} - (${k})`
      : `${r.row} < ${Ks} - (${k}) && bn + ${r.col} + ${e}u < ${Ns}`};`));
    const out: string[] = [];
    if (feed.masks === "uniform") out.push(`let whole = bm + ${s.bm}u <= ${Ms} && bn + ${s.bn}u <= ${Ns} && ${k} + ${s.bk}u <= ${Ks};`, "if (whole) {");
    else out.push(...masks, `let whole = ${runs.flatMap((r, n) => halvesOf(r).map((e) => `m${n}_${e}`)).join(" && ")};`, "if (whole) {");
    for (const r of runs) out.push(`  ${narrowRead(r, k)}`);
    out.push("} else {");
    if (feed.masks === "uniform") out.push(...masks.map((m) => `  ${m}`));
    runs.forEach((r, n) => {
      out.push(`  ${zero(r)}`);
      for (const e of halvesOf(r)) out.push(`  if (m${n}_${e}) { ${narrowPiece(r, k, e)} }`);
    });
    out.push("}");
    return ["{", ...out.map((x) => `  ${x}`), "}"];
  };
  const fetch = (k: string): string[] => {
    if (narrow) return narrowFetch(k);
    if (!feed.masks) return runs.map((r) => read(r, k));
    const masks = runs.flatMap((r, n) => [0, 4].filter((h) => h < r.n).map((h) => {
      const els = [0, 1, 2, 3].map((x) => (r.arr === "A" ? `(bm + ${r.row} < ${Ms} && ${r.col} + ${h + x}u < ${Ks} - (${k}))`
        : `(${r.row} < ${Ks} - (${k}) && bn + ${r.col} + ${h + x}u < ${Ns})`));
      return `let m${n}_${h} = ${els.join(" && ")};`;
    }));
    const out: string[] = [];
    if (feed.masks === "uniform") out.push(`let whole = bm + ${s.bm}u <= ${Ms} && bn + ${s.bn}u <= ${Ns} && ${k} + ${s.bk}u <= ${Ks};`, "if (whole) {");
    else out.push(...masks, `let whole = ${runs.flatMap((r, n) => [0, 4].filter((h) => h < r.n).map((h) => `m${n}_${h}`)).join(" && ")};`, "if (whole) {");
    for (const r of runs) out.push(`  ${read(r, k)}`);
    out.push("} else {");
    if (feed.masks === "uniform") out.push(...masks.map((m) => `  ${m}`));
    runs.forEach((r, n) => {
      out.push(`  ${zero(r)}`);
      for (const h of [0, 4].filter((x) => x < r.n)) out.push(`  if (m${n}_${h}) ${readPiece(r, k, h)}`);
    });
    out.push("}");
    return ["{", ...out.map((x) => `  ${x}`), "}"];
  };
  // Staged half by half, as both kernels stage (packed: two halves out of each u32).
  const store = (r: Run, arr: string, base: string) => Array.from({ length: r.n }, (_, e) => `${arr}[${base}${e ? ` + ${e}u` : ""}] = ${halves ? `${r.reg}_${e}` : `bitcast<vec2<f16>>(${r.reg}[${e >> 1}]).${e & 1 ? "y" : "x"}`};`).join(" ");
  const put = (stage: string): string[] => {
    const out: string[] = [];
    for (const [arr, X, size, stride] of [["sa", "A", sizeA, sa], ["sb", "B", sizeB, sb]] as const) {
      const mine = runs.filter((r) => r.arr === X);
      if (tiled) out.push(`{ let at = ${stage} * ${size}u + ${X}r * ${stride}u + ${X}c; ${mine.map((r) => store(r, arr, `at + ${r.off}u`)).join(" ")} }`);
      else for (const r of mine) out.push(`{ let at = ${stage} * ${size}u + ${r.row} * ${stride}u + ${r.col}; ${store(r, arr, "at")} }`);
    }
    return out;
  };
  return { declare, fetch, put, advance };
}

/** The variants of a full run at size (M = N = K). */
export function handVariants(size: number, emulate: boolean): HandMatmul[] {
  const b = BEST_244;
  if (emulate) {
    const small = { ...b, bm: 64, bn: 64, sm: 2, sn: 2 }; // 2×2 matrices per subgroup
    return [small, { ...small, acc: "f16" }, { ...small, schedule: "late", sgOrder: "m" }, { ...small, schedule: "unroll2" }, { ...small, schedule: "dyn2" },
      { ...small, schedule: "dyn2-const-loads" }, { ...small, schedule: "dyn2-const-stores" }, { ...small, schedule: "zero-offset" },
      { ...small, schedule: "loop-zero-offset", order: "grouped" }, { ...small, cOut: "staged" }, { ...small, bk: 16, pad: 4 },
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: true } }, { ...small, feed: { bytes: 16, sizes: "runtime", masks: true } },
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: "uniform" } },
      // §43's properties (each variant was checked on lavapipe, NOTES §43; four stay here, to keep the record's
      // QUICK step short): every property at once; carried addresses alone (runs of 8) and with tiled runs (packed
      // registers); the three with per-element masks. The tiled layout is 4 runs a tile and invocation here, 8 on the device.
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: "uniform", regs: "halves", addresses: "carried", runs: "tiled", trips: "runtime", accumulators: "array", cBuffer: true } },
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: "uniform", addresses: "carried" } },
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: "uniform", addresses: "carried", runs: "tiled" } },
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: true, regs: "halves", addresses: "carried", runs: "tiled" } },
      // A test per operand (§44).
      { ...small, feed: { bytes: 8, sizes: "runtime", masks: "uniform", tests: "two" } },
      // A half a load, and the words covering each run of 4 shifted on its parity (1024³'s element loads).
      { ...small, feed: { bytes: 2, sizes: "runtime", masks: "uniform", regs: "halves" } },
      { ...small, feed: { bytes: 4, sizes: "runtime", masks: "uniform", regs: "halves" } },
      { ...small, feed: { bytes: 16, sizes: "runtime", masks: "uniform", shifted: true } },
      { ...small, feed: { bytes: 16, sizes: "runtime", masks: "uniform", shifted: "carried" } }];
  }
  if (size < 4096) {
    const s64 = { ...b, bm: 64, bn: 64 }; // 4 subgroups of 2×2
    return [s64, { ...s64, sgOrder: "m" }, { ...s64, order: "grouped" }, { ...s64, acc: "f16" }, { ...s64, bk: 64 }, { ...s64, pad: 16 },
      { ...b, bm: 64, bn: 128, sm: 1, sn: 2 }, { ...b, bm: 128, bn: 64, sm: 2, sn: 1 }, { ...s64, cOut: "staged" }, { ...s64, schedule: "late" }, b,
      { ...b, bm: 64, bn: 128, sm: 2, sn: 2 }, { ...b, bm: 128, bn: 64, sm: 4, sn: 2 },
      // What the odd size's element-by-element loads cost (1000×1001×1003: no row of A or B starts on a multiple
      // of 4 halves), at 1024³ where everything else is equal: 16-byte loads, then a half a load, then the
      // words covering each run of 4 shifted on its parity, then the two 16-byte chunks covering each run of 8
      // shifted by its start mod 8 (NOTES §75); run-time sizes and the uniform test in all four.
      ...[{ ...s64, bk: 64 }, { ...b, bm: 64, bn: 128, sm: 2, sn: 2 }].flatMap((x) => [
        { ...x, feed: { bytes: 16, sizes: "runtime", masks: "uniform" } },
        { ...x, feed: { bytes: 2, sizes: "runtime", masks: "uniform", regs: "halves" } },
        { ...x, feed: { bytes: 4, sizes: "runtime", masks: "uniform", regs: "halves" } },
        { ...x, feed: { bytes: 16, sizes: "runtime", masks: "uniform", shifted: true } },
        { ...x, feed: { bytes: 16, sizes: "runtime", masks: "uniform", shifted: "carried" } }] satisfies HandMatmul[]),
      // The odd size's own configs (64×64×32 over 4 and 8) in the feeds that also run at 1000×1001×1003 (§84).
      ...ODD_CONFIGS.slice(1).flatMap((x) => [{ ...x, feed: { bytes: 16, sizes: "runtime", masks: "uniform" } } satisfies HandMatmul, ...oddFeeds(x)])];
  }
  const out: HandMatmul[] = [b];
  // What the 244 kernel has that the generated code lacked, one at a time.
  out.push({ ...b, order: "grouped" }, { ...b, sgOrder: "m" }, { ...b, schedule: "late" }, { ...b, cOut: "staged" },
    { ...b, order: "grouped", sgOrder: "m", schedule: "late", cOut: "staged" });
  // BK × padding.
  for (const bk of [16, 32, 64]) for (const pad of [4, 8, 16]) if (!(bk === 32 && pad === 8)) out.push({ ...b, bk, pad });
  // The f16 → f16 configuration; 4×8 matrices per subgroup; bigger tiles.
  out.push({ ...b, acc: "f16" }, { ...b, acc: "f16", bn: 256, sn: 2 }, { ...b, acc: "f16", bm: 256, bn: 256, sm: 2, sn: 4 },
    { ...b, acc: "f16", bm: 256, bn: 128, sm: 4, sn: 2 }, { ...b, bn: 256 }, { ...b, bm: 256, sm: 4 }, { ...b, bm: 256, bn: 128, sm: 4, sn: 2, bk: 64, pad: 8 },
    { ...b, bm: 128, bn: 256, sm: 2, sn: 4 }, { ...b, sm: 2, sn: 4 }, { ...b, sm: 4, sn: 2 }, { ...b, bm: 64, bn: 256, sm: 1, sn: 4 },
    { ...b, bm: 128, bn: 256, sm: 2, sn: 4, acc: "f16" }, { ...b, bm: 128, bn: 256, sm: 2, sn: 4, order: "grouped" });
  // Two buffers: constant offsets, run-time offsets, and what in the run-time version costs.
  for (const schedule of ["unroll2", "dyn2", "dyn2-const-loads", "dyn2-const-stores", "zero-offset", "loop-zero-offset"] as const) out.push({ ...b, schedule });
  // C stored as generated code stores it: a run-time stride, a branch on a shared value.
  for (const stride of ["constant", "runtime"] as const) for (const branch of ["plain", "uniform-load"] as const) out.push({ ...b, cStore: { stride, branch } });
  out.push({ ...b, cStore: { stride: "runtime", branch: "none" } });
  // Where the best kernel's time goes: the loop without its global loads, without its multiplies.
  out.push({ ...b, isolate: "no-global" }, { ...b, isolate: "no-mma" });
  // The generated code's global loads, one property at a time, then all three (NOTES §39).
  out.push({ ...b, feed: { bytes: 8, sizes: "constant", masks: false } }, { ...b, feed: { bytes: 16, sizes: "runtime", masks: false } },
    { ...b, feed: { bytes: 16, sizes: "runtime", masks: true } }, { ...b, feed: { bytes: 8, sizes: "runtime", masks: true } },
    // The masks tested once a trip on scalars (what a code generator can do where the mask is `affine < scalar`).
    { ...b, feed: { bytes: 16, sizes: "runtime", masks: "uniform" } }, { ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform" } });
  // The rest of the generated feed on top of the last (207.3 on the H100, §41), one at a time, in pairs, all three (NOTES §43);
  // then all three with the masks per element (the generated code's default form).
  for (const x of ISO_FEEDS) out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", ...x } });
  out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: true, regs: "halves", addresses: "carried", runs: "tiled" } });
  // The generated loop's trip count (read off the WGSL for §43), alone and with the three.
  out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", trips: "runtime" } },
    { ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", regs: "halves", addresses: "carried", runs: "tiled", trips: "runtime" } });
  // The accumulator array and C's staging buffer (§43 (g), (i)), each alone, then with everything above.
  out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", accumulators: "array" } }, { ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", cBuffer: true } },
    { ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", regs: "halves", addresses: "carried", runs: "tiled", trips: "runtime", accumulators: "array", cBuffer: true } });
  // C's buffer at other sizes (§44): whether its cost follows its bytes, and where it starts.
  for (const rows of [2, 8, 16, 24, 28]) out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", cBuffer: rows } });
  // A test per operand, as generated (§44's open difference).
  out.push({ ...b, feed: { bytes: 8, sizes: "runtime", masks: "uniform", tests: "two" } });
  return out;
}

/** 64×64×64 over 4 (1024³'s leader), 64×64×32 over 4 and over 8 (the odd size's leader, generated). */
const ODD_CONFIGS: HandMatmul[] = [{ ...BEST_244, bm: 64, bn: 64, bk: 64 }, { ...BEST_244, bm: 64, bn: 64 }, { ...BEST_244, bm: 64, bn: 64, sm: 2, sn: 4 }];

/** The feeds that run where the tiles don't divide the sizes (`handEdges`): a half a load, and 16-byte chunks shifted and carried. */
function oddFeeds(x: HandMatmul): HandMatmul[] {
  return [{ ...x, feed: { bytes: 2, sizes: "runtime", masks: "uniform", regs: "halves" } }, { ...x, feed: { bytes: 16, sizes: "runtime", masks: "uniform", shifted: "carried" } }];
}

/**
 * What the generated odd size has that the hand-written carried chunks have not, one at a time (NOTES §84):
 * tutorial 03's grouped order, C's staging buffer declared, a tile test per operand, all three.
 */
function oddGenerated(x: HandMatmul): HandMatmul[] {
  const f = { bytes: 16, sizes: "runtime", masks: "uniform", shifted: "carried" } as const;
  return [{ ...x, order: "grouped", feed: f }, { ...x, feed: { ...f, cBuffer: true } }, { ...x, feed: { ...f, tests: "two" } }, { ...x, order: "grouped", feed: { ...f, cBuffer: true, tests: "two" } },
    // C's buffer as small as the generated edge tiles' slices (4 KiB at 4 subgroups: 15 rows of 68 floats), and smaller.
    ...[4, 8, 15].map((rows) => ({ ...x, feed: { ...f, cBuffer: rows } }))];
}

/**
 * The variants at sizes the tiles don't divide (1000×1001×1003, NOTES §84): the odd size's reads by hand, edge
 * programs and all, against the same kernels at 1024³ (`handVariants(1024)` has them). Emulated: 64×64 over 4 only.
 */
export function handOddVariants(emulate: boolean): HandMatmul[] {
  return emulate ? [{ ...BEST_244, bm: 64, bn: 64 }].flatMap((x) => [...oddFeeds(x), ...oddGenerated(x)]) : [...ODD_CONFIGS.flatMap(oddFeeds), ...oddGenerated(ODD_CONFIGS[0])];
}

/** The rows of C's staging buffer a `feed.cBuffer` declares (true: 32, as generated at BN 128). */
function cRows(cBuffer: true | number): number {
  return cBuffer === true ? 32 : cBuffer;
}

/** §43's properties on top of 8-byte loads, run-time sizes and the uniform test: each alone, the pairs, all three. */
const ISO_FEEDS: Pick<NonNullable<HandMatmul["feed"]>, "regs" | "addresses" | "runs" | "trips">[] = [
  { regs: "halves" }, { addresses: "carried" }, { runs: "tiled" },
  { regs: "halves", addresses: "carried" }, { regs: "halves", runs: "tiled" }, { addresses: "carried", runs: "tiled" },
  { regs: "halves", addresses: "carried", runs: "tiled" },
];

// The suite's half-precision cases (issue 13 item 2; bench/NOTES.md §16): vector add of 2^24
// halves, and examples/matmul-f16.kernel.ts (f16 A and B, f32 accumulator and C) at an odd size
// checked in full and at 1024³ and 4096³ checked on samples, all against float64 of the
// f16-rounded inputs. Each matmul variant runs on subgroup matrices where the device offers them
// (KERNEL_LAB_DAWN_FLAGS, README) and again on the generic tiled path (`subgroupMatrixDot: false`).
// They need `shader-f16`; suite.ts skips them, saying so, where the adapter lacks it.

import { f16FromBits, f16ToBits, roundF16 } from "../src/ir/f16";
import type { Case } from "./case";
import { attentionRows, noSoftmaxRows } from "./attention-check";
import type { KnobRequest } from "../src/harness/autotune/knob-candidates";
import type { KnobSetting } from "../src/ir/knobs";

/** A case of the suite (bench/case.ts) that needs shader-f16; its Uint16Array args are halves. */
export type F16Case = Case & { requires: "shader-f16" };

/**
 * n halves (as bits) drawn from a normal distribution, through f32 bit patterns: f16ToBits takes
 * ~0.5 µs an element here, too slow for 4096² matrices. Normal f32 values (|x| < 8 here) only:
 * the half's exponent is the float's rebased, the mantissa rounded to nearest, ties to even.
 */
function randnHalves(n: number): Uint16Array {
  const floats = new Float32Array(n);
  for (let i = 0; i < n; i++) floats[i] = Math.sqrt(-2 * Math.log(Math.random() || 1e-12)) * Math.cos(2 * Math.PI * Math.random());
  return halfBitsOf(floats);
}

/** The half nearest each float (finite, below 65504), as bits. */
export function halfBitsOf(floats: Float32Array): Uint16Array {
  const n = floats.length;
  const words = new Uint32Array(floats.buffer);
  const out = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    const w = words[i];
    const exponent = ((w >>> 23) & 0xff) - 127 + 15;
    // Below the smallest normal half (|x| < 2^-14, rare): the exact, slow conversion.
    if (exponent <= 0) {
      out[i] = f16ToBits(floats[i]);
      continue;
    }
    const mantissa = w & 0x7fffff;
    const rest = mantissa & 0x1fff;
    let half = ((w >>> 16) & 0x8000) | (exponent << 10) | (mantissa >>> 13);
    if (rest > 0x1000 || (rest === 0x1000 && (half & 1))) half++;
    out[i] = half;
  }
  return out;
}

const halvesOf = (bits: Uint16Array) => Float64Array.from(bits, f16FromBits);

export function vectorAddF16(n: number): F16Case {
  return {
    name: `add-f16-${Math.log2(n)}`,
    example: "vector-add-f16",
    kernel: "add_f16_kernel",
    shape: `2^${Math.log2(n)} f16`,
    configs: [{ BLOCK_SIZE: 1024 }, { BLOCK_SIZE: 2048 }, { BLOCK_SIZE: 4096 }],
    grid: (c) => [Math.ceil(n / c.BLOCK_SIZE)],
    args: () => ({ x_ptr: randnHalves(n), y_ptr: randnHalves(n), output_ptr: new Uint16Array(n).fill(0x7e00), n_elements: n }),
    outputs: ["output_ptr"],
    // f16 + f16 is rounded once: the expected value is the float64 sum rounded to a half, exactly.
    check: (a) => {
      const x = halvesOf(a.x_ptr as Uint16Array);
      const y = halvesOf(a.y_ptr as Uint16Array);
      return [{ output: "output_ptr", expected: Float64Array.from(x, (v, i) => roundF16(v + y[i])) }];
    },
    bytes: 6 * n,
    targets: [{ preferredWorkgroupSize: 256 }],
    requires: "shader-f16",
  };
}

/** C[i][j] in float64 for the (i, j) pairs listed. */
function sampledProduct(a: Float64Array, b: Float64Array, n: number, k: number, indices: Int32Array): Float64Array {
  return Float64Array.from(indices, (idx) => {
    const [i, j] = [Math.floor(idx / n), idx % n];
    let acc = 0;
    for (let p = 0; p < k; p++) acc += a[i * k + p] * b[p * n + j];
    return acc;
  });
}

/** Every element up to ~1.1M, else the last row and column in full (the masked edges) and 4096 random ones. */
function checkedIndices(m: number, n: number): Int32Array {
  if (m * n <= 1 << 20) return Int32Array.from({ length: m * n }, (_, i) => i);
  const edges = [...Array.from({ length: n }, (_, j) => (m - 1) * n + j), ...Array.from({ length: m }, (_, i) => i * n + n - 1)];
  return Int32Array.from([...edges, ...Array.from({ length: 4096 }, () => Math.floor(Math.random() * m * n))]);
}

/** The matmul's candidates on subgroup matrices: tile, subgroups (num_warps) and each one's matrices (NOTES §19). */
const MATMUL_CONFIGS: Record<string, number>[] = [
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4, num_stages: 1 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 8, num_stages: 1 },
  { BLOCK_M: 256, BLOCK_N: 128, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 128, BLOCK_N: 256, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64, num_warps: 4 },
  { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 },
  { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4, num_stages: 1 },
  { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32, num_warps: 4 },
  { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 64, num_warps: 4 },
  { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 128, BLOCK_N: 64, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 8 },
  { BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32, num_warps: 2 },
  { BLOCK_M: 64, BLOCK_N: 128, BLOCK_K: 64, num_warps: 4 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 64, num_warps: 8 },
  { BLOCK_M: 32, BLOCK_N: 128, BLOCK_K: 32, num_warps: 4 },
  { BLOCK_M: 128, BLOCK_N: 128, BLOCK_K: 32, num_warps: 16 },
  { BLOCK_M: 256, BLOCK_N: 128, BLOCK_K: 32, num_warps: 16 },
];

export function matmulF16(m: number, n: number, k: number): F16Case {
  // 4096²: the large tiles; 1024²: tiles that give the 132 SMs work (64×64: 256 programs); odd sizes: two, for the masked edges.
  const pick = (...i: number[]) => i.map((j) => MATMUL_CONFIGS[j]);
  // The leaders with divisibility first: the knobs below are tried on the first three. Since the
  // default runs of 8 (NOTES §63), at 4096² 128×128 over 4 subgroups of 4×4 (the hand-written 244
  // TFLOP/s kernel's shape; 62.5 generated in NOTES §21, spilled), 128×256 over 8, 128×128×64 over 8;
  // at 1024² 64×64×64 over 4, then 64×64 over 8 (the leader in runs of 4), 64×128 and 128×64 over 4.
  // Odd sizes: 64×64 over 8 (the default's leader), 64×64×64 over 4 (the leader in shifted chunks, split indices,
  // the K loop peeled: NOTES §84), 64×64 over 4, then 128×128 over 4, then 1024³'s 128×64 and 64×128 over 8 (§57).
  const configs = m * n >= 1 << 24 ? pick(0, 5, 17, 20, 4, 1, 19, 7) : m % 64 === 0 ? pick(11, 14, 6, 10, 13, 12, 8, 16) : pick(14, 11, 8, 0, 13, 12);
  return {
    name: `matmul-f16-${m}x${n}x${k}`,
    example: "matmul-f16",
    kernel: "matmul_f16_kernel",
    shape: `${m}×${n}×${k} f16`,
    configs,
    grid: (c) => [Math.ceil(m / c.BLOCK_M) * Math.ceil(n / c.BLOCK_N)],
    args: () => ({
      a_ptr: randnHalves(m * k), b_ptr: randnHalves(k * n), c_ptr: new Float32Array(m * n).fill(NaN), M: m, N: n, K: k,
      stride_am: k, stride_ak: 1, stride_bk: n, stride_bn: 1, stride_cm: n, stride_cn: 1,
    }),
    outputs: ["c_ptr"],
    check: (a) => {
      const indices = checkedIndices(m, n);
      return [{ output: "c_ptr", indices, expected: sampledProduct(halvesOf(a.a_ptr as Uint16Array), halvesOf(a.b_ptr as Uint16Array), n, k, indices) }];
    },
    flops: 2 * m * n * k,
    // The first three configs again: in runs of 4 as before NOTES §63 (runsOf8: false), with and
    // without "tile" (the masks tested once a trip on scalars, NOTES §41), the K loop peeled (NOTES §56),
    // C through registers as before NOTES §21 (mmaDirectStore: false), each run read without a branch
    // (halfLoadForm "select"), rows not known aligned read shifted, packed or not (NOTES §28), and
    // read in words, with and without the tile test (NOTES §67).
    // Settings that give the default's WGSL at a size (runs of 4 where no run is aligned; shifted
    // where every run is) are not timed again. (Without divisibility and with scalar f16 loads,
    // NOTES §19–§20, they ran at half these; the generic path at a third.)
    targets: [{ runsOf8: false }, { runsOf8: false, halfLoadForm: "tile" }, { wholeTrips: true }, { mmaDirectStore: false }, { halfLoadForm: "select" }, { shiftedHalfRows: true }, { shiftedHalfRows: true, mmaPackedPrefetch: true }, { shiftedHalfRows: "words" }, { shiftedHalfRows: "words", halfLoadForm: "tile" }],
    targetConfigs: 3,
    minReps: 10,
    // Converting to halves in JavaScript is slow (~1 s per 16M elements): few input sets. At
    // 4096³ one set (64 MiB of A and B) already exceeds the 50 MiB L2.
    copies: m * k >= 1 << 24 ? 1 : 4,
    requires: "shader-f16",
  };
}

/**
 * examples/attention-f16.kernel.ts (Triton tutorial 06 in f16): Z × H heads of n tokens × d, f16
 * Q, K, V and Out; 24 rows (the last one among them) checked against float64 of the f16 inputs.
 * Against that reference the kernel rounds P and Out to halves (2^-11 relative each), so a
 * correct result is within 2e-3 (L2, relative) rather than 1e-4.
 */
export function attentionF16(z: number, h: number, n: number, d: number, causal: boolean, quick = false): F16Case {
  const size = z * h * n * d;
  const base = { HEAD_DIM: d, IS_CAUSAL: causal ? 1 : 0 };
  return {
    name: `attention-f16-${z}x${h}x${n}x${d}${causal ? "-causal" : ""}`,
    example: "attention-f16",
    kernel: "attn_fwd_f16",
    shape: `${z}×${h}×${n}×${d} f16${causal ? " causal" : ""}`,
    configs: quick
      ? [{ BLOCK_M: 32, BLOCK_N: 16, num_warps: 2, ...base }]
      : [
          // 2026-12-04 (NOTES §19): 64×64 w4 47.6 TFLOP/s, 64×32 w4 39.8, 64×128 w4 24.7, 128×32
          // w8 21.0, 128×64 w8 23.2, 128×64 w4 14.2; then (NOTES §20) 64×64 over 8 subgroups 59.1,
          // 64×128 w8 37.7, 128×64 w16 23.7 (the last two no longer timed: the attn part's 4
          // minutes go to the knobs). The leader first, then the hand-written kernel's shape
          // (NOTES §25: 128×32 over 4 subgroups of 32 rows), also with K and V read one block
          // ahead (num_stages 2, as the hand-written kernel reads them), and its second best,
          // 64×32 over 2 subgroups of 32 rows (92.3 TFLOP/s by hand): the knobs are tried on
          // these four (NOTES §29, §31).
          // 2026-12-06 (NOTES §54): the leader reading K and V a block ahead ran 19% faster at the
          // default knobs, so it comes second and is crossed with the leader's knobs.
          { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, ...base },
          { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, num_stages: 2, ...base },
          { BLOCK_M: 128, BLOCK_N: 32, num_warps: 4, ...base },
          { BLOCK_M: 128, BLOCK_N: 32, num_warps: 4, num_stages: 2, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, num_warps: 2, ...base },
          { BLOCK_M: 64, BLOCK_N: 32, num_warps: 4, ...base },
        ],
    grid: (c) => [Math.ceil(n / c.BLOCK_M), z * h],
    args: () => ({
      Q: randnHalves(size), K: randnHalves(size), V: randnHalves(size), Out: new Uint16Array(size).fill(0x7e00), sm_scale: 1 / Math.sqrt(d),
      stride_z: h * n * d, stride_h: n * d, stride_m: d, stride_k: 1, H: h, N_CTX: n,
    }),
    outputs: ["Out"],
    check: (a) => {
      const [q, k, v] = [a.Q, a.K, a.V].map((x) => halvesOf(x as Uint16Array));
      return attentionRows(q, k, v, { z, h, n, d, causal }, quick ? 8 : 24);
    },
    flops: (4 * z * h * n * n * d) / (causal ? 2 : 1),
    // The first configs again without a branch per load and without divisibility (NOTES §19), and
    // with Q held in matrices and the lean barriers, also over 4 subgroups along M (NOTES §29), and
    // with lane rows besides (NOTES §31).
    targets: quick ? [] : [
      { halfLoadForm: "tile" }, { halfLoadForm: "select" }, { divisibility: false },
      { mmaHoldInvariant: true, mmaLeanBarriers: true }, { mmaHoldInvariant: true, mmaLeanBarriers: true, mmaSubgroupsM: 4 },
      { mmaHoldInvariant: true, mmaLeanBarriers: true, mmaLaneRows: true },
    ],
    targetConfigs: quick ? 1 : 4,
    // With --tune-codegen (the attn record part, ~4 minutes for both cases; NOTES §31, §54): the
    // first four configs crossed. 64×64 over 8, in the trip and a block ahead: the leader's knobs
    // added one at a time, the loop not peeled, the transfer rows padded (6 settings each); 128×32 in the load form, Q held, the lean barriers,
    // lane rows and the deferred row sums (lane rows split both products along M as the
    // hand-written kernel does, so the split is not crossed); 128×32 reading a block ahead at the
    // default, Q held with the lean barriers, and those with lane rows (3). Q staged once stays on
    // (Q held needs it).
    tuneKnobs: (c): KnobRequest | KnobSetting[] => {
      const held = { mmaHoldInvariant: true, mmaLeanBarriers: true };
      // 64×64 over 8, K and V read in the trip or a block ahead: the leader's knobs one by one
      // (NOTES §51, §54), the key loop peeled as by default, then not, and with the transfer rows
      // padded by 8 (§56; 6 settings).
      if (c.BLOCK_M === 64 && c.BLOCK_N === 64) {
        const select: KnobSetting = { halfLoadForm: "select", deferRowSums: true };
        const split: KnobSetting = { ...select, lazyRowMax: true, splitTileIndices: true };
        return [{}, select, { ...select, lazyRowMax: true }, split, { ...split, wholeTrips: false }, { ...split, mmaTransferPad: 8 }];
      }
      if (c.num_stages === 2) return [{}, held, { ...held, mmaLaneRows: true }];
      if (c.num_warps === 2) return [{}, held, { ...held, mmaLaneRows: true }, { ...held, mmaLaneRows: true, halfLoadForm: "select" }];
      return ["halfLoadForm", "mmaHoldInvariant", "mmaLeanBarriers", "mmaLaneRows", "deferRowSums"];
    },
    maxCrossed: 16,
    tolerance: 2e-3,
    minReps: 3,
    copies: 1,
    requires: "shader-f16",
  };
}

/**
 * What the softmax costs the generated attention (NOTES §42): examples/attention-f16 and the same
 * kernel with its online softmax taken out (bench/kernels/attention-f16-no-softmax.kernel.ts: P the
 * scores rounded to f16, both products on the matrices, the same loads, loop and store), at the
 * same settings, to set beside bench/flash-probe.js's hand-written kernel with and without its
 * softmax. The hand-written kernel's shape, 128×32 over 4 subgroups of 32 rows, with lane rows, Q
 * held, the lean barriers and `select` loads (§39: 59.2 TFLOP/s with the softmax) and without lane
 * rows; the leading generated config, 64×64 over 8, with `select` (74.8; lane rows change nothing
 * there: no block of 256 rows); each config at the default knobs too. 5 settings a case. Quick
 * (lavapipe, --emulate-matrices): 64×32 over 2 subgroups, whose 64 rows over 64 invocations take
 * lane rows too. Run only when --only names them (`explicit`): not part of a full run.
 */
export function softmaxIsolationF16(z: number, h: number, n: number, d: number, quick = false): F16Case[] {
  const base = { HEAD_DIM: d, IS_CAUSAL: 0 };
  const configs = quick
    ? [{ BLOCK_M: 64, BLOCK_N: 32, num_warps: 2, ...base }]
    : [{ BLOCK_M: 128, BLOCK_N: 32, num_warps: 4, ...base }, { BLOCK_M: 64, BLOCK_N: 64, num_warps: 8, ...base }];
  const held = { mmaHoldInvariant: true, mmaLeanBarriers: true, halfLoadForm: "select" as const };
  // Without lane rows first: at 64×64 lane rows emit the same WGSL, which is then not timed again.
  const targets = [held, { ...held, mmaLaneRows: true }];
  const shared = {
    configs, targets, targetConfigs: configs.length,
    // --tune-codegen: the same three settings a config (the first its default).
    tuneKnobs: (): KnobSetting[] => [{}, ...targets],
    explicit: true,
  };
  const example = attentionF16(z, h, n, d, false, quick);
  const shape = `${z}×${h}×${n}×${d}`;
  return [
    { ...example, ...shared, name: `isolate-attention-f16-softmax-${z}x${h}x${n}x${d}`, shape: `${shape} f16, the example` },
    {
      ...example, ...shared,
      name: `isolate-attention-f16-nosoftmax-${z}x${h}x${n}x${d}`,
      shape: `${shape} f16, softmax taken out`,
      file: "bench/kernels/attention-f16-no-softmax.kernel.ts",
      kernel: "attn_fwd_f16_no_softmax",
      args: () => {
        const { sm_scale: _, ...args } = example.args();
        return args;
      },
      check: (a) => {
        const [q, k, v] = [a.Q, a.K, a.V].map((x) => halvesOf(x as Uint16Array));
        return noSoftmaxRows(q, k, v, { z, h, n, d, causal: false }, quick ? 8 : 24);
      },
    },
  ];
}

/** examples/matmul-f16.kernel.ts with GROUP_M = 1: its programs walk C's tiles row by row, tutorial 03's grouping undone. */
function rowOrder(text: string): string {
  const grouped = "const GROUP_M = 8;";
  if (!text.includes(grouped)) throw new Error(`isolate-matmul-f16-rows: the example has no "${grouped}"`);
  return text.replace(grouped, "const GROUP_M = 1;");
}

/** The example's grouped program ids replaced by plain row order: two divisions by a run-time tile count, not five (NOTES §85). */
function plainPid(text: string): string {
  const from = text.indexOf("  const num_pid_in_group"), to = text.indexOf("  const offs_m");
  if (from < 0 || to < from) throw new Error("isolate-matmul-f16-pid: the example has no grouped program ids");
  return `${text.slice(0, from)}  const pid_m = pid / num_pid_n;\n  const pid_n = pid % num_pid_n;\n${text.slice(to)}`;
}

/** plainPid with N's tile count a constant (1024 / BLOCK_N): no division at run time. Right only where N = 1024. */
function constPid(text: string): string {
  const runtime = "const num_pid_n = tl.cdiv(N, BLOCK_N);";
  const plain = plainPid(text);
  if (!plain.includes(runtime)) throw new Error(`isolate-matmul-f16-pidconst: the example has no "${runtime}"`);
  return plain.replace(runtime, "const num_pid_n = 1024 / BLOCK_N;");
}

/** The f16 cases of a full run (quick: tiny sizes for lavapipe). */
export function f16Cases(quick: boolean): F16Case[] {
  if (quick) {
    return [
      vectorAddF16(2 ** 14),
      { ...matmulF16(96, 80, 72), configs: [{ BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 }], targets: [] },
      // A cube the hand-written kernels store C unpadded at (suite.js --hand --emulate-matrices checks them through the suite's harness).
      { ...matmulF16(256, 256, 256), configs: [{ BLOCK_M: 64, BLOCK_N: 64, BLOCK_K: 32 }], targets: [], explicit: true },
      attentionF16(1, 2, 100, 64, false, true),
      attentionF16(1, 2, 100, 64, true, true),
      ...softmaxIsolationF16(1, 2, 100, 64, true),
    ];
  }
  return [
    vectorAddF16(2 ** 24),
    matmulF16(1000, 1001, 1003), matmulF16(1024, 1024, 1024), matmulF16(4096, 4096, 4096),
    // What in 1000×1001×1003 costs (issue 28 item 2, NOTES §25), one property at a time: edge tiles
    // with every size a multiple of 16; K not a multiple of 16 (A's rows unaligned); N not (B's, C's).
    matmulF16(1008, 1008, 1008), matmulF16(1024, 1024, 1003), matmulF16(1024, 1001, 1024),
    // The odd size with its programs in row order (the example with GROUP_M = 1; NOTES §84), as the hand-written kernels run.
    { ...matmulF16(1000, 1001, 1003), name: "isolate-matmul-f16-rows-1000x1001x1003", explicit: true, shape: "1000×1001×1003 f16, programs in row order", sourceEdit: rowOrder },
    // 1024³'s program ids, one property at a time (NOTES §85): row order; plain row order (two divisions); no division.
    ...([["rows", "programs in row order", rowOrder], ["pid", "plain row-order program ids", plainPid], ["pidconst", "program ids with N's tile count a constant", constPid]] as const)
      .map(([what, shape, sourceEdit]) => ({ ...matmulF16(1024, 1024, 1024), name: `isolate-matmul-f16-${what}-1024x1024x1024`, explicit: true, shape: `1024³ f16, ${shape}`, targets: [], sourceEdit })),
    attentionF16(4, 32, 4096, 64, false), attentionF16(4, 32, 4096, 64, true),
    ...softmaxIsolationF16(4, 32, 4096, 64),
  ];
}

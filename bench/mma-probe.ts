// The ceiling of tl.dot on subgroup matrices through Dawn (issue 20 item 2, issue 28; bench/NOTES.md §19, §21):
//  - regs: subgroups that only multiply-accumulate f16 × f16 → f32 16×16×16 matrices whose
//    operands were loaded once and stay in registers, TM × TN accumulators each: the rate of
//    the instructions themselves;
//  - matmul: the hand-written WGSL f16 matmuls of bench/mma-kernels.ts (the path's reference set,
//    issue 28) at 4096³ and 1024³, each named by its configuration;
//  - f16: what we checked about the driver bug Dawn guards against (README, Half precision):
//    f16 conversions and arithmetic over 2^20 values, subnormals, infinities and NaN included,
//    bit for bit against IEEE half rounding.
// Every matmul is checked against float64 of its f16 inputs (all of C's last row and column and
// 4096 random elements) before it is timed; a mismatch is printed as BAD and never as a rate.
//
//   node bench/dist/mma-probe.js [--only regs,matmul,f16] [--sizes 4096,1024,1000x1001x1003] [--match REGEX] [--out FILE]
//   (a size MxNxK the tiles do not divide runs the kernels that take edge tiles: mma-kernels.ts handOddVariants)
//   node bench/dist/mma-probe.js --emulate      (lavapipe: the same kernels, matrices emulated, tiny sizes)

import { writeFileSync } from "node:fs";
import { acquireGpu, type Gpu } from "../src/runtime";
import { matrixOps, type MatrixOps } from "../src/codegen/mma-ops";
import type { SubgroupMatrixConfig } from "../src/ir/target";
import { f16FromBits, f16ToBits } from "../src/ir/f16";
import { buffer, pipeline, randnHalves, readFloats, time } from "./hand-run";
import { handCShape, handFits, handGrid, handName, handOddVariants, handVariants, handWgsl, type HandMatmul } from "./mma-kernels";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const emulate = argv.includes("--emulate");
const only = arg("--only")?.split(",");
const wanted = (part: string) => !only || only.includes(part);
/** Each size N (N³) or MxNxK: sizes the tiles don't divide run the kernels that take edge tiles (`handOddVariants`). */
const sizes = (arg("--sizes") ?? (emulate ? "64" : "4096,1024")).split(",").map((x) => {
  const d = x.split("x").map(Number);
  return (d.length === 3 ? d : [d[0], d[0], d[0]]) as [number, number, number];
});
const outFile = arg("--out");
/** --match REGEX: only the hand-written matmuls whose names match. */
const match = arg("--match") ? new RegExp(arg("--match")!) : undefined;
const C16: SubgroupMatrixConfig = { componentType: "f16", resultComponentType: "f32", M: 16, N: 16, K: 16 };

interface Row { part: string; variant: string; size?: number; shape?: string; correct: boolean; relError?: number; medianMs?: number; tflops?: number; note?: string }
const rows: Row[] = [];
const save = () => outFile && writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));

function header(): string[] {
  return emulate
    ? ["enable f16;", ""]
    : ["enable f16;", "enable subgroups;", "enable chromium_experimental_subgroup_matrix;", "diagnostic(off, chromium.subgroup_matrix_uniformity);", ""];
}

function entry(w: number): string {
  return `@compute @workgroup_size(${w})\nfn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32${emulate ? "" : ", @builtin(subgroup_id) sg_id: u32"}) {`;
}
const SG = emulate ? "(lid / 32u)" : "sg_id";

/** A subgroup's accumulators, then `body` with `ops` writing into `lines`. */
function kernel(lines: string[], body: (ops: MatrixOps, emit: (l: string) => void) => void): string {
  const emit = (l: string) => lines.push(`  ${l}`);
  body(matrixOps(emit, emulate), emit);
  lines.push("}");
  return lines.join("\n");
}

// ---- regs: the instructions' rate ----

function regsWgsl(tm: number, tn: number, w: number, iters: number): string {
  const lines = [...header(),
    "@group(0) @binding(0) var<storage, read> A: array<f16>;",
    "@group(0) @binding(1) var<storage, read> B: array<f16>;",
    "@group(0) @binding(2) var<storage, read_write> C: array<f32>;",
    entry(w)];
  return kernel(lines, (ops, emit) => {
    ops.results("acc", C16, tm * tn);
    for (let i = 0; i < tm; i++) ops.operand("left", `l${i}`, C16, "A", `${i * 256}u`, 16, false);
    for (let t = 0; t < tn; t++) ops.operand("right", `r${t}`, C16, "B", `${t * 256}u`, 16, false);
    emit(`for (var it = 0u; it < ${iters}u; it++) {`);
    for (let i = 0; i < tm; i++) for (let t = 0; t < tn; t++) ops.mma(`acc[${i * tn + t}]`, `l${i}`, `r${t}`, C16);
    emit("}");
    // Every subgroup stores its matrices (they are equal); C holds one set per workgroup slot.
    emit(`let base = ((wid.x * ${w / 32}u + ${SG}) % 64u) * ${tm * tn * 256}u;`);
    for (let j = 0; j < tm * tn; j++) ops.storeResult("C", `base + ${j * 256}u`, `acc[${j}]`, 16, C16);
  });
}

function log(row: Row): void {
  rows.push(row);
  save();
  const rate = row.tflops !== undefined ? `${row.tflops.toFixed(1)} TFLOP/s (${row.medianMs!.toFixed(4)} ms)` : row.note ?? "";
  console.log(`${row.part.padEnd(7)} ${(row.shape ? `${row.shape} ` : row.size ? `${row.size}³ ` : "").padEnd(6)}${row.variant.padEnd(52)} ${row.correct ? "ok " : "BAD"} ${row.relError !== undefined ? `rel ${row.relError.toExponential(1)} ` : ""}${rate}`);
}

async function regs(gpu: Gpu): Promise<void> {
  const a = randnHalves(4 * 256), b = randnHalves(4 * 256);
  const [ba, bb] = [buffer(gpu, a, "A"), buffer(gpu, b, "B")];
  const iters = emulate ? 2 : 4096;
  for (const [tm, tn] of [[1, 1], [2, 2], [2, 4], [4, 4]]) {
    // 128 and 256 invocations measured within 10% of each other in the first run (NOTES §19).
    for (const w of argv.includes("--all-shapes") ? [128, 256] : [256]) {
      const bc = buffer(gpu, new Float32Array(64 * tm * tn * 256).fill(NaN), "C");
      const groups = emulate ? 2 : 132 * 16;
      const variant = `operands in registers, ${tm}×${tn} accumulators, ${w} invocations`;
      try {
        const p = await pipeline(gpu, regsWgsl(tm, tn, w, iters), [ba, bb, bc]);
        // Check subgroup 0's first matrix: iters × (left 0 · right 0).
        const enc = gpu.device.createCommandEncoder();
        const pass = enc.beginComputePass();
        pass.setPipeline(p.pipeline);
        pass.setBindGroup(0, p.group);
        pass.dispatchWorkgroups(groups);
        pass.end();
        gpu.device.queue.submit([enc.finish()]);
        const c = await readFloats(gpu, bc, 256);
        let num = 0, den = 0;
        for (let i = 0; i < 16; i++) for (let j = 0; j < 16; j++) {
          let s = 0;
          for (let k = 0; k < 16; k++) s += f16FromBits(a[i * 16 + k]) * f16FromBits(b[k * 16 + j]);
          num += (c[i * 16 + j] - iters * s) ** 2;
          den += (iters * s) ** 2;
        }
        const rel = Math.sqrt(num / den);
        const correct = Number.isFinite(rel) && rel < 1e-3;
        const ms = correct ? await time(gpu, p, [groups, 1]) : undefined;
        const flops = groups * (w / 32) * iters * tm * tn * 2 * 16 * 16 * 16;
        log({ part: "regs", variant, correct, relError: rel, ...(ms ? { medianMs: ms, tflops: flops / ms / 1e9 } : {}) });
      } catch (e) {
        log({ part: "regs", variant, correct: false, note: (e as Error).message.slice(0, 300) });
      }
      bc.destroy();
    }
  }
}

/**
 * The hand-written matmuls of bench/mma-kernels.ts at size³: each checked against float64 of its f16
 * inputs (C's last row and column in full, 4096 random elements; C poisoned with NaN first), then
 * timed. A C in f16 (f16 accumulators) is within f16 accumulation error, not f32's: its error is
 * printed and held to 2e-2. The `isolate` kernels compute no product: timed only, marked so.
 */
async function matmul(gpu: Gpu, [M, N, K]: [number, number, number], shapes: HandMatmul[]): Promise<void> {
  const size = M, shape = M === N && N === K ? undefined : `${M}x${N}x${K}`;
  // C as the kernels store it: M × N, or padded rows of a padded stride where the tiles don't divide it.
  const { stride: CS, rows: CR } = handCShape(M, N);
  const a = randnHalves(M * K), b = randnHalves(K * N);
  // Buffers hold whole 16-byte chunks (a NaN in each padding half: a kernel that keeps one fails the check).
  const padded = (x: Uint16Array) => { const p = new Uint16Array(Math.ceil(x.length / 8) * 8).fill(0x7e00); p.set(x); return p; };
  const [ba, bb] = [buffer(gpu, padded(a), "A"), buffer(gpu, padded(b), "B")];
  const c32 = buffer(gpu, new Float32Array(CR * CS), "C f32"), c16 = buffer(gpu, new Uint16Array(CR * CS), "C f16");
  const indices = [...Array.from({ length: N }, (_, j) => (M - 1) * N + j), ...Array.from({ length: M }, (_, i) => i * N + N - 1), ...Array.from({ length: 4096 }, () => Math.floor(Math.random() * M * N))];
  const av = Float64Array.from(a, f16FromBits), bv = Float64Array.from(b, f16FromBits);
  const want = indices.map((idx) => {
    const [i, j] = [Math.floor(idx / N), idx % N];
    let s = 0;
    for (let k = 0; k < K; k++) s += av[i * K + k] * bv[k * N + j];
    return s;
  });
  for (const s of shapes) {
    if (!handFits(s, M, N, K)) continue;
    const variant = handName(s);
    if (match && !match.test(variant)) continue;
    const half = s.acc === "f16", bc = half ? c16 : c32;
    try {
      const p = await pipeline(gpu, handWgsl(s, M, N, K, emulate), [ba, bb, bc]);
      const grid = handGrid(s, M, N);
      gpu.device.queue.writeBuffer(bc, 0, half ? new Uint16Array(CR * CS).fill(0x7e00) : new Float32Array(CR * CS).fill(NaN));
      const enc = gpu.device.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(p.pipeline);
      pass.setBindGroup(0, p.group);
      pass.dispatchWorkgroups(grid[0], grid[1]);
      pass.end();
      gpu.device.queue.submit([enc.finish()]);
      const words = await readFloats(gpu, bc, half ? CR * CS / 2 : CR * CS);
      const c = half ? Float64Array.from(new Uint16Array(words.buffer), f16FromBits) : words;
      let num = 0, den = 0;
      indices.forEach((idx, q) => { const got = c[Math.floor(idx / N) * CS + (idx % N)]; num += (got - want[q]) ** 2; den += want[q] ** 2; });
      const rel = Math.sqrt(num / den);
      const correct = s.isolate !== undefined || (Number.isFinite(rel) && rel < (half ? 2e-2 : 1e-4));
      // Emulated (lavapipe): checked only; its time says nothing.
      const ms = correct && !emulate ? await time(gpu, p, grid) : undefined;
      log({ part: s.isolate ? "isolate" : "matmul", size, ...(shape ? { shape } : {}), variant, correct, relError: rel, ...(ms ? { medianMs: ms, tflops: (2 * M * N * K) / ms / 1e9 } : {}), ...(s.isolate ? { note: "computes no product: timing only" } : {}) });
    } catch (e) {
      log({ part: "matmul", size, ...(shape ? { shape } : {}), variant, correct: false, note: (e as Error).message.slice(0, 300) });
    }
  }
  [ba, bb, c32, c16].forEach((x) => x.destroy());
}

/** f16 on this driver, bit for bit: f32 → f16 conversion, f16 + f16, f16 × f16, f16 → f32, over 2^20 values. */
async function halfSemantics(gpu: Gpu): Promise<void> {
  const n = 1 << 20;
  const x = new Float32Array(n), y = new Float32Array(n);
  const special = [0, -0, 1, -1, 65504, -65504, 65520, 2 ** -14, 2 ** -24, 2 ** -25, 3 * 2 ** -26, 1e-8, Infinity, -Infinity, NaN, 0.1, 1 / 3, 2049, 4097];
  for (let i = 0; i < n; i++) {
    // Finite floats across the f16 range and past it (exponents 2^-30 … 2^17), some specials.
    x[i] = i < special.length ? special[i] : (Math.random() < 0.5 ? -1 : 1) * 2 ** (Math.random() * 47 - 30);
    y[i] = special[(i * 7) % special.length] * (i % 3 === 0 ? 1 : 0) + (Math.random() - 0.5) * 2 ** (Math.random() * 20 - 10);
  }
  const code = `enable f16;
@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read> Y: array<f32>;
@group(0) @binding(2) var<storage, read_write> O: array<f16>;
@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * 65535u * 256u;
  if (i >= arrayLength(&X)) { return; }
  let a = f16(X[i]);
  let b = f16(Y[i]);
  O[4u * i] = a;
  O[4u * i + 1u] = a + b;
  O[4u * i + 2u] = a * b;
  O[4u * i + 3u] = max(a, b) - min(a, b);
}`;
  const [bx, by, bo] = [buffer(gpu, x, "X"), buffer(gpu, y, "Y"), buffer(gpu, new Uint16Array(4 * n).fill(0x7e00), "O")];
  try {
    const p = await pipeline(gpu, code, [bx, by, bo]);
    const enc = gpu.device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p.pipeline);
    pass.setBindGroup(0, p.group);
    pass.dispatchWorkgroups(n / 256);
    pass.end();
    gpu.device.queue.submit([enc.finish()]);
    // Halves read back as bits (readFloats reads 2 halves a word), widened exactly.
    const words = await readFloats(gpu, bo, 2 * n);
    const o = Float64Array.from(new Uint16Array(words.buffer), f16FromBits);
    const half = (v: number) => f16FromBits(f16ToBits(v));
    const same = (got: number, want: number) => (Number.isNaN(want) ? Number.isNaN(got) : Object.is(got, want) || (got === want && want !== 0));
    const bad = [0, 0, 0, 0];
    let subnormal = 0;
    const first: string[] = [];
    // Inputs out of the f16 range convert to ±inf or are undefined in WGSL (f16(65520) may be an error for constants, implementation-defined at run time): only finite halves are compared for the conversion of |x| ≤ 65504.
    let compared = 0;
    for (let i = 0; i < n; i++) {
      if (!(Math.abs(x[i]) <= 65504) || !(Math.abs(y[i]) <= 65504)) continue;
      compared++;
      const [a, b] = [half(x[i]), half(y[i])];
      const want = [a, half(a + b), half(a * b), half(Math.max(a, b) - Math.min(a, b))];
      for (let q = 0; q < 4; q++) {
        // f16 overflow of a sum or product: WGSL leaves the result undefined; skip those lanes.
        if (!Number.isFinite(want[q])) continue;
        if (!same(o[4 * i + q], want[q]) && !(want[q] === 0 && o[4 * i + q] === 0)) {
          bad[q]++;
          if (Math.abs(want[q]) < 2 ** -14) subnormal++;
          if (first.length < 4) first.push(`[${i}] op ${q}: x ${x[i]} y ${y[i]} got ${o[4 * i + q]} want ${want[q]}`);
        }
      }
    }
    const ok = bad.every((b) => b === 0);
    log({ part: "f16", variant: `conversion, +, ×, max−min over ${compared} finite pairs (subnormals included)`, correct: ok, note: ok ? "bit for bit" : `mismatches conv ${bad[0]} add ${bad[1]} mul ${bad[2]} maxmin ${bad[3]} (${subnormal} of them subnormal results): ${first.join("; ")}` });
  } catch (e) {
    log({ part: "f16", variant: "conversion and arithmetic", correct: false, note: (e as Error).message.slice(0, 300) });
  }
  [bx, by, bo].forEach((b) => b.destroy());
}

async function main(): Promise<void> {
  const gpu = await acquireGpu({ f16: true, f16Dot: true });
  console.log(`adapter: ${gpu.adapter.vendor} ${gpu.adapter.device} ${gpu.adapter.description}; toggles ${gpu.dawnToggles.join(",") || "none"}; f16 ${gpu.target.shaderF16}; subgroup-matrix f16 configs ${(gpu.target.subgroupMatrixConfigs ?? []).filter((c) => c.componentType === "f16").map((c) => `${c.M}×${c.N}×${c.K}→${c.resultComponentType}`).join(" ") || "none"}${emulate ? " (emulated here)" : ""}`);
  if (!emulate && !(gpu.target.subgroupMatrixConfigs ?? []).some((c) => c.componentType === "f16" && c.M === 16 && c.N === 16 && c.K === 16)) console.log("no 16×16×16 f16 subgroup-matrix configuration: regs and matmul will fail");
  if (wanted("f16")) await halfSemantics(gpu);
  if (wanted("regs")) await regs(gpu);
  if (wanted("matmul")) for (const d of sizes) await matmul(gpu, d, d[0] === d[1] && d[1] === d[2] ? handVariants(d[0], emulate) : handOddVariants(emulate));
  save();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

// The hand-written flash-attention forward kernels of bench/flash-kernels.ts (issue 28 item 1): each
// checked against float64 of its f16 inputs before it is timed, causal and not, at Z × H × N × 64.
// Two checks per kernel, each on fresh inputs with Out poisoned (NaN halves) and every element
// required to be written: (1) the timed problem, random normal Q, K, V, 32 rows against float64;
// (2) a problem whose scores grow along the keys (K's rows scaled from 0.5 to 6.5), so that every
// checked row's reference maximum moves past the lazy threshold several times (the count of such
// moves in the checked rows is printed): the O-lazy kernels' rescale is exercised, not only assumed.
//
// The variant without its softmax (`ISOLATE no-softmax`, NOTES §42) is checked the same way against
// its own formula: Out row i = r_i · Σ_j f16(q_i · k_j) · v_j, r_i = 1 / max_d |Σ_j f16(q_i · k_j) · v_jd|.
//
//   node bench/dist/flash-probe.js [--shape 4,32,4096] [--match REGEX] [--out FILE]
//   node bench/dist/flash-probe.js --emulate      (lavapipe: matrices emulated, 1 × 2 × 128)

import { writeFileSync } from "node:fs";
import { acquireGpu, type Gpu } from "../src/runtime";
import { f16FromBits, roundF16 } from "../src/ir/f16";
import { halfBitsOf } from "./f16-cases";
import { attentionFits, attentionGrid, attentionName, attentionVariants, attentionWgsl, LAZY, type HandAttention } from "./flash-kernels";
import { buffer, pipeline, readFloats, time } from "./hand-run";

const argv = process.argv.slice(2);
const arg = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const emulate = argv.includes("--emulate");
const [Z, H, N] = (arg("--shape") ?? (emulate ? "1,2,128" : "4,32,4096")).split(",").map(Number);
const D = 64;
const match = arg("--match") ? new RegExp(arg("--match")!) : undefined;
const outFile = arg("--out");
const rows: Record<string, unknown>[] = [];
const save = () => outFile && writeFileSync(outFile, JSON.stringify({ date: new Date().toISOString(), shape: [Z, H, N, D], rows }, null, 2));

function randn(n: number, scaleOfRow?: (row: number) => number): Uint16Array {
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) f[i] = Math.sqrt(-2 * Math.log(Math.random() || 1e-12)) * Math.cos(2 * Math.PI * Math.random()) * (scaleOfRow ? scaleOfRow(Math.floor(i / D) % N) : 1);
  return halfBitsOf(f);
}

/**
 * Relative L2 error of `rows` checked rows, and how often their lazy reference maximum moved after
 * the first block; `noSoftmax`: against the formula of the kernel without its softmax (above).
 */
function check(q: Uint16Array, k: Uint16Array, v: Uint16Array, out: Uint16Array, causal: boolean, bn: number, count: number, noSoftmax = false): { rel: number; unwritten: number; moves: number } {
  let unwritten = 0;
  for (let i = 0; i < out.length; i++) if ((out[i] & 0x7c00) === 0x7c00) unwritten++;
  const h = (x: Uint16Array, i: number) => f16FromBits(x[i]);
  let num = 0, den = 0, moves = 0;
  const scale = 1 / Math.sqrt(D);
  for (let r = 0; r < count; r++) {
    const zh = Math.floor(Math.random() * Z * H), i = r === 0 ? N - 1 : Math.floor(Math.random() * N);
    const off = zh * N * D, last = causal ? i : N - 1;
    const s = new Float64Array(last + 1);
    let max = -Infinity, ref = -Infinity;
    for (let j = 0; j <= last; j++) {
      let dot = 0;
      for (let c = 0; c < D; c++) dot += h(q, off + i * D + c) * h(k, off + j * D + c);
      s[j] = dot * scale;
      max = Math.max(max, s[j]);
      if ((j + 1) % bn === 0 || j === last) {
        const log2 = max * Math.LOG2E;
        if (ref === -Infinity) ref = log2;
        else if (log2 > ref + LAZY) { ref = log2; moves++; }
      }
    }
    let sum = 0;
    if (noSoftmax) for (let j = 0; j <= last; j++) s[j] = roundF16(s[j] / scale);
    else for (let j = 0; j <= last; j++) sum += (s[j] = Math.exp(s[j] - max));
    const accs = Array.from({ length: D }, (_, c) => {
      let acc = 0;
      for (let j = 0; j <= last; j++) acc += s[j] * h(v, off + j * D + c);
      return acc;
    });
    if (noSoftmax) sum = Math.max(...accs.map(Math.abs));
    for (let c = 0; c < D; c++) {
      const want = accs[c] / sum, got = h(out, off + i * D + c);
      num += (got - want) ** 2;
      den += want ** 2;
    }
  }
  return { rel: Math.sqrt(num / den), unwritten, moves };
}

async function runOnce(gpu: Gpu, a: HandAttention, code: string, inputs: Uint16Array[]): Promise<{ out: Uint16Array; p: Awaited<ReturnType<typeof pipeline>>; bufs: GPUBuffer[] }> {
  const size = Z * H * N * D;
  const bufs = [...inputs.map((x, i) => buffer(gpu, x, "QKV"[i])), buffer(gpu, new Uint16Array(size).fill(0x7e00), "O")];
  const p = await pipeline(gpu, code, bufs);
  const grid = attentionGrid(a, N, Z * H);
  const enc = gpu.device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(p.pipeline);
  pass.setBindGroup(0, p.group);
  pass.dispatchWorkgroups(grid[0], grid[1]);
  pass.end();
  gpu.device.queue.submit([enc.finish()]);
  const words = await readFloats(gpu, bufs[3], size / 2);
  return { out: new Uint16Array(words.buffer), p, bufs };
}

async function main(): Promise<void> {
  const gpu = await acquireGpu({ f16: true, f16Dot: true });
  console.log(`adapter: ${gpu.adapter.vendor} ${gpu.adapter.device}; flash attention ${Z}×${H}×${N}×${D} f16${emulate ? " (emulated matrices)" : ""}`);
  const size = Z * H * N * D;
  const plain = [randn(size), randn(size), randn(size)];
  // Scores that grow along the keys: K's row j scaled by 0.5 + 6·j/N.
  const growing = [randn(size), randn(size, (j) => 0.5 + (6 * j) / N), randn(size)];
  for (const causal of [false, true]) {
    for (const a of attentionVariants(causal, emulate)) {
      const name = attentionName(a);
      if (!attentionFits(a, N) || (match && !match.test(name))) continue;
      const code = attentionWgsl(a, N, emulate);
      try {
        const g = await runOnce(gpu, a, code, growing);
        const noSoftmax = a.isolate === "no-softmax";
        const timingOnly = a.isolate !== undefined && !noSoftmax;
        const c2 = check(growing[0], growing[1], growing[2], g.out, causal, a.bn, emulate ? 8 : 16, noSoftmax);
        g.bufs.forEach((b) => b.destroy());
        const r = await runOnce(gpu, a, code, plain);
        const c1 = check(plain[0], plain[1], plain[2], r.out, causal, a.bn, emulate ? 8 : 32, noSoftmax);
        const ok = timingOnly || (c1.unwritten === 0 && c2.unwritten === 0 && c1.rel < 2e-3 && c2.rel < 2e-3);
        const ms = ok && !emulate ? await time(gpu, r.p, attentionGrid(a, N, Z * H), 9) : undefined;
        const tflops = ms ? (4 * Z * H * N * N * D) / (causal ? 2 : 1) / ms / 1e9 : undefined;
        r.bufs.forEach((b) => b.destroy());
        rows.push({ variant: name, causal, correct: ok, relError: c1.rel, relErrorGrowing: c2.rel, lazyMovesChecked: c2.moves, lazyMovesPlain: c1.moves, timingOnly, unwritten: c1.unwritten + c2.unwritten, medianMs: ms, tflops, wgslChars: code.length });
        console.log(`${name.padEnd(58)} ${ok ? "ok " : "BAD"} rel ${c1.rel.toExponential(1)} growing ${c2.rel.toExponential(1)} (${c2.moves} moves; plain ${c1.moves})${timingOnly ? " timing only" : ""}${c1.unwritten + c2.unwritten ? ` UNWRITTEN ${c1.unwritten + c2.unwritten}` : ""}${tflops ? ` ${tflops.toFixed(1)} TFLOP/s (${ms!.toFixed(3)} ms)` : ""}`);
      } catch (e) {
        rows.push({ variant: name, causal, correct: false, note: (e as Error).message.slice(0, 400) });
        console.log(`${name.padEnd(58)} BAD ${(e as Error).message.slice(0, 400)}`);
      }
      save();
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exit(1);
  },
);

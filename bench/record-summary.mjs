// The table of issue 28's record from the files bench/run-h200-record.sh keeps (a folder): per case the
// generated code at the default knobs and with the autotuner's knobs (suite --tune-codegen), the
// best hand-written kernel (the reference tool's BEST lines in the logs, mma-probe, flash-probe),
// torch and Triton; then what the CLI's autotuner picked with --tune-codegen. Only correct
// measurements count; a missing file is a row of "—".
//
//   node bench/record-summary.mjs FOLDER > FOLDER/summary.md

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: node bench/record-summary.mjs FOLDER");
  process.exit(2);
}
const json = (name) => {
  const file = join(dir, name);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.log(`(${name}: ${error.message})`);
    return undefined;
  }
};
// QUICK writes its attention rows apart (run-h200-record.sh).
const suite = [...(json("kl-f16.json")?.results ?? []), ...(json("kl-f16-attention.json")?.results ?? [])];
const torch = json("torch.json")?.results ?? [];
const probe = json("probe.json")?.rows ?? [];
const flash = json("flash.json")?.rows ?? [];
const cli = json("cli-knobs.json") ?? [];

/** The reference tool's best correct kernel per size, from its `BEST {…}` lines (the size from its `adapter … size N` line). */
function referenceBest() {
  const best = new Map();
  for (const name of readdirSync(dir).filter((f) => f.endsWith(".log"))) {
    let size;
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      const s = /^adapter .* size (\d+)$/.exec(line);
      if (s) size = Number(s[1]);
      if (line.startsWith("BEST ") && size) {
        try {
          const r = JSON.parse(line.slice(5));
          if (r?.ok && (!best.has(size) || best.get(size).tflops < r.tflops)) best.set(size, { tflops: r.tflops, what: `reference ${r.name}` });
        } catch {
          // A truncated line: nothing to count.
        }
      }
    }
  }
  return best;
}

const fmt = (m) => (m ? `${m.tflops.toFixed(1)} (${m.what})` : "—");
const fastest = (rows, what) => rows.filter((r) => r.correct !== false && typeof r.tflops === "number").sort((a, b) => b.tflops - a.tflops).map((r) => ({ tflops: r.tflops, what: what(r) }))[0];
// A --tune-codegen row at the default knobs, or a --targets row with no target (suite.ts); an edited kernel never.
const isDefault = (r) => !r.variant.includes(" edit=") && (r.knobs ? r.variant.endsWith("knobs: default") : !r.target);
const ref = referenceBest();

const cases = [
  ["matmul-f16-4096x4096x4096", 4096],
  ["matmul-f16-1024x1024x1024", 1024],
  ["matmul-f16-1000x1001x1003", undefined],
  ["attention-f16-4x32x4096x64", false],
  ["attention-f16-4x32x4096x64-causal", true],
];
// Other cases the suite measured (QUICK's tiny sizes): their own rows, hand-written column by causality only.
for (const name of new Set(suite.map((r) => r.case))) {
  if (!cases.some(([n]) => n === name)) cases.push([name, name.startsWith("matmul") ? undefined : name.endsWith("-causal")]);
}
const lines = [
  "| case (TFLOP/s) | generated, default knobs | generated, with knobs | hand-written best | torch | Triton |",
  "|---|---|---|---|---|---|",
];
for (const [name, key] of cases) {
  // Hand-written kernels the suite timed beside the case (suite.js --hand) count as hand-written, never as generated.
  const mine = suite.filter((r) => r.case === name && !r.hand && !r.onePass);
  const plain = fastest(mine.filter(isDefault), (r) => r.variant);
  const tuned = fastest(mine, (r) => r.variant);
  let hand;
  if (name.startsWith("matmul")) {
    const probed = fastest(probe.filter((r) => r.part === "matmul" && r.size === key), (r) => r.variant);
    const byRef = typeof key === "number" ? ref.get(key) : undefined;
    const inSuite = fastest(suite.filter((r) => r.case === name && r.hand && !r.onePass), (r) => r.variant);
    hand = [probed, byRef, inSuite].filter(Boolean).sort((a, b) => b.tflops - a.tflops)[0];
  } else {
    hand = fastest(flash.filter((r) => r.causal === key && !r.timingOnly), (r) => r.variant);
  }
  const ours = torch.filter((r) => r.case === name);
  const byTorch = fastest(ours.filter((r) => r.variant.startsWith("torch")), (r) => r.variant);
  const byTriton = fastest(ours.filter((r) => r.variant.startsWith("triton")), (r) => r.variant);
  lines.push(`| ${name} | ${fmt(plain)} | ${fmt(tuned)} | ${fmt(hand)} | ${fmt(byTorch)} | ${fmt(byTriton)} |`);
}
const bad = suite.filter((r) => !r.correct).length + probe.filter((r) => r.correct === false && r.part === "matmul").length;
lines.push("", `Mismatches: ${bad} suite and probe measurement(s) did not match float64 (never counted above).`);

// The CLI's autotuner with --tune-codegen: what it picked per run and size, and whether every candidate matched.
if (Array.isArray(cli) && cli.length > 0) {
  lines.push("", "| CLI run | size | picked | candidates (✓ / timed / same WGSL) | TFLOP/s |", "|---|---:|---|---|---:|");
  for (const file of cli) {
    for (const run of file?.runs ?? []) {
      const tune = run.autotune;
      if (!tune) continue;
      const knobs = Object.entries(tune.codegen ?? {}).map(([k, v]) => `${k}=${v}`);
      const constexprs = Object.entries(tune.picked).map(([k, v]) => `${k}=${v}`);
      const ok = tune.candidates.filter((c) => c.correct).length;
      const timed = tune.candidates.filter((c) => c.medianMs !== null).length;
      lines.push(`| ${run.name} | ${run.size} | ${[...constexprs, ...knobs].join(", ")}${tune.cached ? " (cached)" : ""} | ${ok} / ${timed} / ${tune.identical ?? 0} of ${tune.candidates.length + (tune.identical ?? 0)} | ${run.gflops ? (run.gflops / 1e3).toFixed(1) : "—"} |`);
    }
  }
}
console.log(lines.join("\n"));

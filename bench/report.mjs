// Merges bench/suite.ts's and bench/torch_bench.py's JSON into the table of ratios (markdown).
//   node bench/report.mjs kl.json torch.json > table.md
import { readFileSync } from "node:fs";

const [klFile, torchFile] = process.argv.slice(2);
const kl = JSON.parse(readFileSync(klFile, "utf8"));
const torch = torchFile ? JSON.parse(readFileSync(torchFile, "utf8")) : { results: [] };

const rate = (r) => (r.tflops !== undefined ? r.tflops : r.gbps);
const unit = (r) => (r.tflops !== undefined ? "TFLOP/s" : "GB/s");
const fmt = (x) => (x === undefined ? "—" : x >= 100 ? x.toFixed(0) : x.toFixed(2));

const cases = [...new Set(kl.results.map((r) => r.case))];
// What GB/s counts where it is not plain (the same bytes on both sides; bench/NOTES.md §15).
const counted = {
  "dropout-": "x read and the output written, 8 bytes an element (torch's 1-byte mask not counted)",
  "layernorm-bwd-": "the whole backward (both launches; Triton's with its zero-fills): 4·(3MN + 3N + 2M) bytes — x, dy, dx; w, dW, db; mean, rstd — partial dW/db rows not counted",
};
const lines = [
  `Adapter: ${kl.adapter.vendor} ${kl.adapter.device} (${kl.adapter.backend}); ${torch.device ?? ""} torch ${torch.torch ?? "?"} triton ${torch.triton ?? "?"}; ${kl.date}`,
  "",
  "| case | Kernel Lab best (variant) | builtin | torch | Triton tutorial | KL / torch | KL / Triton | KL, L2 flushed before each launch (as do_bench) | that / torch | that / Triton |",
  "|---|---|---|---|---|---|---|---|---|---|",
];
for (const c of cases) {
  const mine = kl.results.filter((r) => r.case === c && r.correct && !r.hand && !r.onePass && !r.variant.startsWith("builtins."));
  const best = mine.sort((a, b) => a.medianMs - b.medianMs)[0];
  const builtin = kl.results.find((r) => r.case === c && r.variant.startsWith("builtins."));
  const t = torch.results.find((r) => r.case === c && r.variant.startsWith("torch"));
  // The fastest Triton variant (attention tries a few block shapes).
  const tr = torch.results.filter((r) => r.case === c && r.variant.startsWith("triton")).sort((a, b) => a.medianMs - b.medianMs)[0];
  const u = best ? unit(best) : "";
  const ratio = (other) => (best && other ? `${((rate(best) / rate(other)) * 100).toFixed(0)}%` : "—");
  const cold = best && best.coldGbps !== undefined ? { gbps: best.coldGbps } : undefined;
  const coldRatio = (other) => (cold && other ? `${((cold.gbps / rate(other)) * 100).toFixed(0)}%` : "—");
  lines.push(
    `| ${c} | ${best ? `${fmt(rate(best))} ${u} (${best.variant.replaceAll("|", "\\|")}, W=${best.workgroupSize})` : "none correct"} | ${builtin ? `${fmt(rate(builtin))} ${u}` : "—"} | ${t ? `${fmt(rate(t))} ${u}` : "—"} | ${tr ? `${fmt(rate(tr))} ${u}` : "—"} | ${ratio(t)} | ${ratio(tr)} | ${cold ? `${fmt(cold.gbps)} GB/s` : "—"} | ${coldRatio(t)} | ${coldRatio(tr)} |`,
  );
}
const notes = Object.entries(counted).filter(([prefix]) => cases.some((c) => c.startsWith(prefix)));
if (notes.length > 0) lines.push("", ...notes.map(([prefix, text]) => `- \`${prefix}*\`: ${text}.`));
console.log(lines.join("\n"));

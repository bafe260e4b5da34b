// Draws the size sweep (issue 13 item 5) as a PNG: Kernel Lab (back to back, and with the L2
// flushed before each launch), PyTorch and the Triton tutorials, per size, for vector add,
// softmax and matmul.
//   node bench/plot.mjs kl-sweep.json torch-sweep.json out.png
// Renders chart.js in Chromium (playwright-core, /usr/bin/chromium); runs here, not on the GPU machine.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const [klFile, torchFile, outFile] = process.argv.slice(2);
const kl = JSON.parse(readFileSync(klFile, "utf8"));
const torch = JSON.parse(readFileSync(torchFile, "utf8"));

const rate = (r) => (r.tflops !== undefined ? r.tflops : r.gbps);
const best = (rows) => rows.filter((r) => r.correct !== false).sort((a, b) => a.medianMs - b.medianMs)[0];

/** One panel: x = a size read from the case name, y = the rate of each series. */
function panel(prefix, x, title, unit, xLabel) {
  const cases = [...new Set(kl.results.filter((r) => r.case.startsWith(prefix)).map((r) => r.case))];
  const points = cases.map((c) => {
    const mine = best(kl.results.filter((r) => r.case === c && !r.variant.startsWith("builtins.")));
    const t = torch.results.find((r) => r.case === c && r.variant.startsWith("torch"));
    const tr = best(torch.results.filter((r) => r.case === c && r.variant.startsWith("triton")));
    return { x: x(c), kl: mine && rate(mine), cold: mine?.coldGbps, torch: t && rate(t), triton: tr && rate(tr) };
  }).sort((a, b) => a.x - b.x);
  return { title, unit, xLabel, points };
}

const panels = [
  panel("add-", (c) => Number(c.split("-")[1]), "vector add (float32)", "GB/s", "log2(elements)"),
  panel("softmax-", (c) => Number(c.split("x").pop()), "softmax, 4096 rows (float32)", "GB/s", "columns"),
  panel("matmul-", (c) => Number(c.split("-")[1].split("x")[0]), "matmul M = N = K (float32, TF32 off)", "TFLOP/s", "M = N = K"),
];

const html = `<!doctype html><html><body style="margin:0;background:#fff;font-family:sans-serif">
<div style="padding:8px 16px;font-size:15px"><b>Kernel Lab vs PyTorch vs Triton on one NVIDIA H200</b> — ${kl.date.slice(0, 10)}, ${torch.device} (torch ${torch.torch}, triton ${torch.triton}); Kernel Lab through Dawn/Vulkan. Dashed: Kernel Lab with the L2 flushed before each launch (as do_bench times torch and Triton).</div>
<div style="display:flex">${panels.map((_, i) => `<div style="width:600px;height:440px;padding:4px"><canvas id="c${i}"></canvas></div>`).join("")}</div>
<script>${readFileSync(new URL("../node_modules/chart.js/dist/chart.umd.js", import.meta.url), "utf8")}</script>
<script>
const panels = ${JSON.stringify(panels)};
panels.forEach((p, i) => {
  const series = [["Kernel Lab", "kl", "#d62728", []], ["Kernel Lab, L2 flushed", "cold", "#d62728", [6, 4]], ["PyTorch", "torch", "#1f77b4", []], ["Triton tutorial", "triton", "#2ca02c", []]];
  new Chart(document.getElementById("c" + i), {
    type: "line",
    data: { labels: p.points.map((q) => String(q.x)), datasets: series.filter(([, k]) => p.points.some((q) => q[k] !== undefined)).map(([label, k, color, dash]) => ({ label, data: p.points.map((q) => q[k] ?? null), borderColor: color, backgroundColor: color, borderDash: dash, pointRadius: 3, spanGaps: true })) },
    options: { animation: false, responsive: true, maintainAspectRatio: false, plugins: { title: { display: true, text: p.title, font: { size: 15 } } },
      scales: { x: { title: { display: true, text: p.xLabel } }, y: { type: p.unit === "GB/s" ? "logarithmic" : "linear", title: { display: true, text: p.unit } } } },
  });
});
</script></body></html>`;

const { chromium } = require("playwright-core");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const page = await browser.newPage({ viewport: { width: 1840, height: 490 } });
await page.setContent(html);
await page.waitForTimeout(300);
writeFileSync(outFile, await page.screenshot({ fullPage: true }));
await browser.close();
console.log(`wrote ${outFile}`);

// The compiler's share of keystroke-to-diagnostics: `checkFile` on each example, in plain Node,
// the same bundled code the extension runs. Prints one JSON object on stdout:
//   { loadMs, firstCheckMs, files: [{ file, clean: Stats, broken: Stats, sites: number[] }] }
// where `broken` is the text with one character ("x") typed before a `tl.` call inside a kernel,
// the edit the editor benchmark makes, and `sites` are the offsets where that edit gives a
// kernel-lab error (the editor benchmark types at those places).
// Usage: node out/bench/editor/check-time.js [--reps=N] [--cold] FILE...
//   --cold   only { loadMs, firstCheckMs }: what the first check in a fresh process costs
import { readFileSync } from "node:fs";
import { relative } from "node:path";

const argv = process.argv.slice(2);
const reps = Number(argv.find((a) => a.startsWith("--reps="))?.slice(7) ?? 200);
const files = argv.filter((a) => !a.startsWith("--"));

export interface Stats {
  n: number;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  maxMs: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, medianMs: at(0.5), p90Ms: at(0.9), minMs: s[0], maxMs: s[s.length - 1] };
}

const INSERT = "x";

// The compiler loads the way the extension loads it: on first use (TypeScript's compiler API with it).
let started = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkFile } = require("../../src/compile") as typeof import("../../src/compile");
const loadMs = performance.now() - started;

const texts = files.map((f) => readFileSync(f, "utf8"));
started = performance.now();
checkFile(files[0], texts[0]);
const firstCheckMs = performance.now() - started;
if (argv.includes("--cold")) {
  // Only what a fresh process pays: loading the compiler, then its first check.
  process.stdout.write(JSON.stringify({ loadMs, firstCheckMs }) + "\n");
  process.exit(0);
}

function timeChecks(file: string, text: string): Stats {
  for (let i = 0; i < 20; i++) checkFile(file, text); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t = performance.now();
    checkFile(file, text);
    samples.push(performance.now() - t);
  }
  return stats(samples);
}

const out = files.map((file, i) => {
  const text = texts[i];
  const before = checkFile(file, text);
  if (before.length !== 0) throw new Error(`${file} has diagnostics before any edit: ${before.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  // Every `tl.` inside a kernel body where typing one character gives a kernel-lab error.
  const sites: number[] = [];
  const kernelStart = text.indexOf("kernel(function");
  for (let at = text.indexOf("tl.", kernelStart); at >= 0; at = text.indexOf("tl.", at + 1)) {
    if (/[\w.]/.test(text[at - 1])) continue;
    const broken = text.slice(0, at) + INSERT + text.slice(at);
    if (checkFile(file, broken).some((d) => d.severity === "error")) sites.push(at);
  }
  if (sites.length === 0) throw new Error(`${file}: no place where typing ${INSERT} before tl. breaks the kernel`);
  const broken = text.slice(0, sites[0]) + INSERT + text.slice(sites[0]);
  return { file: relative(process.cwd(), file), bytes: text.length, clean: timeChecks(file, text), broken: timeChecks(file, broken), sites };
});

process.stdout.write(JSON.stringify({ reps, insert: INSERT, loadMs, firstCheckMs, files: out }, null, 2) + "\n");

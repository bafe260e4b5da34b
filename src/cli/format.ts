// Human output of `kernel-lab run`: a block per run and size, in the user's words.

import type { AdapterReport, AutotuneReport, LaunchReport, RunReport } from "../harness/report";
import { formatKnobs, sameKnobs, varyingKnobs } from "../ir/knobs";
import { mismatchLine } from "../harness/run/mismatch-text";
import { accessMapText, exerciseAccessText } from "../harness/debug/access-map";
import { bytesText, formatBytes } from "../harness/debug/bytes";

/** Milliseconds with about three significant digits: 0.0123, 1.234, 250.1. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms >= 100) return ms.toFixed(1);
  if (ms >= 1) return ms.toFixed(3);
  return Number(ms.toPrecision(3)).toString();
}

/** A difference or value: exact integers as is, else four significant digits. */
export function formatNumber(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
  if (Number.isInteger(x)) return String(x);
  const a = Math.abs(x);
  return a !== 0 && (a < 1e-4 || a >= 1e6) ? x.toExponential(3) : Number(x.toPrecision(6)).toString();
}

export function describeAdapterReport(a: AdapterReport): string {
  return `${a.vendor} ${a.device} (${a.backend})${a.description ? ` — ${a.description}` : ""}`;
}

export function formatRun(run: RunReport, adapter: AdapterReport | null, withNote = true): string {
  return [...formatRunCheck(run, adapter, withNote), ...formatRunTiming(run)].join("\n");
}

/**
 * The first lines of a run's block: what ran and whether it matched (known before it is timed).
 * `withNote`: the adapter's note (the Dawn toggles asked for) under its line — the first block only.
 */
export function formatRunCheck(run: RunReport, adapter: AdapterReport | null, withNote = true): string[] {
  const constexprs = Object.entries(run.constexprs).map(([k, v]) => `${k}=${v}`);
  const title = run.launches
    ? `${run.name} (${run.launches.length} launches: ${run.launches.map((l) => l.kernel).join(", ")}) · size ${run.size}`
    : `${run.name} (kernel ${run.kernel}) · size ${run.size} · grid [${run.grid.join(", ")}]${constexprs.length ? ` · ${constexprs.join(", ")}` : ""}`;
  const lines = [title];
  if (adapter) lines.push(`  Adapter: ${describeAdapterReport(adapter)}`);
  if (adapter?.note && withNote) lines.push(`  Note: ${adapter.note}`);
  lines.push(`  Max difference: ${formatNumber(run.maxAbsDiff)}`);
  lines.push(`  Match: ${run.correct}`);
  if (run.firstMismatch) {
    const m = run.firstMismatch;
    lines.push(`  First mismatch: ${mismatchLine(m, formatNumber)} (${run.mismatches === 1 ? "1 element differs" : `${run.mismatches} elements differ`})`);
  }
  return lines;
}

/** tl.devicePrint's lines of a run (for stderr), and a note of any the print buffer dropped. */
export function formatPrints(run: RunReport): string[] {
  if (!run.prints) return [];
  const dropped = run.printsDropped ? [`(${run.printsDropped} more lines of tl.devicePrint did not fit the print buffer)`] : [];
  return [...run.prints, ...dropped];
}

/** The rest of a run's block: timing, rates, baseline, autotune table. */
export function formatRunTiming(run: RunReport): string[] {
  const lines: string[] = [];
  if (run.timing) {
    const t = run.timing;
    const steps = t.resolutionMs !== undefined ? `, GPU timestamps in ${formatMs(t.resolutionMs)} ms steps` : "";
    const source = t.source === "timestamp-query" ? steps : `, ${t.source}`;
    const group = (t.launchesPerSample ?? 1) > 1 ? ` of ${t.launchesPerSample} launches each` : "";
    lines.push(`  Median: ${formatMs(t.medianMs)} ms (min ${formatMs(t.minMs)}, max ${formatMs(t.maxMs)}, ${t.reps} rep${t.reps === 1 ? "" : "s"}${group}${source})${run.launches ? ", all launches" : ""}`);
  }
  if (run.launches) lines.push(...formatLaunches(run.launches));
  if (run.gbps !== null) lines.push(`  GB/s: ${run.gbps.toFixed(1)}`);
  if (run.gflops !== null) lines.push(`  GFLOP/s: ${run.gflops.toFixed(1)}`);
  if (run.speedOfLight) lines.push(`  Speed of light: ${run.speedOfLight.message}`);
  if (run.bytes) lines.push(...bytesText(run.bytes));
  if (run.accessMap) lines.push(...accessMapText(run.accessMap));
  if (run.exercise) lines.push(`  Exercise ${run.exercise}: ${run.correct ? "solved: it matches the hidden reference" : "not yet: it does not match the hidden reference"}`);
  if (run.exerciseAccess) lines.push(`  ${exerciseAccessText(run.exerciseAccess)}`);
  if (run.baseline) {
    const b = run.baseline;
    const warning = b.matchesReference === false ? ` (warning: ${b.name}'s output does not match this run's reference)` : "";
    lines.push(`  ${b.name}: ${formatMs(b.medianMs)} ms — kernel is ${b.speedup.toFixed(2)}× as fast${warning}`);
  }
  if (run.autotune) lines.push(...formatAutotune(run.autotune));
  return lines;
}

/** A line per launch of a run with several: its kernel, grid, constexprs and its own median. */
export function formatLaunches(launches: readonly LaunchReport[]): string[] {
  return launches.map((l, i) => {
    const constexprs = Object.entries(l.constexprs).map(([k, v]) => `${k}=${v}`);
    const timing = l.timing ? ` · ${formatMs(l.timing.medianMs)} ms (min ${formatMs(l.timing.minMs)}, max ${formatMs(l.timing.maxMs)})` : "";
    return `    ${i + 1}. ${l.kernel} · grid [${l.grid.join(", ")}]${constexprs.length ? ` · ${constexprs.join(", ")}` : ""}${timing}`;
  });
}

/**
 * The candidates as a table: a column per constexpr (and code-generation knob) that differs
 * between them, the median, the rate, ✓ or ✗; the picked row marked ▸. Notes (why a candidate was
 * not timed) follow its row.
 */
export function formatAutotune(tune: AutotuneReport): string[] {
  const keys = Object.keys(tune.picked);
  const varying = keys.filter((k) => new Set(tune.candidates.map((c) => c.constexprs[k])).size > 1);
  const knobs = varyingKnobs(tune.candidates);
  const columns = varying.length > 0 || knobs.length > 0 ? varying : keys;
  const hasGbps = tune.candidates.some((c) => c.gbps !== null);
  const hasGflops = tune.candidates.some((c) => c.gflops !== null);
  // Where the bytes go, per candidate: what its loads ask for, how often a tile is read, the worst sector use.
  const hasBytes = tune.candidates.some((c) => c.bytes);
  const hasTiles = tune.candidates.some((c) => c.bytes?.tileReads !== undefined);
  const head = [...columns, ...knobs, "Median", ...(hasGbps ? ["GB/s"] : []), ...(hasGflops ? ["GFLOP/s"] : []), ...(hasBytes ? ["Loaded", ...(hasTiles ? ["Tile reads"] : []), "Sector use"] : []), ""];
  const rows = tune.candidates.map((c) => [
    ...columns.map((k) => String(c.constexprs[k] ?? "")),
    ...knobs.map((k) => String(c.codegen?.[k] ?? "")),
    c.medianMs === null ? "—" : `${formatMs(c.medianMs)} ms`,
    ...(hasGbps ? [c.gbps === null ? "—" : c.gbps.toFixed(1)] : []),
    ...(hasGflops ? [c.gflops === null ? "—" : c.gflops.toFixed(1)] : []),
    ...(hasBytes ? [c.bytes ? formatBytes(c.bytes.loadedBytes) : "—", ...(hasTiles ? [c.bytes?.tileReads !== undefined ? `${c.bytes.tileReads}×` : "—"] : []), c.bytes ? `${Math.round(c.bytes.sectorEfficiency * 100)}%` : "—"] : []),
    c.correct ? "✓" : "✗",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd();
  // The picked knobs are named in full: they are what the run was compiled with.
  const picked = [...columns.map((k) => `${k}=${tune.picked[k]}`), ...(tune.codegen ? [formatKnobs(tune.codegen)] : [])].filter(Boolean).join(", ");
  const anyCorrect = tune.candidates.some((c) => c.correct);
  const what = tune.codegen ? "candidates" : "configs";
  const same = tune.identical ? `; ${tune.identical} more gave the same WGSL as another and were not timed` : "";
  const out = [
    anyCorrect
      ? `  Autotune: picked ${picked} of ${tune.candidates.length} ${what}${tune.cached ? " (cached choice; --retune tunes again)" : ""}${same}`
      : `  Autotune: none of ${tune.candidates.length} ${what} matched the reference; ran ${picked}${same}`,
    `    ${line(head)}`,
  ];
  tune.candidates.forEach((c, i) => {
    const isPicked = Object.keys(tune.picked).every((k) => c.constexprs[k] === tune.picked[k]) && (!tune.codegen || sameKnobs(c.codegen, tune.codegen));
    out.push(`  ${isPicked ? "▸" : " "} ${line(rows[i])}${isPicked ? "  picked" : ""}`);
    if (c.note) out.push(`      ${c.note}`);
  });
  return out;
}

// Where the bytes go, beside the speed-of-light verdict: per buffer, the bytes the lanes ask for
// and the distinct bytes touched (their ratio is the reuse caches or blocking must supply); per
// tl.load / tl.store / tl.atomic*, how its lanes' addresses fall into 32-byte sectors and
// 128-byte lines: coalesced, strided (with the stride) or scattered, with a hint at the line for
// a strided fast axis; for a kernel with tl.dot, how many programs read each element of the first
// program's input tiles (the matmul example's A tile N/BLOCK_N times, its B tile M/BLOCK_M times).
// From access-trace.ts: all programs when the grid is small, else its first TRACED_PROGRAMS.

import type { LineMap } from "../../diagnostics/position";
import { WAVE, type AccessTrace, type TracedSite } from "./access-trace";

export type AccessPattern = "coalesced" | "strided" | "scattered" | "broadcast";

export interface BytesAccess {
  kind: "load" | "store" | "atomic";
  param: string;
  line: number;
  column: number;
  pattern: AccessPattern;
  /** Elements between neighbouring lanes, for a strided access. */
  stride?: number;
  /** Sectors (32 bytes) and lines (128 bytes) one warp's request (32 neighbouring lanes) touches, on average. */
  sectorsPerRequest: number;
  linesPerRequest: number;
  /** Bytes the lanes use / bytes of the sectors fetched (1: every byte of every sector used). */
  sectorEfficiency: number;
  /** What to change, for a strided fast axis. */
  hint?: string;
}

export interface BytesBuffer {
  param: string;
  /** Of `requestedBytes`, what loads asked for. */
  loadedBytes: number;
  /** Bytes asked for by active lanes, repeats included. */
  requestedBytes: number;
  /** Distinct bytes touched. */
  uniqueBytes: number;
  /** requested / unique: how many times each byte is asked for. */
  reuse: number;
  /** With tl.dot: how many programs load each element of the first program's tile of this buffer. */
  tileReads?: number;
  /**
   * With tl.dot: of this buffer's loads, the share of elements another program of the same wave
   * (WAVE consecutive programs, access-trace.ts) loaded before — what a cache the wave shares can
   * serve. Grouped ordering (tutorial 03's GROUP_SIZE_M) raises it.
   */
  waveHits?: number;
}

export interface BytesReport {
  /** Programs traced, of `programs` in the grid: the numbers are over the traced ones. */
  traced: number;
  programs: number;
  buffers: BytesBuffer[];
  accesses: BytesAccess[];
  /**
   * With tl.dot, per wave of `programs` consecutive programs (access-trace.ts WAVE), on average:
   * the bytes its loads ask for, and those of elements no earlier program of the same wave loaded —
   * what the wave must fetch from memory when a cache (the L2) holds what it loaded. Grouped
   * ordering (GROUP_SIZE_M) lowers `fetchedBytes`: the matmul example at 512 × 18 × 512 in 32 × 32
   * tiles fetches 20 strips of A and B per wave in row order, 16 with GROUP_SIZE_M = 8.
   */
  wave?: { programs: number; loadedBytes: number; fetchedBytes: number };
}

/** Grids of up to this many programs are traced whole; larger ones, their first this many. */
export const TRACED_PROGRAMS = 1024;

/** A strided fast axis gets a hint from this many bytes between neighbouring lanes (each lane its own 32-byte sector). */
const HINT_BYTES = 32;

export function bytesReport(trace: AccessTrace, totalPrograms: number, hasDot: boolean, lines: LineMap): BytesReport {
  const buffers = trace.buffers.map((b): BytesBuffer => ({
    param: b.param,
    loadedBytes: b.loadsRequested * b.bytesPerElement,
    requestedBytes: b.requested * b.bytesPerElement,
    uniqueBytes: b.unique * b.bytesPerElement,
    reuse: b.unique === 0 ? 0 : round(b.requested / b.unique),
    ...(hasDot && b.readsPerElement !== null ? { tileReads: round(b.readsPerElement), waveHits: b.waveLoads === 0 ? 0 : round(b.waveHits / b.waveLoads) } : {}),
  }));
  const waves = Math.max(1, Math.ceil(trace.programs / WAVE));
  const loaded = trace.buffers.reduce((n, b) => n + b.waveLoads * b.bytesPerElement, 0);
  const fetched = trace.buffers.reduce((n, b) => n + (b.waveLoads - b.waveHits) * b.bytesPerElement, 0);
  return {
    traced: trace.programs, programs: totalPrograms, buffers, accesses: trace.sites.map((s) => classify(s, lines)),
    ...(hasDot ? { wave: { programs: Math.min(WAVE, trace.programs), loadedBytes: Math.round(loaded / waves), fetchedBytes: Math.round(fetched / waves) } } : {}),
  };
}

function classify(site: TracedSite, lines: LineMap): BytesAccess {
  const at = lines.at(site.span.start);
  const executions = Math.max(1, site.requests);
  const base = {
    kind: site.kind, param: site.param, line: at.line, column: at.column,
    sectorsPerRequest: round(site.sectors / executions), linesPerRequest: round(site.lines / executions),
    sectorEfficiency: site.sectors === 0 ? 1 : round(site.minSectors / site.sectors),
  };
  let pairs = 0;
  let modal = 0;
  let modalCount = 0;
  for (const [step, n] of site.steps) {
    pairs += n;
    if (n > modalCount) [modal, modalCount] = [step, n];
  }
  if (pairs === 0 || modalCount / pairs < 0.5) {
    return { ...base, pattern: base.sectorEfficiency >= 0.8 ? "coalesced" : "scattered" };
  }
  const verb = site.kind === "load" ? "load" : site.kind === "store" ? "store" : "atomic";
  if (modal === 0) return { ...base, pattern: "broadcast" };
  if (Math.abs(modal) === 1) {
    const hint = alignmentHint(site, verb);
    return { ...base, pattern: "coalesced", ...(hint ? { hint } : {}) };
  }
  const hint = Math.abs(modal) * site.bytesPerElement >= HINT_BYTES
    ? `this ${verb} steps ${Math.abs(modal)} elements between neighbouring lanes: swap the block's axes or transpose the input`
    : undefined;
  return { ...base, pattern: "strided", stride: modal, ...(hint ? { hint } : {}) };
}

/** Runs of contiguous lanes start off a 16-byte boundary this often or more: the vec4 hint. */
const MISALIGNED_SHARE = 0.25;

/** A coalesced access that vec4 could serve but for alignment: its block's start, or its rows' stride. */
function alignmentHint(site: TracedSite, verb: string): string | undefined {
  if (site.vecRuns === 0 || site.vecMisaligned / site.vecRuns < MISALIGNED_SHARE) return undefined;
  const per = Math.max(1, Math.floor(16 / site.bytesPerElement));
  const share = Math.round((100 * site.vecMisaligned) / site.vecRuns);
  const where = `${share}% of its runs of ${per} contiguous lanes start off a 16-byte boundary (the first at element ${site.firstMisaligned})`;
  return site.vecMisalignedFirst === 0
    ? `this ${verb} is contiguous along rows, but ${where}: the row stride is not a multiple of ${per} elements, so no run is one vec4 access; pad the rows to a multiple of ${per}`
    : `this ${verb} is contiguous, but ${where}: its block starts off a multiple of ${per} elements, so no run is one vec4 access; start blocks at multiples of ${per} (Kernel Lab, as Triton, proves it from scalar arguments that are multiples of 16)`;
}

const round = (x: number) => Number(x.toPrecision(4));

/** The CLI's lines under the speed of light. */
export function bytesText(report: BytesReport): string[] {
  const of = report.traced < report.programs ? ` (from the first ${report.traced} of ${report.programs} programs)` : "";
  const out = [`  Bytes${of}:`];
  for (const b of report.buffers) {
    const wave = b.waveHits !== undefined ? `, ${Math.round(b.waveHits * 100)}% of its loads repeat one by another program of the same wave of ${WAVE}` : "";
    const tile = b.tileReads !== undefined ? `; each element of a program's tile is loaded by ${b.tileReads} programs${wave}` : "";
    out.push(`    ${b.param}: ${bytesOf(b.requestedBytes)} asked for, ${bytesOf(b.uniqueBytes)} distinct (reuse ${b.reuse}×)${tile}`);
  }
  if (report.wave) {
    const { programs, loadedBytes, fetchedBytes } = report.wave;
    out.push(`    waves of ${programs} programs: each loads ${bytesOf(loadedBytes)}, ${bytesOf(fetchedBytes)} of it not loaded before by a program of the same wave (what it fetches from memory if the L2 keeps the wave's tiles)`);
  }
  for (const a of report.accesses) {
    const stride = a.pattern === "strided" ? ` by ${a.stride}` : "";
    out.push(`    line ${a.line} ${a.kind} ${a.param}: ${a.pattern}${stride}, ${a.sectorsPerRequest} sectors / ${a.linesPerRequest} lines per warp, ${Math.round(a.sectorEfficiency * 100)}% of fetched bytes used`);
    if (a.hint) out.push(`      hint: ${a.hint}`);
  }
  return out;
}

function bytesOf(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(2)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(1)} KiB`;
  return `${n} B`;
}

/** A candidate's bytes in three numbers, for the autotune table. */
export interface BytesSummary {
  /** Bytes the whole grid's loads ask for (scaled up from the traced programs). */
  loadedBytes: number;
  /** With tl.dot: the most programs loading an element of one input tile. */
  tileReads?: number;
  /** The lowest share of fetched sector bytes any access uses. */
  sectorEfficiency: number;
}

export function summarise(report: BytesReport): BytesSummary {
  const loadsRequested = report.buffers.reduce((n, b) => n + b.loadedBytes, 0);
  const tiles = report.buffers.flatMap((b) => (b.tileReads !== undefined ? [b.tileReads] : []));
  return {
    loadedBytes: Math.round((loadsRequested * report.programs) / Math.max(1, report.traced)),
    ...(tiles.length > 0 ? { tileReads: Math.max(...tiles) } : {}),
    sectorEfficiency: Math.min(1, ...report.accesses.map((a) => a.sectorEfficiency)),
  };
}

export { bytesOf as formatBytes };

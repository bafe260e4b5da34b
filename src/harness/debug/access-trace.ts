// What programs' memory accesses touch, from the interpreter's access hook: the per-program access
// map (access-map.ts, `--program`) and where the bytes go (bytes.ts). The interpreter runs the
// chosen programs on a copy of the launch's arguments with tl.dot skipped (addresses don't depend
// on products), so tracing costs the address arithmetic, not the math.
//
// Every lane of a tl.load/tl.store/tl.atomic* reaches the hook in lane order, masked-off lanes
// too, so lane 0 starts one execution of an access (one trip of its loop); each 32 neighbouring
// lanes are measured as a warp's request would be: 32-byte sectors and 128-byte lines touched.

import type { Span } from "../../diagnostics/diagnostic";
import { interpret, type AccessKind, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR } from "../../ir/ir";
import { BYTES_PER_ELEMENT } from "../../runtime/buffers";

/** One tl.load / tl.store / tl.atomic* of the kernel (all its executions in the traced programs). */
export interface TracedSite {
  kind: AccessKind;
  param: string;
  span: Span;
  bytesPerElement: number;
  executions: number;
  /** Warps (32 neighbouring lanes) with an active lane, over all executions: the requests a GPU would issue. */
  requests: number;
  lanes: number;
  active: number;
  /** 32-byte sectors and 128-byte lines each request touched, summed over requests. */
  sectors: number;
  lines: number;
  /** The fewest sectors the same elements could take (each request's distinct elements, packed). */
  minSectors: number;
  /** Neighbouring active lanes' address differences (elements) → how often. */
  steps: Map<number, number>;
  /**
   * Runs of 16 bytes of neighbouring lanes (4 f32 or 8 f16 lanes, lane 0 of a run a multiple of
   * 4 or 8), all active and contiguous: what one vec4 access could serve. Of them, how many start
   * off a 16-byte boundary; how many of those are an execution's first run (the block's start, not
   * a later row's); the first such element.
   */
  vecRuns: number;
  vecMisaligned: number;
  vecMisalignedFirst: number;
  firstMisaligned: number | null;
}

/** One buffer across the traced programs. */
export interface TracedBuffer {
  param: string;
  length: number;
  bytesPerElement: number;
  /** Elements asked for by active lanes (loads, stores and atomics), with repeats. */
  requested: number;
  loadsRequested: number;
  /** Distinct elements touched. */
  unique: number;
  /** Of the first traced program's loaded elements: how many traced programs load each, on average. */
  readsPerElement: number | null;
  /** In-bounds loads by active lanes, and those of an element another program of the same wave (WAVE consecutive programs) loaded or stored before. */
  waveLoads: number;
  waveHits: number;
}

/** The chosen program's accesses, element by element. */
export interface ProgramTrace {
  program: ProgramId;
  sites: { kind: AccessKind; param: string; span: Span; lanes: number; active: number; touched: Set<number>; masked: Set<number> }[];
}

export interface AccessTrace {
  programs: number;
  /** Programs traced: the first `programs` of the request's list. All of the grid's: `complete`. */
  complete: boolean;
  sites: TracedSite[];
  buffers: TracedBuffer[];
  detail?: ProgramTrace;
  /** The `details` programs' accesses, element by element, in the request's order (those traced). */
  details?: ProgramTrace[];
}

export interface TraceRequest {
  ir: KernelIR;
  grid: readonly [number, number, number];
  /** The launch's arguments as the interpreter holds them (a copy: the trace writes to it). */
  args: Record<string, ArrayLike<number> | number>;
  /** Programs to trace, in order. */
  programs: readonly ProgramId[];
  /** The program whose accesses come back element by element (`detail`). */
  detail?: ProgramId;
  /** More programs whose accesses come back element by element (`details`): the results panel's maps. */
  details?: readonly ProgramId[];
  maxSteps?: number;
  /** Programs per wave (`waveHits`); WAVE by default. */
  wave?: number;
  /** Stop after the program during which this many lanes were seen (the rest untraced: `programs` says how many were). */
  budget?: number;
}


export function traceAccesses(req: TraceRequest): AccessTrace {
  const wave = req.wave ?? WAVE;
  const bytes = new Map(req.ir.params.filter((p) => p.kind === "pointer").map((p) => [p.name, BYTES_PER_ELEMENT[p.dtype]] as const));
  const lengthOf = (param: string) => {
    const a = req.args[param];
    return typeof a === "number" || a === undefined ? 0 : a.length;
  };
  // Keyed by the IR's span object (one per access, the same object on every lane): no string per lane.
  const sites = new Map<Span, TracedSite>();
  const buffers = new Map<string, { traced: TracedBuffer; lastProgram: Int32Array; loaders: Uint16Array; firstLoads: Set<number> }>();
  const [gx, gy] = req.grid;
  const linearOf = (p: ProgramId) => p[0] + p[1] * gx + p[2] * gx * gy;
  const first = req.programs.length > 0 ? linearOf(req.programs[0]) : -1;
  // Per detailed program (linear id): its trace, and its sites by the IR's span object.
  const detailed = new Map<number, { trace: ProgramTrace; sites: Map<Span, ProgramTrace["sites"][number]> }>();
  for (const p of [...(req.detail ? [req.detail] : []), ...(req.details ?? [])]) {
    if (!detailed.has(linearOf(p))) detailed.set(linearOf(p), { trace: { program: p, sites: [] }, sites: new Map() });
  }
  let inDetail: { trace: ProgramTrace; sites: Map<Span, ProgramTrace["sites"][number]> } | undefined;

  // The execution in progress, per site.
  let current: TracedSite | undefined;
  const execution = new Execution();
  const finish = () => {
    if (!current) return;
    execution.measure(current);
    current = undefined;
  };

  let lanes = 0;
  let linear = -1;
  let lastProgram: ProgramId | undefined;
  const onAccess = (kind: AccessKind, param: string, index: number, programId: ProgramId, lane: number, span: Span, active: boolean) => {
    lanes++;
    let site = current !== undefined && current.span === span && lane !== 0 ? current : sites.get(span);
    if (!site) {
      site = { kind, param, span, bytesPerElement: bytes.get(param) ?? 4, executions: 0, requests: 0, lanes: 0, active: 0, sectors: 0, lines: 0, minSectors: 0, steps: new Map(), vecRuns: 0, vecMisaligned: 0, vecMisalignedFirst: 0, firstMisaligned: null };
      sites.set(span, site);
    }
    if (lane === 0 || site !== current) {
      finish();
      current = site;
    }
    if (programId !== lastProgram) {
      lastProgram = programId;
      linear = linearOf(programId);
      inDetail = detailed.get(linear);
    }
    execution.add(index, active);
    if (inDetail) {
      let d = inDetail.sites.get(span);
      if (!d) {
        d = { kind, param, span, lanes: 0, active: 0, touched: new Set(), masked: new Set() };
        inDetail.sites.set(span, d);
        inDetail.trace.sites.push(d);
      }
      d.lanes++;
      if (active) d.active++;
      if (active) d.touched.add(index);
      // Past the end too (a tail block's masked lanes), within a block's reach; never below 0.
      else if (index >= 0 && index < lengthOf(param) + (1 << 16)) d.masked.add(index);
    }
    if (!active) return;
    let buffer = buffers.get(param);
    if (!buffer) {
      const length = lengthOf(param);
      buffer = {
        traced: { param, length, bytesPerElement: bytes.get(param) ?? 4, requested: 0, loadsRequested: 0, unique: 0, readsPerElement: null, waveLoads: 0, waveHits: 0 },
        lastProgram: new Int32Array(length), loaders: new Uint16Array(length), firstLoads: new Set(),
      };
      buffers.set(param, buffer);
    }
    buffer.traced.requested++;
    if (index < 0 || index >= buffer.lastProgram.length) return;
    if (buffer.lastProgram[index] === 0) buffer.traced.unique++;
    if (kind === "load") {
      buffer.traced.loadsRequested++;
      buffer.traced.waveLoads++;
      // Programs run in order of linear id: the last one to touch the element, if of this wave and not this one, loaded it first.
      const last = buffer.lastProgram[index];
      if (last !== 0 && last !== linear + 1 && Math.floor((last - 1) / wave) === Math.floor(linear / wave)) buffer.traced.waveHits++;
      if (linear === first) buffer.firstLoads.add(index);
      // Distinct loading programs per element: programs run one after another, so "a new one" is "not the last one".
      if (buffer.lastProgram[index] !== linear + 1 && buffer.loaders[index] < 0xffff) buffer.loaders[index]++;
    }
    buffer.lastProgram[index] = linear + 1;
  };

  let traced = 0;
  for (const program of req.programs) {
    try {
      interpret(req.ir, req.grid, req.args as Parameters<typeof interpret>[2], { programs: [program], onAccess, skipDots: true, maxSteps: req.maxSteps });
    } finally {
      finish();
    }
    traced++;
    if (req.budget !== undefined && lanes >= req.budget) break;
  }
  for (const b of buffers.values()) {
    if (b.firstLoads.size === 0) continue;
    let sum = 0;
    for (const e of b.firstLoads) sum += b.loaders[e];
    b.traced.readsPerElement = sum / b.firstLoads.size;
  }
  const total = req.grid[0] * req.grid[1] * req.grid[2];
  const detail = req.detail ? detailed.get(linearOf(req.detail))?.trace : undefined;
  const tracedLinear = new Set(req.programs.slice(0, traced).map(linearOf));
  const details = req.details?.flatMap((p) => (tracedLinear.has(linearOf(p)) ? [detailed.get(linearOf(p))!.trace] : []));
  return {
    programs: traced, complete: traced === total, sites: [...sites.values()], buffers: [...buffers.values()].map((b) => b.traced),
    ...(detail ? { detail } : {}), ...(details ? { details } : {}),
  };
}

const WARP = 32;

/**
 * A wave: this many consecutive programs, taken as running at once and sharing one cache (the
 * L2). A GPU starts programs in order of their id, as many as fit (an H200's 132 SMs hold one or
 * more each); 64 is a round number below that, and what grouped ordering (tutorial 03's
 * GROUP_SIZE_M) is about: which tiles the programs running together load.
 */
export const WAVE = 64;

/** The lanes of the execution in progress, in reused typed arrays (a trace sees millions of lanes). */
class Execution {
  private addresses = new Int32Array(1024);
  private active = new Uint8Array(1024);
  private n = 0;
  private scratch = new Float64Array(1024);

  add(index: number, active: boolean): void {
    if (this.n === this.addresses.length) {
      const grown = new Int32Array(this.n * 2);
      grown.set(this.addresses);
      this.addresses = grown;
      const flags = new Uint8Array(this.n * 2);
      flags.set(this.active);
      this.active = flags;
      this.scratch = new Float64Array(this.n * 2);
    }
    this.addresses[this.n] = index;
    this.active[this.n++] = active ? 1 : 0;
  }

  /** Adds the execution's sectors, lines and neighbouring steps to `site`, and starts afresh. */
  measure(site: TracedSite): void {
    const { addresses, active, n } = this;
    site.executions++;
    site.lanes += n;
    let m = 0;
    for (let i = 0; i < n; i++) {
      if (!active[i]) continue;
      m++;
      if (i > 0 && active[i - 1]) {
        const step = addresses[i] - addresses[i - 1];
        const seen = site.steps.get(step);
        if (seen !== undefined) site.steps.set(step, seen + 1);
        else if (site.steps.size < 64) site.steps.set(step, 1);
      }
    }
    site.active += m;
    // Runs of 16 bytes: what a vec4 access would take at once, if its first element is aligned.
    const run = Math.max(1, Math.floor(16 / site.bytesPerElement));
    let firstRun = true;
    for (let i = 0; i + run <= n; i += run) {
      let contiguous = true;
      for (let k = 0; k < run && contiguous; k++) contiguous = active[i + k] === 1 && addresses[i + k] === addresses[i] + k;
      if (!contiguous) continue;
      site.vecRuns++;
      if (addresses[i] % run !== 0) {
        site.vecMisaligned++;
        if (firstRun) site.vecMisalignedFirst++;
        site.firstMisaligned ??= addresses[i];
      }
      firstRun = false;
    }
    // As a GPU issues them: each 32 neighbouring lanes (a warp) is one request.
    const b = site.bytesPerElement;
    for (let w = 0; w < n; w += WARP) {
      let k = 0;
      for (let i = w; i < Math.min(n, w + WARP); i++) if (active[i]) this.scratch[k++] = addresses[i];
      if (k === 0) continue;
      site.requests++;
      const sorted = this.scratch.subarray(0, k).sort();
      let elements = 0, sectors = 0, lines = 0;
      let lastElement = NaN, lastSector = NaN, lastLine = NaN;
      for (let i = 0; i < k; i++) {
        const e = sorted[i];
        if (e !== lastElement) elements++, (lastElement = e);
        const sector = Math.floor((e * b) / 32);
        if (sector !== lastSector) sectors++, (lastSector = sector);
        const line = Math.floor((e * b) / 128);
        if (line !== lastLine) lines++, (lastLine = line);
      }
      site.sectors += sectors;
      site.lines += lines;
      site.minSectors += Math.ceil((elements * b) / 32);
    }
    this.n = 0;
  }
}

/** The programs to trace: all of the grid's, or its first `limit` by linear id (x fastest). */
export function programsToTrace(grid: readonly [number, number, number], limit: number): ProgramId[] {
  const [gx, gy, gz] = grid;
  const total = Math.min(gx * gy * gz, limit);
  const out: ProgramId[] = [];
  for (let linear = 0; linear < total; linear++) out.push([linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))]);
  return out;
}

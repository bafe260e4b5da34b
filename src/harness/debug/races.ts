// Races between the programs of one launch. Triton promises nothing about the order in which
// programs run, so two programs storing to one element (not through tl.atomic*) leave whichever
// lands last: KL3104, an error, naming both programs, lanes and tl.store lines. A program loading
// an element another program stores may see the old value or the new one: KL3105, a warning.
// With --cpu the interpreter's access hook feeds `RaceRecorder`; on the GPU the instrumented
// variant notes the first race in kl_debug (codegen/instrument.ts) and the harness asks the
// interpreter to run just those two programs again (`explainOnCpu`), for the values and the same
// wording. Which buffers are checked: ir/race-checked.ts.

import { CPU_RUN_CODES } from "../../diagnostics/codes";
import type { Diagnostic, Span } from "../../diagnostics/diagnostic";
import type { LineMap } from "../../diagnostics/position";
import { InterpreterError, type AccessHook, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR } from "../../ir/ir";
import { raceChecked } from "../../ir/race-checked";

/** One side of a race: a program's lane at a tl.store (or tl.load), and what it stored. */
export interface RaceSide {
  program: ProgramId;
  lane: number | null;
  span: Span | null;
  value?: number;
}

export interface Race {
  param: string;
  index: number;
  first: RaceSide;
  second: RaceSide;
}

export interface LoadHazard {
  param: string;
  index: number;
  store: RaceSide;
  load: RaceSide;
}

const where = (p: ProgramId) => `(${p.join(",")})`;
/** A stored value as short as it reads (the kernel's f32, not float64's 17 digits). */
const shown = (v: number) => `${Number(v.toPrecision(7))}`;

function side(s: RaceSide, lines: LineMap): string {
  const lane = s.lane === null ? "" : `, lane ${s.lane}`;
  const line = s.span ? ` (line ${lines.at(s.span.start).line})` : "";
  return `program ${where(s.program)}${lane}${line}`;
}

/** KL3104: both programs, both lanes and both tl.store lines; whether the values agreed. */
export function raceError(kernel: string, race: Race, lines: LineMap): InterpreterError {
  const { first, second, param, index } = race;
  let values = "";
  if (first.value !== undefined && second.value !== undefined) {
    values = Object.is(first.value, second.value)
      ? `. Both stored ${shown(first.value)}: the values agreed this time, but it is still a race, since Triton doesn't promise which store lands last`
      : `. They stored ${shown(first.value)} and ${shown(second.value)}: whichever lands last wins, and that may differ from run to run and GPU to GPU`;
  }
  const message =
    `${kernel}: ${side(first, lines)} and ${side(second, lines)} both store ${param}[${index}], not through an atomic${values}. ` +
    `Give each program its own elements (check the offsets against the grid: does one block overlap the next?), or combine them with tl.atomic*`;
  return new InterpreterError("race", message, kernel, second.span ?? first.span ?? { start: 0, end: 0 }, second.program);
}

/** KL3105 at the load: a program reads what another program of the same launch stores. */
export function hazardWarning(kernel: string, hazard: LoadHazard, lines: LineMap, fallback: Span): Diagnostic {
  const { store, load, param, index } = hazard;
  const message =
    `${kernel}: ${side(load, lines)} loads ${param}[${index}], which ${side(store, lines)} stores in the same launch; ` +
    `programs run in no defined order, so the load may see the old value or the new one. ` +
    `Load only elements this program stores, or split the kernel into two launches`;
  return { code: CPU_RUN_CODES["load-of-another-store"].code, severity: "warning", message, span: load.span ?? store.span ?? fallback };
}

/** Per checked buffer, who touched each element so far (program linear id + 1; 0: nobody). */
interface Shadow {
  storer: Uint32Array;
  storeLane: Uint32Array;
  storeSite: Int32Array;
  stored: Float64Array;
  /** The first program that loaded the element, and one other program that did. */
  loader: Uint32Array;
  loaderSite: Int32Array;
  otherLoader: Uint32Array;
  otherLoaderSite: Int32Array;
}

/** The interpreter's access hook checking one launch for races; the first race throws KL3104. */
export class RaceRecorder {
  readonly hazards: LoadHazard[] = [];
  private readonly shadows = new Map<string, Shadow>();
  private readonly loadsChecked: ReadonlySet<string>;
  private readonly spans: Span[] = [];
  private readonly spanIds = new Map<number, number>();

  constructor(
    private readonly ir: KernelIR,
    private readonly grid: readonly [number, number, number],
    lengths: ReadonlyMap<string, number>,
    private readonly lines: LineMap,
  ) {
    const checked = raceChecked(ir);
    this.loadsChecked = checked.loads;
    for (const param of checked.stores) {
      const n = lengths.get(param);
      if (n === undefined) continue;
      const loads = checked.loads.has(param) ? n : 0;
      this.shadows.set(param, {
        storer: new Uint32Array(n), storeLane: new Uint32Array(n), storeSite: new Int32Array(n), stored: new Float64Array(n),
        loader: new Uint32Array(loads), loaderSite: new Int32Array(loads), otherLoader: new Uint32Array(loads), otherLoaderSite: new Int32Array(loads),
      });
    }
  }

  /** Whether any buffer is checked (else the hook is left out, at no cost). */
  get checks(): boolean {
    return this.shadows.size > 0;
  }

  readonly onAccess: AccessHook = (kind, param, index, programId, lane, span, active, value) => {
    if (!active || kind === "atomic") return;
    const shadow = this.shadows.get(param);
    if (!shadow || index < 0 || index >= shadow.storer.length) return;
    const me = this.linear(programId) + 1;
    const site = this.siteOf(span, lane);
    if (kind === "load") {
      if (!this.loadsChecked.has(param)) return;
      const storer = shadow.storer[index];
      if (storer !== 0 && storer !== me) this.hazard(param, index, this.storeSide(shadow, index), { program: programId, lane, span });
      if (shadow.loader[index] === 0) {
        shadow.loader[index] = me;
        shadow.loaderSite[index] = site;
      } else if (shadow.loader[index] !== me && shadow.otherLoader[index] === 0) {
        shadow.otherLoader[index] = me;
        shadow.otherLoaderSite[index] = site;
      }
      return;
    }
    const storer = shadow.storer[index];
    if (storer !== 0 && storer !== me) {
      throw raceError(this.ir.name, { param, index, first: this.storeSide(shadow, index), second: { program: programId, lane, span, value } }, this.lines);
    }
    shadow.storer[index] = me;
    shadow.storeSite[index] = site;
    shadow.stored[index] = value;
    if (shadow.loader.length === 0) return;
    const [loader, loaderSite] = shadow.loader[index] !== me ? [shadow.loader[index], shadow.loaderSite[index]] : [shadow.otherLoader[index], shadow.otherLoaderSite[index]];
    if (loader !== 0) this.hazard(param, index, { program: programId, lane, span, value }, { ...this.sideAt(loader, loaderSite) });
  };

  /** The KL3105 warnings: one per pair of load and store lines. */
  warnings(): Diagnostic[] {
    const seen = new Set<string>();
    const out: Diagnostic[] = [];
    for (const h of this.hazards) {
      const key = `${h.load.span?.start}:${h.store.span?.start}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(hazardWarning(this.ir.name, h, this.lines, this.ir.span));
    }
    return out;
  }

  private hazard(param: string, index: number, store: RaceSide, load: RaceSide): void {
    // A few are enough to name every pair of lines; a kernel reading its neighbours' outputs would make millions.
    if (this.hazards.length < 64) this.hazards.push({ param, index, store, load });
  }

  private storeSide(shadow: Shadow, index: number): RaceSide {
    return { ...this.sideAt(shadow.storer[index], shadow.storeSite[index]), value: shadow.stored[index] };
  }

  private sideAt(linearPlusOne: number, site: number): RaceSide {
    return { program: this.programOf(linearPlusOne - 1), lane: site & 0xffff, span: this.spans[site >>> 16] ?? null };
  }

  private siteOf(span: Span, lane: number): number {
    let id = this.spanIds.get(span.start);
    if (id === undefined) {
      id = this.spans.length;
      this.spans.push(span);
      this.spanIds.set(span.start, id);
    }
    return (id << 16) | (lane & 0xffff);
  }

  private linear(p: ProgramId): number {
    return p[0] + p[1] * this.grid[0] + p[2] * this.grid[0] * this.grid[1];
  }

  private programOf(linear: number): ProgramId {
    const [gx, gy] = this.grid;
    return [linear % gx, Math.floor(linear / gx) % gy, Math.floor(linear / (gx * gy))];
  }
}

// Races between the programs of one launch. Triton promises nothing about the order in which
// programs run, so two programs storing to one element (not through tl.atomic*) leave whichever
// lands last: KL3104, an error, naming both programs, lanes and tl.store lines. A program loading
// an element another program stores may see the old value or the new one: KL3105, a warning.
// With --cpu the interpreter's access hook feeds `RaceRecorder`; on the GPU the instrumented
// variant notes the first race in kl_debug (codegen/instrument.ts) and the harness asks the
// interpreter to run just those two programs again (`explainOnCpu`), for the values and the same
// wording. Which buffers are checked: ir/race-checked.ts. Pointer arguments naming one memory
// (aliases.ts) share their state: a store through one and a store or load through the other of
// one element are a race or a hazard as through one pointer.

import { CPU_RUN_CODES } from "../../diagnostics/codes";
import type { Diagnostic, Span } from "../../diagnostics/diagnostic";
import type { LineMap } from "../../diagnostics/position";
import { InterpreterError, type AccessHook, type ProgramId } from "../../interpreter/interpret";
import type { KernelIR } from "../../ir/ir";
import { raceChecked } from "../../ir/race-checked";
import type { StorageSlot } from "./aliases";

/** One side of a race: a program's lane at a tl.store (or tl.load), and what it stored. */
export interface RaceSide {
  program: ProgramId;
  lane: number | null;
  span: Span | null;
  value?: number;
  /** The parameter and element it went through, where that is another pointer to the same memory than the race's. */
  via?: { param: string; index: number };
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

/** The source's lines (a LineMap; for a Python script, its lines through the kernel's translation). */
export type Lines = Pick<LineMap, "at">;

const where = (p: ProgramId) => `(${p.join(",")})`;
/** A stored value as short as it reads (the kernel's f32, not float64's 17 digits). */
const shown = (v: number) => `${Number(v.toPrecision(7))}`;

function side(s: RaceSide, lines: Lines | undefined): string {
  const lane = s.lane === null ? "" : `, lane ${s.lane}`;
  const line = s.span && lines ? ` (line ${lines.at(s.span.start).line})` : "";
  return `program ${where(s.program)}${lane}${line}`;
}

/** Where the other side went through another pointer: which, and that both name one memory. */
function aliasNote(other: RaceSide, param: string, verb: string): string {
  if (!other.via || other.via.param === param) return "";
  return ` (program ${where(other.program)} ${verb} it as ${other.via.param}[${other.via.index}]: ${other.via.param} and ${param} point into the same memory, one tensor passed as both)`;
}

/** KL3104: both programs, both lanes and both tl.store lines; whether the values agreed. */
export function raceError(kernel: string, race: Race, lines: Lines | undefined): InterpreterError {
  const { first, second, param, index } = race;
  let values = "";
  if (first.value !== undefined && second.value !== undefined) {
    values = Object.is(first.value, second.value)
      ? `. Both stored ${shown(first.value)}: the values agreed this time, but it is still a race, since Triton doesn't promise which store lands last`
      : `. They stored ${shown(first.value)} and ${shown(second.value)}: whichever lands last wins, and that may differ from run to run and GPU to GPU`;
  }
  const message =
    `${kernel}: ${side(first, lines)} and ${side(second, lines)} both store ${param}[${index}]${aliasNote(first, param, "stored")}, not through an atomic${values}. ` +
    `Give each program its own elements (check the offsets against the grid: does one block overlap the next?), or combine them with tl.atomic*`;
  return new InterpreterError("race", message, kernel, second.span ?? first.span ?? { start: 0, end: 0 }, second.program);
}

/** KL3105 at the load: a program reads what another program of the same launch stores. */
export function hazardWarning(kernel: string, hazard: LoadHazard, lines: Lines | undefined, fallback: Span): Diagnostic {
  const { store, load, param, index } = hazard;
  const message =
    `${kernel}: ${side(load, lines)} loads ${param}[${index}], which ${side(store, lines)} stores in the same launch${aliasNote(store, param, "stores")}; ` +
    `programs run in no defined order, so the load may see the old value or the new one. ` +
    `Load only elements this program stores, or split the kernel into two launches`;
  // The store's line as a related location, beside the load's: the editor shows both, and a caller launching the kernel again knows the pair it was told of.
  const related = load.span && store.span ? { related: [{ span: store.span, message: `the tl.store of program ${where(store.program)}` }] } : {};
  return { code: CPU_RUN_CODES["load-of-another-store"].code, severity: "warning", message, span: load.span ?? store.span ?? fallback, ...related };
}

/** Per checked storage, who touched each element so far (program linear id + 1; 0: nobody). */
interface Shadow {
  storer: Uint32Array;
  /** The parameter (its index in `RaceRecorder.params`) the store went through. */
  storeVia: Uint8Array;
  storeLane: Uint32Array;
  storeSite: Int32Array;
  stored: Float64Array;
  /** The first program that loaded the element, and one other program that did. */
  loader: Uint32Array;
  loaderVia: Uint8Array;
  loaderSite: Int32Array;
  otherLoader: Uint32Array;
  otherLoaderVia: Uint8Array;
  otherLoaderSite: Int32Array;
}

/** The interpreter's access hook checking one launch for races; the first race throws KL3104. */
export class RaceRecorder {
  readonly hazards: LoadHazard[] = [];
  /** Per checked parameter: its storage's shadow (one for parameters naming the same memory), its first element there, its own length. */
  private readonly slots = new Map<string, { shadow: Shadow; offset: number; length: number; id: number }>();
  /** The checked parameters, by the id a shadow's `storeVia`/`loaderVia` holds. */
  private readonly params: string[] = [];
  private readonly storesChecked: ReadonlySet<string>;
  private readonly loadsChecked = new Set<string>();
  private readonly spans: Span[] = [];
  private readonly spanIds = new Map<number, number>();

  constructor(
    private readonly ir: KernelIR,
    private readonly grid: readonly [number, number, number],
    lengths: ReadonlyMap<string, number>,
    /** The kernel's source, for the lines the messages name (absent: the error's span alone places it). */
    private readonly lines: Lines | undefined,
    /** Pointer arguments sharing memory (aliases.ts aliasedStorage): they share one shadow. */
    aliases: ReadonlyMap<string, StorageSlot> = new Map(),
  ) {
    const checked = raceChecked(ir);
    this.storesChecked = checked.stores;
    // A storage some parameter's stores are checked on is checked through all its parameters: loads through any of them too.
    const storageOf = (param: string) => aliases.get(param)?.storage ?? param;
    const checkedStorages = new Set([...checked.stores].map(storageOf));
    const shadows = new Map<string, Shadow>();
    for (const [param, n] of lengths) {
      const slot = aliases.get(param);
      if (!checkedStorages.has(storageOf(param)) || this.params.length > 255) continue;
      if (slot || checked.loads.has(param)) this.loadsChecked.add(param);
      let shadow = shadows.get(storageOf(param));
      if (!shadow) {
        const size = slot?.length ?? n;
        const loads = slot || checked.loads.has(param) ? size : 0;
        shadow = {
          storer: new Uint32Array(size), storeVia: new Uint8Array(size), storeLane: new Uint32Array(size), storeSite: new Int32Array(size), stored: new Float64Array(size),
          loader: new Uint32Array(loads), loaderVia: new Uint8Array(loads), loaderSite: new Int32Array(loads), otherLoader: new Uint32Array(loads), otherLoaderVia: new Uint8Array(loads), otherLoaderSite: new Int32Array(loads),
        };
        shadows.set(storageOf(param), shadow);
      }
      this.slots.set(param, { shadow, offset: slot?.offset ?? 0, length: n, id: this.params.length });
      this.params.push(param);
    }
  }

  /** Whether any buffer is checked (else the hook is left out, at no cost). */
  get checks(): boolean {
    return this.slots.size > 0;
  }

  readonly onAccess: AccessHook = (kind, param, index, programId, lane, span, active, value) => {
    if (!active || kind === "atomic") return;
    const slot = this.slots.get(param);
    if (!slot || index < 0 || index >= slot.length) return;
    const { shadow, id } = slot;
    const at = slot.offset + index;
    const me = this.linear(programId) + 1;
    const site = this.siteOf(span, lane);
    if (kind === "load") {
      if (!this.loadsChecked.has(param)) return;
      const storer = shadow.storer[at];
      if (storer !== 0 && storer !== me) this.hazard(param, index, this.storeSide(shadow, at, param), { program: programId, lane, span });
      if (shadow.loader[at] === 0) {
        shadow.loader[at] = me;
        shadow.loaderVia[at] = id;
        shadow.loaderSite[at] = site;
      } else if (shadow.loader[at] !== me && shadow.otherLoader[at] === 0) {
        shadow.otherLoader[at] = me;
        shadow.otherLoaderVia[at] = id;
        shadow.otherLoaderSite[at] = site;
      }
      return;
    }
    if (!this.storesChecked.has(param)) return;
    const storer = shadow.storer[at];
    if (storer !== 0 && storer !== me) {
      throw raceError(this.ir.name, { param, index, first: this.storeSide(shadow, at, param), second: { program: programId, lane, span, value } }, this.lines);
    }
    shadow.storer[at] = me;
    shadow.storeVia[at] = id;
    shadow.storeSite[at] = site;
    shadow.stored[at] = value;
    if (shadow.loader.length === 0) return;
    const first = shadow.loader[at] !== me;
    const loader = first ? shadow.loader[at] : shadow.otherLoader[at];
    if (loader === 0) return;
    const loadParam = this.params[first ? shadow.loaderVia[at] : shadow.otherLoaderVia[at]];
    const store: RaceSide = { program: programId, lane, span, value, ...this.via(param, loadParam, at) };
    this.hazard(loadParam, at - (this.slots.get(loadParam)?.offset ?? 0), store, this.sideAt(loader, first ? shadow.loaderSite[at] : shadow.otherLoaderSite[at]));
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

  /** Who stored element `at` of a storage last, seen from `param`'s access to it. */
  private storeSide(shadow: Shadow, at: number, param: string): RaceSide {
    return { ...this.sideAt(shadow.storer[at], shadow.storeSite[at]), value: shadow.stored[at], ...this.via(this.params[shadow.storeVia[at]], param, at) };
  }

  /** `{ via }` where a side went through `used`, another pointer into the memory than the race's `param`. */
  private via(used: string, param: string, at: number): Pick<RaceSide, "via"> {
    return used === param ? {} : { via: { param: used, index: at - (this.slots.get(used)?.offset ?? 0) } };
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

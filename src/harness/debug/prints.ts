// What tl.devicePrint printed and whether a tl.deviceAssert failed, from either back end: the
// GPU's record buffer (codegen/abi.ts DebugAbi) decoded after the correctness launch, or the
// interpreter's records. Lines are sorted by program, then site, then element (the GPU writes them
// in any order), formatted as Triton's device_print formats them, and capped at the GPU buffer's size.

import type { DebugAbi } from "../../codegen/abi";
import type { CompiledKernel } from "../../compile";
import { InterpreterError } from "../../interpreter/interpret";
import { DEBUG_BUFFER, DTYPE_TAGS, assertionMessage, indexText, type DebugRecord, type DebugSite } from "../../ir/debug";
import { createDebugBuffer, readBuffer, type Gpu } from "../../runtime";
import type { RunReport } from "../report";

/** A run's printed lines (the report's `prints`), and how many records did not fit. */
export interface PrintedLines {
  lines: string[];
  dropped: number;
}

/** The report's `prints` keys, for a kernel with tl.devicePrint. */
export function printsOf(printed: PrintedLines | undefined): Pick<RunReport, "prints" | "printsDropped"> {
  return printed ? { prints: printed.lines, ...(printed.dropped > 0 ? { printsDropped: printed.dropped } : {}) } : {};
}

/** The lines of several launches in a sequence, launch after launch. */
export function sequencePrints(each: readonly (PrintedLines | undefined)[]): PrintedLines | undefined {
  const present = each.filter((p): p is PrintedLines => p !== undefined);
  if (present.length === 0) return undefined;
  return { lines: present.flatMap((p) => p.lines), dropped: present.reduce((n, p) => n + p.dropped, 0) };
}

/** Collects the interpreter's records for one launch of `program`. */
export class CpuPrints {
  readonly records: DebugRecord[] = [];
  private readonly ids: ReadonlyMap<number, number>;
  readonly sites: readonly DebugSite[];

  constructor(program: CompiledKernel) {
    this.sites = program.facts.debugSites;
    this.ids = program.facts.debugSiteIds;
  }

  readonly onDebugRecord = (r: DebugRecord): void => {
    this.records.push({ ...r, site: this.ids.get(r.site) ?? 0 });
  };

  lines(): PrintedLines | undefined {
    if (!this.sites.some((s) => s.kind === "print")) return undefined;
    const kept = this.records.slice(0, DEBUG_BUFFER.records);
    return { lines: printLines(this.sites, kept), dropped: this.records.length - kept.length };
  }
}

/** A zeroed record buffer for a launch of a kernel that prints or asserts. */
export function gpuPrintBuffer(gpu: Gpu, debug: DebugAbi | undefined, label: string, made: GPUBuffer[]): GPUBuffer | undefined {
  if (!debug) return undefined;
  const buffer = createDebugBuffer(gpu, debug, `${label}.kl_print`);
  made.push(buffer);
  return buffer;
}

/** Reads the records back; throws the assertion's error when one failed (as the interpreter does). */
export async function readGpuPrints(gpu: Gpu, kernel: string, debug: DebugAbi, buffer: GPUBuffer): Promise<PrintedLines | undefined> {
  const words = await readBuffer(gpu, buffer, "u32", debug.words);
  const written = Math.min(words[0], DEBUG_BUFFER.records);
  const records: DebugRecord[] = [];
  const failed: DebugRecord[] = [];
  for (let r = 0; r < written; r++) {
    const o = DEBUG_BUFFER.headerWords + r * DEBUG_BUFFER.recordWords;
    const tag = words[o + 7];
    const record = { site: words[o], programId: [words[o + 1], words[o + 2], words[o + 3]] as const, index: words[o + 4], operand: words[o + 5], value: decode(words[o + 6], tag) };
    (tag === DTYPE_TAGS.assert ? failed : records).push(record);
  }
  if (words[1] > 0) throw assertionError(kernel, debug.sites, failed);
  if (!debug.sites.some((s) => s.kind === "print")) return undefined;
  return { lines: printLines(debug.sites, records), dropped: words[0] - written };
}

/** The failed assertion the interpreter would have stopped at: the first program, site and lane. */
function assertionError(kernel: string, sites: readonly DebugSite[], failed: DebugRecord[]): InterpreterError {
  const first = failed.sort(byProgramSiteIndex)[0];
  const site = first && sites[first.site];
  if (!first || site?.kind !== "assert") {
    const any = sites.find((s) => s.kind === "assert")!;
    return new InterpreterError("assertion", `${kernel}: tl.deviceAssert failed (the print buffer was full, so which program and lane is not known)`, kernel, any.span);
  }
  return new InterpreterError("assertion", assertionMessage(kernel, site.message, first.programId, site.shape, first.index), kernel, site.span, first.programId);
}

/** `pid (x, y, z) idx (i) prefix: value`, one line per record, in a fixed order. */
export function printLines(sites: readonly DebugSite[], records: readonly DebugRecord[]): string[] {
  return [...records].sort(byProgramSiteIndex).map((r) => {
    const site = sites[r.site];
    if (site?.kind !== "print") return `pid (${r.programId.join(", ")}) <unknown print site ${r.site}>`;
    const operand = site.operands[r.operand];
    const label = site.prefix.replace(/[\s:]+$/, "");
    const what = site.operands.length > 1 ? `${label} (operand ${r.operand})` : label;
    return `pid (${r.programId.join(", ")}) idx ${indexText(operand.shape, r.index)} ${what}: ${valueText(r.value, operand.dtype)}`;
  });
}

function byProgramSiteIndex(a: DebugRecord, b: DebugRecord): number {
  const [ax, ay, az] = a.programId;
  const [bx, by, bz] = b.programId;
  return az - bz || ay - by || ax - bx || a.site - b.site || a.index - b.index;
}

function valueText(v: number, dtype: string): string {
  if (dtype === "bool") return v !== 0 ? "true" : "false";
  if (dtype === "f32" || dtype === "f16" || dtype === "bf16") return Number.isFinite(v) ? String(Number(v.toPrecision(7))) : String(v);
  return String(v);
}

function decode(bits: number, tag: number): number {
  switch (tag) {
    case DTYPE_TAGS.i32:
      return bits | 0;
    case DTYPE_TAGS.f32:
    case DTYPE_TAGS.f16:
      return new Float32Array(Uint32Array.of(bits).buffer)[0];
    default:
      return bits;
  }
}

// The instrumented variant of a kernel (CodegenOptions.instrument), launched once per run to check it,
// never timed. The GPU clamps an out-of-bounds index silently (robust buffer access), so each
// unmasked lane of every tl.load, tl.store and tl.atomic* compares its index with the buffer's element count
// (uniform words: storage buffers are rounded up to 16 bytes, so arrayLength is not exact) and
// each invocation's first lane out of bounds is recorded in `kl_debug` (the first to get there wins). Each store also writes, per element,
// which program and lane stored it into `kl_prov_<param>`: where a mismatch came from. The same
// words find races between programs (harness/races.ts): a store swaps its stamp in atomically and
// a stamp of another program there is a race (KL3104); a load of a buffer the kernel stores notes
// its program in `kl_reads_<param>` and checks the store stamp (KL3105). Which buffers are
// checked: ir/race-checked.ts. The first of each is noted in kl_debug's words 8..23.
// The layout of the buffers is in abi.ts (InstrumentAbi); memory.ts and atomics.ts call the hooks below.

import type { Span } from "../diagnostics/diagnostic";
import { viewOffsetScalar, type KernelIR, type PointerView, type Value, type ValueType } from "../ir/ir";
import { raceChecked, type RaceChecked } from "../ir/race-checked";
import type { InstrumentAbi, MemoryAccessKind, StorageBinding, UniformScalar } from "./abi";

/** What the instrumentation needs of the generator (generator.ts's WgslGenerator has it). */
interface Generator {
  readonly ir: KernelIR;
  readonly scalars: UniformScalar[];
  readonly buffers: ReadonlyMap<string, StorageBinding>;
  readonly instrumentation?: Instrumentation;
  reg(v: Value, j: number): string;
  elementIndex(type: ValueType, j: number): string;
  layout(type: ValueType): { ept: number };
}

/** Words 0..7: the first out-of-bounds lane; 8..15: the first race between stores; 16..23: the first load of another program's store. */
export const DEBUG_WORDS = 24;

/** The instrumentation's state for one kernel: what memory.ts's hooks have emitted so far. */
export class Instrumentation {
  readonly accesses: InstrumentAbi["accesses"] = [];
  readonly lengths: Record<string, string> = {};
  readonly provenance: Record<string, string> = {};
  /** Loaded and stored buffers → their `kl_reads_<param>` (2 words per element: the highest program linear id + 1 that loaded it, and 0xffffffff − the lowest). */
  readonly reads: Record<string, string> = {};
  races: RaceChecked = { stores: new Set(), loads: new Set() };
  views?: Readonly<Record<string, PointerView>>;

  /** Adds a u32 element count per pointer parameter after the scalars; returns the uniform words. */
  bindLengths(gen: Generator): number {
    let word = 4 + gen.scalars.length;
    // A storage shared by views (KernelIR.views) is checked per view: each access against the elements of the pointer it went through.
    const views = Object.entries(gen.ir.views ?? {});
    const checked = [...[...gen.buffers.keys()].filter((name) => !views.some(([, v]) => v.storage === name)), ...views.map(([name]) => name)];
    for (const name of checked) {
      const scalar = `kl_len_${name}`;
      gen.scalars.push({ name: scalar, dtype: "u32", word: word++ });
      this.lengths[name] = scalar;
    }
    for (const name of gen.ir.writtenParams) this.provenance[name] = `kl_prov_${name}`;
    if (gen.ir.views) this.views = gen.ir.views;
    this.races = raceChecked(gen.ir);
    for (const name of this.races.loads) this.reads[name] = `kl_reads_${name}`;
    return Math.ceil(word / 4) * 4;
  }

  access(kind: MemoryAccessKind, param: string, span: Span): number {
    const id = this.accesses.length;
    this.accesses.push({ id, kind, param, span });
    return id;
  }
}

/** The pointer parameter an access goes through, as the user wrote it: the view (ValueType's `view`) where its storage is shared. */
export function accessedParam(type: Extract<ValueType, { kind: "pointer" }>): string {
  return type.view ?? type.param;
}

/**
 * WGSL that checks register j of `ptr` (when its lane is active) before the access itself: a
 * view's index against its own elements (from its offset in the shared storage), so an access
 * past one view is out of bounds even where the storage goes on.
 */
export function boundsCheck(gen: Generator, id: number, ptr: Value, j: number): string {
  return boundsCheckAt(gen, id, ptr, gen.reg(ptr, j), gen.elementIndex(ptr.type, j));
}

/** boundsCheck for the element at `index` (i32, WGSL) of the block's element `lane`. */
function boundsCheckAt(gen: Generator, id: number, ptr: Value, pointer: string, lane: string): string {
  if (ptr.type.kind !== "pointer") return "";
  const view = ptr.type.view;
  const offset = view ? gen.ir.views?.[view]?.offset ?? 0 : 0;
  const index = view && offset !== 0 ? `(${pointer} - params.s_${viewOffsetScalar(view)})` : pointer;
  const length = `params.s_kl_len_${accessedParam(ptr.type)}`;
  return `if (kl_out_of_bounds(${index}, ${length})) { kl_note(${id}u, ${lane}, ${index}, ${length}); } `;
}

/**
 * The checks of every register of one tl.load or tl.store (each active lane's bounds; a store's
 * provenance and races, a load's note of its program): lines for the load to emit before its reads,
 * the store after its writes. Each register's index and element go into an array and one loop checks them:
 * written out per register, a 128×256 tile's store was 256 copies of the checks and their atomics
 * (500 KB of WGSL), which lavapipe took about 11 minutes to compile (bench/NOTES.md §40).
 */
export function checkRegisters(gen: Generator, id: number, ptr: Value, mask: Value | undefined, kind: "load" | "store"): string[] {
  if (ptr.type.kind !== "pointer") return [];
  const checks = (index: string, lane: string) =>
    boundsCheckAt(gen, id, ptr, index, lane) + (kind === "store" ? provenanceWrite(gen, id, ptr, index, lane).trimStart() : loadNote(gen, id, ptr, index, lane));
  const ept = gen.layout(ptr.type).ept;
  if (ept === 1) {
    const check = checks(gen.reg(ptr, 0), gen.elementIndex(ptr.type, 0)).trimEnd();
    return [mask ? `if (${gen.reg(mask, 0)}) { ${check} }` : check];
  }
  // A masked-off lane is no access: its element is noted as -1 and skipped.
  const register = (j: number) => {
    const lane = gen.elementIndex(ptr.type, j);
    return `kl_regs[${j}] = vec2<i32>(${gen.reg(ptr, j)}, ${mask ? `select(-1i, ${lane}, ${gen.reg(mask, j)})` : lane});`;
  };
  return [
    "{",
    `  var kl_regs: array<vec2<i32>, ${ept}>;`,
    ...Array.from({ length: ept }, (_, j) => `  ${register(j)}`),
    `  for (var kl_j = 0; kl_j < ${ept}; kl_j++) {`,
    "    let kl_r = kl_regs[kl_j];",
    `    if (kl_r.y >= 0) { ${checks("kl_r.x", "kl_r.y").trimEnd()} }`,
    "  }",
    "}",
  ];
}

/** WGSL that records who stored the element at `index` (block element `lane`), after the store, and notes a race with another program's store or load. */
function provenanceWrite(gen: Generator, id: number, ptr: Value, index: string, lane: string): string {
  if (ptr.type.kind !== "pointer" || !gen.instrumentation) return "";
  const param = ptr.type.param;
  const shadow = `kl_prov_${param}`;
  const site = `((${id}u << 16u) | u32(${lane}))`;
  // The site is written before the program's stamp, which a load reads first (kl_check_store): a load that sees this
  // program's stamp sees its site, not the 0 a fresh shadow holds (read as access 0, lane 0: a store said to be at the
  // first access's line, the load's in shift_back, test/python/load-hazard-after.py).
  if (!gen.instrumentation.races.stores.has(param)) {
    return ` atomicStore(&${shadow}[2u * u32(${index}) + 1u], ${site}); atomicStore(&${shadow}[2u * u32(${index})], linear + 1u);`;
  }
  const reads = gen.instrumentation.reads[param];
  const afterLoads = reads ? ` kl_check_reads(atomicLoad(&${reads}[2u * u32(${index})]), atomicLoad(&${reads}[2u * u32(${index}) + 1u]), ${site}, u32(${index}));` : "";
  return ` { let kl_was_site = atomicExchange(&${shadow}[2u * u32(${index}) + 1u], ${site}); kl_stored(atomicExchange(&${shadow}[2u * u32(${index})], linear + 1u), kl_was_site, ${site}, u32(${index})); }${afterLoads}`;
}

/** WGSL for an active lane of a load from a buffer the kernel also stores: note the program, check for another program's store. */
function loadNote(gen: Generator, id: number, ptr: Value, index: string, lane: string): string {
  if (ptr.type.kind !== "pointer" || !gen.instrumentation) return "";
  const reads = gen.instrumentation.reads[ptr.type.param];
  if (!reads) return "";
  const shadow = `kl_prov_${ptr.type.param}`;
  const site = `((${id}u << 16u) | u32(${lane}))`;
  return (
    `atomicMax(&${reads}[2u * u32(${index})], linear + 1u); atomicMax(&${reads}[2u * u32(${index}) + 1u], 0xffffffffu - linear); ` +
    `kl_check_store(atomicLoad(&${shadow}[2u * u32(${index})]), atomicLoad(&${shadow}[2u * u32(${index}) + 1u]), ${site}, u32(${index})); `
  );
}

/**
 * The extra bindings after the kernel's own (and after `lastTaken`, the print buffer's where the
 * kernel prints), their declarations and the helpers the checks call.
 */
export function instrumentDeclarations(gen: Generator, state: Instrumentation, lastTaken = 0): { header: string[]; bindings: StorageBinding[] } {
  let binding = Math.max(lastTaken, ...[...gen.buffers.values()].map((b) => b.binding)) + 1;
  const bindings: StorageBinding[] = [{ name: "kl_debug", binding: binding++, dtype: "u32", vectorWidth: 1, access: "read_write" }];
  for (const shadow of [...Object.values(state.provenance), ...Object.values(state.reads)]) bindings.push({ name: shadow, binding: binding++, dtype: "u32", vectorWidth: 1, access: "read_write" });
  const header = [
    "",
    "// Instrumented variant (src/codegen/instrument.ts): bounds checks and store provenance.",
    `@group(0) @binding(${bindings[0].binding}) var<storage, read_write> kl_debug: array<atomic<u32>>;`,
    ...bindings.slice(1).map((b) => `@group(0) @binding(${b.binding}) var<storage, read_write> ${b.name}: array<atomic<u32>>;`),
    // Each check only notes the invocation's first bad lane in private memory; main reports it
    // once, at its end (atomics at every access made lavapipe's compile of a tiled matmul 4× slower).
    "var<private> kl_bad: bool;",
    "var<private> kl_first: vec4<u32>;",
    "var<private> linear_id: u32;",
    "fn kl_out_of_bounds(index: i32, length: u32) -> bool { return index < 0 || u32(index) >= length; }",
    "fn kl_note(access: u32, lane: i32, index: i32, length: u32) {",
    "  if (!kl_bad) { kl_bad = true; kl_first = vec4<u32>(access, u32(lane), bitcast<u32>(index), length); }",
    "}",
    // A race: the stamp a store swapped out is another program's (its linear id + 1 and site).
    "fn kl_stored(was: u32, was_site: u32, site: u32, index: u32) {",
    "  if (was == 0u || was == linear_id + 1u) { return; }",
    "  if (atomicAdd(&kl_debug[8], 1u) != 0u) { return; }",
    "  atomicStore(&kl_debug[9], was - 1u); atomicStore(&kl_debug[10], was_site); atomicStore(&kl_debug[11], linear_id); atomicStore(&kl_debug[12], site); atomicStore(&kl_debug[13], index);",
    "}",
    // A load of an element another program stored (store stamp seen at the load) …
    "fn kl_check_store(stamp: u32, stamp_site: u32, site: u32, index: u32) {",
    "  if (stamp == 0u || stamp == linear_id + 1u) { return; }",
    "  kl_hazard(stamp - 1u, stamp_site, linear_id, site, index);",
    "}",
    // … or a store of an element another program loaded (its reads seen at the store; the load's lane unknown).
    "fn kl_check_reads(highest: u32, lowest: u32, site: u32, index: u32) {",
    "  if (highest == 0u) { return; }",
    "  let low = 0xffffffffu - lowest;",
    "  if (highest - 1u != linear_id) { kl_hazard(linear_id, site, highest - 1u, 0xffffffffu, index); }",
    "  else if (low != linear_id) { kl_hazard(linear_id, site, low, 0xffffffffu, index); }",
    "}",
    "fn kl_hazard(storer: u32, store_site: u32, loader: u32, load_site: u32, index: u32) {",
    "  if (atomicAdd(&kl_debug[16], 1u) != 0u) { return; }",
    "  atomicStore(&kl_debug[17], storer); atomicStore(&kl_debug[18], store_site); atomicStore(&kl_debug[19], loader); atomicStore(&kl_debug[20], load_site); atomicStore(&kl_debug[21], index);",
    "}",
    "fn kl_report(pid: vec3<u32>) {",
    "  if (atomicAdd(&kl_debug[0], 1u) != 0u) { return; }",
    "  atomicStore(&kl_debug[1], pid.x); atomicStore(&kl_debug[2], pid.y); atomicStore(&kl_debug[3], pid.z);",
    "  atomicStore(&kl_debug[4], kl_first.y); atomicStore(&kl_debug[5], kl_first.x); atomicStore(&kl_debug[6], kl_first.z); atomicStore(&kl_debug[7], kl_first.w);",
    "}",
  ];
  return { header, bindings };
}

/** Lines at the top of `main`, after the program id: the extra bindings, used. */
export function instrumentPrologue(bindings: readonly StorageBinding[]): string[] {
  return [...bindings.map((b) => `  _ = arrayLength(&${b.name});`), "  linear_id = linear;"];
}

/** The last lines of `main`: the invocation's first out-of-bounds lane, if any, into kl_debug. */
export const INSTRUMENT_EPILOGUE = ["  if (kl_bad) { kl_report(vec3<u32>(u32(pid_x), u32(pid_y), u32(pid_z))); }"];

export function instrumentAbi(state: Instrumentation): InstrumentAbi {
  return { debugBuffer: "kl_debug", debugWords: DEBUG_WORDS, provenance: state.provenance, reads: state.reads, lengths: state.lengths, accesses: state.accesses, ...(state.views ? { views: state.views } : {}) };
}

// tl.load and tl.store in WGSL: one element per register, or a vec4 per run of 4 registers when
// the pointers are contiguous (contiguity.ts), with a run-time fallback to scalars for a run that
// is misaligned or partly masked.

import { Codes } from "../diagnostics/codes";
import type { Stmt, Value } from "../ir/ir";
import type { WgslGenerator } from "./generator";
import { valueName } from "./generator";
import { accessedParam, checkRegisters } from "./instrument";
import { literal } from "./literals";
import { atomicRead, atomicWrite } from "./atomics";
import { inRunsOfFour, isWide, knownWhole, readsChunks, readsOctets, readsShifted, readsWide, readsWords } from "./load-forms";
import { CHUNK_REGISTER_TYPES, chunkRegisters, emitShiftedRun, packHalves, packedHalf, packedRun } from "./packed-halves";
import { tileInside } from "./mma-store";
import { isZero } from "./mma-plan";
import { packedRead, packedRunRead, packedRunWrite, packedWrite, wordField, type WordField } from "./bytes";

export function emitStore(gen: WgslGenerator, s: Extract<Stmt, { kind: "store" }>): void {
  const { ptr, value, mask } = s;
  if (ptr.type.kind !== "pointer") return gen.log.error(Codes.internal, ptr.span, "tl.store through a non-pointer");
  const param = ptr.type.param;
  const packed = wordField(gen, param, ptr.type.pointee);
  const layout = gen.layout(ptr.type);
  // A replicated or row-slice block is held by several invocations: only the first copy writes.
  const owner = gen.ownerCondition(ptr.type);
  const access = gen.instrumentation?.access("store", accessedParam(ptr.type), s.span);
  const scalarWrite = (j: number) => {
    let write = packed
      ? packedWrite(param, packed, gen.reg(ptr, j), gen.reg(value, j))
      : gen.atomicBuffers.has(param)
      ? atomicWrite(gen, param, gen.reg(ptr, j), gen.reg(value, j))
      : `${element(gen, param, gen.reg(ptr, j))} = ${gen.reg(value, j)};`;
    gen.emit(mask ? `if (${gen.reg(mask, j)}) { ${write} }` : write);
  };
  const writes = () => {
    if (packed && byteRuns(gen, ptr)) {
      // An aligned, unmasked run of 4 bytes (or bf16s, f16s) is whole words of this invocation's (bytes.ts).
      for (let j = 0; j < layout.ept; j += 4) {
        const run = [j, j + 1, j + 2, j + 3];
        gen.emit(`if (${wideCondition(gen, ptr, mask, j)}) {`);
        gen.nested(() => gen.emit(packedRunWrite(param, packed, gen.reg(ptr, j), run.map((k) => gen.reg(value, k)))));
        gen.emit("} else {");
        gen.nested(() => run.forEach(scalarWrite));
        gen.emit("}");
      }
      return;
    }
    // A buffer a direct matrix store writes (mma-store.ts) is bound as scalars: its other stores too.
    if (!isWide(gen, ptr) || !gen.wideBuffers.has(param)) return gen.registers(ptr.type, scalarWrite);
    for (let j = 0; j < layout.ept; j += 4) {
      const run = [j, j + 1, j + 2, j + 3];
      gen.emit(`if (${wideCondition(gen, ptr, mask, j)}) {`);
      gen.nested(() => gen.emit(`b_${param}[${gen.reg(ptr, j)} >> 2u] = vec4(${run.map((k) => gen.reg(value, k)).join(", ")});`));
      gen.emit("} else {");
      gen.nested(() => run.forEach(scalarWrite));
      gen.emit("}");
    }
  };
  // The instrumented variant's checks of every register, after the writes (instrument.ts).
  const checkedWrites = () => {
    writes();
    if (access !== undefined) for (const line of checkRegisters(gen, access, ptr, mask, "store")) gen.emit(line);
  };
  if (!owner) return checkedWrites();
  gen.emit(`if (${owner}) {`);
  gen.nested(checkedWrites);
  gen.emit("}");
}

export function emitLoad(gen: WgslGenerator, v: Value & { op: "load" }, emitValue: (v: Value) => void): void {
  const ptr = v.ptr;
  if (ptr.type.kind !== "pointer") return gen.log.error(Codes.internal, v.span, "tl.load through a non-pointer");
  const param = ptr.type.param;
  const packed = wordField(gen, param, ptr.type.pointee);
  const t = gen.typeOf(v.type);
  const access = gen.instrumentation?.access("load", accessedParam(ptr.type), v.span);
  const readAt = (j: number) => packed ? packedRead(gen, param, packed, gen.reg(ptr, j)) : gen.atomicBuffers.has(param) ? atomicRead(gen, param, gen.reg(ptr, j)) : element(gen, param, gen.reg(ptr, j));
  const scalarRead = (j: number, declare: boolean) => {
    const name = valueName(v, j);
    const read = readAt(j);
    if (!v.mask) {
      gen.emit(declare ? `let ${name} = ${read};` : `${name} = ${read};`);
      return;
    }
    // Masked-off lanes don't touch memory, so a mask may guard out-of-bounds offsets.
    const other = v.other ? gen.reg(v.other, j) : literal(0, gen.dtype(v.type));
    if (declare) gen.emit(`var ${name}: ${t} = ${other};`);
    else gen.emit(`${name} = ${other};`);
    gen.emit(`if (${gen.reg(v.mask, j)}) { ${name} = ${read}; }`);
  };
  // The instrumented variant checks every register before the reads (instrument.ts); it reads them one by one.
  if (access !== undefined) for (const line of checkRegisters(gen, access, ptr, v.mask, "load")) gen.emit(line);
  // A scalar that other programs change while this one runs (an atomic buffer: xformers' and tutorial
  // 05's lock counters, `count = tl.load(Count)`) and that steers control is read once and handed to
  // every invocation, so the program takes one branch, as Triton's scalar is one value per program.
  // So is a scalar of a buffer the kernel writes that steers a barrier (a reduction or tl.dot under an
  // `if` or in a loop it steers, as unsloth's grouped GEMM's `m_size = tl.load(m_sizes_ptr + expert_idx)`):
  // WGSL takes a read of a read-only buffer at a uniform index as uniform, not one of a read_write buffer.
  const handOut = (gen.atomicBuffers.has(param) && gen.steersControl(v)) || (gen.ir.writtenParams.has(param) && gen.steersBarrier(v));
  if (v.type.shape.length === 0 && !v.mask && handOut && gen.nonUniformDepth === 0) {
    const u = gen.scratch("u", gen.dtype(v.type), 1);
    gen.emit(`if (lid == 0u) { ${u}[0] = ${readAt(0)}; }`);
    gen.emit(`let ${valueName(v, 0)} = workgroupUniformLoad(&${u}[0]);`);
    gen.uniformLoads.add(v.id);
    return;
  }
  if (packed && byteRuns(gen, ptr)) return byteRunLoad(gen, v, packed, scalarRead);
  if (gen.wordBuffers.has(param) && readsWords(gen, v)) return wordRunLoad(gen, v, emitValue);
  if (gen.octetBuffers.has(param) && readsChunks(gen, v)) return chunkRunLoad(gen, v, emitValue);
  if (!readsWide(gen, v)) {
    const deferred = gen.tileMasks.loads.get(v.id);
    if (!deferred || !v.mask) return gen.registers(v.type, (j) => scalarRead(j, true));
    return tiledElementLoad(gen, v, deferred, scalarRead, emitValue);
  }
  const layout = gen.layout(v.type);
  if (ptr.type.pointee === "f16") return wideHalfLoad(gen, v, layout.ept, scalarRead, emitValue);
  for (let j = 0; j < layout.ept; j += 4) {
    const run = [j, j + 1, j + 2, j + 3];
    for (const k of run) gen.emit(`var ${valueName(v, k)}: ${t};`);
    gen.emit(`if (${wideCondition(gen, ptr, v.mask, j)}) {`);
    gen.nested(() => {
      gen.emit(`let w = b_${param}[${gen.reg(ptr, j)} >> 2u];`);
      run.forEach((k, lane) => gen.emit(`${valueName(v, k)} = w.${"xyzw"[lane]};`));
    });
    gen.emit("} else {");
    gen.nested(() => run.forEach((k) => scalarRead(k, false)));
    gen.emit("}");
  }
}

/**
 * A load of f16 runs. Where every run is known to be aligned and its mask the same for its 4
 * elements (contiguity.ts: sizes and strides specialised as multiples of 16), each run is one
 * vec4<f16> under one mask: `CodegenOptions.halfLoadForm` "block" (default) reads them all unmasked when
 * every run's mask is on and each under its mask otherwise, "tile" the same where a test on scalars
 * says the whole tile is inside the mask (the per-run masks then needed on the other way only:
 * bench/NOTES.md §41), "select" reads each run from a safe
 * index where it is masked off and selects `other`, without a branch. Runs not known aligned are
 * read element by element (readsWide), or with `shiftedHalfRows` as the two aligned vec4<f16>
 * around each, shifted in registers (packed-halves.ts). Otherwise (`divisibility: false`, or runs
 * known aligned but masked per lane) one branch for the whole block: every run aligned and every
 * lane's mask on reads them all as vec4<f16>, in straight-line code; any other block reads every
 * element on its own. A branch per run with a scalar fallback in each, as f32 loads have, made the
 * f16 matmul on subgroup matrices slower than scalar loads on the H200 (bench/NOTES.md §18, §19).
 * A packed load (mmaPackedPrefetch) holds each run as one vec2<u32> instead of 4 f16 registers.
 */
function wideHalfLoad(gen: WgslGenerator, v: Value & { op: "load" }, ept: number, scalarRead: (j: number, declare: boolean) => void, emitValue: (v: Value) => void): void {
  const t = gen.typeOf(v.type);
  const param = (v.ptr.type as { param: string }).param;
  const runs = Array.from({ length: ept / 4 }, (_, r) => 4 * r);
  const lanes = [0, 1, 2, 3];
  const other = (k: number) => (v.other ? gen.reg(v.other, k) : literal(0, gen.dtype(v.type)));
  const others = (j: number) => packHalves(lanes.map((lane) => other(j + lane)));
  const packed = gen.packed.values.has(v.id);
  // Packed by runs of 8 (packed-halves.ts): one vec4<u32> per run of 8, the 16-byte load's own registers.
  const packed8 = packed && packedRun(gen.packed, v.id) === 8;
  const declare = () => {
    if (packed8) for (const j of runs.filter((r) => r % 8 === 0)) gen.emit(`var ${valueName(v, j)}: vec4<u32>;`);
    else if (packed) for (const j of runs) gen.emit(`var ${valueName(v, j)}: vec2<u32>;`);
    else for (let k = 0; k < ept; k++) gen.emit(`var ${valueName(v, k)}: ${t};`);
  };
  /** Sets run j's registers from a vec4<f16> expression, read once. */
  const setRun = (j: number, vec: string) => {
    if (packed) return gen.emit(`${valueName(v, j)} = bitcast<vec2<u32>>(${vec});`);
    const w = gen.fresh("w");
    gen.emit(`let ${w} = ${vec};`);
    for (const lane of lanes) gen.emit(`${valueName(v, j + lane)} = ${w}.${"xyzw"[lane]};`);
  };
  const setOther = (j: number) => {
    if (packed8) return gen.emit(`${valueName(v, j)} = vec4<u32>(${others(j)}, ${others(j + 4)});`);
    if (packed) return gen.emit(`${valueName(v, j)} = ${others(j)};`);
    for (const lane of lanes) gen.emit(`${valueName(v, j + lane)} = ${other(j + lane)};`);
  };
  const readRun = (j: number) => setRun(j, halfRun(gen, param, gen.reg(v.ptr, j)));
  // 8 halves at a time (readsOctets): runs j and j + 4 from one vec4<u32>, j a multiple of 8.
  const octets = readsOctets(gen, v);
  const setOctet = (j: number) => {
    const read = `b_${param}[${gen.reg(v.ptr, j)} >> 3u]`;
    if (packed8) return gen.emit(`${valueName(v, j)} = ${read};`);
    const w = gen.fresh("w");
    gen.emit(`let ${w} = ${read};`);
    [`${w}.xy`, `${w}.zw`].forEach((pair, r) => (packed ? gen.emit(`${valueName(v, j + 4 * r)} = ${pair};`) : setRun(j + 4 * r, `bitcast<vec4<f16>>(${pair})`)));
  };
  const firsts = octets ? runs.filter((j) => j % 8 === 0) : runs;
  const read = octets ? setOctet : readRun;
  const unmasked = () => firsts.forEach(read);
  if (readsShifted(gen, v)) return shiftedHalfLoad(gen, v, runs, other);
  if (knownWhole(gen, v)) {
    const mask = v.mask;
    if (mask && gen.options.halfLoadForm === "select" && octets) return selectOctets(gen, v, firsts, other, others);
    if (mask && gen.options.halfLoadForm === "select") {
      for (const j of runs) {
        const read = gen.octetBuffers.has(param) ? halfRun(gen, param, `select(0i, ${gen.reg(v.ptr, j)}, ${gen.reg(mask, j)})`) : `b_${param}[select(0i, ${gen.reg(v.ptr, j)} >> 2u, ${gen.reg(mask, j)})]`;
        if (packed) {
          gen.emit(`let ${valueName(v, j)} = select(${others(j)}, bitcast<vec2<u32>>(${read}), ${gen.reg(mask, j)});`);
          continue;
        }
        const w = gen.fresh("w");
        gen.emit(`let ${w} = ${read};`);
        for (const lane of lanes) gen.emit(`let ${valueName(v, j + lane)} = select(${other(j + lane)}, ${w}.${"xyzw"[lane]}, ${gen.reg(mask, j)});`);
      }
      return;
    }
    declare();
    if (!mask) return unmasked();
    const whole = gen.fresh("whole");
    // "tile": whether the whole tile is inside the mask, from scalars (tile-masks.ts); the mask's
    // values are emitted on the other way.
    const deferred = gen.tileMasks.loads.get(v.id);
    const tile = deferred ? tileInside(gen, mask) : undefined;
    gen.emit(`let ${whole} = ${tile ?? runs.map((j) => gen.reg(mask, j)).join(" & ")};`);
    gen.emit(`if (${whole}) {`);
    gen.nested(unmasked);
    gen.emit("} else {");
    gen.nested(() => {
      for (const d of deferred ?? []) emitValue(d);
      for (const j of firsts) {
        setOther(j);
        if (octets && !packed8) setOther(j + 4);
        gen.emit(`if (${gen.reg(mask, j)}) {`);
        gen.nested(() => read(j));
        gen.emit("}");
      }
    });
    gen.emit("}");
    return;
  }
  declare();
  const whole = gen.fresh("whole");
  const aligned = runs.map((j) => `((${gen.reg(v.ptr, j)} & 3) == 0)`);
  const masks = v.mask ? Array.from({ length: ept }, (_, k) => gen.reg(v.mask!, k)) : [];
  gen.emit(`let ${whole} = ${[...masks, ...aligned].join(" & ")};`);
  gen.emit(`if (${whole}) {`);
  gen.nested(unmasked);
  gen.emit("} else {");
  gen.nested(() => {
    for (let k = 0; k < ept; k++) scalarRead(k, false);
  });
  gen.emit("}");
}

/**
 * halfLoadForm "select" on runs of 8 (readsOctets): each run of 8 read from index 0 where its mask is
 * off and `other` selected, with no branch; packed by runs of 8, as one vec4<u32>.
 */
function selectOctets(gen: WgslGenerator, v: Value & { op: "load" }, firsts: readonly number[], other: (k: number) => string, others: (j: number) => string): void {
  const param = (v.ptr.type as { param: string }).param;
  const packed = gen.packed.values.has(v.id);
  for (const j of firsts) {
    const mask = gen.reg(v.mask!, j);
    const read = `b_${param}[select(0i, ${gen.reg(v.ptr, j)} >> 3u, ${mask})]`;
    if (packed && packedRun(gen.packed, v.id) === 8) {
      gen.emit(`let ${valueName(v, j)} = select(vec4<u32>(${others(j)}, ${others(j + 4)}), ${read}, ${mask});`);
      continue;
    }
    const w = gen.fresh("w");
    gen.emit(`let ${w} = ${read};`);
    [`${w}.xy`, `${w}.zw`].forEach((pair, r) => {
      const k = j + 4 * r;
      if (packed) return gen.emit(`let ${valueName(v, k)} = select(${others(k)}, ${pair}, ${mask});`);
      const h = gen.fresh("w");
      gen.emit(`let ${h} = bitcast<vec4<f16>>(${pair});`);
      for (const lane of [0, 1, 2, 3]) gen.emit(`let ${valueName(v, k + lane)} = select(${other(k + lane)}, ${h}.${"xyzw"[lane]}, ${mask});`);
    });
  }
}

/**
 * An f16 load read element by element (its runs not known aligned) under halfLoadForm "tile": one
 * test on scalars says whether the whole tile is inside the mask (tile-masks.ts); on that way every
 * element is read with no test of its own, on the other each under its mask, the mask's values
 * emitted there. At 1000 × 1001 × 1003 no row of A or B starts aligned, so this is the matmul's
 * only tile test there (bench/NOTES.md §45).
 */
function tiledElementLoad(gen: WgslGenerator, v: Value & { op: "load" }, deferred: readonly Value[], scalarRead: (j: number, declare: boolean) => void, emitValue: (v: Value) => void): void {
  const t = gen.typeOf(v.type);
  const param = (v.ptr.type as { param: string }).param;
  const ept = gen.layout(v.type).ept;
  for (let j = 0; j < ept; j++) gen.emit(`var ${valueName(v, j)}: ${t};`);
  gen.emit(`if (${tileInside(gen, v.mask!)}) {`);
  gen.nested(() => {
    for (let j = 0; j < ept; j++) gen.emit(`${valueName(v, j)} = ${element(gen, param, gen.reg(v.ptr, j))};`);
  });
  gen.emit("} else {");
  gen.nested(() => {
    for (const d of deferred) emitValue(d);
    for (let j = 0; j < ept; j++) scalarRead(j, false);
  });
  gen.emit("}");
}

/**
 * An f16 load whose runs of 4 are not known aligned, its buffer bound as words (shiftedHalfRows
 * "words", load-forms.ts readsWords): each run read as the 3 words that cover it, shifted down by half a
 * word where it starts on an odd element. A masked load reads its runs on every lane and keeps each
 * half by `select` on its own mask, with no branch: a masked-off lane's words may lie past a row or
 * the buffer, which WebGPU bounds (an out-of-bounds read gives a value of the buffer or zero, never a
 * fault), and the select drops them. Under halfLoadForm "tile" the tile test on scalars (tile-masks.ts)
 * skips the masks where the whole tile is inside, and the mask's values are emitted on the other way
 * only. A branch on every lane's mask, with each half read from its own word on the other way, ran
 * the odd size's leader at 20 TFLOP/s on the H100 where this form runs at 55.5; half of that loss was
 * the half picked from a vector indexed at run time (bench/NOTES.md §69).
 */
function wordRunLoad(gen: WgslGenerator, v: Value & { op: "load" }, emitValue: (v: Value) => void): void {
  const param = (v.ptr.type as { param: string }).param;
  const ept = gen.layout(v.type).ept;
  const runs = () => {
    for (let j = 0; j < ept; j += 4) {
      const run = emitWordRun(gen, param, gen.reg(v.ptr, j));
      for (const lane of [0, 1, 2, 3]) gen.emit(`${valueName(v, j + lane)} = ${run}.${"xyzw"[lane]};`);
    }
  };
  const t = gen.typeOf(v.type);
  for (let k = 0; k < ept; k++) gen.emit(`var ${valueName(v, k)}: ${t};`);
  const mask = v.mask;
  if (!mask) return runs();
  const masked = () => {
    runs();
    for (let k = 0; k < ept; k++) {
      const other = v.other ? gen.reg(v.other, k) : literal(0, gen.dtype(v.type));
      gen.emit(`${valueName(v, k)} = select(${other}, ${valueName(v, k)}, ${gen.reg(mask, k)});`);
    }
  };
  underTileTest(gen, v, mask, runs, masked, emitValue);
}

/**
 * An f16 load in runs of 8 not known aligned, its buffer bound as vec4<u32> (shiftedHalfRows
 * "chunks", load-forms.ts readsChunks): each run of 8 read as the two aligned 16-byte chunks that
 * cover it, its halves shifted down by its start mod 8 (`kl_shifted8`, packed-halves.ts), as the
 * hand-written kernel of bench/NOTES.md §75. Where a run starts on a chunk the second chunk is not
 * used: it may lie past the buffer, which WebGPU bounds (a value of the buffer or zero, never a
 * fault). A masked load reads its runs on every lane and keeps each half by `select` on its own
 * mask, with no branch, as the words form does (wordRunLoad); under halfLoadForm "tile" the tile
 * test on scalars (tile-masks.ts) skips the selects where the whole tile is inside, and the mask's
 * values are emitted on the other way only. Packed (packed-halves.ts), a run is its vec4<u32>.
 */
function chunkRunLoad(gen: WgslGenerator, v: Value & { op: "load" }, emitValue: (v: Value) => void): void {
  const param = (v.ptr.type as { param: string }).param;
  const ept = gen.layout(v.type).ept;
  const firsts = Array.from({ length: ept / 8 }, (_, r) => 8 * r);
  const lanes = [0, 1, 2, 3, 4, 5, 6, 7];
  const packed = gen.packed.values.has(v.id);
  // Carried in shifted chunks (packed-halves.ts `shifts`): the chunks and the start, shifted where the variable is read.
  const carried = gen.packed.shifts.has(v.id);
  const other = (k: number) => (v.other ? gen.reg(v.other, k) : literal(0, gen.dtype(v.type)));
  if (carried) for (const j of firsts) chunkRegisters(valueName(v, j)).forEach((r, i) => gen.emit(`var ${r}: ${CHUNK_REGISTER_TYPES[i]};`));
  else if (packed) for (const j of firsts) gen.emit(`var ${valueName(v, j)}: vec4<u32>;`);
  else for (let k = 0; k < ept; k++) gen.emit(`var ${valueName(v, k)}: ${gen.typeOf(v.type)};`);
  /** Run j's start and its first chunk's index, as WGSL names. */
  const chunkOf = (j: number) => {
    const [i, c] = ["ci", "cc"].map((p) => gen.fresh(p));
    gen.emit(`let ${i} = u32(${gen.reg(v.ptr, j)});`);
    gen.emit(`let ${c} = ${i} >> 3u;`);
    return [i, c];
  };
  const read = (j: number) => {
    const [i, c] = chunkOf(j);
    const run = gen.fresh("crun");
    gen.emit(`let ${run} = kl_shifted8(b_${param}[${c}], b_${param}[${c} + 1u], ${i} & 7u);`);
    return run;
  };
  /** Carried: run j's chunks and start, and its halves' mask (`keep`: a vec4<u32>, all kept by default). */
  const carry = (j: number, keep = "vec4<u32>(0xffffffffu)") => {
    const [p, q, start, m] = chunkRegisters(valueName(v, j));
    const [i, c] = chunkOf(j);
    gen.emit(`${p} = b_${param}[${c}];`);
    gen.emit(`${q} = b_${param}[${c} + 1u];`);
    gen.emit(`${start} = ${i};`);
    gen.emit(`${m} = ${keep};`);
  };
  const runs = () => {
    for (const j of firsts) {
      if (carried) {
        carry(j);
        continue;
      }
      const run = read(j);
      if (packed) gen.emit(`${valueName(v, j)} = ${run};`);
      else for (const lane of lanes) gen.emit(`${valueName(v, j + lane)} = ${packedHalf(run, lane)};`);
    }
  };
  const mask = v.mask;
  if (!mask) return runs();
  // Carried with a zero `other`, a masked run is carried as an unmasked one with its mask's halves,
  // zeroed where it is read (chunkRead), so its loads are not waited on here either (bench/NOTES.md §83).
  const zeroOther = !v.other || isZero(v.other, true);
  const halfMask = (j: number, w: number) => `select(0u, 0xffffu, ${gen.reg(mask, j + 2 * w)}) | select(0u, 0xffff0000u, ${gen.reg(mask, j + 2 * w + 1)})`;
  const masked = () => {
    for (const j of firsts) {
      if (carried && zeroOther) {
        carry(j, `vec4<u32>(${[0, 1, 2, 3].map((w) => halfMask(j, w)).join(", ")})`);
        continue;
      }
      const run = read(j);
      const half = (lane: number) => `select(${other(j + lane)}, ${packedHalf(run, lane)}, ${gen.reg(mask, j + lane)})`;
      // Carried in shifted chunks with another `other`, the run shifted already: the next chunk unused, a start of 0, all kept.
      if (carried) {
        const [, q, start, m] = chunkRegisters(valueName(v, j));
        gen.emit(`${q} = vec4<u32>();`);
        gen.emit(`${start} = 0u;`);
        gen.emit(`${m} = vec4<u32>(0xffffffffu);`);
      }
      if (packed) gen.emit(`${valueName(v, j)} = vec4<u32>(${packHalves(lanes.slice(0, 4).map(half))}, ${packHalves(lanes.slice(4).map(half))});`);
      else for (const lane of lanes) gen.emit(`${valueName(v, j + lane)} = ${half(lane)};`);
    }
  };
  underTileTest(gen, v, mask, runs, masked, emitValue);
}

/**
 * A masked load's reads under halfLoadForm "tile" (tile-masks.ts): `whole` where the test on scalars
 * says the whole tile is inside the mask, else the mask's values (emitted there only) and `masked`;
 * `masked` alone for a load the tile test does not cover.
 */
function underTileTest(gen: WgslGenerator, v: Value & { op: "load" }, mask: Value, whole: () => void, masked: () => void, emitValue: (v: Value) => void): void {
  const deferred = gen.tileMasks.loads.get(v.id);
  if (!deferred) return masked();
  gen.emit(`if (${tileInside(gen, mask)}) {`);
  gen.nested(whole);
  gen.emit("} else {");
  gen.nested(() => {
    for (const d of deferred) emitValue(d);
    masked();
  });
  gen.emit("}");
}

/**
 * Emits the read of the 4 halves from element `ptr` (an i32 expression; any alignment, every half
 * inside the buffer) of `b_<param>` bound as words, and returns the name of a vec4<f16> holding them:
 * words i/2 and i/2 + 1, and on an odd start the word after them too, each pair shifted by 16 bits.
 * On an even start the third read is the second's word again, so no read passes the run's last half.
 */
function emitWordRun(gen: WgslGenerator, param: string, ptr: string): string {
  const [i, a, b, c, r] = ["wi", "wa", "wb", "wc", "wrun"].map((p) => gen.fresh(p));
  const array = `b_${param}`;
  gen.emit(`let ${i} = u32(${ptr});`);
  gen.emit(`let ${a} = ${array}[${i} >> 1u];`);
  gen.emit(`let ${b} = ${array}[(${i} >> 1u) + 1u];`);
  gen.emit(`let ${c} = ${array}[(${i} >> 1u) + 1u + (${i} & 1u)];`);
  gen.emit(`let ${r} = bitcast<vec4<f16>>(select(vec2(${a}, ${b}), vec2((${a} >> 16u) | (${b} << 16u), (${b} >> 16u) | (${c} << 16u)), (${i} & 1u) == 1u));`);
  return r;
}

/** Each run of an f16 load not known aligned read as the two aligned vec4<f16> around it (packed-halves.ts), `other` where masked. */
function shiftedHalfLoad(gen: WgslGenerator, v: Value & { op: "load" }, runs: readonly number[], other: (k: number) => string): void {
  const lanes = [0, 1, 2, 3];
  const param = (v.ptr.type as { param: string }).param;
  for (const j of runs) {
    const masks = v.mask ? lanes.map((lane) => gen.reg(v.mask!, j + lane)) : undefined;
    const run = emitShiftedRun(gen, param, gen.reg(v.ptr, j), masks);
    const value = (lane: number) => (masks ? `select(${other(j + lane)}, ${packedHalf(run, lane)}, ${masks[lane]})` : packedHalf(run, lane));
    if (gen.packed.values.has(v.id)) gen.emit(`let ${valueName(v, j)} = ${masks ? packHalves(lanes.map(value)) : run};`);
    else for (const lane of lanes) gen.emit(`let ${valueName(v, j + lane)} = ${value(lane)};`);
  }
}

/** Whether accesses of 8-bit (or bf16) elements through `ptr` go whole words per aligned run (not in the instrumented variant: it checks each lane). */
function byteRuns(gen: WgslGenerator, ptr: Value): boolean {
  return gen.options.instrument !== true && inRunsOfFour(gen, ptr);
}

/** A load of 8-bit (or bf16) elements in runs of 4: an aligned run with every lane's mask on reads its words once. */
function byteRunLoad(gen: WgslGenerator, v: Value & { op: "load" }, pointee: WordField, scalarRead: (j: number, declare: boolean) => void): void {
  const param = (v.ptr.type as { param: string }).param;
  const t = gen.typeOf(v.type);
  for (let j = 0; j < gen.layout(v.type).ept; j += 4) {
    const run = [j, j + 1, j + 2, j + 3];
    for (const k of run) gen.emit(`var ${valueName(v, k)}: ${t};`);
    gen.emit(`if (${wideCondition(gen, v.ptr, v.mask, j)}) {`);
    gen.nested(() => {
      const { read, lanes } = packedRunRead(gen, param, pointee, gen.reg(v.ptr, j), "w");
      gen.emit(read);
      run.forEach((k, lane) => gen.emit(`${valueName(v, k)} = ${lanes[lane]};`));
    });
    gen.emit("} else {");
    gen.nested(() => run.forEach((k) => scalarRead(k, false)));
    gen.emit("}");
  }
}

/**
 * A run of 4 registers moves as one vec4 when every lane's mask is on and the run starts on a
 * multiple of 4 elements (checked at run time; the rest of the run falls back to scalars).
 */
function wideCondition(gen: WgslGenerator, ptr: Value, mask: Value | undefined, j: number): string {
  const parts = mask ? [0, 1, 2, 3].map((k) => gen.reg(mask, j + k)) : [];
  parts.push(`((${gen.reg(ptr, j)} & 3) == 0)`);
  return parts.join(" & ");
}

/** One element of a buffer, as a WGSL reference (a value, for a buffer of halves read 8 or 2 at a time). */
function element(gen: WgslGenerator, param: string, index: string): string {
  if (gen.octetBuffers.has(param)) return `bitcast<vec2<f16>>(b_${param}[(${index}) >> 3u][((${index}) >> 1u) & 3])[(${index}) & 1]`;
  // A word's half picked by select: a vector indexed at run time cost the odd size's masked way half its speed (NOTES §69).
  if (gen.wordBuffers.has(param)) {
    const word = `bitcast<vec2<f16>>(b_${param}[(${index}) >> 1u])`;
    return `select(${word}.x, ${word}.y, ((${index}) & 1) != 0)`;
  }
  return gen.wideBuffers.has(param) ? `b_${param}[(${index}) >> 2u][(${index}) & 3]` : `b_${param}[${index}]`;
}

/**
 * The 4 halves from element `index` (a multiple of 4) of an f16 buffer, as a vec4<f16>: one
 * element of a buffer bound as vec4<f16>, half of one bound as vec4<u32> (8 halves at a time).
 */
function halfRun(gen: WgslGenerator, param: string, index: string): string {
  if (!gen.octetBuffers.has(param)) return `b_${param}[${index} >> 2u]`;
  const octet = `b_${param}[${index} >> 3u]`;
  return `bitcast<vec4<f16>>(select(${octet}.xy, ${octet}.zw, (${index} & 4) != 0))`;
}

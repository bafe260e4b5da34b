// tl.atomic* in WGSL. A buffer some atomic goes through is declared array<atomic<i32|u32>>
// (Ptr<f32>: atomic<u32>, the float's bits), never as vec4s; its plain tl.load/tl.store become
// atomicLoad/atomicStore (memory.ts). Each lane's read-modify-write is one WGSL atomic, except:
// tl.atomicCas retries atomicCompareExchangeWeak while it fails spuriously (Triton's cas is
// strong), and tl.atomicAdd, tl.atomicMax and tl.atomicMin on f32 — WGSL has no float atomics —
// are compare-and-swap loops on the bits (max and min order the floats as Triton's lowering does:
// floatWins); tl.atomicXchg and tl.atomicCas on f32 exchange and compare the bits (a cas of -0.0
// doesn't match +0.0, a NaN matches its own bits, as Triton's 32-bit cmpxchg), and tl.atomicAdd and tl.atomicCas on bf16 and
// f16 ones on the word holding the element (bytes.ts packedAtomic; an f16 buffer atomics go through is packed as bf16's). A replicated block (or a scalar) is updated by one invocation per element; when its
// old values are used they are handed to the others through workgroup memory (a scalar's with
// workgroupUniformLoad, so it may steer control flow, e.g. a spin lock's loop), after a storageBarrier
// so the workgroup's earlier stores come first. In the instrumented
// variant each unmasked lane is bounds-checked before its update, as loads and stores are (instrument.ts).

import { Codes } from "../diagnostics/codes";
import type { AtomicFn, Value } from "../ir/ir";
import { oldValuesArray } from "./atomic-old-values";
import { packedAtomic } from "./bytes";
import type { WgslGenerator } from "./generator";
import { valueName } from "./generator";
import { accessedParam, boundsCheck } from "./instrument";
import { literal } from "./literals";

/** The WGSL builtin of each function (cas and f32 add are loops around atomicCompareExchangeWeak). */
export const ATOMIC_WGSL: Record<AtomicFn, string> = {
  add: "atomicAdd",
  max: "atomicMax",
  min: "atomicMin",
  and: "atomicAnd",
  or: "atomicOr",
  xor: "atomicXor",
  xchg: "atomicExchange",
  cas: "atomicCompareExchangeWeak",
};

/** A plain read of an element of an atomic buffer. */
export function atomicRead(gen: WgslGenerator, param: string, index: string): string {
  const read = `atomicLoad(&b_${param}[${index}])`;
  return gen.buffers.get(param)?.dtype === "f32" ? `bitcast<f32>(${read})` : read;
}

/** A plain write of an element of an atomic buffer. */
export function atomicWrite(gen: WgslGenerator, param: string, index: string, value: string): string {
  const bits = gen.buffers.get(param)?.dtype === "f32" ? `bitcast<u32>(${value})` : value;
  return `atomicStore(&b_${param}[${index}], ${bits});`;
}

export function emitAtomic(gen: WgslGenerator, v: Value & { op: "atomic" }): void {
  const ptr = v.ptr;
  if (ptr.type.kind !== "pointer") return gen.log.error(Codes.internal, v.span, "an atomic through a non-pointer");
  const param = ptr.type.param;
  const t = gen.typeOf(v.type);
  const layout = gen.layout(v.type);
  const zero = literal(0, gen.dtype(v.type));
  const access = gen.instrumentation?.access("atomic", accessedParam(ptr.type), v.span);
  const update = (j: number, old: string) => {
    const lane = () => {
      if (access !== undefined) gen.emit(boundsCheck(gen, access, ptr, j).trimEnd());
      if (ptr.type.kind === "pointer" && (ptr.type.pointee === "bf16" || ptr.type.pointee === "f16")) {
        if (v.fn !== "add" && v.fn !== "cas") return gen.log.error(Codes.internal, v.span, `tl.atomic_${v.fn} through a Ptr<${ptr.type.pointee}>`);
        return packedAtomic(gen, v.fn, ptr.type.pointee, param, gen.reg(ptr, j), gen.reg(v.value, j), v.cmp ? gen.reg(v.cmp, j) : undefined, old);
      }
      readModifyWrite(gen, v, `b_${param}[${gen.reg(ptr, j)}]`, j, old);
    };
    if (!v.mask) return lane();
    gen.emit(`if (${gen.reg(v.mask, j)}) {`);
    gen.nested(lane);
    gen.emit("}");
  };
  if (!layout.replicated) {
    gen.registers(v.type, (j) => {
      gen.emit(`var ${valueName(v, j)}: ${t} = ${zero};`);
      update(j, valueName(v, j));
    });
    return;
  }
  // Several invocations hold each element: the first copy updates memory.
  const staged = oldValuesArray(gen, gen.ir, v);
  // Every invocation's earlier stores land before the first copy's atomic, as in Triton's program
  // order: a lock released by one invocation (xformers' layer_norm_bwd_dx_fused, tutorial 05) must
  // not let another program read rows this one's other invocations haven't stored yet. (It is a
  // control barrier too, so last trip's readers of the staged old values are done with them.)
  // Under control flow WGSL may take as non-uniform no barrier is allowed: there, as before, only the
  // staged old values' readers of the last trip are waited for.
  if (gen.nonUniformDepth === 0) gen.emit("storageBarrier();");
  else if (staged && gen.inLoop()) gen.emit("workgroupBarrier();");
  gen.emit(`if (lid < ${layout.numel}u) {`);
  gen.nested(() => {
    gen.emit(`var old: ${t} = ${zero};`);
    update(0, "old");
    if (staged) gen.emit(`${staged}[lid] = old;`);
  });
  gen.emit("}");
  if (!staged) return;
  if (layout.numel === 1) return gen.emit(`let ${valueName(v, 0)} = workgroupUniformLoad(&${staged}[0]);`);
  gen.emit("workgroupBarrier();");
  gen.emit(`let ${valueName(v, 0)} = ${staged}[lid & ${layout.numel - 1}u];`);
}

/** One lane: `old` gets the element's old contents, the element its new ones. */
function readModifyWrite(gen: WgslGenerator, v: Value & { op: "atomic" }, element: string, j: number, old: string): void {
  const value = gen.reg(v.value, j);
  const float = gen.dtype(v.type) === "f32";
  if (v.fn === "cas") {
    // On f32 the word's bits are compared and swapped (Triton's cmpxchg on the 32 bits).
    const bits = (x: string) => (float ? `bitcast<u32>(${x})` : x);
    const cmp = bits(v.cmp ? gen.reg(v.cmp, j) : value);
    const put = bits(value);
    const r = gen.fresh("cas");
    gen.emit(`var ${r} = atomicCompareExchangeWeak(&${element}, ${cmp}, ${put});`);
    // A weak exchange may fail although the element equals cmp: try again until it didn't equal it.
    gen.emit(`loop { if (${r}.exchanged || ${r}.old_value != ${cmp}) { break; } ${r} = atomicCompareExchangeWeak(&${element}, ${cmp}, ${put}); }`);
    gen.emit(`${old} = ${float ? `bitcast<f32>(${r}.old_value)` : `${r}.old_value`};`);
    return;
  }
  if (float && v.fn === "xchg") return gen.emit(`${old} = bitcast<f32>(atomicExchange(&${element}, bitcast<u32>(${value})));`);
  if (!float) return gen.emit(`${old} = ${ATOMIC_WGSL[v.fn]}(&${element}, ${value});`);
  if (v.fn === "max" || v.fn === "min") return floatMaxMin(gen, v.fn, element, value, old);
  // f32 add: no float atomics in WGSL, so swap in the sum's bits until no other lane got between.
  const bits = gen.fresh("bits");
  gen.emit(`var ${bits} = atomicLoad(&${element});`);
  gen.emit(`loop {`);
  gen.nested(() => {
    gen.emit(`let r = atomicCompareExchangeWeak(&${element}, ${bits}, bitcast<u32>(bitcast<f32>(${bits}) + ${value}));`);
    gen.emit(`if (r.exchanged) { break; }`);
    gen.emit(`${bits} = r.old_value;`);
  });
  gen.emit("}");
  gen.emit(`${old} = bitcast<f32>(${bits});`);
}

/**
 * Whether the f32 whose bits are `value` replaces the element's bits `bits` under tl.atomicMax/Min, as
 * Triton lowers them (semantic.py): a value with the sign bit clear is an i32 max (min) of the bits, one
 * with it set a u32 min (max). So floats order as their bits do, -0.0 below +0.0, a NaN with the sign
 * bit clear above +inf and one with it set below -inf (docs/LANGUAGE.md §2.3).
 */
function floatWins(fn: "max" | "min", value: string, bits: string): string {
  // Each comparison parenthesized: `select(a < b, c > d, …)` parses as a template list.
  const signed = `(bitcast<i32>(${value}) ${fn === "max" ? ">" : "<"} bitcast<i32>(${bits}))`;
  const unsigned = `(${value} ${fn === "max" ? "<" : ">"} ${bits})`;
  return `select(${unsigned}, ${signed}, (${value} < 0x80000000u))`;
}

/** f32 max/min: swap in the value's bits while it wins over the element's, until no other lane got between. */
function floatMaxMin(gen: WgslGenerator, fn: "max" | "min", element: string, value: string, old: string): void {
  const bits = gen.fresh("bits");
  const want = gen.fresh("want");
  gen.emit(`let ${want} = bitcast<u32>(${value});`);
  gen.emit(`var ${bits} = atomicLoad(&${element});`);
  gen.emit(`loop {`);
  gen.nested(() => {
    gen.emit(`if (!${floatWins(fn, want, bits)}) { break; }`);
    gen.emit(`let r = atomicCompareExchangeWeak(&${element}, ${bits}, ${want});`);
    gen.emit(`if (r.exchanged) { break; }`);
    gen.emit(`${bits} = r.old_value;`);
  });
  gen.emit("}");
  gen.emit(`${old} = bitcast<f32>(${bits});`);
}

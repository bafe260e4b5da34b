// Host arrays ↔ what the GPU and the interpreter hold: f16 pointers travel as IEEE half bits in a
// Uint16Array (runtime/buffers.ts), written by the user as a Float32Array.

import type { NumDtype, Param, KernelIR, Value, Stmt } from "../ir/ir";
import { f16FromBits, f16ToBits, roundF16 } from "../ir/f16";
import type { HostArray } from "../language";
import type { StorageArray } from "../runtime";

export function toStorage(array: HostArray, dtype: NumDtype): StorageArray {
  if (dtype !== "f16") return array;
  const bits = new Uint16Array(array.length);
  for (let i = 0; i < array.length; i++) bits[i] = f16ToBits(array[i]);
  return bits;
}

/** Rounds a Float32Array in place to the values half precision can hold. */
export function roundToF16(array: HostArray): void {
  for (let i = 0; i < array.length; i++) array[i] = roundF16(array[i]);
}

/** Element values of what came back, as numbers to compare. */
export function fromStorage(array: StorageArray, dtype: NumDtype): ArrayLike<number> {
  if (dtype !== "f16") return array;
  const out = new Float32Array(array.length);
  for (let i = 0; i < array.length; i++) out[i] = f16FromBits(array[i]);
  return out;
}

export function pointerParams(params: readonly Param[]): Param[] {
  return params.filter((p) => p.kind === "pointer");
}

/**
 * The pointer parameters a kernel loads from. An output the kernel never reads can be poisoned
 * before the launch, so an element it forgot to write shows up as a mismatch.
 */
export function paramsLoadedFrom(ir: KernelIR): Set<string> {
  const loaded = new Set<string>();
  const seen = new Set<number>();
  const visitValue = (v: Value | undefined): void => {
    if (!v || seen.has(v.id)) return;
    seen.add(v.id);
    switch (v.op) {
      case "load":
        if (v.ptr.type.kind === "pointer") loaded.add(v.ptr.type.param);
        visitValue(v.ptr);
        visitValue(v.mask);
        visitValue(v.other);
        return;
      case "splat":
      case "broadcast":
      case "reshape":
      case "trans":
      case "cast":
      case "unary":
        visitValue(v.value);
        return;
      case "reduce":
        visitValue(v.value);
        return;
      case "binary":
        visitValue(v.lhs);
        visitValue(v.rhs);
        return;
      case "ptrAdd":
        visitValue(v.ptr);
        visitValue(v.offset);
        return;
      case "math":
        v.args.forEach(visitValue);
        return;
      case "where":
        visitValue(v.cond);
        visitValue(v.a);
        visitValue(v.b);
        return;
      case "dot":
        visitValue(v.a);
        visitValue(v.b);
        visitValue(v.acc);
        return;
      case "const":
      case "param":
      case "programId":
      case "numPrograms":
      case "arange":
      case "readVar":
        return;
      default:
        return assertNeverValue(v);
    }
  };
  const visitStmts = (stmts: readonly Stmt[]): void => {
    for (const s of stmts) {
      switch (s.kind) {
        case "let":
          visitValue(s.value);
          break;
        case "store":
          visitValue(s.ptr);
          visitValue(s.value);
          visitValue(s.mask);
          break;
        case "declare":
          visitValue(s.init);
          break;
        case "assign":
          visitValue(s.value);
          break;
        case "for":
          visitValue(s.start);
          visitValue(s.end);
          visitValue(s.step);
          visitStmts(s.body);
          break;
        case "if":
          visitValue(s.cond);
          visitStmts(s.then);
          visitStmts(s.else);
          break;
        default:
          assertNeverStmt(s);
      }
    }
  };
  visitStmts(ir.body);
  return loaded;
}

function assertNeverValue(v: never): never {
  throw new Error(`internal: unhandled IR value ${JSON.stringify((v as { op?: string }).op)}`);
}
function assertNeverStmt(s: never): never {
  throw new Error(`internal: unhandled IR statement ${JSON.stringify((s as { kind?: string }).kind)}`);
}

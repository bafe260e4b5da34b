// The contract between generated WGSL and the runtime that launches it.
//
// Bind group 0 holds everything:
//   binding 0: a uniform buffer of 32-bit words. Words 0..2 are the logical grid (x, y, z) of
//              program instances, word 3 is unused; scalar parameters follow at `scalars[i].word`.
//   binding 1..: one storage buffer per pointer parameter, in parameter order.
// The runtime dispatches ceil-folded workgroups (each dimension <= the adapter's
// maxComputeWorkgroupsPerDimension) covering gridX*gridY*gridZ programs; the shader linearises
// workgroup_id with num_workgroups, returns when past the last program, and recovers the
// program id as (linear % gx, (linear / gx) % gy, linear / (gx * gy)).
// Every storage buffer is allocated with its byte size rounded up to a multiple of 16, so a
// binding may be read as array<vec4<T>> (`vectorWidth` 4) whatever the element count.

import type { Span } from "../diagnostics/diagnostic";
import type { ByteDtype, NumDtype, PointerView } from "../ir/ir";
import type { DebugSite } from "../ir/debug";

/** An element dtype as a buffer holds it. */
export type BufferDtype = Exclude<NumDtype, "i64"> | ByteDtype;

export type ScalarWordDtype = "f32" | "i32" | "u32";

export interface UniformScalar {
  name: string;
  dtype: ScalarWordDtype;
  /**
   * An f16 parameter (Triton's `x: tl.float16`): the host rounds the number to the nearest half, as Triton's
   * launcher packs it (driver.py pack_fp16), and writes it as the f32 it then is exactly; the shader narrows it.
   */
  half?: true;
  /** Index of the 32-bit word in the uniform buffer. */
  word: number;
}

export interface StorageBinding {
  /** The pointer parameter's name. */
  name: string;
  binding: number;
  /**
   * The element dtype in the buffer: a Ptr<i64>'s elements are held as i32 (README "64-bit integers");
   * 8-bit elements (ByteDtype) are 4 to a word, bf16s 2 to a word, the binding an array<u32> (atomic<u32> where stored; codegen/bytes.ts).
   */
  dtype: BufferDtype;
  /**
   * 1: array<T>; 4: array<vec4<T>> (scalar elements addressed as [i >> 2][i & 3]); 8: an f16
   * buffer as array<vec4<u32>>, 8 halves an element; 2: an f16 buffer as array<u32>, 2 halves an
   * element (codegen/memory.ts).
   */
  vectorWidth: 1 | 2 | 4 | 8;
  access: "read" | "read_write";
  /** Present when some tl.atomic* goes through it, or an 8-bit or bf16 buffer is stored: array<atomic<T>> (f32, bytes and bf16s: atomic<u32>). */
  atomic?: true;
}

export interface KernelAbi {
  kernel: string;
  entryPoint: "main";
  /** Invocations per workgroup (1-D workgroups). */
  workgroupSize: number;
  /** Total words of the uniform buffer (a multiple of 4). */
  uniformWords: number;
  scalars: UniformScalar[];
  buffers: StorageBinding[];
  /** Bytes of var<workgroup> memory the shader declares. */
  workgroupBytes: number;
  /** Features the shader enables (`enable f16;`, `enable subgroups;`). */
  features: ("shader-f16" | "subgroups" | "chromium-experimental-subgroup-matrix")[];
  /** Only in kernels with tl.devicePrint/tl.deviceAssert: the `kl_print` record buffer's binding and the site table (codegen/print.ts). */
  debug?: DebugAbi;
  /** Present in the instrumented variant (CodegenOptions.instrument; codegen/instrument.ts). */
  instrument?: InstrumentAbi;
}

/** The storage buffers a kernel binds: one per pointer parameter (and the instrumented variant's), and the print/assert record buffer where it prints or asserts. */
export function storageBindingCount(abi: KernelAbi): number {
  return abi.buffers.length + (abi.debug ? 1 : 0);
}

/** The tl.devicePrint/tl.deviceAssert record buffer (`kl_print`, read_write, zeroed before a launch; ir/debug.ts DEBUG_BUFFER). */
export interface DebugAbi {
  binding: number;
  /** 32-bit words of the buffer. */
  words: number;
  /** The print and assert sites; a record's first word is its site's id. */
  sites: DebugSite[];
}

/** What an instrumented access does: "atomic" is a tl.atomic* read-modify-write. */
export type MemoryAccessKind = "load" | "store" | "atomic";

/**
 * The instrumented variant's extra contract. Its buffers are listed in `buffers` too (u32,
 * read_write, named `kl_debug` and `kl_prov_<param>`), its element counts in `scalars`
 * (`kl_len_<param>`, u32), so the runtime binds them like any other.
 *   kl_debug: word 0 counts invocations that had an out-of-bounds lane; the first (whose
 *             atomicAdd saw 0) writes its first such lane into words 1..7: program x, y, z, lane, access id, index (i32 bits), length.
 *             Words 8..13: the first race between stores of two programs (count, the earlier
 *             program's linear id, its access id << 16 | lane, the later program's, its site, the
 *             element index); words 16..21: the first load of an element another program stores
 *             (count, storer linear id, store site, loader linear id, load site or 0xffffffff, index).
 *   kl_prov_<param>: 2 words per element: program linear id + 1 (0: never stored) and
 *             access id << 16 | lane of the last store to it.
 *   kl_reads_<param>: 2 words per element of a buffer both loaded and race-checked
 *             (ir/race-checked.ts): the highest loader's linear id + 1, and 0xffffffff − the lowest's.
 */
export interface InstrumentAbi {
  debugBuffer: string;
  debugWords: number;
  /** Output pointer parameter → its shadow buffer. */
  provenance: Record<string, string>;
  /** Loaded-and-stored pointer parameter → its reads buffer. */
  reads: Record<string, string>;
  /** Pointer parameter → the scalar holding its element count. */
  lengths: Record<string, string>;
  /** Every tl.load / tl.store / tl.atomic* emitted, by access id; `param`: the pointer parameter it went through (a view's, where its storage is shared). */
  accesses: { id: number; kind: MemoryAccessKind; param: string; span: Span }[];
  /**
   * Pointer parameters compiled as views of a shared storage (KernelIR.views): `provenance`,
   * `reads` and the indices in kl_debug are the storage's, `lengths` and `accesses` the views'.
   */
  views?: Readonly<Record<string, PointerView>>;
}

/**
 * Grid folding shared by the runtime (dispatch sizes) and the interpreter (tests): as few
 * dimensions as needed, and as square as needed, so fewer than one row of workgroups is idle
 * (folding 65536 programs as 65535 × 2 would leave 65534 workgroups with nothing to do).
 */
export function foldGrid(grid: readonly [number, number, number], maxPerDim: number): [number, number, number] {
  const total = grid[0] * grid[1] * grid[2];
  if (total <= maxPerDim) return [total, 1, 1];
  const rows = Math.ceil(total / maxPerDim);
  if (rows <= maxPerDim) return [Math.ceil(total / rows), rows, 1];
  const planes = Math.ceil(total / (maxPerDim * maxPerDim));
  const perPlane = Math.ceil(total / planes);
  const y = Math.ceil(perPlane / maxPerDim);
  return [Math.ceil(perPlane / y), y, planes];
}

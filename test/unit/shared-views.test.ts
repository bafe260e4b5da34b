// Pointer arguments sharing memory (run/shared-views.ts): grouped by storage, compiled as views of
// one binding (Specialization.views) with each view's own bounds in the instrumented variant; views
// one binding can't hold are refused (KL3930) where the kernel writes one, two copies where it
// writes none. The GPU side is test/cli/python-library-idioms.test.ts (test/python/shared-views.py).

import { test } from "node:test";
import assert from "node:assert/strict";
import { compileKernel, parseKernelFile, specializationKey } from "../../src/compile";
import { sharedViews, SharedViewsRefused, viewSpecialization } from "../../src/harness/run/shared-views";
import type { PointeeDtype } from "../../src/ir/ir";
import type { StorageArray } from "../../src/runtime";

const text = `import { kernel, tl } from "kernel-lab";
import type { Ptr, f32, i32, constexpr } from "kernel-lab";
export const shift = kernel(function shift(a_ptr: Ptr<f32>, b_ptr: Ptr<f32>, out_ptr: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offs < n;
  tl.store(a_ptr + offs, tl.load(b_ptr + offs, mask) * 2.0, mask);
  tl.store(out_ptr + offs, tl.load(a_ptr + offs, mask), mask);
});
`;
const kernel = parseKernelFile("shift.kernel.ts", text).kernels[0];
const f32 = new Map<string, PointeeDtype>([["a_ptr", "f32"], ["b_ptr", "f32"], ["out_ptr", "f32"]]);
const arrays = (entries: [string, StorageArray][]) => new Map(entries.map(([name, data]) => [name, { data }] as const));

test("the same array twice and a view one element in are one storage each, the views' offsets from the lowest view's first element", () => {
  const x = new Float32Array(new SharedArrayBuffer(4 * 101));
  const out = new Float32Array(100);
  const twice = sharedViews("shift", arrays([["a_ptr", x], ["b_ptr", x], ["out_ptr", out]]), f32, new Set(["a_ptr", "out_ptr"]));
  assert.deepEqual(twice.views, { a_ptr: { storage: "kl_shared_a_ptr", offset: 0 }, b_ptr: { storage: "kl_shared_a_ptr", offset: 0 } });
  const shifted = sharedViews("shift", arrays([["a_ptr", x.subarray(1)], ["b_ptr", x], ["out_ptr", out]]), f32, new Set(["a_ptr"]));
  assert.deepEqual(shifted.views, { a_ptr: { storage: "kl_shared_a_ptr", offset: 1 }, b_ptr: { storage: "kl_shared_a_ptr", offset: 0 } });
  assert.equal(shifted.storages[0].data.length, 101);
  assert.equal(shifted.storages[0].data.byteOffset, 0);
  // Two halves of one buffer that don't overlap are two arrays, as distinct tensors are.
  assert.deepEqual(sharedViews("shift", arrays([["a_ptr", x.subarray(0, 50)], ["b_ptr", x.subarray(50)]]), f32, new Set(["a_ptr"])).storages, []);
  // A kept array is a storage passed once (torch/_resident.py): never grouped.
  const kept = new Map([["a_ptr", { data: x, kept: { storage: 1, upload: true } }], ["out_ptr", { data: out }]] as const);
  assert.deepEqual(sharedViews("shift", kept, f32, new Set(["a_ptr"])).storages, []);
});

test("views of one memory as different dtypes: refused (KL3930's message) where the kernel stores through one, two copies where it only reads them", () => {
  const buffer = new SharedArrayBuffer(4 * 64);
  const mixed = arrays([["a_ptr", new Float32Array(buffer)], ["b_ptr", new Int32Array(buffer)]]);
  const dtypes = new Map<string, PointeeDtype>([["a_ptr", "f32"], ["b_ptr", "i32"]]);
  assert.throws(() => sharedViews("shift", mixed, dtypes, new Set(["a_ptr"])), (err: unknown) => {
    assert.ok(err instanceof SharedViewsRefused);
    assert.match(err.message, /^shift's pointer arguments a_ptr \(f32\) and b_ptr \(i32\) point into the same memory, .* the kernel stores through a_ptr: .*\(\.clone\(\) one of them\)/);
    return true;
  });
  assert.deepEqual(sharedViews("shift", mixed, dtypes, new Set()).storages, []);
  // f16 views 2 bytes apart are one element apart; an f32 view and a byte view 2 bytes in are not whole elements apart.
  const halves = arrays([["a_ptr", new Uint16Array(buffer, 0, 8) as unknown as StorageArray], ["b_ptr", new Uint16Array(buffer, 2, 8) as unknown as StorageArray]]);
  assert.deepEqual(sharedViews("shift", halves, new Map([["a_ptr", "f16"], ["b_ptr", "f16"]]), new Set(["a_ptr"])).views.b_ptr, { storage: "kl_shared_a_ptr", offset: 1 });
  const odd = arrays([["a_ptr", new Float32Array(buffer, 0, 8)], ["b_ptr", new Uint8Array(buffer, 2, 16) as unknown as StorageArray]]);
  assert.throws(() => sharedViews("shift", odd, new Map([["a_ptr", "f32"], ["b_ptr", "u8"]]), new Set(["b_ptr"])), SharedViewsRefused);
});

test("an offset of 0 compiles as the constant, any other as a scalar of the launch (a multiple of 16 known as such): one compile for views that start alike", () => {
  const x = new Float32Array(new SharedArrayBuffer(4 * 100));
  const shared = sharedViews("shift", arrays([["a_ptr", x.subarray(1)], ["b_ptr", x], ["out_ptr", x.subarray(32)]]), f32, new Set(["a_ptr"]));
  assert.deepEqual(viewSpecialization(shared), {
    views: { a_ptr: { storage: "kl_shared_a_ptr", offset: "scalar" }, b_ptr: { storage: "kl_shared_a_ptr", offset: 0 }, out_ptr: { storage: "kl_shared_a_ptr", offset: "scalar16" } },
    scalars: { kl_offset_a_ptr: 1, kl_offset_out_ptr: 32 },
  });
  const again = sharedViews("shift", arrays([["a_ptr", x.subarray(7)], ["b_ptr", x], ["out_ptr", x.subarray(48)]]), f32, new Set(["a_ptr"]));
  assert.equal(specializationKey({ views: viewSpecialization(again).views }), specializationKey({ views: viewSpecialization(shared).views }));
});

test("compiled with views: one binding for the storage, each view its offset; the instrumented variant checks each view's own elements; keyed apart from the plain launch", () => {
  const views = { a_ptr: { storage: "kl_shared_a_ptr", offset: "scalar" }, b_ptr: { storage: "kl_shared_a_ptr", offset: 0 } } as const;
  const plain = compileKernel(kernel, { BLOCK: 64 }).kernel!;
  const special = compileKernel(kernel, { BLOCK: 64 }, undefined, { views }).kernel!;
  assert.deepEqual(plain.abi.buffers.map((b) => [b.name, b.access]), [["a_ptr", "read_write"], ["b_ptr", "read"], ["out_ptr", "read_write"]]);
  assert.deepEqual(special.abi.buffers.map((b) => [b.name, b.access]), [["kl_shared_a_ptr", "read_write"], ["out_ptr", "read_write"]]);
  assert.doesNotMatch(special.wgsl, /b_a_ptr|b_b_ptr/);
  assert.deepEqual(special.abi.scalars.map((s) => s.name), ["n", "kl_offset_a_ptr"]);
  const checked = compileKernel(kernel, { BLOCK: 64 }, undefined, { views }, { instrument: true }).kernel!;
  assert.deepEqual(checked.abi.instrument?.lengths, { out_ptr: "kl_len_out_ptr", a_ptr: "kl_len_a_ptr", b_ptr: "kl_len_b_ptr" });
  assert.deepEqual(Object.keys(checked.abi.instrument!.provenance), ["kl_shared_a_ptr", "out_ptr"]);
  assert.deepEqual([...new Set(checked.abi.instrument!.accesses.map((a) => a.param))], ["b_ptr", "a_ptr", "out_ptr"]);
  assert.match(checked.wgsl, /kl_out_of_bounds\(\([^,]* - params\.s_kl_offset_a_ptr\), params\.s_kl_len_a_ptr\)/);
  assert.match(checked.wgsl, /kl_out_of_bounds\([^,]*, params\.s_kl_len_b_ptr\)/);
  assert.equal(specializationKey({}), "");
  assert.equal(specializationKey({ views }), ":views=a_ptr@kl_shared_a_ptr+scalar,b_ptr@kl_shared_a_ptr+0");
});

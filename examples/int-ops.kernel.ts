// Integer arithmetic: bit operations and shifts on i32 and u32 blocks, and a u32 output.
import { kernel, tl, defineRun, rand, empty, cdiv } from "kernel-lab";
import type { Ptr, i32, u32, constexpr } from "kernel-lab";

export const int_ops_kernel = kernel(function int_ops_kernel(
  a_ptr: Ptr<i32>, b_ptr: Ptr<i32>, h_ptr: Ptr<u32>, mixed_ptr: Ptr<i32>, hashed_ptr: Ptr<u32>,
  n: i32, salt: u32, BLOCK: constexpr,
) {
  const offsets = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const mask = offsets < n;
  const a = tl.load(a_ptr + offsets, mask);
  const b = tl.load(b_ptr + offsets, mask);
  const h = tl.load(h_ptr + offsets, mask);
  // i32: xor, and, or, arithmetic shift right, shift left, bitwise not.
  const mixed = ((a ^ b) & 0xff) | ((a >> 3) << 1) | (~b & 0x100);
  tl.store(mixed_ptr + offsets, mixed, mask);
  // u32: multiply-xorshift hash; wraps modulo 2^32.
  const x = (h ^ salt) * 0x45d9f3b;
  tl.store(hashed_ptr + offsets, x ^ (x >> 16), mask);
});

const U32_MUL = 0x45d9f3b;

export const intOps = defineRun({
  kernel: int_ops_kernel,
  sizes: [10_007, 300, 65_539, 262_147],
  constexprs: { BLOCK: 128 },
  grid: (n, c) => [cdiv(n, c.BLOCK)],
  args: (n) => ({
    a_ptr: rand(n, "i32"), b_ptr: rand(n, "i32"), h_ptr: rand(n, "u32"),
    mixed_ptr: empty(n, "i32"), hashed_ptr: empty(n, "u32"), n, salt: 0x9e3779b9,
  }),
  outputs: ["mixed_ptr", "hashed_ptr"],
  reference: ({ a_ptr, b_ptr, h_ptr, salt }) => ({
    mixed_ptr: a_ptr.map((a, i) => ((a ^ b_ptr[i]) & 0xff) | ((a >> 3) << 1) | (~b_ptr[i] & 0x100)),
    hashed_ptr: h_ptr.map((h) => {
      const x = Math.imul((h ^ salt) >>> 0, U32_MUL) >>> 0;
      return (x ^ (x >>> 16)) >>> 0;
    }),
  }),
  bytes: (n) => 20 * n,
});

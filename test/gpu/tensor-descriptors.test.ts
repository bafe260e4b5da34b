// Tensor descriptors (docs/LANGUAGE.md, beside block pointers): tl.makeTensorDescriptor, desc.load /
// desc.store and tl.loadTensorDescriptor / tl.storeTensorDescriptor, the descriptor's members, a
// device function that makes one unless it is given one (`x instanceof tl.tensorDescriptor`), and
// paddingOption "nan". On the GPU and the CPU interpreter, fresh random inputs, extents the blocks
// don't divide (out-of-range elements read as 0 and are not written), poisoned outputs.

import { test } from "node:test";
import { PRELUDE, assertClose, poisoned, randomFloats, runBoth } from "../support/kernel-runner";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

test("GPU and CPU: a matmul through tensor descriptors (37×29 @ 29×45 in 16×16 tiles), a helper that makes a descriptor unless given one", async () => {
  const [M, K, N] = [37, 29, 45];
  const a = randomFloats(M * K);
  const b = randomFloats(K * N);
  const source = `${PRELUDE}
export const k = kernel(function k(a: Ptr<f32>, b: Ptr<f32>, c: Ptr<f32>, dims: Ptr<i32>, M: i32, N: i32, K: i32, BM: constexpr, BN: constexpr, BK: constexpr) {
  const pm = tl.programId(0);
  const pn = tl.programId(1);
  const aDesc = tl.makeTensorDescriptor(a, [M, K], [K, 1], [BM, BK]);
  const bDesc = maybeDesc(maybeDesc(b, [K, N], [N, 1], [BK, BN]), [0, 0], [0, 1], [1, 1]);
  let cDesc = maybeDesc(c, [M, N], [N, 1], [BM, BN]);
  let acc = tl.zeros([BM, BN], "f32");
  for (let kk = 0; kk < K; kk += BK) {
    const x = aDesc.load([pm * BM, kk]);
    const y = tl.loadTensorDescriptor(bDesc, [kk, pn * BN]);
    acc = tl.dot(x, y, acc);
  }
  if (pm === 0 && pn === 0) {
    // The descriptor's members: its shape (run-time values), strides, block shape and dtype.
    const [rows, cols] = cDesc.shape;
    const [bm, bn] = cDesc.block_shape;
    tl.store(dims + tl.arange(0, 8), tl.where(tl.arange(0, 8) === 0, rows, tl.where(tl.arange(0, 8) === 1, cols, tl.where(tl.arange(0, 8) === 2, bm * 1000 + bn, tl.where(tl.arange(0, 8) === 3, aDesc.strides[0], aDesc.dtype === tl.float32 ? 1 : 0)))));
  }
  if (pm % 2 === 0) {
    cDesc.store([pm * BM, pn * BN], acc);
  } else {
    tl.storeTensorDescriptor(cDesc, [pm * BM, pn * BN], acc);
  }
});
// Tutorial 06's _maybe_make_tensor_desc: a descriptor passes through, a pointer is made one.
const maybeDesc = kernel(function maybeDesc(p, shape, strides, blockShape) {
  if (p instanceof tl.tensorDescriptor) {
    return p;
  } else {
    return tl.makeTensorDescriptor(p, shape, strides, blockShape);
  }
});
`;
  const { gpu, cpu } = await runBoth({
    source,
    constexprs: { BM: 16, BN: 16, BK: 16 },
    grid: [Math.ceil(M / 16), Math.ceil(N / 16)],
    args: { a, b, c: poisoned(M * N), dims: poisoned(8, "i32"), M, N, K },
    outputs: ["c", "dims"],
  });
  const c = range(M * N).map((e) => range(K).reduce((s, k) => s + a[Math.floor(e / N) * K + k] * b[k * N + (e % N)], 0));
  const dims = [M, N, 16016, K, 1, 1, 1, 1];
  for (const [side, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assertClose(out.c, c, `${side} c`, 1e-4, 1e-4);
    assertClose(out.dims, dims, `${side} dims`);
  }
});

test("GPU and CPU: paddingOption \"nan\", a 1-D descriptor at offsets past both ends, and a store that drops what lies outside", async () => {
  const n = 50;
  const x = randomFloats(n);
  const source = `${PRELUDE}
export const k = kernel(function k(x: Ptr<f32>, y: Ptr<f32>, nanfill: Ptr<f32>, n: i32, BLOCK: constexpr) {
  const pid = tl.programId(0);
  const src = tl.makeTensorDescriptor(x, [n], [1], [BLOCK], { paddingOption: "nan" });
  // Starting one block before the tensor: the first block reads NaN below 0, the last past n.
  const start = pid * BLOCK - 8;
  tl.store(nanfill + pid * BLOCK + tl.arange(0, BLOCK), src.load([start]));
  const dst = tl.makeTensorDescriptor(y, [n], [1], [BLOCK]);
  dst.store([start], src.load([start]) * 2);
});
`;
  const programs = Math.ceil((n + 8) / 16);
  const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: 16 }, grid: [programs], args: { x, y: poisoned(n), nanfill: poisoned(programs * 16), n }, outputs: ["y", "nanfill"] });
  const nanfill = range(programs * 16).map((e) => (e - 8 >= 0 && e - 8 < n ? x[e - 8] : NaN));
  for (const [side, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assertClose(out.y, Array.from(x, (v) => v * 2), `${side} y`, 1e-6);
    assertClose(out.nanfill, nanfill, `${side} nanfill`);
  }
});

test("GPU and CPU: an axis of constant extent read at a constant offset is checked only where the block may leave it (offset 0 inside, offset 8 past the end)", async () => {
  const rows = 21;
  const x = randomFloats(rows * 16);
  const source = `${PRELUDE}
export const k = kernel(function k(x: Ptr<f32>, inside: Ptr<f32>, shifted: Ptr<f32>, rows: i32, BLOCK: constexpr) {
  const pid = tl.programId(0);
  const d = tl.makeTensorDescriptor(x, [rows, 16], [16, 1], [BLOCK, 16]);
  const out = (pid * BLOCK + tl.expandDims(tl.arange(0, BLOCK), 1)) * 16 + tl.expandDims(tl.arange(0, 16), 0);
  tl.store(inside + out, d.load([pid * BLOCK, 0]));
  tl.store(shifted + out, d.load([pid * BLOCK, 8]));
});
`;
  const programs = Math.ceil(rows / 8);
  const size = programs * 8 * 16;
  const { gpu, cpu } = await runBoth({ source, constexprs: { BLOCK: 8 }, grid: [programs], args: { x, inside: poisoned(size), shifted: poisoned(size), rows }, outputs: ["inside", "shifted"] });
  const at = (r: number, c: number) => (r < rows && c < 16 ? x[r * 16 + c] : 0);
  const inside = range(size).map((e) => at(Math.floor(e / 16), e % 16));
  const shifted = range(size).map((e) => at(Math.floor(e / 16), (e % 16) + 8));
  for (const [side, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assertClose(out.inside, inside, `${side} inside`);
    assertClose(out.shifted, shifted, `${side} shifted`);
  }
});

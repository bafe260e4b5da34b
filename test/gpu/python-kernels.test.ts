// Triton's own Python kernels, written as the tutorials write them, compiled by Kernel Lab's
// Python front end (src/python/) and run on the GPU and on the CPU interpreter against a float64
// reference: fresh random inputs, sizes that aren't multiples of the block, outputs poisoned.

import { test } from "node:test";
import assert from "node:assert/strict";
import { compilePythonKernel, readPythonFile, type PythonArgType } from "../../src/python";
import { acquireGpu } from "../../src/runtime";
import { locate } from "../../src/diagnostics/position";
import { assertClose, poisoned, randomFloats, randomInts, runBoth, runCompiled, type HostArray } from "../support/kernel-runner";

type Args = Record<string, HostArray | number | { float: number }>;

/** Compiles `kernel` of the Python `source` for these arguments and runs it on both back ends. */
async function runPython(source: string, kernel: string, grid: number[], args: Args, constexprs: Record<string, number | boolean | string | null>, outputs: string[]) {
  const gpu = await acquireGpu();
  const file = readPythonFile("kernels.py", source);
  const types: Record<string, PythonArgType> = {};
  const values: Record<string, HostArray | number> = {};
  for (const [name, v] of Object.entries(args)) {
    if (typeof v === "number") types[name] = { kind: "scalar", dtype: "i32" };
    else if ("float" in v) types[name] = { kind: "scalar", dtype: "f32" };
    else types[name] = { kind: "pointer", dtype: v instanceof Int32Array ? "i32" : "f32" };
    values[name] = typeof v === "number" ? v : "float" in v ? v.float : v;
  }
  const result = compilePythonKernel(file, kernel, types, constexprs, gpu.target);
  const errors = result.diagnostics.filter((d) => d.severity === "error");
  if (!result.kernel || errors.length > 0) {
    throw new Error(`${kernel} did not compile:\n${locate("kernels.py", source, errors).map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join("\n")}\n${result.typescript}`);
  }
  return runCompiled(result.kernel, { grid, args: values, outputs });
}

const cdiv = (a: number, b: number) => Math.ceil(a / b);

const VECTOR_ADD = `
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr,  # first input
               y_ptr,  # second input
               output_ptr,
               n_elements,
               BLOCK_SIZE: tl.constexpr,
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
`;

test("tutorial-style vector add (98432 + 3 elements, BLOCK_SIZE=1024)", async () => {
  const n = 98435;
  const x = randomFloats(n);
  const y = randomFloats(n);
  const { gpu, cpu } = await runPython(VECTOR_ADD, "add_kernel", [cdiv(n, 1024)], { x_ptr: x, y_ptr: y, output_ptr: poisoned(n), n_elements: n }, { BLOCK_SIZE: 1024 }, ["output_ptr"]);
  const want = Array.from(x, (v, i) => v + y[i]);
  assertClose(gpu.output_ptr, want, "GPU", 1e-6, 1e-6);
  assertClose(cpu.output_ptr, want, "CPU", 1e-6, 1e-6);
});

const SOFTMAX = `
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                   num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)
`;

test("tutorial-style fused softmax: persistent programs over 37 rows of 781 columns (tl.range, -float('inf'))", async () => {
  const rows = 37;
  const cols = 781;
  const x = randomFloats(rows * cols, -4, 4);
  const { gpu, cpu } = await runPython(SOFTMAX, "softmax_kernel", [8], {
    output_ptr: poisoned(rows * cols), input_ptr: x, input_row_stride: cols, output_row_stride: cols, n_rows: rows, n_cols: cols,
  }, { BLOCK_SIZE: 1024, num_stages: 2 }, ["output_ptr"]);
  const want = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let c = 0; c < cols; c++) max = Math.max(max, x[r * cols + c]);
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += Math.exp(x[r * cols + c] - max);
    for (let c = 0; c < cols; c++) want[r * cols + c] = Math.exp(x[r * cols + c] - max) / sum;
  }
  assertClose(gpu.output_ptr, want, "GPU", 1e-6, 1e-4);
  assertClose(cpu.output_ptr, want, "CPU", 1e-6, 1e-4);
});

const MATMUL = `
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE_M': 32, 'BLOCK_SIZE_N': 32, 'BLOCK_SIZE_K': 16, 'GROUP_SIZE_M': 4}, num_stages=3, num_warps=4),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = leaky_relu(accumulator)
    c = accumulator
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def leaky_relu(x):
    return tl.where(x >= 0, x, 0.01 * x)
`;

for (const activation of ["", "leaky_relu"]) {
  test(`tutorial-style grouped matmul with tl.dot, ACTIVATION=${JSON.stringify(activation)} (a string constexpr), 67 × 45 × 53`, async () => {
    const [M, N, K] = [67, 45, 53];
    const a = randomFloats(M * K);
    const b = randomFloats(K * N);
    const grid = [cdiv(M, 32) * cdiv(N, 32)];
    const { gpu, cpu } = await runPython(MATMUL, "matmul_kernel", grid, {
      a_ptr: a, b_ptr: b, c_ptr: poisoned(M * N), M, N, K, stride_am: K, stride_ak: 1, stride_bk: N, stride_bn: 1, stride_cm: N, stride_cn: 1,
    }, { BLOCK_SIZE_M: 32, BLOCK_SIZE_N: 32, BLOCK_SIZE_K: 16, GROUP_SIZE_M: 4, ACTIVATION: activation, num_warps: 4 }, ["c_ptr"]);
    const want = new Float64Array(M * N);
    for (let i = 0; i < M; i++) for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += a[i * K + k] * b[k * N + j];
      want[i * N + j] = activation === "leaky_relu" && s < 0 ? 0.01 * s : s;
    }
    assertClose(gpu.c_ptr, want, "GPU", 1e-4, 1e-4);
    assertClose(cpu.c_ptr, want, "CPU", 1e-4, 1e-4);
  });
}

const LAYER_NORM = `
import triton
import triton.language as tl
from triton.language.extra.libdevice import rsqrt

EPS_SCALE: tl.constexpr = 1.0
HALF = tl.constexpr(2)


@triton.jit
def _moments(X, N, BLOCK: tl.constexpr):
    """Mean and variance of one row, in a loop over blocks (a helper returning a tuple)."""
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    off = 0
    while off < N:
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        acc += x
        acc2 += x * x
        off += BLOCK
    mean = tl.sum(acc, axis=0) / N
    var = tl.sum(acc2, axis=0) / N - mean * mean
    return mean, var


@triton.jit
def layer_norm_fwd(X, Y, W, B, Rstd, stride, n_rows, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row >= n_rows:
        return
    X += row * stride
    Y += row * stride
    mean, var = _moments(X, N, BLOCK=BLOCK)
    rstd = rsqrt(var + eps * EPS_SCALE)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = (cols < N) & ~(cols < 0)
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.)
        y = (x - mean) * rstd * w + b
        tl.store(Y + cols, y, mask=mask)
`;

test("layer-norm-like: a @triton.jit helper returning a tuple, while, early return, libdevice rsqrt, tl.constexpr globals", async () => {
  const [rows, N, stride] = [13, 300, 301];
  const x = randomFloats(rows * stride, -2, 3);
  const w = randomFloats(N);
  const b = randomFloats(N);
  const eps = 1e-5;
  const { gpu, cpu } = await runPython(LAYER_NORM, "layer_norm_fwd", [rows + 3], {
    X: x, Y: poisoned(rows * stride), W: w, B: b, Rstd: poisoned(rows), stride, n_rows: rows, N, eps: { float: eps },
  }, { BLOCK: 128 }, ["Y", "Rstd"]);
  const wantY = new Float64Array(rows * stride).fill(NaN);
  const wantR = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let s = 0, s2 = 0;
    for (let c = 0; c < N; c++) { s += x[r * stride + c]; s2 += x[r * stride + c] ** 2; }
    const mean = s / N;
    const rstd = 1 / Math.sqrt(s2 / N - mean * mean + eps);
    wantR[r] = rstd;
    for (let c = 0; c < N; c++) wantY[r * stride + c] = (x[r * stride + c] - mean) * rstd * w[c] + b[c];
  }
  for (const [name, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assertClose(out.Rstd, wantR, `${name} Rstd`, 1e-4, 1e-3);
    assertClose(out.Y, wantY, `${name} Y`, 1e-4, 1e-3);
  }
});

const INTEGER_DIVISION = `
import triton
import triton.language as tl


@triton.jit
def int_ops(a_ptr, b_ptr, q_ptr, r_ptr, f_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    tl.store(q_ptr + offs, a // b, mask=mask)
    tl.store(r_ptr + offs, a % b, mask=mask)
    tl.store(f_ptr + offs, a / b, mask=mask)
`;

test("integer // and % truncate toward zero as Triton's do (C-style, not Python's floor), and / of integers is true division", async () => {
  const n = 1000;
  const a = randomInts(n, -5000, 5000);
  const b = randomInts(n, -60, 60).map((v) => (v === 0 ? 7 : v));
  const { gpu, cpu } = await runPython(INTEGER_DIVISION, "int_ops", [cdiv(n, 256)], {
    a_ptr: a, b_ptr: b, q_ptr: poisoned(n, "i32"), r_ptr: poisoned(n, "i32"), f_ptr: poisoned(n), n,
  }, { BLOCK: 256 }, ["q_ptr", "r_ptr", "f_ptr"]);
  const q = Array.from(a, (v, i) => Math.trunc(v / b[i]) | 0);
  const r = Array.from(a, (v, i) => (v - Math.trunc(v / b[i]) * b[i]) | 0);
  const f = Array.from(a, (v, i) => v / b[i]);
  for (const [name, out] of [["GPU", gpu], ["CPU", cpu]] as const) {
    assert.deepEqual(Array.from(out.q_ptr), q, `${name} //`);
    assert.deepEqual(Array.from(out.r_ptr), r, `${name} %`);
    assertClose(out.f_ptr, f, `${name} /`, 0, 1e-6);
  }
});

const REBOUND_COUNTER = `
import triton
import triton.language as tl


@triton.jit
def row_sums(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # Tutorial 06 rebinds its loop counter (start_n = tl.multiple_of(start_n, BLOCK_N)); Python's
    # range still steps the original sequence, and so must the kernel.
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        start = tl.multiple_of(start, BLOCK)
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        start = start + 1000000
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
`;

test("a for loop whose body rebinds its counter steps as Python's range does (tutorial 06's start_n)", async () => {
  const rows = 5;
  const cols = 300;
  const x = randomFloats(rows * cols);
  const { gpu, cpu } = await runPython(REBOUND_COUNTER, "row_sums", [rows], { x_ptr: x, out_ptr: poisoned(rows), n_cols: cols }, { BLOCK: 64 }, ["out_ptr"]);
  const want = Array.from({ length: rows }, (_, r) => x.slice(r * cols, (r + 1) * cols).reduce((a, b) => a + b, 0));
  assertClose(gpu.out_ptr, want, "GPU", 1e-5, 1e-5);
  assertClose(cpu.out_ptr, want, "CPU", 1e-5, 1e-5);
});

const MASK_STORE = `
import triton
import triton.language as tl


@triton.jit
def signs(x_ptr, pos_ptr, neg_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(pos_ptr + offs, x > 0.0, mask=mask)  # float32: True -> 1.0, as Triton casts to the element type
    tl.store(neg_ptr + offs, x < 0.0, mask=mask)  # int32: True -> 1
`;

const MASK_STORE_TS = `import { kernel, tl } from "kernel-lab";
import type { Ptr, f32, i32 } from "kernel-lab";
export const signs = kernel(function signs(x_ptr: Ptr<f32>, pos_ptr: Ptr<f32>, neg_ptr: Ptr<i32>, n: i32, BLOCK: tl.constexpr) {
  const offs = tl.programId(0) * BLOCK + tl.arange(0, BLOCK);
  const x = tl.load(x_ptr + offs, offs < n, 0.0);
  tl.store(pos_ptr + offs, x > 0.0, offs < n);
  tl.store(neg_ptr + offs, x < 0.0, offs < n);
});
`;

test("tl.store of a mask through a float32 / int32 pointer stores 1 or 0 of the element type (Python and TypeScript)", async () => {
  const n = 1003;
  const x = randomFloats(n).map((v, i) => (i % 17 === 0 ? 0 : v));
  const args = () => ({ x_ptr: x, pos_ptr: poisoned(n), neg_ptr: poisoned(n, "i32"), n });
  const py = await runPython(MASK_STORE, "signs", [cdiv(n, 128)], args(), { BLOCK: 128 }, ["pos_ptr", "neg_ptr"]);
  const ts = await runBoth({ source: MASK_STORE_TS, constexprs: { BLOCK: 128 }, grid: [cdiv(n, 128)], args: args(), outputs: ["pos_ptr", "neg_ptr"] });
  const pos = Array.from(x, (v) => (v > 0 ? 1 : 0));
  const neg = Array.from(x, (v) => (v < 0 ? 1 : 0));
  for (const [name, out] of [["Python GPU", py.gpu], ["Python CPU", py.cpu], ["TypeScript GPU", ts.gpu], ["TypeScript CPU", ts.cpu]] as const) {
    assert.deepEqual(Array.from(out.pos_ptr), pos, `${name} float32`);
    assert.deepEqual(Array.from(out.neg_ptr), neg, `${name} int32`);
  }
});

// Issue 23 item 7: Triton idioms as Triton code uses them, in fixtures written from the algorithms
// (test/learner/as-written): each checks clean with `kernel-lab check` and matches its float64
// reference over its sweep, on the GPU (lavapipe on CI) and with --cpu, on fresh random inputs at
// sizes that are not multiples of the blocks.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { ensureBuilt, root } from "./build";
import { runJson } from "../support/run-in-process";

const env = { ...process.env, XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? "/tmp" };

before(ensureBuilt);

function cliJson(args: string[]): { code: number | null; report: any; stderr: string } {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", ...args, "--json"], { cwd: root, env, encoding: "utf8", timeout: 300_000 });
  assert.doesNotMatch(r.stderr, /^\s+at .*\(.*:\d+:\d+\)$/m, r.stderr);
  let report: any;
  assert.doesNotThrow(() => (report = JSON.parse(r.stdout)), `stdout is one JSON object:\n${r.stdout}\n${r.stderr}`);
  return { code: r.status, report, stderr: r.stderr };
}

/** Fixture → the idioms it uses as Triton code does. */
const FIXTURES: { file: string; idioms: string }[] = [
  { file: "t06-attention-forward", idioms: "tutorial 06's forward: an inner helper reassigning its parameters (block pointers included) and returning a tuple, [acc, l_i, m_i] = inner(…) per stage, constexpr tuple choice, tl.range, exp2" },
  { file: "persistent-matmul", idioms: "tutorial 09's persistent matmul: tl.range(…, { flatten }), tl.range(k_tiles, { numStages }), tl.multipleOf/tl.maxContiguous, a helper returning [pid_m, pid_n]" },
  { file: "puzzle11-batched-matmul", idioms: "Puzzle 11 with 3-D blocks: tl.zeros([B2, B0, B1]), 3-D offsets, a 3-D tl.dot" },
  { file: "puzzle12-quantized-matmul", idioms: "Puzzle 12 with 3-D blocks: w[:, :, None] >> shifts[None, None, :] unpacking, reshape to 2-D" },
  { file: "block-ptr-matmul", idioms: "a block-pointer matmul: tl.makeBlockPtr, tl.advance in the K loop, boundaryCheck/paddingOption, tl.swizzle2d" },
  { file: "rms-norm", idioms: "RMSNorm forward: pointer parameters advanced in place, keyword arguments, an eviction-policy hint" },
  { file: "rms-norm-dtypes", idioms: "RMSNorm as Liger and unsloth write it (issue 31): int64 row offsets (tl.programId(0).to(tl.int64)), X_row_dtype = X_row.dtype, .to(tl.float32) and back .to(X_row_dtype), tl.math.rsqrt, Y_ptr.dtype.element_ty, a constexpr casting mode first-assigning let Y_row in each branch, f16 rows" },
  { file: "swiglu", idioms: "SwiGLU: a silu device function, pointer parameters advanced in place" },
  { file: "rope", idioms: "RoPE: q and k rotated in place, pointer parameters reassigned, tl.join/tl.split" },
  { file: "cross-entropy", idioms: "cross entropy: pointer advancing, early return for ignored rows, an online softmax in a loop" },
  { file: "geglu", idioms: "GeGLU (tanh approximation): a 2-D grid, pointer parameters advanced in place" },
  { file: "group-norm", idioms: "Liger's GroupNorm forward: a tl.range over a group's values summing x and x², then a tl.range over its channels around a nested loop, pointer parameters advanced inside the loop, other= a run-time scalar, strided mean/rstd" },
  { file: "jsd", idioms: "Liger's generalised JSD: a float constexpr (beta) steering constexpr if/elif/else branches that each first-assign `let loss;`, constexpr HAS_LABEL/ignore_index, early return, log-space math with −inf padding" },
  { file: "argmax-dim", idioms: "FlagGems' argmax over a dim: tl.full with keyword value/dtype, a 2-D masked block from m[:, None] and n[None, :], tl.max(…, { returnIndices, returnIndicesTieBreakLeft }) destructured, a running tl.where update keeping the first index of ties" },
  { file: "prod-dim", idioms: "FlagGems' prod over a dim: tl.reduce(acc, { axis: 1, combineFn: reduce_mul }) with the combine function a separate device function passed by name (a @triton.jit helper), an accumulator from tl.full({ value: 1.0 }) multiplied in place (acc *= …), other=1.0 padding" },
  { file: "cumsum-dim", idioms: "FlagGems' cumsum over a dim: a 3-D [BLOCK_M, BLOCK_N, 1] block from m[:, None, None] and n[None, :, None] (tl.expandDims with a list of axes), a 3-D broadcast mask, .to(tl.float32), tl.cumsum(x, { axis: 1 }) along the middle axis of a 3-D block" },
  { file: "philox-dropout", idioms: "FlagGems' dropout with explicit Philox counters: philox_seed.to(tl.int64), the offset split with & 0xFFFFFFFF and >> 32, c0 += i4 growing a scalar into a block, tl.philox(seed, c0, c1, _O, _O) destructured, tl.uintToUniformFloat, four blocks per call; a reference that recomputes Triton's Philox bit for bit" },
  { file: "argmax-int64", idioms: "FlagGems' argmax over a dim with its int64s: int64 program ids and offsets, tl.programId(0).to(tl.int64), tl.full({ dtype: tl.int64 }), the indices stored through a Ptr<i64> (a BigInt64Array, as torch.int64) and checked against a BigInt64Array reference" },
  { file: "argmax-two-stage", idioms: "FlagGems' argmax over all elements: two launches (per-block max and index into mid buffers, then mid_index[argmax(mid_value)]), blocks from the size by next_power_of_2(ceil(sqrt(M))) as launch constexprs functions of the size" },
  { file: "softmax-next-pow2", idioms: "FlagGems' one-tile softmax: TILE_N = next_power_of_2(N) from `constexprs: (n) => …`, 781 and 1000 sharing one tile in the sweep, a masked -inf tail" },
];

const PATHS = FIXTURES.map(({ file }) => `test/learner/as-written/${file}.kernel.ts`);
/** `kernel-lab check --json` of every fixture at once (one process, not one each); each test reads its file's diagnostics. */
let checked: { code: number | null; report: any; stderr: string } | undefined;
const checkAll = () => (checked ??= cliJson(["check", ...PATHS]));

for (const [i, { idioms }] of FIXTURES.entries()) {
  const path = PATHS[i];
  test(`${idioms}: kernel-lab check is clean`, () => {
    const { code, report, stderr } = checkAll();
    assert.doesNotMatch(stderr, new RegExp(`cannot read ${path}`));
    assert.deepEqual(report.diagnostics.filter((d: { file: string }) => d.file === path), []);
    // Exit 0 unless another fixture's diagnostics (its own test fails) made it 2.
    if (report.diagnostics.length === 0) assert.equal(code, 0, stderr);
  });
  for (const backend of ["gpu", "cpu"] as const) {
    test(`${idioms}: matches its reference (${backend === "gpu" ? "GPU" : "--cpu"})`, async () => {
      // `kernel-lab run FILE --sweep --reps 0 [--cpu] --json`, in this process (test/support/run-in-process.ts).
      const { code, report } = await runJson(path, { sweep: true, reps: 0, cpu: backend === "cpu" });
      assert.deepEqual(report.diagnostics, []);
      assert.equal(code, 0);
      assert.ok(report.runs.length >= 2);
      for (const r of report.runs) assert.equal(r.correct, true, `${r.name} size ${r.size}: max diff ${r.maxAbsDiff}, ${JSON.stringify(r.firstMismatch)}`);
    });
  }
}

test("kernel-lab wgsl of a kernel whose constexprs are a function of the size shows the first size's (TILE_N = next_power_of_2(781))", () => {
  const r = spawnSync(process.execPath, ["bin/kernel-lab.js", "wgsl", "test/learner/as-written/softmax-next-pow2.kernel.ts"], { cwd: root, env, encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^\/\/ Kernel 'softmax_kernel_inner' \(TILE_N=1024, ONE_TILE_PER_CTA=1\)/);
});

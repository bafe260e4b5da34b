// What the code generator may assume about the adapter it targets (`Target`), and how it is asked
// to generate code for it (`CodegenOptions`). Semantics (workgroup-memory limits), codegen and the
// runtime (which reads the target off the adapter) all use them, so they live here, before all of them.

/** One of `chromium-experimental-subgroup-matrix`'s configurations: M × K by K × N matrices. */
export interface SubgroupMatrixConfig {
  componentType: string;
  resultComponentType: string;
  M: number;
  N: number;
  K: number;
}

/**
 * What the adapter offers, as the runtime reads it off the device (runtime/gpu.ts): facts the code
 * generator may assume, never choices. How to use them is `CodegenOptions`.
 */
export interface Target {
  shaderF16: boolean;
  subgroups: boolean;
  /** Subgroup size the adapter reports as minimum (lavapipe 8, NVIDIA 32), when subgroups are on. */
  subgroupMinSize: number;
  /** Largest subgroup size, when known (NVIDIA 32, like its minimum; lavapipe 8). */
  subgroupMaxSize?: number;
  /**
   * The subgroup-matrix configurations the device offers (Dawn's
   * `chromium-experimental-subgroup-matrix`, requested when the adapter has it); absent without.
   */
  subgroupMatrixConfigs?: readonly SubgroupMatrixConfig[];
  maxWorkgroupSize: number;
  maxWorkgroupStorageBytes: number;
}

/**
 * How to generate code for a target: switches a run (num_warps, num_stages), the instrumented
 * launch, the bench or a tuner sets; absent, each takes the default its comment gives. The code
 * generator's plan (codegen/plan.ts) resolves them, and turns some off where a kernel would not fit.
 */
export interface CodegenOptions {
  /**
   * Run a loop's `acc = tl.dot(a, b, acc)` of f16 blocks on subgroup matrices (tensor cores,
   * codegen/mma.ts) where a configuration fits (default); false keeps the generic tiled path.
   */
  subgroupMatrixDot?: boolean;
  /**
   * Stage a loop's tl.dot on subgroup matrices in two alternating buffers where both fit: one
   * barrier per trip instead of two (codegen/mma.ts). Off unless true: on the H200 a hand-written
   * 128×128×32 matmul ran at 33 TFLOP/s so against 182 with one buffer (bench/NOTES.md §19).
   */
  mmaDoubleBuffer?: boolean;
  /**
   * Stage a loop-invariant A of a tl.dot on subgroup matrices once, before its loop, in an array of
   * its own (attention's Q). On unless false; a kernel then over the workgroup-memory limit is
   * compiled without it (codegen/plan.ts).
   */
  mmaStageInvariant?: boolean;
  /**
   * Hold such a staged A in left matrices for the whole loop instead of loading them from workgroup
   * memory every trip (codegen/mma.ts): staged into the dot-shared A array, loaded once before the
   * loop, as bench/flash-kernels.ts holds Q (bench/NOTES.md §25, §29). On unless false (measured
   * faster at every attention config timed, NOTES §39); nothing without mmaStageInvariant. More registers per invocation, less workgroup memory.
   */
  mmaHoldInvariant?: boolean;
  /**
   * In a kernel whose tl.dot calls on subgroup matrices are all "once" plans (attention's Q·Kᵀ and
   * P·V), no barrier before a dot's operands are staged and none before its product first leaves
   * the matrices (codegen/mma.ts): every such dot has a barrier after its staging and one after
   * storing its product, and these already order every earlier read of the arrays written
   * (bench/NOTES.md §29). On unless false (faster at every attention config timed, NOTES §39).
   */
  mmaLeanBarriers?: boolean;
  /**
   * In a kernel whose tl.dot calls all run on subgroup matrices and that reduces a block along its
   * rows (attention), hold every 2-D block of as many rows as the workgroup has invocations one whole
   * row per invocation (codegen/layout.ts lane rows), as bench/flash-kernels.ts's lanes hold S and O:
   * the scores and the accumulator then have the same rows in the same invocation, so the online
   * softmax's rescale factor reaches the accumulator in registers, not through workgroup memory
   * (2 barriers a key block fewer at 128 × 32 over 128 invocations; bench/NOTES.md §31), and a row
   * reduction needs no shuffles. Off unless true.
   */
  mmaLaneRows?: boolean;
  /**
   * In a kernel whose tl.dot calls all run on subgroup matrices and that reduces a block along its
   * rows (attention), hold each row of the 2-D blocks in this many invocations (codegen/layout.ts
   * row threads; a power of two, where the block's shape allows it): fewer invocations a row means
   * fewer shuffle steps in each row reduction, and fewer rows an invocation fewer copies of each
   * row's rescale factor (attention's 64 × 64 scores over 256 invocations: 16 a row by default, 4
   * steps for each of 4 rows; 4 a row: 2 steps for 1 row). Unset: the default tile. mmaLaneRows
   * wins where both apply.
   */
  mmaRowThreads?: number;
  /**
   * A row sum a loop carries and reads only to update it (attention's `l_i = l_i * alpha +
   * tl.sum(p, 1)`), carried as its terms, one per element of the summed block, and added up once
   * after the loop (codegen/deferred-sums.ts): no combining across a row's invocations in each
   * trip, one register more per element an invocation holds. Off unless true.
   */
  deferRowSums?: boolean;
  /**
   * An online softmax's running row maximum (attention's `m_ij = tl.maximum(m_i, tl.max(qk, 1))`,
   * used only as the reference of p, alpha and the sums they make) kept where it is by each
   * subgroup none of whose scores passes it by more than 8 (log2 units), with no shuffles; the
   * subgroups where one does combine the row maxima as before (codegen/lazy-max.ts: applied only
   * where the reference provably cancels out of the results). Off unless true.
   */
  lazyRowMax?: boolean;
  /**
   * A tiled block's element index split into row and column term by term (codegen/rearrange.ts
   * `tileTerms`): `(tile % C) + k` where `(tile + K) % C` was, so that the registers of one column
   * share one value. On an H100 the attention leader ran 6% faster with it and the f16 matmul's
   * 128 × 128 over 8 subgroups 20% slower (bench/NOTES.md §54). Off unless true.
   */
  splitTileIndices?: boolean;
  /**
   * The row and column of a block's flat element index (a broadcast's, a slice's) taken as unsigned
   * quotient and remainder, `i32(u32(e) / 64u)`, where the signed `(e / 64)` costs the driver a sign
   * correction on every element (codegen/rearrange.ts `IndexForm`). A flat index is never negative,
   * so the values are the same. A bench switch until timed (bench/NOTES.md §84). Off unless true.
   */
  unsignedIndices?: boolean;
  /**
   * A loop whose comparisons with its counter hold for the whole block in most trips (attention's
   * `start_n + offs_n < N_CTX`, the causal mask below the diagonal) peeled: a first loop runs the
   * trips while a test on scalars says they all hold, with them `true`; a second the rest as written
   * (codegen/whole-trips.ts). On an H100 the attention leader ran 5–8% faster (24% at the default
   * knobs), and with K and V a block ahead at 89.9–90.5% of the hand-written kernel; the f16 matmul's
   * configs −9% to +26% (bench/NOTES.md §56). By default on where the loop's dots on matrices
   * multiply afresh each trip (attention), off where one accumulates across trips (the matmul).
   */
  wholeTrips?: boolean;
  /**
   * The loads of a loop's `acc = tl.dot(a, b, acc)` operands without the mask terms on A's rows and
   * B's columns that the accumulator's store also masks (the example's `offs_m < M`, `offs_n < N`):
   * what they read there reaches only outputs the store leaves unwritten (codegen/dot-edges.ts).
   * Triton's tutorial 03 writes the same by hand (`offs_am = (…) % M`, K masks alone). Not where
   * instrumented (the checks see every address as written). A bench switch: on an H100 it ran slower
   * at every setting timed, alone, with words and with the K loop peeled, at 1000×1001×1003 (63.3 →
   * 59.1 at the leader) and at 1024³ (102.7 → 94.8), where no program has an edge (bench/NOTES.md
   * §73). Off unless true.
   */
  unmaskedDotEdges?: boolean;
  /**
   * Store a loop's accumulator on subgroup matrices straight from the matrices where tutorial 03's
   * `tl.store(c_ptrs, acc, mask)` follows the loop and the tile is whole (codegen/mma-store.ts). On
   * unless false: through registers a hand-written H200 matmul ran at 154 TFLOP/s against 229–241
   * (bench/NOTES.md §21).
   */
  mmaDirectStore?: boolean;
  /**
   * With the direct store, take the edge tiles (and a misaligned C) from the matrices too: one matrix
   * a subgroup at a time through 1 KiB of workgroup memory per subgroup, each element stored where the
   * mask holds (codegen/mma-store.ts). On unless false; false moves the accumulator into registers
   * through a transfer array of 8–33 KiB, which cost the H100 44% at 128×128 over 4 subgroups
   * (bench/NOTES.md §44).
   */
  mmaEdgeSlices?: boolean;
  /**
   * How a tl.dot on subgroup matrices spreads its output tile over the workgroup's subgroups: this
   * many subgroups along M, the rest along N, so each holds (M / cm / mmaSubgroupsM) × (N / cn /
   * subgroupsN) matrices (codegen/mma-plan.ts). Unset (or where it does not divide the tile) the
   * squarest split: fewest matrix loads per multiply.
   */
  mmaSubgroupsM?: number;
  /**
   * Carry a loop's prefetched f16 operand tiles of a tl.dot on subgroup matrices (pipeline.ts) packed,
   * 4 halves per `vec2<u32>` (2 halves a 32-bit register), where every run of 4 of their loads is read
   * whole (known aligned, or shifted: `shiftedHalfRows`), and stage them from those registers; the
   * loop's pointer variables advanced alike for every element kept as one base register each, not
   * one per run (codegen/packed-halves.ts); in runs of 8 (`runsOf8`), 8 halves per `vec4<u32>`. Off
   * unless true, or unset where runs of 8 are taken (bench/NOTES.md §28, §63): the generated loop
   * held one half per register, twice what the hand-written 242 TFLOP/s kernel holds.
   */
  mmaPackedPrefetch?: boolean;
  /** Workgroup memory for moving accumulators between registers and matrices (default 32 KiB; halved down to 4 KiB where memory is short). */
  mmaTransferBytes?: number;
  /**
   * Floats of padding per row of the array the accumulators move through between registers and
   * matrices (codegen/mma-plan.ts transferShape; a multiple of 4 from 0 to 32, default 4): which
   * banks a subgroup's reads of its scores and the matrices' stores fall on depends on the row stride
   * and on how the registers' layout spreads rows over a subgroup's lanes (bench/NOTES.md §51).
   */
  mmaTransferPad?: number;
  /**
   * Tests only: generate the subgroup-matrix code with each matrix emulated in private arrays
   * (subgroups of 32 as lid / 32), so an adapter without the feature (lavapipe) runs the same
   * staging, offsets and transfers; with `subgroupMatrixConfigs` to plan for.
   */
  subgroupMatrixEmulation?: boolean;
  /**
   * Subgroup matrices: each subgroup takes its index from the subgroup_id builtin instead of
   * `local_invocation_index / subgroup size` (the default; the same number wherever the adapter has
   * one subgroup size, as WebGPU numbers invocations subgroup by subgroup). A bench switch: on the
   * H100 the builtin made the f16 matmul at 256×128 over 16 subgroups 26% slower (bench/NOTES.md §57).
   */
  mmaSubgroupBuiltin?: boolean;
  /**
   * Subgroup matrices: each invocation's first staging index taken from its flat element index by
   * `/ cols` and `% cols`, as before 2026-12-06, instead of from `local_invocation_index` itself (the
   * default, whose indices Tint knows in bounds, so it leaves those stores unclamped; codegen/mma-transfer.ts,
   * bench/NOTES.md §60). A bench switch, to time the two against each other.
   */
  mmaStagingFlatIndex?: boolean;
  /** Most invocations the compiler gives one program instance (default 512; see codegen/layout.ts). */
  preferredWorkgroupSize?: number;
  /**
   * How many trips of a loop around tl.dot are in flight (a run's `num_stages`, as Triton's):
   * 2 loads trip k + 1's operands before trip k's tl.dot (codegen/pipeline.ts); 1 loads each
   * trip's operands when it starts. Unset (the default) is 2 except in loop nests with two or
   * more dots (attention) and where the outputs and prefetched elements would exceed
   * PIPELINE_REGISTERS per invocation: there prefetching measured slower on the H200
   * (bench/NOTES.md §9, §17). An explicit 2 prefetches in those loops too.
   */
  numStages?: number;
  /** Exactly this many invocations per program instance (a run's `num_warps` × 32), when set. */
  workgroupSize?: number;
  /**
   * Lay 2-D blocks out in per-invocation sub-tiles (layout.ts), so tl.dot blocks registers:
   * by default on in kernels with tl.dot (on the H200, 128×128×16 tiles: 32.5 TFLOP/s tiled,
   * 26.7 flat; bench/NOTES.md §5) and off elsewhere.
   */
  tiledLayouts?: boolean;
  /**
   * Lay row vectors out as the rows of a tiled block they are reduced from (layout.ts, rowSlicesOf),
   * so row reductions need no workgroup memory and their broadcasts back move nothing. On by
   * default where tiled layouts are on; only kernels that reduce a tiled block along its rows
   * (attention) change. `false` compiles them as before (bench/NOTES.md §17).
   */
  rowLayouts?: boolean;
  /**
   * Give a tiled tl.dot its own staging arrays, written without a barrier first, where every trip
   * of the loop around it runs another tl.dot whose barriers already separate its executions
   * (codegen/dot-barriers.ts: attention's two dots; 4 → 2 barriers per key block). Off by
   * default (`true` turns it on): on the H200 the extra workgroup memory cost resident programs
   * and attention ran 30–35% slower with it (bench/NOTES.md §17). A kernel that then needs more
   * workgroup memory than the adapter has compiles without it.
   */
  privateDotTiles?: boolean;
  /**
   * Load a loop-invariant tl.dot operand (tutorial 06's q, loaded before its key loop) inside the
   * loop that multiplies by it, in loops with two or more dots on the generic path (codegen/sink.ts),
   * as the hand-written example does: nothing block-sized is then held across the trips. On
   * unless false.
   */
  sinkInvariantDotLoads?: boolean;
  /** Write the k loop of a tiled tl.dot out in full (default) instead of leaving it to the driver: +23% on the H200. */
  unrollDot?: boolean;
  /**
   * Stage a tiled tl.dot's operands in two alternating workgroup buffers where both fit: one
   * barrier per k step instead of two. Off by default: on the H200 it was 3% slower at 128×128×16
   * and up to 20% slower at 64×128 (bench/NOTES.md §13).
   */
  doubleBufferDot?: boolean;
  /**
   * Shift each row of tl.dot's transposed, staged A by a few vec4s so that staging it hits
   * distinct workgroup-memory banks (codegen/dot.ts; at most 2 × BLOCK_K elements more per dot). On unless false;
   * a kernel that then needs more workgroup memory than the adapter has is compiled without it.
   */
  padDotTiles?: boolean;
  /**
   * Stage a tl.dot's operands (those not on subgroup matrices) this many of K's columns of A and
   * rows of B at a time, each chunk between two barriers, instead of whole (codegen/dot-chunks.ts).
   * Unset by default (whole); only the plan's last fallback sets it, halving it until the kernel
   * fits the adapter's workgroup memory (codegen/plan.ts): attorch's attention backward stages
   * a 128 × 128 f16 `tl.trans(p)` whole, 32 KiB (bench/NOTES.md §37).
   */
  dotChunkK?: number;
  /**
   * Reductions whose partials take arrays of their own (row reductions and subgroup partials outside
   * loops, which so skip a barrier) and the scalar reductions' tree use the staging array instead, the
   * one every staged reduction, relayout and scan shares, sized to the largest use: one more barrier
   * before each, since the last one's readers may still read it (codegen/reductions.ts). Unset by
   * default; the plan's first fallback sets it when a kernel doesn't fit the adapter's workgroup
   * memory and sharing takes less (codegen/plan.ts): SpargeAttn's pooling kernel at block 128 on
   * `--cpu` (bench/NOTES.md §81). False: never.
   */
  shareReductionArrays?: boolean;
  /**
   * Move contiguous runs of f16 elements as `vec4<f16>` (8 bytes) to and from storage buffers, as
   * runs of f32 move as vec4s. On unless false; false gives the scalar f16 accesses of the first
   * H200 f16 run, to time against (bench/NOTES.md §18: the f16 matmul on subgroup matrices has
   * been slower since).
   */
  wideHalfAccesses?: boolean;
  /**
   * Use what a launch's integer arguments are known to be multiples of (compile.ts
   * specializationFor, Triton's divisibility by 16): a wide f16 load whose runs are then known to
   * be aligned and masked whole has no check at run time (codegen/memory.ts). On unless false.
   */
  divisibility?: boolean;
  /**
   * How such a load reads its runs where a mask may be off: "block" (default, and "tile" where runs
   * of 8 are: `runsOf8`) one branch for the whole block, then a branch per run; "select" every run read unconditionally (a masked-off run
   * from element 0) and `other` selected, with no branch; "tile" as "block", but the test is whether
   * the whole tile is inside the mask, on scalars (the mask's `x < n` tests at the tile's largest x:
   * codegen/mma-store.ts tileInside), where the mask is made of such tests.
   */
  halfLoadForm?: "block" | "select" | "tile";
  /**
   * With halfLoadForm "tile": leave the per-element mask values where the kernel computes them
   * instead of moving them onto the way that reads the runs one by one (codegen/tile-masks.ts).
   * A bench switch, not a tuner knob: on the H100 it won at 128×128 over 8 subgroups (149.8
   * against 117.2 TFLOP/s moved) and tied at 256×128 over 16 (bench/NOTES.md §41). Off unless true.
   */
  tileMasksInPlace?: boolean;
  /**
   * An f16 load of runs of 4 along rows that are not known to start on multiples of 4 elements (a
   * row stride not a multiple of 16, as K = 1003 gives A): true reads each run as the two aligned
   * `vec4<f16>` that cover it, the run's shift applied in registers (codegen/packed-halves.ts);
   * "words" reads it as the 3 words (4 bytes each) that cover it, its buffer bound as `array<u32>`,
   * shifted by half a word on an odd start (codegen/memory.ts), as the hand-written matmul that ran
   * 13% faster than a half a load (bench/NOTES.md §63). Unset or false, element by element. true
   * lost on the H100 (§39); "words" ran 3–5% slower than a half a load at 1000×1001×1003's leader and
   * 4–6% faster at 64×64 over 4 (§69; peeled, §71), so it is the tuner's, not the default.
   * "chunks" holds the block in runs of 8 (`runsOf8`, with its defaults) and reads each run of 8 as
   * the two aligned 16-byte chunks that cover it, shifted by its start mod 8 at run time
   * (codegen/load-forms.ts readsChunks), as the hand-written kernel that ran 34% faster than a half a
   * load at 1024³ (bench/NOTES.md §75).
   */
  shiftedHalfRows?: boolean | "words" | "chunks";
  /**
   * Hold blocks in runs of 8 contiguous elements per invocation (codegen/layout.ts, where a block
   * has 8 or more elements per invocation and rows of a multiple of 8) instead of 4, so that an f16
   * load known aligned to 8 elements reads 16 bytes at a time, its buffer bound as
   * `array<vec4<u32>>` (codegen/memory.ts), as the hand-written 244 TFLOP/s matmul reads (bench/NOTES.md
   * §60). Only in kernels whose every tl.dot runs on subgroup matrices, with the default tiles
   * (not `mmaLaneRows` or `mmaRowThreads`). With them, unless set otherwise, `mmaPackedPrefetch` and
   * halfLoadForm "tile" (codegen/plan.ts withRunsOf8). Unset, they are the default for a matmul-like
   * kernel at a launch whose f16 runs are aligned, where some load then reads 16 bytes (plan.ts
   * takesRunsOf8; bench/NOTES.md §63: 4096³ 200.9 → 237.9 TFLOP/s on an H100); false turns them off.
   */
  runsOf8?: boolean;
  /**
   * A loop that runs a tl.dot on subgroup matrices into its accumulator (the matmul's K loop), with
   * `<` and a constant positive step, and no `break`, `continue` or assignment of its counter: two
   * trips a pass, each in its own scope, then the last odd trip (codegen/statements.ts), as a driver
   * unrolls a loop whose trip count it knows (the probe's 1024³ kernel, eight trips a pass). A bench
   * switch, off unless true: on an H100 it lost at 4096³ (239.1 → 211.2 TFLOP/s) and 1024³ (103.4 →
   * 96.4) and at the odd size's leader (58.7 → 56.8), bench/NOTES.md §63.
   */
  unrollPairs?: boolean;
  /**
   * The correctness launch's variant (codegen/instrument.ts): every load and store checks its
   * lanes against the buffer's element count and every store records who wrote each element.
   * Off for timed launches, whose WGSL stays as it is.
   */
  instrument?: boolean;
}

/** WebGPU's default limits: what every adapter offers. */
export const DEFAULT_TARGET: Target = {
  shaderF16: false,
  subgroups: false,
  subgroupMinSize: 4,
  maxWorkgroupSize: 256,
  maxWorkgroupStorageBytes: 16384,
};

/** What a file's kernels need from the adapter beyond WebGPU's core (syntax/needs.ts reads it off the source). */
export interface HalfPrecisionNeeds {
  /** A kernel has a `Ptr<f16>` or `f16` parameter or writes the dtype "f16". */
  f16: boolean;
  /** …and calls tl.dot, which runs on subgroup matrices where the device offers them. */
  f16Dot: boolean;
}

export const NO_NEEDS: HalfPrecisionNeeds = { f16: false, f16Dot: false };

/** The end of the message for an f16 kernel on an adapter without `shader-f16` (KL2010): why, and what to do instead. */
export const F16_MISSING =
  "which this GPU does not offer, not even with the Dawn toggle Kernel Lab asks for (unless kernelLab.dawnToggles or KERNEL_LAB_DAWN_FLAGS turned it off; docs/LANGUAGE.md §2.7); run the file with --cpu (in the editor: kernelLab.backend \"cpu\"), whose interpreter has f16";

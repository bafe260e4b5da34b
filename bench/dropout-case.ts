// Seeded dropout (examples/dropout.kernel.ts, Triton tutorial 04) in the suite: p = 0.5 over n
// float32 elements, each element's keep decided by tl.rand(seed, offset) — Philox 4×32-10.
// GB/s counts x read once and the output written once (8 bytes per element); the mask is never
// stored, which is the tutorial's point (torch's dropout also writes a 1-byte mask: not counted).

import { randint4x, uniformFromU32 } from "../src/ir/philox";
import { empty, randn, sampleIndices, type Case } from "./case";

const P = 0.5;
const SEED = 123;
/** Elements checked at most: Philox on the CPU runs BigInt products, ~1 µs an element. */
const CHECKED = 1 << 16;

/** The reference: ir/philox.ts, checked against Random123's published vectors (test/unit/philox.test.ts). */
function keep(i: number): boolean {
  return uniformFromU32(randint4x(SEED, i)[0]) > P;
}

export function dropout(n: number): Case {
  const log2 = Math.log2(n);
  return {
    name: Number.isInteger(log2) ? `dropout-${log2}` : `dropout-${n}`,
    example: "dropout",
    kernel: "seeded_dropout",
    shape: Number.isInteger(log2) ? `2^${log2}, p=${P}` : `${n}, p=${P}`,
    // The tutorial launches BLOCK_SIZE 1024; larger blocks give each invocation more elements.
    configs: [{ BLOCK_SIZE: 1024 }, { BLOCK_SIZE: 2048 }, { BLOCK_SIZE: 4096 }, { BLOCK_SIZE: 1024, num_warps: 8 }],
    grid: (c) => [Math.ceil(n / c.BLOCK_SIZE)],
    args: () => ({ x_ptr: randn(n), output_ptr: empty(n), n_elements: n, p: P, seed: SEED }),
    outputs: ["output_ptr"],
    check: (a) => {
      const x = a.x_ptr as Float32Array;
      const indices = sampleIndices(n, CHECKED);
      const expected = Float64Array.from(indices, (i) => (keep(i) ? x[i] / (1 - P) : 0));
      return [{ output: "output_ptr", indices: indices.length === n ? undefined : indices, expected }];
    },
    bytes: 8 * n,
  };
}

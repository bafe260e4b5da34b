// The built-in element-wise ops against a CPU reference, on fresh random inputs, at sizes that are
// not multiples of 4 or of a program's 1024 elements; outputs are poisoned first, and nothing past
// element n-1 may be written.

import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { BUILTINS, ELEMENTS_PER_PROGRAM } from "../../src/builtins";
import { acquireGpu, createStorageBuffer, launch, readBuffer, storageByteSize, timeLaunches, type Gpu } from "../../src/runtime";

process.env.XDG_RUNTIME_DIR ??= "/tmp";

const SIZES = [1, 3, 4, 1000, 98433];
/** A quiet-NaN bit pattern an op never produces from finite inputs. */
const POISON_BITS = 0x7fc0dead;

function randomF32(n: number): Float32Array {
  return Float32Array.from({ length: n }, () => (Math.random() - 0.5) * 200);
}

function poisoned(n: number): Float32Array {
  const out = new Float32Array(storageByteSize(4 * n) / 4);
  new Uint32Array(out.buffer).fill(POISON_BITS, 0, n);
  return out;
}

describe("builtins", () => {
  let gpu: Gpu;
  before(async () => {
    gpu = await acquireGpu();
  });

  it("declares each op with its ABI: a (, b), out bound at 1.., n at word 4", () => {
    for (const name of ["builtins.add", "builtins.sub", "builtins.mul", "builtins.copy"]) {
      const op = BUILTINS[name];
      assert.ok(op, name);
      const { abi } = op.program(10);
      assert.equal(abi.kernel, name);
      assert.deepEqual(
        abi.buffers.map((b) => [b.name, b.binding, b.access, b.vectorWidth]),
        [...(op.arity === 2 ? [["a", 1, "read", 4], ["b", 2, "read", 4]] : [["a", 1, "read", 4]]), ["out", op.arity + 1, "read_write", 4]],
      );
      assert.deepEqual(abi.scalars, [{ name: "n", dtype: "u32", word: 4 }]);
      assert.deepEqual(op.grid(0), [1, 1, 1]);
      assert.deepEqual(op.grid(ELEMENTS_PER_PROGRAM + 1), [2, 1, 1]);
    }
  });

  for (const [name, op] of Object.entries(BUILTINS)) {
    it(`${name} matches the CPU at sizes ${SIZES.join(", ")}`, async () => {
      for (const n of SIZES) {
        const a = randomF32(n);
        const b = op.arity === 2 ? randomF32(n) : undefined;
        const expected = op.reference(a, b);
        const buffers = {
          a: await createStorageBuffer(gpu, a, `${name} a`),
          ...(b ? { b: await createStorageBuffer(gpu, b, `${name} b`) } : {}),
          out: await createStorageBuffer(gpu, poisoned(n), `${name} out`),
        };
        await launch(gpu, op.program(n), op.grid(n), { buffers, scalars: { n } });
        const padded = storageByteSize(4 * n) / 4;
        const got = await readBuffer(gpu, buffers.out, "f32", padded);
        for (const buffer of Object.values(buffers)) buffer.destroy();
        let mismatches = 0;
        let first = -1;
        for (let i = 0; i < n; i++) {
          if (!Object.is(got[i], expected[i]) && (mismatches++ === 0)) first = i;
        }
        assert.equal(mismatches, 0, `n=${n}: ${mismatches} mismatches, first at ${first}: got ${got[first]}, expected ${expected[first]}`);
        // The padding after element n-1 was zero and must still be.
        for (let i = n; i < padded; i++) assert.equal(got[i], 0, `n=${n}: element ${i} past the end was written`);
      }
    });
  }

  it("times builtins.add with GPU timestamps over rotated inputs", async () => {
    const op = BUILTINS["builtins.add"];
    const n = 98433;
    const sets = [];
    for (let k = 0; k < 3; k++) {
      sets.push({
        buffers: {
          a: await createStorageBuffer(gpu, randomF32(n), `a ${k}`),
          b: await createStorageBuffer(gpu, randomF32(n), `b ${k}`),
          out: await createStorageBuffer(gpu, poisoned(n), `out ${k}`),
        },
        scalars: { n },
      });
    }
    const t = await timeLaunches(gpu, op.program(n), op.grid(n), sets, { budgetMs: 500 });
    assert.equal(t.source, gpu.hasTimestamps ? "timestamp-query" : "wall-clock");
    assert.ok(t.reps >= 10, `reps ${t.reps}`);
    assert.ok(t.minMs > 0 && t.minMs <= t.medianMs && t.medianMs <= t.maxMs, JSON.stringify(t));
    console.log(`# builtins.add n=${n}: median ${t.medianMs.toFixed(4)} ms [${t.minMs.toFixed(4)}, ${t.maxMs.toFixed(4)}] over ${t.reps} reps (${t.source}), ${((12 * n) / t.medianMs / 1e6).toFixed(2)} GB/s`);
    // Inputs rotate and every launch writes the first set's output (timing.ts: serialised),
    // so it holds the sum of whichever set ran last.
    const out = await readBuffer(gpu, sets[0].buffers.out, "f32", n);
    const sums = [];
    for (const set of sets) sums.push(op.reference(await readBuffer(gpu, set.buffers.a, "f32", n), await readBuffer(gpu, set.buffers.b, "f32", n)));
    assert.ok(sums.some((sum) => sum.every((v, i) => v === out[i])), "the output is the sum of one of the input sets");
  });
});

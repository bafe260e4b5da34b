// Philox 4×32-10 against the published known-answer vectors (Random123's kat_vectors), and
// Triton's conversions to floats.

import { test } from "node:test";
import assert from "node:assert/strict";
import { philox4x32, randint4x, uniformFromU32, normalFromU32Pair, umulhi } from "../../src/ir/philox";

const hex = (words: number[]) => words.map((w) => w.toString(16).padStart(8, "0")).join(" ");

// [counter, key, expected] from Random123 1.09 examples/kat_vectors, "philox4x32 10".
const KAT: [[number, number, number, number], [number, number], string][] = [
  [[0, 0, 0, 0], [0, 0], "6627e8d5 e169c58d bc57ac4c 9b00dbd8"],
  [[0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff], [0xffffffff, 0xffffffff], "408f276d 41c83b0e a20bc7c6 6d5451fd"],
  [[0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0], "d16cfe09 94fdcceb 5001e420 24126ea1"],
];

for (const [counter, key, expected] of KAT) {
  test(`philox4x32-10 ${hex([...counter])} / ${hex([...key])}`, () => {
    assert.equal(hex(philox4x32(counter, key)), expected);
  });
}

test("umulhi is the high word of the 64-bit product", () => {
  assert.equal(umulhi(0xffffffff, 0xffffffff), 0xfffffffe);
  assert.equal(umulhi(0x10000, 0x10000), 1);
  assert.equal(umulhi(3, 5), 0);
});

test("randint4x puts the offset in the first counter word and the seed in the key", () => {
  assert.deepEqual(randint4x(0, 0), philox4x32([0, 0, 0, 0], [0, 0]));
  assert.deepEqual(randint4x(0x1234, 7), philox4x32([7, 0, 0, 0], [0x1234, 0]));
});

test("uniform floats lie in [0, 1) and normals are finite", () => {
  for (const w of [0, 1, 0x7fffffff, 0x80000000, 0xffffffff]) {
    const u = uniformFromU32(w);
    assert.ok(u >= 0 && u < 1, `${w} → ${u}`);
  }
  let sum = 0;
  const n = 20000;
  for (let i = 0; i < n; i++) {
    const [a, b] = randint4x(42, i);
    const z = normalFromU32Pair(a, b);
    assert.ok(Number.isFinite(z));
    sum += uniformFromU32(a);
  }
  assert.ok(Math.abs(sum / n - 0.5) < 0.01, `mean ${sum / n}`);
});

// The check every knob setting of a Python @triton.autotune passes before it is timed
// (harness/python/autotune.ts firstDifference): its outputs against the default knobs' checked
// launch, f16 compared as values (not bits), f32 within a small tolerance, integers exactly; and
// the key its choice is cached under.

import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { autotuneCacheKey, firstDifference } from "../../src/harness/python/autotune";
import { lookupChoice, storeChoice } from "../../src/harness/autotune/autotune-cache";
import type { AutotuneRequest, TensorDtype } from "../../src/harness/python/protocol";
import { f16ToBits } from "../../src/ir/f16";

test("f16 outputs are compared as values: a rounding step apart matches, a wrong element is named", () => {
  const want = Uint16Array.from([1.5, -2, 1000, 0.25], f16ToBits);
  const close = Uint16Array.from(want, (b, i) => (i === 2 ? b + 1 : b)); // 1000 → 1000.5: within 1e-3 relative
  assert.equal(firstDifference(close, want, "f16"), undefined);
  const wrong = Uint16Array.from([1.5, -2, 1000, 0.5], f16ToBits);
  assert.deepEqual(firstDifference(wrong, want, "f16"), { index: 3, got: 0.5, want: 0.25 });
  // Bits that differ in sign only are a difference (−0.25 against 0.25), NaN matches NaN.
  assert.ok(firstDifference(Uint16Array.from([1.5, -2, 1000, -0.25], f16ToBits), want, "f16"));
  assert.equal(firstDifference(Uint16Array.from([NaN], f16ToBits), Uint16Array.from([NaN], f16ToBits), "f16"), undefined);
});

test("f32 within 1e-4 relative (1e-5 absolute) matches; integers must be equal", () => {
  assert.equal(firstDifference(Float32Array.from([1.00001, 0]), Float32Array.from([1, 0.000001]), "f32"), undefined);
  assert.deepEqual(firstDifference(Float32Array.from([1, 2.001]), Float32Array.from([1, 2]), "f32")?.index, 1);
  assert.deepEqual(firstDifference(Int32Array.from([3, 4]), Int32Array.from([3, 5]), "i32"), { index: 1, got: 4, want: 5 });
  assert.equal(firstDifference(Float32Array.from([NaN]), Float32Array.from([1]), "f32")?.index, 0);
});

test("the on-disk cache keys a tuning by every tensor argument's dtype too: same key values, another dtype is a miss", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kl-autotune-key-"));
  try {
    const file = path.join(dir, "autotune.json");
    const adapter = { vendor: "v", device: "d", backend: "vulkan", description: "lavapipe" };
    const columns = [{ BLOCK: 64 }, { BLOCK: 128 }];
    // `n` is the autotuner's only key argument; `x` (not a key argument) changes dtype.
    const request = (dtype: TensorDtype): AutotuneRequest => ({
      kind: "autotune", kernel: "scale", callLine: 9, key: "1000",
      configs: columns.map((c) => ({
        kind: "launch", kernel: "scale", defLine: 3, callLine: 9, grid: [16, 1, 1], options: {}, record: false, warmup: false,
        args: [{ name: "x", kind: "tensor", dtype, data: new Uint8Array(0) }, { name: "n", kind: "int", value: 1000 }, { name: "BLOCK", kind: "constexpr", value: c.BLOCK }],
      })),
    });
    const f32 = autotuneCacheKey(request("float32"), columns, "script", adapter);
    storeChoice(f32, { run: "scale", kernel: "scale", size: 0, adapter: "v", picked: { BLOCK: 128 }, codegen: {}, candidates: [], date: "2026-12-05" }, file);
    assert.equal(lookupChoice(autotuneCacheKey(request("float32"), columns, "script", adapter), file)?.picked.BLOCK, 128);
    assert.equal(lookupChoice(autotuneCacheKey(request("float16"), columns, "script", adapter), file), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
